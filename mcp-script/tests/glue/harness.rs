//! An in-process rmcp session for `tests/glue.rs`: a scripted client (roots
//! it can change and delay, scripted form answers, counters) and a test
//! server whose tools exercise `SessionRoots`, `tool_error` and `Elicitor`.

use std::collections::VecDeque;
use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcp_roots::Error;
use mcp_roots_rmcp::{ElicitError, Elicitor, Form, Outcome, SessionRoots, tool_error};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, CustomNotification,
    ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationCapability, ElicitationSchema,
    FormElicitationCapability, Implementation, ProtocolVersion, RootsCapabilities,
    ServerCapabilities, ServerConfig, UrlElicitationCapability,
};
use rmcp::serde_json::{Value, json};
use rmcp::service::{NotificationContext, RequestContext, RunningService};
use rmcp::{
    ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt, tool,
    tool_handler, tool_router,
};

/// What the scripted client does; shared with the test.
#[derive(Debug, Default)]
pub(crate) struct Script {
    roots: Mutex<Vec<String>>,
    delays: Mutex<VecDeque<Duration>>,
    answers: Mutex<VecDeque<ElicitResult>>,
    pub(crate) roots_requests: AtomicUsize,
    pub(crate) forms: AtomicUsize,
    /// Every elicitation request as sent (form and URL).
    pub(crate) asked: Mutex<Vec<ElicitRequestParams>>,
    /// Custom notifications received: (method, params).
    pub(crate) notifications: Mutex<Vec<(String, Value)>>,
}

impl Script {
    pub(crate) fn set_roots(&self, uris: &[&str]) {
        *self.roots.lock().unwrap() = uris.iter().map(|u| u.to_string()).collect();
    }

    /// The next `roots/list` to arrive is answered after `delay` (with the
    /// list as it was on arrival).
    pub(crate) fn delay(&self, delay: Duration) {
        self.delays.lock().unwrap().push_back(delay);
    }

    pub(crate) fn answer(&self, answer: ElicitResult) {
        self.answers.lock().unwrap().push_back(answer);
    }

    pub(crate) fn requests(&self) -> usize {
        self.roots_requests.load(Ordering::SeqCst)
    }
}

#[derive(Clone)]
pub(crate) struct TestClient {
    pub(crate) script: Arc<Script>,
    config: ClientConfig,
}

impl TestClient {
    pub(crate) fn new(roots: bool, forms: bool) -> Self {
        let mut caps = ClientCapabilities::default();
        if roots {
            let mut declared = RootsCapabilities::default();
            declared.list_changed = Some(true);
            caps.roots = Some(declared);
        }
        if forms {
            let form = FormElicitationCapability::new();
            caps.elicitation = Some(ElicitationCapability::new().with_form(form));
        }
        let config = ClientConfig::new(caps, Implementation::new("test-client", "0"))
            .with_protocol_version(ProtocolVersion::V_2025_11_25);
        Self {
            script: Arc::default(),
            config,
        }
    }

    /// Also declares URL-mode elicitation.
    pub(crate) fn with_url(mut self) -> Self {
        let declared = self.config.capabilities.elicitation.take();
        let url = UrlElicitationCapability::new();
        self.config.capabilities.elicitation = Some(declared.unwrap_or_default().with_url(url));
        self
    }

    /// Asks for `version` instead of 2025-11-25.
    pub(crate) fn speaking(mut self, version: ProtocolVersion) -> Self {
        self.config.protocol_version = version;
        self
    }
}

impl ClientHandler for TestClient {
    fn get_info(&self) -> ClientConfig {
        self.config.clone()
    }

    // The roots types are deprecated by rmcp (SEP-2577, 2026-07-28); this
    // client speaks 2025-11-25, where they are the consent boundary.
    #[allow(deprecated)]
    async fn list_roots(
        &self,
        _cx: RequestContext<RoleClient>,
    ) -> Result<rmcp::model::ListRootsResult, ErrorData> {
        self.script.roots_requests.fetch_add(1, Ordering::SeqCst);
        let uris = self.script.roots.lock().unwrap().clone();
        let delay = self.script.delays.lock().unwrap().pop_front();
        if let Some(delay) = delay {
            tokio::time::sleep(delay).await;
        }
        let roots = uris.into_iter().map(rmcp::model::Root::new).collect();
        Ok(rmcp::model::ListRootsResult::new(roots))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _cx: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.script.forms.fetch_add(1, Ordering::SeqCst);
        self.script.asked.lock().unwrap().push(request);
        let answer = self.script.answers.lock().unwrap().pop_front();
        Ok(answer.unwrap_or_else(|| ElicitResult::new(ElicitationAction::Cancel)))
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        _cx: NotificationContext<RoleClient>,
    ) {
        let params = notification.params.unwrap_or_default();
        let received = (notification.method, params);
        self.script.notifications.lock().unwrap().push(received);
    }
}

#[derive(Debug, rmcp::serde::Deserialize, rmcp::schemars::JsonSchema)]
#[serde(crate = "rmcp::serde")]
#[schemars(crate = "rmcp::schemars")]
pub(crate) struct PathArgs {
    pub(crate) path: String,
}

#[derive(Debug, rmcp::serde::Deserialize, rmcp::schemars::JsonSchema)]
#[serde(crate = "rmcp::serde")]
#[schemars(crate = "rmcp::schemars")]
pub(crate) struct AskArgs {
    /// "confirm", "choose" (among a, b, c) or "name" (a custom form).
    pub(crate) questions: Vec<String>,
    /// Questions allowed in this call (the Elicitor's default when absent).
    pub(crate) budget: Option<usize>,
}

#[derive(Clone)]
pub(crate) struct TestServer {
    pub(crate) roots: SessionRoots,
    tool_router: ToolRouter<TestServer>,
}

impl TestServer {
    pub(crate) fn new(roots: SessionRoots) -> Self {
        Self {
            roots,
            tool_router: Self::tool_router(),
        }
    }
}

#[tool_router]
impl TestServer {
    #[tool(description = "Read a file inside the roots")]
    async fn read(&self, Parameters(PathArgs { path }): Parameters<PathArgs>) -> CallToolResult {
        let read = self.roots.run(move |snap| {
            let mut text = String::new();
            let mut file = snap.open(&path)?;
            if let Err(err) = file.read_to_string(&mut text) {
                // Only a revocation (a root change racing this call) fails
                // here; a panic would leave the call unanswered.
                let inner = err.into_inner().and_then(|e| e.downcast::<Error>().ok());
                return Err(*inner.expect("a revocation"));
            }
            Ok(text)
        });
        match read.await {
            Ok(text) => CallToolResult::structured(json!({ "text": text })),
            Err(err) => tool_error(&err),
        }
    }

    #[tool(description = "Ask the questions in order; report each outcome")]
    async fn ask(
        &self,
        Parameters(args): Parameters<AskArgs>,
        cx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let mut elicitor = Elicitor::new(&cx.peer);
        if let Some(budget) = args.budget {
            elicitor = elicitor.with_budget(budget);
        }
        let mut outcomes = Vec::new();
        for question in &args.questions {
            outcomes.push(match question.as_str() {
                "confirm" => describe(elicitor.confirm("Delete x?", "Delete it").await),
                "choose" => describe(elicitor.choose("Which?", &["a", "b", "c"]).await),
                _ => describe(elicitor.ask(&name_form()).await),
            });
        }
        CallToolResult::structured(json!({ "outcomes": outcomes }))
    }
}

/// A custom flat form: a required name of at least 3 characters and an
/// optional flag.
fn name_form() -> Form {
    let schema = ElicitationSchema::builder()
        .required_string_with("name", |s| s.min_length(3))
        .optional_bool("notify", false)
        .build()
        .unwrap();
    Form::new("Your name?", schema)
}

fn describe<T: rmcp::serde::Serialize>(result: Result<Outcome<T>, ElicitError>) -> Value {
    match result {
        Ok(Outcome::Accepted(value)) => json!({ "accepted": value }),
        Ok(Outcome::Declined) => json!("declined"),
        Ok(Outcome::Cancelled) => json!("cancelled"),
        Err(err) => json!({ "error": err.reason(), "text": text_of(&err.to_tool_result()) }),
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for TestServer {
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

pub(crate) type Client = RunningService<RoleClient, TestClient>;

/// Connects a server on `roots` and `client` over a duplex pipe; the
/// server side runs until the client hangs up.
pub(crate) async fn connect(roots: SessionRoots, client: TestClient) -> Client {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let server = TestServer::new(roots);
    let (server, client) = tokio::join!(server.serve(server_io), client.serve(client_io));
    let server = server.unwrap();
    tokio::spawn(async move { server.waiting().await });
    client.unwrap()
}

pub(crate) async fn call(client: &Client, tool: &'static str, args: Value) -> CallToolResult {
    let Value::Object(args) = args else {
        panic!("arguments must be an object")
    };
    let params = CallToolRequestParams::new(tool).with_arguments(args);
    client.call_tool(params).await.unwrap()
}

pub(crate) fn text_of(result: &CallToolResult) -> String {
    let texts = result.content.iter().filter_map(|c| c.as_text());
    texts
        .map(|t| t.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Waits (bounded) until the roots' generation reaches `generation`.
pub(crate) async fn wait_generation(roots: &SessionRoots, generation: u64) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while roots.roots().generation() < generation {
        assert!(
            Instant::now() < deadline,
            "generation {generation} never came"
        );
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}
