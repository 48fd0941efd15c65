//! `create_directory`: the directory and its missing parents; an existing
//! directory is a success.
//!
//! The library's `create_dir_all` refuses a symlink on the way
//! (`not_a_directory`); the original creates through a link to a
//! directory inside the folders (`link_dir/new`). So on that refusal the
//! path is resolved (links followed beneath the roots and judged, a missing
//! tail through its deepest existing ancestor) and the directories are
//! created on the physical path, which has no link left to refuse.

use mcp_roots::ErrorKind;
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
            let path = target(snap, &args.path);
            match snap.create_dir_all(path.as_str()) {
                Err(e) if e.kind() == ErrorKind::NotADirectory => {
                    let physical = snap.resolve(path.as_str())?;
                    snap.create_dir_all(&physical)?;
                }
                other => other?,
            }
            Ok(reply::text(format!(
                "Successfully created directory {}",
                args.path
            )))
        })
        .await
}
