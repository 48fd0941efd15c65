//! Tool results: successes with structured content, and the failures that
//! are not the library's refusals (those go through
//! [`mcp_roots_rmcp::tool_error`]).

use mcp_roots::Error;
use mcp_roots_rmcp::{Outcome, tool_error};
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Value, json};

use crate::notes::Problem;

/// A success: a sentence for the model and an object for programs.
pub(crate) fn done(text: impl Into<String>, structured: Value) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(structured);
    result
}

/// A failure of the note logic (`isError: true`, a sentence, the reason).
pub(crate) fn problem(problem: &Problem) -> CallToolResult {
    let mut result = CallToolResult::error(vec![ContentBlock::text(&problem.message)]);
    result.structured_content = Some(json!({ "reason": problem.reason }));
    result
}

/// The result of blocking note work: a success rendered by `ok`, a library
/// refusal as a tool error, or a [`Problem`].
pub(crate) fn from<T>(
    result: Result<Result<T, Problem>, Error>,
    ok: impl FnOnce(T) -> CallToolResult,
) -> CallToolResult {
    match result {
        Ok(Ok(value)) => ok(value),
        Ok(Err(p)) => problem(&p),
        Err(err) => tool_error(&err),
    }
}

/// The user said no (or closed the form): nothing changed. Not an error:
/// the tool did what the user wanted.
pub(crate) fn nothing_done<T>(outcome: &Outcome<T>, what: &str) -> CallToolResult {
    let (said, word) = match outcome {
        Outcome::Cancelled => ("cancelled the request", "cancelled"),
        _ => ("declined", "declined"),
    };
    done(
        format!("The user {said}: nothing was {what}. Do not retry unless the user asks again."),
        json!({ "outcome": word }),
    )
}

/// Arguments the model must fix (not a boundary decision).
pub(crate) fn invalid_arguments(message: impl Into<String>) -> CallToolResult {
    problem(&Problem::new("invalid_arguments", message))
}
