//! `copy_file`: copies one regular file to a new name, never replacing
//! anything there (a file, a directory or a link at the destination is
//! refused), keeping the source's permission bits and times. The source is
//! judged as a read (a copy out of a read-only directory is allowed), the
//! destination as a change (refused in a read-only directory or pattern);
//! hidden parts are refused at either end. The copy is written to a fresh
//! temporary file beside the destination and renamed into place without
//! replacing, so a copy that fails leaves nothing behind. `--confirm` does
//! not ask: nothing that exists is changed.

use mcp_roots::Snapshot;
use mcp_roots_rmcp::Stop;
use rmcp::model::CallToolResult;

use crate::original::paths::target;
use crate::original::reply;
use crate::tools::args::CopyFile;

/// Copies `args.source` to `args.destination`: the tool's body over one
/// snapshot of the roots, callable without a tool call.
pub(crate) fn copy(snap: &Snapshot<'_>, args: &CopyFile) -> Result<CallToolResult, Stop> {
    let from = target(snap, &args.source);
    let to = target(snap, &args.destination);
    // An existing destination is the library's `already_exists` refusal,
    // naming the destination.
    snap.copy(from.as_str(), to.as_str())?;
    Ok(reply::text(format!(
        "Successfully copied {} to {}",
        args.source, args.destination
    )))
}
