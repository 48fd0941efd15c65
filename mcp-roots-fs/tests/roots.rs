//! The client's roots against the directories: an empty first answer from
//! a client that declares roots is served the directories (as the original
//! does), shared roots narrow within them, and un-sharing after sharing
//! shares nothing, whatever was shared before. On 2026-07-28 the roots
//! travel with each request and have no memory: an empty list there shares
//! nothing.

#![cfg(unix)]

mod common;

use std::path::PathBuf;
use std::time::Duration;

use mcp_script::{Client, Connection, ScriptedClient, modern_lifecycle, text_of};
use rmcp::model::{CallToolResult, ProtocolVersion};
use serde_json::json;

use common::{NoServer, binary, call, failed, start};

struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Tree {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap().join("root");
        for (rel, text) in [("a.txt", "alpha\n"), ("sub/b.md", "bee\n")] {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        Self { _dir: dir, root }
    }

    fn at(&self, rel: &str) -> String {
        self.root.join(rel).to_str().unwrap().to_owned()
    }

    fn uri(&self, rel: &str) -> String {
        format!("file://{}", self.at(rel))
    }

    fn args(&self) -> Vec<String> {
        vec![self.root.to_str().unwrap().to_owned()]
    }
}

fn reason(result: &CallToolResult) -> Option<&str> {
    result.structured_content.as_ref()?.get("reason")?.as_str()
}

async fn read(c: &Client, path: &str) -> CallToolResult {
    call(c, "read_text_file", json!({ "path": path })).await
}

/// Shares `uris` and tells the server, then waits for its `roots/list`.
async fn share(script: &ScriptedClient, c: &Client, uris: &[&str], answered: usize) {
    script.set_root_uris(uris);
    c.notify_roots_list_changed().await.unwrap();
    assert!(
        script
            .roots_answered(answered, Duration::from_secs(10))
            .await,
        "the server asked for the roots again"
    );
}

#[tokio::test]
async fn an_empty_first_answer_is_served_the_directories_and_unsharing_shares_nothing() {
    let tree = Tree::new();
    let script = ScriptedClient::new(true, false);
    script.set_root_uris(&[]);
    let conn = start(&tree.args(), &script).await;
    let c = &conn.client;
    // The first answer is []: the client declares roots but has no folder
    // open yet, so it is served the directories, as the original serves
    // them.
    assert_eq!(text_of(&read(c, &tree.at("a.txt")).await), "alpha\n");
    let listed = call(c, "list_allowed_directories", json!({})).await;
    assert_eq!(
        text_of(&listed),
        format!("Allowed directories:\n{}", tree.root.display())
    );
    // Another empty answer changes nothing.
    share(&script, c, &[], 2).await;
    assert_eq!(text_of(&read(c, &tree.at("sub/b.md")).await), "bee\n");
    // Sharing a folder narrows within the directories.
    share(&script, c, &[&tree.uri("sub")], 3).await;
    assert_eq!(text_of(&read(c, &tree.at("sub/b.md")).await), "bee\n");
    let narrowed = read(c, &tree.at("a.txt")).await;
    assert_eq!(reason(&narrowed), Some("outside_roots"), "{narrowed:?}");
    // Un-sharing it shares nothing: the directories do not come back.
    share(&script, c, &[], 4).await;
    for path in [tree.at("a.txt"), tree.at("sub/b.md")] {
        let gone = read(c, &path).await;
        assert!(failed(&gone), "{path}: {gone:?}");
        assert_eq!(reason(&gone), Some("no_roots"), "{path}: {gone:?}");
    }
    let listed = call(c, "list_allowed_directories", json!({})).await;
    assert_eq!(reason(&listed), Some("no_roots"), "{listed:?}");
    assert!(conn.close().await);
}

#[tokio::test]
async fn unsharing_every_root_of_the_first_answer_shares_nothing() {
    let tree = Tree::new();
    let script = ScriptedClient::new(true, false);
    script.set_root_uris(&[&tree.uri("")]);
    let conn = start(&tree.args(), &script).await;
    let c = &conn.client;
    assert_eq!(text_of(&read(c, &tree.at("a.txt")).await), "alpha\n");
    share(&script, c, &[], 2).await;
    let gone = read(c, &tree.at("a.txt")).await;
    assert_eq!(reason(&gone), Some("no_roots"), "{gone:?}");
    // Sharing again serves again.
    share(&script, c, &[&tree.uri("sub")], 3).await;
    assert_eq!(text_of(&read(c, &tree.at("sub/b.md")).await), "bee\n");
    assert!(conn.close().await);
}

#[tokio::test]
async fn a_first_answer_whose_roots_are_all_refused_does_not_fall_back_to_the_directories() {
    let tree = Tree::new();
    let outside = tempfile::tempdir().unwrap();
    let outside_uri = format!(
        "file://{}",
        outside.path().canonicalize().unwrap().display()
    );
    let script = ScriptedClient::new(true, false);
    script.set_root_uris(&[&outside_uri]);
    let conn = start(&tree.args(), &script).await;
    let c = &conn.client;
    let refused = read(c, &tree.at("a.txt")).await;
    assert!(failed(&refused), "{refused:?}");
    assert_ne!(text_of(&refused), "alpha\n");
    assert!(conn.close().await);
}

/// Over stdio the process is its client's session (issue: the SDK's default
/// client declares roots with none open): a first empty list serves the
/// directories, a list narrows them, and emptying it afterwards shares
/// nothing, on 2026-07-28 as on the session revisions.
#[tokio::test]
async fn on_2026_07_28_over_stdio_a_first_empty_list_serves_the_directories_and_unsharing_shares_nothing()
 {
    let tree = Tree::new();
    let script = ScriptedClient::new(true, false).speaking(ProtocolVersion::V_2026_07_28);
    script.set_root_uris(&[]);
    let conn: Connection<NoServer> =
        Connection::spawn(binary(), &tree.args(), script.clone(), modern_lifecycle())
            .await
            .expect("the server starts");
    let c = &conn.client;
    let first = read(c, &tree.at("a.txt")).await;
    assert_eq!(text_of(&first), "alpha\n", "{first:?}");
    script.set_root_uris(&[&tree.uri("sub")]);
    assert_eq!(text_of(&read(c, &tree.at("sub/b.md")).await), "bee\n");
    let narrowed = read(c, &tree.at("a.txt")).await;
    assert_eq!(reason(&narrowed), Some("outside_roots"), "{narrowed:?}");
    script.set_root_uris(&[]);
    let unshared = read(c, &tree.at("sub/b.md")).await;
    assert_eq!(reason(&unshared), Some("no_roots"), "{unshared:?}");
    assert!(conn.close().await);
}
