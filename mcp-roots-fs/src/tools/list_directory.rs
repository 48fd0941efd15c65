//! `list_directory`: `[DIR] name` / `[FILE] name`, one a line, by name in
//! byte order (the original's `readdir` is libuv's, which sorts names with
//! `strcmp`; a symlink is a `[FILE]`, as in the original).
//! Bounded by `--max-entries`; on the blocking pool; stops on cancellation.

use mcp_roots::{FileType, Snapshot};
use mcp_roots_rmcp::{Progress, Stop};
use rmcp::model::CallToolResult;

use crate::context::Bounds;
use crate::original::paths::target;
use crate::original::reply;
use crate::tools::args::PathOnly;

/// The listing of `args.path`: the tool's body over one snapshot of the
/// roots, callable without a tool call.
pub(crate) fn list(
    snap: &Snapshot<'_>,
    bounds: Bounds,
    progress: &Progress,
    args: &PathOnly,
) -> Result<CallToolResult, Stop> {
    let max = bounds.max_entries;
    let mut lines: Vec<(Vec<u8>, String)> = Vec::new();
    let mut stopped = None;
    for entry in snap.read_dir(target(snap, &args.path).as_str())? {
        if lines.len() == max {
            stopped = Some(format!(
                "the listing reached its limit of {max} entries (--max-entries)"
            ));
            break;
        }
        if progress.is_cancelled() {
            stopped = Some("the client cancelled the call".to_owned());
            break;
        }
        let entry = entry?;
        let kind = if entry.file_type() == FileType::Dir {
            "[DIR]"
        } else {
            "[FILE]"
        };
        let name = entry.name();
        let line = format!("{kind} {}", name.to_string_lossy());
        lines.push((name.as_encoded_bytes().to_vec(), line));
        progress.report(lines.len() as u64, || {
            format!("{} entries listed", lines.len())
        });
    }
    lines.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let text: Vec<String> = lines.into_iter().map(|(_, line)| line).collect();
    Ok(reply::text_stopped(text.join("\n"), stopped))
}
