//! What a line of standard input is: a message for the service, a line
//! passed over in silence, or a request answered here with an error,
//! because the service would never see it.
//!
//! Every line is answered but two kinds, which rmcp's reader passes over
//! too: an empty line, and a notification of another protocol (see
//! [`ignored`]). Otherwise a line that does not parse gets `-32700`
//! (JSON that is no message: `-32600`; a request of a method this server
//! serves whose `params` do not have the method's shape: `-32602`), with
//! the request's `id` when it can be read, `null` when it cannot. The
//! `id` is read by a lenient scan of the line's top-level members in
//! order: one read before the line goes wrong counts (a string holding a
//! lone surrogate such as `"\ud800"`, which a Rust string cannot hold,
//! is passed over, not refused, so an `id` after it counts too).
//!
//! A line that is the client's response to a request of the server's
//! (`result` or `error`, no `method`) and does not parse is not answered
//! (a response gets no answer): when its `id` is read it reaches the
//! service as that request's error, with the same code and reason.

use std::borrow::Cow;
use std::fmt;

use rmcp::RoleServer;
use rmcp::model::{ClientRequest, ErrorCode, ErrorData, JsonRpcError, JsonRpcMessage, RequestId};
use rmcp::service::RxJsonRpcMessage;
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde::{Deserializer, Serialize};
use serde_json::Value;

/// What to do with one line.
#[derive(Debug)]
pub(crate) enum Line {
    /// A message for the service.
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Nothing: an empty line, or another protocol's notification.
    Ignored,
    /// This error answer, a whole line with its newline.
    Answer(Vec<u8>),
}

/// What the scan of a line that does not parse read of it.
#[derive(Debug, Default)]
struct Seen {
    id: Option<RequestId>,
    method: bool,
    outcome: bool,
}

impl Seen {
    /// The line is the client's answer to a request of the server's
    /// (`result` or `error`, no `method`).
    fn response(&self) -> bool {
        self.outcome && !self.method
    }

    /// The error for this line: answered to the client; or, when the line
    /// is the client's response to a request of the server's with an `id`
    /// read, handed to the service as that request's error (answering a
    /// response would tell the client nothing, and the server's request
    /// would wait for ever).
    fn error(self, code: ErrorCode, message: String) -> Line {
        match self.id {
            Some(id) if self.response() => Line::Message(Box::new(JsonRpcMessage::Error(
                JsonRpcError::new(Some(id), ErrorData::new(code, message, None)),
            ))),
            id => Line::Answer(answer(id, code, &message)),
        }
    }
}

/// The methods this server serves: a request of one of them whose params
/// do not fit reaches rmcp as a custom request (answered "method not
/// found") or not at all; it is answered "invalid params" here.
const SERVED: [&str; 4] = ["initialize", "ping", "tools/list", "tools/call"];

/// A UTF-8 byte order mark, which RFC 8259 §8.1 lets a parser ignore.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// `line` (its newline taken off) judged.
pub(crate) fn line(line: &[u8]) -> Line {
    let line = line.strip_prefix(BOM).unwrap_or(line);
    if line.is_empty() {
        return Line::Ignored;
    }
    let error = match serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(line) {
        Ok(message) => return served(message),
        Err(error) => error,
    };
    match serde_json::from_slice::<Value>(line) {
        Ok(value) => shapeless(&value, &error),
        Err(_) => scan(line).error(
            ErrorCode::PARSE_ERROR,
            format!("parse error: {}", Brief(&error)),
        ),
    }
}

/// The error for a line over `limit` bytes, of which `seen` is the start
/// (the `id` is read from there).
pub(crate) fn oversized(seen: &[u8], limit: usize) -> Line {
    let seen = seen.strip_prefix(BOM).unwrap_or(seen);
    scan(seen).error(
        ErrorCode::INVALID_REQUEST,
        format!(
            "invalid request: the message is longer than {limit} bytes, the most this server reads on one line; it was skipped"
        ),
    )
}

/// `message`, unless it is a request of a served method whose params
/// rmcp could not read (it then became a custom request).
fn served(message: RxJsonRpcMessage<RoleServer>) -> Line {
    if let JsonRpcMessage::Request(request) = &message
        && let ClientRequest::CustomRequest(custom) = &request.request
        && SERVED.contains(&custom.method.as_str())
    {
        let params = Value::Object(Default::default());
        let params = custom.params.as_ref().unwrap_or(&params);
        return Line::Answer(invalid_params(
            Some(request.id.clone()),
            &custom.method,
            params,
        ));
    }
    Line::Message(Box::new(message))
}

/// JSON that is no message: another protocol's notification (ignored), a
/// served request with params of the wrong shape, or an invalid request.
fn shapeless(value: &Value, error: &serde_json::Error) -> Line {
    let method = value.get("method").and_then(Value::as_str);
    if method.is_some_and(|method| ignored(value, method)) {
        tracing::trace!(method, "stdio: another protocol's notification ignored");
        return Line::Ignored;
    }
    let id = value
        .get("id")
        .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
    if let (Some(id), Some(method), Some("2.0")) =
        (&id, method, value.get("jsonrpc").and_then(Value::as_str))
        && SERVED.contains(&method)
        && let Some(params) = value.get("params")
    {
        return Line::Answer(invalid_params(Some(id.clone()), method, params));
    }
    let seen = Seen {
        id,
        method: value.get("method").is_some(),
        outcome: value.get("result").is_some() || value.get("error").is_some(),
    };
    seen.error(
        ErrorCode::INVALID_REQUEST,
        format!("invalid request: {}", Brief(error)),
    )
}

fn invalid_params(id: Option<RequestId>, method: &str, params: &Value) -> Vec<u8> {
    let why = match (params, params.get("arguments")) {
        (Value::Object(_), Some(Value::Object(_) | Value::Null) | None) => {
            "they do not have the method's shape"
        }
        (Value::Object(_), Some(_)) => "`arguments` must be an object",
        _ => "`params` must be an object",
    };
    answer(
        id,
        ErrorCode::INVALID_PARAMS,
        &format_args!("invalid params for {method}: {why}"),
    )
}

/// rmcp's compatibility rule, for JSON that is no message: a notification
/// (no `id`) of a method that is not MCP's, as an LSP client sends, and a
/// `notifications/…` method MCP does not define, `id` or not.
fn ignored(value: &Value, method: &str) -> bool {
    let notification = value.get("id").is_none();
    let mcp_notification = MCP_NOTIFICATIONS.contains(&method);
    (notification && !mcp_notification && !MCP_REQUESTS.contains(&method))
        || (method.starts_with("notifications/") && !mcp_notification)
}

/// MCP's request methods (the 2026-07-28 revision and earlier).
const MCP_REQUESTS: [&str; 17] = [
    "initialize",
    "ping",
    "server/discover",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "resources/templates/list",
    "subscriptions/listen",
    "tools/call",
    "tools/list",
    "completion/complete",
    "elicitation/create",
    "logging/setLevel",
    "roots/list",
];

/// MCP's notification methods.
const MCP_NOTIFICATIONS: [&str; 10] = [
    "notifications/cancelled",
    "notifications/initialized",
    "notifications/message",
    "notifications/progress",
    "notifications/prompts/list_changed",
    "notifications/resources/list_changed",
    "notifications/resources/updated",
    "notifications/roots/list_changed",
    "notifications/subscriptions/acknowledged",
    "notifications/tools/list_changed",
];

/// serde's reason, cut short: it may quote the input (a 16 MiB string).
struct Brief<'a>(&'a serde_json::Error);

impl fmt::Display for Brief<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MOST: usize = 200;
        let reason = self.0.to_string();
        match reason.char_indices().nth(MOST) {
            Some((end, _)) => write!(f, "{}…", &reason[..end]),
            None => f.write_str(&reason),
        }
    }
}

/// The error answer as a line; `id` is `null` when unknown (JSON-RPC 2.0
/// §5: "if there was an error in detecting the id … it MUST be Null").
fn answer(id: Option<RequestId>, code: ErrorCode, message: &dyn fmt::Display) -> Vec<u8> {
    #[derive(Serialize)]
    struct Answer<'a> {
        jsonrpc: &'a str,
        id: Option<RequestId>,
        error: Error,
    }
    #[derive(Serialize)]
    struct Error {
        code: i32,
        message: String,
    }
    let answer = Answer {
        jsonrpc: "2.0",
        id,
        error: Error {
            code: code.0,
            message: message.to_string(),
        },
    };
    let mut line = serde_json::to_vec(&answer).unwrap_or_else(|_| {
        // Unreachable: every field serializes.
        br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}"#
            .to_vec()
    });
    line.push(b'\n');
    line
}

/// The top-level members of `line` read up to where it goes wrong.
fn scan(line: &[u8]) -> Seen {
    let mut seen = Seen::default();
    let mut json = serde_json::Deserializer::from_slice(line);
    // The error is the line's own, already reported: only what was read
    // before it matters.
    let _ = IdScan(&mut seen).deserialize(&mut json);
    seen
}

/// Visits an object's members in order, keeping the last readable `id`.
struct IdScan<'a>(&'a mut Seen);

impl<'de> DeserializeSeed<'de> for IdScan<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, json: D) -> Result<(), D::Error> {
        json.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for IdScan<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<(), A::Error> {
        while let Some(key) = members.next_key::<Cow<'de, str>>()? {
            match &*key {
                "method" => self.0.method = true,
                "result" | "error" => self.0.outcome = true,
                _ => {}
            }
            if key == "id" {
                self.0.id = members.next_value::<Option<RequestId>>()?;
            } else {
                // Skipped, not decoded: a lone surrogate passes.
                members.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answered(line: &[u8]) -> Value {
        answer_of(super::line(line))
    }

    fn answer_of(line: Line) -> Value {
        match line {
            Line::Answer(answer) => {
                assert_eq!(answer.last(), Some(&b'\n'));
                serde_json::from_slice(&answer).unwrap()
            }
            other => panic!("not answered: {other:?}"),
        }
    }

    #[test]
    fn a_broken_response_is_the_servers_request_failing() {
        // The client's answer to the server's request 3 (roots, a form):
        // it reaches the service as request 3's error, not the client.
        let rows: [(&[u8], i32); 4] = [
            (
                br#"{"jsonrpc":"2.0","id":3,"result":{"roots":[{"uri":"file:///\ud800"}]}}"#,
                -32700,
            ),
            (
                br#"{"jsonrpc":"2.0","id":3,"result":{"roots":[{"uri":"#,
                -32700,
            ),
            (br#"{"jsonrpc":"2.0","id":3,"error":{"code":"x"}}"#, -32600),
            (br#"{"jsonrpc":"2.0","id":3,"result":{}} x"#, -32700),
        ];
        for (line, code) in rows {
            match super::line(line) {
                Line::Message(message) => match *message {
                    JsonRpcMessage::Error(error) => {
                        assert_eq!(error.id, Some(RequestId::Number(3)));
                        assert_eq!(error.error.code.0, code);
                    }
                    other => panic!("{other:?}"),
                },
                other => panic!("{}: {other:?}", String::from_utf8_lossy(line)),
            }
        }
        let oversized = oversized(br#"{"jsonrpc":"2.0","id":3,"result":{"content":"xx"#, 64);
        assert!(matches!(oversized, Line::Message(_)), "{oversized:?}");
        // Without a readable id it is answered (`null`), as JSON-RPC says.
        let answer = answered(br#"{"jsonrpc":"2.0","result":{"x":"\ud800"},"id":"#);
        assert_eq!(answer["id"], Value::Null);
        // A request with a result member is still a request.
        let answer = answered(br#"{"jsonrpc":"2.0","id":4,"method":"ping","result":"\ud800"}"#);
        assert_eq!(answer["id"], 4);
    }

    #[test]
    fn the_id_is_read_up_to_where_the_line_goes_wrong() {
        let rows: [(&[u8], Value); 8] = [
            (
                br#"{"jsonrpc":"2.0","id":7,"method":"x","params":{"p":"\ud800"}}"#,
                7.into(),
            ),
            (
                br#"{"jsonrpc":"2.0","params":{"p":"\udfff"},"id":"a","method":"x"}"#,
                "a".into(),
            ),
            (
                br#"{"id":3,"jsonrpc":"2.0","method":"tools/call","params":{"na"#,
                3.into(),
            ),
            (
                br#"{"jsonrpc":"2.0","method":"ping","params":{"p":[1,}},"id":4}"#,
                Value::Null,
            ),
            (br#"{"id":"\ud800","method":"ping"}"#, Value::Null),
            (br#"{"id":{"x":1},"method":"ping"} tail"#, Value::Null),
            (b"garbage", Value::Null),
            (br#"{"id":5} trailing"#, 5.into()),
        ];
        for (line, id) in rows {
            let answer = answered(line);
            assert_eq!(answer["id"], id, "{}", String::from_utf8_lossy(line));
            assert_eq!(answer["error"]["code"], -32700, "{answer}");
            assert!(answer.as_object().unwrap().contains_key("id"));
        }
    }

    #[test]
    fn json_that_is_no_message_is_an_invalid_request_or_params() {
        let rows: [(&[u8], i32, Value); 7] = [
            (br#"{"jsonrpc":"2.0","id":9,"method":7}"#, -32600, 9.into()),
            (br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, -32600, Value::Null),
            (br#"{"jsonrpc":"1.0","id":2,"method":"tools/call","params":[]}"#, -32600, 2.into()),
            (br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":[1]}"#, -32602, 3.into()),
            (br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"a","arguments":[1]}}"#, -32602, 4.into()),
            (br#"{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"a","arguments":"x"}}"#, -32602, "s".into()),
            (br#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"a","arguments":1.5}}"#, -32602, 6.into()),
        ];
        for (line, code, id) in rows {
            let answer = answered(line);
            assert_eq!(answer["error"]["code"], code, "{answer}");
            assert_eq!(answer["id"], id, "{answer}");
        }
        let arguments = answered(br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"a","arguments":[1]}}"#);
        assert!(
            arguments["error"]["message"]
                .as_str()
                .unwrap()
                .contains("`arguments` must be an object")
        );
    }

    #[test]
    fn messages_pass_and_other_protocols_are_ignored() {
        let bom = b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        let ok: [&[u8]; 7] = [
            bom,
            br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
            br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"path":"/"}}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}"#,
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ];
        for line in ok {
            assert!(
                matches!(super::line(line), Line::Message(_)),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
        let ignored: [&[u8]; 4] = [
            b"",
            b"\xEF\xBB\xBF",
            br#"{"method":"window/logMessage","params":{"type":3}}"#,
            br#"{"id":1,"method":"notifications/unknown","params":7}"#,
        ];
        for line in ignored {
            assert!(
                matches!(super::line(line), Line::Ignored),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }

    #[test]
    fn the_reason_does_not_quote_a_long_input() {
        let long = format!("\"{}\"", "é".repeat(100_000));
        let error = serde_json::from_str::<u8>(&long).unwrap_err();
        assert!(error.to_string().len() > 100_000);
        let brief = Brief(&error).to_string();
        assert!(brief.starts_with("invalid type: string"), "{brief}");
        assert!(
            brief.ends_with('…') && brief.chars().count() == 201,
            "{brief}"
        );
        let short = serde_json::from_str::<u8>("\"é\"").unwrap_err();
        assert_eq!(Brief(&short).to_string(), short.to_string());
    }

    #[test]
    fn an_oversized_line_names_the_limit_and_its_id() {
        let answer = answer_of(oversized(br#"{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"write_file","arguments":{"content":"xxxx"#, 64));
        assert_eq!(answer["id"], 12);
        assert_eq!(answer["error"]["code"], -32600);
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("64 bytes")
        );
        let answer = answer_of(oversized(b"xxxx", 64));
        assert_eq!(answer["id"], Value::Null);
    }
}
