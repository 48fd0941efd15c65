//! Connecting the scripted client to a server in process (over an
//! in-memory duplex pipe), on either lifecycle, and calling tools.

use rmcp::model::{CallToolRequestParams, CallToolResult, ProtocolVersion};
use rmcp::service::{ClientServiceExt, RunningService, ServerInitializeError, ServiceError};
use rmcp::{ClientLifecycleMode, RoleClient, RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;
use tokio::task::JoinHandle;

use crate::ScriptedClient;

pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The client's side of a session.
pub type Client = RunningService<RoleClient, ScriptedClient>;

/// A running in-process session: the server's side and the client's.
pub type Session<S> = (RunningService<RoleServer, S>, Client);

/// Connects `server` and `client` over an in-memory duplex pipe (both
/// `serve` calls run together: the server waits for `initialize`, the
/// client sends it).
///
/// # Errors
///
/// If either side fails to initialise.
pub async fn connect<S: ServerHandler>(
    server: S,
    client: ScriptedClient,
) -> Result<Session<S>, BoxError> {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let (server, client) = tokio::join!(server.serve(server_io), client.serve(client_io));
    Ok((server?, client?))
}

/// A 2026-07-28 session: the server's side is still starting (rmcp's
/// `serve` answers `server/discover` itself and returns only after the first
/// other request), and the client's side.
pub type ModernSession<S> = (
    JoinHandle<Result<RunningService<RoleServer, S>, ServerInitializeError>>,
    Client,
);

/// Connects `server` and `client` on the 2026-07-28 lifecycle: no
/// `initialize`, the client sends `server/discover`, then every request
/// carries its protocol version and capabilities in `_meta`. The client
/// should speak 2026-07-28 ([`ScriptedClient::speaking`]).
///
/// # Errors
///
/// If discovery fails (e.g. the server does not serve 2026-07-28).
pub async fn connect_modern<S: ServerHandler>(
    server: S,
    client: ScriptedClient,
) -> Result<ModernSession<S>, BoxError> {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let server = tokio::spawn(async move { server.serve(server_io).await });
    let client = client
        .serve_with_lifecycle(client_io, modern_lifecycle())
        .await?;
    Ok((server, client))
}

/// The 2026-07-28 lifecycle: `server/discover`, no `initialize`.
pub fn modern_lifecycle() -> ClientLifecycleMode {
    ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    }
}

/// Calls the tool `name` with `arguments` (a JSON object).
///
/// # Errors
///
/// A transport or protocol failure (tool errors are results).
pub async fn call(
    client: &Client,
    name: &'static str,
    arguments: Value,
) -> Result<CallToolResult, ServiceError> {
    let mut params = CallToolRequestParams::new(name);
    if let Value::Object(arguments) = arguments {
        params = params.with_arguments(arguments);
    }
    client.call_tool(params).await
}

/// The text of a tool result's content blocks, joined by newlines.
pub fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
        .collect::<Vec<_>>()
        .join("\n")
}
