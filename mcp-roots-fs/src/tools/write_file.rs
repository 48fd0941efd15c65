//! `write_file`: creates or replaces a file, atomically (a temporary file
//! beside it, synced, renamed over it). A name that is a symlink inside the
//! roots writes its target, as the original does. With `--confirm`,
//! replacing an existing file asks the user first.

use mcp_roots::ErrorKind;
use mcp_roots_rmcp::{Outcome, ToolCall};
use rmcp::model::CallToolResponse;

use crate::paths::target;
use crate::reply;
use crate::server::FsServer;
use crate::tools::args::WriteFile;

pub(crate) async fn run(server: &FsServer, call: ToolCall, args: WriteFile) -> CallToolResponse {
    let confirm = server.config.confirm;
    server
        .roots
        .serve_with(call, move |mut ask| async move {
            // Only a confirmation needs to know whether the file exists
            // (otherwise the look-up would be a second trip to the
            // blocking pool for nothing).
            let exists = confirm && {
                let path = args.path.clone();
                ask.files(move |snap| Ok(snap.metadata(target(snap, &path).as_str()).is_ok()))
                    .await?
            };
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
            ask.files(move |snap| {
                let spelled = target(snap, &path);
                // Through a link inside the roots to the file it names.
                match snap.resolve(spelled.as_str()) {
                    Ok(real) => snap.write_atomic(&real, args.content.as_bytes())?,
                    Err(err) if err.kind() == ErrorKind::NotFound => {
                        snap.write_atomic(spelled.as_str(), args.content.as_bytes())?
                    }
                    Err(err) => return Err(err.into()),
                }
                Ok(())
            })
            .await?;
            Ok(reply::text(format!("Successfully wrote to {}", args.path)))
        })
        .await
}
