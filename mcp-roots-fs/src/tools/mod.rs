//! The 16 tools, one module each; `args` holds their arguments. Each tool
//! is a small function over the library (through the glue's `serve`):
//! parse nothing about paths, judge nothing about the boundary.
//!
//! A tool's work is a body over one [`Snapshot`] of the roots that takes
//! no call (`read`, `list`, `tree`, `search`, `write`, `plan`, …), so that
//! another entry (a resource read) can share it; bodies return the
//! original's shapes ([`original::reply`](crate::original::reply)). The
//! server registers each body with how it is served over the session's
//! [`Context`]: [`inline`], [`blocking`] or [`walking`] (bounds and
//! progress), and the paths its arguments declare
//! ([`args::Declares`]): under `--ask-within`, one outside the roots is
//! asked about before the body runs. The tools that may ask the user first
//! (`write_file`, `append_file`, `edit_file`, `move_file`) have a `run` of
//! their own, around bodies that touch the files, which asks about the
//! declared paths first ([`need`]).

pub(crate) mod append_file;
pub(crate) mod args;
pub(crate) mod bounded;
pub(crate) mod copy_file;
pub(crate) mod create_directory;
pub(crate) mod directory_tree;
pub(crate) mod edit_file;
pub(crate) mod get_file_info;
pub(crate) mod list_allowed_directories;
pub(crate) mod list_directory;
pub(crate) mod list_directory_with_sizes;
pub(crate) mod move_file;
pub(crate) mod read_media_file;
pub(crate) mod read_multiple_files;
pub(crate) mod read_text_file;
pub(crate) mod search_files;
pub(crate) mod write_file;

use std::io::Read;

use mcp_roots::{ScopedPath, Snapshot, TrackedFile};
use mcp_roots_rmcp::{Ask, Needs, Progress, Stop, ToolCall};
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};

use crate::context::{Bounds, Context};
use crate::tools::args::Declares;

/// Serves `call` with `body` on the calling task: a body of a system call
/// or two, which the blocking pool's hand-off would cost more than.
/// `needs` (the paths `args` declares) is asked about first under
/// `--ask-within`, and not even built without it.
pub(crate) async fn inline<A>(
    cx: &Context,
    call: ToolCall,
    needs: impl FnOnce(&A) -> Needs,
    args: A,
    body: impl FnOnce(&Snapshot<'_>, &A) -> Result<CallToolResult, Stop>,
) -> CallToolResponse {
    let needs = declared(cx, &args, needs);
    let work = move |snap: &Snapshot<'_>| body(snap, &args);
    match needs {
        Some(needs) => cx.roots.serve_needing(call, needs, work).await,
        None => cx.roots.serve(call, work).await,
    }
}

/// What `args` declare (`needs`), under `--ask-within` and when there is
/// any; `None` otherwise, without building it.
fn declared<A>(cx: &Context, args: &A, needs: impl FnOnce(&A) -> Needs) -> Option<Needs> {
    cx.asks.then(|| needs(args)).filter(|n| !n.is_empty())
}

/// Serves `call` with `body` on the blocking pool: a body that reads a
/// file. `needs` as for [`inline`].
pub(crate) async fn blocking<A: Send + 'static>(
    cx: &Context,
    call: ToolCall,
    needs: impl FnOnce(&A) -> Needs,
    args: A,
    body: impl FnOnce(&Snapshot<'_>, &A) -> Result<CallToolResult, Stop> + Send + 'static,
) -> CallToolResponse {
    let needs = declared(cx, &args, needs);
    let work = move |snap: &Snapshot<'_>| body(snap, &args);
    match needs {
        Some(needs) => cx.roots.serve_blocking_needing(call, needs, work).await,
        None => cx.roots.serve_blocking(call, work).await,
    }
}

/// Serves `call` with `body` on the blocking pool, with the session's walk
/// bounds and the call's progress (reports and cancellation): a body that
/// lists or walks directories. `needs` as for [`inline`].
pub(crate) async fn walking<A: Send + 'static>(
    cx: &Context,
    call: ToolCall,
    needs: impl FnOnce(&A) -> Needs,
    progress: Progress,
    args: A,
    body: impl FnOnce(&Snapshot<'_>, Bounds, &Progress, &A) -> Result<CallToolResult, Stop>
    + Send
    + 'static,
) -> CallToolResponse {
    let bounds = cx.bounds;
    let needs = declared(cx, &args, needs);
    blocking(
        cx,
        call,
        |()| needs.unwrap_or_default(),
        (),
        move |snap, ()| body(snap, bounds, &progress, &args),
    )
    .await
}

/// For a tool with a `run` of its own (one that may ask its own question
/// after): asks about what `args` declare under `--ask-within` (nothing,
/// and nothing built, without it), and leaves the call one more question
/// than it had.
pub(crate) async fn need(asks: bool, ask: &mut Ask, args: &impl Declares) -> Result<(), Stop> {
    if !asks {
        return Ok(());
    }
    let needs = args.needs();
    if !needs.is_empty() {
        ask.need(&needs).await?;
        ask.limit(2);
    }
    Ok(())
}

/// Whether `path` names something, asked only when a confirmation depends
/// on it (`--confirm`): otherwise the look-up would be a second trip to
/// the blocking pool for nothing.
pub(crate) async fn exists_to_confirm(
    confirm: bool,
    ask: &mut Ask,
    path: &str,
) -> Result<bool, Stop> {
    if !confirm {
        return Ok(false);
    }
    let path = path.to_owned();
    ask.files(move |snap| {
        Ok(snap
            .metadata(crate::original::paths::target(snap, &path).as_str())
            .is_ok())
    })
    .await
}

/// A failure of the tool's own (not a refusal of the boundary), as the
/// original words it; logged at `INFO` (the text escaped), as every
/// refusal is.
pub(crate) fn failed(text: impl Into<String>) -> Stop {
    let text = text.into();
    tracing::info!(text = ?text, "tool failed");
    Stop::with_result(CallToolResult::error(vec![ContentBlock::text(text)]))
}

/// Where `scoped` is on disk (its root's physical path and the path below
/// it), as the original reports paths: after symlinks.
pub(crate) fn physical(snap: &Snapshot<'_>, scoped: &ScopedPath) -> String {
    let root = snap
        .set()
        .root_by_id(scoped.root())
        .map(|root| root.resolved_path().to_string_lossy().into_owned())
        .unwrap_or_default();
    match scoped.rel() {
        "." => root,
        rel => format!("{}/{rel}", root.trim_end_matches('/')),
    }
}

/// The rest of `file`, at most `limit` bytes, read into a buffer sized from
/// the file's length (so that a small file takes one read and the one that
/// finds its end, not a read per doubling of the buffer).
pub(crate) fn read_up_to(file: TrackedFile, limit: u64) -> std::io::Result<Vec<u8>> {
    let len = file.metadata().map_or(0, |meta| meta.len());
    let mut bytes = Vec::with_capacity(len.min(limit).saturating_add(1) as usize);
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}
