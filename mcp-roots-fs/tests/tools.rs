//! The binary through rmcp's client (scripted): the tool list, the tools on
//! the directories given on the command line, `--confirm`, revocation of a
//! read in progress when its root is removed, and HTTP.

#![cfg(unix)]

mod common;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use mcp_script::{Connection, ScriptedClient, accept, decline, text_of};
use rmcp::ClientLifecycleMode;
use serde_json::json;

use common::{HttpServer, NoServer, call, failed, start};

struct Tree {
    _dir: tempfile::TempDir,
    base: PathBuf,
}

impl Tree {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        for (rel, text) in [
            ("root/a.txt", "alpha\nbeta\n"),
            ("root/sub/b.md", "bee\n"),
            ("other/secret.txt", "secret"),
        ] {
            let path = base.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        Self { _dir: dir, base }
    }

    fn at(&self, rel: &str) -> String {
        self.base.join(rel).to_str().unwrap().to_owned()
    }
}

/// The 16 tools in 2.3.0's order, with its annotations (every field of
/// `tools/list` is compared with 2.3.0's in `tests/schemas.rs`).
#[tokio::test]
async fn sixteen_tools_in_the_originals_order_with_its_annotations() {
    let tree = Tree::new();
    let script = ScriptedClient::new(false, false);
    let conn = start(&[tree.at("root")], &script).await;
    let tools = conn.client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "read_file",
            "read_text_file",
            "read_media_file",
            "read_multiple_files",
            "write_file",
            "append_file",
            "edit_file",
            "create_directory",
            "list_directory",
            "list_directory_with_sizes",
            "directory_tree",
            "move_file",
            "copy_file",
            "search_files",
            "get_file_info",
            "list_allowed_directories",
        ]
    );
    // (tool, readOnly, idempotent, destructive)
    for (name, read_only, idempotent, destructive) in [
        ("read_text_file", true, true, false),
        ("write_file", false, true, true),
        ("append_file", false, false, false),
        ("edit_file", false, false, true),
        ("create_directory", false, true, false),
        ("move_file", false, false, true),
        ("copy_file", false, true, false),
        ("search_files", true, true, false),
    ] {
        let tool = tools.iter().find(|t| t.name == name).unwrap();
        let a = tool.annotations.as_ref().unwrap();
        assert_eq!(
            (
                a.read_only_hint,
                a.idempotent_hint,
                a.destructive_hint,
                a.open_world_hint
            ),
            (
                Some(read_only),
                Some(idempotent),
                Some(destructive),
                Some(false)
            ),
            "{name}"
        );
        assert!(tool.output_schema.is_some(), "{name}");
    }
    assert!(conn.close().await);
}

#[tokio::test]
async fn the_directories_serve_a_client_without_roots() {
    let tree = Tree::new();
    let script = ScriptedClient::new(false, false);
    let conn = start(&[tree.at("root")], &script).await;
    let c = &conn.client;
    let read = call(
        c,
        "read_text_file",
        json!({ "path": tree.at("root/a.txt"), "head": 1 }),
    )
    .await;
    assert_eq!(text_of(&read), "alpha");
    assert_eq!(read.structured_content, Some(json!({ "content": "alpha" })));
    let out = call(
        c,
        "read_text_file",
        json!({ "path": tree.at("other/secret.txt") }),
    )
    .await;
    assert!(
        failed(&out) && !text_of(&out).contains("secret\""),
        "{out:?}"
    );
    let found = call(
        c,
        "search_files",
        json!({ "path": tree.at("root"), "pattern": "**/*.md" }),
    )
    .await;
    assert_eq!(text_of(&found), tree.at("root/sub/b.md"));
    let edit = json!({ "path": tree.at("root/a.txt"), "edits": [{ "oldText": "beta", "newText": "BETA" }] });
    let diff = call(c, "edit_file", edit).await;
    assert!(text_of(&diff).starts_with("```diff\nIndex: "), "{diff:?}");
    assert_eq!(
        std::fs::read_to_string(tree.at("root/a.txt")).unwrap(),
        "alpha\nBETA\n"
    );
    let allowed = call(c, "list_allowed_directories", json!({})).await;
    assert_eq!(
        text_of(&allowed),
        format!("Allowed directories:\n{}", tree.at("root"))
    );
    assert!(conn.close().await);
}

#[tokio::test]
async fn confirm_asks_before_an_overwrite_and_keeps_the_file_on_decline() {
    let tree = Tree::new();
    let script = ScriptedClient::new(false, true);
    let args = ["--confirm".to_owned(), tree.at("root")];
    let conn = start(&args, &script).await;
    let c = &conn.client;
    // A new file: nothing to confirm.
    let new = call(
        c,
        "write_file",
        json!({ "path": tree.at("root/new.txt"), "content": "n" }),
    )
    .await;
    assert!(!failed(&new) && script.asked().is_empty(), "{new:?}");
    script.answer(decline());
    let kept = call(
        c,
        "write_file",
        json!({ "path": tree.at("root/a.txt"), "content": "gone" }),
    )
    .await;
    assert!(text_of(&kept).starts_with("Not written"), "{kept:?}");
    assert_eq!(
        std::fs::read_to_string(tree.at("root/a.txt")).unwrap(),
        "alpha\nbeta\n"
    );
    script.answer(accept(json!({ "confirm": true })));
    let written = call(
        c,
        "write_file",
        json!({ "path": tree.at("root/a.txt"), "content": "new" }),
    )
    .await;
    assert!(
        text_of(&written).starts_with("Successfully wrote"),
        "{written:?} {:?}",
        script.asked()
    );
    assert_eq!(
        std::fs::read_to_string(tree.at("root/a.txt")).unwrap(),
        "new"
    );
    assert_eq!(script.asked().len(), 2);
    // An edit that would be applied asks; a dry run does not.
    let edit = |dry: bool| json!({ "path": tree.at("root/a.txt"), "edits": [{ "oldText": "new", "newText": "edited" }], "dryRun": dry });
    let preview = call(c, "edit_file", edit(true)).await;
    assert!(
        text_of(&preview).starts_with("```diff") && script.asked().len() == 2,
        "{preview:?}"
    );
    script.answer(decline());
    let kept = call(c, "edit_file", edit(false)).await;
    assert!(text_of(&kept).starts_with("Not edited"), "{kept:?}");
    assert_eq!(
        std::fs::read_to_string(tree.at("root/a.txt")).unwrap(),
        "new"
    );
    script.answer(accept(json!({ "confirm": true })));
    let edited = call(c, "edit_file", edit(false)).await;
    assert!(text_of(&edited).starts_with("```diff"), "{edited:?}");
    assert_eq!(
        std::fs::read_to_string(tree.at("root/a.txt")).unwrap(),
        "edited"
    );
    // A move onto an existing name asks, and replaces it on accept.
    let onto = json!({ "source": tree.at("root/new.txt"), "destination": tree.at("root/a.txt") });
    script.answer(decline());
    let kept = call(c, "move_file", onto.clone()).await;
    assert!(text_of(&kept).starts_with("Not moved"), "{kept:?}");
    assert_eq!(
        std::fs::read_to_string(tree.at("root/a.txt")).unwrap(),
        "edited"
    );
    script.answer(accept(json!({ "confirm": true })));
    let moved = call(c, "move_file", onto).await;
    assert!(
        text_of(&moved).starts_with("Successfully moved"),
        "{moved:?}"
    );
    assert_eq!(std::fs::read_to_string(tree.at("root/a.txt")).unwrap(), "n");
    assert_eq!(script.asked().len(), 6);
    assert!(conn.close().await);
}

#[tokio::test]
async fn confirm_without_forms_changes_nothing() {
    let tree = Tree::new();
    let script = ScriptedClient::new(false, false);
    let conn = start(&["--confirm".to_owned(), tree.at("root")], &script).await;
    let over = call(
        &conn.client,
        "write_file",
        json!({ "path": tree.at("root/a.txt"), "content": "x" }),
    )
    .await;
    assert!(failed(&over), "{over:?}");
    assert_eq!(
        std::fs::read_to_string(tree.at("root/a.txt")).unwrap(),
        "alpha\nbeta\n"
    );
    assert!(conn.close().await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn removing_a_root_revokes_a_read_in_progress() {
    let tree = Tree::new();
    let many = tree.base.join("root/many");
    std::fs::create_dir_all(&many).unwrap();
    // 4,000 files of 1,000 bytes: the call takes hundreds of milliseconds
    // of opens, and its answer stays below the server's 4 MiB cap (and a
    // client's line limit) however many are read before the removal.
    let chunk = "x".repeat(1000);
    let paths: Vec<String> = (0..4000)
        .map(|i| {
            let path = many.join(format!("f{i:04}.txt"));
            std::fs::write(&path, &chunk).unwrap();
            path.to_str().unwrap().to_owned()
        })
        .collect();
    let script = ScriptedClient::new(true, false);
    let root_uri = format!("file://{}", tree.at("root"));
    let other_uri = format!("file://{}", tree.at("other"));
    script.set_root_uris(&[&root_uri]);
    let conn = start(&[tree.base.to_str().unwrap().to_owned()], &script).await;
    let peer = conn.client.peer().clone();
    let reading = tokio::spawn(async move {
        let args = json!({ "paths": paths });
        let params = rmcp::model::CallToolRequestParams::new("read_multiple_files")
            .with_arguments(args.as_object().unwrap().clone());
        peer.call_tool(params).await.unwrap()
    });
    tokio::time::sleep(Duration::from_millis(30)).await;
    script.set_root_uris(&[&other_uri]);
    conn.client.notify_roots_list_changed().await.unwrap();
    let started = Instant::now();
    let result = tokio::time::timeout(Duration::from_secs(30), reading)
        .await
        .unwrap()
        .unwrap();
    let text = text_of(&result);
    let parts: Vec<&str> = text.split("\n---\n").collect();
    let read = parts
        .iter()
        .take_while(|p| !p.contains(": Error - "))
        .count();
    // The removal landed while the call was reading (it reads 4,000 files,
    // hundreds of milliseconds of work), and once a file failed for it,
    // none after it was read.
    assert!(
        read < parts.len(),
        "every file was read: the removal came too late"
    );
    assert!(
        parts[read..].iter().all(|p| p.contains(": Error - ")),
        "a file read after the revocation"
    );
    eprintln!(
        "{read} of {} files read before the root was removed; answered {:?} after the change",
        parts.len(),
        started.elapsed()
    );
    // The removal has landed: a new read there is refused.
    let after = call(
        &conn.client,
        "read_text_file",
        json!({ "path": tree.at("root/a.txt") }),
    )
    .await;
    assert!(failed(&after), "{after:?}");
    assert!(conn.close().await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_sessions_and_a_delete_of_an_unknown_session() {
    let tree = Tree::new();
    let server = HttpServer::start(&[
        "--http".to_owned(),
        "127.0.0.1:0".to_owned(),
        tree.at("root"),
    ]);
    let script = ScriptedClient::new(false, false);
    let conn: Connection<NoServer> =
        Connection::http(&server.url, script, ClientLifecycleMode::Initialize)
            .await
            .unwrap();
    let read = call(
        &conn.client,
        "read_text_file",
        json!({ "path": tree.at("root/a.txt") }),
    )
    .await;
    assert_eq!(text_of(&read), "alpha\nbeta\n");
    assert!(conn.close().await);
    // DELETE naming a session that never existed: 404.
    let addr = server.addr().to_owned();
    let status = tokio::task::spawn_blocking(move || {
        let mut stream = std::net::TcpStream::connect(&addr).unwrap();
        let request = format!(
            "DELETE /mcp HTTP/1.1\r\nHost: {addr}\r\nMcp-Session-Id: no-such-session\r\nMCP-Protocol-Version: 2025-11-25\r\nConnection: close\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response.lines().next().unwrap_or_default().to_owned()
    })
    .await
    .unwrap();
    assert!(status.contains("404"), "{status}");
}
