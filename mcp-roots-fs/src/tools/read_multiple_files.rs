//! `read_multiple_files`: each file's text after its path, separated by
//! `---`; a path that fails is reported in its place (`path: Error - …`)
//! and the others are still read. The files are read one at a time, and
//! the whole answer is bounded: past `MAX_TOTAL` bytes, the remaining
//! files are reported as not read.

use mcp_roots::Snapshot;
use mcp_roots_rmcp::Stop;
use rmcp::model::CallToolResult;

use crate::original::paths::target;
use crate::original::reply;
use crate::tools::args::ReadMultipleFiles;
use crate::tools::{failed, read_up_to};

/// The most text one call returns. The answer is held in memory whole and
/// carries the text twice (a text block and `structuredContent.content`),
/// escaped as JSON on one line: clients refuse longer lines (rmcp's stdio
/// transport stops at 16 MiB, dropping the whole answer), so 4 MiB of text
/// keeps an ordinary answer well below that.
const MAX_TOTAL: u64 = 4 * 1024 * 1024;

/// Each file of `args.paths`: the tool's body over one snapshot of the
/// roots, callable without a tool call.
pub(crate) fn read(snap: &Snapshot<'_>, args: &ReadMultipleFiles) -> Result<CallToolResult, Stop> {
    if args.paths.is_empty() {
        // The original's schema says `min(1)`; its SDK refuses the call.
        return Err(failed("At least one file path must be provided"));
    }
    let mut total: u64 = 0;
    let parts: Vec<String> = args
        .paths
        .iter()
        .map(|path| {
            let read = snap.open(target(snap, path).as_str()).map_err(|e| e.to_string()).and_then(|file| {
                let left = MAX_TOTAL.saturating_sub(total);
                let bytes = read_up_to(file, left + 1).map_err(|e| e.to_string())?;
                if bytes.len() as u64 > left {
                    return Err(format!("not read: the answer would exceed {MAX_TOTAL} bytes; read this file on its own"));
                }
                total += bytes.len() as u64;
                Ok(String::from_utf8_lossy(&bytes).into_owned())
            });
            match read {
                Ok(text) => format!("{path}:\n{text}\n"),
                Err(message) => format!("{path}: Error - {message}"),
            }
        })
        .collect();
    Ok(reply::text(parts.join("\n---\n")))
}
