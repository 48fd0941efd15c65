//! A tool's call and its arguments, however the method takes them: the
//! glue's `Parameters(call, args)`, a `ToolCall` before rmcp's
//! `Parameters`, or (the footgun) one after it, which cannot see the
//! arguments rmcp's extractor took. On 2026-07-28 a "yes" given for one
//! path must never be accepted for a retry that names another; the wrong
//! order is refused (`arguments_unseen`) before anything is read or
//! changed.

use std::path::Path;
use std::time::Duration;

use mcp_roots::RootsBuilder;
use mcp_roots_rmcp::{Outcome, ROOTS_INPUT, SessionRoots, ToolCall};
use mcp_script::{Client, ScriptedClient, accept, connect, connect_modern, text_of};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, InputRequiredResult,
    InputResponses, ProtocolVersion, ServerCapabilities, ServerConfig,
};
use rmcp::serde_json::{Value, json};
use rmcp::service::NotificationContext;
use rmcp::{RoleServer, ServerHandler, tool, tool_handler, tool_router};
use tempfile::TempDir;

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct PathArgs {
    path: String,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct MaybePath {
    #[serde(default)]
    path: Option<String>,
}

#[derive(Clone)]
struct Server {
    roots: SessionRoots,
    tool_router: ToolRouter<Server>,
}

/// Asks the user (the question does not name the file) and empties it.
async fn empty(roots: &SessionRoots, call: ToolCall, path: String) -> CallToolResponse {
    roots
        .serve_with(call, |mut ask| async move {
            let seen = path.clone();
            ask.files(move |snap| Ok(snap.metadata(&seen)?)).await?;
            let answer = ask.confirm("Empty the file? This cannot be undone.", "Empty it");
            if answer.await? != Outcome::Accepted(()) {
                return Ok(CallToolResult::success(vec![ContentBlock::text("kept")]));
            }
            ask.files(move |snap| Ok(snap.write_atomic(&path, b"")?))
                .await?;
            Ok(CallToolResult::success(vec![ContentBlock::text("emptied")]))
        })
        .await
}

#[tool_router]
impl Server {
    #[tool(description = "Empty a file: call and arguments taken together")]
    async fn empty_joint(
        &self,
        mcp_roots_rmcp::Parameters(call, args): mcp_roots_rmcp::Parameters<PathArgs>,
    ) -> CallToolResponse {
        empty(&self.roots, call, args.path).await
    }

    #[tool(description = "Empty a file: ToolCall before rmcp's Parameters")]
    async fn empty_first(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<PathArgs>,
    ) -> CallToolResponse {
        empty(&self.roots, call, args.path).await
    }

    #[tool(description = "Empty a file: ToolCall after rmcp's Parameters")]
    async fn empty_after(
        &self,
        Parameters(args): Parameters<PathArgs>,
        call: ToolCall,
    ) -> CallToolResponse {
        empty(&self.roots, call, args.path).await
    }

    #[tool(description = "Empty a file (optional argument): ToolCall after rmcp's Parameters")]
    async fn empty_maybe_after(
        &self,
        Parameters(args): Parameters<MaybePath>,
        call: ToolCall,
    ) -> CallToolResponse {
        let path = args.path.unwrap_or_default();
        empty(&self.roots, call, path).await
    }

    #[tool(description = "Read a file (optional argument): ToolCall before rmcp's Parameters")]
    async fn read_maybe(
        &self,
        call: ToolCall,
        Parameters(args): Parameters<MaybePath>,
    ) -> CallToolResponse {
        let path = args.path;
        self.roots
            .serve(call, move |snap| {
                let text = match path {
                    Some(path) => std::io::read_to_string(snap.open(&path)?)?,
                    None => "no path".to_owned(),
                };
                Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
            })
            .await
    }

    #[tool(description = "Read a file (optional argument): call and arguments together")]
    async fn read_maybe_joint(
        &self,
        mcp_roots_rmcp::Parameters(call, args): mcp_roots_rmcp::Parameters<MaybePath>,
    ) -> CallToolResponse {
        let path = args.path;
        self.roots
            .serve(call, move |snap| {
                let text = match path {
                    Some(path) => std::io::read_to_string(snap.open(&path)?)?,
                    None => "no path".to_owned(),
                };
                Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
            })
            .await
    }

    #[tool(description = "A tool without arguments")]
    async fn count(&self, call: ToolCall) -> CallToolResponse {
        self.roots
            .serve(call, |snap| {
                let n = snap.set().len();
                Ok(CallToolResult::success(vec![ContentBlock::text(
                    n.to_string(),
                )]))
            })
            .await
    }
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

fn tree() -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("shared")).unwrap();
    std::fs::write(dir.path().join("shared/a.md"), "alpha").unwrap();
    std::fs::write(dir.path().join("shared/b.md"), "beta").unwrap();
    dir
}

fn at(dir: &Path, rel: &str) -> String {
    format!("{}/{rel}", dir.display())
}

fn server() -> Server {
    Server {
        roots: SessionRoots::new(RootsBuilder::default()),
        tool_router: Server::tool_router(),
    }
}

async fn start(client: ScriptedClient, version: &ProtocolVersion) -> Client {
    if version.has_initialize() {
        let (server, client) = connect(server(), client).await.unwrap();
        tokio::spawn(async move { server.waiting().await });
        let ready = client
            .service()
            .roots_answered(1, Duration::from_secs(5))
            .await;
        assert!(ready, "the first roots/list was answered");
        client
    } else {
        let (server, client) = connect_modern(server(), client).await.unwrap();
        tokio::spawn(async move {
            if let Ok(Ok(server)) = server.await {
                let _ = server.waiting().await;
            }
        });
        client
    }
}

fn client(dir: &Path, version: ProtocolVersion) -> ScriptedClient {
    let client = ScriptedClient::new(true, true).speaking(version);
    client.set_root_uris(&[&format!("file://{}", at(dir, "shared"))]);
    client
}

/// One `tools/call` round, without rmcp's automatic retries.
async fn once(
    c: &Client,
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
    c.call_tool_once(params).await.unwrap()
}

fn reason(result: &CallToolResult) -> Option<String> {
    if result.is_error != Some(true) {
        return None;
    }
    let structured = result.structured_content.as_ref()?;
    structured["reason"].as_str().map(str::to_owned)
}

fn roots(dir: &Path) -> InputResponses {
    let mut inputs = InputResponses::new();
    let answer = json!({ "roots": [{ "uri": format!("file://{}", at(dir, "shared")) }] });
    inputs.insert(ROOTS_INPUT.into(), answer);
    inputs
}

fn input_required(response: CallToolResponse) -> InputRequiredResult {
    match response {
        CallToolResponse::InputRequired(asked) => asked,
        other => panic!("expected input_required, got {other:?}"),
    }
}

fn complete(response: CallToolResponse) -> CallToolResult {
    match response {
        CallToolResponse::Complete(result) => result,
        other => panic!("expected a result, got {other:?}"),
    }
}

fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap()
}

/// The attack: the user says yes to emptying `a.md`; the retry carries
/// that answer and its state but names `b.md`. What the last round
/// answers.
async fn yes_for_a_then_b(c: &Client, dir: &Path, tool: &'static str) -> CallToolResult {
    let a = json!({ "path": at(dir, "shared/a.md") });
    let b = json!({ "path": at(dir, "shared/b.md") });
    let first = once(c, tool, a.clone(), None, None).await;
    let CallToolResponse::InputRequired(asked) = first else {
        return complete(first); // refused at once
    };
    let asked = input_required(once(c, tool, a, Some(roots(dir)), asked.request_state).await);
    assert!(asked.input_requests.as_ref().unwrap().contains_key("q0"));
    let mut yes = roots(dir);
    yes.insert(
        "q0".into(),
        json!({ "action": "accept", "content": { "confirm": true } }),
    );
    complete(once(c, tool, b, Some(yes), asked.request_state).await)
}

#[tokio::test]
async fn on_2026_07_28_a_yes_for_one_path_never_empties_another_whatever_the_order() {
    let version = ProtocolVersion::V_2026_07_28;
    let rows = [
        ("empty_joint", "invalid_request_state"),
        ("empty_first", "invalid_request_state"),
        ("empty_after", "arguments_unseen"),
        ("empty_maybe_after", "arguments_unseen"),
    ];
    for (tool, expected) in rows {
        let dir = tree();
        let c = start(client(dir.path(), version.clone()), &version).await;
        let result = yes_for_a_then_b(&c, dir.path(), tool).await;
        assert_eq!(
            reason(&result).as_deref(),
            Some(expected),
            "{tool}: {result:?}"
        );
        assert_eq!(read(dir.path(), "shared/b.md"), "beta", "{tool}");
        assert_eq!(read(dir.path(), "shared/a.md"), "alpha", "{tool}");
    }
}

#[tokio::test]
async fn on_2026_07_28_a_yes_for_a_path_empties_that_path_when_the_call_sees_its_arguments() {
    let version = ProtocolVersion::V_2026_07_28;
    for tool in ["empty_joint", "empty_first"] {
        let dir = tree();
        let c = start(client(dir.path(), version.clone()), &version).await;
        let a = json!({ "path": at(dir.path(), "shared/a.md") });
        let first = input_required(once(&c, tool, a.clone(), None, None).await);
        let inputs = Some(roots(dir.path()));
        let asked = input_required(once(&c, tool, a.clone(), inputs, first.request_state).await);
        let mut yes = roots(dir.path());
        yes.insert(
            "q0".into(),
            json!({ "action": "accept", "content": { "confirm": true } }),
        );
        let done = complete(once(&c, tool, a, Some(yes), asked.request_state).await);
        assert_eq!(text_of(&done), "emptied", "{tool}");
        assert_eq!(read(dir.path(), "shared/a.md"), "", "{tool}");
        assert_eq!(read(dir.path(), "shared/b.md"), "beta", "{tool}");
    }
}

#[tokio::test]
async fn the_wrong_order_is_loud_on_every_revision_for_a_required_argument() {
    let revisions = [
        ProtocolVersion::V_2024_11_05,
        ProtocolVersion::V_2025_06_18,
        ProtocolVersion::V_2025_11_25,
        ProtocolVersion::V_2026_07_28,
    ];
    for version in revisions {
        let dir = tree();
        let script = client(dir.path(), version.clone());
        script.answer(accept(json!({ "confirm": true })));
        let c = start(script, &version).await;
        let a = json!({ "path": at(dir.path(), "shared/a.md") });
        let result = mcp_script::call(&c, "empty_after", a).await.unwrap();
        assert_eq!(
            reason(&result).as_deref(),
            Some("arguments_unseen"),
            "{version:?}: {result:?}"
        );
        assert!(text_of(&result).contains("Nothing was read or changed"));
        assert_eq!(read(dir.path(), "shared/a.md"), "alpha", "{version:?}");
    }
}

#[tokio::test]
async fn calls_without_arguments_are_served_on_every_revision() {
    let revisions = [
        ProtocolVersion::V_2025_03_26,
        ProtocolVersion::V_2025_11_25,
        ProtocolVersion::V_2026_07_28,
    ];
    for version in revisions {
        let dir = tree();
        let c = start(client(dir.path(), version.clone()), &version).await;
        // A tool that declares none.
        let counted = mcp_script::call(&c, "count", Value::Null).await.unwrap();
        assert_eq!(text_of(&counted), "1", "{version:?}");
        // Optional arguments, omitted, ToolCall first: nothing is unseen
        // on the session revisions; on 2026-07-28 a call without arguments
        // to a tool that declares some cannot be told from one whose
        // arguments were taken, and is refused.
        let read = mcp_script::call(&c, "read_maybe", Value::Null)
            .await
            .unwrap();
        if version.has_initialize() {
            assert_eq!(text_of(&read), "no path", "{version:?}");
        } else {
            assert_eq!(reason(&read).as_deref(), Some("arguments_unseen"));
        }
        // Taken with the call, omitted arguments are seen as omitted.
        let read = mcp_script::call(&c, "read_maybe_joint", Value::Null)
            .await
            .unwrap();
        assert_eq!(text_of(&read), "no path", "{version:?}");
        let path = json!({ "path": at(dir.path(), "shared/a.md") });
        let read = mcp_script::call(&c, "read_maybe_joint", path)
            .await
            .unwrap();
        assert_eq!(text_of(&read), "alpha", "{version:?}");
        // With `{}` the arguments are seen, on every revision.
        let read = mcp_script::call(&c, "read_maybe", json!({})).await.unwrap();
        assert_eq!(text_of(&read), "no path", "{version:?}");
        let path = json!({ "path": at(dir.path(), "shared/b.md") });
        let read = mcp_script::call(&c, "read_maybe", path).await.unwrap();
        assert_eq!(text_of(&read), "beta", "{version:?}");
    }
}
