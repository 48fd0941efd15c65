//! Tool results that are not failures: successes with structured content,
//! and what the user declined (failures are [`Failure`](crate::failure::Failure)s).

use mcp_roots_rmcp::Outcome;
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Value, json};

/// A success: a sentence for the model and an object for programs.
pub(crate) fn done(text: impl Into<String>, structured: Value) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(structured);
    result
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
