//! `minimal-server`: the smallest complete MCP server on mcp-roots, over
//! stdio. Its tool `read_file` returns a text file from inside the folders
//! the client shared (its roots) and refuses everything else as a tool
//! error; `list_roots` lists each shared folder, on every protocol revision
//! rmcp offers.

use mcp_roots::Roots;
use mcp_roots_rmcp::{Parameters, SessionRoots, ToolCall};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use rmcp::service::NotificationContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use std::io::stderr;
use tracing_subscriber::{EnvFilter, filter::LevelFilter, fmt};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct ReadArgs {
    /// A file:// URI or an absolute path inside the shared folders.
    path: String,
}

/// One per session (stdio: one per process), so that a client's roots
/// never authorise another client.
#[derive(Clone)]
struct Server {
    roots: SessionRoots,
    // Built once: rebuilding the router costs more than a checked open.
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    #[tool(description = "Read a text file inside the folders the user shared")]
    async fn read_file(
        &self,
        // The call and its arguments together (the glue's `Parameters`,
        // in place of rmcp's): a retry is bound to these arguments.
        Parameters(call, ReadArgs { path }): Parameters<ReadArgs>,
    ) -> CallToolResponse {
        // Runs against the session's roots, or on 2026-07-28 this request's
        // (asked of the client first); each `?` makes a refusal the result.
        self.roots
            .serve(call, move |snap| {
                let text = snap.read_to_string(&path)?;
                Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
            })
            .await
    }

    #[tool(description = "List the folders the user shared and what is in each")]
    async fn list_roots(&self, call: ToolCall) -> CallToolResponse {
        // No arguments: the call alone.
        self.roots
            .serve(call, |snap| {
                let mut lines = Vec::new();
                for root in snap.set().roots() {
                    let top = root.resolve(".")?; // the root itself
                    lines.push(top.to_uri());
                    for entry in snap.read_dir(&top)? {
                        lines.push(format!("  {}", entry?.name().to_string_lossy()));
                    }
                }
                Ok(CallToolResult::success(vec![ContentBlock::text(
                    lines.join("\n"),
                )]))
            })
            .await
    }
}

// The macro adds the tools and `get_info` (tools enabled, this name).
#[tool_handler(name = "minimal-server", router = self.tool_router)]
impl ServerHandler for Server {
    // The roots wiring: list them after `initialize`, again on each change.
    async fn on_initialized(&self, cx: NotificationContext<RoleServer>) {
        self.roots.on_initialized(&cx.peer).await;
    }

    async fn on_roots_list_changed(&self, cx: NotificationContext<RoleServer>) {
        self.roots.on_list_changed(&cx.peer).await;
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    // The log on stderr (stdout is the protocol): RUST_LOG, default info.
    let info = EnvFilter::builder().with_default_directive(LevelFilter::INFO.into());
    let log = fmt().with_env_filter(info.from_env_lossy());
    log.with_writer(stderr).try_init()?;
    // The default policy: no ceiling, nothing for a client without roots.
    let roots = SessionRoots::new(Roots::builder());
    // stdout carries JSON-RPC; the session ends when the client closes stdin.
    let server = Server {
        roots,
        tool_router: Server::tool_router(),
    };
    let running = server.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
