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

use mcp_roots::{Roots, Snapshot};
use mcp_roots_rmcp::{
    ElicitError, Form, Outcome, ROOTS_INPUT, ask_roots, form_outcome, form_request, run_blocking,
};
use rmcp::RoleServer;
use rmcp::model::{CallToolResponse, InputRequests, InputRequiredResult, InputResponses};
use rmcp::service::RequestContext;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::change::{Change, choose_message, confirm_message, no_match};
use crate::failure::{Failure, Problem};
use crate::notes::{self, Note};
use crate::reply::nothing_done;
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
    /// in `inputs` as a request-scoped set; no answer yet → `Ok(None)`, and
    /// the tool answers with an input-required result asking for them
    /// ([`ask_roots`]); a client that declared no roots gets the server's
    /// policy (the ceiling, or nothing), as on the other revisions.
    pub(crate) async fn scope(
        &self,
        cx: &RequestContext<RoleServer>,
        inputs: Option<&InputResponses>,
    ) -> Result<Option<Scope>, Failure> {
        if !is_modern(cx) {
            return Ok(Some(Scope::Session));
        }
        let answer = match inputs.and_then(|i| i.get(ROOTS_INPUT)) {
            Some(answer) => Some(answer),
            // A client without the roots capability: the policy alone.
            None if !declares_roots(cx) => None,
            None if inputs.is_none() => return Ok(None),
            None => {
                let message = "The retried request carried no roots answer, so no folder is \
                    shared with this call. Call the tool again.";
                return Err(Problem::new("no_roots", message).into());
            }
        };
        let request = self.roots.request_roots(answer).await?;
        Ok(Some(Scope::Request(request)))
    }

    /// Runs blocking file work in `scope`, on the blocking pool.
    ///
    /// # Errors
    ///
    /// As [`SessionRoots::run`](mcp_roots_rmcp::SessionRoots::run), or what
    /// `work` returns.
    pub(crate) async fn run_in<T, F>(&self, scope: &Scope, work: F) -> Result<T, Failure>
    where
        T: Send + 'static,
        F: FnOnce(&Snapshot<'_>) -> Result<T, Failure> + Send + 'static,
    {
        // The glue's work returns the library's `Error`: a `Failure` rides inside.
        let work = move |snap: &Snapshot<'_>| Ok(work(snap));
        let done = match scope {
            Scope::Session => self.roots.run(work).await,
            Scope::Request(roots) => run_blocking(roots, work).await,
        };
        done?
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
    ) -> Result<CallToolResponse, Failure> {
        let Some(scope) = self.scope(cx, inputs.as_ref()).await? else {
            return Ok(ask_roots(None, None).into());
        };
        let step = match state.as_deref().map(serde_json::from_str::<Pending>) {
            None => None,
            Some(Ok(p)) if p.tool == change.tool() && p.title == title => Some(p.step),
            Some(_) => {
                let message = "The requestState does not belong to this call; nothing was \
                    changed. Call the tool again without it.";
                return Err(Problem::new("invalid_request_state", message).into());
            }
        };
        let inputs = inputs.unwrap_or_default();
        match step {
            None => self.find(change, &title, &scope, cx).await,
            Some(Step::Choose { candidates }) => {
                let form = choose_form(change, &title, &candidates)?;
                let answer = answer(&form, &inputs, CHOICE_INPUT)?;
                match answer.into_choice(candidates.len())? {
                    Outcome::Accepted(i) if change.confirms() => {
                        ask_confirm(change, &title, candidates[i].clone(), cx)
                    }
                    Outcome::Accepted(i) => {
                        self.apply_named(change, &title, candidates[i].clone(), &scope)
                            .await
                    }
                    other => Ok(nothing_done(&other, change.done()).into()),
                }
            }
            Some(Step::Confirm { note }) => {
                let form = confirm_form(change, &note);
                // An accepted "no" counts as declined, as on the other revisions.
                match answer(&form, &inputs, CONFIRM_INPUT)?.into_confirmation() {
                    Outcome::Accepted(()) => self.apply_named(change, &title, note, &scope).await,
                    other => Ok(nothing_done(&other, change.done()).into()),
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
    ) -> Result<CallToolResponse, Failure> {
        let query = title.to_owned();
        let matches = self
            .run_in(scope, move |snap| Ok(notes::matching(snap, &query)?))
            .await?;
        match matches.as_slice() {
            [] => Err(no_match(title).into()),
            [note] if change.confirms() => ask_confirm(change, title, Named::of(note), cx),
            [note] => Ok(self.apply(change, note.clone(), scope).await?.into()),
            several => {
                if !accepts_forms(cx) {
                    return Err(ElicitError::Unsupported.into());
                }
                let candidates: Vec<Named> = several.iter().map(Named::of).collect();
                let form = choose_form(change, title, &candidates)?;
                let state = Pending {
                    tool: change.tool().to_owned(),
                    title: title.to_owned(),
                    step: Step::Choose { candidates },
                };
                Ok(ask(cx, CHOICE_INPUT, &form, &state))
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
    ) -> Result<CallToolResponse, Failure> {
        let query = title.to_owned();
        let uri = named.uri.clone();
        let found = self
            .run_in(scope, move |snap| {
                let notes = notes::matching(snap, &query)?;
                Ok(notes.into_iter().find(|n| n.uri() == uri))
            })
            .await?;
        let Some(note) = found else {
            let message = format!(
                "{} is no longer a note titled {title:?} under the folders shared with this call; \
                 nothing was {}.",
                named.uri,
                change.done()
            );
            return Err(Problem::new("note_changed", message).into());
        };
        Ok(self.apply(change, note, scope).await?.into())
    }
}

/// The "which note" form for `candidates`.
fn choose_form(change: Change, title: &str, candidates: &[Named]) -> Result<Form, ElicitError> {
    let labels: Vec<String> = candidates.iter().map(Named::label).collect();
    Form::choose(choose_message(change, title, labels.len()), &labels)
}

/// The confirmation form for `note`.
fn confirm_form(change: Change, note: &Named) -> Form {
    let message = confirm_message(change, &note.title, &note.root, &note.path);
    Form::confirm(message, change.action())
}

/// The round that asks to confirm `note` (with the roots again).
fn ask_confirm(
    change: Change,
    title: &str,
    note: Named,
    cx: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, Failure> {
    if !accepts_forms(cx) {
        return Err(ElicitError::Unsupported.into());
    }
    let form = confirm_form(change, &note);
    let state = Pending {
        tool: change.tool().to_owned(),
        title: title.to_owned(),
        step: Step::Confirm { note },
    };
    Ok(ask(cx, CONFIRM_INPUT, &form, &state))
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
