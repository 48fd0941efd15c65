//! The second layer: one tool call, as the tool method receives it. The
//! call and what its request carries (`tool_call`: [`ToolCall`]), the
//! revision it was sent on (`revision`), the call with its typed arguments
//! (`parameters`), its progress token and cancellation (`progress`), one
//! `resources/read` request (`resource_read`), and file work on tokio's
//! blocking pool (`blocking`). Below the rounds, the
//! questions and the session: it knows none of them.
//!
//! [`ToolCall`]: tool_call::ToolCall

pub(crate) mod blocking;
pub(crate) mod parameters;
pub(crate) mod progress;
pub(crate) mod resource_read;
pub(crate) mod revision;
pub(crate) mod tool_call;
