//! `create_directory`: the directory and its missing parents; an existing
//! directory is a success.
//!
//! The library's `create_dir_all` refuses a symlink on the way
//! (`not_a_directory`); the original creates through a link to a
//! directory inside the folders (`link_dir/new`). So on that refusal the
//! path is resolved (links followed beneath the roots and judged, a missing
//! tail through its deepest existing ancestor) and the directories are
//! created on the physical path, which has no link left to refuse.

use mcp_roots::{ErrorKind, Snapshot};
use mcp_roots_rmcp::Stop;
use rmcp::model::CallToolResult;

use crate::original::paths::target;
use crate::original::reply;
use crate::tools::args::PathOnly;

/// The directory at `args.path` and its missing parents: the tool's body
/// over one snapshot of the roots, callable without a tool call.
pub(crate) fn create(snap: &Snapshot<'_>, args: &PathOnly) -> Result<CallToolResult, Stop> {
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
}
