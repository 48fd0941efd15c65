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
//! `.md`. Every file operation runs in
//! [`SessionRoots::run`](mcp_roots_rmcp::SessionRoots::run), which waits
//! (bounded) for the client's first roots answer and works on the blocking
//! pool (on 2026-07-28: against the request's roots). A tool body returns
//! `Result<_, Failure>` and leaves with `?`: a refusal of the library
//! ([`mcp_roots_rmcp::tool_error`]), a [`Problem`](failure::Problem) of the
//! note logic and a question that could not be asked become a tool result
//! in one place ([`failure`]).
//!
//! The wiring of the roots into an rmcp server is the two notification
//! handlers (one [`SessionRoots`](mcp_roots_rmcp::SessionRoots) per
//! session, created with the server):
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
//! Revisions served: 2025-06-18 and 2025-11-25 (the roots above, form
//! elicitation; URL mode on 2025-11-25) and 2026-07-28 (no `initialize`:
//! roots and forms travel in input-required results, roots are
//! request-scoped; see [`modern`]).
//!
//! The binary `notes-server` serves one session over stdio; `demo` (also
//! `notes-server demo`) plays the scripted scenes of [`demo`] with the
//! scripted client of [`mcp_script`], against a server in process or this
//! binary ([`Launch`]).

mod change;
pub mod demo;
pub mod failure;
pub mod held;
mod launch;
pub mod modern;
pub mod notes;
pub mod page;
pub mod prefs;
mod reply;
mod server;
mod setup;
mod tools;

pub use held::MAX_HELD;
pub use launch::{Connection, Launch};
pub use server::{INSTRUCTIONS, NotesServer};
pub use setup::{SETUP_MESSAGE, SETUP_WAIT};
pub use tools::{ANSWER_WAIT, HandleArgs, OpenArgs, ReadArgs, TitleArgs, WriteArgs};
