//! The binary's log on stderr: with `RUST_LOG=info`, a denial, a roots
//! change and a revocation each appear, inside the tool call's span, with
//! the client's input escaped. The binary runs with `--http 127.0.0.1:0`
//! (its stderr is kept line by line); every wait is bounded.
#![cfg(target_os = "linux")]

mod common;

use std::time::{Duration, Instant};

use common::{BINARY, at, call, reason, tree, uri};
use mcp_script::ScriptedClient;
use notes_server::{HttpServer, Launch};
use serde_json::json;

/// How long the log may take to show a line.
const WITHIN: Duration = Duration::from_secs(10);

/// Waits (bounded) for a line of `server`'s stderr that contains every
/// one of `parts`; the line, if one came.
async fn line_with(server: &HttpServer, parts: &[&str]) -> Option<String> {
    let deadline = Instant::now() + WITHIN;
    loop {
        let found = server
            .log()
            .into_iter()
            .find(|line| parts.iter().all(|part| line.contains(part)));
        if found.is_some() || Instant::now() > deadline {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn denials_roots_changes_and_revocations_are_logged_in_the_call_span() {
    let dir = tree();
    let server = HttpServer::start_with_env(BINARY, &[], &[("RUST_LOG", "info")])
        .await
        .unwrap();
    let script = ScriptedClient::new(true, true);
    let notes = uri(dir.path(), "Notes");
    script.set_roots([(notes.as_str(), Some("Notes"))]);
    let s = Launch::Http(server.clone())
        .connect(script.clone())
        .await
        .unwrap();

    // A denial: a read outside the roots, its input carrying a newline.
    let outside = format!("{}\nFORGED denied", at(dir.path(), "Secret/passwords.md"));
    let denied = call(&s.client, "notes_read", json!({ "path": outside })).await;
    assert_eq!(denied.is_error, Some(true), "{denied:?}");
    let line = line_with(&server, &["mcp_roots::denial", "denied", "tool_call{"])
        .await
        .unwrap_or_else(|| panic!("no denial logged: {:#?}", server.log()));
    assert!(line.contains("tool_call{tool=notes_read "), "{line}");
    assert!(
        line.contains("Secret/passwords.md\\nFORGED"),
        "escaped: {line}"
    );
    assert!(
        !server.log().iter().any(|l| l.starts_with("FORGED")),
        "a forged line"
    );

    // A roots change that revokes a held note.
    let opened = call(&s.client, "notes_open", json!({ "title": "Meeting notes" })).await;
    assert_eq!(opened.is_error, Some(false), "{opened:?}");
    script.set_root_uris(&[&uri(dir.path(), "Work")]);
    s.client.notify_roots_list_changed().await.unwrap();
    assert!(script.roots_answered(2, WITHIN).await);
    let line = line_with(&server, &["roots replaced", "revoked=1"]).await;
    assert!(
        line.is_some(),
        "no roots change logged: {:#?}",
        server.log()
    );
    let line = line_with(&server, &["handle revoked", "meeting.md"]).await;
    assert!(line.is_some(), "no revocation logged: {:#?}", server.log());
    let lost = call(&s.client, "notes_read", json!({ "handle": 1 })).await;
    assert_eq!(reason(&lost), Some("scope_lost"), "{lost:?}");
}
