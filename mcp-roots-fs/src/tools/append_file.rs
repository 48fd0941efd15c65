//! `append_file`: adds the text at the end of a file, exactly as given (no
//! newline before or after), creating the file when it is missing. Only a
//! regular file is appended to; a symlink at the name is refused, never
//! followed (the open is beneath the root with no link in its last
//! component). With `--confirm`, appending to an existing file asks the
//! user first (it changes that file's content); creating one does not, as
//! `write_file` does not.

use std::io::Write;

use mcp_roots::{Create, OpenOptions, Snapshot};
use mcp_roots_rmcp::{Outcome, Stop, ToolCall};
use rmcp::model::CallToolResponse;

use crate::context::Context;
use crate::original::paths::target;
use crate::original::reply;
use crate::tools::args::AppendFile;
use crate::tools::failed;

pub(crate) async fn run(cx: &Context, call: ToolCall, args: AppendFile) -> CallToolResponse {
    let confirm = cx.confirm;
    let asks = cx.asks;
    cx.roots
        .serve_with(call, move |mut ask| async move {
            crate::tools::need(asks, &mut ask, &args).await?;
            let exists = crate::tools::exists_to_confirm(confirm, &mut ask, &args.path).await?;
            if exists {
                let question = format!(
                    "Append {} bytes to the end of {}?",
                    args.content.len(),
                    args.path
                );
                if ask.confirm(question, "Append").await? != Outcome::Accepted(()) {
                    return Ok(reply::text(format!(
                        "Not appended: the user kept {}",
                        args.path
                    )));
                }
            }
            let path = args.path.clone();
            ask.files(move |snap| append(snap, &path, &args.content))
                .await?;
            Ok(reply::text(format!(
                "Successfully appended to {}",
                args.path
            )))
        })
        .await
}

/// Appends `content` to the regular file `path`, created if missing: the
/// tool's work on the files, callable without a tool call. The open is a
/// change judged like every other (read-only directories and patterns,
/// hidden parts, the nested read-only directories).
pub(crate) fn append(snap: &Snapshot<'_>, path: &str, content: &str) -> Result<(), Stop> {
    let spelled = target(snap, path);
    let options = OpenOptions::new()
        .read(false)
        .append(true)
        .create(Create::OrOpen);
    let mut file = snap.open_with(spelled.as_str(), options)?;
    file.write_all(content.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| failed(format!("Error appending to {path}: {e}")))
}
