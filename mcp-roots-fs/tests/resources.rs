//! Files as resources, through rmcp's client, on both eras: 2025-11-25
//! (the session's roots from `roots/list`) and 2026-07-28 (the roots asked
//! for with an input request, the retry bound to the URI by a sealed
//! `requestState`). A read is judged as the tools judge: the same
//! refusals, as `-32602` errors with the URI in their data; the template
//! and the (empty) list are 2.3.0's, compared with the captured fixture.

#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};

use base64::Engine;
use mcp_script::{Client, Connection, ScriptedClient, modern_lifecycle, read_resource_round};
use rmcp::model::{
    ErrorCode, ErrorData, ProtocolVersion, ReadResourceResponse, ReadResourceResult,
    ResourceContents,
};
use serde_json::{Value, json};

use common::{NoServer, binary, start};

/// The bound every connection runs with: a 15,000-byte text fits once (a
/// resource carries it once) where a tool's answer (twice) would not.
const BOUND: u64 = 20_000;

/// Which revision a connection speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Era {
    Session,
    Rounds,
}

struct Tree {
    _dir: tempfile::TempDir,
    base: PathBuf,
    root: PathBuf,
}

impl Tree {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let root = base.join("root");
        let files: [(&str, &[u8]); 10] = [
            ("a.txt", b"alpha\n"),
            ("notes.md", b"# notes\n"),
            ("data.json", b"{\"k\": 1}"),
            ("img.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"),
            ("with space \u{e9}.txt", b"spaced\n"),
            ("noext", b"\0\x01\x02"),
            (".env", b"TOKEN=secret\n"),
            ("inner/secrets/k.txt", b"key\n"),
            ("inner/o.txt", b"open\n"),
            ("sub/b.txt", b"bee\n"),
        ];
        for (rel, bytes) in files {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, bytes).unwrap();
        }
        std::fs::write(root.join("medium.txt"), "m".repeat(15_000)).unwrap();
        std::fs::write(root.join("big.txt"), "b".repeat(30_000)).unwrap();
        std::fs::create_dir_all(base.join("outside")).unwrap();
        std::fs::write(base.join("outside/x.txt"), "outside\n").unwrap();
        std::os::unix::fs::symlink(base.join("outside/x.txt"), root.join("out.txt")).unwrap();
        Self {
            _dir: dir,
            base,
            root,
        }
    }

    fn uri(&self, rel: &str) -> String {
        uri_of(&self.root.join(rel))
    }

    fn args(&self) -> Vec<String> {
        vec![
            "--hide=.env".to_owned(),
            "--hide=/secrets/".to_owned(),
            format!("--max-answer-bytes={BOUND}"),
            self.root.to_str().unwrap().to_owned(),
            self.root.join("inner").to_str().unwrap().to_owned(),
        ]
    }
}

fn uri_of(path: &Path) -> String {
    format!("file://{}", path.display())
}

async fn connect(tree: &Tree, era: Era) -> Connection<NoServer> {
    let script = ScriptedClient::new(true, false);
    script.set_root_uris(&[&tree.uri("")]);
    match era {
        Era::Session => start(&tree.args(), &script).await,
        Era::Rounds => {
            let script = script.speaking(ProtocolVersion::V_2026_07_28);
            Connection::spawn(binary(), &tree.args(), script, modern_lifecycle())
                .await
                .expect("the server starts")
        }
    }
}

/// Reads `uri` as a client of `era` does: on 2026-07-28 the first round
/// asks for the roots (sealing no state, as a tool call's first round:
/// there is nothing to carry), the retry brings them.
async fn read(
    c: &Client,
    era: Era,
    roots: &[&str],
    uri: &str,
) -> Result<ReadResourceResult, ErrorData> {
    let first = read_resource_round(c, uri, None, None).await?;
    let asked = match (era, first) {
        (Era::Session, ReadResourceResponse::Complete(result)) => return Ok(result),
        (Era::Rounds, ReadResourceResponse::InputRequired(asked)) => asked,
        (era, other) => panic!("{uri} on {era:?}: {other:?}"),
    };
    let keys: Vec<&String> = asked
        .input_requests
        .iter()
        .flatten()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(keys, ["roots"], "{uri}: {asked:?}");
    assert_eq!(asked.request_state, None, "{uri}: nothing to carry");
    match read_resource_round(c, uri, Some(roots), None).await? {
        ReadResourceResponse::Complete(result) => Ok(result),
        other => panic!("{uri}: a second round asked again: {other:?}"),
    }
}

fn only(result: &ReadResourceResult) -> &ResourceContents {
    assert_eq!(result.contents.len(), 1, "{result:?}");
    &result.contents[0]
}

/// The refusal's reason (`data.reason`), checking the shape every refusal
/// has: `-32602` and the URI as sent in `data`.
fn refusal_reason(error: &ErrorData, uri: &str) -> String {
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{uri}: {error:?}");
    let data = error.data.as_ref().expect("data");
    assert_eq!(data["uri"], uri, "{error:?}");
    data["reason"].as_str().unwrap_or_default().to_owned()
}

async fn reads_are_judged_as_the_tools_judge(era: Era) {
    let tree = Tree::new();
    let conn = connect(&tree, era).await;
    let c = &conn.client;
    let root = tree.uri("");
    let roots = [root.as_str()];

    // Text, with the type from the table or text/plain for UTF-8.
    for (rel, uri, want_text, want_mime) in [
        ("a.txt", tree.uri("a.txt"), "alpha\n", "text/plain"),
        (
            "notes.md",
            tree.uri("notes.md"),
            "# notes\n",
            "text/markdown",
        ),
        (
            "data.json",
            tree.uri("data.json"),
            "{\"k\": 1}",
            "application/json",
        ),
        (
            "percent-encoded",
            tree.uri("with%20space%20%C3%A9.txt"),
            "spaced\n",
            "text/plain",
        ),
        (
            "dot segments inside",
            tree.uri("sub/../a.txt"),
            "alpha\n",
            "text/plain",
        ),
        (
            "nested directory",
            tree.uri("inner/o.txt"),
            "open\n",
            "text/plain",
        ),
        (
            "fits once",
            tree.uri("medium.txt"),
            &"m".repeat(15_000),
            "text/plain",
        ),
    ] {
        let result = read(c, era, &roots, &uri)
            .await
            .unwrap_or_else(|e| panic!("{rel}: {e:?}"));
        let ResourceContents::TextResourceContents {
            uri: got,
            mime_type,
            text,
            ..
        } = only(&result)
        else {
            panic!("{rel}: not text: {result:?}");
        };
        assert_eq!(
            (got.as_str(), text.as_str()),
            (uri.as_str(), want_text),
            "{rel}"
        );
        assert_eq!(mime_type.as_deref(), Some(want_mime), "{rel}");
    }

    // Binary as a base64 blob.
    let b64 = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
    for (rel, want_mime) in [
        ("img.png", "image/png"),
        ("noext", "application/octet-stream"),
    ] {
        let uri = tree.uri(rel);
        let result = read(c, era, &roots, &uri).await.unwrap();
        let ResourceContents::BlobResourceContents {
            blob, mime_type, ..
        } = only(&result)
        else {
            panic!("{rel}: not a blob: {result:?}");
        };
        assert_eq!(
            *blob,
            b64(&std::fs::read(tree.root.join(rel)).unwrap()),
            "{rel}"
        );
        assert_eq!(mime_type.as_deref(), Some(want_mime), "{rel}");
    }

    // Refusals, with our reasons.
    let outside = uri_of(&tree.base.join("outside/x.txt"));
    let dotdot = tree.uri("sub/../../outside/x.txt");
    for (what, uri, reason) in [
        ("hidden", tree.uri(".env"), "hidden"),
        ("hidden, nested", tree.uri("inner/secrets/k.txt"), "hidden"),
        ("outside the roots", outside, "outside_roots"),
        ("a .. URI out of the root", dotdot, "outside_roots"),
        ("a link out", tree.uri("out.txt"), "outside_roots"),
        ("a directory", tree.uri("sub"), "not_a_regular_file"),
        ("too large", tree.uri("big.txt"), "too_large"),
        ("missing", tree.uri("nope.txt"), "not_found"),
        (
            "another scheme",
            "http://example.com/a.txt".to_owned(),
            "invalid_uri",
        ),
        (
            "a raw path",
            tree.root.join("a.txt").display().to_string(),
            "invalid_uri",
        ),
        ("an encoded slash", tree.uri("sub%2Fb.txt"), "invalid_uri"),
        (
            "a host",
            "file://example.com/etc/passwd".to_owned(),
            "invalid_uri",
        ),
    ] {
        let error = read(c, era, &roots, &uri)
            .await
            .expect_err(&format!("{what}: {uri} was read"));
        assert_eq!(refusal_reason(&error, &uri), reason, "{what}: {error:?}");
        assert!(!error.message.is_empty(), "{what}");
    }

    // No existence oracle: a missing hidden file answers as an existing one.
    let there = tree.uri(".env");
    let missing = tree.uri("sub/.env");
    let a = read(c, era, &roots, &there).await.unwrap_err();
    let b = read(c, era, &roots, &missing).await.unwrap_err();
    assert_eq!(
        (a.code, a.message.replace(&there, "URI")),
        (b.code, b.message.replace(&missing, "URI"))
    );
    let data = |e: &ErrorData| {
        let mut data = e.data.clone().unwrap();
        data.as_object_mut().unwrap().remove("uri");
        data.as_object_mut().unwrap().remove("input");
        data
    };
    assert_eq!(data(&a), data(&b));
    assert!(conn.close().await);
}

#[tokio::test]
async fn on_2025_11_25_reads_are_judged_as_the_tools_judge() {
    reads_are_judged_as_the_tools_judge(Era::Session).await;
}

#[tokio::test]
async fn on_2026_07_28_reads_are_judged_as_the_tools_judge() {
    reads_are_judged_as_the_tools_judge(Era::Rounds).await;
}

#[tokio::test]
async fn on_2026_07_28_the_read_is_under_the_requests_roots_and_a_forged_state_is_refused() {
    let tree = Tree::new();
    let conn = connect(&tree, Era::Rounds).await;
    let c = &conn.client;
    let a = tree.uri("a.txt");
    let b = tree.uri("sub/b.txt");
    // The request's roots narrow: only `sub` shared.
    let sub = tree.uri("sub");
    assert!(read(c, Era::Rounds, &[&sub], &b).await.is_ok());
    let narrowed = read(c, Era::Rounds, &[&sub], &a).await.unwrap_err();
    assert_eq!(refusal_reason(&narrowed, &a), "outside_roots");
    // An empty list shares nothing.
    let none = read(c, Era::Rounds, &[], &a).await.unwrap_err();
    assert_eq!(refusal_reason(&none, &a), "no_roots");

    let root = tree.uri("");
    let roots = [root.as_str()];
    // A state bound to a read of one URI serving another, and a state used
    // twice, are refused in tests/grants.rs (a grant's question is the
    // round of a read that carries a state).
    // A forged state is refused.
    let forged = read_resource_round(c, &a, Some(&roots), Some("rs1.forged"))
        .await
        .unwrap_err();
    assert_eq!(refusal_reason(&forged, &a), "invalid_request_state");
    assert!(conn.close().await);
}

/// The fixture's answer for `method` on `era`, with the original's
/// identity in `_meta` replaced by ours.
fn fixture(era: &str, method: &str) -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/server-filesystem-2.3.0.json"
    );
    let all: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut answer = all[era][method].clone();
    if let Some(meta) = answer.get_mut("_meta") {
        meta["io.modelcontextprotocol/serverInfo"] =
            json!({ "name": "mcp-roots-fs", "version": env!("CARGO_PKG_VERSION") });
    }
    answer
}

#[tokio::test]
async fn the_template_and_the_empty_list_are_the_originals() {
    let tree = Tree::new();
    for (era, name) in [(Era::Session, "2025-11-25"), (Era::Rounds, "2026-07-28")] {
        let conn = connect(&tree, era).await;
        let c = &conn.client;
        let templates = c.list_resource_templates(None).await.unwrap();
        assert_eq!(
            serde_json::to_value(&templates).unwrap(),
            fixture(name, "resources/templates/list"),
            "{name}"
        );
        let listed = c.list_resources(None).await.unwrap();
        assert_eq!(
            serde_json::to_value(&listed).unwrap(),
            fixture(name, "resources/list"),
            "{name}"
        );
        let info = c.peer_info().expect("the server's info");
        assert!(info.capabilities.resources.is_some(), "{name}: {info:?}");
        assert!(conn.close().await);
    }
}
