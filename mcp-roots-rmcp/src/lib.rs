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
//! use mcp_roots_rmcp::{Parameters, SessionRoots, ToolCall};
//! use rmcp::handler::server::router::tool::ToolRouter;
//! use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, ServerCapabilities, ServerConfig};
//! use rmcp::service::NotificationContext;
//! use rmcp::{RoleServer, ServerHandler, tool, tool_handler, tool_router};
//!
//! // `schemars` is the server's own dependency (`schemars = "1"`, the
//! // schemars rmcp uses): no `#[schemars(crate = …)]` needed.
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
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
//!     // The call and its arguments together: the glue's `Parameters`, in
//!     // place of rmcp's (a 2026-07-28 retry is bound to these arguments).
//!     async fn write(&self, Parameters(call, args): Parameters<WriteArgs>) -> CallToolResponse {
//!         // The session's roots (2024-11-05 to 2025-11-25), or this
//!         // request's (2026-07-28: asked for in an input-required round);
//!         // short work runs inline (`serve_blocking` hops to tokio's
//!         // blocking pool for a walk or a large copy); a refusal (`?`) is
//!         // the tool's error result: `isError`, a sentence, the stable reason.
//!         self.roots
//!             .serve(call, move |snap| {
//!                 snap.write_atomic(&args.path, args.text.as_bytes())?;
//!                 Ok(CallToolResult::success(vec![ContentBlock::text("written")]))
//!             })
//!             .await
//!     }
//!
//!     #[tool(description = "List the folders the user shared")]
//!     async fn folders(&self, call: ToolCall) -> CallToolResponse {
//!         // No arguments: the call alone. Every root this call may use, in
//!         // the client's order; `resolve(".")` is the root itself.
//!         self.roots
//!             .serve(call, |snap| {
//!                 let mut uris = Vec::new();
//!                 for root in snap.set().roots() {
//!                     uris.push(root.resolve(".")?.to_uri());
//!                 }
//!                 Ok(CallToolResult::success(vec![ContentBlock::text(uris.join("\n"))]))
//!             })
//!             .await
//!     }
//! }
//!
//! #[tool_handler(router = self.tool_router)]
//! impl ServerHandler for Notes {
//!     fn get_info(&self) -> ServerConfig {
//!         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
//!     }
//!     // The session revisions' wiring: list after `initialize`, re-list on change.
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
//! # One tool body, every revision
//!
//! A tool takes its call and its arguments together through the glue's
//! [`Parameters`] (`Parameters(call, args)`; a tool without arguments takes
//! a [`ToolCall`] alone) and hands its body
//! to [`SessionRoots::serve`] (file work only) or
//! [`SessionRoots::serve_with`] (file work and questions to the user,
//! through an [`Ask`]). The glue supplies what the body needs the way the
//! negotiated revision allows:
//!
//! | revision | roots | a form ([`Ask::choose`], [`Ask::confirm`], [`Ask::form`]) | a URL ([`Ask::url`]) |
//! |---|---|---|---|
//! | 2024-11-05, 2025-03-26 | the session's: `roots/list` after `initialized`, again on `list_changed` | refused: `elicitation_unsupported`, nothing changed | refused: `url_elicitation_unsupported` |
//! | 2025-06-18 | the session's | `elicitation/create`, the body waits | refused |
//! | 2025-11-25 | the session's | `elicitation/create` | `elicitation/create` (mode `url`), then `notifications/elicitation/complete` |
//! | 2026-07-28 | this request's: an input request in the first round, policy applied, never installed | an input request; the retry resumes the body | an input request (accept = consent), then "still waiting" state-only rounds until the flow ends |
//!
//! On every revision a client that does not declare `roots` gets the
//! server's policy at once (the ceiling if the operator grants it to such
//! clients with [`EmptyRoots::Ceiling`](mcp_roots::EmptyRoots::Ceiling),
//! else nothing). On the session revisions so does a client whose
//! `roots/list` answers have all been empty so far; once it has listed a
//! folder, an empty list shares nothing. On 2026-07-28 (no memory of a
//! client) an empty list from a client that declares roots shares nothing.
//! An empty set is refused with `no_roots` saying why (no capability, an
//! empty list, a list emptied after sharing, or which roots the ceiling
//! refused), never with "the client has not answered" unless a session
//! client really has not.
//!
//! **Over stdio the process is the session.** A server whose process serves
//! one client (its stdio entry) says so with
//! [`SessionRoots::with_process_session`]: on 2026-07-28 each request is
//! still judged under its own roots (requests in flight at once never run
//! under each other's), with the process's memory of the client: until it
//! lists a root an empty list is served as a client without roots is, once
//! it has an empty list shares nothing, and a file kept past its call is
//! revoked when a later request's list drops its root. Over HTTP (the
//! [`http`] module, many clients in one process) requests keep no memory.
//!
//! **How 2026-07-28 resumes a body.** Each round calls the tool method
//! again; [`serve_with`](SessionRoots::serve_with) *replays* the body from
//! the start. Answers of earlier rounds come back from the `requestState`,
//! each bound to a digest of the question it answered (a question that
//! came out differently, e.g. because the files changed, is refused with
//! `question_changed`); the newest comes from `inputResponses`; the first
//! unanswered question stops the body through `?` and goes out as an input
//! request. So a body changes nothing before its last question, and what
//! it changes, it finds again under the final round's roots. The state is
//! sealed by [`Rounds`]: HMAC-SHA256 with a per-process key (or a
//! [`KeyRing`]), bound to the tool and a digest of its arguments, an expiry
//! from an injectable clock ([`DEFAULT_STATE_TTL`]), and accepted once (a
//! record of consumed states in the rounds' [`Store`], failing closed when
//! full or unreachable). A tampered, foreign, expired or replayed state is
//! refused with `invalid_request_state` before the body runs.
//!
//! # Grants by the user's answer
//!
//! When the operator names an area the user may be asked about
//! ([`RootsBuilder::ask_within`](mcp_roots::RootsBuilder::ask_within),
//! [semantics 15](mcp_roots::semantics)), a tool that declares its paths
//! before its work ([`Needs`]) gets a question instead of a refusal for a
//! path outside the shared folders: [`SessionRoots::serve_needing`] (or
//! [`serve_blocking_needing`](SessionRoots::serve_blocking_needing), or
//! [`Ask::need`] inside [`serve_with`](SessionRoots::serve_with)) asks once
//! for all of the call's such paths, in one flat form (the tool, each
//! physical path, read or change; "this call", "this session" or "no"), and
//! runs the work with what the user granted:
//!
//! ```no_run
//! # use mcp_roots_rmcp::{Needs, Parameters, SessionRoots};
//! # use rmcp::handler::server::router::tool::ToolRouter;
//! # use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
//! # use rmcp::{tool, tool_router};
//! # #[derive(serde::Deserialize, schemars::JsonSchema)]
//! # struct CopyArgs { from: String, to: String }
//! # #[derive(Clone)]
//! # struct Server { roots: SessionRoots, tool_router: ToolRouter<Server> }
//! # #[tool_router]
//! # impl Server {
//! // The policy: `Roots::builder().ceiling([home]).ask_within([home])`.
//! #[tool(description = "Copy a file")]
//! async fn copy_file(&self, Parameters(call, args): Parameters<CopyArgs>) -> CallToolResponse {
//!     let needs = Needs::new().read(&args.from).change(&args.to);
//!     self.roots
//!         .serve_blocking_needing(call, needs, move |snap| {
//!             let bytes = snap.copy(&args.from, &args.to)?;
//!             Ok(CallToolResult::success(vec![ContentBlock::text(format!("{bytes} bytes"))]))
//!         })
//!         .await
//! }
//! # }
//! # fn main() {}
//! ```
//!
//! Hidden paths, paths past the area and changes a rule keeps read-only are
//! refused before any question; a "no" is remembered for the session by
//! physical path and access (`grant_declined`); questions are limited per
//! session ([`SessionRoots::with_grant_questions`], default
//! [`GRANT_QUESTIONS`] per [`GRANT_QUESTION_WINDOW`]); concurrent calls
//! that need the same grant ask once. A client without forms is asked
//! nothing (`outside_roots`, with a sentence telling the model to ask the
//! user to share the folder). On 2026-07-28 the question is an input
//! request bound to its digest, and only "this call" is offered (no
//! session). The log records every question, answer and grant (path,
//! access, scope) at `info`, never contents.
//!
//! # Several instances
//!
//! Behind a load balancer each round may reach another instance. They
//! share a call's rounds when every instance has the same [`KeyRing`]
//! (a rolling rotation: accept the new key everywhere, seal with it, drop
//! the old one) and the same [`Store`] ([`Store::redis`], feature `redis`):
//!
//! - shared: the single-use record of each state (one `SET NX PX … GET`
//!   per round that carries a state, kept for the state's lifetime plus
//!   the clock skew the deployment tolerates,
//!   [`Rounds::with_max_clock_skew`]: the instances' clocks may differ by
//!   at most [`DEFAULT_MAX_CLOCK_SKEW`], 5 minutes, by default) and URL flows (created, ended, result,
//!   expiry; a flow's result is serialised, and any instance can record
//!   the end with [`Rounds::finish_flow`]; waiting rounds poll the store
//!   every [`DEFAULT_URL_POLL`]);
//! - not shared: 2025 sessions ([`SessionRoots`] on the session
//!   revisions holds live roots and open files: route by `Mcp-Session-Id`);
//!   whatever a tool keeps in its own process.
//!
//! Redis unreachable, a round that would consume a state is refused with
//! `state_store_unavailable` (a first round consumes nothing); a command
//! whose connection dropped (a Redis restart) or that got no answer within
//! 2 s is sent once more first, within 5 s in all. A Redis whose
//! `maxmemory-policy` is not `noeviction` is refused at [`Store::redis`],
//! **when the store connects only**: a policy changed afterwards is not
//! seen until the server restarts. Redis replication is asynchronous: a failover can
//! forget consumed states within their TTL.
//!
//! Every call runs in a `tool_call` span (tool, request id, revision) that
//! is carried onto the blocking pool, so the library's denials and the
//! glue's roots changes name the call in the log.
//!
//! # The parts
//!
//! - [`Parameters`] and [`ToolCall`]: a tool's call (and its arguments),
//!   as the tool method's argument.
//! - [`SessionRoots`]: one session's roots, synchronised with the client
//!   (`roots/list` after `initialize`, again on `list_changed`);
//!   [`serve`](SessionRoots::serve) and [`serve_with`](SessionRoots::serve_with)
//!   for tools; [`serve_needing`](SessionRoots::serve_needing) for tools
//!   that declare their paths ([`Needs`]) and may ask the user for a grant;
//!   [`serve_resource`](SessionRoots::serve_resource) with a
//!   [`ResourceRead`] for `resources/read` (the same roots, the same
//!   rounds on 2026-07-28, refusals as `-32602` errors carrying the URI),
//!   and [`serve_resource_needing`](SessionRoots::serve_resource_needing)
//!   for a read that may ask the user for a grant;
//!   [`run`](SessionRoots::run) for file work on the session
//!   revisions only (it waits for a `roots/list` answer that 2026-07-28
//!   never sends).
//! - [`Progress`]: a call's progress token and cancellation, for long
//!   blocking work (a walk) that polls [`Progress::is_cancelled`] and sends
//!   [`Progress::report`].
//! - [`tool_error`]: a refusal as a tool result the model can act on;
//!   [`Stop`]: how a body leaves early with `?`.
//! - [`Elicitor`], [`Form`], [`Outcome`]: form elicitation with flat forms,
//!   server-side validation of the answer, typed outcomes, and the two
//!   common forms (choose one of N, confirm a destructive action).
//! - URL mode by hand ([`Elicitor::ask_url`], [`url_elicitation_required`],
//!   [`Elicitor::complete`]) with a version and capability guard.
//! - The 2026-07-28 building blocks under `serve_with` ([`ask_roots`],
//!   [`SessionRoots::request_roots`], [`run_blocking`], [`form_request`],
//!   [`form_outcome`]), for a server that drives its rounds itself.
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
//! - `http`: [`http`], Streamable HTTP serving for any server on the glue
//!   (rmcp's session manager behind axum, loopback only, `Host`/`Origin`
//!   checks, idle expiry, `404` for an unknown session).
//! - `redis`: [`Store::redis`], the store several instances share (the
//!   `redis` crate 1.x on tokio, with its connection manager). Off by
//!   default: a server of one instance does not build it.
//!
//! The features of `mcp_roots` (such as `watch`) are chosen on the
//! server's own `mcp-roots` dependency.

// docs.rs builds with `--cfg docsrs`: feature badges on feature-gated items.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod call;
mod elicit;
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub mod http;
mod rounds;
mod serve;
mod session;
mod values;

pub use call::blocking::run_blocking;
pub use call::parameters::Parameters;
pub use call::progress::{PROGRESS_INTERVAL, Progress};
pub use call::resource_read::ResourceRead;
pub use call::revision::{Revision, URL_MODE_SINCE};
pub use call::tool_call::ToolCall;
pub use elicit::elicitor::{ElicitError, Elicitor, Form, Outcome};
pub use elicit::url::{
    ELICITATION_COMPLETE, URL_ELICITATION_REQUIRED, UrlElicitation, url_elicitation_required,
};
pub use rounds::{
    Clock, DEFAULT_MAX_CLOCK_SKEW, DEFAULT_REPLAY_CAPACITY, DEFAULT_STATE_TTL, DEFAULT_URL_POLL,
    DEFAULT_URL_ROUND_WAIT, DEFAULT_URL_WAIT_ROUNDS, Deployment, DeploymentError, KeyError,
    KeyRing, Rounds, STATE_KEYS_ENV, Store, StoreError,
};
pub use serve::ask::{Ask, Visited};
pub use session::asking::{GRANT_QUESTION_WINDOW, GRANT_QUESTIONS};
pub use session::input_required::{ROOTS_INPUT, ask_roots, form_outcome, form_request};
pub use session::roots::{DEFAULT_FIRST_ANSWER_WAIT, DEFAULT_LIST_TIMEOUT, SessionRoots};
pub use values::denial::tool_error;
pub use values::needs::Needs;
pub use values::stop::Stop;
