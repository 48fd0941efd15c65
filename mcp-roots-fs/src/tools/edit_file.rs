//! `edit_file`: applies `edits` in order, as 2.3.0 matches them (each the
//! first exact match of `oldText`, else the first run of whole lines equal
//! to it up to surrounding whitespace, re-indented; see `apply`; an edit
//! that matches nowhere refused with the closest text, see `mismatch`),
//! returns the git-style unified diff in a fenced block, and writes the
//! result atomically unless `dryRun`, with the file's predominant line end
//! (CRLF when most breaks are CRLF). With
//! `--confirm`, an edit that would be applied asks the user first.

#[cfg(test)]
mod against_node;
mod apply;
mod diff;
mod lines;
mod mismatch;

use mcp_roots::{ScopedPath, Snapshot};
use mcp_roots_rmcp::{Outcome, Stop, ToolCall};
use rmcp::model::CallToolResponse;

use crate::context::Context;
use crate::original::paths::{read_refusal, target};
use crate::original::reply;
use crate::tools::args::EditFile;
use crate::tools::bounded::{Instead, read_whole, text_fits, too_large};
use crate::tools::physical;

pub(crate) async fn run(cx: &Context, call: ToolCall, args: EditFile) -> CallToolResponse {
    let confirm = cx.confirm;
    let asks = cx.asks;
    let max_answer = cx.max_answer;
    cx.roots
        .serve_with(call, move |mut ask| async move {
            crate::tools::need(asks, &mut ask, &args).await?;
            let path = args.path.clone();
            let edits: Vec<(String, String)> = args
                .edits
                .iter()
                .map(|e| (e.old_text.clone(), e.new_text.clone()))
                .collect();
            let (real, new, fenced) = ask
                .files(move |snap| plan(snap, max_answer, &path, &edits))
                .await?;
            if args.dry_run {
                return Ok(reply::text(fenced));
            }
            if confirm {
                let question = format!("Apply this edit to {}?\n\n{fenced}", args.path);
                if ask.confirm(question, "Apply the edit").await? != Outcome::Accepted(()) {
                    return Ok(reply::text(format!(
                        "Not edited: the user kept {}",
                        args.path
                    )));
                }
            }
            ask.files(move |snap| Ok(snap.write_atomic(&real, new.as_bytes())?))
                .await?;
            Ok(reply::text(fenced))
        })
        .await
}

/// The edits applied to the text of `path` (read, not written, and only
/// when its diff fits `max_answer`): the file the link names, the new
/// text and the fenced diff. The tool's work on
/// the files, callable without a tool call.
pub(crate) fn plan(
    snap: &Snapshot<'_>,
    max_answer: u64,
    path: &str,
    edits: &[(String, String)],
) -> Result<(ScopedPath, String, String), Stop> {
    let spelled = target(snap, path);
    let refusal = |err| read_refusal(err, &spelled);
    let scoped = snap.resolve(spelled.as_str()).map_err(refusal)?;
    let bytes = read_whole(
        snap.open(&scoped).map_err(refusal)?,
        max_answer,
        path,
        Instead::SmallerFile,
    )?;
    let raw = String::from_utf8_lossy(&bytes);
    let old = raw.replace("\r\n", "\n");
    let new = apply::apply(&old, edits).map_err(|text| Stop::refused("edit_mismatch", text))?;
    let shown = physical(snap, &scoped);
    let fenced = diff::fenced(&diff::of_edit(&old, &new, &shown));
    if !text_fits(&fenced, max_answer) {
        return Err(too_large(path, max_answer, Instead::SmallerFile));
    }
    let new = if crlf_predominant(&raw) {
        new.replace('\n', "\r\n")
    } else {
        new
    };
    Ok((scoped, new, fenced))
}

/// Whether more line breaks of `text` are CRLF than bare LF: the file is
/// then written back with CRLF, as 2.3.0 does (a file of mixed endings
/// gets its predominant one).
fn crlf_predominant(text: &str) -> bool {
    let crlf = text.matches("\r\n").count();
    let lf = text.matches('\n').count() - crlf;
    crlf > lf
}

#[cfg(test)]
mod tests {
    use super::crlf_predominant;

    #[test]
    fn the_predominant_line_end_is_kept() {
        for (text, crlf) in [
            ("a\r\nb\r\n", true),
            ("a\nb\n", false),
            ("a\r\nb\nc\r\n", true),
            ("a\r\nb\nc\n", false),
            ("a\r\nb\n", false),
            ("", false),
            ("a\r", false),
        ] {
            assert_eq!(crlf_predominant(text), crlf, "{text:?}");
        }
    }
}
