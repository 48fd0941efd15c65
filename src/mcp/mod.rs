//! Glue for [rmcp](https://docs.rs/rmcp), the official Rust MCP SDK
//! (feature `rmcp`).
//!
//! - [`SessionRoots`]: one session's roots, synchronised with the client
//!   (`roots/list` after `initialize`, again on `list_changed`), with tool
//!   calls gated on the first answer and run on the blocking pool.
//! - [`tool_error`]: a refusal as a tool result the model can act on.
//! - [`Elicitor`]: form elicitation with flat forms, server-side validation
//!   of the answer, typed outcomes, and the two common forms (choose one of
//!   N, confirm a destructive action).
//!
//! Protocol revisions: this module serves 2025-06-18 and 2025-11-25
//! sessions, where roots arrive through `roots/list`.

mod denial;
mod elicit;
mod legacy;
mod session;
mod validate;

pub use denial::tool_error;
pub use elicit::{ElicitError, Elicitor, Form, Outcome};
pub use session::{DEFAULT_FIRST_ANSWER_WAIT, DEFAULT_LIST_TIMEOUT, SessionRoots};
