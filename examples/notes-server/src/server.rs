//! [`NotesServer`]: the rmcp handler. Its roots come from the client through
//! a [`SessionRoots`]; the wiring is the two notification handlers below.

use std::borrow::Cow;
use std::fmt;

use mcp_roots::RootsBuilder;
use mcp_roots::mcp::SessionRoots;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    DiscoverRequestMethod, DiscoverResult, Implementation, ProtocolVersion, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, tool_handler};

/// An MCP server for Markdown notes under the client's roots.
///
/// One per session: it owns the session's [`SessionRoots`], so one client's
/// roots can never authorise another client. Clone it only to hand it to
/// rmcp (clones share the session).
#[derive(Clone)]
pub struct NotesServer {
    pub(crate) roots: SessionRoots,
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
        Self {
            roots,
            tool_router: Self::tool_router(),
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
            .finish_non_exhaustive()
    }
}

/// What this server says about itself in `initialize`.
pub const INSTRUCTIONS: &str = "Notes are Markdown files (*.md) anywhere under the folders the user \
shared (roots). A note's title is its first '# ' heading, else its file name. notes_delete and \
notes_archive ask the user through a form before changing anything.";

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

    /// Roots reach a server through `roots/list` only on revisions with
    /// `initialize` (up to 2025-11-25); 2026-07-28 is a later issue.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(
            &ProtocolVersion::LATEST_WITH_INITIALIZE,
        ))
    }

    /// Refused, so that clients that try `server/discover` first fall back
    /// to `initialize` instead of giving up.
    async fn discover(&self, _cx: RequestContext<RoleServer>) -> Result<DiscoverResult, ErrorData> {
        Err(ErrorData::method_not_found::<DiscoverRequestMethod>())
    }
}
