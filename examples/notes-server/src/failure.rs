//! Why a tool call did not do what it was asked: [`Failure`], the one error
//! type of the tool bodies, and the one place where it becomes a tool result
//! (`isError: true`, a sentence the model can act on, a stable reason in
//! structured content).
//!
//! Tool bodies return `Result<_, Failure>` and leave with `?`: a refusal of
//! the library, a [`Problem`] of the note logic and a question that could
//! not be asked all convert into it, and rmcp renders the `Err` through
//! [`IntoCallToolResult`]. What the user declined is not a failure: the
//! tool did what the user wanted (see `reply::nothing_done`).

use mcp_roots::Error;
use mcp_roots_rmcp::{ElicitError, tool_error};
use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use serde_json::json;

/// A failure that is not a boundary decision of the library (those are
/// [`Error`]s): no such note, not a note, too large, an argument to fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// A stable reason for structured content.
    pub reason: &'static str,
    /// A sentence the model can act on.
    pub message: String,
}

impl Problem {
    pub(crate) fn new(reason: &'static str, message: impl Into<String>) -> Self {
        Self {
            reason,
            message: message.into(),
        }
    }

    /// Arguments the model must fix (not a boundary decision).
    pub(crate) fn invalid_arguments(message: impl Into<String>) -> Self {
        Self::new("invalid_arguments", message)
    }
}

/// Why a tool body stopped before its result.
#[derive(Debug)]
pub enum Failure {
    /// The library refused (outside the roots, not found, revoked, …).
    Refused(Error),
    /// The note logic refused.
    Problem(Problem),
    /// A question could not be asked or its answer was unusable; nothing
    /// changed.
    Question(ElicitError),
}

impl From<Error> for Failure {
    fn from(err: Error) -> Self {
        Self::Refused(err)
    }
}

impl From<Problem> for Failure {
    fn from(problem: Problem) -> Self {
        Self::Problem(problem)
    }
}

impl From<ElicitError> for Failure {
    fn from(err: ElicitError) -> Self {
        Self::Question(err)
    }
}

impl Failure {
    /// Whether the library refused with `kind`.
    pub fn is_refused(&self, kind: mcp_roots::ErrorKind) -> bool {
        matches!(self, Self::Refused(err) if err.kind() == kind)
    }

    /// The tool result: `isError: true`, a sentence, and the reason.
    pub fn to_tool_result(&self) -> CallToolResult {
        match self {
            Self::Refused(err) => tool_error(err),
            Self::Problem(problem) => {
                let text = ContentBlock::text(&problem.message);
                let mut result = CallToolResult::error(vec![text]);
                result.structured_content = Some(json!({ "reason": problem.reason }));
                result
            }
            Self::Question(err) => err.to_tool_result(),
        }
    }
}

impl IntoCallToolResult for Failure {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(self.to_tool_result().into())
    }
}
