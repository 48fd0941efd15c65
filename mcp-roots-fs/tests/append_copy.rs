//! `append_file` and `copy_file` (and `move_file` across file systems)
//! through rmcp's client, on 2025-11-25 and
//! on 2026-07-28: inside, outside, hidden parts at either end, read-only
//! patterns and a `--read-only-dir` nested in a writable directory, an
//! existing destination, a link at the name, a directory where a file is
//! expected, the copy's mode and times; and `--confirm` for an append.

#![cfg(unix)]

mod common;

use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use mcp_script::{Client, Connection, ScriptedClient, accept, decline, modern_lifecycle, text_of};
use rmcp::model::{CallToolResult, ProtocolVersion};
use serde_json::json;

use common::{NoServer, binary, call, failed, start};

struct Tree {
    _dir: tempfile::TempDir,
    base: PathBuf,
}

impl Tree {
    /// `root/` (served) with a file, a subdirectory, a hidden file, a
    /// read-only pattern's file, a nested read-only directory, links; and
    /// `other/` (not served) beside it.
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        for (rel, text) in [
            ("root/a.txt", "alpha\n"),
            ("root/sub/b.txt", "bee"),
            ("root/secret.key", "hidden"),
            ("root/keep.lock", "locked"),
            ("root/ro/inner.txt", "inner"),
            ("other/outside.txt", "outside"),
        ] {
            let path = base.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        symlink(base.join("root/a.txt"), base.join("root/link_in")).unwrap();
        symlink(base.join("other/outside.txt"), base.join("root/link_out")).unwrap();
        symlink(base.join("root/nowhere"), base.join("root/dangling")).unwrap();
        Self { _dir: dir, base }
    }

    fn at(&self, rel: &str) -> String {
        self.base.join(rel).to_str().unwrap().to_owned()
    }

    fn read(&self, rel: &str) -> Option<String> {
        std::fs::read_to_string(self.base.join(rel)).ok()
    }

    fn exists(&self, rel: &str) -> bool {
        std::fs::symlink_metadata(self.base.join(rel)).is_ok()
    }

    /// The options of every connection here.
    fn args(&self) -> Vec<String> {
        vec![
            "--hide".to_owned(),
            "*.key".to_owned(),
            "--read-only-pattern".to_owned(),
            "*.lock".to_owned(),
            "--read-only-dir".to_owned(),
            self.at("root/ro"),
            self.at("root"),
        ]
    }
}

fn reason(result: &CallToolResult) -> Option<String> {
    result
        .structured_content
        .as_ref()?
        .get("reason")?
        .as_str()
        .map(str::to_owned)
}

/// `result` is a refusal for `reason`, whose text names `named`.
fn refused(result: &CallToolResult, want: &str, named: &str, row: &str) {
    assert!(failed(result), "{row}: {result:?}");
    assert_eq!(reason(result).as_deref(), Some(want), "{row}: {result:?}");
    assert!(
        text_of(result).contains(named),
        "{row}: {}",
        text_of(result)
    );
}

async fn append(c: &Client, path: &str, content: &str) -> CallToolResult {
    call(
        c,
        "append_file",
        json!({ "path": path, "content": content }),
    )
    .await
}

async fn copy(c: &Client, source: &str, destination: &str) -> CallToolResult {
    let args = json!({ "source": source, "destination": destination });
    call(c, "copy_file", args).await
}

/// Every row, on the connection `c` to a server started with
/// [`Tree::args`].
async fn rows(tree: &Tree, c: &Client) {
    // Inside: created, then appended exactly as given, no newline added.
    let new = tree.at("root/log.txt");
    let first = append(c, &new, "one").await;
    assert_eq!(text_of(&first), format!("Successfully appended to {new}"));
    assert_eq!(
        first.structured_content,
        Some(json!({ "content": format!("Successfully appended to {new}") }))
    );
    append(c, &new, "two\n").await;
    append(c, &new, "").await;
    assert_eq!(tree.read("root/log.txt").as_deref(), Some("onetwo\n"));
    let existing = append(c, &tree.at("root/a.txt"), "beta").await;
    assert!(!failed(&existing), "{existing:?}");
    assert_eq!(tree.read("root/a.txt").as_deref(), Some("alpha\nbeta"));
    // A relative path names a file in the first directory.
    append(c, "sub/b.txt", "e").await;
    assert_eq!(tree.read("root/sub/b.txt").as_deref(), Some("beee"));

    // Outside, directly and through a link.
    let outside = tree.at("other/new.txt");
    refused(
        &append(c, &outside, "x").await,
        "outside_roots",
        "other/new.txt",
        "append outside",
    );
    assert!(!tree.exists("other/new.txt"));
    let dotdot = format!("{}/../other/outside.txt", tree.at("root"));
    let escaped = append(c, &dotdot, "x").await;
    assert!(failed(&escaped), "{escaped:?}");
    // A link at the name is never followed, inside or out.
    for link in ["root/link_in", "root/link_out", "root/dangling"] {
        let result = append(c, &tree.at(link), "x").await;
        assert!(failed(&result), "append to {link}: {result:?}");
    }
    assert_eq!(tree.read("root/a.txt").as_deref(), Some("alpha\nbeta"));
    assert_eq!(tree.read("other/outside.txt").as_deref(), Some("outside"));
    assert!(!tree.exists("root/nowhere"));
    // Hidden, read-only by pattern, in the nested read-only directory.
    refused(
        &append(c, &tree.at("root/secret.key"), "x").await,
        "hidden",
        "secret.key",
        "append hidden",
    );
    refused(
        &append(c, &tree.at("root/new.key"), "x").await,
        "hidden",
        "new.key",
        "append new hidden",
    );
    refused(
        &append(c, &tree.at("root/keep.lock"), "x").await,
        "read_only",
        "keep.lock",
        "append pattern",
    );
    refused(
        &append(c, &tree.at("root/ro/inner.txt"), "x").await,
        "read_only",
        "inner.txt",
        "append ro dir",
    );
    refused(
        &append(c, &tree.at("root/ro/new.txt"), "x").await,
        "read_only",
        "new.txt",
        "append new in ro dir",
    );
    assert_eq!(tree.read("root/secret.key").as_deref(), Some("hidden"));
    assert_eq!(tree.read("root/keep.lock").as_deref(), Some("locked"));
    assert_eq!(tree.read("root/ro/inner.txt").as_deref(), Some("inner"));
    assert!(!tree.exists("root/new.key") && !tree.exists("root/ro/new.txt"));
    // Not a regular file.
    assert!(failed(&append(c, &tree.at("root/sub"), "x").await));
    assert!(failed(
        &append(c, &format!("{}/", tree.at("root/a.txt")), "x").await
    ));

    // Copy inside: content, mode and times kept.
    let source = tree.base.join("root/sub/b.txt");
    std::fs::set_permissions(&source, std::fs::Permissions::from_mode(0o640)).unwrap();
    let past = SystemTime::UNIX_EPOCH + Duration::from_secs(1_234_567_890);
    std::fs::File::options()
        .write(true)
        .open(&source)
        .unwrap()
        .set_modified(past)
        .unwrap();
    let (from, to) = (tree.at("root/sub/b.txt"), tree.at("root/b.copy"));
    let done = copy(c, &from, &to).await;
    assert_eq!(
        text_of(&done),
        format!("Successfully copied {from} to {to}")
    );
    assert_eq!(tree.read("root/b.copy").as_deref(), Some("beee"));
    let meta = std::fs::metadata(tree.base.join("root/b.copy")).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o640);
    assert_eq!(meta.modified().unwrap(), past);
    // Never over anything: a file, a directory, a link (dangling or not).
    for taken in [
        "root/a.txt",
        "root/sub",
        "root/link_in",
        "root/dangling",
        "root/b.copy",
    ] {
        let result = copy(c, &tree.at("root/log.txt"), &tree.at(taken)).await;
        refused(&result, "already_exists", taken, taken);
    }
    assert_eq!(tree.read("root/a.txt").as_deref(), Some("alpha\nbeta"));
    assert_eq!(tree.read("root/b.copy").as_deref(), Some("beee"));
    assert!(!tree.exists("root/nowhere"));
    // A directory, a link or nothing as the source.
    assert!(failed(
        &copy(c, &tree.at("root/sub"), &tree.at("root/sub2")).await
    ));
    assert!(!tree.exists("root/sub2"));
    let missing = copy(c, &tree.at("root/none"), &tree.at("root/none2")).await;
    assert_eq!(
        reason(&missing).as_deref(),
        Some("not_found"),
        "{missing:?}"
    );
    let via_out = copy(c, &tree.at("root/link_out"), &tree.at("root/stolen")).await;
    assert!(
        failed(&via_out) && !tree.exists("root/stolen"),
        "{via_out:?}"
    );
    // Outside at either end.
    let out_from = copy(c, &tree.at("other/outside.txt"), &tree.at("root/stolen")).await;
    refused(
        &out_from,
        "outside_roots",
        "other/outside.txt",
        "copy from outside",
    );
    let out_to = copy(c, &tree.at("root/a.txt"), &tree.at("other/leak.txt")).await;
    refused(
        &out_to,
        "outside_roots",
        "other/leak.txt",
        "copy to outside",
    );
    assert!(!tree.exists("root/stolen") && !tree.exists("other/leak.txt"));
    // Hidden at either end.
    let hidden_from = copy(c, &tree.at("root/secret.key"), &tree.at("root/plain.txt")).await;
    refused(&hidden_from, "hidden", "secret.key", "copy a hidden file");
    let hidden_to = copy(c, &tree.at("root/a.txt"), &tree.at("root/a.key")).await;
    refused(&hidden_to, "hidden", "a.key", "copy to a hidden name");
    assert!(!tree.exists("root/plain.txt") && !tree.exists("root/a.key"));
    // Read-only: the source is a read, the destination a change.
    let from_lock = copy(c, &tree.at("root/keep.lock"), &tree.at("root/lock.txt")).await;
    assert!(!failed(&from_lock), "{from_lock:?}");
    assert_eq!(tree.read("root/lock.txt").as_deref(), Some("locked"));
    let to_lock = copy(c, &tree.at("root/a.txt"), &tree.at("root/a.lock")).await;
    refused(
        &to_lock,
        "read_only",
        "a.lock",
        "copy to a read-only pattern",
    );
    let from_ro = copy(c, &tree.at("root/ro/inner.txt"), &tree.at("root/inner.txt")).await;
    assert!(!failed(&from_ro), "{from_ro:?}");
    assert_eq!(tree.read("root/inner.txt").as_deref(), Some("inner"));
    let into_ro = copy(c, &tree.at("root/a.txt"), &tree.at("root/ro/a.txt")).await;
    refused(
        &into_ro,
        "read_only",
        "ro/a.txt",
        "copy into the read-only dir",
    );
    assert!(!tree.exists("root/a.lock") && !tree.exists("root/ro/a.txt"));
    // No temporary file left beside any destination.
    for dir in ["root", "root/sub", "root/ro"] {
        let left: Vec<String> = std::fs::read_dir(tree.base.join(dir))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "{dir}: {left:?}");
    }
}

#[tokio::test]
async fn append_and_copy_on_2025_11_25() {
    let tree = Tree::new();
    let script = ScriptedClient::new(false, false);
    let conn = start(&tree.args(), &script).await;
    rows(&tree, &conn.client).await;
    assert!(conn.close().await);
}

#[tokio::test]
async fn append_and_copy_on_2026_07_28() {
    let tree = Tree::new();
    let script = ScriptedClient::new(false, false).speaking(ProtocolVersion::V_2026_07_28);
    let conn: Connection<NoServer> =
        Connection::spawn(binary(), &tree.args(), script, modern_lifecycle())
            .await
            .expect("the server starts");
    rows(&tree, &conn.client).await;
    assert!(conn.close().await);
}

/// `--confirm`: appending to an existing file asks, and a decline keeps
/// it; creating a file by appending does not ask, nor does a copy (it
/// changes nothing that exists).
#[tokio::test]
async fn confirm_asks_before_appending_to_an_existing_file() {
    let tree = Tree::new();
    let script = ScriptedClient::new(false, true);
    let conn = start(&["--confirm".to_owned(), tree.at("root")], &script).await;
    let c = &conn.client;
    let created = append(c, &tree.at("root/new.txt"), "n").await;
    assert!(!failed(&created), "{created:?}");
    assert_eq!(tree.read("root/new.txt").as_deref(), Some("n"));
    script.answer(decline());
    let kept = append(c, &tree.at("root/a.txt"), "x").await;
    assert_eq!(
        text_of(&kept),
        format!("Not appended: the user kept {}", tree.at("root/a.txt"))
    );
    assert_eq!(tree.read("root/a.txt").as_deref(), Some("alpha\n"));
    script.answer(accept(json!({ "confirm": true })));
    let appended = append(c, &tree.at("root/a.txt"), "x").await;
    assert!(!failed(&appended), "{appended:?}");
    assert_eq!(tree.read("root/a.txt").as_deref(), Some("alpha\nx"));
    let copied = copy(c, &tree.at("root/a.txt"), &tree.at("root/c.txt")).await;
    assert!(!failed(&copied), "{copied:?}");
    // Outside is refused before anything is asked.
    let outside = append(c, &tree.at("other/outside.txt"), "x").await;
    assert_eq!(
        reason(&outside).as_deref(),
        Some("outside_roots"),
        "{outside:?}"
    );
    assert!(conn.close().await);
}

/// `move_file` between two served directories on two file systems (the
/// temporary directory's and `/dev/shm`): a regular file moves (copied,
/// then removed, mode and times kept), a directory stays where it is.
#[tokio::test]
async fn a_move_across_file_systems_copies_a_file_and_refuses_a_directory() {
    use std::os::unix::fs::MetadataExt;
    let a_dir = tempfile::tempdir().unwrap();
    let Ok(b_dir) = tempfile::tempdir_in("/dev/shm") else {
        eprintln!("skipped: no /dev/shm to hold a second file system");
        return;
    };
    let (a, b) = (
        a_dir.path().canonicalize().unwrap(),
        b_dir.path().canonicalize().unwrap(),
    );
    if std::fs::metadata(&a).unwrap().dev() == std::fs::metadata(&b).unwrap().dev() {
        eprintln!("skipped: the temporary directory and /dev/shm are one file system here");
        return;
    }
    std::fs::write(a.join("f.txt"), "moved across").unwrap();
    std::fs::set_permissions(a.join("f.txt"), std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::create_dir(a.join("dir")).unwrap();
    let at = |p: PathBuf| p.to_str().unwrap().to_owned();
    let args = [at(a.clone()), at(b.clone())];
    let script = ScriptedClient::new(false, false);
    let conn = start(&args, &script).await;
    let moved = call(
        &conn.client,
        "move_file",
        json!({ "source": at(a.join("f.txt")), "destination": at(b.join("f.txt")) }),
    )
    .await;
    assert!(!failed(&moved), "{moved:?}");
    assert_eq!(
        text_of(&moved),
        format!(
            "Successfully moved {} to {}",
            at(a.join("f.txt")),
            at(b.join("f.txt"))
        )
    );
    assert!(!a.join("f.txt").exists());
    assert_eq!(
        std::fs::read_to_string(b.join("f.txt")).unwrap(),
        "moved across"
    );
    let mode = std::fs::metadata(b.join("f.txt"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);

    let dir = call(
        &conn.client,
        "move_file",
        json!({ "source": at(a.join("dir")), "destination": at(b.join("dir")) }),
    )
    .await;
    refused(
        &dir,
        "io",
        &at(a.join("dir")),
        "a directory across file systems",
    );
    assert!(text_of(&dir).contains("directory"), "{}", text_of(&dir));
    assert!(a.join("dir").is_dir());
    assert!(!b.join("dir").exists());
    assert!(conn.close().await);
}
