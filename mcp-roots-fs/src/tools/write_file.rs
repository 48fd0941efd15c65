//! `write_file`: creates or replaces a file, atomically (a temporary file
//! beside it, synced, renamed over it). A name that is a symlink inside the
//! roots writes its target, as the original does. With `--confirm`,
//! replacing an existing file asks the user first.

use mcp_roots::{ErrorKind, Snapshot};
use mcp_roots_rmcp::{Outcome, Stop, ToolCall};
use rmcp::model::CallToolResponse;

use crate::context::Context;
use crate::original::paths::{named, target};
use crate::original::reply;
use crate::tools::args::WriteFile;

pub(crate) async fn run(cx: &Context, call: ToolCall, args: WriteFile) -> CallToolResponse {
    let confirm = cx.confirm;
    let asks = cx.asks;
    cx.roots
        .serve_with(call, move |mut ask| async move {
            crate::tools::need(asks, &mut ask, &args).await?;
            let exists = crate::tools::exists_to_confirm(confirm, &mut ask, &args.path).await?;
            if exists {
                let question = format!("Overwrite {}? Its content will be replaced.", args.path);
                if ask.confirm(question, "Overwrite").await? != Outcome::Accepted(()) {
                    return Ok(reply::text(format!(
                        "Not written: the user kept {}",
                        args.path
                    )));
                }
            }
            let path = args.path.clone();
            // Moves the content in (not a copy): only the path is used after.
            ask.files(move |snap| write(snap, &path, &args.content))
                .await?;
            Ok(reply::text(format!("Successfully wrote to {}", args.path)))
        })
        .await
}

/// Writes `content` to `path` (through a link inside the roots to the file
/// it names): the tool's work on the files, callable without a tool call.
pub(crate) fn write(snap: &Snapshot<'_>, path: &str, content: &str) -> Result<(), Stop> {
    let spelled = target(snap, path);
    let named = |err| Stop::from(named(err, &spelled));
    match snap.resolve(spelled.as_str()) {
        Ok(real) => snap
            .write_atomic(&real, content.as_bytes())
            .map_err(named)?,
        Err(err) if err.kind() == ErrorKind::NotFound => snap
            .write_atomic(spelled.as_str(), content.as_bytes())
            .map_err(named)?,
        Err(err) => return Err(named(err)),
    }
    Ok(())
}
