//! A large answer's long strings, escaped once. The original's result
//! shape carries a tool's text twice (the text block and
//! `structuredContent.content`), so a 100,000-entry `directory_tree` is two
//! copies of a 9 MB text, which serde_json escapes one byte at a time, one
//! after the other. Here each long string is taken out of the message and
//! replaced by a marker; the rest (small) is serialized as usual, and the
//! marker is replaced, as the line is written, by the string escaped once
//! (on up to 4 threads, in pieces cut at character boundaries) however
//! often it occurs. The bytes are exactly serde_json's: a compact JSON
//! text is its values' texts side by side, and a string's escape is its
//! characters' escapes side by side (a test holds it to that).

use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};

use rmcp::RoleServer;
use rmcp::model::{ContentBlock, JsonRpcMessage, ServerResult};
use rmcp::service::TxJsonRpcMessage;
use serde_json::Value;

/// A string this long or longer is escaped once, apart from the message.
pub(crate) const LONG: usize = 64 * 1024;

/// Writes `item` as one line into `out`, its long strings escaped once.
pub(crate) fn write_line(
    mut item: TxJsonRpcMessage<RoleServer>,
    out: &mut impl Write,
) -> io::Result<()> {
    let nonce = std::hash::RandomState::new().build_hasher().finish();
    let marker = |i: usize| format!("\u{1}mcp-roots-fs {nonce:016x} {i}\u{1}");
    let mut long = Vec::new();
    strings(&mut item, &mut |s| {
        if s.len() >= LONG {
            long.push(std::mem::replace(s, marker(long.len())));
        }
    });
    let skeleton = serde_json::to_vec(&item).map_err(io::Error::other)?;
    // Where each marker lies in the skeleton: exactly once, or the message
    // is written whole as serde_json writes it.
    let mut at = Vec::with_capacity(long.len());
    for i in 0..long.len() {
        let quoted = serde_json::to_vec(&marker(i)).map_err(io::Error::other)?;
        match find_once(&skeleton, &quoted) {
            Some(pos) => at.push((pos, quoted.len(), i)),
            None => {
                strings(&mut item, &mut |s| {
                    if let Some(i) = (0..long.len()).find(|&i| *s == marker(i)) {
                        *s = std::mem::take(&mut long[i]);
                    }
                });
                serde_json::to_writer(&mut *out, &item).map_err(io::Error::other)?;
                return out.write_all(b"\n");
            }
        }
    }
    at.sort_unstable();
    // Each distinct string escaped once, on first use.
    let mut escaped: Vec<Option<Vec<Vec<u8>>>> = vec![None; long.len()];
    let mut cursor = 0;
    for (pos, len, i) in at {
        out.write_all(&skeleton[cursor..pos])?;
        let first = (0..i).find(|&j| long[j] == long[i]).unwrap_or(i);
        let pieces = escaped[first].get_or_insert_with(|| escape(&long[first]));
        out.write_all(b"\"")?;
        for piece in pieces.iter() {
            out.write_all(unquoted(piece))?;
        }
        out.write_all(b"\"")?;
        cursor = pos + len;
    }
    out.write_all(&skeleton[cursor..])?;
    out.write_all(b"\n")
}

/// `s` as serde_json escapes it, in pieces: each piece as serde_json
/// writes it, quotes included (cut off where it is written, not copied).
fn escape(s: &str) -> Vec<Vec<u8>> {
    let threads = crate::threads::available();
    let mut parts = Vec::with_capacity(threads);
    let mut rest = s;
    for left in (1..=threads).rev() {
        let mut cut = rest.len().div_ceil(left);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (part, tail) = rest.split_at(cut);
        parts.push(part);
        rest = tail;
    }
    crate::threads::map(&parts, |_, part| {
        serde_json::to_vec(part).expect("a string serializes")
    })
}

/// A piece of [`escape`] without its quotes.
fn unquoted(piece: &[u8]) -> &[u8] {
    &piece[1..piece.len() - 1]
}

/// The one place `needle` occurs in `haystack`.
fn find_once(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let mut found = haystack
        .windows(needle.len())
        .enumerate()
        .filter(|(_, w)| *w == needle)
        .map(|(pos, _)| pos);
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// Calls `each` on the strings of a tool result that can be long: its text
/// blocks and the strings of its structured content.
fn strings(item: &mut TxJsonRpcMessage<RoleServer>, each: &mut dyn FnMut(&mut String)) {
    let JsonRpcMessage::Response(response) = item else {
        return;
    };
    let ServerResult::CallToolResult(result) = &mut response.result else {
        return;
    };
    for block in &mut result.content {
        if let ContentBlock::Text(text) = block {
            each(&mut text.text);
        }
    }
    if let Some(value) = result.structured_content.as_mut() {
        value_strings(value, each);
    }
}

fn value_strings(value: &mut Value, each: &mut dyn FnMut(&mut String)) {
    match value {
        Value::String(s) => each(s),
        Value::Array(items) => items.iter_mut().for_each(|v| value_strings(v, each)),
        Value::Object(map) => map.values_mut().for_each(|v| value_strings(v, each)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{CallToolResult, JsonRpcResponse, NumberOrString, RequestId};
    use serde_json::json;

    fn message(result: CallToolResult) -> TxJsonRpcMessage<RoleServer> {
        JsonRpcMessage::Response(JsonRpcResponse {
            jsonrpc: Default::default(),
            id: RequestId::from(NumberOrString::Number(7)),
            result: ServerResult::CallToolResult(result),
        })
    }

    fn result(texts: &[&str], structured: Option<Value>) -> CallToolResult {
        let mut result =
            CallToolResult::success(texts.iter().map(|t| ContentBlock::text(*t)).collect());
        result.structured_content = structured;
        result
    }

    /// A long text of `unit` repeated, escapes and multi-byte characters
    /// falling on every cut.
    fn long(unit: &str) -> String {
        unit.repeat(LONG / unit.len() * 3 + 1)
    }

    #[test]
    fn the_line_is_serde_jsons_byte_for_byte() {
        let tree = long("  {\n    \"name\": \"f.txt\",\n    \"type\": \"file\"\n  },\n");
        let wide = long("é✓𝄞\\\t\u{1}\u{7f}\u{2028}a");
        let other = long("x\"y");
        let rows = vec![
            // The original's shape: the text twice.
            result(&[&tree], Some(json!({ "content": tree }))),
            // Long strings that differ, one of them twice.
            result(
                &[&wide, &other, "short", &wide],
                Some(json!({ "content": other, "stoppedEarly": "why" })),
            ),
            // Nested, in arrays and objects.
            result(
                &["x"],
                Some(json!({ "a": [tree.clone(), { "b": wide.clone() }], "n": 1.5 })),
            ),
            // Nothing long: the skeleton is the whole line.
            result(&["small", "text"], Some(json!({ "content": "small" }))),
            // One byte under and at the threshold.
            result(&[&"q".repeat(LONG - 1), &"\"".repeat(LONG)], None),
            // A text that looks like a marker of another process.
            result(&["\u{1}mcp-roots-fs 0000000000000000 0\u{1}", &tree], None),
        ];
        for (row, r) in rows.into_iter().enumerate() {
            let plain = {
                let mut line = serde_json::to_vec(&message(r.clone())).unwrap();
                line.push(b'\n');
                line
            };
            let mut spliced = Vec::new();
            write_line(message(r), &mut spliced).unwrap();
            assert!(spliced == plain, "row {row}: the lines differ");
        }
    }

    #[test]
    fn pieces_cut_at_character_boundaries_escape_as_the_whole() {
        for s in ["", "a", "é", "𝄞𝄞𝄞", "\"\\\n", &long("ü\"𝄞")] {
            let pieces = escape(s);
            let joined: Vec<u8> = pieces.iter().flat_map(|p| unquoted(p).to_vec()).collect();
            let whole = serde_json::to_vec(s).unwrap();
            assert_eq!(joined, whole[1..whole.len() - 1], "{s:?}");
        }
    }

    #[test]
    fn other_messages_are_left_alone() {
        let mut item: TxJsonRpcMessage<RoleServer> = JsonRpcMessage::Response(JsonRpcResponse {
            jsonrpc: Default::default(),
            id: RequestId::from(NumberOrString::Number(1)),
            result: ServerResult::empty(()),
        });
        let mut seen = 0;
        strings(&mut item, &mut |_| seen += 1);
        assert_eq!(seen, 0);
    }
}
