//! `move_file`: renames a file or directory; an existing destination is
//! refused atomically (`RENAME_NOREPLACE`), as the original refuses it.
//! Across file systems a regular file is copied and then removed, as
//! 2.3.0 moves it (a directory is refused there, as it is by 2.3.0).
//! With `--confirm`, a move onto an existing name asks the user, and
//! replaces it when they accept.

use mcp_roots::{Overwrite, Snapshot};
use mcp_roots_rmcp::{Outcome, Stop, ToolCall};
use rmcp::model::CallToolResponse;

use crate::context::Context;
use crate::original::paths::target;
use crate::original::reply;
use crate::tools::args::MoveFile;

pub(crate) async fn run(cx: &Context, call: ToolCall, args: MoveFile) -> CallToolResponse {
    let confirm = cx.confirm;
    let asks = cx.asks;
    cx.roots
        .serve_with(call, move |mut ask| async move {
            crate::tools::need(asks, &mut ask, &args).await?;
            let mut overwrite = Overwrite::Refuse;
            if confirm {
                let destination = args.destination.clone();
                let source = args.source.clone();
                let exists = ask
                    .files(move |snap| {
                        // Refuse what is outside before asking anything.
                        snap.metadata(target(snap, &source).as_str())?;
                        Ok(snap.metadata(target(snap, &destination).as_str()).is_ok())
                    })
                    .await?;
                if exists {
                    let question = format!(
                        "Move {} onto {}? The existing {} will be replaced.",
                        args.source, args.destination, args.destination
                    );
                    if ask.confirm(question, "Replace it").await? != Outcome::Accepted(()) {
                        return Ok(reply::text(format!(
                            "Not moved: the user kept {}",
                            args.destination
                        )));
                    }
                    overwrite = Overwrite::Replace;
                }
            }
            let (source, destination) = (args.source.clone(), args.destination.clone());
            ask.files(move |snap| rename(snap, &source, &destination, overwrite))
                .await?;
            Ok(reply::text(format!(
                "Successfully moved {} to {}",
                args.source, args.destination
            )))
        })
        .await
}

/// Renames `source` to `destination` (`overwrite` says whether an existing
/// destination is replaced): the tool's work on the files, callable
/// without a tool call.
pub(crate) fn rename(
    snap: &Snapshot<'_>,
    source: &str,
    destination: &str,
    overwrite: Overwrite,
) -> Result<(), Stop> {
    let from = target(snap, source);
    let to = target(snap, destination);
    Ok(snap.move_with(from.as_str(), to.as_str(), overwrite)?)
}
