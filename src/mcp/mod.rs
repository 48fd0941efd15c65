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
//! - URL-mode elicitation ([`Elicitor::ask_url`], [`url_elicitation_required`],
//!   [`Elicitor::complete`]) with a version and capability guard.
//! - The 2026-07-28 revision ([`ask_roots`], [`SessionRoots::request_scoped`],
//!   [`form_request`], [`form_outcome`]): roots and questions travel in
//!   input-required results; request roots never become the session's.
//!
//! | revision | how roots arrive | elicitation |
//! |---|---|---|
//! | 2025-06-18 | `roots/list` after `initialize`, again on `list_changed` | form |
//! | 2025-11-25 | same | form, URL |
//! | 2026-07-28 | an input request per tool call, request-scoped | input requests |

mod denial;
mod elicit;
mod input_required;
mod legacy;
mod session;
mod url;
mod validate;

pub use denial::tool_error;
pub use elicit::{ElicitError, Elicitor, Form, Outcome};
pub use input_required::{ROOTS_INPUT, ask_roots, form_outcome, form_request};
pub use session::{DEFAULT_FIRST_ANSWER_WAIT, DEFAULT_LIST_TIMEOUT, SessionRoots};
pub use url::{
    ELICITATION_COMPLETE, URL_ELICITATION_REQUIRED, URL_MODE_SINCE, UrlElicitation,
    url_elicitation_required,
};
