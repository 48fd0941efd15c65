//! The in-process sessions of `tests/glue.rs`: the scripted client
//! (`mcp_script`) against a test server whose tools exercise `SessionRoots`,
//! `tool_error` and `Elicitor`.

use std::io::Read;
use std::time::{Duration, Instant};

use mcp_roots::Error;
use mcp_roots_rmcp::{ElicitError, Elicitor, Form, Outcome, SessionRoots, tool_error};
use mcp_script::{Client, ScriptedClient, text_of};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ElicitationSchema, ServerCapabilities, ServerConfig};
use rmcp::serde_json::{Value, json};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{RoleServer, ServerHandler, tool, tool_handler, tool_router};

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

/// Connects `server` and `client` over a duplex pipe on the 2025-11-25
/// lifecycle (or what `client` speaks); the server side runs until the
/// client hangs up.
pub(crate) async fn serve<S: ServerHandler>(server: S, client: ScriptedClient) -> Client {
    let (server, client) = mcp_script::connect(server, client).await.unwrap();
    tokio::spawn(async move { server.waiting().await });
    client
}

/// Connects a test server on `roots` and `client`.
pub(crate) async fn connect(roots: SessionRoots, client: ScriptedClient) -> Client {
    serve(TestServer::new(roots), client).await
}

/// Calls `tool` with `args` (an object); transport failures panic.
pub(crate) async fn call(client: &Client, tool: &'static str, args: Value) -> CallToolResult {
    assert!(args.is_object(), "arguments must be an object");
    mcp_script::call(client, tool, args).await.unwrap()
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
