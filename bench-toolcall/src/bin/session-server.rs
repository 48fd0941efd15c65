//! The server of the per-session memory measure (`session-memory`): rmcp's
//! Streamable HTTP server on `127.0.0.1:0`, one `SessionRoots` per session
//! (the default policy), and one tool, `hold {path}`, that opens a file of
//! the session's roots as a tracked handle and keeps it for the rest of the
//! session, as a server that hands out file handles across calls would.
//! It prints `listening on ADDR` on stderr once it accepts connections.

use std::sync::{Arc, Mutex};

use mcp_roots::{Roots, TrackedFile};
use mcp_roots_rmcp::{SessionRoots, ToolCall};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use rmcp::service::NotificationContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{RoleServer, ServerHandler, tool, tool_handler, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct HoldArgs {
    /// A file inside the session's roots.
    path: String,
}

/// One per session.
#[derive(Clone)]
struct Session {
    roots: SessionRoots,
    held: Arc<Mutex<Vec<TrackedFile>>>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Session {
    #[tool(description = "Open a file of the roots and keep it open for the session")]
    async fn hold(
        &self,
        call: ToolCall,
        Parameters(HoldArgs { path }): Parameters<HoldArgs>,
    ) -> CallToolResponse {
        let held = Arc::clone(&self.held);
        self.roots
            .serve(call, move |snap| {
                let file = snap.open(&path)?;
                let mut held = held.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                held.push(file);
                let count = held.len().to_string();
                Ok(CallToolResult::success(vec![ContentBlock::text(count)]))
            })
            .await
    }
}

#[tool_handler(name = "session-server", router = self.tool_router)]
impl ServerHandler for Session {
    async fn on_initialized(&self, cx: NotificationContext<RoleServer>) {
        self.roots.on_initialized(&cx.peer).await;
    }

    async fn on_roots_list_changed(&self, cx: NotificationContext<RoleServer>) {
        self.roots.on_list_changed(&cx.peer).await;
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(true)
        .with_allowed_hosts([format!("127.0.0.1:{}", addr.port())]);
    let cancel = config.cancellation_token.clone();
    let service = StreamableHttpService::new(
        || {
            Ok(Session {
                roots: SessionRoots::new(Roots::builder()),
                held: Arc::default(),
                tool_router: Session::tool_router(),
            })
        },
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    eprintln!("listening on {addr}");
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            let _ = tokio::signal::ctrl_c().await;
            cancel.cancel();
        })
        .await?;
    Ok(())
}
