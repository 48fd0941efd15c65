//! The `minimal-server` binary over stdio, driven by rmcp's own client
//! (scripted: it answers `roots/list` from a list the test sets, on the
//! session revisions as a request, on 2026-07-28 as an input request), once
//! per protocol revision: reads inside the roots return the text, and every
//! way out is a tool error with the library's reason.
//!
//! Unix only: the tree has a symlink and its URIs are `file:///…` paths.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mcp_roots_rmcp::DEFAULT_FIRST_ANSWER_WAIT;
use mcp_script::{Client, Connection, ScriptedClient, modern_lifecycle, text_of};
use rmcp::ClientLifecycleMode;
use rmcp::model::{CallToolResult, ProtocolVersion};
use serde_json::json;

/// How long a condition (the client answered `roots/list`) may take.
const BOUND: Duration = Duration::from_secs(10);

/// The text of the file outside, which no refusal may show.
const SECRET: &str = "the text outside";

/// A directory tree with a shared folder and ways out of it:
///
/// ```text
/// root/inside.txt      "inside"          (the root)
/// root/out -> ../other/secret.txt        (a symlink out)
/// root_evil/x.txt      "evil"            (a prefix sibling of root)
/// other/secret.txt     SECRET            (outside)
/// second/new.txt       "second"          (the root after a change)
/// ```
struct Tree {
    _dir: tempfile::TempDir,
    base: PathBuf,
}

impl Tree {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        // Canonical, so that the roots and the paths agree (e.g. /private/tmp).
        let base = dir.path().canonicalize().unwrap();
        for (file, text) in [
            ("root/inside.txt", "inside"),
            ("root_evil/x.txt", "evil"),
            ("other/secret.txt", SECRET),
            ("second/new.txt", "second"),
        ] {
            let path = base.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        std::os::unix::fs::symlink("../other/secret.txt", base.join("root/out")).unwrap();
        Self { _dir: dir, base }
    }

    /// The absolute path of `rel`, as text.
    fn at(&self, rel: &str) -> String {
        self.base.join(rel).to_str().unwrap().to_owned()
    }

    /// `file://` and the absolute path of `rel`, unencoded (every name
    /// here is plain ASCII, and `rel` may carry its own escapes).
    fn uri(&self, rel: &str) -> String {
        format!("file://{}/{rel}", self.base.display())
    }
}

fn binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_minimal-server"))
}

/// The binary as a child, spoken to on `version` by a client that declares
/// roots (or not) and shares `roots`.
async fn start(
    version: ProtocolVersion,
    declares_roots: bool,
    roots: &[String],
) -> (ScriptedClient, Connection<NoServer>) {
    let script = ScriptedClient::new(declares_roots, false).speaking(version.clone());
    script.set_root_uris(&roots.iter().map(String::as_str).collect::<Vec<_>>());
    let lifecycle = if version == ProtocolVersion::V_2026_07_28 {
        modern_lifecycle()
    } else {
        ClientLifecycleMode::Initialize
    };
    let connection = Connection::spawn(binary(), &[], script.clone(), lifecycle)
        .await
        .unwrap();
    let info = connection.client.peer_info().unwrap();
    assert_eq!(info.protocol_version, version, "the revision asked for");
    let name = info.server_info.as_ref().map(|i| i.name.as_str());
    assert_eq!(name, Some("minimal-server"));
    (script, connection)
}

/// `Connection`'s type of an in-process server: none here, the server is
/// the child.
#[derive(Debug)]
struct NoServer;

impl rmcp::ServerHandler for NoServer {}

async fn read(client: &Client, path: &str) -> CallToolResult {
    mcp_script::call(client, "read_file", json!({ "path": path }))
        .await
        .unwrap()
}

fn reason(result: &CallToolResult) -> Option<&str> {
    result.structured_content.as_ref()?["reason"].as_str()
}

/// Asserts `result` is the text `text`.
fn assert_text(result: &CallToolResult, text: &str) {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    assert_eq!(text_of(result), text);
}

/// Asserts `result` is a tool error with `expected` as its reason.
fn assert_refused(result: &CallToolResult, expected: &str, what: &str) {
    assert_eq!(result.is_error, Some(true), "{what}: {result:?}");
    assert_eq!(reason(result), Some(expected), "{what}: {result:?}");
    assert!(!text_of(result).contains(SECRET), "{what}: {result:?}");
}

/// Reads inside the root return the text; every way out is refused.
async fn reads_and_refusals(tree: &Tree, client: &Client) {
    assert_text(&read(client, &tree.at("root/inside.txt")).await, "inside");
    assert_text(&read(client, &tree.uri("root/inside.txt")).await, "inside");
    // A table: what, the path sent, the reason expected.
    #[rustfmt::skip]
    let refusals = [
        ("a file outside", tree.at("other/secret.txt"), "outside_roots"),
        ("a URI outside", tree.uri("other/secret.txt"), "outside_roots"),
        ("'..' in a path", tree.at("root/../other/secret.txt"), "outside_roots"),
        ("'..' in a URI", tree.uri("root/../other/secret.txt"), "outside_roots"),
        ("an encoded '/'", tree.uri("root/..%2Fother%2Fsecret.txt"), "invalid_uri"),
        ("a prefix sibling", tree.at("root_evil/x.txt"), "outside_roots"),
        ("a symlink out", tree.at("root/out"), "outside_roots"),
        ("a relative path", "root/inside.txt".to_owned(), "not_absolute"),
        ("a relative '..'", "../other/secret.txt".to_owned(), "not_absolute"),
    ];
    for (what, path, expected) in refusals {
        assert_refused(&read(client, &path).await, expected, what);
    }
}

/// A session revision: reads and refusals, then the client changes its
/// roots and says so, and the next read sees the new list.
async fn session_revision(version: ProtocolVersion) {
    let tree = Tree::new();
    let (script, connection) = start(version, true, &[tree.uri("root")]).await;
    let client = &connection.client;
    reads_and_refusals(&tree, client).await;
    assert_eq!(script.roots_requests(), 1, "listed once, after initialized");

    script.set_root_uris(&[&tree.uri("second")]);
    client.notify_roots_list_changed().await.unwrap();
    assert!(script.roots_answered(2, BOUND).await, "re-listed");
    assert_text(&read(client, &tree.at("second/new.txt")).await, "second");
    let old = read(client, &tree.at("root/inside.txt")).await;
    assert_refused(&old, "outside_roots", "the old root after the change");
    assert!(connection.close().await, "the server exits cleanly");
}

/// A client without the roots capability gets the default policy (nothing)
/// at once: no `roots/list`, no wait for an answer that cannot come.
async fn without_roots(version: ProtocolVersion) {
    let tree = Tree::new();
    let (script, connection) = start(version, false, &[]).await;
    let started = Instant::now();
    let refused = read(&connection.client, &tree.at("root/inside.txt")).await;
    assert!(
        started.elapsed() < DEFAULT_FIRST_ANSWER_WAIT,
        "it did not wait"
    );
    assert_refused(&refused, "no_roots", "a client without roots");
    let text = text_of(&refused);
    assert!(
        text.contains("does not declare the roots capability"),
        "{text}"
    );
    assert!(!text.contains("has not answered roots/list"), "{text}");
    assert_eq!(script.roots_requests(), 0);
    assert!(connection.close().await);
}

#[tokio::test]
async fn v2024_11_05() {
    session_revision(ProtocolVersion::V_2024_11_05).await;
    without_roots(ProtocolVersion::V_2024_11_05).await;
}

#[tokio::test]
async fn v2025_03_26() {
    session_revision(ProtocolVersion::V_2025_03_26).await;
    without_roots(ProtocolVersion::V_2025_03_26).await;
}

#[tokio::test]
async fn v2025_06_18() {
    session_revision(ProtocolVersion::V_2025_06_18).await;
    without_roots(ProtocolVersion::V_2025_06_18).await;
}

#[tokio::test]
async fn v2025_11_25() {
    session_revision(ProtocolVersion::V_2025_11_25).await;
    without_roots(ProtocolVersion::V_2025_11_25).await;
}

/// 2026-07-28: no session; each call's first round asks for the roots,
/// rmcp's client answers and retries, and the read happens in the retry.
/// A change of the client's list shows in the next call (nothing is kept).
#[tokio::test]
async fn v2026_07_28() {
    let tree = Tree::new();
    let (script, connection) =
        start(ProtocolVersion::V_2026_07_28, true, &[tree.uri("root")]).await;
    let client = &connection.client;
    assert_eq!(script.roots_requests(), 0, "no roots before a call");
    reads_and_refusals(&tree, client).await;
    // One roots input request per call: 2 reads and 9 refusals.
    assert_eq!(script.roots_requests(), 11);

    script.set_root_uris(&[&tree.uri("second")]);
    assert_text(&read(client, &tree.at("second/new.txt")).await, "second");
    let old = read(client, &tree.at("root/inside.txt")).await;
    assert_refused(&old, "outside_roots", "the old root after the change");
    assert!(connection.close().await, "the server exits cleanly");

    without_roots(ProtocolVersion::V_2026_07_28).await;
}
