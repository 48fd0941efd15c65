//! Whole-file reads bounded by `--max-answer-bytes`: `read_text_file`
//! without head or tail, `read_media_file` and `edit_file` refuse a file
//! whose encoded answer would not fit, decided by the file's size before
//! it is read (a 512 MiB sparse file is refused at once) and by the
//! encoded length after (a NUL escapes to six bytes, and the text travels
//! twice); just under the bound they answer as before. `head` and `tail`
//! return lines that fit and refuse longer ones (one line may be huge).

#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcp_script::{ScriptedClient, text_of};
use serde_json::json;

use common::{binary, call, failed, start};

/// The bound these tests serve with.
const BOUND: u64 = 100_000;
/// What an answer carries beside its text or data (the server's
/// `ENVELOPE`, restated: a change there must be a change here).
const ENVELOPE: u64 = 4096;

struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Tree {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap().join("root");
        std::fs::create_dir(&root).unwrap();
        Self { _dir: dir, root }
    }

    /// A file of `len` copies of `byte`.
    fn filled(&self, name: &str, len: u64, byte: u8) -> String {
        let path = self.root.join(name);
        std::fs::write(&path, vec![byte; len as usize]).unwrap();
        path.to_str().unwrap().to_owned()
    }

    /// A sparse file of `len` bytes (NULs, no blocks on disk).
    fn sparse(&self, name: &str, len: u64) -> String {
        let path = self.root.join(name);
        std::fs::File::create(&path).unwrap().set_len(len).unwrap();
        path.to_str().unwrap().to_owned()
    }

    fn args(&self, bound: Option<u64>) -> Vec<String> {
        let mut args = vec![self.root.to_str().unwrap().to_owned()];
        if let Some(bound) = bound {
            args.push(format!("--max-answer-bytes={bound}"));
        }
        args
    }
}

/// The largest text of one-byte escapes that fits `BOUND` twice.
fn plain_fit() -> u64 {
    (BOUND - ENVELOPE) / 2 - 2
}

#[tokio::test]
async fn text_reads_fit_the_bound_or_say_to_read_a_part() {
    let tree = Tree::new();
    let script = ScriptedClient::new(false, false);
    let conn = start(&tree.args(Some(BOUND)), &script).await;
    let nul_fit = ((BOUND - ENVELOPE) / 2 - 2) / 6;
    // (file, its length, whether it is served whole)
    let rows = [
        (
            tree.filled("under.txt", plain_fit(), b'a'),
            plain_fit(),
            true,
        ),
        (tree.filled("over.txt", plain_fit() + 1, b'a'), 0, false),
        // Escaped twice as long: a newline is `\n`.
        (
            tree.filled("lines.txt", plain_fit() / 2, b'\n'),
            plain_fit() / 2,
            true,
        ),
        (
            tree.filled("lines-over.txt", plain_fit() / 2 + 1, b'\n'),
            0,
            false,
        ),
        // Sparse: NULs, six bytes each once escaped.
        (tree.sparse("sparse-fit", nul_fit), nul_fit, true),
        (tree.sparse("sparse-under-size", BOUND), 0, false),
        (tree.sparse("sparse-over-size", BOUND + 1), 0, false),
    ];
    for tool in ["read_text_file", "read_file"] {
        for (path, len, whole) in &rows {
            let got = call(&conn.client, tool, json!({ "path": path })).await;
            if *whole {
                assert!(!failed(&got), "{tool} {path}: {got:?}");
                assert_eq!(text_of(&got).len() as u64, *len, "{tool} {path}");
            } else {
                let says = text_of(&got);
                assert!(failed(&got), "{tool} {path}: {got:?}");
                assert!(says.contains("--max-answer-bytes"), "{says}");
                assert!(says.contains("head or tail"), "{says}");
                assert!(says.contains(&BOUND.to_string()), "{says}");
            }
        }
    }
    assert!(conn.close().await);
}

#[tokio::test]
async fn head_and_tail_return_lines_that_fit_and_refuse_longer_ones() {
    let tree = Tree::new();
    let script = ScriptedClient::new(false, false);
    let conn = start(&tree.args(Some(BOUND)), &script).await;
    let fit = "a".repeat(plain_fit() as usize);
    let long = "b".repeat(plain_fit() as usize + 1);
    let file = |name: &str, text: String| {
        let path = tree.root.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    // (file, argument, the text served, or None for a refusal)
    let rows = [
        (
            file("fit-first.txt", format!("{fit}\n{long}\n")),
            json!({ "head": 1 }),
            Some(fit.clone()),
        ),
        (
            file("long-first.txt", format!("{long}\nshort\n")),
            json!({ "head": 1 }),
            None,
        ),
        (
            file("long-first-2.txt", format!("x\n{long}\n")),
            json!({ "head": 2 }),
            None,
        ),
        (
            file("long-first-3.txt", format!("x\n{long}\n")),
            json!({ "head": 1 }),
            Some("x".to_owned()),
        ),
        (
            file("fit-last.txt", format!("{long}\n{fit}\n")),
            json!({ "tail": 1 }),
            Some(fit.clone()),
        ),
        (
            file("long-last.txt", format!("short\n{long}\n")),
            json!({ "tail": 1 }),
            None,
        ),
        (
            file("long-last-2.txt", format!("{long}\ny")),
            json!({ "tail": 2 }),
            None,
        ),
        (
            file("long-last-3.txt", format!("{long}\ny")),
            json!({ "tail": 1 }),
            Some("y".to_owned()),
        ),
        // A sparse file far over the bound: one line of NULs.
        (
            tree.sparse("sparse-line", 64 * BOUND),
            json!({ "head": 1 }),
            None,
        ),
        (
            tree.sparse("sparse-line-2", 64 * BOUND),
            json!({ "tail": 1 }),
            None,
        ),
    ];
    for (path, part, want) in rows {
        let mut args = part.clone();
        args["path"] = json!(path);
        let got = call(&conn.client, "read_text_file", args).await;
        let says = text_of(&got);
        match want {
            Some(text) => {
                assert!(!failed(&got), "{path} {part}: {says}");
                assert_eq!(says, text, "{path} {part}");
            }
            None => {
                assert!(failed(&got), "{path} {part}");
                assert!(says.contains(&path), "{says}");
                assert!(says.contains("--max-answer-bytes"), "{says}");
                assert!(says.contains("fewer lines"), "{says}");
            }
        }
    }
    assert!(conn.close().await);
}

#[tokio::test]
async fn a_huge_sparse_file_is_refused_without_being_read() {
    let tree = Tree::new();
    let script = ScriptedClient::new(false, false);
    // The default bound (15 MiB).
    let conn = start(&tree.args(None), &script).await;
    let huge = tree.sparse("huge", 512 * 1024 * 1024);
    for (tool, args, advice) in [
        ("read_text_file", json!({ "path": huge }), "head or tail"),
        ("read_media_file", json!({ "path": huge }), "smaller file"),
        (
            "edit_file",
            json!({ "path": huge, "edits": [{ "oldText": "a", "newText": "b" }] }),
            "smaller file",
        ),
    ] {
        let started = Instant::now();
        let got = call(&conn.client, tool, args).await;
        let says = text_of(&got);
        assert!(failed(&got), "{tool}: {got:?}");
        assert!(says.contains(&(15u64 * 1024 * 1024).to_string()), "{says}");
        assert!(says.contains(advice), "{tool}: {says}");
        // Reading 512 MiB would take far longer than a refusal.
        assert!(started.elapsed() < Duration::from_secs(5), "{tool}");
    }
    assert!(conn.close().await);
}

#[tokio::test]
async fn media_counts_base64_twice() {
    let tree = Tree::new();
    let script = ScriptedClient::new(false, false);
    let conn = start(&tree.args(Some(BOUND)), &script).await;
    let fit = (BOUND - ENVELOPE) / 8 * 3;
    for (name, len, whole) in [
        ("fit.png", fit, true),
        ("small.png", 3, true),
        ("over.png", fit + 1, false),
        ("size-over.png", BOUND + 1, false),
    ] {
        let path = tree.filled(name, len, 0x89);
        let got = call(&conn.client, "read_media_file", json!({ "path": path })).await;
        if whole {
            assert!(!failed(&got), "{name}: {got:?}");
            let data = got.structured_content.as_ref().unwrap()["content"][0]["data"]
                .as_str()
                .unwrap()
                .len() as u64;
            assert_eq!(data, len.div_ceil(3) * 4, "{name}");
        } else {
            assert!(failed(&got), "{name}: {got:?}");
            assert!(text_of(&got).contains("smaller file"), "{name}");
        }
    }
    assert!(conn.close().await);
}

#[tokio::test]
async fn edits_read_and_answer_within_the_bound() {
    let tree = Tree::new();
    let script = ScriptedClient::new(false, false);
    let conn = start(&tree.args(Some(BOUND)), &script).await;
    let edit = |path: &str| json!({ "path": path, "edits": [{ "oldText": "a", "newText": "b" }], "dryRun": true });
    // Small: a diff, as before.
    let small = tree.filled("small.txt", 10, b'a');
    let got = call(&conn.client, "edit_file", edit(&small)).await;
    assert!(text_of(&got).starts_with("```diff"), "{got:?}");
    // Larger than the bound: refused by its size, unread.
    let big = tree.filled("big.txt", BOUND + 1, b'a');
    let got = call(&conn.client, "edit_file", edit(&big)).await;
    assert!(
        failed(&got) && text_of(&got).contains("--max-answer-bytes"),
        "{got:?}"
    );
    // Under the bound, but its diff (the old and the new line) is not.
    let line = tree.filled("line.txt", BOUND * 2 / 3, b'a');
    let got = call(&conn.client, "edit_file", edit(&line)).await;
    assert!(
        failed(&got) && text_of(&got).contains("smaller file"),
        "{got:?}"
    );
    assert_eq!(
        std::fs::metadata(Path::new(&line)).unwrap().len(),
        BOUND * 2 / 3
    );
    assert!(conn.close().await);
}

#[test]
fn the_option_is_checked_and_documented() {
    let help = Command::new(binary()).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--max-answer-bytes <BYTES>"), "{help}");
    assert!(help.contains("[default: 15728640]"), "{help}");
    for bad in ["0", "1023", "-1", "lots"] {
        let out = Command::new(binary())
            .args([".".to_owned(), format!("--max-answer-bytes={bad}")])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("--max-answer-bytes"), "{bad}: {stderr}");
    }
}
