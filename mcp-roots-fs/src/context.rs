//! [`Context`]: what a tool body works with, and nothing more — the
//! session's roots and the operator's bounds. It is the bottom of the
//! server's rooms: the tools take it, the server builds it from the
//! command line, and a body that needs no call (a resource read) can be
//! given one without a [`ToolCall`](mcp_roots_rmcp::ToolCall).

use std::time::Duration;

use mcp_roots_rmcp::SessionRoots;

/// The operator's bounds on one walk (`--max-entries`, `--max-depth`,
/// `--walk-timeout`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds {
    pub(crate) max_entries: usize,
    pub(crate) max_depth: usize,
    pub(crate) deadline: Duration,
}

/// One session's tool context: its roots (kept in sync with the client),
/// the walk bounds, the most bytes an answer that carries a whole file may
/// take (`--max-answer-bytes`), whether a change asks the user first
/// (`--confirm`), and whether a path outside the roots may be asked about
/// (`--ask-within`: without it, a tool's declared paths are not judged
/// before its work, so nothing costs more).
#[derive(Clone, Debug)]
pub(crate) struct Context {
    pub(crate) roots: SessionRoots,
    pub(crate) bounds: Bounds,
    pub(crate) max_answer: u64,
    pub(crate) confirm: bool,
    pub(crate) asks: bool,
}
