//! Connecting the scripted client to a server in process (over an
//! in-memory duplex pipe), on either lifecycle, calling tools, and reading
//! resources one round at a time.

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ErrorData, InputResponses, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse,
};
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

/// Sends one `resources/read` round for `uri`: on 2026-07-28 a retry
/// carries `roots` (the client's `roots/list` answer to the server's input
/// request, under `roots`) and the `state` the previous round sealed.
///
/// # Errors
///
/// The server's JSON-RPC error (a refusal).
///
/// # Panics
///
/// On a transport failure, which no read test expects.
pub async fn read_resource_round(
    client: &Client,
    uri: &str,
    roots: Option<&[&str]>,
    state: Option<&str>,
) -> Result<ReadResourceResponse, ErrorData> {
    let mut params = ReadResourceRequestParams::new(uri);
    if let Some(roots) = roots {
        let listed: Vec<Value> = roots
            .iter()
            .map(|uri| serde_json::json!({ "uri": uri }))
            .collect();
        let answer = serde_json::json!({ "roots": listed });
        let inputs: InputResponses = [("roots".to_owned(), answer)].into();
        params = params.with_input_responses(inputs);
    }
    if let Some(state) = state {
        params = params.with_request_state(state);
    }
    match client.read_resource_once(params).await {
        Ok(response) => Ok(response),
        Err(ServiceError::McpError(error)) => Err(error),
        Err(other) => panic!("{uri}: not a JSON-RPC answer: {other:?}"),
    }
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
