//! `get_file_info`: the original's fields, one `key: value` a line (the
//! metadata of what a symlink names, as `stat` gives it).

use std::time::SystemTime;

use mcp_roots_rmcp::ToolCall;
use rmcp::model::CallToolResponse;

use crate::paths::target;
use crate::reply;
use crate::server::FsServer;
use crate::time::js_date;
use crate::tools::args::PathOnly;

pub(crate) async fn run(server: &FsServer, call: ToolCall, args: PathOnly) -> CallToolResponse {
    server
        .roots
        .serve(call, move |snap| {
            let meta = snap.metadata(target(snap, &args.path).as_str())?;
            let time =
                |t: std::io::Result<SystemTime>| js_date(t.unwrap_or(SystemTime::UNIX_EPOCH));
            let text = [
                format!("size: {}", meta.len()),
                format!("created: {}", time(meta.created())),
                format!("modified: {}", time(meta.modified())),
                format!("accessed: {}", time(meta.accessed())),
                format!("isDirectory: {}", meta.is_dir()),
                format!("isFile: {}", meta.is_file()),
                format!("permissions: {}", permissions(&meta)),
            ]
            .join("\n");
            Ok(reply::text(text))
        })
        .await
}

/// The permission bits in octal, as the original shows them (`644`).
#[cfg(unix)]
fn permissions(meta: &std::fs::Metadata) -> String {
    use std::os::unix::fs::PermissionsExt;
    format!("{:03o}", meta.permissions().mode() & 0o777)
}

/// Without Unix modes: Node's numbers (read-only files lose the write bits).
#[cfg(not(unix))]
fn permissions(meta: &std::fs::Metadata) -> String {
    if meta.permissions().readonly() {
        "444"
    } else {
        "666"
    }
    .to_owned()
}
