//! Streamable HTTP serving for any server on the glue (feature `http`):
//! many sessions in one process, each with a server (and so a
//! [`SessionRoots`](crate::SessionRoots)) of its own, on a loopback address
//! only.
//!
//! rmcp's [`StreamableHttpService`] is served by axum (HTTP/1.1) at
//! [`PATH`]; the factory builds a fresh server for every session
//! (2024-11-05 to 2025-11-25: `initialize` opens it, `Mcp-Session-Id` names
//! it) and for every stateless request (2026-07-28). A session ends with
//! its client's `DELETE` or after `idle` without a message, and its server
//! is dropped with it: its roots, its descriptors, its pending questions.
//! A request naming an unknown or ended session gets `404`, a `DELETE`
//! included.
//!
//! Against DNS rebinding and cross-site requests every request is checked
//! before it reaches a session: its `Host` must be a loopback name with the
//! bound port and an `Origin`, when present, a loopback origin; anything
//! else gets `403`.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;

/// How long a session may go without a message before it ends, by default.
pub const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(30 * 60);

/// The path of the MCP endpoint.
pub const PATH: &str = "/mcp";

/// The loopback names a request's `Host` and `Origin` may carry.
const LOOPBACK_NAMES: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// The header naming a session.
const SESSION_ID: &str = "mcp-session-id";

/// The loopback address `text` names (`127.0.0.0/8` or `[::1]`, with a
/// port; 0 picks a free one).
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
/// session revisions, `Host` limited to loopback names with the bound port,
/// `Origin` to loopback origins, enforced.
pub fn config(bound: SocketAddr) -> StreamableHttpServerConfig {
    let ip = match bound {
        SocketAddr::V4(v4) => v4.ip().to_string(),
        SocketAddr::V6(v6) => format!("[{}]", v6.ip()),
    };
    let mut names: Vec<String> = LOOPBACK_NAMES.iter().map(|n| (*n).to_owned()).collect();
    if !names.contains(&ip) {
        names.push(ip);
    }
    let origins: Vec<String> = names
        .iter()
        .flat_map(|name| ["http", "https"].map(|scheme| format!("{scheme}://{name}:*")))
        .collect();
    let port = bound.port();
    StreamableHttpServerConfig::default()
        .with_legacy_session_mode(true)
        .with_allowed_hosts(names.iter().map(|name| format!("{name}:{port}")))
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

/// Serves MCP over Streamable HTTP on `listener` until `shutdown` ends;
/// `sessions` builds the server of each new session and each stateless
/// request; a session without a message for `idle` ends.
///
/// # Errors
///
/// The listener's address cannot be read, or serving fails.
pub async fn serve<S, F>(
    listener: TcpListener,
    sessions: F,
    idle: Duration,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()>
where
    S: ServerHandler + Send + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    let bound = listener.local_addr()?;
    let mut manager = LocalSessionManager::default();
    manager.session_config.keep_alive = Some(idle);
    let manager = Arc::new(manager);
    let config = config(bound);
    // Cancelling rmcp's token ends every session and open stream, so a
    // graceful shutdown does not wait on idle event streams.
    let cancel = config.cancellation_token.clone();
    let service = StreamableHttpService::new(move || Ok(sessions()), manager.clone(), config);
    let router = axum::Router::new()
        .nest_service(PATH, service)
        .layer(axum::middleware::from_fn_with_state(manager, deletes));
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            shutdown.await;
            cancel.cancel();
        })
        .await
}

/// The answers to a `DELETE`. One naming a session the manager does not
/// hold (never opened or ended) gets `404`, as rmcp answers a `POST` or
/// `GET` naming one. One that ends a session gets `200` (rmcp answers
/// `202`, which clients such as the official Python SDK take for a failed
/// termination: the spec's success is `200`). rmcp's own checks (`Host`,
/// `Origin`, the version, a missing id) run first and their answers are
/// kept: only its success is rewritten, so a refused page still gets `403`
/// and learns nothing about the sessions.
async fn deletes(
    State(manager): State<Arc<LocalSessionManager>>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() != Method::DELETE {
        return next.run(request).await;
    }
    let unknown = match request.headers().get(SESSION_ID) {
        Some(id) => match id.to_str() {
            Ok(id) => matches!(manager.has_session(&id.into()).await, Ok(false)),
            // Not text: no session was given such an id.
            Err(_) => true,
        },
        None => false,
    };
    let mut response = next.run(request).await;
    if !response.status().is_success() {
        return response;
    }
    if unknown {
        tracing::debug!("DELETE of an unknown or ended session: 404");
        return (StatusCode::NOT_FOUND, "Not Found: Session not found").into_response();
    }
    *response.status_mut() = StatusCode::OK;
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
    fn hosts_carry_the_bound_port_and_origins_are_loopback() {
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
            LOOPBACK_NAMES
                .iter()
                .chain(["127.0.0.2"].iter())
                .any(|n| o.contains(n))
        }));
    }
}
