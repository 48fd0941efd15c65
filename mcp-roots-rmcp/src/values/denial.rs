//! Our [`Error`] as an MCP tool result: `isError: true`, a sentence a model
//! can act on, and the stable reason in structured content.

use mcp_roots::Error;
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::json;

/// The tool result for a refusal: `isError: true`, a sentence that tells the
/// model what to do next, and `{"reason", "detail", "input", "operation"}`
/// as structured content (an object, as every protocol revision requires):
/// `reason` the stable reason ([`Error::reason`]), `detail` what the library
/// adds ([`Error::detail`]: a string, or `null` when it adds nothing),
/// `input` the input as given, `operation` the operation in lower case
/// (`open`, `read_dir`, …).
///
/// ```
/// # fn main() {
/// let set = mcp_roots::RootSet::from_uris(["/nonexistent"]);
/// let err = set.open("/etc/passwd").unwrap_err();
/// let result = mcp_roots_rmcp::tool_error(&err);
/// assert_eq!(result.is_error, Some(true));
/// let structured = result.structured_content.unwrap();
/// assert_eq!(structured["reason"], "no_roots");
/// assert_eq!(structured["input"], "/etc/passwd");
/// assert!(structured["detail"].is_null() || structured["detail"].is_string());
/// # }
/// ```
pub fn tool_error(err: &Error) -> CallToolResult {
    let mut result = CallToolResult::error(vec![ContentBlock::text(err.sentence())]);
    result.structured_content = Some(json!({
        "reason": err.reason(),
        "detail": err.detail(),
        "input": err.input(),
        "operation": format!("{:?}", err.operation()).to_lowercase(),
    }));
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_roots::{ErrorKind, Operation};

    #[test]
    fn every_reason_has_a_sentence_and_structured_content() {
        for kind in ErrorKind::ALL {
            let result = tool_error(&Error::new(kind, Operation::Open, "/x"));
            assert_eq!(result.is_error, Some(true));
            let structured = result.structured_content.expect("structured");
            assert_eq!(structured["reason"], kind.reason());
            assert_eq!(structured["input"], "/x");
        }
    }

    #[test]
    fn the_sentence_escapes_the_input_and_the_json_keeps_it() {
        for forger in ["\n", "\r", "\u{1b}", "\u{85}", "\u{2028}", "\u{2029}"] {
            let input = format!("/x{forger}INFO forged");
            let result = tool_error(&Error::new(
                ErrorKind::OutsideRoots,
                Operation::Open,
                &input,
            ));
            let text: String = result
                .content
                .iter()
                .filter_map(|block| block.as_text().map(|t| t.text.clone()))
                .collect();
            assert!(!text.contains(forger), "{text:?}");
            assert!(text.contains("INFO forged"), "{text:?}");
            let structured = result.structured_content.expect("structured");
            assert_eq!(structured["input"], input.as_str());
        }
    }
}
