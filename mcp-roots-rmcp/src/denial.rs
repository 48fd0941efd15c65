//! Our [`Error`] as an MCP tool result: `isError: true`, a sentence a model
//! can act on, and the stable reason in structured content.

use mcp_roots::{Error, ErrorKind};
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::json;

/// The tool result for a refusal: `isError: true`, a sentence that tells the
/// model what to do next, and `{"reason", "input", "operation"}` as
/// structured content (an object, as every protocol revision requires).
///
/// ```
/// # fn main() {
/// let set = mcp_roots::RootSet::from_uris(["/nonexistent"]);
/// let err = set.open("/etc/passwd").unwrap_err();
/// let result = mcp_roots_rmcp::tool_error(&err);
/// assert_eq!(result.is_error, Some(true));
/// assert_eq!(result.structured_content.unwrap()["reason"], "no_roots");
/// # }
/// ```
pub fn tool_error(err: &Error) -> CallToolResult {
    let mut result = CallToolResult::error(vec![ContentBlock::text(sentence(err))]);
    result.structured_content = Some(json!({
        "reason": err.reason(),
        "detail": err.detail(),
        "input": err.input(),
        "operation": format!("{:?}", err.operation()).to_lowercase(),
    }));
    result
}

/// What the model should understand and do, per reason.
fn sentence(err: &Error) -> String {
    let input = err.input();
    let advice = match err.kind() {
        ErrorKind::InvalidUri => {
            "is not a well-formed file URI (check the escapes; encoded '/', '\\' and NUL are refused). Send a plain absolute path or a file:// URI."
        }
        ErrorKind::NotAbsolute => {
            "is not an absolute path or file:// URI. Send the full path, inside one of the folders the user shared."
        }
        ErrorKind::OutsideRoots => {
            "is outside the folders the user shared with this server (or leads outside through '..' or a symbolic link). Use a path inside one of them, or ask the user to add the folder as a root."
        }
        ErrorKind::OutsideCeiling => {
            "is outside the directories this server may ever use. Ask the user to pick a folder inside them."
        }
        ErrorKind::NotADirectory => "is not a directory (or a part of the path is not).",
        ErrorKind::NotARegularFile => {
            "is not a regular file (a directory, FIFO, socket or device). Pick a file."
        }
        ErrorKind::NotFound => "does not exist (for a new file: its folder must exist).",
        ErrorKind::AlreadyExists => {
            "already exists; choose another name or ask before replacing it."
        }
        ErrorKind::SymlinkLoop => {
            "goes through a symbolic link that is refused here (a loop, or a link where a plain file is required)."
        }
        ErrorKind::RootGone => {
            "is in a shared folder that was moved or removed. Ask the user to share it again."
        }
        ErrorKind::ScopeLost => {
            "left the shared folders while it was open; it can no longer be used."
        }
        ErrorKind::NoRoots => {
            "cannot be served: no shared folder is available (the user shared none, or the client has not answered yet)."
        }
        ErrorKind::ReadOnly => {
            "is in a folder this server may only read: it cannot be created, changed, moved or removed. Read it, or ask the user for a writable folder."
        }
        ErrorKind::Hidden => {
            "is in a part of the folder the user did not share: it cannot be read, listed, created, changed, moved or copied. Leave it alone."
        }
        ErrorKind::InvalidPath => {
            "is refused for its form: the path or one of its names is too long (or, on Windows, a name the system would alias). Send a shorter, plain path."
        }
        ErrorKind::PermissionDenied => "cannot be accessed: the operating system refused.",
        ErrorKind::Io => "could not be accessed because of an I/O error.",
        // `ErrorKind` is non-exhaustive: a kind newer than this crate still
        // gets a sentence, and its reason stays exact.
        _ => "was refused.",
    };
    let subject = if input.is_empty() {
        "The request".to_owned()
    } else {
        format!("\"{}\"", err.escaped_input())
    };
    let detail = err.detail().map(|d| format!(" ({d})")).unwrap_or_default();
    format!("Refused ({}){detail}: {subject} {advice}", err.reason())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_roots::Operation;

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
