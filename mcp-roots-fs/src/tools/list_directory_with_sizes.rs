//! `list_directory_with_sizes`: the listing with each file's size, sorted
//! by name (JavaScript's `localeCompare` order) or by size (largest first),
//! and the totals. A symlink's size is its target's when the target is
//! inside the roots. An entry whose size cannot be known (a dangling link,
//! one leading outside the roots, one gone since the listing) is listed as
//! `unknown`, sorted last by size and left out of the total, which says
//! how many it excludes, as 2.3.0 does (2026.8.31 reported the size of any
//! target, outside too).

use mcp_roots::{FileType, Snapshot};
use mcp_roots_rmcp::{Progress, Stop};
use rmcp::model::CallToolResult;

use crate::context::Bounds;
use crate::original::collate::locale_compare;
use crate::original::paths::target;
use crate::original::reply;
use crate::original::size::format_size;
use crate::tools::args::{ListWithSizes, SortBy};
use crate::tools::physical;

struct Row {
    name: String,
    dir: bool,
    /// `None` when it cannot be known.
    size: Option<u64>,
}

/// The listing of `args.path` with sizes and totals: the tool's body over
/// one snapshot of the roots, callable without a tool call.
pub(crate) fn list(
    snap: &Snapshot<'_>,
    bounds: Bounds,
    progress: &Progress,
    args: &ListWithSizes,
) -> Result<CallToolResult, Stop> {
    let max = bounds.max_entries;
    let spelled = target(snap, &args.path);
    let dir = physical(snap, &snap.resolve(spelled.as_str())?);
    let mut rows = Vec::new();
    let mut stopped = None;
    for entry in snap.read_dir(spelled.as_str())? {
        if rows.len() == max {
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
        let name = entry.name().to_string_lossy().into_owned();
        let is_dir = entry.file_type() == FileType::Dir;
        // A directory's size is printed nowhere and counted in no
        // total: only the order by size needs it.
        let size = if is_dir && args.sort_by == SortBy::Name {
            Some(0)
        } else {
            snap.metadata(format!("{}/{name}", dir.trim_end_matches('/')).as_str())
                .map(|m| m.len())
                .ok()
        };
        rows.push(Row {
            name,
            dir: is_dir,
            size,
        });
        progress.report(rows.len() as u64, || {
            format!("{} entries listed", rows.len())
        });
    }
    Ok(reply::text_stopped(
        format_rows(rows, args.sort_by),
        stopped,
    ))
}

fn format_rows(mut rows: Vec<Row>, sort_by: SortBy) -> String {
    let files = rows.iter().filter(|r| !r.dir).count();
    let dirs = rows.len() - files;
    let total: u64 = rows.iter().filter(|r| !r.dir).filter_map(|r| r.size).sum();
    let unknown = rows.iter().filter(|r| !r.dir && r.size.is_none()).count();
    match sort_by {
        // Stable, as JavaScript's sort: equal sizes keep the listing's
        // order, which is by name in byte order (libuv's `readdir`).
        SortBy::Size => {
            rows.sort_unstable_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
            // Descending, an unknown size last (`None` is the least).
            rows.sort_by_key(|r| std::cmp::Reverse(r.size));
        }
        SortBy::Name => rows.sort_by(|a, b| locale_compare(&a.name, &b.name)),
    }
    let mut lines: Vec<String> = rows
        .iter()
        .map(|r| {
            let kind = if r.dir { "[DIR]" } else { "[FILE]" };
            let size = match (r.dir, r.size) {
                (true, _) => String::new(),
                (false, Some(size)) => pad_start(&format_size(size), 10),
                (false, None) => pad_start("unknown", 10),
            };
            format!("{kind} {} {size}", pad_end(&r.name, 30))
        })
        .collect();
    lines.push(String::new());
    lines.push(format!("Total: {files} files, {dirs} directories"));
    let excludes = match unknown {
        0 => String::new(),
        1 => " (excludes 1 file of unknown size)".to_owned(),
        n => format!(" (excludes {n} files of unknown size)"),
    };
    lines.push(format!("Combined size: {}{excludes}", format_size(total)));
    lines.join("\n")
}

/// JavaScript's `padEnd`: the length counted in UTF-16 units.
fn pad_end(s: &str, width: usize) -> String {
    let len = s.encode_utf16().count();
    format!("{s}{}", " ".repeat(width.saturating_sub(len)))
}

fn pad_start(s: &str, width: usize) -> String {
    let len = s.encode_utf16().count();
    format!("{}{s}", " ".repeat(width.saturating_sub(len)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_print_as_the_original_prints_them() {
        let rows = vec![
            Row {
                name: "b.txt".into(),
                dir: false,
                size: Some(2048),
            },
            Row {
                name: "a".into(),
                dir: true,
                size: Some(4096),
            },
            Row {
                name: "c.bin".into(),
                dir: false,
                size: Some(10),
            },
        ];
        let want = "[DIR] a                              \n\
                    [FILE] b.txt                             2.00 KB\n\
                    [FILE] c.bin                                10 B\n\
                    \n\
                    Total: 2 files, 1 directories\n\
                    Combined size: 2.01 KB";
        assert_eq!(format_rows(rows, SortBy::Name), want);
    }

    #[test]
    fn unknown_sizes_sort_last_and_stay_out_of_the_total() {
        let row = |name: &str, size: Option<u64>| Row {
            name: name.into(),
            dir: false,
            size,
        };
        for (rows, order, combined) in [
            (
                vec![row("a", None), row("b", Some(5)), row("c", Some(0))],
                ["b", "c", "a"],
                "Combined size: 5 B (excludes 1 file of unknown size)",
            ),
            (
                vec![row("a", None), row("b", None), row("c", Some(2048))],
                ["c", "a", "b"],
                "Combined size: 2.00 KB (excludes 2 files of unknown size)",
            ),
            (
                vec![row("a", Some(1)), row("b", Some(1)), row("c", Some(3))],
                ["c", "a", "b"],
                "Combined size: 5 B",
            ),
        ] {
            let text = format_rows(rows, SortBy::Size);
            let names: Vec<&str> = text
                .lines()
                .take(3)
                .map(|l| l.split_whitespace().nth(1).unwrap())
                .collect();
            assert_eq!(names, order, "{text}");
            assert_eq!(text.lines().last(), Some(combined), "{text}");
            if combined.contains("unknown") {
                assert!(text.lines().any(|l| l.ends_with("   unknown")), "{text}");
            }
        }
    }
}
