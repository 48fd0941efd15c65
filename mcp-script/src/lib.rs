//! A scripted MCP client, for the notes server's demo and tests and for the
//! glue's tests (`tests/glue.rs`): it declares roots and, if asked, form and
//! URL-mode elicitation; answers `roots/list` from a list the script changes
//! (optionally late); answers each form from a queue of scripted answers
//! (none left: cancel); answers each URL from its own queue and, on accept,
//! plays the scripted browser ([`browser`]) against the page; records every
//! elicitation request as sent, every custom notification and
//! `notifications/elicitation/complete`; and records what it saw as
//! [`Event`]s. It speaks 2025-11-25 unless told otherwise
//! ([`ScriptedClient::speaking`]); on 2026-07-28 ([`connect_modern`]) rmcp's
//! `call_tool` answers the input requests through the same handlers.
//!
//! A server under test runs in this process ([`connect`],
//! [`Connection::in_process`]), as a binary spoken to over stdio
//! ([`Connection::spawn`]), or listens on Streamable HTTP
//! ([`Connection::http`]).
//!
//! Not published: no publishable crate depends on it, not even for tests.

pub mod browser;
mod connection;
mod session;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use mcp_roots_rmcp::ELICITATION_COMPLETE;
use rmcp::model::{
    ClientCapabilities, ClientConfig, CustomNotification, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationCapability, FormElicitationCapability, Implementation,
    ProtocolVersion, RootsCapabilities, UrlElicitationCapability,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ClientHandler, ErrorData, RoleClient};
use serde_json::Value;
use tokio::task::JoinHandle;

use self::browser::{Step, Visit};
pub use self::connection::Connection;
pub use self::session::{
    Client, ModernSession, Session, call, connect, connect_modern, modern_lifecycle,
    read_resource_round, text_of,
};

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
    /// It was asked to send the user to a URL, and answered.
    Url {
        /// The message shown with the URL.
        message: String,
        /// The URL (it carries the page's token).
        url: String,
        /// The `elicitationId`.
        elicitation_id: String,
        /// The scripted user's answer.
        action: ElicitationAction,
    },
    /// The scripted browser made a request.
    Http(Visit),
    /// `notifications/elicitation/complete` arrived for this `elicitationId`.
    Completed(String),
}

#[derive(Debug, Default)]
struct Script {
    roots: Mutex<Vec<(String, Option<String>)>>,
    delays: Mutex<VecDeque<Duration>>,
    answers: Mutex<VecDeque<Answer>>,
    form_delay: Mutex<Duration>,
    urls: Mutex<VecDeque<UrlAnswer>>,
    browsers: Mutex<Vec<JoinHandle<()>>>,
    completed: Mutex<Vec<String>>,
    events: Mutex<Vec<Event>>,
    asked: Mutex<Vec<ElicitRequestParams>>,
    notifications: Mutex<Vec<(String, Value)>>,
    roots_requests: AtomicUsize,
    roots_answered: AtomicUsize,
}

/// What the scripted user does with a URL elicitation.
#[derive(Clone, Debug)]
pub enum UrlAnswer {
    /// Agrees to open the page, then plays these browser steps.
    Accept(Vec<Step>),
    /// Declines.
    Decline,
    /// Dismisses the request.
    Cancel,
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

    /// Also declares URL-mode elicitation (`elicitation.url`).
    pub fn with_url_mode(mut self) -> Self {
        let declared = self.config.capabilities.elicitation.take();
        let declared = declared.unwrap_or_default();
        let url = UrlElicitationCapability::new();
        self.config.capabilities.elicitation = Some(declared.with_url(url));
        self
    }

    /// Asks for protocol revision `version` instead of 2025-11-25.
    pub fn speaking(mut self, version: ProtocolVersion) -> Self {
        self.config.protocol_version = version;
        self
    }

    /// Replaces the roots the next `roots/list` answers: `(uri, name)`.
    pub fn set_roots<'a>(&self, roots: impl IntoIterator<Item = (&'a str, Option<&'a str>)>) {
        *lock(&self.script.roots) = roots
            .into_iter()
            .map(|(uri, name)| (uri.to_owned(), name.map(str::to_owned)))
            .collect();
    }

    /// Replaces the roots the next `roots/list` answers with `uris`, unnamed.
    pub fn set_root_uris(&self, uris: &[&str]) {
        self.set_roots(uris.iter().map(|uri| (*uri, None)));
    }

    /// Delays the answer to the next `roots/list` not yet received (the
    /// list is taken when the request arrives, answered after `delay`).
    pub fn delay_roots_answer(&self, delay: Duration) {
        lock(&self.script.delays).push_back(delay);
    }

    /// The scripted user takes `delay` before answering each form.
    pub fn delay_forms(&self, delay: Duration) {
        *lock(&self.script.form_delay) = delay;
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

    /// Queues the scripted user's answer to the next URL elicitation.
    pub fn answer_url(&self, answer: UrlAnswer) {
        lock(&self.script.urls).push_back(answer);
    }

    /// Waits until the scripted browser has played every step so far.
    pub async fn browsed(&self) {
        let browsers = std::mem::take(&mut *lock(&self.script.browsers));
        for browser in browsers {
            let _ = browser.await;
        }
    }

    /// Waits (at most `within`) for `notifications/elicitation/complete`
    /// with `elicitation_id`; whether it came.
    pub async fn completed(&self, elicitation_id: &str, within: Duration) -> bool {
        let deadline = Instant::now() + within;
        loop {
            if lock(&self.script.completed)
                .iter()
                .any(|id| id == elicitation_id)
            {
                return true;
            }
            if Instant::now() > deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    /// What happened since the last call.
    pub fn take_events(&self) -> Vec<Event> {
        std::mem::take(&mut *lock(&self.script.events))
    }

    /// Every elicitation request so far (forms and URLs), as sent.
    pub fn asked(&self) -> Vec<ElicitRequestParams> {
        lock(&self.script.asked).clone()
    }

    /// Every custom notification so far: `(method, params)`.
    pub fn notifications(&self) -> Vec<(String, Value)> {
        lock(&self.script.notifications).clone()
    }

    /// How many `roots/list` requests arrived so far.
    pub fn roots_requests(&self) -> usize {
        self.script.roots_requests.load(Ordering::SeqCst)
    }

    /// Waits (at most `within`) until `count` `roots/list` requests were
    /// answered in all; whether they were. A tool call sent after this
    /// sees those roots: the server waits for a re-list it started before
    /// it works.
    pub async fn roots_answered(&self, count: usize, within: Duration) -> bool {
        let deadline = Instant::now() + within;
        while self.script.roots_answered.load(Ordering::SeqCst) < count {
            if Instant::now() > deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        true
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
        self.script.roots_answered.fetch_add(1, Ordering::SeqCst);
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
        lock(&self.script.asked).push(request.clone());
        let (message, schema) = match request {
            ElicitRequestParams::FormElicitationParams {
                message,
                requested_schema,
                ..
            } => (
                message,
                serde_json::to_value(requested_schema).unwrap_or_default(),
            ),
            ElicitRequestParams::UrlElicitationParams {
                message,
                url,
                elicitation_id,
                ..
            } => return Ok(self.open_url(message, url, elicitation_id)),
            other => (format!("{other:?}"), Value::Null),
        };
        let scripted = lock(&self.script.answers).pop_front();
        let answer = scripted.map_or_else(cancel, |a| a.to_result(&schema));
        let delay = *lock(&self.script.form_delay);
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        let event = Event::Form {
            message,
            schema,
            answer: answer.clone(),
        };
        lock(&self.script.events).push(event);
        Ok(answer)
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        _cx: NotificationContext<RoleClient>,
    ) {
        let params = notification.params.unwrap_or_default();
        let received = (notification.method.clone(), params.clone());
        lock(&self.script.notifications).push(received);
        if notification.method != ELICITATION_COMPLETE {
            return;
        }
        let id = params["elicitationId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        lock(&self.script.events).push(Event::Completed(id.clone()));
        lock(&self.script.completed).push(id);
    }
}

impl ScriptedClient {
    /// The scripted user's answer to a URL; on accept the browser starts
    /// (a task of its own) while the answer goes back.
    fn open_url(&self, message: String, url: String, elicitation_id: String) -> ElicitResult {
        let scripted = lock(&self.script.urls).pop_front();
        let (action, steps) = match scripted.unwrap_or(UrlAnswer::Cancel) {
            UrlAnswer::Accept(steps) => (ElicitationAction::Accept, steps),
            UrlAnswer::Decline => (ElicitationAction::Decline, Vec::new()),
            UrlAnswer::Cancel => (ElicitationAction::Cancel, Vec::new()),
        };
        let event = Event::Url {
            message,
            url: url.clone(),
            elicitation_id,
            action: action.clone(),
        };
        lock(&self.script.events).push(event);
        if !steps.is_empty() {
            let script = self.script.clone();
            let browser = tokio::spawn(async move {
                browser::browse(&url, &steps, |visit| {
                    lock(&script.events).push(Event::Http(visit));
                })
                .await;
            });
            lock(&self.script.browsers).push(browser);
        }
        ElicitResult::new(action)
    }
}
