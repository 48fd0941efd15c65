//! `search_files`: every entry below `path` whose path relative to it
//! matches `pattern` (a glob, see `glob`), full physical paths one a line,
//! or `No matches found`. An entry matching an `excludePatterns` pattern is
//! left out and not entered (2.3.0's rule, see `glob::Exclusions`). A
//! symlink is listed when what it names is inside the roots, and never
//! followed (the original's rule too); an unreadable directory is skipped,
//! and named after the matches with its errno's name, as 2.3.0 does ("The
//! search is incomplete: …"). Bounded, on the blocking pool, with
//! progress and cancellation. Matches are listed as the original lists
//! them: pre-order, each directory's entries by name in byte order.

use mcp_roots::{FileType, Snapshot};
use mcp_roots_rmcp::{Progress, Stop};
use rmcp::model::CallToolResult;

use crate::context::Bounds;
use crate::original::glob::{Exclusions, Pattern};
use crate::original::paths::target;
use crate::original::reply;
use crate::tools::args::SearchFiles;
use crate::tools::physical;
use crate::walk::{OnError, path_order, walk};

/// The paths below `args.path` that match `args.pattern`: the tool's body
/// over one snapshot of the roots, callable without a tool call.
pub(crate) fn search(
    snap: &Snapshot<'_>,
    bounds: Bounds,
    progress: &Progress,
    args: &SearchFiles,
) -> Result<CallToolResult, Stop> {
    let pattern = Pattern::new(&args.pattern);
    let exclude = Exclusions::new(&args.exclude_patterns);
    let start = target(snap, &args.path);
    let base = physical(snap, &snap.resolve(start.as_str())?);
    let base = base.trim_end_matches('/');
    let walked = walk(
        snap,
        &start,
        bounds,
        progress,
        &exclude,
        OnError::Skip,
        Vec::new,
        |found: &mut Vec<String>, entry| {
            if !pattern.is_match(entry.rel) {
                return Ok(());
            }
            let full = format!("{base}/{}", entry.rel);
            // A link counts only if what it names is inside the roots.
            if entry.file_type == FileType::Symlink && snap.metadata(full.as_str()).is_err() {
                return Ok(());
            }
            found.push(full);
            Ok(())
        },
    )?;
    let mut found = walked.units.concat();
    found.sort_unstable_by(|a, b| path_order(a, b));
    let mut text = if found.is_empty() {
        "No matches found".to_owned()
    } else {
        found.join("\n")
    };
    text.push_str(&incomplete(&walked.unreadable));
    Ok(reply::text_stopped(text, walked.stopped))
}

/// 2.3.0's note after the matches when directories could not be read
/// (each `PATH (ECODE)`), or nothing.
fn incomplete(unreadable: &[String]) -> String {
    match unreadable.len() {
        0 => String::new(),
        n => format!(
            "\n\nThe search is incomplete: {n} {} could not be read, \
             and any matches inside are missing:\n{}",
            if n == 1 { "directory" } else { "directories" },
            unreadable.join("\n")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::incomplete;

    #[test]
    fn the_note_names_each_unreadable_directory() {
        assert_eq!(incomplete(&[]), "");
        assert_eq!(
            incomplete(&["/r/a (EACCES)".to_owned()]),
            "\n\nThe search is incomplete: 1 directory could not be read, and any matches \
             inside are missing:\n/r/a (EACCES)"
        );
        let two = incomplete(&["/r/a (EACCES)".to_owned(), "/r/b (EIO)".to_owned()]);
        assert!(two.contains(": 2 directories could not be read"), "{two}");
        assert!(
            two.ends_with("missing:\n/r/a (EACCES)\n/r/b (EIO)"),
            "{two}"
        );
    }
}
