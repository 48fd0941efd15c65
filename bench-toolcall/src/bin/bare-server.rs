//! The baseline: minimal-server's tool with no checks at all. `read_file`
//! reads whatever path it is given with `std::fs`, on the async thread, as
//! a server written without the library would. It logs as minimal-server
//! does (a subscriber on stderr, `RUST_LOG`, default `info`), so that the
//! two differ only in the checks and what the library logs. Never deploy
//! this.

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use std::io::stderr;
use tracing_subscriber::{EnvFilter, filter::LevelFilter, fmt};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct ReadArgs {
    /// Any path (nothing is checked).
    path: String,
}

#[derive(Clone)]
struct Bare {
    // Built once, as minimal-server's.
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Bare {
    #[tool(description = "Read a text file (unchecked)")]
    async fn read_file(
        &self,
        Parameters(ReadArgs { path }): Parameters<ReadArgs>,
    ) -> CallToolResult {
        match std::fs::read_to_string(&path) {
            Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Err(err) => CallToolResult::error(vec![ContentBlock::text(err.to_string())]),
        }
    }
}

#[tool_handler(name = "bare-server", router = self.tool_router)]
impl ServerHandler for Bare {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    // The same log as minimal-server's.
    let info = EnvFilter::builder().with_default_directive(LevelFilter::INFO.into());
    let log = fmt().with_env_filter(info.from_env_lossy());
    log.with_writer(stderr).try_init()?;
    let bare = Bare {
        tool_router: Bare::tool_router(),
    };
    let running = bare.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
