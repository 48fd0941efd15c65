//! `notes-server --http 127.0.0.1:PORT`: the notes server over Streamable
//! HTTP, many sessions in one process, each behind its own boundary.
//!
//! The serving is the glue's ([`mcp_roots_rmcp::http`], shared with
//! `mcp-roots-fs`): rmcp's Streamable HTTP service behind axum, HTTP/1.1 on
//! a loopback address only, at [`PATH`]. Its factory builds a fresh
//! [`NotesServer`] from the operator's policy for every session and every
//! stateless request:
//!
//! - 2024-11-05 to 2025-11-25: `initialize` opens a session
//!   (`Mcp-Session-Id`) with a server of its own: its own
//!   [`SessionRoots`](mcp_roots_rmcp::SessionRoots) (a `Roots` built for
//!   it), held notes and questions. A request naming an unknown or ended
//!   session gets `404`, a `DELETE` included. The session ends with its
//!   client's `DELETE`, or after `idle` without a message (default
//!   [`DEFAULT_SESSION_IDLE`]); either way its server is dropped: its roots
//!   go, its held notes' descriptors are closed, and the questions it was
//!   waiting on are dropped with the session's channel.
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
use std::time::Duration;

use tokio::net::TcpListener;

pub use mcp_roots_rmcp::http::{DEFAULT_SESSION_IDLE, PATH, bind, config, loopback};

use crate::NotesServer;

/// What the server prints on stderr once it listens, before its URL
/// (`notes-server: listening on http://127.0.0.1:PORT/mcp`).
pub const LISTENING: &str = "notes-server: listening on ";

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
    mcp_roots_rmcp::http::serve(listener, sessions, idle, shutdown).await
}
