//! Connecting the scripted client to a [`NotesServer`] in process (over an
//! in-memory duplex pipe), on either lifecycle, and calling tools.

use rmcp::model::{CallToolRequestParams, CallToolResult, ProtocolVersion};
use rmcp::service::{ClientServiceExt, RunningService, ServerInitializeError, ServiceError};
use rmcp::{ClientLifecycleMode, RoleClient, RoleServer, ServiceExt};
use serde_json::Value;
use tokio::task::JoinHandle;

use super::ScriptedClient;
use crate::NotesServer;

/// A running in-process session: the server's side and the client's.
pub type Session = (
    RunningService<RoleServer, NotesServer>,
    RunningService<RoleClient, ScriptedClient>,
);

/// Connects `server` and `client` over an in-memory duplex pipe (both
/// `serve` calls run together: the server waits for `initialize`, the
/// client sends it).
///
/// # Errors
///
/// If either side fails to initialise.
pub async fn connect(
    server: NotesServer,
    client: ScriptedClient,
) -> Result<Session, Box<dyn std::error::Error + Send + Sync>> {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let (server, client) = tokio::join!(server.serve(server_io), client.serve(client_io));
    Ok((server?, client?))
}

/// A 2026-07-28 session: the server's side is still starting (rmcp's
/// `serve` answers `server/discover` itself and returns only after the first
/// other request), and the client's side.
pub type ModernSession = (
    JoinHandle<Result<RunningService<RoleServer, NotesServer>, ServerInitializeError>>,
    RunningService<RoleClient, ScriptedClient>,
);

/// Connects `server` and `client` on the 2026-07-28 lifecycle: no
/// `initialize`, the client sends `server/discover`, then every request
/// carries its protocol version and capabilities in `_meta`. The client
/// should speak 2026-07-28 ([`ScriptedClient::speaking`]).
///
/// # Errors
///
/// If discovery fails (e.g. the server does not serve 2026-07-28).
pub async fn connect_modern(
    server: NotesServer,
    client: ScriptedClient,
) -> Result<ModernSession, Box<dyn std::error::Error + Send + Sync>> {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let server = tokio::spawn(async move { server.serve(server_io).await });
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let client = client.serve_with_lifecycle(client_io, lifecycle).await?;
    Ok((server, client))
}

/// Calls the tool `name` with `arguments` (a JSON object).
///
/// # Errors
///
/// A transport or protocol failure (tool errors are results).
pub async fn call(
    client: &RunningService<RoleClient, ScriptedClient>,
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
