//! The original's result shapes: a text block and the same text as
//! `structuredContent.content`; the output schemas the tools declare.

use std::sync::Arc;

use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, JsonObject};
use serde_json::{Value, json};

use crate::original::schemas::DIALECT;

/// A result of text: one text block, and `{"content": text}` as
/// structured content.
pub(crate) fn text(text: String) -> CallToolResult {
    let structured = json!({ "content": text });
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(structured);
    result
}

/// [`text`] from a walk that stopped early: the reason goes in a second
/// text block and in `structuredContent.stoppedEarly` (a property the
/// output schema does not declare, which it allows), so the first block
/// keeps the original's format (the tree stays valid JSON).
pub(crate) fn text_stopped(text: String, stopped: Option<String>) -> CallToolResult {
    let Some(why) = stopped else {
        return self::text(text);
    };
    let structured = json!({ "content": text, "stoppedEarly": why });
    let note = format!("[stopped early: {why}]");
    let mut result =
        CallToolResult::success(vec![ContentBlock::text(text), ContentBlock::text(note)]);
    result.structured_content = Some(structured);
    result
}

/// Which output schema a tool declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// [`text_schema`]: `content` is a string.
    Text,
    /// [`media_schema`]: `content` is an array of media blocks.
    Media,
}

/// `response` with a refusal's structured content fitted to the tool's
/// output schema. A refusal carries `{"reason", …}`; clients that validate
/// `structuredContent` against the output schema even when `isError` is
/// set (the TypeScript SDK's 1.x client does, and then throws away the
/// whole result) need the schema's required `content` too: the refusal's
/// text for a text tool, an empty list of blocks for `read_media_file`.
pub(crate) fn fitted(shape: Shape, response: CallToolResponse) -> CallToolResponse {
    let CallToolResponse::Complete(mut result) = response else {
        return response;
    };
    if result.is_error == Some(true) {
        let content = match shape {
            Shape::Text => Value::String(texts(&result)),
            Shape::Media => Value::Array(Vec::new()),
        };
        if let Some(Value::Object(structured)) = result.structured_content.as_mut() {
            structured.entry("content").or_insert(content);
        }
    }
    CallToolResponse::Complete(result)
}

/// The text of `result`'s text blocks, one a line.
fn texts(result: &CallToolResult) -> String {
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
        .collect();
    texts.join("\n")
}

fn object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(object) => Arc::new(object),
        _ => unreachable!("schema literals are objects"),
    }
}

/// `{content: string}`, the output schema of every tool but one: 2.3.0's,
/// less its `additionalProperties: false`. A refusal's structured content
/// carries its `reason` (and a walk's, why it stopped early) beside
/// `content`, and a client that validates an error's structured content
/// against the schema (the TypeScript SDK's does) would otherwise throw the
/// whole result away.
pub(crate) fn text_schema() -> Arc<JsonObject> {
    object(json!({
        "$schema": DIALECT,
        "type": "object",
        "properties": {
            "content": { "type": "string" }
        },
        "required": ["content"]
    }))
}

/// read_media_file's output schema: its content blocks, 2.3.0's less its
/// outermost `additionalProperties: false` (see [`text_schema`]).
pub(crate) fn media_schema() -> Arc<JsonObject> {
    object(json!({
        "$schema": DIALECT,
        "type": "object",
        "properties": {
            "content": {
                "type": "array",
                "items": {
                    "anyOf": [
                        {
                            "type": "object",
                            "properties": {
                                "type": { "type": "string", "enum": ["image", "audio"] },
                                "data": { "type": "string" },
                                "mimeType": { "type": "string" }
                            },
                            "required": ["type", "data", "mimeType"],
                            "additionalProperties": false
                        },
                        {
                            "type": "object",
                            "properties": {
                                "type": { "type": "string", "const": "resource" },
                                "resource": {
                                    "type": "object",
                                    "properties": {
                                        "uri": { "type": "string" },
                                        "mimeType": { "type": "string" },
                                        "blob": { "type": "string" }
                                    },
                                    "required": ["uri", "blob"],
                                    "additionalProperties": false
                                }
                            },
                            "required": ["type", "resource"],
                            "additionalProperties": false
                        }
                    ]
                }
            }
        },
        "required": ["content"]
    }))
}
