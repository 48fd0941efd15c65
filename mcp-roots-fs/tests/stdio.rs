//! The stdio transport seen from a client's pipes, byte for byte: a large
//! answer (streamed into the pipe as it is serialized) is one whole line,
//! even to a slow reader; lines never interleave; a malformed request
//! still gets its answer; a reader that goes away mid-line ends the
//! server instead of leaving it waiting.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Directories of files under `dir`, the tree's answer larger than what
/// the transport builds in memory (256 KiB).
fn tree(dir: &Path, dirs: usize, files: usize) {
    for d in 0..dirs {
        let sub = dir.join(format!("d{d:02}"));
        std::fs::create_dir(&sub).unwrap();
        for f in 0..files {
            std::fs::write(sub.join(format!("file-{f:04}.txt")), b"").unwrap();
        }
    }
}

struct Server {
    child: Child,
    /// The client's ends of the pipes (`None` once it left).
    input: Option<ChildStdin>,
    output: Option<BufReader<ChildStdout>>,
}

impl Server {
    /// A root of `dirs` folders of 100 files (see [`tree`]), and the
    /// server on it.
    fn on_tree(dirs: usize) -> (tempfile::TempDir, std::path::PathBuf, Self) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        tree(&root, dirs, 100);
        let server = Self::start(&root);
        (dir, root, server)
    }

    fn start(dir: &Path) -> Self {
        let mut child = Command::new(common::binary())
            .arg(dir)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let input = child.stdin.take();
        let output = child.stdout.take().map(BufReader::new);
        let mut server = Self {
            child,
            input,
            output,
        };
        server.send(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "stdio-test", "version": "0"}}}),
        );
        let answer = server.line();
        assert_eq!(answer["id"], 0, "{answer}");
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    fn send(&mut self, message: &Value) {
        let mut line = serde_json::to_vec(message).unwrap();
        line.push(b'\n');
        self.send_raw(&line);
    }

    fn send_raw(&mut self, line: &[u8]) {
        let input = self.input.as_mut().unwrap();
        input.write_all(line).unwrap();
        input.flush().unwrap();
    }

    fn output(&mut self) -> &mut BufReader<ChildStdout> {
        self.output.as_mut().unwrap()
    }

    fn line(&mut self) -> Value {
        let mut line = String::new();
        self.output().read_line(&mut line).unwrap();
        assert!(line.ends_with('\n'), "a whole line: {} bytes", line.len());
        serde_json::from_str(&line).unwrap()
    }

    fn tree_request(&mut self, id: u64, dir: &Path) {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "directory_tree", "arguments": {"path": dir}}}));
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn tree_text(answer: &Value) -> &str {
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert_eq!(
        answer["result"]["structuredContent"]["content"].as_str(),
        Some(text)
    );
    text
}

#[test]
fn a_large_answer_is_one_line_and_the_next_follows_it() {
    let (_dir, root, mut server) = Server::on_tree(40);
    // Three requests at once: two trees (each streamed) and a ping.
    server.tree_request(1, &root);
    server.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}));
    server.tree_request(3, &root);
    let mut seen = Vec::new();
    for _ in 0..3 {
        let answer = server.line();
        let id = answer["id"].as_u64().unwrap();
        if id != 2 {
            let text = tree_text(&answer);
            assert!(text.len() > 256 * 1024, "{} bytes", text.len());
            let nodes: Value = serde_json::from_str(text).unwrap();
            assert_eq!(common::tree_entries(&nodes), 40 * 101);
        }
        seen.push(id);
    }
    seen.sort_unstable();
    assert_eq!(seen, [1, 2, 3]);
}

#[test]
fn a_slow_reader_gets_the_whole_line() {
    let (_dir, root, mut server) = Server::on_tree(10);
    server.tree_request(1, &root);
    // A few kilobytes at a time with pauses: the pipe fills, the server
    // waits for it, and carries on where it stopped.
    let mut line = Vec::new();
    let mut chunk = [0u8; 8192];
    while !line.ends_with(b"\n") {
        let n = server.output().read(&mut chunk).unwrap();
        assert!(n > 0, "the line ended early after {} bytes", line.len());
        line.extend_from_slice(&chunk[..n]);
        if line.len() < 200_000 {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    let answer: Value = serde_json::from_slice(&line).unwrap();
    let nodes: Value = serde_json::from_str(tree_text(&answer)).unwrap();
    assert_eq!(common::tree_entries(&nodes), 10 * 101);
    // And the server still answers.
    server.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}));
    assert_eq!(server.line()["id"], 2);
}

#[test]
fn a_malformed_request_is_answered_on_a_line_of_its_own() {
    let (_dir, root, mut server) = Server::on_tree(20);
    // A large answer under way, then JSON that is no request (answered
    // "invalid request"), then a ping: three whole lines.
    server.tree_request(1, &root);
    server.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":7}\n");
    server.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}));
    let mut invalid = 0;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let answer = server.line();
        if answer.get("error").is_some() {
            assert_eq!(answer["error"]["code"], -32600, "{answer}");
            invalid += 1;
        } else {
            ids.push(answer["id"].as_u64().unwrap());
        }
    }
    assert_eq!(invalid, 1);
    ids.sort_unstable();
    assert_eq!(ids, [1, 2]);
}

#[test]
fn a_reader_that_leaves_mid_line_ends_the_server() {
    let (_dir, root, mut server) = Server::on_tree(40);
    server.tree_request(1, &root);
    let mut start = [0u8; 1024];
    server.output().read_exact(&mut start).unwrap();
    // The client goes: its end of both pipes closes.
    server.input = None;
    server.output = None;
    let begun = Instant::now();
    loop {
        if server.child.try_wait().unwrap().is_some() {
            break;
        }
        assert!(
            begun.elapsed() < Duration::from_secs(20),
            "the server still runs after its client left"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
