//! The 14 tools, one module each; `args` holds their arguments. Each tool
//! is a small function over the library (through the glue's `serve`):
//! parse nothing about paths, judge nothing about the boundary.

pub(crate) mod args;
pub(crate) mod create_directory;
pub(crate) mod directory_tree;
pub(crate) mod edit_file;
pub(crate) mod get_file_info;
pub(crate) mod list_allowed_directories;
pub(crate) mod list_directory;
pub(crate) mod list_directory_with_sizes;
pub(crate) mod move_file;
pub(crate) mod read_media_file;
pub(crate) mod read_multiple_files;
pub(crate) mod read_text_file;
pub(crate) mod search_files;
pub(crate) mod write_file;

use std::io::Read;

use mcp_roots::{ScopedPath, Snapshot, TrackedFile};
use mcp_roots_rmcp::Stop;
use rmcp::model::{CallToolResult, ContentBlock};

/// A failure of the tool's own (not a refusal of the boundary), as the
/// original words it.
pub(crate) fn failed(text: impl Into<String>) -> Stop {
    Stop::with_result(CallToolResult::error(vec![ContentBlock::text(text.into())]))
}

/// Where `scoped` is on disk (its root's physical path and the path below
/// it), as the original reports paths: after symlinks.
pub(crate) fn physical(snap: &Snapshot<'_>, scoped: &ScopedPath) -> String {
    let root = snap
        .set()
        .root_by_id(scoped.root())
        .map(|root| root.resolved_path().to_string_lossy().into_owned())
        .unwrap_or_default();
    match scoped.rel() {
        "." => root,
        rel => format!("{}/{rel}", root.trim_end_matches('/')),
    }
}

/// The rest of `file`, at most `limit` bytes, read into a buffer sized from
/// the file's length (so that a small file takes one read and the one that
/// finds its end, not a read per doubling of the buffer).
pub(crate) fn read_up_to(file: TrackedFile, limit: u64) -> std::io::Result<Vec<u8>> {
    let len = file.metadata().map_or(0, |meta| meta.len());
    let mut bytes = Vec::with_capacity(len.min(limit).saturating_add(1) as usize);
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}
