//! `list_allowed_directories`: the roots this call is served (the
//! operator's directories narrowed by the client's roots), each as given
//! and, when it differs, as resolved, as the original lists both.

use mcp_roots::Writes;
use mcp_roots_rmcp::ToolCall;
use rmcp::model::CallToolResponse;

use crate::reply;
use crate::server::FsServer;

pub(crate) async fn run(server: &FsServer, call: ToolCall) -> CallToolResponse {
    server
        .roots
        .serve(call, move |snap| {
            let mut lines = vec!["Allowed directories:".to_owned()];
            for root in snap.set().roots() {
                // Only under --read-only / --read-only-dir: the model learns
                // before trying that changes there are refused.
                let mark = match root.writes() {
                    Writes::Refuse => " (read-only)",
                    _ => "",
                };
                lines.push(format!("{}{mark}", root.path()));
                let resolved = root.resolved_path().to_string_lossy();
                if resolved != root.path() {
                    lines.push(format!("{resolved}{mark}"));
                }
            }
            Ok(reply::text(lines.join("\n")))
        })
        .await
}
