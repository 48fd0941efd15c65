//! The original's input schemas (2.3.0's `tools/list`), written out: JSON
//! Schema 2020-12 with every type inline (no `$ref`, no `$defs`), one type
//! per property (no type arrays), and the defaults a client may show.
//!
//! The argument types in `tools::args` still decide what a call may carry
//! (`head` as any number or `null`, for one); these are what the tools
//! advertise, so that strict clients (the MCP Inspector's check, Gemini's
//! function declarations) accept every one. The two schemas that differ
//! from 2.3.0's on purpose are said where they are built
//! ([`directory_tree`]; the output schemas in
//! [`reply`](crate::original::reply)).

use std::sync::Arc;

use rmcp::model::JsonObject;
use serde_json::{Value, json};

/// The dialect every schema names.
pub(crate) const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The sentence that ends every path argument's description.
const PATH_RULE: &str = "Absolute, or relative to an allowed directory; it must resolve inside the allowed directories.";

/// The largest integer a JavaScript number holds exactly: the original's
/// bound on a count.
const MAX_SAFE_INTEGER: u64 = 9_007_199_254_740_991;

/// An object schema of `properties`, `required` listing the ones a call
/// must carry (left out when empty, as the original leaves it out).
fn object(properties: Value, required: &[&str]) -> Arc<JsonObject> {
    let mut schema = json!({ "type": "object", "$schema": DIALECT, "properties": properties });
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    match schema {
        Value::Object(object) => Arc::new(object),
        _ => unreachable!("built as an object"),
    }
}

/// A path argument: a string, described, then the path rule.
fn path(what: &str) -> Value {
    json!({ "type": "string", "description": format!("{what} {PATH_RULE}") })
}

/// A described string.
fn string(description: &str) -> Value {
    json!({ "type": "string", "description": description })
}

/// A count of lines: an integer from 0, optional.
fn lines(description: &str) -> Value {
    json!({ "description": description, "type": "integer", "minimum": 0, "maximum": MAX_SAFE_INTEGER })
}

/// `excludePatterns`, as `directory_tree` and `search_files` describe it.
fn exclude_patterns() -> Value {
    json!({
        "default": [],
        "description": "Patterns for entries to leave out, with their contents, matched against each entry's path relative to path. A pattern with no '*' matches that name at any depth ('node_modules' leaves out every node_modules directory); a pattern with '*' is a glob matched as written, and one ending in '/**' also leaves out the directory it names.",
        "type": "array",
        "items": { "type": "string" }
    })
}

/// `read_text_file` and `read_file`.
pub(crate) fn read_text_file() -> Arc<JsonObject> {
    object(
        json!({
            "path": path("The file to read as text."),
            "tail": lines("If provided, returns only the last N lines of the file"),
            "head": lines("If provided, returns only the first N lines of the file"),
        }),
        &["path"],
    )
}

pub(crate) fn read_media_file() -> Arc<JsonObject> {
    object(
        json!({ "path": path("The image, audio or other file to read as base64.") }),
        &["path"],
    )
}

pub(crate) fn read_multiple_files() -> Arc<JsonObject> {
    object(
        json!({
            "paths": {
                "minItems": 1,
                "type": "array",
                "items": { "type": "string" },
                "description": "Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories."
            }
        }),
        &["paths"],
    )
}

pub(crate) fn write_file() -> Arc<JsonObject> {
    object(
        json!({
            "path": path("The file to create, or to overwrite if it exists; its parent directory must exist."),
            "content": string("The complete text the file will contain, replacing any it had"),
        }),
        &["path", "content"],
    )
}

pub(crate) fn append_file() -> Arc<JsonObject> {
    object(
        json!({
            "path": path("The file to append to; it is created if it does not exist."),
            "content": string("Text to append, exactly as given. No newline is added: end it with \\n if the next append should start on a new line."),
        }),
        &["path", "content"],
    )
}

pub(crate) fn edit_file() -> Arc<JsonObject> {
    object(
        json!({
            "path": path("The text file to edit."),
            "edits": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "oldText": string("Text to search for - must match exactly"),
                        "newText": string("Text to replace with"),
                    },
                    "required": ["oldText", "newText"]
                },
                "description": "The replacements to make, applied in order, each to the result of the ones before it. If any one has no match, none is written."
            },
            "dryRun": {
                "default": false,
                "description": "Preview changes using git-style diff format",
                "type": "boolean"
            }
        }),
        &["path", "edits"],
    )
}

pub(crate) fn create_directory() -> Arc<JsonObject> {
    object(
        json!({ "path": path("The directory to create, with any missing parents; an existing directory is left as is.") }),
        &["path"],
    )
}

pub(crate) fn list_directory() -> Arc<JsonObject> {
    object(json!({ "path": path("The directory to list.") }), &["path"])
}

pub(crate) fn list_directory_with_sizes() -> Arc<JsonObject> {
    object(
        json!({
            "path": path("The directory to list."),
            "sortBy": {
                "default": "name",
                "description": "Sort entries by name or size",
                "type": "string",
                "enum": ["name", "size"]
            }
        }),
        &["path"],
    )
}

/// 2.3.0's, `depth` included.
pub(crate) fn directory_tree() -> Arc<JsonObject> {
    object(
        json!({
            "path": path("The directory at the root of the tree."),
            "excludePatterns": exclude_patterns(),
            "depth": {
                "description": "How many levels to descend: 1 lists only the entries directly in path. Directories at the last level have no children array. Omit for the whole tree.",
                "type": "integer",
                "exclusiveMinimum": 0,
                "maximum": 9007199254740991u64,
            },
        }),
        &["path"],
    )
}

pub(crate) fn move_file() -> Arc<JsonObject> {
    object(
        json!({
            "source": path("The file or directory to move or rename."),
            "destination": path("Its new path, including the name; nothing may exist there yet."),
        }),
        &["source", "destination"],
    )
}

/// Its `source` and `destination` lack the path rule, as 2.3.0's do.
pub(crate) fn copy_file() -> Arc<JsonObject> {
    object(
        json!({
            "source": string("The file to copy"),
            "destination": string("Where to create the copy; nothing may exist there yet"),
        }),
        &["source", "destination"],
    )
}

pub(crate) fn search_files() -> Arc<JsonObject> {
    object(
        json!({
            "path": path("The directory to search under."),
            "pattern": string("Glob matched against each entry's path relative to path, never its content: '*.ts' matches directly under path, '**/*.ts' at any depth."),
            "excludePatterns": exclude_patterns(),
        }),
        &["path", "pattern"],
    )
}

pub(crate) fn get_file_info() -> Arc<JsonObject> {
    object(
        json!({ "path": path("The file or directory to describe.") }),
        &["path"],
    )
}

/// No arguments.
pub(crate) fn none() -> Arc<JsonObject> {
    object(json!({}), &[])
}
