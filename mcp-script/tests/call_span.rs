//! The log names the call: what the library logs while a tool's file work
//! runs on the blocking pool (a denial, here) carries the glue's
//! `tool_call` span, with the tool's name and the request id, on the
//! session revisions and on 2026-07-28.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use mcp_roots::RootsBuilder;
use mcp_roots_rmcp::{SessionRoots, ToolCall};
use mcp_script::{ScriptedClient, connect, connect_modern};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResponse, CallToolResult, ContentBlock, ProtocolVersion, ServerCapabilities,
    ServerConfig,
};
use rmcp::serde_json::json;
use rmcp::service::NotificationContext;
use rmcp::{RoleServer, ServerHandler, tool, tool_handler, tool_router};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};
use tracing_core::span::Current;

/// Records each event with the fields of the spans entered on its thread.
#[derive(Clone, Default)]
struct Capture {
    spans: Arc<Mutex<HashMap<u64, (String, &'static Metadata<'static>)>>>,
    next: Arc<AtomicU64>,
    lines: Arc<Mutex<Vec<String>>>,
}

thread_local! {
    static ENTERED: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

struct Fields<'a>(&'a mut String);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let _ = write!(self.0, " {}={value:?}", field.name());
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let id = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        let mut text = span.metadata().name().to_owned();
        span.record(&mut Fields(&mut text));
        self.spans
            .lock()
            .unwrap()
            .insert(id, (text, span.metadata()));
        Id::from_u64(id)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let spans = self.spans.lock().unwrap();
        let mut line = ENTERED.with(|e| {
            e.borrow()
                .iter()
                .filter_map(|id| spans.get(id).map(|(text, _)| text.clone()))
                .collect::<Vec<_>>()
                .join(" > ")
        });
        let _ = write!(line, " | {}:", event.metadata().target());
        event.record(&mut Fields(&mut line));
        self.lines.lock().unwrap().push(line);
    }
    fn current_span(&self) -> Current {
        let innermost = ENTERED.with(|e| e.borrow().last().copied());
        let spans = self.spans.lock().unwrap();
        match innermost.and_then(|id| spans.get(&id).map(|(_, meta)| (id, *meta))) {
            Some((id, meta)) => Current::new(Id::from_u64(id), meta),
            None => Current::none(),
        }
    }
    fn enter(&self, id: &Id) {
        ENTERED.with(|e| e.borrow_mut().push(id.into_u64()));
    }
    fn exit(&self, id: &Id) {
        ENTERED.with(|e| {
            let mut entered = e.borrow_mut();
            if let Some(at) = entered.iter().rposition(|&x| x == id.into_u64()) {
                entered.remove(at);
            }
        });
    }
}

#[derive(Debug, rmcp::serde::Deserialize, rmcp::schemars::JsonSchema)]
#[serde(crate = "rmcp::serde")]
#[schemars(crate = "rmcp::schemars")]
struct PathArgs {
    path: String,
}

#[derive(Clone)]
struct Server {
    roots: SessionRoots,
    tool_router: ToolRouter<Server>,
}

#[tool_router]
impl Server {
    #[tool(description = "Read a text file inside the roots")]
    async fn read_file(
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
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
    async fn on_initialized(&self, cx: NotificationContext<RoleServer>) {
        self.roots.on_initialized(&cx.peer).await;
    }
}

fn server() -> Server {
    Server {
        roots: SessionRoots::new(RootsBuilder::default()),
        tool_router: Server::tool_router(),
    }
}

#[tokio::test]
async fn a_denial_on_the_blocking_pool_names_the_tool_and_the_request() {
    let capture = Capture::default();
    tracing::subscriber::set_global_default(capture.clone()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("shared")).unwrap();
    let shared = format!("file://{}/shared", dir.path().display());
    let denied = json!({ "path": "/etc/passwd" });

    for version in [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28] {
        let client = ScriptedClient::new(true, false).speaking(version.clone());
        client.set_root_uris(&[&shared]);
        let result = if version.has_initialize() {
            let (server, client) = connect(server(), client).await.unwrap();
            tokio::spawn(async move { server.waiting().await });
            assert!(
                client
                    .service()
                    .roots_answered(1, std::time::Duration::from_secs(5))
                    .await
            );
            mcp_script::call(&client, "read_file", denied.clone())
                .await
                .unwrap()
        } else {
            let (server, client) = connect_modern(server(), client).await.unwrap();
            tokio::spawn(async move {
                if let Ok(Ok(server)) = server.await {
                    let _ = server.waiting().await;
                }
            });
            mcp_script::call(&client, "read_file", denied.clone())
                .await
                .unwrap()
        };
        assert_eq!(result.is_error, Some(true), "{version}");
        let lines = capture.lines.lock().unwrap().clone();
        let denial = lines
            .iter()
            .rev()
            .find(|l| l.contains("mcp_roots::denial") && l.contains("/etc/passwd"))
            .unwrap_or_else(|| panic!("{version}: no denial logged in {lines:#?}"));
        assert!(denial.contains("tool_call"), "{version}: {denial}");
        assert!(denial.contains("tool=read_file"), "{version}: {denial}");
        assert!(denial.contains("request="), "{version}: {denial}");
        assert!(denial.contains("revision="), "{version}: {denial}");
    }
}
