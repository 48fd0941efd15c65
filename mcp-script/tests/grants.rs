//! Grants by the user's answer through the glue (`SessionRoots::serve_needing`,
//! `Ask::need`) against rmcp's client (the scripted one), in process, on
//! the session revisions and on 2026-07-28: for the call, for the
//! session, declined, cancelled, a client without forms, a change after a
//! read grant, hidden paths, a directory grant's reach, the "no"
//! remembered across spellings, the rate, concurrent calls, and the end
//! of the session.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcp_roots::{Patterns, Roots, RootsBuilder, TrackedFile};
use mcp_roots_rmcp::{Needs, SessionRoots, ToolCall};
use mcp_script::{Client, ScriptedClient, cancel, connect, connect_modern, decline, text_of};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResponse, CallToolResult, ContentBlock, ElicitRequestParams, ProtocolVersion,
    ServerCapabilities, ServerConfig,
};
use rmcp::serde_json::{Value, json};
use rmcp::service::NotificationContext;
use rmcp::{RoleServer, ServerHandler, tool, tool_handler, tool_router};
use tempfile::TempDir;

#[derive(Debug, rmcp::serde::Deserialize, rmcp::schemars::JsonSchema)]
#[serde(crate = "rmcp::serde")]
#[schemars(crate = "rmcp::schemars")]
struct PathArgs {
    path: String,
}

#[derive(Debug, rmcp::serde::Deserialize, rmcp::schemars::JsonSchema)]
#[serde(crate = "rmcp::serde")]
#[schemars(crate = "rmcp::schemars")]
struct PathsArgs {
    paths: Vec<String>,
}

#[derive(Debug, rmcp::serde::Deserialize, rmcp::schemars::JsonSchema)]
#[serde(crate = "rmcp::serde")]
#[schemars(crate = "rmcp::schemars")]
struct WriteArgs {
    path: String,
    text: String,
}

/// Tools that declare their paths: `read`, `read_many`, `list`, `write`,
/// and `keep` (opens a file and keeps it past the call).
#[derive(Clone)]
struct Server {
    roots: SessionRoots,
    kept: Arc<Mutex<Option<TrackedFile>>>,
    tool_router: ToolRouter<Server>,
}

#[tool_router]
impl Server {
    #[tool(description = "Read a text file")]
    async fn read(&self, call: ToolCall, Parameters(a): Parameters<PathArgs>) -> CallToolResponse {
        let needs = Needs::new().read(&a.path);
        self.roots
            .serve_needing(call, needs, move |snap| {
                Ok(text(&snap.read_to_string(&a.path)?))
            })
            .await
    }

    #[tool(description = "Read several text files")]
    async fn read_many(
        &self,
        call: ToolCall,
        Parameters(a): Parameters<PathsArgs>,
    ) -> CallToolResponse {
        let needs = a.paths.iter().fold(Needs::new(), |n, p| n.read(p));
        self.roots
            .serve_blocking_needing(call, needs, move |snap| {
                let mut all = Vec::new();
                for path in &a.paths {
                    all.push(snap.read_to_string(path)?);
                }
                Ok(text(&all.join("+")))
            })
            .await
    }

    #[tool(description = "List a directory")]
    async fn list(&self, call: ToolCall, Parameters(a): Parameters<PathArgs>) -> CallToolResponse {
        let needs = Needs::new().read(&a.path);
        self.roots
            .serve_needing(call, needs, move |snap| {
                let mut names = Vec::new();
                for entry in snap.read_dir(&a.path)? {
                    names.push(entry?.name().to_string_lossy().into_owned());
                }
                names.sort();
                Ok(text(&names.join(",")))
            })
            .await
    }

    #[tool(description = "Replace a file's text")]
    async fn write(
        &self,
        call: ToolCall,
        Parameters(a): Parameters<WriteArgs>,
    ) -> CallToolResponse {
        let needs = Needs::new().change(&a.path);
        self.roots
            .serve_needing(call, needs, move |snap| {
                snap.write_atomic(&a.path, a.text.as_bytes())?;
                Ok(text("written"))
            })
            .await
    }

    #[tool(description = "Open a file and keep it past the call")]
    async fn keep(&self, call: ToolCall, Parameters(a): Parameters<PathArgs>) -> CallToolResponse {
        let kept = self.kept.clone();
        let needs = Needs::new().read(&a.path);
        self.roots
            .serve_needing(call, needs, move |snap| {
                *kept.lock().unwrap() = Some(snap.open(&a.path)?);
                Ok(text("kept"))
            })
            .await
    }
}

fn text(s: &str) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(s)])
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
    async fn on_initialized(&self, cx: NotificationContext<RoleServer>) {
        self.roots.on_initialized(&cx.peer).await;
    }
    async fn on_roots_list_changed(&self, cx: NotificationContext<RoleServer>) {
        self.roots.on_list_changed(&cx.peer).await;
    }
}

/// `shared/s.md`; the area `area/` with `other.md`, `key.pem` (hidden),
/// `notes/n.md`, `notes/m.md`; `outside/x.md` past the area.
fn tree() -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    for folder in ["shared", "area/notes", "outside"] {
        std::fs::create_dir_all(dir.path().join(folder)).unwrap();
    }
    for (file, body) in [
        ("shared/s.md", "shared"),
        ("area/other.md", "other"),
        ("area/key.pem", "secret"),
        ("area/notes/n.md", "n"),
        ("area/notes/m.md", "m"),
        ("outside/x.md", "x"),
    ] {
        std::fs::write(dir.path().join(file), body).unwrap();
    }
    dir
}

fn at(dir: &Path, rel: &str) -> String {
    format!("{}/{rel}", dir.display())
}

fn policy(dir: &Path) -> RootsBuilder {
    Roots::builder()
        .ceiling([dir.to_str().unwrap()])
        .hide(Patterns::parse(["*.pem"]).unwrap())
        .ask_within([at(dir, "area")])
}

const MODERN: ProtocolVersion = ProtocolVersion::V_2026_07_28;

/// A server on `roots` and a client (sharing `shared/`, with forms if
/// `forms`) on `version`'s lifecycle.
async fn start(
    dir: &Path,
    roots: SessionRoots,
    version: ProtocolVersion,
    forms: bool,
) -> (Client, ScriptedClient, Server) {
    let script = ScriptedClient::new(true, forms).speaking(version.clone());
    script.set_root_uris(&[&format!("file://{}", at(dir, "shared"))]);
    let server = Server {
        roots,
        kept: Arc::default(),
        tool_router: Server::tool_router(),
    };
    let client = if version.has_initialize() {
        let (running, client) = connect(server.clone(), script.clone()).await.unwrap();
        tokio::spawn(async move { running.waiting().await });
        let listed = script.roots_answered(1, Duration::from_secs(5)).await;
        assert!(listed, "the first roots/list was answered");
        client
    } else {
        let (running, client) = connect_modern(server.clone(), script.clone())
            .await
            .unwrap();
        tokio::spawn(async move {
            if let Ok(Ok(running)) = running.await {
                let _ = running.waiting().await;
            }
        });
        client
    };
    (client, script, server)
}

async fn call(client: &Client, tool: &'static str, args: Value) -> CallToolResult {
    mcp_script::call(client, tool, args).await.unwrap()
}

/// The text of a success, or `refused:<reason>`.
fn said(result: &CallToolResult) -> String {
    match result.is_error {
        Some(true) => {
            let reason = result
                .structured_content
                .as_ref()
                .map(|s| s["reason"].clone());
            format!(
                "refused:{}",
                reason.unwrap_or_default().as_str().unwrap_or("?")
            )
        }
        _ => text_of(result),
    }
}

async fn read(client: &Client, path: &str) -> String {
    said(&call(client, "read", json!({ "path": path })).await)
}

/// The forms asked so far: their messages and their choices' ids.
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
                let schema = rmcp::serde_json::to_value(requested_schema).unwrap();
                let ids = schema["properties"]["grant"]["oneOf"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|o| o["const"].as_str().unwrap().to_owned())
                    .collect();
                Some((message, ids))
            }
            _ => None,
        })
        .collect()
}

const SESSIONS: [ProtocolVersion; 2] =
    [ProtocolVersion::V_2025_06_18, ProtocolVersion::V_2025_11_25];

#[tokio::test]
async fn accepted_for_the_call_on_both_eras_then_asked_again() {
    let dir = tree();
    let other = at(dir.path(), "area/other.md");
    for version in SESSIONS.into_iter().chain([MODERN]) {
        let roots = SessionRoots::new(policy(dir.path()));
        let (c, script, server) = start(dir.path(), roots, version.clone(), true).await;
        assert_eq!(read(&c, &at(dir.path(), "shared/s.md")).await, "shared");
        assert!(
            script.asked().is_empty(),
            "{version:?}: a shared path asks nothing"
        );
        script.pick("grant", "this call");
        assert_eq!(read(&c, &other).await, "other", "{version:?}");
        let asked = forms(&script);
        assert_eq!(asked.len(), 1, "{version:?}");
        let (message, ids) = &asked[0];
        assert!(message.contains("\"read\""), "{message}");
        assert!(
            message.contains(&format!("read the file {other}")),
            "{message}"
        );
        let expected: &[&str] = match version.has_initialize() {
            true => &["call", "session", "no"],
            // No session on 2026-07-28: only this call is offered.
            false => &["call", "no"],
        };
        assert_eq!(ids, expected, "{version:?}");
        // Nothing was installed: the next call asks again.
        assert!(server.roots.roots().grants().is_empty());
        script.answer(decline());
        assert_eq!(
            read(&c, &other).await,
            "refused:grant_declined",
            "{version:?}"
        );
        assert_eq!(forms(&script).len(), 2, "{version:?}");
    }
}

#[tokio::test]
async fn accepted_for_the_session_is_kept_across_list_changed_and_not_shared() {
    let dir = tree();
    let other = at(dir.path(), "area/other.md");
    for version in SESSIONS {
        let roots = SessionRoots::new(policy(dir.path()));
        let (c, script, server) = start(dir.path(), roots, version.clone(), true).await;
        script.pick("grant", "this session");
        assert_eq!(read(&c, &other).await, "other");
        assert_eq!(read(&c, &other).await, "other");
        assert_eq!(forms(&script).len(), 1, "the session grant asks once");
        let grants = server.roots.roots().grants();
        assert_eq!(grants.len(), 1);
        assert_eq!(
            grants[0].1.path(),
            dir.path().join("area/other.md").canonicalize().unwrap()
        );
        // The client changes its roots: the grant stays.
        let generation = server.roots.roots().generation();
        script.set_root_uris(&[]);
        c.notify_roots_list_changed().await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while server.roots.roots().generation() == generation {
            assert!(Instant::now() < deadline, "the new list never landed");
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        assert_eq!(read(&c, &other).await, "other");
        assert_eq!(server.roots.roots().grants().len(), 1);
        // The empty list after sharing is still "no folder shared": the
        // grant does not count as the client having shared.
        assert!(
            server.roots.roots().has_shared(),
            "the client listed shared/ before"
        );
        assert_eq!(
            read(&c, &at(dir.path(), "shared/s.md")).await,
            "refused:outside_roots"
        );
        assert_eq!(
            forms(&script).len(),
            1,
            "shared/ is outside the area: not asked"
        );
    }
}

#[tokio::test]
async fn a_no_is_remembered_across_spellings_and_for_changes() {
    let dir = tree();
    let roots = SessionRoots::new(policy(dir.path()));
    let (c, script, _server) = start(dir.path(), roots, ProtocolVersion::V_2025_11_25, true).await;
    script.answer(decline());
    assert_eq!(
        read(&c, &at(dir.path(), "area/other.md")).await,
        "refused:grant_declined"
    );
    for spelling in [
        "area/notes/../other.md",
        "area/./other.md",
        "area//other.md",
    ] {
        let path = at(dir.path(), spelling);
        assert_eq!(
            read(&c, &path).await,
            "refused:grant_declined",
            "{spelling}"
        );
        let uri = format!("file://{path}");
        assert_eq!(read(&c, &uri).await, "refused:grant_declined", "{uri}");
    }
    // A no to reading is a no to changing.
    let wrote = call(
        &c,
        "write",
        json!({ "path": at(dir.path(), "area/other.md"), "text": "t" }),
    );
    assert_eq!(said(&wrote.await), "refused:grant_declined");
    assert_eq!(forms(&script).len(), 1);
    assert!(
        text_of(
            &call(
                &c,
                "read",
                json!({ "path": at(dir.path(), "area/other.md") })
            )
            .await
        )
        .contains("earlier in this session")
    );
    // Another file is another question.
    script.pick("grant", "this call");
    assert_eq!(read(&c, &at(dir.path(), "area/notes/n.md")).await, "n");
    assert_eq!(forms(&script).len(), 2);
}

#[tokio::test]
async fn a_cancelled_question_refuses_the_call_and_is_not_remembered() {
    let dir = tree();
    let other = at(dir.path(), "area/other.md");
    for version in [ProtocolVersion::V_2025_11_25, MODERN] {
        let roots = SessionRoots::new(policy(dir.path()));
        let (c, script, _server) = start(dir.path(), roots, version.clone(), true).await;
        script.answer(cancel());
        assert_eq!(
            read(&c, &other).await,
            "refused:grant_cancelled",
            "{version:?}"
        );
        script.pick("grant", "this call");
        assert_eq!(read(&c, &other).await, "other", "{version:?}");
        assert_eq!(forms(&script).len(), 2);
    }
}

#[tokio::test]
async fn a_client_without_forms_is_asked_nothing_and_told_to_ask_the_user() {
    let dir = tree();
    let other = at(dir.path(), "area/other.md");
    let cases = [
        (ProtocolVersion::V_2025_11_25, false),
        (ProtocolVersion::V_2025_03_26, true),
        (MODERN, false),
    ];
    for (version, forms_declared) in cases {
        let roots = SessionRoots::new(policy(dir.path()));
        let (c, script, _server) = start(dir.path(), roots, version.clone(), forms_declared).await;
        let result = call(&c, "read", json!({ "path": other })).await;
        assert_eq!(said(&result), "refused:outside_roots", "{version:?}");
        assert!(
            text_of(&result).contains("restart the server"),
            "{result:?}"
        );
        assert!(script.asked().is_empty(), "{version:?}");
        // A missing file of the area: the same answer (no existence oracle).
        let missing = call(
            &c,
            "read",
            json!({ "path": at(dir.path(), "area/nope.md") }),
        )
        .await;
        assert_eq!(said(&missing), "refused:outside_roots");
        assert!(
            text_of(&missing).contains("restart the server"),
            "{missing:?}"
        );
        // Past the area: the roots' own refusal, no sentence about asking.
        let past = call(
            &c,
            "read",
            json!({ "path": at(dir.path(), "outside/x.md") }),
        )
        .await;
        assert_eq!(said(&past), "refused:outside_roots");
        assert!(!text_of(&past).contains("restart the server"), "{past:?}");
    }
}

#[tokio::test]
async fn hidden_and_past_the_area_are_refused_without_a_question() {
    let dir = tree();
    for version in [ProtocolVersion::V_2025_11_25, MODERN] {
        let roots = SessionRoots::new(policy(dir.path()));
        let (c, script, _server) = start(dir.path(), roots, version.clone(), true).await;
        for (rel, reason) in [
            ("area/key.pem", "refused:hidden"),
            ("area/absent.pem", "refused:hidden"),
            ("area/notes/../key.pem", "refused:hidden"),
            ("outside/x.md", "refused:outside_roots"),
            ("area/../outside/x.md", "refused:outside_roots"),
            // Missing in the area (its folder too: a new name in an
            // existing folder may be asked about): the roots' refusal, not
            // `not_found`.
            ("area/none/nope.md", "refused:outside_roots"),
            ("area/notes/none/nope.md", "refused:outside_roots"),
        ] {
            assert_eq!(
                read(&c, &at(dir.path(), rel)).await,
                reason,
                "{version:?} {rel}"
            );
        }
        // One hidden path of several: nothing is asked for the others.
        let both = [
            at(dir.path(), "area/other.md"),
            at(dir.path(), "area/key.pem"),
        ];
        let result = call(&c, "read_many", json!({ "paths": both })).await;
        assert_eq!(said(&result), "refused:hidden");
        assert!(script.asked().is_empty(), "{version:?}");
    }
}

#[tokio::test]
async fn several_paths_take_one_question() {
    let dir = tree();
    for version in [ProtocolVersion::V_2025_06_18, MODERN] {
        let roots = SessionRoots::new(policy(dir.path()));
        let (c, script, _server) = start(dir.path(), roots, version.clone(), true).await;
        script.pick("grant", "this call");
        let paths = [
            at(dir.path(), "area/notes/n.md"),
            at(dir.path(), "shared/s.md"),
            at(dir.path(), "area/notes/m.md"),
            at(dir.path(), "area/notes/./n.md"),
        ];
        let result = call(&c, "read_many", json!({ "paths": paths })).await;
        assert_eq!(said(&result), "n+shared+m+n", "{version:?}");
        let asked = forms(&script);
        assert_eq!(asked.len(), 1, "{version:?}");
        let message = &asked[0].0;
        assert_eq!(message.matches("\n- read the file").count(), 2, "{message}");
        assert!(!message.contains("shared/s.md"), "{message}");
    }
}

#[tokio::test]
async fn a_change_after_a_read_grant_takes_a_second_question() {
    let dir = tree();
    let other = at(dir.path(), "area/other.md");
    let roots = SessionRoots::new(policy(dir.path()));
    let (c, script, server) = start(dir.path(), roots, ProtocolVersion::V_2025_11_25, true).await;
    script.pick("grant", "this session");
    assert_eq!(read(&c, &other).await, "other");
    // The read grant does not let it change: a question for change.
    script.answer(decline());
    let write = |t: &str| call(&c, "write", json!({ "path": other, "text": t }));
    assert_eq!(said(&write("1").await), "refused:grant_declined");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("area/other.md")).unwrap(),
        "other"
    );
    // Reading still works (the no was for changing).
    assert_eq!(read(&c, &other).await, "other");
    assert_eq!(forms(&script).len(), 2);
    // A fresh session: yes to the change, which replaces the read grant.
    let roots = SessionRoots::new(policy(dir.path()));
    let (c, script, server2) = start(dir.path(), roots, ProtocolVersion::V_2025_11_25, true).await;
    drop(server);
    script.pick("grant", "this session");
    assert_eq!(read(&c, &other).await, "other");
    script.pick("grant", "this session");
    let wrote = call(&c, "write", json!({ "path": other, "text": "changed" })).await;
    assert_eq!(said(&wrote), "written");
    let asked = forms(&script);
    assert_eq!(asked.len(), 2);
    assert!(
        asked[1].0.contains(&format!("change the file {other}")),
        "{}",
        asked[1].0
    );
    let grants = server2.roots.roots().grants();
    assert_eq!(grants.len(), 1);
    assert_eq!(grants[0].1.access().as_str(), "change");
    // And a change again asks nothing.
    let again = call(&c, "write", json!({ "path": other, "text": "again" })).await;
    assert_eq!(said(&again), "written");
    assert_eq!(forms(&script).len(), 2);
}

#[tokio::test]
async fn a_directory_grant_reaches_neither_siblings_nor_parent() {
    let dir = tree();
    let roots = SessionRoots::new(policy(dir.path()));
    let (c, script, _server) = start(dir.path(), roots, ProtocolVersion::V_2025_11_25, true).await;
    script.pick("grant", "this session");
    let notes = at(dir.path(), "area/notes");
    assert_eq!(
        said(&call(&c, "list", json!({ "path": notes })).await),
        "m.md,n.md"
    );
    assert!(forms(&script)[0].0.contains("read the directory"));
    assert_eq!(read(&c, &at(dir.path(), "area/notes/n.md")).await, "n");
    assert_eq!(forms(&script).len(), 1);
    // The sibling, the parent, and the parent through `..`: each a new
    // question (declined here), never reached through the grant.
    for (rel, tool) in [
        ("area/other.md", "read"),
        ("area", "list"),
        ("area/notes/../other.md", "read"),
    ] {
        script.answer(decline());
        let result = call(&c, tool, json!({ "path": at(dir.path(), rel) })).await;
        let said = said(&result);
        assert!(said == "refused:grant_declined", "{rel}: {said}");
    }
    // `area/notes/../other.md` is `area/other.md`: remembered, not asked.
    assert_eq!(forms(&script).len(), 3);
}

#[tokio::test]
async fn concurrent_calls_that_need_the_same_grant_ask_once() {
    let dir = tree();
    let other = at(dir.path(), "area/other.md");
    let roots = SessionRoots::new(policy(dir.path()));
    let (c, script, _server) = start(dir.path(), roots, ProtocolVersion::V_2025_11_25, true).await;
    script.delay_forms(Duration::from_millis(300));
    script.pick("grant", "this session");
    let (a, b) = tokio::join!(read(&c, &other), read(&c, &other));
    assert_eq!((a.as_str(), b.as_str()), ("other", "other"));
    assert_eq!(forms(&script).len(), 1);
    // A file grant is one name of its folder: another spelling through a
    // sibling directory does not reach it, and is not asked about again.
    let spelled = at(dir.path(), "area/notes/../other.md");
    assert_eq!(read(&c, &spelled).await, "refused:outside_roots");
    assert_eq!(forms(&script).len(), 1);
}

#[tokio::test]
async fn questions_are_rate_limited_per_session() {
    let dir = tree();
    let roots =
        SessionRoots::new(policy(dir.path())).with_grant_questions(2, Duration::from_secs(600));
    let (c, script, _server) = start(dir.path(), roots, ProtocolVersion::V_2025_11_25, true).await;
    script.answer(decline());
    assert_eq!(
        read(&c, &at(dir.path(), "area/other.md")).await,
        "refused:grant_declined"
    );
    script.pick("grant", "this call");
    assert_eq!(read(&c, &at(dir.path(), "area/notes/n.md")).await, "n");
    let third = call(
        &c,
        "read",
        json!({ "path": at(dir.path(), "area/notes/m.md") }),
    )
    .await;
    assert_eq!(said(&third), "refused:grant_questions_exhausted");
    assert_eq!(forms(&script).len(), 2);
    // The shared folder is unaffected.
    assert_eq!(read(&c, &at(dir.path(), "shared/s.md")).await, "shared");
}

#[tokio::test]
async fn session_grants_end_with_the_session() {
    let dir = tree();
    let roots = SessionRoots::new(policy(dir.path()));
    let (c, script, server) = start(dir.path(), roots, ProtocolVersion::V_2025_11_25, true).await;
    script.pick("grant", "this session");
    let kept = call(
        &c,
        "keep",
        json!({ "path": at(dir.path(), "area/other.md") }),
    )
    .await;
    assert_eq!(said(&kept), "kept");
    let slot = server.kept.clone();
    drop(server);
    c.cancel().await.unwrap();
    // The server's side ends with the connection, and with it the grant:
    // the kept file is revoked.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let mut text = String::new();
        let read = {
            let mut guard = slot.lock().unwrap();
            std::io::Read::read_to_string(guard.as_mut().unwrap(), &mut text)
        };
        if let Err(err) = read {
            let refusal = mcp_roots::Error::try_from_io(err).unwrap();
            assert_eq!(refusal.reason(), "scope_lost");
            break;
        }
        assert!(Instant::now() < deadline, "the kept file was never revoked");
        std::io::Seek::rewind(slot.lock().unwrap().as_mut().unwrap()).unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Each event at `info` or above as one line: its message and fields.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<String>>>);

struct Fields<'a>(&'a mut String);

impl tracing::field::Visit for Fields<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.push_str(&format!(" {}={value:?}", field.name()));
    }
}

impl tracing::Subscriber for Lines {
    fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
        *metadata.level() <= tracing::Level::INFO
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        let mut line = String::new();
        event.record(&mut Fields(&mut line));
        self.0.lock().unwrap().push(line);
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[tokio::test]
async fn the_log_records_questions_answers_and_grants_never_contents() {
    let lines = Lines::default();
    let _default = tracing::subscriber::set_default(lines.clone());
    let dir = tree();
    let roots = SessionRoots::new(policy(dir.path()));
    let (c, script, _server) = start(dir.path(), roots, ProtocolVersion::V_2025_11_25, true).await;
    script.pick("grant", "this call");
    assert_eq!(read(&c, &at(dir.path(), "area/other.md")).await, "other");
    script.pick("grant", "this session");
    assert_eq!(read(&c, &at(dir.path(), "area/notes/n.md")).await, "n");
    script.answer(decline());
    assert_eq!(
        read(&c, &at(dir.path(), "area/notes/m.md")).await,
        "refused:grant_declined"
    );
    let log = lines.0.lock().unwrap().clone();
    let with = |words: &[&str]| {
        log.iter()
            .filter(|l| words.iter().all(|w| l.contains(w)))
            .count()
    };
    let other = dir.path().join("area/other.md").canonicalize().unwrap();
    let other = other.display().to_string();
    assert_eq!(
        with(&["grant question", &other, "access=\"read\""]),
        1,
        "{log:#?}"
    );
    assert_eq!(with(&["grant answer", "answer=\"call\""]), 1, "{log:#?}");
    assert_eq!(
        with(&["grant made", &other, "scope=\"call\""]),
        1,
        "{log:#?}"
    );
    assert_eq!(with(&["grant answer", "answer=\"session\""]), 1, "{log:#?}");
    assert_eq!(
        with(&["grant made", "n.md", "scope=\"session\""]),
        1,
        "{log:#?}"
    );
    assert_eq!(with(&["grant question", "m.md"]), 1, "{log:#?}");
    assert_eq!(with(&["grant answer", "answer=\"no\""]), 1, "{log:#?}");
    // Contents never: the files' texts appear in no line.
    assert!(
        !log.iter()
            .any(|l| l.contains("\"other\"") || l.contains("=\"n\"")),
        "{log:#?}"
    );
}

#[tokio::test]
async fn a_stdio_process_remembers_the_no_on_2026_07_28() {
    let dir = tree();
    for process in [true, false] {
        let roots = SessionRoots::new(policy(dir.path()));
        let roots = if process {
            roots.with_process_session()
        } else {
            roots
        };
        let (c, script, _server) = start(dir.path(), roots, MODERN, true).await;
        script.answer(decline());
        assert_eq!(
            read(&c, &at(dir.path(), "area/other.md")).await,
            "refused:grant_declined"
        );
        // Without the process's memory (over HTTP) every request is asked.
        script.pick("grant", "this call");
        let again = read(&c, &at(dir.path(), "area/./other.md")).await;
        let expected = if process {
            "refused:grant_declined"
        } else {
            "other"
        };
        assert_eq!(again, expected, "process session: {process}");
        assert_eq!(forms(&script).len(), if process { 1 } else { 2 });
    }
}

#[tokio::test]
async fn with_the_area_alone_nothing_is_served_until_granted() {
    let dir = tree();
    // No ceiling: the area is the operator's limit, the client's roots
    // serve nothing.
    let policy = Roots::builder().ask_within([at(dir.path(), "area")]);
    for version in [ProtocolVersion::V_2025_11_25, MODERN] {
        let (c, script, _server) = start(
            dir.path(),
            SessionRoots::new(policy.clone()),
            version.clone(),
            true,
        )
        .await;
        let shared = read(&c, &at(dir.path(), "shared/s.md")).await;
        assert_eq!(shared, "refused:no_roots", "{version:?}");
        assert!(script.asked().is_empty());
        script.pick("grant", "this call");
        assert_eq!(
            read(&c, &at(dir.path(), "area/other.md")).await,
            "other",
            "{version:?}"
        );
        // A new file, granted for changing: created by the call.
        script.pick("grant", "this call");
        let new = at(dir.path(), "area/notes/new.md");
        let wrote = call(&c, "write", json!({ "path": new, "text": "fresh" })).await;
        assert_eq!(said(&wrote), "written", "{version:?}");
        let asked = forms(&script);
        assert!(asked[1].0.contains("change the file") && asked[1].0.contains("(a new file)"));
        assert_eq!(std::fs::read_to_string(&new).unwrap(), "fresh");
        std::fs::remove_file(&new).unwrap();
    }
}
