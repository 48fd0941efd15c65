//! [rmcp](https://docs.rs/rmcp) glue for [`mcp_roots`]: an rmcp server keeps
//! every file operation inside the folders the user shared, on every MCP
//! protocol revision, with the roots synchronised per session, refusals as
//! tool results the model can act on, and elicitation on rmcp's own types.
//!
//! It is a client of `mcp_roots`' public API like any server, so everything
//! here could be written outside it; it exists so that no server has to.
//!
//! ```no_run
//! use mcp_roots::Roots;
//! use mcp_roots_rmcp::{SessionRoots, tool_error};
//! use rmcp::handler::server::router::tool::ToolRouter;
//! use rmcp::handler::server::wrapper::Parameters;
//! use rmcp::model::{CallToolResult, ContentBlock, ServerCapabilities, ServerConfig};
//! use rmcp::service::NotificationContext;
//! use rmcp::{RoleServer, ServerHandler, tool, tool_handler, tool_router};
//!
//! #[derive(serde::Deserialize, rmcp::schemars::JsonSchema)]
//! #[schemars(crate = "rmcp::schemars")]
//! struct WriteArgs {
//!     /// A `file://` URI or an absolute path inside the shared folders.
//!     path: String,
//!     text: String,
//! }
//!
//! /// One per session: a session's roots never authorise another client.
//! #[derive(Clone)]
//! struct Notes {
//!     roots: SessionRoots,
//!     tool_router: ToolRouter<Notes>,
//! }
//!
//! #[tool_router]
//! impl Notes {
//!     fn new() -> Self {
//!         let policy = Roots::builder().ceiling(["/home/alice/Documents"]);
//!         Self { roots: SessionRoots::new(policy), tool_router: Self::tool_router() }
//!     }
//!
//!     #[tool(description = "Write a note inside the folders the user shared")]
//!     async fn write(&self, Parameters(args): Parameters<WriteArgs>) -> CallToolResult {
//!         // Waits (bounded) for the client's first roots answer, then works
//!         // on tokio's blocking pool.
//!         let written = self
//!             .roots
//!             .run(move |snap| snap.write_atomic(&args.path, args.text.as_bytes()))
//!             .await;
//!         match written {
//!             Ok(()) => CallToolResult::success(vec![ContentBlock::text("written")]),
//!             // `isError: true`, a sentence, and the stable reason.
//!             Err(err) => tool_error(&err),
//!         }
//!     }
//! }
//!
//! #[tool_handler(router = self.tool_router)]
//! impl ServerHandler for Notes {
//!     fn get_info(&self) -> ServerConfig {
//!         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
//!     }
//!     // The whole roots wiring: list after `initialize`, re-list on change.
//!     async fn on_initialized(&self, cx: NotificationContext<RoleServer>) {
//!         self.roots.on_initialized(&cx.peer).await;
//!     }
//!     async fn on_roots_list_changed(&self, cx: NotificationContext<RoleServer>) {
//!         self.roots.on_list_changed(&cx.peer).await;
//!     }
//! }
//! # fn main() { let _ = Notes::new(); }
//! ```
//!
//! - [`SessionRoots`]: one session's roots, synchronised with the client
//!   (`roots/list` after `initialize`, again on `list_changed`), with tool
//!   calls gated on the first answer and run on the blocking pool.
//! - [`tool_error`]: a refusal as a tool result the model can act on.
//! - [`Elicitor`]: form elicitation with flat forms, server-side validation
//!   of the answer, typed outcomes, and the two common forms (choose one of
//!   N, confirm a destructive action).
//! - URL-mode elicitation ([`Elicitor::ask_url`], [`url_elicitation_required`],
//!   [`Elicitor::complete`]) with a version and capability guard.
//! - The 2026-07-28 revision ([`ask_roots`], [`SessionRoots::request_roots`]
//!   and [`run_blocking`], [`form_request`], [`form_outcome`]): roots and
//!   questions travel in input-required results; request roots never become
//!   the session's.
//!
//! | revision | how roots arrive | elicitation |
//! |---|---|---|
//! | 2025-06-18 | `roots/list` after `initialize`, again on `list_changed` | form |
//! | 2025-11-25 | same | form, URL |
//! | 2026-07-28 | an input request per tool call, request-scoped | input requests |
//!
//! # Versions
//!
//! rmcp's types are part of this crate's API (`Peer<RoleServer>`,
//! `CallToolResult`, `ElicitationSchema`, …), so this crate's version follows
//! rmcp's: 0.1 goes with rmcp 3 (3.11 or later), and moving to an rmcp
//! release that breaks its API is a breaking release of this crate. Use the
//! rmcp that this crate depends on.
//!
//! # Features
//!
//! None. The features of `mcp_roots` (such as `watch`) are chosen on the
//! server's own `mcp-roots` dependency.

mod answer;
mod ask;
mod blocking;
mod call;
mod denial;
mod elicit;
mod empty;
mod input_required;
mod legacy;
mod rounds;
mod serve;
mod session;
mod stop;
mod url;
mod validate;

pub use ask::{Ask, Visited};
pub use blocking::run_blocking;
pub use call::{Revision, ToolCall};
pub use denial::tool_error;
pub use elicit::{ElicitError, Elicitor, Form, Outcome};
pub use input_required::{ROOTS_INPUT, ask_roots, form_outcome, form_request};
pub use rounds::{
    Clock, DEFAULT_REPLAY_CAPACITY, DEFAULT_STATE_TTL, DEFAULT_URL_ROUND_WAIT,
    DEFAULT_URL_WAIT_ROUNDS, Rounds,
};
pub use session::{DEFAULT_FIRST_ANSWER_WAIT, DEFAULT_LIST_TIMEOUT, SessionRoots};
pub use stop::Stop;
pub use url::{
    ELICITATION_COMPLETE, URL_ELICITATION_REQUIRED, URL_MODE_SINCE, UrlElicitation,
    url_elicitation_required,
};
