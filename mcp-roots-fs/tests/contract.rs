//! What 2.3.0 changed since 2026.8.31, through the binary and rmcp's
//! client: `head`/`tail` (0 is no lines, CRLF, a final newline),
//! `get_file_info`'s `hardLinks`, one `excludePatterns` rule for
//! `directory_tree` and `search_files`, the search's note on unreadable
//! directories; and its command line: options anywhere, `--`,
//! `--confine-roots`, `--read-only-dir` that must exist, the effective
//! directories on stderr at start, the warning without directories.

#![cfg(unix)]

mod common;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use mcp_script::{ScriptedClient, text_of};
use serde_json::{Value, json};

use common::{binary, call, failed, start};

struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Tree {
    fn new(files: &[(&str, &str)]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap().join("root");
        std::fs::create_dir(&root).unwrap();
        for (rel, text) in files {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            if rel.ends_with('/') {
                std::fs::create_dir_all(&path).unwrap();
            } else {
                std::fs::write(path, text).unwrap();
            }
        }
        Self { _dir: dir, root }
    }

    fn at(&self, rel: &str) -> String {
        self.root.join(rel).to_str().unwrap().to_owned()
    }

    fn arg(&self) -> Vec<String> {
        vec![self.root.to_str().unwrap().to_owned()]
    }
}

#[tokio::test]
async fn heads_and_tails_as_2_3_0() {
    let many: String = (1..=2000).map(|i| format!("{i}\n")).collect();
    let tree = Tree::new(&[
        ("lf.txt", "alpha\nbeta\ngamma\n"),
        ("crlf.txt", "one\r\ntwo\r\nthree\r\n"),
        ("open.txt", "a\nb\nc"),
        ("many.txt", &many),
        ("empty.txt", ""),
    ]);
    let script = ScriptedClient::new(false, false);
    let conn = start(&tree.arg(), &script).await;
    // (file, arguments, the text, or None for a refusal)
    let rows: [(&str, Value, Option<&str>); 14] = [
        ("lf.txt", json!({ "head": 0 }), Some("")),
        ("lf.txt", json!({ "tail": 0 }), Some("")),
        ("lf.txt", json!({ "head": 2 }), Some("alpha\nbeta")),
        ("lf.txt", json!({ "tail": 2 }), Some("beta\ngamma")),
        ("lf.txt", json!({ "tail": 9 }), Some("alpha\nbeta\ngamma")),
        ("crlf.txt", json!({ "head": 2 }), Some("one\ntwo")),
        ("crlf.txt", json!({ "tail": 1 }), Some("three")),
        ("open.txt", json!({ "tail": 2 }), Some("b\nc")),
        ("open.txt", json!({ "head": 5 }), Some("a\nb\nc")),
        ("many.txt", json!({ "tail": 3 }), Some("1998\n1999\n2000")),
        ("empty.txt", json!({ "tail": 3 }), Some("")),
        // Both together: refused, also when one is 0.
        ("lf.txt", json!({ "head": 1, "tail": 1 }), None),
        ("lf.txt", json!({ "head": 0, "tail": 1 }), None),
        ("lf.txt", json!({ "head": 1, "tail": 0 }), None),
    ];
    for (file, part, want) in rows {
        let mut args = part.clone();
        args["path"] = json!(tree.at(file));
        let got = call(&conn.client, "read_text_file", args).await;
        match want {
            Some(text) => assert_eq!(text_of(&got), text, "{file} {part}"),
            None => {
                assert!(failed(&got), "{file} {part}");
                assert!(text_of(&got).contains("both head and tail"), "{got:?}");
            }
        }
    }
    assert!(conn.close().await);
}

#[tokio::test]
async fn file_info_counts_hard_links() {
    let tree = Tree::new(&[("one.txt", "1"), ("two.txt", "2"), ("dir/", "")]);
    std::fs::hard_link(tree.at("two.txt"), tree.at("two-again.txt")).unwrap();
    std::fs::hard_link(tree.at("two.txt"), tree.at("dir/two-third.txt")).unwrap();
    let script = ScriptedClient::new(false, false);
    let conn = start(&tree.arg(), &script).await;
    for (rel, links) in [
        ("one.txt", 1),
        ("two.txt", 3),
        ("two-again.txt", 3),
        ("dir", 2),
    ] {
        let got = call(
            &conn.client,
            "get_file_info",
            json!({ "path": tree.at(rel) }),
        )
        .await;
        let text = text_of(&got);
        assert_eq!(
            text.lines().last(),
            Some(format!("hardLinks: {links}").as_str()),
            "{rel}: {text}"
        );
    }
    assert!(conn.close().await);
}

/// The names a `directory_tree` text holds, as `a/b` paths.
fn tree_paths(nodes: &Value, prefix: &str, out: &mut Vec<String>) {
    for node in nodes.as_array().unwrap() {
        let path = format!("{prefix}{}", node["name"].as_str().unwrap());
        if let Some(children) = node.get("children") {
            tree_paths(children, &format!("{path}/"), out);
        }
        out.push(path);
    }
}

/// A node of a `directory_tree` text: its path, its type, whether it has
/// `children`.
type Node = (String, String, bool);

/// Each node of a `directory_tree` text, in its order.
fn tree_nodes(nodes: &Value, prefix: &str, out: &mut Vec<Node>) {
    for node in nodes.as_array().unwrap() {
        let path = format!("{prefix}{}", node["name"].as_str().unwrap());
        let kind = node["type"].as_str().unwrap().to_owned();
        let children = node.get("children");
        out.push((path.clone(), kind, children.is_some()));
        if let Some(children) = children {
            tree_nodes(children, &format!("{path}/"), out);
        }
    }
}

/// `depth` (2.3.0): how many levels; the directories at the last level are
/// listed without `children` (not read), and reaching it is no early stop.
/// 0, a negative or a fractional depth is refused.
#[tokio::test]
async fn a_tree_descends_the_depth_asked_for() {
    let tree = Tree::new(&[
        ("a.txt", "a"),
        ("d/b.txt", "b"),
        ("d/e/c.txt", "c"),
        ("d/e/f/g.txt", "g"),
        ("empty/", ""),
    ]);
    let script = ScriptedClient::new(false, false);
    let conn = start(&tree.arg(), &script).await;
    let root = tree.at("");
    let root = root.trim_end_matches('/');
    let node = |p: &str, k: &str, c: bool| (p.to_owned(), k.to_owned(), c);
    let rows: [(Value, Vec<Node>); 4] = [
        (
            json!(1),
            vec![
                node("a.txt", "file", false),
                node("d", "directory", false),
                node("empty", "directory", false),
            ],
        ),
        (
            json!(2),
            vec![
                node("a.txt", "file", false),
                node("d", "directory", true),
                node("d/b.txt", "file", false),
                node("d/e", "directory", false),
                node("empty", "directory", true),
            ],
        ),
        (
            json!(3),
            vec![
                node("a.txt", "file", false),
                node("d", "directory", true),
                node("d/b.txt", "file", false),
                node("d/e", "directory", true),
                node("d/e/c.txt", "file", false),
                node("d/e/f", "directory", false),
                node("empty", "directory", true),
            ],
        ),
        (
            json!(null),
            vec![
                node("a.txt", "file", false),
                node("d", "directory", true),
                node("d/b.txt", "file", false),
                node("d/e", "directory", true),
                node("d/e/c.txt", "file", false),
                node("d/e/f", "directory", true),
                node("d/e/f/g.txt", "file", false),
                node("empty", "directory", true),
            ],
        ),
    ];
    for (depth, want) in rows {
        let mut args = json!({ "path": root });
        if !depth.is_null() {
            args["depth"] = depth.clone();
        }
        let got = call(&conn.client, "directory_tree", args).await;
        assert!(!failed(&got), "depth {depth}: {got:?}");
        assert_eq!(got.content.len(), 1, "depth {depth}: no early-stop note");
        let nodes: Value = serde_json::from_str(&text_of(&got)).unwrap();
        let mut seen = Vec::new();
        tree_nodes(&nodes, "", &mut seen);
        assert_eq!(seen, want, "depth {depth}");
    }
    for bad in [json!(0), json!(-1), json!(1.5), json!("2")] {
        let refused = mcp_script::call(
            &conn.client,
            "directory_tree",
            json!({ "path": root, "depth": bad }),
        )
        .await;
        assert!(
            refused.is_err() || refused.as_ref().is_ok_and(|r| r.is_error == Some(true)),
            "depth {bad}: {refused:?}"
        );
    }
    assert!(conn.close().await);
}

#[tokio::test]
async fn exclusions_are_one_rule_in_both_walks() {
    let tree = Tree::new(&[
        ("keep.txt", "k"),
        ("deep/top.txt", "t"),
        ("sub/deep/x.txt", "x"),
        ("sub/deeper/y.txt", "y"),
        ("sub/build/out.txt", "o"),
        ("build", "a file named build"),
        ("logs/a.log", "l"),
        ("a.log", "l"),
    ]);
    let script = ScriptedClient::new(false, false);
    let conn = start(&tree.arg(), &script).await;
    // (patterns, paths left out of both walks, paths kept in both)
    let rows: [(Value, &[&str], &[&str]); 5] = [
        (
            json!(["deep"]),
            &["deep", "deep/top.txt", "sub/deep", "sub/deep/x.txt"],
            &["sub/deeper", "sub/deeper/y.txt", "keep.txt"],
        ),
        (
            json!(["**/build/**"]),
            &["sub/build", "sub/build/out.txt"],
            &["build", "keep.txt"],
        ),
        (json!(["*.log"]), &["a.log"], &["logs/a.log", "logs"]),
        (
            json!(["sub/*"]),
            &["sub/deep", "sub/deeper", "sub/build"],
            &["sub", "deep", "keep.txt"],
        ),
        (json!([]), &[], &["sub/deep/x.txt", "build", "a.log"]),
    ];
    for (patterns, out, kept) in rows {
        let root = tree.at("");
        let root = root.trim_end_matches('/');
        let got = call(
            &conn.client,
            "directory_tree",
            json!({ "path": root, "excludePatterns": patterns }),
        )
        .await;
        let nodes: Value = serde_json::from_str(&text_of(&got)).unwrap();
        let mut listed = Vec::new();
        tree_paths(&nodes, "", &mut listed);
        let got = call(
            &conn.client,
            "search_files",
            json!({ "path": root, "pattern": "**", "excludePatterns": patterns }),
        )
        .await;
        let found: Vec<String> = text_of(&got)
            .lines()
            .map(|line| line.strip_prefix(&format!("{root}/")).unwrap().to_owned())
            .collect();
        for (walk, seen) in [("directory_tree", &listed), ("search_files", &found)] {
            for path in out {
                assert!(
                    !seen.iter().any(|p| p == path),
                    "{walk} {patterns} listed {path}: {seen:?}"
                );
            }
            for path in kept {
                assert!(
                    seen.iter().any(|p| p == path),
                    "{walk} {patterns} lost {path}: {seen:?}"
                );
            }
        }
    }
    assert!(conn.close().await);
}

#[tokio::test]
async fn a_search_names_the_directories_it_could_not_read() {
    let tree = Tree::new(&[("a/x.txt", "x"), ("b/y.txt", "y"), ("c/z.txt", "z")]);
    let script = ScriptedClient::new(false, false);
    let conn = start(&tree.arg(), &script).await;
    let root = tree.at("");
    let root = root.trim_end_matches('/');
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(tree.at("a"), std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read_dir(tree.at("a")).is_ok() {
        eprintln!("skipped: permissions do not stop this user (root) reading a directory");
        return;
    }
    // (directories locked, the note's count and noun)
    for (locked, says) in [
        (&[][..], None),
        (&["a"][..], Some("1 directory could")),
        (&["a", "c"][..], Some("2 directories could")),
    ] {
        for dir in ["a", "b", "c"] {
            let mode = if locked.contains(&dir) { 0o000 } else { 0o755 };
            std::fs::set_permissions(tree.at(dir), std::fs::Permissions::from_mode(mode)).unwrap();
        }
        let got = call(
            &conn.client,
            "search_files",
            json!({ "path": root, "pattern": "**/*.txt" }),
        )
        .await;
        let text = text_of(&got);
        assert!(text.contains(&format!("{root}/b/y.txt")), "{text}");
        match says {
            None => assert!(!text.contains("incomplete"), "{text}"),
            Some(says) => {
                assert!(text.contains("The search is incomplete: "), "{text}");
                assert!(text.contains(says), "{text}");
                for dir in locked {
                    assert!(text.contains(&format!("{root}/{dir} (EACCES)")), "{text}");
                }
            }
        }
    }
    for dir in ["a", "c"] {
        std::fs::set_permissions(tree.at(dir), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    assert!(conn.close().await);
}

/// The binary with `args` and stdin closed: it says what it serves, then
/// ends (no client).
fn run(args: &[&str]) -> Output {
    Command::new(binary())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn a_read_only_dir_that_cannot_be_resolved_stops_the_start() {
    let tree = Tree::new(&[("file.txt", "f")]);
    let root = tree.at("");
    let root = root.trim_end_matches('/');
    let missing = tree.at("missing");
    let file = tree.at("file.txt");
    for bad in [missing.as_str(), file.as_str(), "/nonexistent/deeper"] {
        let out = run(&[root, "--read-only-dir", bad]);
        assert_eq!(out.status.code(), Some(1), "{bad}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!(
                "--read-only-dir {bad} is not an existing directory"
            )),
            "{stderr}"
        );
        assert!(
            stderr.contains("must exist when the server starts"),
            "{stderr}"
        );
    }
    // A missing DIR is still skipped with a warning.
    let out = run(&[root, &missing]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("is not an existing directory"), "{stderr}");
    assert!(stderr.contains(&format!("  {root}\n")), "{stderr}");
}

#[test]
fn the_command_line_reads_as_2_3_0_s() {
    let tree = Tree::new(&[("a/", ""), ("b/", ""), ("-dash/", "")]);
    let (a, b, dash) = (tree.at("a"), tree.at("b"), tree.at("-dash"));
    // (arguments, the directories listed, the read-only ones)
    let rows: [(Vec<&str>, Vec<&str>, Vec<&str>); 5] = [
        (vec![&a, &b], vec![&a, &b], vec![]),
        (vec![&a, "--confine-roots", &b], vec![&a, &b], vec![]),
        (
            vec!["--read-only", &a, "--read-only-dir", &b],
            vec![&a, &b],
            vec![&b],
        ),
        (vec![&a, "--", "--read-only"], vec![&a], vec![]),
        (
            vec!["--read-only-dir", &dash, &a],
            vec![&a, &dash],
            vec![&dash],
        ),
    ];
    for (args, dirs, read_only) in rows {
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let listed: String = dirs.iter().map(|d| format!("  {d}\n")).collect();
        assert!(
            stderr.contains(&format!(
                "Effective allowed directories (from the command line):\n{listed}"
            )),
            "{args:?}: {stderr}"
        );
        if !read_only.is_empty() {
            let listed: String = read_only.iter().map(|d| format!("  {d}\n")).collect();
            assert!(
                stderr.contains(&format!(
                    "Read-only directories (writes refused, whatever the allowed directories in force):\n{listed}"
                )),
                "{args:?}: {stderr}"
            );
        }
        let mode = args
            .iter()
            .take_while(|a| **a != "--")
            .any(|a| *a == "--read-only");
        assert_eq!(stderr.contains("Read-only mode"), mode, "{stderr}");
        // `--` made `--read-only` a directory, missing: skipped, no mode.
        assert!(!stderr.contains("no directory given"), "{stderr}");
    }
    let version = run(&["--version"]);
    assert_eq!(version.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&version.stdout).trim(),
        format!("mcp-roots-fs {}", env!("CARGO_PKG_VERSION"))
    );
    let help = run(&["--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    for says in [
        "--confine-roots",
        "always confines",
        "Without any DIR",
        "`--` ends them",
    ] {
        assert!(help.contains(says), "{says}: {help}");
    }
    // An unknown option is still refused (a typo must not drop an option).
    assert_eq!(run(&[&a, "--bogus"]).status.code(), Some(2));
}

#[test]
fn no_directory_warns_at_start() {
    for args in [&[][..], &["--read-only"][..], &["--confine-roots"][..]] {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("Warning: no directory given"),
            "{args:?}: {stderr}"
        );
        assert!(stderr.contains("file:///"), "{stderr}");
        assert!(
            stderr.contains("Effective allowed directories: none."),
            "{stderr}"
        );
    }
    let tree = Tree::new(&[("a/", "")]);
    let out = run(&[&tree.at("a")]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("Warning: no directory given"));
}

/// `--ask-within` and no DIR: no warning (nothing is served until the
/// user grants it, and the start says so, with the area); `--help` names
/// the option.
#[test]
fn ask_within_without_a_directory_says_what_is_served() {
    let tree = Tree::new(&[("area/", "")]);
    let out = run(&["--ask-within", &tree.at("area")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("Warning: no directory given"), "{stderr}");
    assert!(
        stderr.contains("nothing is served until the user grants it"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "The user may be asked for access beneath:\n  {}",
            tree.at("area")
        )),
        "{stderr}"
    );
    let help = run(&["--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--ask-within <DIR>"), "{help}");
    assert!(help.contains("nothing at all is served"), "{help}");
}

#[tokio::test]
async fn edits_as_2_3_0_and_refusals_name_the_whole_path() {
    let tree = Tree::new(&[
        ("crlf.txt", "one\r\ntwo\r\nthree\r\n"),
        ("lf.txt", "a\nb\nc\n"),
        ("sub/", ""),
    ]);
    let script = ScriptedClient::new(false, false);
    let conn = start(&tree.arg(), &script).await;
    let edit = |path: String, old: &str, new: &str| json!({ "path": path, "edits": [{ "oldText": old, "newText": new }] });
    // (file, oldText, newText, the file after)
    for (file, old, new, after) in [
        ("crlf.txt", "two", "2", "one\r\n2\r\nthree\r\n"),
        ("lf.txt", "  b\n", "B", "a\nBc\n"),
        ("lf.txt", "Bc", "x\ny", "a\nx\ny\n"),
    ] {
        let got = call(&conn.client, "edit_file", edit(tree.at(file), old, new)).await;
        assert!(!failed(&got), "{file}: {got:?}");
        assert_eq!(
            std::fs::read_to_string(tree.at(file)).unwrap(),
            after,
            "{file}"
        );
    }
    let got = call(
        &conn.client,
        "edit_file",
        edit(tree.at("crlf.txt"), "thre3", "x"),
    )
    .await;
    let text = text_of(&got);
    assert!(failed(&got), "{got:?}");
    assert!(
        text.starts_with("Could not find exact match for edit 1 of 1."),
        "{text}"
    );
    assert!(text.contains("3: three"), "{text}");
    assert!(text.contains("oldText: \"thre3\""), "{text}");
    assert_eq!(
        got.structured_content.as_ref().map(|s| s["reason"].clone()),
        Some(json!("edit_mismatch")),
        "{got:?}"
    );
    // Every refusal names the whole path; a read of a missing file says
    // how to make one.
    let root = tree.at("");
    let root = root.trim_end_matches('/');
    for (tool, args, whole, hint) in [
        (
            "read_text_file",
            json!({ "path": tree.at("nope.py") }),
            tree.at("nope.py"),
            true,
        ),
        (
            "read_text_file",
            json!({ "path": "nope.py" }),
            format!("{root}/nope.py"),
            true,
        ),
        (
            "read_media_file",
            json!({ "path": tree.at("sub/nope.png") }),
            tree.at("sub/nope.png"),
            true,
        ),
        (
            "edit_file",
            edit(tree.at("sub/nope.py"), "a", "b"),
            tree.at("sub/nope.py"),
            true,
        ),
        (
            "write_file",
            json!({ "path": tree.at("missing/x.txt"), "content": "x" }),
            tree.at("missing/x.txt"),
            false,
        ),
        (
            "get_file_info",
            json!({ "path": tree.at("sub/gone") }),
            tree.at("sub/gone"),
            false,
        ),
    ] {
        let got = call(&conn.client, tool, args).await;
        let text = text_of(&got);
        assert!(failed(&got), "{tool}: {text}");
        assert!(
            text.contains(&format!("\"{whole}\" does not exist")),
            "{tool}: {text}"
        );
        assert_eq!(text.contains("use write_file"), hint, "{tool}: {text}");
    }
    assert!(conn.close().await);
}

/// The binary over raw JSON lines, as a 2025-11-25 client whose roots are
/// `roots` (`None`: without the roots capability): one tool call, then its
/// stderr once stdin closes.
fn stderr_of_session(dir: &str, roots: Option<&[String]>) -> String {
    use std::io::{BufRead, BufReader, Write};
    let mut child = Command::new(binary())
        .arg(dir)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let capabilities = match roots {
        Some(_) => json!({ "roots": { "listChanged": true } }),
        None => json!({}),
    };
    let send = |stdin: &mut std::process::ChildStdin, message: Value| {
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    };
    let mut answer = |stdin: &mut std::process::ChildStdin, id: u64| loop {
        let message: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
        if message["method"] == "roots/list" {
            let uris: Vec<Value> = roots
                .unwrap_or_default()
                .iter()
                .map(|r| json!({ "uri": format!("file://{r}") }))
                .collect();
            writeln!(
                stdin,
                "{}",
                json!({ "jsonrpc": "2.0", "id": message["id"], "result": { "roots": uris } })
            )
            .unwrap();
            stdin.flush().unwrap();
        } else if message["id"] == id {
            return message;
        }
    };
    send(
        &mut stdin,
        json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": { "protocolVersion": "2025-11-25", "capabilities": capabilities, "clientInfo": { "name": "t", "version": "1" } } }),
    );
    answer(&mut stdin, 0);
    send(
        &mut stdin,
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
    );
    send(
        &mut stdin,
        json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "list_allowed_directories", "arguments": {} } }),
    );
    answer(&mut stdin, 1);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn every_change_of_roots_prints_the_directories_in_force() {
    let tree = Tree::new(&[("a/", ""), ("b/", "")]);
    let root = tree.at("");
    let root = root.trim_end_matches('/');
    let start = format!("Effective allowed directories (from the command line):\n  {root}\n");
    let confined = "Effective allowed directories (from the client's Roots, confined to the command-line directories):";
    // (the client's roots, the lines after the start's)
    let rows: [(Option<Vec<String>>, String); 4] = [
        (None, start.clone()),
        (
            Some(vec![tree.at("a")]),
            format!("{confined}\n  {}\n", tree.at("a")),
        ),
        (
            Some(vec![tree.at("a"), tree.at("b")]),
            format!("{confined}\n  {}\n  {}\n", tree.at("a"), tree.at("b")),
        ),
        (
            Some(vec!["/nonexistent-outside".to_owned()]),
            "Effective allowed directories: none. The client's Roots name no valid directory"
                .to_owned(),
        ),
    ];
    for (roots, after) in rows {
        let stderr = stderr_of_session(root, roots.as_deref());
        let rest = stderr
            .strip_prefix(&start)
            .unwrap_or_else(|| panic!("{stderr}"));
        assert!(rest.starts_with(&after), "{roots:?}: {stderr}");
    }
}
