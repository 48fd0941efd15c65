//! An MCP notes server built on [`mcp_roots`]: notes are Markdown files
//! anywhere under the folders the user shared (the client's roots).
//!
//! | tool | what it does | asks the user |
//! |---|---|---|
//! | `notes_list` | every `*.md` under the roots (bounded walks, symlinks not followed), with titles and URIs | never |
//! | `notes_read` | one note, by `path` (URI or absolute path), `title`, or the `handle` of a held note | never (several matches: the candidates go back to the model) |
//! | `notes_open` / `notes_close` | keeps a note open across calls (a tracked file: revoked when its root goes; see [`held`]) | never |
//! | `notes_write` | creates a note or replaces its text, atomically (`write_atomic`) | never |
//! | `notes_delete` | deletes a note by title | only with several matches: which one (the chosen one is deleted) |
//! | `notes_archive` | moves a note into `archive/` of its root, under a free name | always: pick one of several, then confirm |
//! | `notes_setup` | first-run setup: the template for new notes, on a local page ([`page`]) | always: URL-mode elicitation |
//!
//! A note's title is its first `# ` heading, else its file name without
//! `.md`.
//!
//! # One tool body for every revision
//!
//! Each tool takes its call and arguments together
//! ([`Parameters(call, args)`](mcp_roots_rmcp::Parameters)), or the call
//! alone ([`ToolCall`](mcp_roots_rmcp::ToolCall)) when it has no arguments,
//! and hands one body to the session's
//! [`SessionRoots`](mcp_roots_rmcp::SessionRoots):
//! [`serve`](mcp_roots_rmcp::SessionRoots::serve) when it only needs the
//! roots, [`serve_with`](mcp_roots_rmcp::SessionRoots::serve_with) when it
//! may ask the user. The glue answers the body's file work and questions
//! as the call's revision allows:
//!
//! | revision | roots | questions |
//! |---|---|---|
//! | 2024-11-05, 2025-03-26 | `roots/list`, kept in the session | none: a tool that must ask refuses (`elicitation_unsupported`) and changes nothing |
//! | 2025-06-18 | same | forms, as `elicitation/create` requests |
//! | 2025-11-25 | same | forms and URL mode |
//! | 2026-07-28 | with each request, in input-required rounds; never installed in the session | forms and URLs as input requests; the body is replayed each round |
//!
//! The file work runs on the blocking pool, against the session's roots
//! (after the client's first answer, bounded) or the request's (the
//! operator's ceiling and empty-list rule applied either way). A body
//! leaves with `?`: a refusal of the library, a [`Problem`](failure::Problem)
//! of the note logic (through [`Failure`](failure::Failure)) and a question
//! that could not be asked all become the glue's
//! [`Stop`](mcp_roots_rmcp::Stop), and the glue turns it into the tool
//! result. On 2026-07-28 one `Stop` is the question the glue sends, so a
//! body changes nothing before its last question and finds again, under
//! the final round's roots, what it changes (as `notes_delete` and
//! `notes_archive` do).
//!
//! Held notes (`notes_open`, `notes_read` with a `handle`, `notes_close`)
//! live in a session's roots; over stdio the process is the session, on
//! 2026-07-28 too. Over HTTP on 2026-07-28 `notes_open` refuses with
//! `not_on_this_revision` (so the other two find no handle). The server
//! offers every revision rmcp knows.
//!
//! The wiring of the session's roots into an rmcp server is the two
//! notification handlers (one
//! [`SessionRoots`](mcp_roots_rmcp::SessionRoots) per session, created with
//! the server):
//!
//! ```ignore
//! #[tool_handler(router = self.tool_router)]
//! impl ServerHandler for NotesServer {
//!     async fn on_initialized(&self, cx: NotificationContext<RoleServer>) {
//!         self.roots.on_initialized(&cx.peer).await;
//!     }
//!     async fn on_roots_list_changed(&self, cx: NotificationContext<RoleServer>) {
//!         self.roots.on_list_changed(&cx.peer).await;
//!     }
//! }
//! ```
//!
//! and a tool is one body:
//!
//! ```ignore
//! async fn notes_list(&self, call: ToolCall) -> CallToolResponse {
//!     self.roots.serve(call, |snap| Ok(listing(notes::list(snap)?))).await
//! }
//! ```
//!
//! The binary `notes-server` serves one session over stdio, or many over
//! Streamable HTTP on loopback ([`http`]: a server of its own per session
//! and per stateless request); `demo` (also `notes-server demo`) plays the
//! scripted scenes of [`demo`] with the scripted client of [`mcp_script`],
//! against a server in process, this binary over stdio, or one `--http`
//! process of it ([`Launch`]).

mod change;
pub mod cli;
pub mod confine;
pub mod demo;
pub mod deployment;
pub mod failure;
pub mod held;
pub mod hints;
pub mod http;
mod launch;
pub mod log;
pub mod notes;
pub mod page;
pub mod prefs;
mod reply;
mod server;
mod setup;
mod tools;

pub use held::MAX_HELD;
pub use launch::{Connection, HttpServer, Launch};
pub use server::{INSTRUCTIONS, NotesServer};
pub use setup::{SETUP_MESSAGE, SETUP_WAIT};
pub use tools::{HandleArgs, OpenArgs, ReadArgs, TitleArgs, WriteArgs};
