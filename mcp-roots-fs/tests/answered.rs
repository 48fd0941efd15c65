//! Every line a client writes to the stdio server is answered (but an
//! empty line and another protocol's notification), and the server goes on
//! serving: a line that is no JSON (a lone surrogate, garbage, a cut-off
//! message) gets `-32700` with the id read from it or `null`; a line over
//! the 16 MiB limit gets an error naming the limit; a tool call whose
//! `arguments` is not an object gets `-32602`. Each bad line is followed
//! by a ping, which must be answered too.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

/// How long an answer is waited for before the test fails (a line the
/// server drops would otherwise leave it waiting for ever).
const PATIENCE: Duration = Duration::from_secs(60);

/// The 16 MiB line limit.
const LIMIT: usize = 16 * 1024 * 1024;

struct Client {
    child: Child,
    input: ChildStdin,
    /// The server's lines, read by a thread of their own.
    lines: Receiver<Vec<u8>>,
}

impl Client {
    /// The server on `root`, not yet initialized.
    fn spawn(root: &Path) -> Self {
        let mut child = Command::new(common::binary())
            .arg(root)
            .env("RUST_LOG", "error")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let mut output = BufReader::new(child.stdout.take().unwrap());
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            loop {
                let mut line = Vec::new();
                match output.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if sender.send(line).is_err() => break,
                    Ok(_) => {}
                }
            }
        });
        Self {
            child,
            input,
            lines,
        }
    }

    fn raw(&mut self, line: &[u8]) {
        self.input.write_all(line).unwrap();
        self.input.write_all(b"\n").unwrap();
        self.input.flush().unwrap();
    }

    fn answer(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(PATIENCE)
            .expect("an answer within the patience");
        assert!(line.ends_with(b"\n"), "a whole line");
        serde_json::from_slice(&line).unwrap()
    }

    /// A ping with `id`, then the next two answers: the one to the line
    /// sent before it (returned) and the ping's.
    fn then_ping(&mut self, id: u64) -> Value {
        self.raw(
            json!({"jsonrpc": "2.0", "id": id, "method": "ping"})
                .to_string()
                .as_bytes(),
        );
        let (a, b) = (self.answer(), self.answer());
        let (pong, other) = if a["id"] == id && a.get("result").is_some() {
            (a, b)
        } else {
            (b, a)
        };
        assert_eq!(pong, json!({"jsonrpc": "2.0", "id": id, "result": {}}));
        other
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn initialize(prefix: &[u8]) -> Vec<u8> {
    let mut line = prefix.to_vec();
    line.extend_from_slice(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "answered-test", "version": "0"}}})
        .to_string()
        .as_bytes(),
    );
    line
}

/// A served client: a BOM before its `initialize` is passed over.
fn started(root: &Path) -> Client {
    let mut client = Client::spawn(root);
    client.raw(&initialize(b"\xEF\xBB\xBF"));
    let answer = client.answer();
    assert_eq!(answer["id"], 0, "{answer}");
    assert_eq!(answer["result"]["serverInfo"]["name"], "mcp-roots-fs");
    client.raw(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    client
}

/// A `tools/call` line of `read_text_file` whose `path` is `path_json`
/// (JSON as written, escapes and all).
fn read_call(id: &str, path_json: &str) -> Vec<u8> {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"read_text_file","arguments":{{"path":{path_json}}}}}}}"#
    )
    .into_bytes()
}

fn assert_error(answer: &Value, code: i64, id: Value) {
    assert_eq!(answer["error"]["code"], code, "{answer}");
    assert!(
        answer.as_object().unwrap().contains_key("id"),
        "an id member: {answer}"
    );
    assert_eq!(answer["id"], id, "{answer}");
}

#[test]
fn a_line_that_does_not_parse_is_answered_with_its_id_or_null() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(root.join("a.txt"), "a").unwrap();
    let mut client = started(&root);
    // A path holding a lone surrogate (a JavaScript string may), in the
    // middle of the line and at its end; the id before it, or after it.
    let lone = |escape: &str| {
        let path = serde_json::to_string(&root.join("X.txt")).unwrap();
        path.replace("X.txt", &format!("{escape}.txt"))
    };
    let rows: Vec<(Vec<u8>, Value)> = vec![
        (read_call("1", &lone("\\ud800")), json!(1)),
        (read_call("\"call-2\"", &lone("a\\udfffb")), json!("call-2")),
        (
            format!(
                r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"name":"read_text_file","arguments":{{"path":{}}}}},"id":3}}"#,
                lone("\\udbff")
            )
            .into_bytes(),
            json!(3),
        ),
        // Garbage, and JSON cut off: no id, or one before the cut.
        (b"this is not json".to_vec(), Value::Null),
        (b"{\"jsonrpc\":\"2.0\",,\"id\":4}".to_vec(), Value::Null),
        (
            br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read_te"#
                .to_vec(),
            json!(5),
        ),
        (br#"{"jsonrpc":"2.0","id":6,"method":"ping"}}"#.to_vec(), json!(6)),
        (b"\xff\xfe{}".to_vec(), Value::Null),
    ];
    for (n, (line, id)) in rows.into_iter().enumerate() {
        client.raw(&line);
        let answer = client.then_ping(100 + n as u64);
        assert_error(&answer, -32700, id);
    }
    // The file itself is still read as usual.
    client.raw(&read_call(
        "7",
        &serde_json::to_string(&root.join("a.txt")).unwrap(),
    ));
    let answer = client.answer();
    assert_eq!(answer["id"], 7);
    assert_eq!(answer["result"]["content"][0]["text"], "a", "{answer}");
}

#[test]
fn arguments_that_are_no_object_are_invalid_params() {
    let dir = tempfile::tempdir().unwrap();
    let mut client = started(dir.path());
    let rows = [json!(["/tmp"]), json!("/tmp"), json!(42), json!(true)];
    for (n, arguments) in rows.into_iter().enumerate() {
        let id = 10 + n as u64;
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "list_directory", "arguments": arguments}});
        client.raw(call.to_string().as_bytes());
        let answer = client.then_ping(200 + n as u64);
        assert_error(&answer, -32602, json!(id));
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("`arguments` must be an object"),
            "{message}"
        );
    }
    // `params` itself not an object: invalid params too.
    client.raw(br#"{"jsonrpc":"2.0","id":20,"method":"tools/call","params":["list_directory"]}"#);
    assert_error(&client.then_ping(210), -32602, json!(20));
    // JSON that is no request at all: invalid request, its id kept.
    client.raw(br#"{"jsonrpc":"2.0","id":21,"method":7}"#);
    assert_error(&client.then_ping(211), -32600, json!(21));
}

#[test]
fn another_protocols_notification_is_passed_over_in_silence() {
    let dir = tempfile::tempdir().unwrap();
    let mut client = started(dir.path());
    // Neither is answered: the next line out is the ping's.
    for line in [
        &br#"{"method":"window/logMessage","params":{"type":3,"message":"hi"}}"#[..],
        br#"{"jsonrpc":"2.0","id":1,"method":"notifications/not-mcp","params":[]}"#,
        b"",
        b"\r",
    ] {
        client.raw(line);
    }
    client.raw(br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
    assert_eq!(
        client.answer(),
        json!({"jsonrpc": "2.0", "id": 2, "result": {}})
    );
}

#[test]
fn a_line_over_the_limit_is_answered_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let mut client = started(&root);
    // A write of 16 MiB of content: the line is longer than the limit.
    let target = serde_json::to_string(&root.join("big.txt")).unwrap();
    let mut line = format!(
        r#"{{"jsonrpc":"2.0","id":30,"method":"tools/call","params":{{"name":"write_file","arguments":{{"path":{target},"content":""#
    )
    .into_bytes();
    line.resize(LIMIT + 1 - 4, b'a');
    line.extend_from_slice(b"\"}}}");
    assert_eq!(line.len(), LIMIT + 1);
    client.raw(&line);
    let answer = client.then_ping(300);
    assert_error(&answer, -32600, json!(30));
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains(&LIMIT.to_string()), "{message}");
    assert!(!root.join("big.txt").exists(), "the write was not done");
    // No id in the part kept: null. Then a line of exactly the limit is
    // read whole (a string of JSON: invalid request, its length fine).
    let mut line = vec![b' '; LIMIT + 10];
    line[LIMIT] = b'x';
    client.raw(&line);
    assert_error(&client.then_ping(301), -32600, Value::Null);
    let mut line = vec![b'"'];
    line.resize(LIMIT - 1, b'b');
    line.push(b'"');
    client.raw(&line);
    let answer = client.then_ping(302);
    assert_error(&answer, -32600, Value::Null);
    assert!(
        !answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("longer than"),
        "{answer}"
    );
}

#[test]
fn a_broken_response_fails_the_servers_request_and_is_not_answered() {
    let dir = tempfile::tempdir().unwrap();
    let mut client = Client::spawn(dir.path());
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"roots": {"listChanged": true}},
        "clientInfo": {"name": "answered-test", "version": "0"}}});
    client.raw(initialize.to_string().as_bytes());
    assert_eq!(client.answer()["id"], 0);
    client.raw(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    client.raw(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_allowed_directories","arguments":{}}}"#);
    // The server asks for the roots; the client's answer holds a lone
    // surrogate. The call is then refused for want of roots (the server's
    // request failed), and nothing is answered to the response itself.
    let ask = client.answer();
    assert_eq!(ask["method"], "roots/list", "{ask}");
    client.raw(
        format!(
            r#"{{"jsonrpc":"2.0","id":{},"result":{{"roots":[{{"uri":"file:///\ud800"}}]}}}}"#,
            ask["id"]
        )
        .as_bytes(),
    );
    let call = client.answer();
    assert_eq!(call["id"], 1, "{call}");
    assert_eq!(call["result"]["isError"], true, "{call}");
    assert_eq!(
        call["result"]["structuredContent"]["reason"], "no_roots",
        "{call}"
    );
    client.raw(br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
    assert_eq!(
        client.answer(),
        json!({"jsonrpc": "2.0", "id": 2, "result": {}})
    );
}
