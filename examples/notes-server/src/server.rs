//! [`NotesServer`]: the rmcp handler. Its [`SessionRoots`] holds the
//! session's roots on the revisions with `initialize` (2024-11-05 to
//! 2025-11-25: `roots/list` after `initialize`, again on `list_changed`,
//! wired by the two notification handlers below) and serves every tool
//! body, on those revisions and on 2026-07-28, where the roots come with
//! each tool call instead. The server offers every revision rmcp knows
//! (rmcp's default `supported_protocol_versions`, which its
//! `server/discover` answers with).

use std::fmt;
use std::time::Duration;

use mcp_roots::RootsBuilder;
use mcp_roots_rmcp::{Revision, SessionRoots, ToolCall};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::service::NotificationContext;
use rmcp::{RoleServer, ServerHandler, tool_handler};

use crate::held::Held;
use crate::hints::with_write_hints;
use crate::prefs::Preferences;
use crate::setup::SETUP_WAIT;

/// An MCP server for Markdown notes under the client's roots.
///
/// One per session: it owns the session's [`SessionRoots`], so one client's
/// roots can never authorise another client. Clone it only to hand it to
/// rmcp (clones share the session).
#[derive(Clone)]
pub struct NotesServer {
    pub(crate) roots: SessionRoots,
    /// Notes held open by `notes_open`.
    pub(crate) held: Held,
    /// What `notes_setup` sets (the template for new notes) in a session.
    pub(crate) prefs: Preferences,
    /// The same for requests without a session (2026-07-28): the server's,
    /// not one request's. The session's own unless set apart
    /// ([`with_request_preferences`](Self::with_request_preferences)).
    pub(crate) request_prefs: Preferences,
    /// How long a setup page lives.
    pub(crate) setup_wait: Duration,
    /// The URL of the setup page every instance serves (`--setup-listen`),
    /// for 2026-07-28 flows; `None`: a page per flow.
    pub(crate) shared_page: Option<url::Url>,
    // rmcp's router, built once (`#[tool_handler(router = …)]` reads it).
    pub(crate) tool_router: ToolRouter<NotesServer>,
}

impl NotesServer {
    /// A server for one new session with the operator's `policy` (ceiling,
    /// what a client without roots gets).
    pub fn new(policy: RootsBuilder) -> Self {
        Self::with_session(SessionRoots::new(policy))
    }

    /// A server on a session built by the caller (e.g. with shorter
    /// timeouts in tests).
    pub fn with_session(roots: SessionRoots) -> Self {
        let prefs = Preferences::default();
        // The changing tools say they change nothing under a read-only policy.
        let tools = Self::tool_router() + Self::setup_router();
        let tool_router = with_write_hints(tools, roots.roots().writes());
        Self {
            roots,
            held: Held::default(),
            request_prefs: prefs.clone(),
            prefs,
            setup_wait: SETUP_WAIT,
            shared_page: None,
            tool_router,
        }
    }

    /// Sets how long a `notes_setup` page lives, the user's consent
    /// included (default [`SETUP_WAIT`]).
    pub fn with_setup_wait(mut self, wait: Duration) -> Self {
        self.setup_wait = wait;
        self
    }

    /// Sends 2026-07-28 setup flows to the page at `url` that every
    /// instance serves ([`page::serve_any`](crate::page::serve_any)), with
    /// a flow token sealed by the session's rounds, instead of starting a
    /// page per flow in this instance.
    pub fn with_shared_setup_page(mut self, url: url::Url) -> Self {
        self.shared_page = Some(url);
        self
    }

    /// Sets the preferences of 2026-07-28 calls, which have no session to
    /// keep them in: over HTTP, where each such request gets a server of
    /// its own, the server process's (shared by its stateless requests),
    /// so that a template set up in one request serves the next. Calls in
    /// a session keep the session's own.
    pub fn with_request_preferences(mut self, prefs: Preferences) -> Self {
        self.request_prefs = prefs;
        self
    }

    /// The preferences `notes_setup` sets in a session.
    pub fn preferences(&self) -> &Preferences {
        &self.prefs
    }

    /// The preferences `call` reads and sets: the session's, or on
    /// 2026-07-28 the requests'.
    pub(crate) fn preferences_of(&self, call: &ToolCall) -> &Preferences {
        match call.revision() {
            Revision::Rounds => &self.request_prefs,
            _ => &self.prefs,
        }
    }

    /// The session's roots (for the demo and tests: they hold tracked files
    /// and watch generations through it).
    pub fn session(&self) -> &SessionRoots {
        &self.roots
    }
}

impl fmt::Debug for NotesServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NotesServer")
            .field("roots", &self.roots)
            .field("prefs", &self.prefs)
            .finish_non_exhaustive()
    }
}

/// What this server says about itself in `initialize` (and `server/discover`).
pub const INSTRUCTIONS: &str = "Notes are Markdown files (*.md) anywhere under the folders the user \
shared (roots). A note's title is its first '# ' heading, else its file name. notes_write creates \
a note or replaces its text. notes_delete deletes the one note with a title, and asks the user \
which when several share it; notes_archive always asks the user through a form first. \
notes_open keeps a note open (read it again with its handle). notes_setup opens a local setup \
page (URL-mode elicitation) for the template of new notes.";

#[tool_handler(router = self.tool_router)]
impl ServerHandler for NotesServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "notes-server",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(INSTRUCTIONS)
    }

    // The whole roots wiring: list after `initialize`, re-list on change.
    async fn on_initialized(&self, cx: NotificationContext<RoleServer>) {
        self.roots.on_initialized(&cx.peer).await;
    }

    async fn on_roots_list_changed(&self, cx: NotificationContext<RoleServer>) {
        self.roots.on_list_changed(&cx.peer).await;
    }
}
