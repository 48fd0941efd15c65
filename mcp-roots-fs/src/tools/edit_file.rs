//! `edit_file`: applies `edits` in order (each the first exact match of
//! `oldText`, else the first run of lines equal to it up to surrounding
//! whitespace, its indentation kept), returns the git-style unified diff in
//! a fenced block, and writes the result atomically unless `dryRun`. With
//! `--confirm`, an edit that would be applied asks the user first.

#[cfg(test)]
mod against_node;
mod apply;
mod diff;
mod lines;

use mcp_roots::{ScopedPath, Snapshot};
use mcp_roots_rmcp::{Outcome, Stop, ToolCall};
use rmcp::model::CallToolResponse;

use crate::context::Context;
use crate::original::paths::target;
use crate::original::reply;
use crate::tools::args::EditFile;
use crate::tools::{failed, physical, read_up_to};

pub(crate) async fn run(cx: &Context, call: ToolCall, args: EditFile) -> CallToolResponse {
    let confirm = cx.confirm;
    cx.roots
        .serve_with(call, move |mut ask| async move {
            let path = args.path.clone();
            let edits: Vec<(String, String)> = args
                .edits
                .iter()
                .map(|e| (e.old_text.clone(), e.new_text.clone()))
                .collect();
            let (real, new, fenced) = ask.files(move |snap| plan(snap, &path, &edits)).await?;
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

/// The edits applied to the text of `path` (read, not written): the file
/// the link names, the new text and the fenced diff. The tool's work on
/// the files, callable without a tool call.
pub(crate) fn plan(
    snap: &Snapshot<'_>,
    path: &str,
    edits: &[(String, String)],
) -> Result<(ScopedPath, String, String), Stop> {
    let scoped = snap.resolve(target(snap, path).as_str())?;
    let bytes = read_up_to(snap.open(&scoped)?, u64::MAX).map_err(|e| failed(e.to_string()))?;
    let old = String::from_utf8_lossy(&bytes).replace("\r\n", "\n");
    let new = apply::apply(&old, edits).map_err(failed)?;
    let shown = physical(snap, &scoped);
    let fenced = diff::fenced(&diff::of_edit(&old, &new, &shown));
    Ok((scoped, new, fenced))
}
