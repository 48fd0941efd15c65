//! One tool body on every revision (`SessionRoots::serve`/`serve_with`)
//! against rmcp's client (the scripted one), in process: reads and
//! refusals, forms and URL flows where the revision has them, and on
//! 2026-07-28 the sealed `requestState` (tampered, foreign, expired,
//! replayed) and a question that changed between rounds.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use mcp_roots::{Roots, RootsBuilder};
use mcp_roots_rmcp::{Outcome, ROOTS_INPUT, Rounds, SessionRoots, Stop, ToolCall, Visited};
use mcp_script::{Client, ScriptedClient, UrlAnswer, accept, connect, connect_modern, text_of};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, InputRequest,
    InputRequiredResult, InputResponses, ProtocolVersion, ServerCapabilities, ServerConfig,
};
use rmcp::serde_json::{Value, json};
use rmcp::service::NotificationContext;
use rmcp::{RoleServer, ServerHandler, tool, tool_handler, tool_router};
use tempfile::TempDir;
use tokio::sync::oneshot;

#[derive(Debug, rmcp::serde::Deserialize, rmcp::schemars::JsonSchema)]
#[serde(crate = "rmcp::serde")]
#[schemars(crate = "rmcp::schemars")]
struct PathArgs {
    path: String,
}

#[derive(Debug, rmcp::serde::Deserialize, rmcp::schemars::JsonSchema)]
#[serde(crate = "rmcp::serde")]
#[schemars(crate = "rmcp::schemars")]
struct DirArgs {
    /// A folder: its `*.md` files are the candidates.
    dir: String,
}

/// The test server: `read` (files only), `remove` (choose, confirm, then
/// delete), `visit` (a URL flow whose completion the test controls).
#[derive(Clone)]
struct Server {
    roots: SessionRoots,
    /// The completion of the next URL flow (the test fires it).
    flow: Arc<Mutex<Option<oneshot::Receiver<String>>>>,
    tool_router: ToolRouter<Server>,
}

#[tool_router]
impl Server {
    #[tool(description = "Read a text file inside the roots")]
    async fn read(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<PathArgs>,
    ) -> CallToolResponse {
        self.roots
            .serve(call, move |snap| {
                let text = std::io::read_to_string(snap.open(&args.path)?)?;
                Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
            })
            .await
    }

    #[tool(description = "Pick one of the notes in a folder, confirm, delete it")]
    async fn remove(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<DirArgs>,
    ) -> CallToolResponse {
        self.roots
            .serve_with(call, |mut ask| async move {
                let dir = args.dir.clone();
                let names: Vec<String> = ask
                    .files(move |snap| {
                        let mut names = Vec::new();
                        for entry in snap.read_dir(&dir)? {
                            let name = entry?.name().to_string_lossy().into_owned();
                            if name.ends_with(".md") {
                                names.push(name);
                            }
                        }
                        names.sort();
                        Ok(names)
                    })
                    .await?;
                ask.limit(2);
                let Outcome::Accepted(i) = ask.choose("Which note?", &names).await? else {
                    return Ok(outcome("not chosen"));
                };
                let name = names[i].clone();
                let confirmed = ask.confirm(format!("Delete {name}?"), "Delete it").await?;
                if confirmed != Outcome::Accepted(()) {
                    return Ok(outcome("not confirmed"));
                }
                let path = format!("{}/{name}", args.dir);
                ask.files(move |snap| Ok(snap.remove_file(&path)?)).await?;
                Ok(outcome(&format!("deleted {}", names[i])))
            })
            .await
    }

    #[tool(description = "Send the user to a page; report what the page produced")]
    async fn visit(&self, call: ToolCall) -> CallToolResponse {
        let flow = self.flow.clone();
        self.roots
            .serve_with(call, |mut ask| async move {
                let start = |_id: &str| {
                    let completion = flow.lock().unwrap().take();
                    async move {
                        let completion = completion.expect("a flow armed by the test");
                        let url = url::Url::parse("http://127.0.0.1:9/page?token=t").unwrap();
                        Ok::<_, Stop>((url, async move { completion.await.ok() }))
                    }
                };
                Ok(match ask.url("Open the page", start).await? {
                    Outcome::Accepted(Visited {
                        result: Some(r), ..
                    }) => outcome(&format!("got {r}")),
                    Outcome::Accepted(Visited { result: None, .. }) => {
                        outcome("ended without result")
                    }
                    Outcome::Declined => outcome("declined"),
                    Outcome::Cancelled => outcome("cancelled"),
                })
            })
            .await
    }
}

fn outcome(text: &str) -> CallToolResult {
    CallToolResult::structured(json!({ "outcome": text }))
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

impl Server {
    fn new(roots: SessionRoots) -> Self {
        Self {
            roots,
            flow: Arc::default(),
            tool_router: Self::tool_router(),
        }
    }

    /// Arms the next URL flow; the sender completes it.
    fn arm(&self) -> oneshot::Sender<String> {
        let (sender, receiver) = oneshot::channel();
        *self.flow.lock().unwrap() = Some(receiver);
        sender
    }
}

const SESSION_REVISIONS: [ProtocolVersion; 4] = [
    ProtocolVersion::V_2024_11_05,
    ProtocolVersion::V_2025_03_26,
    ProtocolVersion::V_2025_06_18,
    ProtocolVersion::V_2025_11_25,
];

/// `shared/` with `a.md`, `b.md` and `link.md` (a symlink to
/// `outside/secret.md`); `outside/secret.md`; the prefix sibling
/// `shared_evil/x.md`.
fn tree() -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("shared")).unwrap();
    std::fs::create_dir(dir.path().join("outside")).unwrap();
    std::fs::write(dir.path().join("shared/a.md"), "alpha").unwrap();
    std::fs::write(dir.path().join("shared/b.md"), "beta").unwrap();
    std::fs::write(dir.path().join("outside/secret.md"), "secret").unwrap();
    std::fs::create_dir(dir.path().join("shared_evil")).unwrap();
    std::fs::write(dir.path().join("shared_evil/x.md"), "evil").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("../outside/secret.md", dir.path().join("shared/link.md")).unwrap();
    dir
}

fn at(dir: &Path, rel: &str) -> String {
    format!("{}/{rel}", dir.display())
}

/// A client sharing `shared/`, with forms (and URL mode if `urls`).
fn client(dir: &Path, version: ProtocolVersion, urls: bool) -> ScriptedClient {
    let client = ScriptedClient::new(true, true).speaking(version);
    let client = if urls { client.with_url_mode() } else { client };
    client.set_root_uris(&[&format!("file://{}", at(dir, "shared"))]);
    client
}

/// A running session of `server` with `client` on `version`'s lifecycle.
async fn start(server: Server, client: ScriptedClient, version: &ProtocolVersion) -> Client {
    if version.has_initialize() {
        let (server, client) = connect(server, client).await.unwrap();
        tokio::spawn(async move { server.waiting().await });
        let ready = client
            .service()
            .roots_answered(1, Duration::from_secs(5))
            .await;
        assert!(ready, "the first roots/list was answered");
        client
    } else {
        let (server, client) = connect_modern(server, client).await.unwrap();
        // rmcp's serve returns after the first request; keep it running.
        tokio::spawn(async move {
            if let Ok(Ok(server)) = server.await {
                let _ = server.waiting().await;
            }
        });
        client
    }
}

fn session() -> SessionRoots {
    SessionRoots::new(RootsBuilder::default())
}

async fn call(client: &Client, tool: &'static str, args: Value) -> CallToolResult {
    mcp_script::call(client, tool, args).await.unwrap()
}

fn reason(result: &CallToolResult) -> Option<String> {
    if result.is_error != Some(true) {
        return None;
    }
    let structured = result.structured_content.as_ref()?;
    structured["reason"].as_str().map(str::to_owned)
}

fn said(result: &CallToolResult) -> String {
    match &result.structured_content {
        Some(s) if s.get("outcome").is_some() => s["outcome"].as_str().unwrap().to_owned(),
        _ => text_of(result),
    }
}

#[tokio::test]
async fn reads_inside_and_refusals_outside_on_every_revision() {
    let dir = tree();
    let all = SESSION_REVISIONS
        .iter()
        .chain([&ProtocolVersion::V_2026_07_28]);
    for version in all {
        let c = start(
            Server::new(session()),
            client(dir.path(), version.clone(), false),
            version,
        )
        .await;
        let inside = call(&c, "read", json!({ "path": at(dir.path(), "shared/a.md") })).await;
        assert_eq!(text_of(&inside), "alpha", "{version}");
        let outside = call(
            &c,
            "read",
            json!({ "path": at(dir.path(), "outside/secret.md") }),
        )
        .await;
        assert_eq!(
            reason(&outside).as_deref(),
            Some("outside_roots"),
            "{version}"
        );
        let dotdot = at(dir.path(), "shared/../outside/secret.md");
        let escaped = call(&c, "read", json!({ "path": dotdot })).await;
        assert!(reason(&escaped).is_some(), "{version}: {escaped:?}");
        let relative = call(&c, "read", json!({ "path": "shared/a.md" })).await;
        assert_eq!(
            reason(&relative).as_deref(),
            Some("not_absolute"),
            "{version}"
        );
        let sibling = call(
            &c,
            "read",
            json!({ "path": at(dir.path(), "shared_evil/x.md") }),
        )
        .await;
        assert_eq!(
            reason(&sibling).as_deref(),
            Some("outside_roots"),
            "{version}"
        );
        let link = call(
            &c,
            "read",
            json!({ "path": at(dir.path(), "shared/link.md") }),
        )
        .await;
        assert!(reason(&link).is_some(), "{version}: {link:?}");
        let encoded = format!(
            "file://{}",
            at(dir.path(), "shared%2F..%2Foutside/secret.md")
        );
        let encoded = call(&c, "read", json!({ "path": encoded })).await;
        assert_eq!(
            reason(&encoded).as_deref(),
            Some("invalid_uri"),
            "{version}"
        );
        for refused in [&outside, &escaped, &sibling, &link, &encoded] {
            assert_eq!(refused.is_error, Some(true));
            // The text names the input, never the file's content.
            assert!(
                !text_of(refused).starts_with("secret"),
                "{version}: content leaked"
            );
        }
    }
}

#[tokio::test]
async fn forms_choose_and_confirm_on_the_revisions_with_elicitation() {
    for version in SESSION_REVISIONS
        .iter()
        .chain([&ProtocolVersion::V_2026_07_28])
    {
        let dir = tree();
        let script = client(dir.path(), version.clone(), false);
        script.pick("choice", "b.md");
        script.answer(accept(json!({ "confirm": true })));
        let c = start(Server::new(session()), script, version).await;
        let shared = at(dir.path(), "shared");
        let result = call(&c, "remove", json!({ "dir": shared })).await;
        let has_forms = version.as_str() >= "2025-06-18";
        if has_forms {
            assert_eq!(said(&result), "deleted b.md", "{version}: {result:?}");
            assert!(!dir.path().join("shared/b.md").exists(), "{version}");
        } else {
            assert_eq!(
                reason(&result).as_deref(),
                Some("elicitation_unsupported"),
                "{version}"
            );
            assert!(dir.path().join("shared/b.md").exists(), "{version}");
        }
        assert!(dir.path().join("shared/a.md").exists(), "{version}");
    }
}

#[tokio::test]
async fn a_declined_confirmation_changes_nothing_on_every_revision_with_forms() {
    for version in [
        ProtocolVersion::V_2025_06_18,
        ProtocolVersion::V_2025_11_25,
        ProtocolVersion::V_2026_07_28,
    ] {
        let dir = tree();
        let script = client(dir.path(), version.clone(), false);
        script.pick("choice", "a.md");
        script.answer(accept(json!({ "confirm": false })));
        let c = start(Server::new(session()), script, &version).await;
        let result = call(&c, "remove", json!({ "dir": at(dir.path(), "shared") })).await;
        assert_eq!(said(&result), "not confirmed", "{version}");
        assert!(dir.path().join("shared/a.md").exists());
    }
}

#[tokio::test]
async fn url_flows_where_the_revision_has_url_mode() {
    for version in [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28] {
        let dir = tree();
        let script = client(dir.path(), version.clone(), true);
        script.answer_url(UrlAnswer::Accept(Vec::new()));
        let server = Server::new(session());
        let done = server.arm();
        let c = start(server, script.clone(), &version).await;
        // The page "finishes" once the user has consented.
        let watcher = tokio::spawn(async move {
            loop {
                if script
                    .asked()
                    .iter()
                    .any(|a| format!("{a:?}").contains("page?token"))
                {
                    let _ = done.send("settings".into());
                    return script;
                }
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        });
        let result = call(&c, "visit", json!({})).await;
        assert_eq!(said(&result), "got settings", "{version}: {result:?}");
        let script = watcher.await.unwrap();
        let completed = script
            .notifications()
            .iter()
            .any(|(m, _)| m == "notifications/elicitation/complete");
        // The completion notification exists on 2025-11-25 only.
        assert_eq!(
            completed,
            version == ProtocolVersion::V_2025_11_25,
            "{version}"
        );
    }
    for version in [ProtocolVersion::V_2025_03_26, ProtocolVersion::V_2025_06_18] {
        let dir = tree();
        let server = Server::new(session());
        let _done = server.arm();
        let c = start(server, client(dir.path(), version.clone(), true), &version).await;
        let result = call(&c, "visit", json!({})).await;
        assert_eq!(
            reason(&result).as_deref(),
            Some("url_elicitation_unsupported"),
            "{version}"
        );
    }
}

#[tokio::test]
async fn a_declined_url_on_2026_07_28_drops_the_flow() {
    let dir = tree();
    let version = ProtocolVersion::V_2026_07_28;
    let script = client(dir.path(), version.clone(), true);
    script.answer_url(UrlAnswer::Decline);
    let server = Server::new(session());
    let done = server.arm();
    let c = start(server, script, &version).await;
    assert_eq!(said(&call(&c, "visit", json!({})).await), "declined");
    // The completion future was dropped with the flow.
    assert!(done.is_closed());
}

#[tokio::test]
async fn a_flow_that_never_finishes_ends_after_its_rounds() {
    let dir = tree();
    let version = ProtocolVersion::V_2026_07_28;
    let script = client(dir.path(), version.clone(), true);
    script.answer_url(UrlAnswer::Accept(Vec::new()));
    let rounds = Rounds::new().with_url_wait(Duration::from_millis(5), 2);
    let server = Server::new(session().with_rounds(rounds));
    let _done = server.arm(); // never fired
    let c = start(server, script, &version).await;
    assert_eq!(
        said(&call(&c, "visit", json!({})).await),
        "ended without result"
    );
}

#[tokio::test]
async fn a_roots_change_reaches_the_next_call_on_the_session_revisions() {
    for version in SESSION_REVISIONS {
        let dir = tree();
        let script = client(dir.path(), version.clone(), false);
        let c = start(Server::new(session()), script.clone(), &version).await;
        let secret = json!({ "path": at(dir.path(), "outside/secret.md") });
        assert_eq!(
            reason(&call(&c, "read", secret.clone()).await).as_deref(),
            Some("outside_roots")
        );
        script.set_root_uris(&[&format!("file://{}", at(dir.path(), "outside"))]);
        c.notify_roots_list_changed().await.unwrap();
        assert!(script.roots_answered(2, Duration::from_secs(5)).await);
        assert_eq!(
            text_of(&call(&c, "read", secret).await),
            "secret",
            "{version}"
        );
        let a = json!({ "path": at(dir.path(), "shared/a.md") });
        assert_eq!(
            reason(&call(&c, "read", a).await).as_deref(),
            Some("outside_roots"),
            "{version}"
        );
    }
}

#[tokio::test]
async fn without_the_roots_capability_2026_07_28_serves_the_policy_at_once() {
    let dir = tree();
    let version = ProtocolVersion::V_2026_07_28;
    let script = ScriptedClient::new(false, true).speaking(version.clone());
    let c = start(Server::new(session()), script, &version).await;
    let first = once(
        &c,
        "read",
        json!({ "path": at(dir.path(), "shared/a.md") }),
        None,
        None,
    )
    .await;
    let CallToolResponse::Complete(result) = first else {
        panic!("no input request without the capability: {first:?}");
    };
    assert_eq!(reason(&result).as_deref(), Some("no_roots"));
    let text = text_of(&result);
    assert!(
        text.contains("does not declare the roots capability"),
        "{text}"
    );
    assert!(!text.contains("has not answered"), "{text}");

    // With a ceiling granted to such clients, the policy serves.
    let policy = Roots::builder()
        .ceiling([at(dir.path(), "shared")])
        .empty_roots(mcp_roots::EmptyRoots::Ceiling);
    let script = ScriptedClient::new(false, true).speaking(version.clone());
    let c = start(Server::new(SessionRoots::new(policy)), script, &version).await;
    let read = call(&c, "read", json!({ "path": at(dir.path(), "shared/a.md") })).await;
    assert_eq!(text_of(&read), "alpha");
}

#[tokio::test]
async fn on_2026_07_28_an_empty_list_from_a_client_with_roots_shares_nothing() {
    // No memory per client on this revision: an empty list cannot be told
    // from one that removed the last folder, so it is never the ceiling,
    // whatever the policy; only a client without the capability gets it.
    let dir = tree();
    let version = ProtocolVersion::V_2026_07_28;
    for grants in [true, false] {
        let policy = Roots::builder().ceiling([at(dir.path(), "shared")]);
        let policy = match grants {
            true => policy.empty_roots(mcp_roots::EmptyRoots::Ceiling),
            false => policy,
        };
        let server = Server::new(SessionRoots::new(policy));
        let script = ScriptedClient::new(true, true).speaking(version.clone());
        let c = start(server, script, &version).await;
        let args = json!({ "path": at(dir.path(), "shared/a.md") });
        for _ in 0..2 {
            let asked = input_required(once(&c, "read", args.clone(), None, None).await);
            assert!(asked.input_requests.is_some());
            let mut inputs = InputResponses::new();
            inputs.insert(ROOTS_INPUT.into(), json!({ "roots": [] }));
            let retried = once(&c, "read", args.clone(), Some(inputs), asked.request_state).await;
            let result = complete(retried);
            assert_eq!(reason(&result).as_deref(), Some("no_roots"), "{grants}");
            let text = text_of(&result);
            assert!(text.contains("its roots list is empty"), "{text}");
        }
        // Sharing the folder on the next request serves it.
        let asked = input_required(once(&c, "read", args.clone(), None, None).await);
        let retried = once(
            &c,
            "read",
            args.clone(),
            Some(with_roots(dir.path())),
            asked.request_state,
        )
        .await;
        assert_eq!(text_of(&complete(retried)), "alpha");
    }
    // Without the capability: the ceiling where the policy grants it.
    let policy = Roots::builder()
        .ceiling([at(dir.path(), "shared")])
        .empty_roots(mcp_roots::EmptyRoots::Ceiling);
    let script = ScriptedClient::new(false, true).speaking(version.clone());
    let c = start(Server::new(SessionRoots::new(policy)), script, &version).await;
    let read = call(&c, "read", json!({ "path": at(dir.path(), "shared/b.md") })).await;
    assert_eq!(text_of(&read), "beta");
}

#[tokio::test]
async fn an_empty_list_after_sharing_says_why_nothing_is_shared() {
    let dir = tree();
    let version = ProtocolVersion::V_2025_11_25;
    let policy = Roots::builder()
        .ceiling([dir.path().to_str().unwrap()])
        .empty_roots(mcp_roots::EmptyRoots::Ceiling);
    let roots = SessionRoots::new(policy);
    let script = client(dir.path(), version.clone(), false);
    let c = start(Server::new(roots.clone()), script.clone(), &version).await;
    let args = json!({ "path": at(dir.path(), "shared/a.md") });
    assert_eq!(text_of(&call(&c, "read", args.clone()).await), "alpha");
    script.set_root_uris(&[]);
    c.notify_roots_list_changed().await.unwrap();
    for _ in 0..500 {
        if roots.roots().generation() >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let refused = call(&c, "read", args).await;
    assert_eq!(reason(&refused).as_deref(), Some("no_roots"));
    let text = text_of(&refused);
    assert!(text.contains("no longer shares any folder"), "{text}");
    assert!(roots.roots().has_shared());
}

/// One `tools/call` round, without rmcp's automatic retries.
async fn once(
    client: &Client,
    tool: &'static str,
    args: Value,
    inputs: Option<InputResponses>,
    state: Option<String>,
) -> CallToolResponse {
    let mut params = CallToolRequestParams::new(tool);
    if let Value::Object(args) = args {
        params = params.with_arguments(args);
    }
    if let Some(inputs) = inputs {
        params = params.with_input_responses(inputs);
    }
    if let Some(state) = state {
        params = params.with_request_state(state);
    }
    client.call_tool_once(params).await.unwrap()
}

fn complete(response: CallToolResponse) -> CallToolResult {
    match response {
        CallToolResponse::Complete(result) => result,
        other => panic!("expected a result, got {other:?}"),
    }
}

fn input_required(response: CallToolResponse) -> InputRequiredResult {
    match response {
        CallToolResponse::InputRequired(asked) => asked,
        other => panic!("expected input_required, got {other:?}"),
    }
}

fn roots_answer(dir: &Path) -> Value {
    json!({ "roots": [{ "uri": format!("file://{}", at(dir, "shared")) }] })
}

fn with_roots(dir: &Path) -> InputResponses {
    let mut inputs = InputResponses::new();
    inputs.insert(ROOTS_INPUT.into(), roots_answer(dir));
    inputs
}

/// A 2026-07-28 client sharing `shared/` and a server on `rounds`.
async fn modern(dir: &Path, rounds: Rounds) -> Client {
    let version = ProtocolVersion::V_2026_07_28;
    start(
        Server::new(session().with_rounds(rounds)),
        client(dir, version.clone(), false),
        &version,
    )
    .await
}

#[tokio::test]
async fn the_first_round_asks_only_for_the_roots_and_later_rounds_carry_a_sealed_state() {
    let dir = tree();
    let c = modern(dir.path(), Rounds::new()).await;
    let args = json!({ "path": at(dir.path(), "shared/a.md") });
    let asked = input_required(once(&c, "read", args.clone(), None, None).await);
    let requests = asked.input_requests.clone().unwrap();
    assert!(matches!(
        requests.get(ROOTS_INPUT),
        Some(InputRequest::ListRoots(_))
    ));
    assert_eq!(requests.len(), 1);
    // Nothing to carry yet: no state, and the retry starts afresh.
    assert_eq!(asked.request_state, None);
    let done = once(&c, "read", args, Some(with_roots(dir.path())), None).await;
    let done = complete(done);
    assert_eq!(text_of(&done), "alpha");
    // A round that asks a question carries its progress, sealed.
    let shared = json!({ "dir": at(dir.path(), "shared") });
    let asked =
        input_required(once(&c, "remove", shared, Some(with_roots(dir.path())), None).await);
    assert!(asked.input_requests.as_ref().unwrap().contains_key("q0"));
    let state = asked.request_state.unwrap();
    assert!(
        !state.contains("roots_asked") && !state.contains("answers"),
        "the state is sealed, not plain JSON: {state}"
    );
}

#[tokio::test]
async fn tampered_foreign_replayed_and_expired_states_are_refused_and_change_nothing() {
    let dir = tree();
    let now = Arc::new(AtomicU64::new(0));
    let clock = now.clone();
    let rounds = Rounds::new()
        .with_ttl(Duration::from_secs(60))
        .with_clock(move || {
            SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000 + clock.load(Ordering::SeqCst))
        });
    let c = modern(dir.path(), rounds).await;
    let shared = json!({ "dir": at(dir.path(), "shared") });
    let state_of = |r: CallToolResponse| input_required(r).request_state.unwrap();
    // The state of the round that asks which note (the first round asks
    // for the roots only, and carries none).
    let fresh = || async {
        let inputs = Some(with_roots(dir.path()));
        state_of(once(&c, "remove", shared.clone(), inputs, None).await)
    };

    // Tampered: one character changed.
    let state = fresh().await;
    let mut bytes = state.clone().into_bytes();
    let last = bytes.len() - 1;
    bytes[last] = if bytes[last] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(bytes).unwrap();
    for bad in [tampered, "not a state".to_owned(), String::new()] {
        let r = once(
            &c,
            "remove",
            shared.clone(),
            Some(with_roots(dir.path())),
            Some(bad),
        )
        .await;
        let r = complete(r);
        assert_eq!(reason(&r).as_deref(), Some("invalid_request_state"));
    }

    // Foreign: sealed for other arguments, or another tool.
    let other_dir = json!({ "dir": at(dir.path(), "outside") });
    let r = once(
        &c,
        "remove",
        other_dir,
        Some(with_roots(dir.path())),
        Some(state.clone()),
    )
    .await;
    let r = complete(r);
    assert_eq!(reason(&r).as_deref(), Some("invalid_request_state"));
    let read = json!({ "path": at(dir.path(), "shared/a.md") });
    let r = once(
        &c,
        "read",
        read,
        Some(with_roots(dir.path())),
        Some(state.clone()),
    )
    .await;
    let r = complete(r);
    assert_eq!(reason(&r).as_deref(), Some("invalid_request_state"));

    // Used once (it is good: the pick of b.md leads to the confirmation),
    // then replayed with the same answer.
    let mut pick = with_roots(dir.path());
    pick.insert(
        "q0".into(),
        json!({ "action": "accept", "content": { "choice": "1" } }),
    );
    let r = once(
        &c,
        "remove",
        shared.clone(),
        Some(pick.clone()),
        Some(state.clone()),
    )
    .await;
    let next = input_required(r);
    assert!(next.input_requests.as_ref().unwrap().contains_key("q1"));
    let r = once(&c, "remove", shared.clone(), Some(pick), Some(state)).await;
    let r = complete(r);
    assert_eq!(reason(&r).as_deref(), Some("invalid_request_state"));
    assert!(text_of(&r).contains("already used"), "{}", text_of(&r));

    // Expired: the clock moves past the TTL (no waiting).
    let state = fresh().await;
    now.store(61, Ordering::SeqCst);
    let r = once(
        &c,
        "remove",
        shared.clone(),
        Some(with_roots(dir.path())),
        Some(state),
    )
    .await;
    let r = complete(r);
    assert_eq!(reason(&r).as_deref(), Some("invalid_request_state"));
    assert!(text_of(&r).contains("expired"), "{}", text_of(&r));

    // Through all of it, nothing was deleted.
    assert!(dir.path().join("shared/a.md").exists() && dir.path().join("shared/b.md").exists());
}

#[tokio::test]
async fn an_answer_to_a_question_that_changed_between_rounds_changes_nothing() {
    let dir = tree();
    let c = modern(dir.path(), Rounds::new()).await;
    let shared = json!({ "dir": at(dir.path(), "shared") });
    let state = input_required(once(&c, "remove", shared.clone(), None, None).await).request_state;
    let asked = input_required(
        once(
            &c,
            "remove",
            shared.clone(),
            Some(with_roots(dir.path())),
            state,
        )
        .await,
    );
    // The user picks "b.md" (index 1 of [a.md, b.md]) ...
    let mut inputs = with_roots(dir.path());
    inputs.insert(
        "q0".into(),
        json!({ "action": "accept", "content": { "choice": "1" } }),
    );
    // ... but meanwhile a note appears before it: index 1 would now be another file.
    std::fs::write(dir.path().join("shared/a2.md"), "new").unwrap();
    let r = once(&c, "remove", shared, Some(inputs), asked.request_state).await;
    let r = complete(r);
    assert_eq!(reason(&r).as_deref(), Some("question_changed"), "{r:?}");
    for name in ["a.md", "a2.md", "b.md"] {
        assert!(dir.path().join("shared").join(name).exists(), "{name}");
    }
}

#[tokio::test]
async fn a_retry_without_the_roots_it_was_asked_for_is_refused() {
    let dir = tree();
    let c = modern(dir.path(), Rounds::new()).await;
    let args = json!({ "path": at(dir.path(), "shared/a.md") });
    let state = input_required(once(&c, "read", args.clone(), None, None).await).request_state;
    let r = once(&c, "read", args, Some(InputResponses::new()), state).await;
    let r = complete(r);
    assert_eq!(reason(&r).as_deref(), Some("no_roots"));
    assert!(!text_of(&r).contains("has not answered roots/list"));
}

#[tokio::test]
async fn consumed_states_are_bounded_and_fail_closed() {
    let dir = tree();
    let c = modern(dir.path(), Rounds::new().with_replay_capacity(1)).await;
    let shared = json!({ "dir": at(dir.path(), "shared") });
    let asked = || async {
        let inputs = Some(with_roots(dir.path()));
        input_required(once(&c, "remove", shared.clone(), inputs, None).await).request_state
    };
    let (first, second) = (asked().await, asked().await);
    let mut pick = with_roots(dir.path());
    pick.insert("q0".into(), json!({ "action": "decline" }));
    let r = once(&c, "remove", shared.clone(), Some(pick.clone()), first).await;
    assert!(
        matches!(&r, CallToolResponse::Complete(done) if said(done) == "not chosen"),
        "{r:?}"
    );
    // The record is full of an unexpired state: refused, not forgotten.
    let r = once(&c, "remove", shared, Some(pick), second).await;
    let r = complete(r);
    assert_eq!(reason(&r).as_deref(), Some("busy"));
}

#[tokio::test]
async fn a_ceiling_that_admits_none_of_the_roots_says_so_on_every_revision() {
    let dir = tree();
    for version in SESSION_REVISIONS
        .iter()
        .chain([&ProtocolVersion::V_2026_07_28])
    {
        // A misconfigured server: its ceiling is not where the user's folders are.
        let policy = Roots::builder().ceiling([at(dir.path(), "outside")]);
        let server = Server::new(SessionRoots::new(policy));
        let c = start(server, client(dir.path(), version.clone(), false), version).await;
        let read = call(&c, "read", json!({ "path": at(dir.path(), "shared/a.md") })).await;
        assert_eq!(reason(&read).as_deref(), Some("no_roots"), "{version}");
        let text = text_of(&read);
        assert!(
            text.contains("none of the folders the client shared can be used"),
            "{version}: {text}"
        );
        assert!(text.contains("outside_ceiling"), "{version}: {text}");
        assert!(!text.contains("has not answered"), "{version}: {text}");
    }
}
