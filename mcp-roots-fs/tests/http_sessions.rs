//! `mcp-roots-fs --http`: a 2025 session ended by its client's `DELETE`
//! gets `200` (rmcp's own answer is `202`, which the official Python SDK
//! reports as "Session termination failed: 202"), and the id is unknown
//! (`404`) from then on.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;

use common::HttpServer;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

/// One request on its own connection: the status and the header block.
fn raw(addr: &str, method: &str, session: Option<&str>, body: &str) -> (u16, String) {
    let mut request = format!("{method} /mcp HTTP/1.1\r\nHost: {addr}\r\n");
    if let Some(id) = session {
        request.push_str(&format!(
            "Mcp-Session-Id: {id}\r\nMcp-Protocol-Version: 2025-11-25\r\n"
        ));
    }
    request.push_str(
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n",
    );
    request.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ));
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buffer).unwrap();
        if n == 0 {
            break;
        }
        seen.extend_from_slice(&buffer[..n]);
    }
    let head = String::from_utf8_lossy(&seen).into_owned();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, head)
}

fn session_id(head: &str) -> String {
    head.lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_owned())
        })
        .expect("a session id")
}

#[test]
fn a_delete_that_ends_a_session_answers_200_then_404() {
    let dir = tempfile::tempdir().unwrap();
    let server = HttpServer::start(&[
        "--http".to_owned(),
        "127.0.0.1:0".to_owned(),
        dir.path().to_str().unwrap().to_owned(),
    ]);
    let addr = server.addr().to_owned();
    let sessions: Vec<String> = (0..3)
        .map(|_| {
            let (status, head) = raw(&addr, "POST", None, INITIALIZE);
            assert_eq!(status, 200, "{head}");
            session_id(&head)
        })
        .collect();
    for id in &sessions {
        let (status, head) = raw(&addr, "DELETE", Some(id), "");
        assert_eq!(status, 200, "{head}");
        let (again, head) = raw(&addr, "DELETE", Some(id), "");
        assert_eq!(again, 404, "{head}");
    }
    let (unknown, head) = raw(&addr, "DELETE", Some("never-given"), "");
    assert_eq!(unknown, 404, "{head}");
}
