//! `notes-server --http 127.0.0.1:PORT`: the notes server over Streamable
//! HTTP, many sessions in one process, each behind its own boundary.
//!
//! rmcp's [`StreamableHttpService`] is served by axum (as rmcp's own
//! Streamable HTTP examples do), HTTP/1.1 on a loopback address only, at
//! [`PATH`]. Its service factory builds a fresh [`NotesServer`] from the
//! operator's policy for every session and for every stateless request:
//!
//! - 2024-11-05 to 2025-11-25: `initialize` opens a session
//!   (`Mcp-Session-Id`) with a server of its own: its own
//!   [`SessionRoots`](mcp_roots_rmcp::SessionRoots) (a `Roots` built for
//!   it), held notes and questions. A request naming an unknown or ended
//!   session gets `404`, whatever its method: rmcp answers a `DELETE` of a
//!   session it does not hold with `202`, so [`serve`] asks the session
//!   manager first and answers such a `DELETE` `404` itself (a request
//!   without `Mcp-Session-Id` gets rmcp's `400`). The session ends with its client's `DELETE`, or
//!   after `idle` without a message (default [`DEFAULT_SESSION_IDLE`]);
//!   either way its server is dropped: its roots go, its held notes'
//!   descriptors are closed, and the questions it was waiting on are
//!   dropped with the session's channel.
//! - 2026-07-28: every request stands alone (rmcp serves that revision
//!   statelessly): a fresh server per request, the roots come with the
//!   request, and the glue's process-wide `Rounds` carry a call across its
//!   rounds, whichever server instance a retry reaches.
//!
//! Against DNS rebinding and cross-site requests, every request is checked
//! before it reaches a session: its `Host` must name a loopback host with
//! the bound port, and an `Origin`, when present, must be a loopback origin
//! (`http` or `https`, any port). Anything else gets `403`.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;

use crate::NotesServer;

/// How long a session may go without a message before it ends, by default.
pub const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(30 * 60);

/// The path of the MCP endpoint.
pub const PATH: &str = "/mcp";

/// What the server prints on stderr once it listens, before its URL
/// (`notes-server: listening on http://127.0.0.1:PORT/mcp`).
pub const LISTENING: &str = "notes-server: listening on ";

/// The loopback hosts a request's `Host` and `Origin` may name.
const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// The address `text` names, if it is a loopback one (`127.0.0.0/8` or
/// `[::1]`, with a port; port 0 picks a free one).
///
/// # Errors
///
/// A sentence for the operator: not an `IP:PORT`, or not loopback.
pub fn loopback(text: &str) -> Result<SocketAddr, String> {
    let addr: SocketAddr = text.parse().map_err(|_| {
        format!(
            "--http takes a loopback IP:PORT such as 127.0.0.1:8080 or [::1]:8080, not {text:?}"
        )
    })?;
    if !addr.ip().is_loopback() {
        return Err(format!(
            "refusing to listen on {addr}: --http serves loopback addresses only \
             (127.0.0.0/8 or [::1]); the server has no authentication of its own"
        ));
    }
    Ok(addr)
}

/// rmcp's configuration for a server bound at `bound`: sessions for the
/// 2025 revisions, the `Host` allow-list (loopback names with the bound
/// port) and the `Origin` allow-list (loopback origins), enforced.
pub fn config(bound: SocketAddr) -> StreamableHttpServerConfig {
    let port = bound.port();
    let ip = match bound {
        SocketAddr::V4(v4) => v4.ip().to_string(),
        SocketAddr::V6(v6) => format!("[{}]", v6.ip()),
    };
    let mut hosts: Vec<String> = LOOPBACK_HOSTS.iter().map(|h| (*h).to_owned()).collect();
    if !hosts.contains(&ip) {
        hosts.push(ip);
    }
    let origins: Vec<String> = hosts
        .iter()
        .flat_map(|host| ["http", "https"].map(|scheme| format!("{scheme}://{host}:*")))
        .collect();
    StreamableHttpServerConfig::default()
        .with_legacy_session_mode(true)
        .with_allowed_hosts(hosts.iter().map(|host| format!("{host}:{port}")))
        .with_allowed_origins(origins)
        .enforce_origin_validation()
}

/// Binds `addr`, which must be loopback.
///
/// # Errors
///
/// Not a loopback address, or the bind fails (the port is taken).
pub async fn bind(addr: SocketAddr) -> io::Result<TcpListener> {
    if !addr.ip().is_loopback() {
        let message = format!("{addr} is not a loopback address");
        return Err(io::Error::new(io::ErrorKind::InvalidInput, message));
    }
    TcpListener::bind(addr).await
}

/// Serves MCP over Streamable HTTP on `listener` until `shutdown` ends:
/// `sessions` builds the server of each new session and of each stateless
/// request; a session without a message for `idle` ends.
///
/// # Errors
///
/// The listener's address cannot be read, or serving fails.
pub async fn serve<F>(
    listener: TcpListener,
    sessions: F,
    idle: Duration,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()>
where
    F: Fn() -> NotesServer + Send + Sync + 'static,
{
    let bound = listener.local_addr()?;
    let mut manager = LocalSessionManager::default();
    manager.session_config.keep_alive = Some(idle);
    let config = config(bound);
    // Cancelling rmcp's token ends every session and open stream, so the
    // graceful shutdown does not wait on idle SSE streams.
    let cancel = config.cancellation_token.clone();
    let manager = Arc::new(manager);
    let service = StreamableHttpService::new(move || Ok(sessions()), manager.clone(), config);
    let router = axum::Router::new().nest_service(PATH, service).layer(
        axum::middleware::from_fn_with_state(manager, ended_sessions),
    );
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            shutdown.await;
            cancel.cancel();
        })
        .await
}

/// The header that names a session.
const SESSION_ID: &str = "mcp-session-id";

/// A `DELETE` naming a session the manager does not hold (never opened, or
/// ended) gets `404`, as `POST` and `GET` do. rmcp runs its own checks first
/// (`Host` and `Origin`, the protocol version, a missing id): the request
/// goes through it, and only its `202` for a session that did not exist
/// becomes `404`, so a foreign page still gets `403` and learns nothing
/// about which sessions exist.
async fn ended_sessions(
    State(manager): State<Arc<LocalSessionManager>>,
    request: Request,
    next: Next,
) -> Response {
    let unknown = match request.headers().get(SESSION_ID) {
        Some(id) if request.method() == Method::DELETE => match id.to_str() {
            Ok(id) => matches!(manager.has_session(&id.into()).await, Ok(false)),
            // Not text: no session was ever given such an id.
            Err(_) => true,
        },
        _ => false,
    };
    let response = next.run(request).await;
    if unknown && response.status().is_success() {
        tracing::debug!("DELETE of an unknown or ended session: 404");
        return (StatusCode::NOT_FOUND, "Not Found: Session not found").into_response();
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_addresses_are_accepted() {
        for ok in ["127.0.0.1:0", "127.0.0.2:8080", "[::1]:0"] {
            assert!(loopback(ok).is_ok(), "{ok}");
        }
        for refused in [
            "0.0.0.0:8080",
            "[::]:8080",
            "192.168.1.2:80",
            "[::ffff:127.0.0.1]:80",
            "localhost:80",
            "127.0.0.1",
            "",
        ] {
            assert!(loopback(refused).is_err(), "{refused}");
        }
    }

    #[test]
    fn hosts_name_the_bound_port_and_origins_are_loopback() {
        let config = config("127.0.0.2:4000".parse().unwrap());
        assert_eq!(
            config.allowed_hosts,
            [
                "localhost:4000",
                "127.0.0.1:4000",
                "[::1]:4000",
                "127.0.0.2:4000"
            ]
        );
        assert!(
            config
                .allowed_origins
                .contains(&"http://[::1]:*".to_owned())
        );
        assert!(config.allowed_origins.iter().all(|o| {
            LOOPBACK_HOSTS
                .iter()
                .chain(["127.0.0.2"].iter())
                .any(|h| o.contains(h))
        }));
    }
}
