//! `directory_tree` and `search_files` walk the start's directories on
//! several threads: their answers must be what one walk in order gives.
//! Each row's tree is listed by `std::fs` (names in byte order, pre-order)
//! as the reference; the bounds (`--max-entries`, `--max-depth`) are
//! shared by the threads.

#![cfg(unix)]

mod common;

use std::path::Path;

use mcp_script::{ScriptedClient, text_of};
use serde_json::{Value, json};

use common::{call, start};

/// Makes each of `rels` (a trailing `/`: a directory) under `base`.
fn make(base: &Path, rels: &[String]) {
    for rel in rels {
        let path = base.join(rel.trim_end_matches('/'));
        if rel.ends_with('/') {
            std::fs::create_dir_all(&path).unwrap();
        } else {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, b"x").unwrap();
        }
    }
}

/// The original's tree of `dir`, from `std::fs`: `{name, type, children}`.
fn reference_tree(dir: &Path, depth_left: usize) -> Value {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    Value::Array(
        names
            .into_iter()
            .map(|name| {
                let path = dir.join(&name);
                if path.is_dir() {
                    let children = if depth_left > 1 {
                        reference_tree(&path, depth_left - 1)
                    } else {
                        json!([])
                    };
                    json!({"name": name, "type": "directory", "children": children})
                } else {
                    json!({"name": name, "type": "file"})
                }
            })
            .collect(),
    )
}

/// Every path beneath `dir` ending in `.md`, in the original's order.
fn reference_search(dir: &Path, out: &mut Vec<String>) {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    for name in names {
        let path = dir.join(&name);
        if name.ends_with(".md") {
            out.push(path.to_str().unwrap().to_owned());
        }
        if path.is_dir() {
            reference_search(&path, out);
        }
    }
}

/// The tree's own text: the first block (a stop's note is a second).
fn tree_of(result: &rmcp::model::CallToolResult) -> Value {
    let text = result.content[0].as_text().unwrap();
    serde_json::from_str(&text.text).unwrap()
}

fn deepest(nodes: &Value) -> usize {
    nodes
        .as_array()
        .unwrap()
        .iter()
        .map(|node| 1 + node.get("children").map_or(0, deepest))
        .max()
        .unwrap_or(0)
}

/// Trees of several shapes: the start's own entries only files, one
/// directory, many directories of different depths and sizes, names that
/// sort around each other (`a`, `a-b`, `a.md`, `a/`, `B`).
fn shapes() -> Vec<Vec<String>> {
    let mut many = Vec::new();
    for d in 0..24 {
        for f in 0..(d * 7 % 31) {
            many.push(format!(
                "d{d:02}/f{f}.{}",
                if f % 3 == 0 { "md" } else { "txt" }
            ));
        }
        if d % 4 == 0 {
            many.push(format!("d{d:02}/deep/er/still/x{d}.md"));
        }
        if d % 5 == 0 {
            many.push(format!("d{d:02}/empty/"));
        }
        many.push(format!("top{d}.md"));
    }
    // Past what one thread walks alone (4,096 entries): the rest is
    // shared among threads.
    let mut large = Vec::new();
    for d in 0..12 {
        for f in 0..(300 + d * 40) {
            large.push(format!(
                "big{d:02}/sub{}/f{f}.{}",
                f % 3,
                if f % 7 == 0 { "md" } else { "txt" }
            ));
        }
    }
    vec![
        large,
        vec!["one.md".into(), "two.txt".into(), "three.md".into()],
        vec!["only/a.md".into(), "only/b/c.md".into()],
        vec![
            "a/x.md".into(),
            "a-b.md".into(),
            "a.md".into(),
            "B/y.md".into(),
            "_/z.md".into(),
            "a/.h/q.md".into(),
            "b/".into(),
        ],
        many,
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn split_walks_answer_as_one_walk_in_order() {
    for (row, rels) in shapes().iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap().join("root");
        std::fs::create_dir(&root).unwrap();
        make(&root, rels);
        let script = ScriptedClient::new(false, false);
        let conn = start(&[root.to_str().unwrap().to_owned()], &script).await;
        let c = &conn.client;
        let tree = call(c, "directory_tree", json!({ "path": root })).await;
        let got: Value = serde_json::from_str(&text_of(&tree)).unwrap();
        assert_eq!(got, reference_tree(&root, usize::MAX), "row {row}");
        let found = call(
            c,
            "search_files",
            json!({ "path": root, "pattern": "**/*.md" }),
        )
        .await;
        let mut want = Vec::new();
        reference_search(&root, &mut want);
        assert_eq!(text_of(&found), want.join("\n"), "row {row}");
        assert!(conn.close().await);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bounds_hold_across_the_threads() {
    let rels = shapes().pop().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap().join("root");
    std::fs::create_dir(&root).unwrap();
    make(&root, &rels);
    let all = common::tree_entries(&reference_tree(&root, usize::MAX));
    let at = root.to_str().unwrap().to_owned();
    for max in [1, 5, 30, all / 2, all - 1] {
        let script = ScriptedClient::new(false, false);
        let args = ["--max-entries".to_owned(), max.to_string(), at.clone()];
        let conn = start(&args, &script).await;
        let tree = call(&conn.client, "directory_tree", json!({ "path": at })).await;
        let stopped = tree.structured_content.as_ref().unwrap()["stoppedEarly"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        assert!(stopped.contains("--max-entries"), "{max}: {stopped:?}");
        let nodes = tree_of(&tree);
        assert!(
            common::tree_entries(&nodes) <= max,
            "{max}: {} entries",
            common::tree_entries(&nodes)
        );
        assert!(conn.close().await);
    }
    // Enough for every entry: no stop.
    let script = ScriptedClient::new(false, false);
    let args = ["--max-entries".to_owned(), all.to_string(), at.clone()];
    let conn = start(&args, &script).await;
    let tree = call(&conn.client, "directory_tree", json!({ "path": at })).await;
    assert_eq!(
        tree.structured_content
            .as_ref()
            .unwrap()
            .get("stoppedEarly"),
        None
    );
    assert!(conn.close().await);
    for depth in [1, 2, 3] {
        let script = ScriptedClient::new(false, false);
        let args = ["--max-depth".to_owned(), depth.to_string(), at.clone()];
        let conn = start(&args, &script).await;
        let tree = call(&conn.client, "directory_tree", json!({ "path": at })).await;
        let nodes = tree_of(&tree);
        assert_eq!(nodes, reference_tree(&root, depth), "depth {depth}");
        assert!(deepest(&nodes) <= depth);
        let stopped = tree.structured_content.as_ref().unwrap()["stoppedEarly"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        assert!(stopped.contains("--max-depth"), "{depth}: {stopped:?}");
        assert!(conn.close().await);
    }
}
