//! Why a tool call did not do what it was asked, on the note logic's side:
//! [`Failure`], the error of the functions in [`notes`](crate::notes) (a
//! refusal of the library, or a [`Problem`] of the note logic).
//!
//! Tool bodies leave with `?`: a `Failure` or a `Problem` converts into
//! the glue's [`Stop`] (as do the library's errors and the questions that
//! could not be asked), and the glue turns the `Stop` into the tool result
//! (`isError: true`, a sentence the model can act on, a stable reason in
//! structured content). What the user declined is not a failure: the tool
//! did what the user wanted (see `reply::nothing_done`).

use mcp_roots::Error;
use mcp_roots_rmcp::Stop;

/// A failure that is not a boundary decision of the library (those are
/// [`Error`]s): no such note, not a note, too large, an argument to fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// A stable reason for structured content.
    pub reason: &'static str,
    /// A sentence the model can act on.
    pub message: String,
}

impl Problem {
    pub(crate) fn new(reason: &'static str, message: impl Into<String>) -> Self {
        Self {
            reason,
            message: message.into(),
        }
    }

    /// Arguments the model must fix (not a boundary decision).
    pub(crate) fn invalid_arguments(message: impl Into<String>) -> Self {
        Self::new("invalid_arguments", message)
    }
}

/// Why a function of the note logic failed.
#[derive(Debug)]
pub enum Failure {
    /// The library refused (outside the roots, not found, revoked, …).
    Refused(Error),
    /// The note logic refused.
    Problem(Problem),
}

impl From<Error> for Failure {
    fn from(err: Error) -> Self {
        Self::Refused(err)
    }
}

impl From<Problem> for Failure {
    fn from(problem: Problem) -> Self {
        Self::Problem(problem)
    }
}

impl Failure {
    /// Whether the library refused with `kind`.
    pub fn is_refused(&self, kind: mcp_roots::ErrorKind) -> bool {
        matches!(self, Self::Refused(err) if err.kind() == kind)
    }
}

impl From<Problem> for Stop {
    /// The problem's sentence, and its reason in structured content.
    fn from(problem: Problem) -> Self {
        Stop::refused(problem.reason, problem.message)
    }
}

impl From<Failure> for Stop {
    fn from(failure: Failure) -> Self {
        match failure {
            Failure::Refused(err) => err.into(),
            Failure::Problem(problem) => problem.into(),
        }
    }
}
