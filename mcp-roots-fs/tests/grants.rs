//! `--ask-within`: the binary, with no DIR (nothing is served until the
//! user grants it), driven by the scripted client (rmcp's), which answers
//! the grant questions: a path past the area is refused without a
//! question; one in it is asked about, for this call (asked again next
//! call) or for the session (not asked again, and listed by
//! `list_allowed_directories`); a "no" is remembered; a hidden path is
//! refused without a question; a read-only pattern inside a writable grant
//! stays read-only; a client without forms gets `outside_roots` with the
//! sentence; `move_file` asks once for both paths; on 2026-07-28 only
//! "this call" is offered; a resource read is asked about as a tool's
//! path is.

mod common;

use mcp_script::{
    Client, Connection, ScriptedClient, accept, decline, modern_lifecycle, read_resource_round,
    text_of,
};
use rmcp::ServiceError;
use rmcp::model::{
    CallToolResult, ElicitRequestParams, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResponse, ResourceContents,
};
use serde_json::json;
use tempfile::TempDir;

use common::{NoServer, binary, call, failed, start};

/// `area/` with `a.md`, `key.pem` (hidden), `notes/n.md`; `outside/x.md`
/// past the area.
struct Tree(TempDir);

impl Tree {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        for folder in ["area/notes", "outside"] {
            std::fs::create_dir_all(dir.path().join(folder)).unwrap();
        }
        for (file, body) in [
            ("area/a.md", "alpha"),
            ("area/key.pem", "secret"),
            ("area/notes/n.md", "note"),
            ("outside/x.md", "x"),
        ] {
            std::fs::write(dir.path().join(file), body).unwrap();
        }
        Self(dir)
    }

    /// The physical path of `rel` (the temporary directory may be behind a
    /// link, and the server reports physical paths).
    fn at(&self, rel: &str) -> String {
        let base = self.0.path().canonicalize().unwrap();
        format!("{}/{rel}", base.display())
    }

    /// `--ask-within area --hide *.pem --read-only-pattern *.lock`, no DIR.
    fn args(&self) -> Vec<String> {
        [
            "--ask-within",
            &self.at("area"),
            "--hide",
            "*.pem",
            "--read-only-pattern",
            "*.lock",
        ]
        .map(str::to_owned)
        .to_vec()
    }
}

/// The reason of a refusal (`None` for a success).
fn reason(result: &CallToolResult) -> Option<String> {
    if !failed(result) {
        return None;
    }
    result
        .structured_content
        .as_ref()?
        .get("reason")?
        .as_str()
        .map(str::to_owned)
}

async fn read(client: &Client, path: &str) -> CallToolResult {
    call(client, "read_text_file", json!({ "path": path })).await
}

/// The grant forms asked so far: their messages and their choices' ids.
fn forms(script: &ScriptedClient) -> Vec<(String, Vec<String>)> {
    script
        .asked()
        .into_iter()
        .filter_map(|asked| match asked {
            ElicitRequestParams::FormElicitationParams {
                message,
                requested_schema,
                ..
            } => {
                let schema = serde_json::to_value(requested_schema).unwrap();
                let ids = schema["properties"]["grant"]["oneOf"]
                    .as_array()?
                    .iter()
                    .filter_map(|o| o["const"].as_str().map(str::to_owned))
                    .collect();
                Some((message, ids))
            }
            _ => None,
        })
        .collect()
}

/// A session on 2025-11-25 with a client that answers forms (`forms`)
/// and shares no roots.
async fn session(tree: &Tree, forms: bool) -> (Connection<NoServer>, ScriptedClient) {
    let script = ScriptedClient::new(false, forms);
    let conn = start(&tree.args(), &script).await;
    (conn, script)
}

/// A 2026-07-28 client that answers forms and shares no roots.
async fn modern_session(tree: &Tree) -> (Connection<NoServer>, ScriptedClient) {
    let script = ScriptedClient::new(false, true).speaking(ProtocolVersion::V_2026_07_28);
    let conn = Connection::spawn(binary(), &tree.args(), script.clone(), modern_lifecycle())
        .await
        .expect("the server starts");
    (conn, script)
}

#[tokio::test]
async fn past_the_area_and_hidden_paths_are_refused_without_a_question() {
    let tree = Tree::new();
    let (conn, script) = session(&tree, true).await;
    let c = &conn.client;
    let outside = read(c, &tree.at("outside/x.md")).await;
    // Nothing is shared or granted yet: the set is empty.
    assert_eq!(reason(&outside).as_deref(), Some("no_roots"), "{outside:?}");
    // The sentence says what may still be granted, not only that nothing
    // is shared.
    let sentence = text_of(&outside);
    assert!(
        sentence.contains("serves what the user grants") && sentence.contains(&tree.at("area")),
        "{sentence}"
    );
    let hidden = read(c, &tree.at("area/key.pem")).await;
    assert_eq!(reason(&hidden).as_deref(), Some("hidden"), "{hidden:?}");
    let listed = call(c, "list_directory", json!({ "path": tree.at("outside") })).await;
    assert!(failed(&listed), "{listed:?}");
    assert!(script.asked().is_empty(), "nothing was asked");
    assert!(!text_of(&outside).contains("x\n"), "no content leaked");
    assert!(conn.close().await);
}

#[tokio::test]
async fn a_grant_for_the_call_is_asked_again_next_call() {
    let tree = Tree::new();
    let (conn, script) = session(&tree, true).await;
    let c = &conn.client;
    let a = tree.at("area/a.md");
    for round in 1..=2 {
        script.pick("grant", "this call");
        let got = read(c, &a).await;
        assert_eq!(text_of(&got), "alpha", "round {round}: {got:?}");
        let asked = forms(&script);
        assert_eq!(asked.len(), round, "one question a call");
        let (message, ids) = &asked[round - 1];
        assert!(message.contains(&a), "{message}");
        assert_eq!(ids, &["call", "session", "no"]);
    }
    let listed = call(c, "list_allowed_directories", json!({})).await;
    assert!(
        !text_of(&listed).contains("Granted by the user"),
        "{listed:?}"
    );
    assert!(conn.close().await);
}

#[tokio::test]
async fn a_grant_for_the_session_is_not_asked_again_and_is_listed() {
    let tree = Tree::new();
    let (conn, script) = session(&tree, true).await;
    let c = &conn.client;
    let notes = tree.at("area/notes");
    script.pick("grant", "this session");
    let listed = call(c, "list_directory", json!({ "path": notes })).await;
    assert_eq!(text_of(&listed), "[FILE] n.md", "{listed:?}");
    let got = read(c, &format!("{notes}/n.md")).await;
    assert_eq!(text_of(&got), "note", "{got:?}");
    let tree_of = call(c, "directory_tree", json!({ "path": notes })).await;
    assert!(!failed(&tree_of), "{tree_of:?}");
    assert_eq!(forms(&script).len(), 1, "the session grant asks once");
    let allowed = text_of(&call(c, "list_allowed_directories", json!({})).await);
    assert!(
        allowed.contains(&format!(
            "Granted by the user (this session):\n{notes} (directory, read)"
        )),
        "{allowed}"
    );
    // Past the area, with a grant in the set: outside_roots, no question.
    let outside = read(c, &tree.at("outside/x.md")).await;
    assert_eq!(
        reason(&outside).as_deref(),
        Some("outside_roots"),
        "{outside:?}"
    );
    assert_eq!(forms(&script).len(), 1);
    // A sibling of the grant is asked about anew.
    script.answer(decline());
    let sibling = read(c, &tree.at("area/a.md")).await;
    assert_eq!(reason(&sibling).as_deref(), Some("grant_declined"));
    assert_eq!(forms(&script).len(), 2);
    assert!(conn.close().await);
}

#[tokio::test]
async fn a_no_is_remembered_for_the_session() {
    let tree = Tree::new();
    let (conn, script) = session(&tree, true).await;
    let c = &conn.client;
    let a = tree.at("area/a.md");
    script.answer(decline());
    let first = read(c, &a).await;
    assert_eq!(
        reason(&first).as_deref(),
        Some("grant_declined"),
        "{first:?}"
    );
    // Another spelling, another tool, a change: the same "no".
    let spelled = tree.at("area/notes/../a.md");
    let again = call(c, "get_file_info", json!({ "path": spelled })).await;
    assert_eq!(
        reason(&again).as_deref(),
        Some("grant_declined"),
        "{again:?}"
    );
    let write = call(c, "write_file", json!({ "path": a, "content": "z" })).await;
    assert_eq!(
        reason(&write).as_deref(),
        Some("grant_declined"),
        "{write:?}"
    );
    assert_eq!(forms(&script).len(), 1, "asked once");
    assert_eq!(std::fs::read_to_string(&a).unwrap(), "alpha");
    assert!(conn.close().await);
}

#[tokio::test]
async fn a_read_only_pattern_stays_read_only_inside_a_writable_grant() {
    let tree = Tree::new();
    let (conn, script) = session(&tree, true).await;
    let c = &conn.client;
    let notes = tree.at("area/notes");
    script.pick("grant", "this session");
    let made = call(c, "create_directory", json!({ "path": notes })).await;
    assert!(!failed(&made), "{made:?}");
    let allowed = text_of(&call(c, "list_allowed_directories", json!({})).await);
    assert!(
        allowed.contains(&format!("{notes} (directory, read and change)")),
        "{allowed}"
    );
    let new = format!("{notes}/new.md");
    let written = call(c, "write_file", json!({ "path": new, "content": "w" })).await;
    assert!(!failed(&written), "{written:?}");
    assert_eq!(std::fs::read_to_string(&new).unwrap(), "w");
    let lock = format!("{notes}/x.lock");
    let refused = call(c, "write_file", json!({ "path": lock, "content": "w" })).await;
    assert_eq!(
        reason(&refused).as_deref(),
        Some("read_only"),
        "{refused:?}"
    );
    assert!(!std::path::Path::new(&lock).exists());
    assert_eq!(forms(&script).len(), 1, "the writable grant asked once");
    assert!(conn.close().await);
}

#[tokio::test]
async fn a_client_without_forms_gets_outside_roots_with_the_sentence() {
    let tree = Tree::new();
    let (conn, script) = session(&tree, false).await;
    let c = &conn.client;
    for path in [tree.at("area/a.md"), tree.at("area/missing.md")] {
        let got = read(c, &path).await;
        assert_eq!(reason(&got).as_deref(), Some("outside_roots"), "{got:?}");
        assert!(
            text_of(&got).contains("Ask the user to add the folder"),
            "{got:?}"
        );
    }
    assert!(script.asked().is_empty());
    assert!(conn.close().await);
}

/// `move_file` declares both paths and asks once. A file grant is that
/// file's content, never where it is: moving a granted file is refused
/// `read_only`; a move inside a writable directory grant is served.
#[tokio::test]
async fn move_file_asks_once_for_both_paths() {
    let tree = Tree::new();
    let (conn, script) = session(&tree, true).await;
    let c = &conn.client;
    let (from, to) = (tree.at("area/a.md"), tree.at("area/b.md"));
    script.pick("grant", "this call");
    let moved = call(c, "move_file", json!({ "source": from, "destination": to })).await;
    let asked = forms(&script);
    assert_eq!(asked.len(), 1, "one question for both paths");
    assert!(
        asked[0].0.contains(&from) && asked[0].0.contains(&to),
        "{}",
        asked[0].0
    );
    assert_eq!(reason(&moved).as_deref(), Some("read_only"), "{moved:?}");
    assert_eq!(std::fs::read_to_string(&from).unwrap(), "alpha");
    // A writable directory grant for the session: moves inside it ask
    // nothing more.
    let notes = tree.at("area/notes");
    script.pick("grant", "this session");
    let made = call(c, "create_directory", json!({ "path": notes })).await;
    assert!(!failed(&made), "{made:?}");
    let (n, m) = (format!("{notes}/n.md"), format!("{notes}/m.md"));
    let inside = call(c, "move_file", json!({ "source": n, "destination": m })).await;
    assert!(!failed(&inside), "{inside:?}");
    assert_eq!(std::fs::read_to_string(&m).unwrap(), "note");
    // copy_file: one question, read the source, change the target.
    script.pick("grant", "this call");
    let copied = call(
        c,
        "copy_file",
        json!({ "source": from, "destination": format!("{notes}/c.md") }),
    )
    .await;
    assert!(!failed(&copied), "{copied:?}");
    assert_eq!(forms(&script).len(), 3);
    assert!(conn.close().await);
}

#[tokio::test]
async fn on_2026_07_28_only_this_call_is_offered() {
    let tree = Tree::new();
    let (conn, script) = modern_session(&tree).await;
    let c = &conn.client;
    let a = tree.at("area/a.md");
    script.pick("grant", "this call");
    let got = read(c, &a).await;
    assert_eq!(text_of(&got), "alpha", "{got:?}");
    let asked = forms(&script);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].1, ["call", "no"]);
    let hidden = read(c, &tree.at("area/key.pem")).await;
    assert_eq!(reason(&hidden).as_deref(), Some("hidden"), "{hidden:?}");
    assert_eq!(forms(&script).len(), 1);
    assert!(conn.close().await);
}

/// With a DIR, the area must lie inside it: one outside grants nothing
/// (the core refuses it at admission and logs it), so nothing is asked.
#[tokio::test]
async fn an_area_outside_the_directories_grants_nothing() {
    let tree = Tree::new();
    let script = ScriptedClient::new(false, true);
    let mut args = tree.args();
    args.push(tree.at("outside"));
    let conn = start(&args, &script).await;
    let c = &conn.client;
    let served = read(c, &tree.at("outside/x.md")).await;
    assert_eq!(text_of(&served), "x", "{served:?}");
    let area = read(c, &tree.at("area/a.md")).await;
    assert_eq!(reason(&area).as_deref(), Some("outside_roots"), "{area:?}");
    assert!(script.asked().is_empty(), "nothing was asked");
    assert!(conn.close().await);
}

/// `read_multiple_files` asks once for all its paths outside the roots.
#[tokio::test]
async fn read_multiple_files_asks_once_for_all_its_paths() {
    let tree = Tree::new();
    let (conn, script) = session(&tree, true).await;
    let c = &conn.client;
    let paths = [tree.at("area/a.md"), tree.at("area/notes/n.md")];
    script.pick("grant", "this call");
    let got = call(c, "read_multiple_files", json!({ "paths": paths })).await;
    let text = text_of(&got);
    assert!(text.contains("alpha") && text.contains("note"), "{text}");
    let asked = forms(&script);
    assert_eq!(asked.len(), 1, "one question for both");
    assert!(paths.iter().all(|p| asked[0].0.contains(p.as_str())));
    assert!(conn.close().await);
}

/// `--confirm` after a grant: the grant question, then the confirmation
/// (two questions in the call), on both eras.
#[tokio::test]
async fn confirm_asks_after_the_grant_on_both_eras() {
    let tree = Tree::new();
    let mut args = tree.args();
    args.push("--confirm".to_owned());
    for (version, lifecycle) in [
        (
            ProtocolVersion::V_2025_11_25,
            rmcp::ClientLifecycleMode::Initialize,
        ),
        (ProtocolVersion::V_2026_07_28, modern_lifecycle()),
    ] {
        let script = ScriptedClient::new(false, true).speaking(version.clone());
        let conn: Connection<NoServer> =
            Connection::spawn(binary(), &args, script.clone(), lifecycle)
                .await
                .expect("the server starts");
        let a = tree.at("area/a.md");
        script.pick("grant", "this call");
        script.answer(accept(json!({ "confirm": true })));
        let written = call(
            &conn.client,
            "write_file",
            json!({ "path": a, "content": "beta" }),
        )
        .await;
        assert!(!failed(&written), "{version:?}: {written:?}");
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "beta");
        assert_eq!(script.asked().len(), 2, "{version:?}");
        std::fs::write(&a, "alpha").unwrap();
        assert!(conn.close().await);
    }
}

/// A `file:` URI as a resource is what a tool's path is: in the area it is
/// asked about (the question names `resources/read`), past the area or
/// hidden it is refused without a question; a grant for the session
/// serves the tools too.
#[tokio::test]
async fn a_resource_read_is_asked_about_as_a_tool_path_is() {
    let tree = Tree::new();
    let (conn, script) = session(&tree, true).await;
    let c = &conn.client;
    let uri = |rel: &str| format!("file://{}", tree.at(rel));
    script.pick("grant", "this session");
    let read = c
        .read_resource(ReadResourceRequestParams::new(uri("area/notes/n.md")))
        .await
        .expect("granted and read");
    let ResourceContents::TextResourceContents { text, .. } = &read.contents[0] else {
        panic!("{read:?}");
    };
    assert_eq!(text, "note");
    let asked = forms(&script);
    assert_eq!(asked.len(), 1);
    assert!(asked[0].0.contains("resources/read"), "{}", asked[0].0);
    assert_eq!(asked[0].1, ["call", "session", "no"]);
    // The session's grant serves a tool without a question.
    let by_tool = call(
        c,
        "read_text_file",
        json!({ "path": tree.at("area/notes/n.md") }),
    )
    .await;
    assert_eq!(text_of(&by_tool), "note", "{by_tool:?}");
    for (rel, want) in [
        ("area/key.pem", "hidden"),
        ("outside/x.md", "outside_roots"),
    ] {
        let refused = c
            .read_resource(ReadResourceRequestParams::new(uri(rel)))
            .await
            .expect_err("refused");
        let ServiceError::McpError(error) = refused else {
            panic!("{rel}: {refused:?}");
        };
        assert_eq!(
            error.data.as_ref().unwrap()["reason"],
            want,
            "{rel}: {error:?}"
        );
    }
    assert_eq!(forms(&script).len(), 1, "nothing more was asked");
    assert!(conn.close().await);
}

/// On 2026-07-28 a read's grant question is a round of its own, whose
/// state is bound to the URI: it serves no other read.
#[tokio::test]
async fn on_2026_07_28_a_read_asks_in_rounds_bound_to_its_uri() {
    let tree = Tree::new();
    let (conn, script) = modern_session(&tree).await;
    let c = &conn.client;
    let a = format!("file://{}", tree.at("area/a.md"));
    let n = format!("file://{}", tree.at("area/notes/n.md"));
    script.pick("grant", "this call");
    let read = c
        .read_resource(ReadResourceRequestParams::new(a.as_str()))
        .await
        .expect("granted for the call and read");
    let ResourceContents::TextResourceContents { text, .. } = &read.contents[0] else {
        panic!("{read:?}");
    };
    assert_eq!(text, "alpha");
    assert_eq!(forms(&script)[0].1, ["call", "no"]);

    // By hand: the roots round, then the question's round with its state.
    let question = |uri: String| async move {
        match read_resource_round(c, &uri, Some(&[]), None).await {
            Ok(ReadResourceResponse::InputRequired(asked)) => {
                let keys: Vec<&String> = asked
                    .input_requests
                    .iter()
                    .flatten()
                    .map(|(k, _)| k)
                    .collect();
                assert_eq!(keys.len(), 1, "{asked:?}");
                assert_ne!(keys[0], "roots", "{asked:?}");
                asked
                    .request_state
                    .expect("the question's round carries a state")
            }
            other => panic!("{uri}: {other:?}"),
        }
    };
    let for_a = question(a.clone()).await;
    let moved = read_resource_round(c, &n, Some(&[]), Some(&for_a))
        .await
        .expect_err("a state bound to another URI");
    assert_eq!(
        moved.data.as_ref().unwrap()["reason"],
        "invalid_request_state"
    );
    assert!(conn.close().await);
}

/// A folder the user let read, then a change inside it: the question is
/// about changing the folder (the grant that judges the change), and a
/// yes replaces the read grant; a no leaves it read-only and unchanged.
#[tokio::test]
async fn a_change_inside_a_folder_granted_for_reading_asks_to_change_the_folder() {
    let tree = Tree::new();
    let (conn, script) = session(&tree, true).await;
    let c = &conn.client;
    let notes = tree.at("area/notes");
    let n = tree.at("area/notes/n.md");
    script.pick("grant", "this session");
    let listed = call(c, "list_directory", json!({ "path": notes })).await;
    assert!(text_of(&listed).contains("n.md"), "{listed:?}");
    // The read grant serves reads without a question.
    assert_eq!(text_of(&read(c, &n).await), "note");
    assert_eq!(forms(&script).len(), 1);

    script.answer(decline());
    let kept = call(c, "write_file", json!({ "path": n, "content": "no" })).await;
    assert_eq!(reason(&kept).as_deref(), Some("grant_declined"), "{kept:?}");
    assert_eq!(std::fs::read_to_string(&n).unwrap(), "note");
    let asked = forms(&script);
    assert_eq!(asked.len(), 2);
    assert!(
        asked[1]
            .0
            .contains(&format!("change the directory {notes}")),
        "{}",
        asked[1].0
    );
    // The "no" is for changing; reading the folder still works.
    assert_eq!(text_of(&read(c, &n).await), "note");
    assert!(conn.close().await);

    let (conn, script) = session(&tree, true).await;
    let c = &conn.client;
    script.pick("grant", "this session");
    call(c, "list_directory", json!({ "path": notes })).await;
    script.pick("grant", "this session");
    let wrote = call(c, "write_file", json!({ "path": n, "content": "yes" })).await;
    assert!(!failed(&wrote), "{wrote:?}");
    assert_eq!(std::fs::read_to_string(&n).unwrap(), "yes");
    let again = call(
        c,
        "write_file",
        json!({ "path": tree.at("area/notes/m.md"), "content": "m" }),
    )
    .await;
    assert!(!failed(&again), "{again:?}");
    assert_eq!(forms(&script).len(), 2, "the folder may be changed now");
    let allowed = text_of(&call(c, "list_allowed_directories", json!({})).await);
    assert!(
        allowed.contains(&format!("{notes} (directory, read and change)")),
        "{allowed}"
    );
    assert!(!allowed.contains("(directory, read)"), "{allowed}");
    assert!(conn.close().await);
}

/// `create_directory` of a new folder asks about changing the existing
/// folder it is made in (a grant names something that exists), and of an
/// existing folder about changing that folder; either way the directory is
/// made, and a session grant of the folder lets the next change in.
#[tokio::test]
async fn create_directory_asks_about_the_folder_it_is_made_in() {
    let tree = Tree::new();
    let (conn, script) = session(&tree, true).await;
    let c = &conn.client;
    let notes = tree.at("area/notes");
    let deep = tree.at("area/notes/new/deeper");
    script.pick("grant", "this call");
    let made = call(c, "create_directory", json!({ "path": deep })).await;
    assert!(!failed(&made), "{made:?}");
    assert!(std::path::Path::new(&deep).is_dir());
    let asked = forms(&script);
    assert_eq!(asked.len(), 1);
    assert!(
        asked[0]
            .0
            .contains(&format!("change the directory {notes}")),
        "{}",
        asked[0].0
    );
    // An existing folder: asked about itself, for the session.
    script.pick("grant", "this session");
    let again = call(
        c,
        "create_directory",
        json!({ "path": tree.at("area/notes/new") }),
    )
    .await;
    assert!(!failed(&again), "{again:?}");
    let asked = forms(&script);
    assert!(
        asked[1].0.contains(&format!(
            "change the directory {}",
            tree.at("area/notes/new")
        )),
        "{}",
        asked[1].0
    );
    let inside = call(
        c,
        "write_file",
        json!({ "path": tree.at("area/notes/new/f.md"), "content": "f" }),
    )
    .await;
    assert!(!failed(&inside), "{inside:?}");
    assert_eq!(forms(&script).len(), 2, "the session grant lets it in");
    // Past the area: refused without a question.
    let past = call(
        c,
        "create_directory",
        json!({ "path": tree.at("outside/new") }),
    )
    .await;
    assert!(failed(&past), "{past:?}");
    assert!(!std::path::Path::new(&tree.at("outside/new")).exists());
    assert_eq!(forms(&script).len(), 2);
    assert!(conn.close().await);
}
