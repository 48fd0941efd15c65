//! `create_directory`: the directory and its missing parents; an existing
//! directory is a success.

use mcp_roots_rmcp::ToolCall;
use rmcp::model::CallToolResponse;

use crate::paths::target;
use crate::reply;
use crate::server::FsServer;
use crate::tools::args::PathOnly;

pub(crate) async fn run(server: &FsServer, call: ToolCall, args: PathOnly) -> CallToolResponse {
    server
        .roots
        .serve(call, move |snap| {
            snap.create_dir_all(target(snap, &args.path).as_str())?;
            Ok(reply::text(format!(
                "Successfully created directory {}",
                args.path
            )))
        })
        .await
}
