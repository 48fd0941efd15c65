//! The 2026-07-28 revision: no `initialize`, no `list_changed`, and no
//! server-to-client requests (rmcp refuses them). A tool that needs roots
//! answers its first round with an input-required result asking for them
//! ([`ask_roots`]); the client retries the same call with its `roots/list`
//! answer in `inputResponses`, and the server builds a request-scoped set
//! from it ([`SessionRoots::request_scoped`](mcp_roots_rmcp::SessionRoots::request_scoped):
//! the operator's ceiling and empty-list rule applied, never installed as
//! the session's boundary). The file work then runs on the blocking pool
//! against a [`Roots`] that lives for that one call.
//!
//! `notes_delete` and `notes_archive` take one step per round, each round
//! carrying the roots again (they belong to the request that brought them):
//! roots → (roots + which note, if several) → roots + confirm (archive
//! only) → done. The
//! forms travel as input requests ([`form_request`]
//! through [`ask_roots`]) and come back validated by [`form_outcome`]. The
//! `requestState` says which step is next and which note was named; it is
//! untrusted (the client echoes it), so the note is found again under the
//! roots of the final round and must still bear the title, and a state that
//! does not belong to the call is refused.

use mcp_roots::{Error, Roots, Snapshot};
use mcp_roots_rmcp::{
    ElicitError, Form, Outcome, ROOTS_INPUT, ask_roots, form_outcome, form_request, run_blocking,
    tool_error,
};
use rmcp::RoleServer;
use rmcp::model::{CallToolResponse, InputRequests, InputRequiredResult, InputResponses};
use rmcp::service::RequestContext;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::change::{Change, choose_message, confirm_message, no_match};
use crate::notes::{self, Note, Problem};
use crate::reply;
use crate::server::NotesServer;

/// The input-request key of the "which note" form.
pub const CHOICE_INPUT: &str = "choice";
/// The input-request key of the confirmation form.
pub const CONFIRM_INPUT: &str = "confirm";

/// Where a tool call's file work runs.
#[derive(Debug)]
pub(crate) enum Scope {
    /// The session's live roots (2025-06-18, 2025-11-25).
    Session,
    /// The roots that came with this request (2026-07-28), policy applied,
    /// in a [`Roots`] of their own that lives for this call only.
    Request(Roots),
}

/// Whether `cx` came on a session without `initialize` (2026-07-28).
pub(crate) fn is_modern(cx: &RequestContext<RoleServer>) -> bool {
    cx.protocol_version().is_some_and(|v| !v.has_initialize())
}

/// Whether the client of a 2026-07-28 request declared `roots`.
fn declares_roots(cx: &RequestContext<RoleServer>) -> bool {
    cx.client_capabilities().is_some_and(|c| c.roots.is_some())
}

/// Whether the client of a 2026-07-28 request declared form elicitation
/// (an `elicitation` capability without modes means forms).
fn accepts_forms(cx: &RequestContext<RoleServer>) -> bool {
    let declared = cx.client_capabilities().and_then(|c| c.elicitation);
    declared.is_some_and(|e| e.form.is_some() || e.url.is_none())
}

/// A note named in a form, as the request state carries it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
struct Named {
    uri: String,
    title: String,
    root: String,
    path: String,
}

impl Named {
    fn of(note: &Note) -> Self {
        Self {
            uri: note.uri(),
            title: note.title.clone(),
            root: note.root.clone(),
            path: note.path.rel().to_owned(),
        }
    }

    fn label(&self) -> String {
        format!("{} — {}: {}", self.title, self.root, self.path)
    }
}

/// The `requestState` of a change: which call, and the next step.
#[derive(Debug, Serialize, Deserialize)]
struct Pending {
    tool: String,
    title: String,
    #[serde(flatten)]
    step: Step,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
enum Step {
    Choose { candidates: Vec<Named> },
    Confirm { note: Named },
}

impl NotesServer {
    /// Where this call's file work runs. On a 2026-07-28 session: the roots
    /// in `inputs` as a request-scoped set; no answer yet → `Err` with the
    /// input-required result asking for them; a client that declared no
    /// roots gets the server's policy (the ceiling, or nothing), as on the
    /// other revisions.
    pub(crate) async fn scope(
        &self,
        cx: &RequestContext<RoleServer>,
        inputs: Option<&InputResponses>,
    ) -> Result<Scope, CallToolResponse> {
        if !is_modern(cx) {
            return Ok(Scope::Session);
        }
        let declared = declares_roots(cx);
        let answer = match inputs.and_then(|i| i.get(ROOTS_INPUT)) {
            Some(answer) => Some(answer.clone()),
            None if !declared => None,
            None if inputs.is_none() => return Err(ask_roots(None, None).into()),
            None => {
                let message = "The retried request carried no roots answer, so no folder is \
                    shared with this call. Call the tool again.";
                return Err(reply::problem(&Problem::new("no_roots", message)).into());
            }
        };
        // A client without the roots capability (`None`): the policy alone.
        match self.roots.request_roots(answer.as_ref()).await {
            Ok(request) => Ok(Scope::Request(request)),
            Err(err) => Err(tool_error(&err).into()),
        }
    }

    /// Runs blocking file work in `scope`, on the blocking pool.
    ///
    /// # Errors
    ///
    /// As [`SessionRoots::run`](mcp_roots_rmcp::SessionRoots::run), or what
    /// `work` returns.
    pub(crate) async fn run_in<T, F>(&self, scope: &Scope, work: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&Snapshot<'_>) -> Result<T, Error> + Send + 'static,
    {
        match scope {
            Scope::Session => self.roots.run(work).await,
            Scope::Request(roots) => run_blocking(roots, work).await,
        }
    }

    /// `notes_delete` / `notes_archive` on a 2026-07-28 session: one step
    /// per round (see the module docs).
    pub(crate) async fn change_in_rounds(
        &self,
        change: Change,
        title: String,
        cx: &RequestContext<RoleServer>,
        inputs: Option<InputResponses>,
        state: Option<String>,
    ) -> CallToolResponse {
        let scope = match self.scope(cx, inputs.as_ref()).await {
            Ok(scope) => scope,
            Err(response) => return response,
        };
        let step = match state.as_deref().map(serde_json::from_str::<Pending>) {
            None => None,
            Some(Ok(p)) if p.tool == change.tool() && p.title == title => Some(p.step),
            Some(_) => {
                let message = "The requestState does not belong to this call; nothing was \
                    changed. Call the tool again without it.";
                return reply::problem(&Problem::new("invalid_request_state", message)).into();
            }
        };
        let inputs = inputs.unwrap_or_default();
        match step {
            None => self.find(change, &title, &scope, cx).await,
            Some(Step::Choose { candidates }) => {
                let labels: Vec<String> = candidates.iter().map(Named::label).collect();
                let message = choose_message(change, &title, labels.len());
                let form = match Form::choose(message, &labels) {
                    Ok(form) => form,
                    Err(err) => return err.to_tool_result().into(),
                };
                let chosen = answer(&form, &inputs, CHOICE_INPUT)
                    .and_then(|outcome| outcome.into_choice(candidates.len()));
                match chosen {
                    Ok(Outcome::Accepted(i)) if change.confirms() => {
                        ask_confirm(change, &title, candidates[i].clone(), cx)
                    }
                    Ok(Outcome::Accepted(i)) => {
                        self.apply_named(change, &title, candidates[i].clone(), &scope)
                            .await
                    }
                    Ok(other) => reply::nothing_done(&other, change.done()).into(),
                    Err(err) => err.to_tool_result().into(),
                }
            }
            Some(Step::Confirm { note }) => {
                let message = confirm_message(change, &note.title, &note.root, &note.path);
                let form = Form::confirm(message, change.action());
                // An accepted "no" counts as declined, as on the other revisions.
                let confirmed =
                    answer(&form, &inputs, CONFIRM_INPUT).map(Outcome::into_confirmation);
                match confirmed {
                    Ok(Outcome::Accepted(())) => {
                        self.apply_named(change, &title, note, &scope).await
                    }
                    Ok(other) => reply::nothing_done(&other, change.done()).into(),
                    Err(err) => err.to_tool_result().into(),
                }
            }
        }
    }

    /// The first round with roots: the notes titled `title`; none → no
    /// match; one → delete it, or ask to confirm the archive; several →
    /// ask which.
    async fn find(
        &self,
        change: Change,
        title: &str,
        scope: &Scope,
        cx: &RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let query = title.to_owned();
        let found = self.run_in(scope, move |snap| Ok(notes::matching(snap, &query)));
        let matches = match found.await {
            Ok(Ok(matches)) => matches,
            Ok(Err(p)) => return reply::problem(&p).into(),
            Err(err) => return tool_error(&err).into(),
        };
        match matches.as_slice() {
            [] => reply::problem(&no_match(title)).into(),
            [note] if change.confirms() => ask_confirm(change, title, Named::of(note), cx),
            [note] => self.apply(change, note.clone(), scope).await.into(),
            several => {
                if !accepts_forms(cx) {
                    return ElicitError::Unsupported.to_tool_result().into();
                }
                let candidates: Vec<Named> = several.iter().map(Named::of).collect();
                let labels: Vec<String> = candidates.iter().map(Named::label).collect();
                let message = choose_message(change, title, labels.len());
                let form = match Form::choose(message, &labels) {
                    Ok(form) => form,
                    Err(err) => return err.to_tool_result().into(),
                };
                let state = Pending {
                    tool: change.tool().to_owned(),
                    title: title.to_owned(),
                    step: Step::Choose { candidates },
                };
                ask(cx, CHOICE_INPUT, &form, &state)
            }
        }
    }

    /// The last round: the confirmed note, found again under this round's
    /// roots (still there, still titled `title`), then the change.
    async fn apply_named(
        &self,
        change: Change,
        title: &str,
        named: Named,
        scope: &Scope,
    ) -> CallToolResponse {
        let query = title.to_owned();
        let uri = named.uri.clone();
        let found = self.run_in(scope, move |snap| {
            Ok(notes::matching(snap, &query)
                .map(|notes| notes.into_iter().find(|n| n.uri() == uri)))
        });
        let note = match found.await {
            Ok(Ok(Some(note))) => note,
            Ok(Ok(None)) => {
                let message = format!(
                    "{} is no longer a note titled {title:?} under the folders shared with this call; \
                     nothing was {}.",
                    named.uri,
                    change.done()
                );
                return reply::problem(&Problem::new("note_changed", message)).into();
            }
            Ok(Err(p)) => return reply::problem(&p).into(),
            Err(err) => return tool_error(&err).into(),
        };
        self.apply(change, note, scope).await.into()
    }
}

/// The round that asks to confirm `note` (with the roots again).
fn ask_confirm(
    change: Change,
    title: &str,
    note: Named,
    cx: &RequestContext<RoleServer>,
) -> CallToolResponse {
    if !accepts_forms(cx) {
        return ElicitError::Unsupported.to_tool_result().into();
    }
    let message = confirm_message(change, &note.title, &note.root, &note.path);
    let form = Form::confirm(message, change.action());
    let state = Pending {
        tool: change.tool().to_owned(),
        title: title.to_owned(),
        step: Step::Confirm { note },
    };
    ask(cx, CONFIRM_INPUT, &form, &state)
}

/// The next round: `form` under `key`, with the roots again if the client
/// declared them (they belong to the request that brings them), else the
/// form alone (the policy serves again).
fn ask(
    cx: &RequestContext<RoleServer>,
    key: &str,
    form: &Form,
    state: &Pending,
) -> CallToolResponse {
    if declares_roots(cx) {
        return ask_roots(Some((key, form)), Some(encode(state))).into();
    }
    let mut requests = InputRequests::new();
    requests.insert(key.to_owned(), form_request(form));
    InputRequiredResult::new(Some(requests), Some(encode(state))).into()
}

/// The validated answer to `form` under `key`.
fn answer(
    form: &Form,
    inputs: &InputResponses,
    key: &str,
) -> Result<Outcome<serde_json::Map<String, Value>>, ElicitError> {
    let response = inputs
        .get(key)
        .ok_or_else(|| ElicitError::InvalidAnswer(format!("no answer under {key:?}")))?;
    form_outcome(form, response)
}

fn encode(state: &Pending) -> String {
    serde_json::to_string(state).expect("the state is plain data")
}
