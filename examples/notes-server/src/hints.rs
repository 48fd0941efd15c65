//! What the tools say about themselves: the tools that change notes
//! (`notes_write`, `notes_delete`, `notes_archive`) advertise
//! `readOnlyHint: false` only when the server's policy lets them write;
//! under `--read-only` every change they try is refused with `read_only`,
//! so they say `readOnlyHint: true`.

use mcp_roots::Writes;
use rmcp::handler::server::router::tool::ToolRouter;

/// The tools that change notes on disk.
pub const CHANGING_TOOLS: [&str; 3] = ["notes_write", "notes_delete", "notes_archive"];

/// `router` with each changing tool's `readOnlyHint` set from `writes`:
/// `false` when the roots may be written, `true` when the policy makes
/// them read-only. The other tools keep their annotations.
pub(crate) fn with_write_hints<S: Send + Sync + 'static>(
    router: ToolRouter<S>,
    writes: Writes,
) -> ToolRouter<S> {
    let read_only = writes != Writes::Allow;
    let mut hinted = ToolRouter::new();
    for mut route in router {
        if CHANGING_TOOLS.contains(&route.attr.name.as_ref()) {
            let mut annotations = route.attr.annotations.take().unwrap_or_default();
            annotations.read_only_hint = Some(read_only);
            route.attr.annotations = Some(annotations);
        }
        hinted.add_route(route);
    }
    hinted
}
