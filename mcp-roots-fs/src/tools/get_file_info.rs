//! `get_file_info`: the original's fields, one `key: value` a line (the
//! metadata of what a symlink names, as `stat` gives it), ending with
//! 2.3.0's `hardLinks` (the link count).

use std::time::SystemTime;

use mcp_roots::Snapshot;
use mcp_roots_rmcp::Stop;
use rmcp::model::CallToolResult;

use crate::original::paths::target;
use crate::original::reply;
use crate::original::time::js_date;
use crate::sys::{hard_links, permissions};
use crate::tools::args::PathOnly;

/// The original's lines of metadata for `args.path`: the tool's body over
/// one snapshot of the roots, callable without a tool call.
pub(crate) fn info(snap: &Snapshot<'_>, args: &PathOnly) -> Result<CallToolResult, Stop> {
    let path = target(snap, &args.path);
    let meta = snap.metadata(path.as_str())?;
    let links = hard_links(snap, path.as_str(), &meta)?;
    let time = |t: std::io::Result<SystemTime>| js_date(t.unwrap_or(SystemTime::UNIX_EPOCH));
    let text = [
        format!("size: {}", meta.len()),
        format!("created: {}", time(meta.created())),
        format!("modified: {}", time(meta.modified())),
        format!("accessed: {}", time(meta.accessed())),
        format!("isDirectory: {}", meta.is_dir()),
        format!("isFile: {}", meta.is_file()),
        format!("permissions: {}", permissions(&meta)),
        format!("hardLinks: {links}"),
    ]
    .join("\n");
    Ok(reply::text(text))
}
