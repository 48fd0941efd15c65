//! `--hide` and `--read-only-pattern`: parts of every directory that are
//! never shown or opened (`hidden`), or never changed (`read_only`),
//! through every tool, and reported by `list_allowed_directories`.

#![cfg(unix)]

mod common;

use std::path::PathBuf;
use std::process::{Command, Stdio};

use mcp_script::{ScriptedClient, text_of};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

use common::{binary, call, failed, start};

struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Tree {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap().join("root");
        for (rel, text) in [
            ("a.txt", "alpha\n"),
            (".env", "TOKEN=1\n"),
            ("sub/.env", "TOKEN=2\n"),
            ("sub/b.md", "bee\n"),
            ("secrets/key.txt", "key\n"),
            ("vendor/lib.rs", "fn lib() {}\n"),
        ] {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        Self { _dir: dir, root }
    }

    fn at(&self, rel: &str) -> String {
        self.root.join(rel).to_str().unwrap().to_owned()
    }

    fn dir(&self) -> String {
        self.root.to_str().unwrap().to_owned()
    }

    fn args(&self) -> Vec<String> {
        let mut args = vec![self.dir()];
        for arg in [
            "--hide",
            ".env",
            "--hide=/secrets/",
            "--read-only-pattern",
            "/vendor/",
        ] {
            args.push(arg.to_owned());
        }
        args
    }
}

fn reason(result: &CallToolResult) -> Option<&str> {
    result.structured_content.as_ref()?.get("reason")?.as_str()
}

/// A refusal's structured content has what the tool's output schema
/// requires (`content`: the refusal's text, or no media blocks), for
/// clients that validate it even on an error.
fn fits_the_output_schema(tool: &str, out: &CallToolResult) {
    let content = &out.structured_content.as_ref().unwrap()["content"];
    if tool == "read_media_file" {
        assert_eq!(content, &json!([]), "{tool}: {out:?}");
    } else {
        assert_eq!(
            content.as_str(),
            Some(text_of(out).as_str()),
            "{tool}: {out:?}"
        );
    }
}

#[tokio::test]
async fn list_allowed_directories_reports_the_patterns_after_the_directories() {
    let tree = Tree::new();
    let script = ScriptedClient::new(false, false);
    let conn = start(&tree.args(), &script).await;
    let listed = call(&conn.client, "list_allowed_directories", json!({})).await;
    let text = text_of(&listed);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..2], ["Allowed directories:", &tree.dir()], "{text}");
    assert_eq!(
        lines[2..],
        [
            "",
            "Hidden in every directory (never listed or opened): .env, /secrets/",
            "Read-only in every directory (never changed): /vendor/",
        ],
        "{text}"
    );
    assert!(conn.close().await);
}

#[tokio::test]
async fn hidden_parts_are_refused_and_never_shown() {
    let tree = Tree::new();
    let script = ScriptedClient::new(false, false);
    let conn = start(&tree.args(), &script).await;
    let c = &conn.client;
    for (tool, args) in [
        ("read_text_file", json!({ "path": tree.at(".env") })),
        ("read_text_file", json!({ "path": tree.at("sub/.env") })),
        ("read_file", json!({ "path": tree.at("secrets/key.txt") })),
        (
            "read_media_file",
            json!({ "path": tree.at("secrets/key.txt") }),
        ),
        ("get_file_info", json!({ "path": tree.at(".env") })),
        ("list_directory", json!({ "path": tree.at("secrets") })),
        (
            "list_directory_with_sizes",
            json!({ "path": tree.at("secrets") }),
        ),
        ("directory_tree", json!({ "path": tree.at("secrets") })),
        (
            "search_files",
            json!({ "path": tree.at("secrets"), "pattern": "*" }),
        ),
        (
            "write_file",
            json!({ "path": tree.at("sub/.env"), "content": "x" }),
        ),
        (
            "write_file",
            json!({ "path": tree.at("secrets/new.txt"), "content": "x" }),
        ),
        ("create_directory", json!({ "path": tree.at("secrets/d") })),
        (
            "edit_file",
            json!({ "path": tree.at(".env"), "edits": [{ "oldText": "1", "newText": "2" }] }),
        ),
        (
            "move_file",
            json!({ "source": tree.at(".env"), "destination": tree.at("env.txt") }),
        ),
        (
            "move_file",
            json!({ "source": tree.at("a.txt"), "destination": tree.at("secrets/a.txt") }),
        ),
    ] {
        let out = call(c, tool, args.clone()).await;
        assert!(failed(&out), "{tool} {args}: {out:?}");
        assert_eq!(reason(&out), Some("hidden"), "{tool} {args}: {out:?}");
        fits_the_output_schema(tool, &out);
    }
    // read_multiple_files: the hidden file fails inline, the other is read.
    let out = call(
        c,
        "read_multiple_files",
        json!({ "paths": [tree.at(".env"), tree.at("a.txt")] }),
    )
    .await;
    let text = text_of(&out);
    assert!(
        text.contains(".env: Error - ") && text.contains("alpha"),
        "{text}"
    );
    assert!(!text.contains("TOKEN"), "{text}");
    // Nothing hidden in a listing, a tree or a search.
    let listing = text_of(&call(c, "list_directory", json!({ "path": tree.dir() })).await);
    let mut lines: Vec<&str> = listing.lines().collect();
    lines.sort();
    assert_eq!(
        lines,
        ["[DIR] sub", "[DIR] vendor", "[FILE] a.txt"],
        "{listing}"
    );
    for (tool, args) in [
        ("list_directory", json!({ "path": tree.dir() })),
        ("list_directory", json!({ "path": tree.at("sub") })),
        ("list_directory_with_sizes", json!({ "path": tree.dir() })),
        ("directory_tree", json!({ "path": tree.dir() })),
        (
            "search_files",
            json!({ "path": tree.dir(), "pattern": "**/*" }),
        ),
        (
            "search_files",
            json!({ "path": tree.dir(), "pattern": "**/.env" }),
        ),
        (
            "search_files",
            json!({ "path": tree.dir(), "pattern": "**/key.txt" }),
        ),
    ] {
        let out = call(c, tool, args.clone()).await;
        assert!(!failed(&out), "{tool} {args}: {out:?}");
        let text = text_of(&out);
        assert!(
            !text.contains(".env") && !text.contains("secrets") && !text.contains("key.txt"),
            "{tool} {args}: {text}"
        );
    }
    let all = text_of(
        &call(
            c,
            "search_files",
            json!({ "path": tree.dir(), "pattern": "**/*" }),
        )
        .await,
    );
    for shown in ["a.txt", "sub/b.md", "vendor/lib.rs"] {
        assert!(all.contains(&tree.at(shown)), "{shown}: {all}");
    }
    let tree_json: Value = serde_json::from_str(&text_of(
        &call(c, "directory_tree", json!({ "path": tree.dir() })).await,
    ))
    .unwrap();
    let mut names: Vec<&str> = tree_json
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["a.txt", "sub", "vendor"]);
    // Nothing was written, moved or created.
    assert_eq!(
        std::fs::read_to_string(tree.at(".env")).unwrap(),
        "TOKEN=1\n"
    );
    assert_eq!(
        std::fs::read_to_string(tree.at("sub/.env")).unwrap(),
        "TOKEN=2\n"
    );
    assert!(!tree.root.join("secrets/new.txt").exists() && !tree.root.join("secrets/d").exists());
    assert!(tree.root.join("a.txt").exists() && !tree.root.join("env.txt").exists());
    assert!(conn.close().await);
}

#[tokio::test]
async fn read_only_parts_refuse_every_change_and_read() {
    let tree = Tree::new();
    let script = ScriptedClient::new(false, false);
    let conn = start(&tree.args(), &script).await;
    let c = &conn.client;
    for (tool, args) in [
        (
            "write_file",
            json!({ "path": tree.at("vendor/lib.rs"), "content": "x" }),
        ),
        (
            "write_file",
            json!({ "path": tree.at("vendor/new.rs"), "content": "x" }),
        ),
        (
            "edit_file",
            json!({ "path": tree.at("vendor/lib.rs"), "edits": [{ "oldText": "lib", "newText": "bil" }] }),
        ),
        ("create_directory", json!({ "path": tree.at("vendor/d") })),
        (
            "move_file",
            json!({ "source": tree.at("vendor/lib.rs"), "destination": tree.at("lib.rs") }),
        ),
        (
            "move_file",
            json!({ "source": tree.at("a.txt"), "destination": tree.at("vendor/a.txt") }),
        ),
        (
            "move_file",
            json!({ "source": tree.at("vendor"), "destination": tree.at("v2") }),
        ),
    ] {
        let out = call(c, tool, args.clone()).await;
        assert!(failed(&out), "{tool} {args}: {out:?}");
        assert_eq!(reason(&out), Some("read_only"), "{tool} {args}: {out:?}");
        fits_the_output_schema(tool, &out);
    }
    assert_eq!(
        std::fs::read_to_string(tree.at("vendor/lib.rs")).unwrap(),
        "fn lib() {}\n"
    );
    assert!(tree.root.join("a.txt").exists() && !tree.root.join("lib.rs").exists());
    assert!(!tree.root.join("vendor/new.rs").exists() && !tree.root.join("vendor/d").exists());
    // Reading, listing, searching and a dry run work there.
    let read = call(
        c,
        "read_text_file",
        json!({ "path": tree.at("vendor/lib.rs") }),
    )
    .await;
    assert_eq!(text_of(&read), "fn lib() {}\n");
    let listing = call(c, "list_directory", json!({ "path": tree.at("vendor") })).await;
    assert_eq!(text_of(&listing), "[FILE] lib.rs");
    let found = call(
        c,
        "search_files",
        json!({ "path": tree.dir(), "pattern": "**/*.rs" }),
    )
    .await;
    assert_eq!(text_of(&found), tree.at("vendor/lib.rs"));
    // Outside the pattern, changes work.
    let wrote = call(
        c,
        "write_file",
        json!({ "path": tree.at("sub/c.txt"), "content": "c" }),
    )
    .await;
    assert!(!failed(&wrote), "{wrote:?}");
    assert!(conn.close().await);
}

#[test]
fn a_bad_pattern_is_a_usage_error_naming_it() {
    let tree = Tree::new();
    for (option, pattern) in [
        ("--hide", "#secret"),
        ("--hide", "a/../b"),
        ("--read-only-pattern", "/"),
        ("--read-only-pattern", "[z-a]"),
    ] {
        let out = Command::new(binary())
            .args([&tree.dir(), option, pattern])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{option} {pattern}: {stderr}");
        assert!(
            stderr.contains(option) && stderr.contains(pattern),
            "{option} {pattern}: {stderr}"
        );
    }
}

/// A tree `D` with `ro2/f.txt`, `inner/secrets/k.txt`, `inner/o.txt`, and a
/// link `lnk_ro -> ro2`.
fn nested_tree() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().canonicalize().unwrap().join("d");
    for (rel, text) in [
        ("a.txt", "alpha\n"),
        ("ro2/f.txt", "frozen\n"),
        ("inner/o.txt", "open\n"),
        ("inner/secrets/k.txt", "key\n"),
    ] {
        let path = d.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    std::os::unix::fs::symlink("ro2", d.join("lnk_ro")).unwrap();
    (dir, d)
}

#[tokio::test]
async fn a_read_only_directory_inside_a_served_one_refuses_every_change() {
    let (_dir, d) = nested_tree();
    let at = |rel: &str| d.join(rel).to_str().unwrap().to_owned();
    let args = vec![at(""), "--read-only-dir".to_owned(), at("ro2")];
    let script = ScriptedClient::new(false, false);
    let conn = start(&args, &script).await;
    let c = &conn.client;
    let listed = text_of(&call(c, "list_allowed_directories", json!({})).await);
    assert!(
        listed.contains(&format!("{} (read-only)", at("ro2"))),
        "{listed}"
    );
    for (tool, args) in [
        (
            "write_file",
            json!({ "path": at("ro2/f.txt"), "content": "x" }),
        ),
        (
            "write_file",
            json!({ "path": at("lnk_ro/new.txt"), "content": "x" }),
        ),
        (
            "write_file",
            json!({ "path": at("inner/../ro2/n.txt"), "content": "x" }),
        ),
        ("create_directory", json!({ "path": at("ro2/newdir") })),
        (
            "edit_file",
            json!({ "path": at("ro2/f.txt"), "edits": [{ "oldText": "frozen", "newText": "thawed" }] }),
        ),
        (
            "move_file",
            json!({ "source": at("ro2/f.txt"), "destination": at("out.txt") }),
        ),
        (
            "move_file",
            json!({ "source": at("a.txt"), "destination": at("ro2/a.txt") }),
        ),
    ] {
        let out = call(c, tool, args.clone()).await;
        assert!(failed(&out), "{tool} {args}: {out:?}");
        assert_eq!(reason(&out), Some("read_only"), "{tool} {args}: {out:?}");
    }
    assert_eq!(
        std::fs::read_to_string(d.join("ro2/f.txt")).unwrap(),
        "frozen\n"
    );
    assert!(!d.join("ro2/newdir").exists() && !d.join("out.txt").exists());
    let read = call(c, "read_text_file", json!({ "path": at("ro2/f.txt") })).await;
    assert_eq!(text_of(&read), "frozen\n");
    // A client that shares `D` alone: `ro2` is read-only all the same,
    // and listed so.
    let roots = ScriptedClient::new(true, false);
    let root_uri = format!("file://{}", at(""));
    roots.set_roots([(root_uri.as_str(), None)]);
    let shared = start(&args, &roots).await;
    let listed = text_of(&call(&shared.client, "list_allowed_directories", json!({})).await);
    let lines: Vec<&str> = listed.lines().collect();
    let ro2 = format!("{} (read-only)", at("ro2"));
    assert_eq!(lines[1..], [d.to_str().unwrap(), ro2.as_str()], "{listed}");
    let refused = call(
        &shared.client,
        "write_file",
        json!({ "path": at("lnk_ro/n.txt"), "content": "x" }),
    )
    .await;
    assert_eq!(reason(&refused), Some("read_only"), "{refused:?}");
    assert!(shared.close().await);
    let written = call(
        c,
        "write_file",
        json!({ "path": at("w.txt"), "content": "w" }),
    )
    .await;
    assert!(!failed(&written), "{written:?}");
    // A refusal names the path it is about: here the destination.
    let onto = json!({ "source": at("a.txt"), "destination": at("w.txt") });
    let moved = call(c, "move_file", onto).await;
    assert_eq!(reason(&moved), Some("already_exists"), "{moved:?}");
    let text = text_of(&moved);
    assert!(
        text.contains(&at("w.txt")) && !text.contains(&at("a.txt")),
        "{text}"
    );
    assert!(conn.close().await);
}

#[tokio::test]
async fn an_inner_directorys_hidden_part_is_hidden_through_the_outer_one() {
    let (_dir, d) = nested_tree();
    let at = |rel: &str| d.join(rel).to_str().unwrap().to_owned();
    let args = vec![
        "--hide".to_owned(),
        "/secrets/".to_owned(),
        at(""),
        at("inner"),
    ];
    let script = ScriptedClient::new(false, false);
    let conn = start(&args, &script).await;
    let c = &conn.client;
    for (tool, args) in [
        (
            "read_text_file",
            json!({ "path": at("inner/secrets/k.txt") }),
        ),
        (
            "read_text_file",
            json!({ "path": at("inner/secrets/missing.txt") }),
        ),
        (
            "read_text_file",
            json!({ "path": at("a.txt/../inner/secrets/k.txt") }),
        ),
        (
            "get_file_info",
            json!({ "path": at("inner/secrets/k.txt") }),
        ),
        ("list_directory", json!({ "path": at("inner/secrets") })),
    ] {
        let out = call(c, tool, args.clone()).await;
        assert!(failed(&out), "{tool} {args}: {out:?}");
        assert_eq!(reason(&out), Some("hidden"), "{tool} {args}: {out:?}");
    }
    let listed = text_of(&call(c, "list_directory", json!({ "path": at("inner") })).await);
    assert!(
        listed.contains("o.txt") && !listed.contains("secrets"),
        "{listed}"
    );
    let found = call(
        c,
        "search_files",
        json!({ "path": at(""), "pattern": "**/k.txt" }),
    )
    .await;
    assert!(!text_of(&found).contains("k.txt"), "{found:?}");
    assert!(conn.close().await);
}
