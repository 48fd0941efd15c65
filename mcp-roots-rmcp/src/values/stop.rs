//! [`Stop`]: how a tool body leaves early, with `?`.

use std::fmt;

use mcp_roots::{Error, ErrorKind};
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::json;

use crate::values::denial::tool_error;

/// Why a tool body stopped before its result: a refusal or failure that
/// becomes the tool's error result, or (on 2026-07-28) a question the body
/// cannot go past until the client answers it, which the glue turns into an
/// input-required result. Bodies propagate it with `?` and never need to
/// look inside; a body that swallows a pending question has its result
/// replaced by the question (and a warning in the log).
pub struct Stop(pub(crate) Halt);

pub(crate) enum Halt {
    /// The tool's result, `isError: true`.
    Failed(CallToolResult),
    /// Waiting for an answer (what is asked is in the call's log).
    Suspended,
}

impl Stop {
    /// Stops with `result` as the tool's error result (`isError` is set).
    pub fn with_result(mut result: CallToolResult) -> Self {
        result.is_error = Some(true);
        Self(Halt::Failed(result))
    }

    /// Stops with a refusal the model can act on: `text`, and `reason` in
    /// the structured content.
    pub fn refused(reason: &str, text: impl Into<String>) -> Self {
        let text = text.into();
        tracing::info!(reason, text = %crate::values::answer::escaped(&text), "tool refused");
        let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
        result.structured_content = Some(json!({ "reason": reason }));
        Self(Halt::Failed(result))
    }

    /// Whether the body stopped to wait for an answer (2026-07-28), not
    /// because something failed.
    pub fn is_question(&self) -> bool {
        matches!(self.0, Halt::Suspended)
    }

    /// The error result (a question stop has none: an internal error).
    pub(crate) fn into_result(self) -> CallToolResult {
        match self.0 {
            Halt::Failed(result) => result,
            Halt::Suspended => Self::refused(
                "internal",
                "The server stopped for a question it did not ask; nothing was changed.",
            )
            .into_result(),
        }
    }

    pub(crate) fn suspended() -> Self {
        Self(Halt::Suspended)
    }
}

impl fmt::Debug for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Halt::Failed(result) => f.debug_tuple("Stop::Failed").field(result).finish(),
            Halt::Suspended => f.write_str("Stop::Suspended"),
        }
    }
}

impl From<Error> for Stop {
    /// The refusal as the tool's error result. The library logs boundary
    /// and malformed-input refusals at `INFO` itself, the others (a missing
    /// file, a permission the system refused, an I/O error) only at
    /// `DEBUG`: these are logged here at `INFO`, so an operator hears every
    /// refusal a tool answers once, with its reason.
    fn from(err: Error) -> Self {
        let logged = err.kind().is_boundary()
            || matches!(
                err.kind(),
                ErrorKind::InvalidUri
                    | ErrorKind::NotAbsolute
                    | ErrorKind::InvalidPath
                    | ErrorKind::SymlinkLoop
            );
        if !logged {
            tracing::info!(
                reason = err.reason(),
                op = ?err.operation(),
                input = %err.escaped_input(),
                "tool refused"
            );
        }
        Self(Halt::Failed(tool_error(&err)))
    }
}

impl From<std::io::Error> for Stop {
    /// An I/O error while using a file the library opened: the library's
    /// refusal if it is one (a revoked handle), else `io`.
    fn from(err: std::io::Error) -> Self {
        match Error::try_from_io(err) {
            Ok(refusal) => refusal.into(),
            Err(err) => {
                tracing::warn!(error = %err, "file work failed");
                Self::refused(
                    "io",
                    format!(
                        "The file could not be read or written ({err}); nothing else was done."
                    ),
                )
            }
        }
    }
}

impl From<CallToolResult> for Stop {
    fn from(result: CallToolResult) -> Self {
        Self::with_result(result)
    }
}
