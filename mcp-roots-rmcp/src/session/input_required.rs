//! The 2026-07-28 revision: no `initialize`, no `list_changed`, and no
//! server-to-client requests. Roots and questions travel as input requests
//! in an input-required result; the client retries the tool call with the
//! answers in `inputResponses`.
//!
//! Roots that arrive this way belong to *that request*: they form a
//! request-scoped [`RootSet`] with the server's policy applied (ceiling,
//! empty-list rule), and are never installed as the session's boundary.

use mcp_roots::{Error, ErrorKind, Operation, RootSet, Roots, Snapshot};
use rmcp::model::{ElicitRequest, ElicitResult, InputRequest, InputRequests, InputRequiredResult};
use serde_json::{Map, Value};

use crate::call::blocking::{blocking, run_blocking};
use crate::elicit::elicitor::{ElicitError, Form, Outcome};
use crate::session::roots::SessionRoots;
use crate::values::answer::Answer;
use crate::values::legacy;

/// Up to this many request roots are admitted on the async thread (the
/// handles of repeated roots are taken over, each checked with one `stat`);
/// more go to the blocking pool.
pub(crate) const INLINE_ROOTS: usize = 8;

/// The `inputRequests` key under which [`ask_roots`] asks for the roots.
pub const ROOTS_INPUT: &str = "roots";

/// Builds an input-required result asking for the client's roots (under
/// [`ROOTS_INPUT`]) and, optionally, one form (under its key).
pub fn ask_roots(
    form: Option<(&str, &Form)>,
    request_state: Option<String>,
) -> InputRequiredResult {
    let mut requests = InputRequests::new();
    requests.insert(ROOTS_INPUT.into(), legacy::roots_input_request());
    if let Some((key, form)) = form {
        requests.insert(key.into(), form_request(form));
    }
    InputRequiredResult::new(Some(requests), request_state)
}

/// A form as an input request.
pub fn form_request(form: &Form) -> InputRequest {
    InputRequest::Elicitation(ElicitRequest::new(form.params()))
}

/// The outcome of a form from the client's `inputResponses` entry,
/// validated against the form that was sent.
///
/// # Errors
///
/// [`ElicitError::InvalidAnswer`] for a malformed or non-matching answer.
pub fn form_outcome(
    form: &Form,
    response: &Value,
) -> Result<Outcome<Map<String, Value>>, ElicitError> {
    let answer: ElicitResult = serde_json::from_value(response.clone())
        .map_err(|e| ElicitError::InvalidAnswer(e.to_string()))?;
    form.outcome(answer)
}

impl SessionRoots {
    /// Runs blocking file work for one 2026-07-28 request against its
    /// request-scoped roots (see [`request_roots`](Self::request_roots)), so
    /// `work` sees the same [`Snapshot`] API as [`run`](Self::run) and
    /// nothing is installed in the session.
    ///
    /// # Errors
    ///
    /// As [`request_roots`](Self::request_roots) and [`run_blocking`];
    /// whatever `work` returns.
    pub async fn run_scoped<T, F>(&self, response: Option<&Value>, work: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&Snapshot<'_>) -> Result<T, Error> + Send + 'static,
    {
        let request = self.request_roots(response).await?;
        run_blocking(&request, work).await
    }

    /// The request-scoped roots of one 2026-07-28 request (`response` is
    /// `inputResponses[ROOTS_INPUT]`; `None` for a client that declared no
    /// roots: the server's policy alone). They live in a [`Roots`] of their
    /// own, for as long as the caller keeps it (one tool call): nothing is
    /// installed in the session. Where the roots repeat the previous
    /// request's, their handles are taken over, identity checked (see
    /// [`Roots::for_request`]). Run file work against them with
    /// [`run_blocking`].
    ///
    /// # Errors
    ///
    /// As [`request_scoped`](Self::request_scoped); `io` if building the set
    /// panicked or the runtime is shutting down.
    pub async fn request_roots(&self, response: Option<&Value>) -> Result<Roots, Error> {
        let answer = answer_in(response)?;
        // A few roots, usually the previous request's again (their handles
        // are taken over): built where the call is. Many: on the pool.
        if answer.len() <= INLINE_ROOTS {
            return crate::call::blocking::inline(|| answer.for_request(self.roots()));
        }
        let session = self.clone();
        blocking(move || answer.for_request(session.roots())).await
    }

    /// The request-scoped root set from the client's `roots/list` answer
    /// in `inputResponses` (see [`ask_roots`]): the server's policy applied,
    /// nothing installed. Run its (blocking) file work on the blocking pool.
    ///
    /// # Errors
    ///
    /// `invalid_uri` when the response is not a `roots/list` answer.
    ///
    /// This opens every root directory: call it on the blocking pool (or
    /// use [`run_scoped`](Self::run_scoped)).
    pub fn request_scoped(&self, response: &Value) -> Result<RootSet, Error> {
        Ok(answer_in(Some(response))?.scoped(self.roots()))
    }

    /// The request-scoped root set of a client that does not declare the
    /// roots capability: the server's policy alone (see
    /// [`Roots::replace_undeclared`]). An empty `roots/list` answer, by
    /// contrast, shares nothing.
    pub fn request_scoped_undeclared(&self) -> RootSet {
        Answer::Undeclared.scoped(self.roots())
    }
}

/// The client's answer carried in `inputResponses[ROOTS_INPUT]`; `None` for
/// a client that declared no roots.
///
/// # Errors
///
/// `invalid_uri` when the response is not a `roots/list` answer.
pub(crate) fn answer_in(response: Option<&Value>) -> Result<Answer, Error> {
    let Some(response) = response else {
        return Ok(Answer::Undeclared);
    };
    let roots = legacy::roots_from_response(response).map_err(|_| {
        Error::new(ErrorKind::InvalidUri, Operation::Parse, ROOTS_INPUT)
            .with_detail("the roots input response is not a roots/list answer")
    })?;
    Ok(Answer::Listed(roots))
}
