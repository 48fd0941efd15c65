//! The log on stderr: with `RUST_LOG=info`, a read outside the roots is
//! logged as a denial inside the tool call's span, its input escaped; stdout
//! stays the protocol. The binary runs as a child over stdio.
#![cfg(unix)]

use std::process::Stdio;
use std::time::Duration;

use mcp_script::ScriptedClient;
use rmcp::ClientLifecycleMode;
use rmcp::service::ClientServiceExt;
use serde_json::json;
use tokio::io::AsyncReadExt;

/// How long any step may take.
const BOUND: Duration = Duration::from_secs(20);

#[tokio::test]
async fn a_denial_is_logged_on_stderr_in_the_call_span() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(base.join("root")).unwrap();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_minimal-server"))
        .env("RUST_LOG", "info")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let io = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    let mut stderr = child.stderr.take().unwrap();
    let script = ScriptedClient::new(true, false);
    let root = format!("file://{}/root", base.display());
    script.set_roots([(root.as_str(), None)]);
    let client = script
        .clone()
        .serve_with_lifecycle(io, ClientLifecycleMode::Initialize)
        .await
        .unwrap();
    assert!(script.roots_answered(1, BOUND).await);
    let outside = format!("{}/other\nFORGED", base.display());
    let refused = mcp_script::call(&client, "read_file", json!({ "path": outside }))
        .await
        .unwrap();
    assert_eq!(refused.is_error, Some(true), "{refused:?}");
    // Closing stdin ends the session and the process, and with it stderr.
    client.cancel().await.unwrap();
    let mut log = String::new();
    let read = tokio::time::timeout(BOUND, stderr.read_to_string(&mut log)).await;
    read.expect("stderr ends with the process").unwrap();
    let denial = log
        .lines()
        .find(|line| line.contains("mcp_roots::denial") && line.contains("denied"))
        .unwrap_or_else(|| panic!("no denial logged:\n{log}"));
    assert!(denial.contains("tool_call{tool=read_file "), "{denial}");
    assert!(denial.contains("other\\nFORGED"), "escaped: {denial}");
    assert!(!log.lines().any(|line| line.starts_with("FORGED")), "{log}");
}
