//! A scripted MCP client, for the demo and the tests: it declares roots and,
//! if asked, form elicitation; answers `roots/list` from a list the script
//! changes (optionally late); answers each form from a queue of scripted
//! answers (none left: cancel); and records what it was asked.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationAction, ElicitationCapability, FormElicitationCapability,
    Implementation, ProtocolVersion, RootsCapabilities,
};
use rmcp::service::{RequestContext, RunningService, ServiceError};
use rmcp::{ClientHandler, ErrorData, RoleClient, RoleServer, ServiceExt};
use serde_json::Value;

use crate::NotesServer;

/// What the client saw, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// It answered `roots/list` with these URIs.
    RootsListed(Vec<String>),
    /// It was shown a form and answered it.
    Form {
        /// The form's message.
        message: String,
        /// The form's `requestedSchema`, as sent.
        schema: Value,
        /// The scripted user's answer.
        answer: ElicitResult,
    },
}

#[derive(Debug, Default)]
struct Script {
    roots: Mutex<Vec<(String, Option<String>)>>,
    delays: Mutex<VecDeque<Duration>>,
    answers: Mutex<VecDeque<Answer>>,
    events: Mutex<Vec<Event>>,
    roots_requests: AtomicUsize,
}

/// The scripted client. Clones share the script.
#[derive(Clone, Debug)]
pub struct ScriptedClient {
    script: Arc<Script>,
    config: ClientConfig,
}

impl ScriptedClient {
    /// A client that declares `roots` (with `listChanged`) if `roots`, and
    /// form elicitation if `forms`; it speaks 2025-11-25.
    pub fn new(roots: bool, forms: bool) -> Self {
        let mut capabilities = ClientCapabilities::default();
        if roots {
            let mut declared = RootsCapabilities::default();
            declared.list_changed = Some(true);
            capabilities.roots = Some(declared);
        }
        if forms {
            let form = FormElicitationCapability::new();
            capabilities.elicitation = Some(ElicitationCapability::new().with_form(form));
        }
        let info = Implementation::new("scripted-client", env!("CARGO_PKG_VERSION"));
        let config = ClientConfig::new(capabilities, info)
            .with_protocol_version(ProtocolVersion::V_2025_11_25);
        Self {
            script: Arc::default(),
            config,
        }
    }

    /// Replaces the roots the next `roots/list` answers: `(uri, name)`.
    pub fn set_roots<'a>(&self, roots: impl IntoIterator<Item = (&'a str, Option<&'a str>)>) {
        *lock(&self.script.roots) = roots
            .into_iter()
            .map(|(uri, name)| (uri.to_owned(), name.map(str::to_owned)))
            .collect();
    }

    /// Delays the answer to the next `roots/list` not yet received (the
    /// list is taken when the request arrives, answered after `delay`).
    pub fn delay_roots_answer(&self, delay: Duration) {
        lock(&self.script.delays).push_back(delay);
    }

    /// Queues the scripted user's answer to the next form.
    pub fn answer(&self, answer: ElicitResult) {
        lock(&self.script.answers).push_back(Answer::Reply(answer));
    }

    /// Queues a pick: accept the next form with the option of `field`
    /// whose title contains `text` (no such option: cancel).
    pub fn pick(&self, field: &str, text: &str) {
        let answer = Answer::Pick {
            field: field.to_owned(),
            containing: text.to_owned(),
        };
        lock(&self.script.answers).push_back(answer);
    }

    /// What happened since the last call.
    pub fn take_events(&self) -> Vec<Event> {
        std::mem::take(&mut *lock(&self.script.events))
    }

    /// How many `roots/list` requests arrived so far.
    pub fn roots_requests(&self) -> usize {
        self.script.roots_requests.load(Ordering::SeqCst)
    }
}

/// A scripted answer.
#[derive(Clone, Debug)]
enum Answer {
    Reply(ElicitResult),
    Pick { field: String, containing: String },
}

impl Answer {
    /// The answer to a form with `schema`, as a user reading it would give.
    fn to_result(&self, schema: &Value) -> ElicitResult {
        match self {
            Self::Reply(result) => result.clone(),
            Self::Pick { field, containing } => schema["properties"][field]["oneOf"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|option| {
                    option["title"]
                        .as_str()
                        .is_some_and(|t| t.contains(containing))
                })
                .map(|option| accept(serde_json::json!({ field.as_str(): option["const"] })))
                .unwrap_or_else(cancel),
        }
    }
}

/// An accepted form with `content`.
pub fn accept(content: Value) -> ElicitResult {
    ElicitResult::new(ElicitationAction::Accept).with_content(content)
}

/// A declined form.
pub fn decline() -> ElicitResult {
    ElicitResult::new(ElicitationAction::Decline)
}

/// A cancelled form.
pub fn cancel() -> ElicitResult {
    ElicitResult::new(ElicitationAction::Cancel)
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl ClientHandler for ScriptedClient {
    fn get_info(&self) -> ClientConfig {
        self.config.clone()
    }

    // rmcp marks the roots types deprecated (SEP-2577 removes roots from the
    // 2026-07-28 revision); this client speaks 2025-11-25, where they are
    // how a user's consent reaches the server. Confined to this method.
    #[allow(deprecated)]
    async fn list_roots(
        &self,
        _cx: RequestContext<RoleClient>,
    ) -> Result<rmcp::model::ListRootsResult, ErrorData> {
        self.script.roots_requests.fetch_add(1, Ordering::SeqCst);
        let roots = lock(&self.script.roots).clone();
        let delay = lock(&self.script.delays).pop_front();
        if let Some(delay) = delay {
            tokio::time::sleep(delay).await;
        }
        let uris = roots.iter().map(|(uri, _)| uri.clone()).collect();
        lock(&self.script.events).push(Event::RootsListed(uris));
        let roots = roots.into_iter().map(|(uri, name)| {
            let root = rmcp::model::Root::new(uri);
            match name {
                Some(name) => root.with_name(name),
                None => root,
            }
        });
        Ok(rmcp::model::ListRootsResult::new(roots.collect()))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _cx: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let (message, schema) = match request {
            ElicitRequestParams::FormElicitationParams {
                message,
                requested_schema,
                ..
            } => (
                message,
                serde_json::to_value(requested_schema).unwrap_or_default(),
            ),
            other => (format!("{other:?}"), Value::Null),
        };
        let scripted = lock(&self.script.answers).pop_front();
        let answer = scripted.map_or_else(cancel, |a| a.to_result(&schema));
        let event = Event::Form {
            message,
            schema,
            answer: answer.clone(),
        };
        lock(&self.script.events).push(event);
        Ok(answer)
    }
}

/// A running in-process session: the server's side and the client's.
pub type Session = (
    RunningService<RoleServer, NotesServer>,
    RunningService<RoleClient, ScriptedClient>,
);

/// Connects `server` and `client` over an in-memory duplex pipe (both
/// `serve` calls run together: the server waits for `initialize`, the
/// client sends it).
///
/// # Errors
///
/// If either side fails to initialise.
pub async fn connect(
    server: NotesServer,
    client: ScriptedClient,
) -> Result<Session, Box<dyn std::error::Error + Send + Sync>> {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let (server, client) = tokio::join!(server.serve(server_io), client.serve(client_io));
    Ok((server?, client?))
}

/// Calls the tool `name` with `arguments` (a JSON object).
///
/// # Errors
///
/// A transport or protocol failure (tool errors are results).
pub async fn call(
    client: &RunningService<RoleClient, ScriptedClient>,
    name: &'static str,
    arguments: Value,
) -> Result<CallToolResult, ServiceError> {
    let mut params = CallToolRequestParams::new(name);
    if let Value::Object(arguments) = arguments {
        params = params.with_arguments(arguments);
    }
    client.call_tool(params).await
}

/// The text of a tool result's content blocks, joined by newlines.
pub fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
        .collect::<Vec<_>>()
        .join("\n")
}
