//! The bounded walk under `search_files` and `directory_tree`: the
//! library's [`Walk`](mcp_roots::Walk) (through directory handles, one descriptor per level,
//! symlinks reported and never followed, so a link loop cannot recur),
//! stepped with its borrowing `next_ref` (no allocation per entry), with
//! the server's bounds on top: entries examined, depth, a deadline, and the
//! client's cancellation. When it stops early, it says why.

use std::cmp::Ordering;
use std::time::{Duration, Instant};

use mcp_roots::{Error, FileType, Snapshot, WalkLimits};
use mcp_roots_rmcp::Progress;

use crate::glob::Exclusions;

/// The operator's bounds on one walk.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds {
    pub(crate) max_entries: usize,
    pub(crate) max_depth: usize,
    pub(crate) deadline: Duration,
}

/// One entry, as the tools see it: its path relative to the walk's start.
#[derive(Debug)]
pub(crate) struct Found<'a> {
    pub(crate) rel: &'a str,
    pub(crate) file_type: FileType,
    pub(crate) depth: usize,
}

/// The order the original lists a walk in: pre-order, each directory's
/// entries by name in byte order (its `readdir` is libuv's, which sorts
/// with `strcmp`). Comparing two paths byte by byte with `/` as the lowest
/// byte gives exactly that: a directory comes before what is beneath it,
/// and its subtree before a sibling whose name extends its own (`a/x`
/// before `a.txt`).
pub(crate) fn path_order(a: &str, b: &str) -> Ordering {
    let key = |c: u8| if c == b'/' { 0 } else { c };
    let (a, b) = (a.as_bytes(), b.as_bytes());
    for (x, y) in a.iter().zip(b) {
        match key(*x).cmp(&key(*y)) {
            Ordering::Equal => {}
            other => return other,
        }
    }
    a.len().cmp(&b.len())
}

/// What a walk does with a directory it cannot read: the original's
/// `search_files` skips it, its `directory_tree` fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OnError {
    Skip,
    Fail,
}

/// Walks `start`, calling `visit` on each entry not excluded (an excluded
/// directory is not entered); returns why it stopped early, if it did.
/// Entries come in the library's walk order (pre-order, each directory in
/// its own order); a tool that answers in the original's order sorts them
/// with [`path_order`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn walk(
    snap: &Snapshot<'_>,
    start: &str,
    bounds: Bounds,
    progress: &Progress,
    exclude: &Exclusions,
    on_error: OnError,
    mut visit: impl FnMut(&Found<'_>) -> Result<(), Error>,
) -> Result<Option<String>, Error> {
    let begun = Instant::now();
    let scoped = snap.resolve(start)?;
    let prefix = match scoped.rel() {
        "." => String::new(),
        rel => format!("{rel}/"),
    };
    let limits = WalkLimits::new(bounds.max_depth, bounds.max_entries);
    let mut walk = snap.walk(start, limits)?;
    let mut seen: u64 = 0;
    let mut deepest_skipped = false;
    while let Some(entry) = walk.next_ref() {
        seen += 1;
        if progress.is_cancelled() {
            tracing::info!(
                entries = seen,
                "walk stopped: the client cancelled the call"
            );
            return Ok(Some("the client cancelled the call".to_owned()));
        }
        if seen.is_multiple_of(64) && begun.elapsed() > bounds.deadline {
            return Ok(Some(format!(
                "the walk ran past its deadline of {:?} (--walk-timeout) after {seen} entries",
                bounds.deadline
            )));
        }
        progress.report(seen, || format!("{seen} entries examined"));
        let entry = match entry {
            Ok(entry) => entry,
            Err(_) if on_error == OnError::Skip => continue,
            Err(err) => return Err(err),
        };
        let rel = entry.rel();
        let rel = rel.strip_prefix(prefix.as_str()).unwrap_or(rel);
        if exclude.excludes(rel) {
            walk.skip_entered();
            continue;
        }
        if entry.file_type() == FileType::Dir && entry.depth() == bounds.max_depth {
            deepest_skipped = true;
        }
        visit(&Found {
            rel,
            file_type: entry.file_type(),
            depth: entry.depth(),
        })?;
    }
    if walk.is_truncated() {
        return Ok(Some(format!(
            "the walk examined its limit of {} entries (--max-entries)",
            bounds.max_entries
        )));
    }
    if deepest_skipped {
        return Ok(Some(format!(
            "directories deeper than {} levels were not entered (--max-depth)",
            bounds.max_depth
        )));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_order_is_pre_order_with_names_in_byte_order() {
        let mut paths = vec![
            "a.txt", "b", "a/x", "B", "a", "a/x/y", "a/.h", "a-b", "_", ".e", "a/x.md", "ä",
        ];
        paths.sort_by(|a, b| path_order(a, b));
        assert_eq!(
            paths,
            [
                ".e", "B", "_", "a", "a/.h", "a/x", "a/x/y", "a/x.md", "a-b", "a.txt", "b", "ä"
            ]
            .to_vec()
        );
    }
}
