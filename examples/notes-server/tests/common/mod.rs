//! Helpers shared by the end-to-end tests: the notes tree, paths, and
//! reading tool results.
#![allow(dead_code)] // each test crate uses its own part

use std::path::Path;

pub(crate) use mcp_script::Client;
use mcp_script::{self as client, Event, ScriptedClient};
use notes_server::{Connection, Launch};
use rmcp::model::CallToolResult;
use serde_json::Value;

/// Notes/{2023,2024,2025}/tps.md titled "TPS report", Notes/meeting.md,
/// Work/plan.md, Journal/today.md, Secret/passwords.md and a symlink
/// Notes/passwords.md pointing at it.
pub(crate) fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in [
        ("Notes/2023/tps.md", "# TPS report\n2023\n"),
        ("Notes/2024/tps.md", "# TPS report\n2024\n"),
        ("Notes/2025/tps.md", "# TPS report\n2025\n"),
        ("Notes/meeting.md", "# Meeting notes\nMonday\n"),
        ("Work/plan.md", "# Project plan\n"),
        ("Journal/today.md", "no heading\n"),
        ("Secret/passwords.md", "hunter2\n"),
    ] {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let secret = dir.path().join("Secret/passwords.md");
    std::os::unix::fs::symlink(secret, dir.path().join("Notes/passwords.md")).unwrap();
    dir
}

/// The built server binary, started once per session, over stdio.
pub(crate) fn binary() -> Launch {
    Launch::binary(env!("CARGO_BIN_EXE_notes-server"))
}

/// A session with the binary started with `args`: its client declares roots
/// (the given subfolders of `dir`) if `declare_roots`, and form elicitation
/// if `forms`.
pub(crate) async fn spawn(
    args: &[&str],
    dir: &Path,
    roots: &[&str],
    declare_roots: bool,
    forms: bool,
) -> (ScriptedClient, Connection) {
    let script = ScriptedClient::new(declare_roots, forms);
    let uris: Vec<String> = roots.iter().map(|r| uri(dir, r)).collect();
    script.set_roots(uris.iter().map(|u| (u.as_str(), None)));
    let session = binary()
        .with_args(args.iter().copied())
        .connect(script.clone())
        .await
        .unwrap();
    (script, session)
}

/// The absolute path of `rel` in the tree.
pub(crate) fn at(dir: &Path, rel: &str) -> String {
    format!("{}/{rel}", dir.display())
}

/// The `file://` URI of `rel` in the tree.
pub(crate) fn uri(dir: &Path, rel: &str) -> String {
    format!("file://{}", at(dir, rel))
}

/// Calls `tool`; transport failures panic.
pub(crate) async fn call(client: &Client, tool: &'static str, args: Value) -> CallToolResult {
    client::call(client, tool, args).await.unwrap()
}

pub(crate) fn reason(result: &CallToolResult) -> Option<&str> {
    result.structured_content.as_ref()?["reason"].as_str()
}

pub(crate) fn outcome(result: &CallToolResult) -> Option<&str> {
    result.structured_content.as_ref()?["outcome"].as_str()
}

/// How many forms the client was shown since the last look.
pub(crate) fn forms(script: &ScriptedClient) -> usize {
    count(&script.take_events(), |e| matches!(e, Event::Form { .. }))
}

pub(crate) fn count(events: &[Event], what: impl Fn(&Event) -> bool) -> usize {
    events.iter().filter(|e| what(e)).count()
}

/// The URIs of a `notes_list` result.
pub(crate) fn listed(result: &CallToolResult) -> Vec<String> {
    let notes = result
        .structured_content
        .as_ref()
        .map(|s| s["notes"].clone());
    notes
        .and_then(|n| n.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|n| n["uri"].as_str().map(str::to_owned))
        .collect()
}
