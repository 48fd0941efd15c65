//! `minimal-server`: the smallest complete MCP server on mcp-roots, over
//! stdio. Its one tool, `read_file`, returns a text file from inside the
//! folders the client shared (its roots) and refuses everything else as a
//! tool error, on every protocol revision rmcp offers.

use mcp_roots::Roots;
use mcp_roots_rmcp::{SessionRoots, ToolCall};
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::service::NotificationContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct ReadArgs {
    /// A file:// URI or an absolute path inside the shared folders.
    path: String,
}

/// One per session (stdio: one per process), so a client's roots never
/// authorise another client.
#[derive(Clone)]
struct Server {
    roots: SessionRoots,
    tool_router: ToolRouter<Server>,
}

#[tool_router]
impl Server {
    fn new() -> Self {
        // The default policy: no ceiling, nothing for a client without roots.
        let roots = SessionRoots::new(Roots::builder());
        Self {
            roots,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Read a text file inside the folders the user shared")]
    async fn read_file(
        &self,
        call: ToolCall, // before `Parameters`: it reads the call's arguments too
        Parameters(ReadArgs { path }): Parameters<ReadArgs>,
    ) -> CallToolResponse {
        // Runs against the session's roots, or on 2026-07-28 this request's;
        // every `?` turns a refusal into the tool's error result.
        self.roots
            .serve(call, move |snap| {
                let text = std::io::read_to_string(snap.open(&path)?)?;
                Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
            })
            .await
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("minimal-server", env!("CARGO_PKG_VERSION")),
        )
    }

    // The roots wiring: list them after `initialize`, again on each change.
    async fn on_initialized(&self, cx: NotificationContext<RoleServer>) {
        self.roots.on_initialized(&cx.peer).await;
    }

    async fn on_roots_list_changed(&self, cx: NotificationContext<RoleServer>) {
        self.roots.on_list_changed(&cx.peer).await;
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // stdout carries JSON-RPC; the session ends when the client closes stdin.
    Server::new()
        .serve(rmcp::transport::stdio())
        .await?
        .waiting()
        .await?;
    Ok(())
}
