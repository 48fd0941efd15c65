//! [`Ask`]: what a tool body asks for (the roots' file work, the user's
//! answers), answered the way the call's revision allows.
//!
//! On the session revisions a question is an `elicitation/create` request
//! and the body waits for the answer. On 2026-07-28 the body is *replayed*:
//! each round runs it again from the start, the answers of earlier rounds
//! come back from the sealed state (each bound to the digest of the
//! question it answered), the newest from `inputResponses`, and the first
//! question without an answer stops the body (with `?`) so that the glue
//! can send it as an input request. A body therefore changes nothing before
//! its last question, and finds again, under the final round's roots,
//! whatever it changes.

use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};

use mcp_roots::{AskAbout, Roots, Snapshot};
use rmcp::model::{
    ElicitRequest, ElicitRequestParams, ElicitResult, ElicitationAction, InputRequest,
    InputResponses,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::call::blocking::{inline, run_blocking};
use crate::call::{revision::Revision, tool_call::ToolCall};
use crate::elicit::elicitor::{ElicitError, Elicitor, Form, Outcome};
use crate::rounds::hex;
use crate::rounds::{FlowStatus, Pending, Progress, Recorded, Rounds, StoreError};
use crate::session::asking::Asking;
use crate::session::roots::SessionRoots;
use crate::values::empty::Client;
use crate::values::stop::Stop;

/// A URL flow's end: its `elicitationId` and its result (`None`: the flow
/// ended without one, e.g. its page timed out).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Visited<T> {
    /// The flow's `elicitationId`.
    pub elicitation_id: String,
    /// What the flow produced.
    pub result: Option<T>,
}

/// A tool body's access to the roots and to the user, for one call (see the
/// module docs and [`SessionRoots::serve_with`]).
pub struct Ask {
    revision: Revision,
    /// Whether the client declared the roots capability.
    declared: bool,
    /// Whose answer a request's roots are, when the process remembers the
    /// client (the sentence of an empty set says it).
    remembered: Option<Client>,
    /// The process is its client's session (a request's files may be kept).
    process: bool,
    pub(crate) scope: Scope,
    pub(crate) mode: Mode,
    budget: usize,
    asked: usize,
    pub(crate) log: Arc<Mutex<Log>>,
    /// The tool called (named in a grant question).
    pub(crate) tool: String,
    /// What the user granted for this call ([`Ask::need`]): every file
    /// work of the call runs with them.
    pub(crate) granted: Vec<AskAbout>,
    /// The session's memory of grant questions, when there is a session.
    pub(crate) asking: Option<Arc<Asking>>,
}

impl std::fmt::Debug for Ask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ask")
            .field("revision", &self.revision)
            .field("budget", &self.budget)
            .field("asked", &self.asked)
            .finish_non_exhaustive()
    }
}

/// Where the body's file work runs.
pub(crate) enum Scope {
    /// The session's live roots.
    Session(SessionRoots),
    /// This request's roots (2026-07-28); `None` until the client sends them.
    Request(Option<Roots>),
}

pub(crate) enum Mode {
    Session(Box<Questions>),
    Rounds(Replay),
}

/// A session call's questions: the elicitor is made on the first one (a
/// call that asks nothing pays nothing for it).
pub(crate) struct Questions {
    pub(crate) call: ToolCall,
    /// How long a form may stay open.
    pub(crate) timeout: std::time::Duration,
    pub(crate) elicitor: Option<Elicitor>,
}

impl Questions {
    fn elicitor(&mut self) -> &mut Elicitor {
        let (call, timeout) = (&self.call, self.timeout);
        // The call's budget is the Ask's.
        self.elicitor.get_or_insert_with(|| {
            Elicitor::for_call(call)
                .with_budget(usize::MAX)
                .with_timeout(timeout)
        })
    }
}

/// A 2026-07-28 round: what earlier rounds recorded, and this round's
/// answers.
pub(crate) struct Replay {
    pub(crate) rounds: Rounds,
    pub(crate) prior: Progress,
    pub(crate) inputs: InputResponses,
    pub(crate) forms: bool,
    pub(crate) urls: bool,
}

/// What the body did that the glue needs after it: the answers replayed or
/// received (in order), and what it stopped for.
#[derive(Default)]
pub(crate) struct Log {
    pub(crate) answers: Vec<Recorded>,
    pub(crate) waiting: Option<Waiting>,
}

/// What a stopped body waits for.
pub(crate) enum Waiting {
    /// This request's roots.
    Roots,
    /// An answer to `request`, under `key`.
    Question {
        key: String,
        request: Box<InputRequest>,
        pending: Pending,
    },
    /// A URL flow to finish ("still waiting": a state-only round).
    Flow(Pending),
}

/// Runs `work` on `snap` unless the set is empty: then the refusal says
/// why, before any work sees it.
pub(crate) fn guarded<T>(
    client: Client,
    granted: &[AskAbout],
    snap: &Snapshot<'_>,
    work: impl FnOnce(&Snapshot<'_>) -> Result<T, Stop>,
) -> Result<T, Stop> {
    if !granted.is_empty() {
        // The call's grants: a snapshot of its own, never installed.
        return with_call_grants(snap, granted, |own| guarded(client, &[], own, work));
    }
    if snap.set().is_empty() {
        return Err(crate::values::empty::no_roots(
            client,
            snap.set(),
            snap.ask_area(),
        ));
    }
    work(snap)
}

/// Runs `f` on `snap` with the call's grants added (a snapshot of its
/// own, never installed; each grant judged again).
pub(crate) fn with_call_grants<T>(
    snap: &Snapshot<'_>,
    granted: &[AskAbout],
    f: impl FnOnce(&Snapshot<'_>) -> Result<T, Stop>,
) -> Result<T, Stop> {
    let Some((first, rest)) = granted.split_first() else {
        return f(snap);
    };
    let mut own = snap.with_grant(first)?;
    for about in rest {
        let next = own.with_grant(about)?;
        own = next;
    }
    f(&own)
}

/// The `inputRequests` key of the `index`-th question.
pub(crate) fn question_key(index: usize) -> String {
    format!("q{index}")
}

impl Ask {
    pub(crate) fn new(revision: Revision, declared: bool, scope: Scope, mode: Mode) -> Self {
        Self {
            revision,
            declared,
            remembered: None,
            process: false,
            scope,
            mode,
            budget: 1,
            asked: 0,
            log: Arc::default(),
            tool: String::new(),
            granted: Vec::new(),
            asking: None,
        }
    }

    /// The call's tool, and the session's memory of grant questions.
    pub(crate) fn for_tool(mut self, tool: &str, asking: Option<Arc<Asking>>) -> Self {
        self.tool = tool.to_owned();
        self.asking = asking;
        self
    }

    /// A request in a process that is its client's session (`process`),
    /// and whose answer its roots are, as the process remembers the client
    /// (`None`: without memory, or before the roots arrived).
    pub(crate) fn remembered(mut self, process: bool, client: Option<Client>) -> Self {
        self.process = process;
        self.remembered = client;
        self
    }

    /// Whether a file this call opens may be kept past the call: its roots
    /// are a session's (2024-11-05 to 2025-11-25), or a 2026-07-28
    /// request's in a process that is its client's session
    /// ([`SessionRoots::with_process_session`]), where a later request that
    /// drops the file's root revokes it. A 2026-07-28 request without that
    /// memory has roots of its own that nothing updates after it.
    pub fn in_session(&self) -> bool {
        match self.scope {
            Scope::Session(_) => true,
            Scope::Request(_) => self.process,
        }
    }

    /// The revision the call came on.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// Allows this call `questions` questions in all (default 1): one more
    /// is refused with `elicitation_exhausted`, on every revision.
    pub fn limit(&mut self, questions: usize) {
        self.budget = questions;
    }

    /// Runs blocking file work against this call's roots (the session's,
    /// or this request's with the server's policy applied), on tokio's
    /// blocking pool, in the call's span: for work that may block for long
    /// (walks, large reads, copies).
    ///
    /// # Errors
    ///
    /// What `work` returns; on 2026-07-28 a round without the roots stops
    /// to ask for them.
    pub async fn files<T, F>(&self, work: F) -> Result<T, Stop>
    where
        T: Send + 'static,
        F: FnOnce(&Snapshot<'_>) -> Result<T, Stop> + Send + 'static,
    {
        // The glue's blocking work returns the library's `Error`: the
        // body's `Stop` rides inside.
        let client = self.client();
        let granted = self.granted.clone();
        let work = move |snap: &Snapshot<'_>| Ok(guarded(client, &granted, snap, work));
        let done = match &self.scope {
            Scope::Session(session) => session.run(work).await,
            Scope::Request(Some(roots)) => run_blocking(roots, work).await,
            Scope::Request(None) => return Err(self.need_roots()),
        };
        done?
    }

    /// [`files`](Self::files) for short work (an open and a read of a
    /// small file, metadata, a small write: microseconds), run where the
    /// call is, on the async thread, without the hop to the blocking pool,
    /// as `std::fs` in an async fn would. Work that may block for long
    /// (a walk, a large file) belongs in [`files`](Self::files).
    ///
    /// # Errors
    ///
    /// As [`files`](Self::files).
    pub async fn files_inline<T, F>(&self, work: F) -> Result<T, Stop>
    where
        F: FnOnce(&Snapshot<'_>) -> Result<T, Stop>,
    {
        let roots = self.call_roots().await?;
        let client = self.client();
        inline(|| guarded(client, &self.granted, &roots.load(), work))?
    }

    /// This call's roots, once they are there (the session's after its
    /// first answer; on 2026-07-28 a round without them stops to ask).
    pub(crate) async fn call_roots(&self) -> Result<&Roots, Stop> {
        match &self.scope {
            Scope::Session(session) => {
                session.ready().await?;
                Ok(session.roots())
            }
            Scope::Request(Some(roots)) => Ok(roots),
            Scope::Request(None) => Err(self.need_roots()),
        }
    }

    /// Whether the client can answer a form on this call.
    pub(crate) fn can_ask_forms(&mut self) -> bool {
        match &mut self.mode {
            Mode::Session(_) if self.revision == Revision::SessionWithoutElicitation => false,
            Mode::Session(questions) => questions.elicitor().supports_forms(),
            Mode::Rounds(replay) => replay.forms,
        }
    }

    /// Whose roots this call has, for a refusal that says why none serve.
    pub(crate) fn client(&self) -> Client {
        if let Some(client) = self.remembered {
            return client;
        }
        match &self.scope {
            _ if !self.declared => Client::Undeclared,
            Scope::Session(session) => Client::Session {
                shared: session.roots().has_shared(),
            },
            Scope::Request(_) => Client::Request,
        }
    }

    /// The stop of a 2026-07-28 round that has no roots yet.
    fn need_roots(&self) -> Stop {
        self.log().waiting = Some(Waiting::Roots);
        Stop::suspended()
    }

    /// Asks the user `form`; the answer is validated against it.
    ///
    /// # Errors
    ///
    /// `elicitation_unsupported` where the revision or the client has no
    /// forms, `elicitation_exhausted` past the [limit](Self::limit), an
    /// answer that does not match; on 2026-07-28, the stop that sends the
    /// question.
    pub async fn form(&mut self, form: &Form) -> Result<Outcome<Map<String, Value>>, Stop> {
        let index = self.next_question()?;
        match &mut self.mode {
            Mode::Session(questions) => {
                if self.revision == Revision::SessionWithoutElicitation {
                    return Err(ElicitError::Unsupported.into());
                }
                Ok(questions.elicitor().ask(form).await?)
            }
            Mode::Rounds(replay) => {
                if !replay.forms {
                    return Err(ElicitError::Unsupported.into());
                }
                let asked = digest_of(&form.params());
                let answer = match replay_answer(replay, index, &asked)? {
                    Some(answer) => answer,
                    None => {
                        let request = InputRequest::Elicitation(ElicitRequest::new(form.params()));
                        return Err(self.wait_for(index, request, Pending::Form { asked }));
                    }
                };
                let outcome = form.outcome(decode(&answer)?)?;
                self.log().answers.push(Recorded::Form { asked, answer });
                Ok(outcome)
            }
        }
    }

    /// Asks the user to pick one of `options` (shown by their titles).
    ///
    /// # Errors
    ///
    /// As [`form`](Self::form); fewer than two options.
    pub async fn choose<S: AsRef<str>>(
        &mut self,
        message: impl Into<String>,
        options: &[S],
    ) -> Result<Outcome<usize>, Stop> {
        let form = Form::choose(message, options)?;
        Ok(self.form(&form).await?.into_choice(options.len())?)
    }

    /// Asks the user to confirm `action`; an accepted "no" is `Declined`.
    ///
    /// The form ([`Form::confirm`]) shows `message` and has one required
    /// field, `{"confirm": boolean}`, titled `action` (e.g. "Delete it"):
    /// so `action` should say what a "yes" does.
    ///
    /// # Errors
    ///
    /// As [`form`](Self::form).
    pub async fn confirm(
        &mut self,
        message: impl Into<String>,
        action: impl Into<String>,
    ) -> Result<Outcome<()>, Stop> {
        let form = Form::confirm(message, action);
        Ok(self.form(&form).await?.into_confirmation())
    }

    /// Sends the user to a URL (URL-mode elicitation) and waits for the
    /// flow there to finish.
    ///
    /// `start` is called once per flow, with the flow's `elicitationId`:
    /// it starts whatever serves the URL and returns the URL and a future
    /// that ends with the flow's result (`None`: it ended without one, e.g.
    /// timed out; the future should bound its own time). On 2025-11-25 the
    /// glue then asks with `elicitation/create` (mode `url`), awaits the
    /// future after an accept, and sends `notifications/elicitation/complete`.
    /// On 2026-07-28 the URL goes out as an input request and the flow is
    /// recorded in the rounds' [`Store`](crate::Store); the future runs in
    /// a task of the instance that asked, and its result (serialised: hence
    /// `T: Serialize + DeserializeOwned`) is recorded there when it ends,
    /// unless the flow ended first through [`Rounds::finish_flow`] (a page
    /// submitted to another instance). The client's accept is consent, and
    /// while the flow runs each round waits for its end in the store (up to
    /// [`Rounds::with_url_wait`]; a shared store is polled every
    /// [`Rounds::with_url_poll`]) before answering "still waiting" with a
    /// state-only round, so any instance can answer any round. A declined
    /// or cancelled flow is dropped (its future with it).
    ///
    /// # Errors
    ///
    /// `url_elicitation_unsupported` where the revision or the client has
    /// no URL mode (nothing is started); what `start` returns;
    /// `state_store_unavailable` on 2026-07-28 when the store cannot record
    /// or read the flow; as [`form`](Self::form).
    pub async fn url<T, S, Fut, C>(
        &mut self,
        message: &str,
        start: S,
    ) -> Result<Outcome<Visited<T>>, Stop>
    where
        T: Serialize + DeserializeOwned + Send + 'static,
        S: FnOnce(&str) -> Fut,
        Fut: Future<Output = Result<(url::Url, C), Stop>>,
        C: Future<Output = Option<T>> + Send + 'static,
    {
        let index = self.next_question()?;
        match &mut self.mode {
            Mode::Session(questions) => {
                let elicitor = questions.elicitor();
                elicitor.check_url_mode()?;
                let id = new_flow_id();
                let (url, completion) = start(&id).await?;
                match elicitor.ask_url(message, &url, id.as_str()).await? {
                    Outcome::Accepted(()) => {}
                    Outcome::Declined => return Ok(Outcome::Declined),
                    Outcome::Cancelled => return Ok(Outcome::Cancelled),
                }
                let result = completion.await;
                if result.is_some() {
                    // The result stands whether or not the client hears.
                    if let Err(err) = elicitor.complete(&id).await {
                        tracing::warn!(error = %err, "could not tell the client the flow finished");
                    }
                }
                Ok(Outcome::Accepted(Visited {
                    elicitation_id: id,
                    result,
                }))
            }
            Mode::Rounds(replay) => {
                if !replay.urls {
                    return Err(ElicitError::UrlUnsupported(
                        "the client did not declare URL-mode elicitation",
                    )
                    .into());
                }
                let asked = digest_of(&message);
                let step = url_step(replay, index, &asked)?;
                let rounds = replay.rounds.clone();
                match step {
                    UrlStep::Replayed { flow, accepted } => {
                        self.log().answers.push(Recorded::Url {
                            asked,
                            flow: flow.clone(),
                            accepted,
                        });
                        ended(&rounds, flow, accepted).await
                    }
                    UrlStep::Start => {
                        let id = new_flow_id();
                        let (url, completion) = start(&id).await?;
                        let expires = rounds.now_ms().saturating_add(flow_life_ms(&rounds));
                        rounds
                            .start_flow(&id, expires, completion)
                            .await
                            .map_err(store_unavailable)?;
                        let params = ElicitRequestParams::UrlElicitationParams {
                            meta: None,
                            message: message.to_owned(),
                            url: url.as_str().to_owned(),
                            elicitation_id: id.clone(),
                        };
                        let request = InputRequest::Elicitation(ElicitRequest::new(params));
                        let pending = Pending::Url { asked, flow: id };
                        Err(self.wait_for(index, request, pending))
                    }
                    UrlStep::Answered { flow, action } => {
                        if action != Some(true) {
                            forget(&rounds, &flow).await;
                            self.record_url(asked, &flow, action);
                            return ended(&rounds, flow, action).await;
                        }
                        self.await_flow(&rounds, asked, flow, 0).await
                    }
                    UrlStep::Waiting { flow, rounds: n } => {
                        self.await_flow(&rounds, asked, flow, n).await
                    }
                }
            }
        }
    }

    /// Waits (one round's worth) for an accepted flow; finished → its
    /// result; else a "still waiting" stop, or after the last allowed
    /// round, `Accepted` without a result.
    async fn await_flow<T: DeserializeOwned>(
        &mut self,
        rounds: &Rounds,
        asked: String,
        flow: String,
        waited: u32,
    ) -> Result<Outcome<Visited<T>>, Stop> {
        let state: Option<FlowStatus> = rounds.wait_flow(&flow).await.map_err(store_unavailable)?;
        if state.is_none() && waited < rounds.url_wait_rounds() {
            let pending = Pending::Waiting {
                asked,
                flow,
                rounds: waited + 1,
            };
            self.log().waiting = Some(Waiting::Flow(pending));
            return Err(Stop::suspended());
        }
        if state.is_none() {
            // Out of rounds: the flow is abandoned.
            forget(rounds, &flow).await;
        }
        self.record_url(asked, &flow, Some(true));
        ended(rounds, flow, Some(true)).await
    }

    fn record_url(&self, asked: String, flow: &str, accepted: Option<bool>) {
        self.log().answers.push(Recorded::Url {
            asked,
            flow: flow.to_owned(),
            accepted,
        });
    }

    /// Counts one more question against the budget; its index.
    fn next_question(&mut self) -> Result<usize, Stop> {
        if self.asked >= self.budget {
            return Err(ElicitError::Exhausted.into());
        }
        self.asked += 1;
        Ok(self.asked - 1)
    }

    fn wait_for(&self, index: usize, request: InputRequest, pending: Pending) -> Stop {
        self.log().waiting = Some(Waiting::Question {
            key: question_key(index),
            request: Box::new(request),
            pending,
        });
        Stop::suspended()
    }

    fn log(&self) -> MutexGuard<'_, Log> {
        self.log
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The answer to question `index` (digest `asked`): replayed from the
/// state, or this round's input response to the question the last round
/// asked; `None` when it has not been asked yet.
fn replay_answer(replay: &Replay, index: usize, asked: &str) -> Result<Option<Value>, Stop> {
    if let Some(recorded) = replay.prior.answers.get(index) {
        return match recorded {
            Recorded::Form { asked: a, answer } if a == asked => Ok(Some(answer.clone())),
            _ => Err(changed()),
        };
    }
    if index > replay.prior.answers.len() {
        return Ok(None);
    }
    match &replay.prior.pending {
        None => Ok(None),
        Some(Pending::Form { asked: a }) if a == asked => {
            let key = question_key(index);
            match replay.inputs.get(&key) {
                Some(answer) => Ok(Some(answer.clone())),
                None => Err(ElicitError::InvalidAnswer(format!("no answer under {key:?}")).into()),
            }
        }
        Some(_) => Err(changed()),
    }
}

enum UrlStep {
    Replayed {
        flow: String,
        accepted: Option<bool>,
    },
    Start,
    Answered {
        flow: String,
        action: Option<bool>,
    },
    Waiting {
        flow: String,
        rounds: u32,
    },
}

fn url_step(replay: &Replay, index: usize, asked: &str) -> Result<UrlStep, Stop> {
    if let Some(recorded) = replay.prior.answers.get(index) {
        return match recorded {
            Recorded::Url {
                asked: a,
                flow,
                accepted,
            } if a == asked => Ok(UrlStep::Replayed {
                flow: flow.clone(),
                accepted: *accepted,
            }),
            _ => Err(changed()),
        };
    }
    if index > replay.prior.answers.len() {
        return Ok(UrlStep::Start);
    }
    match &replay.prior.pending {
        None => Ok(UrlStep::Start),
        Some(Pending::Url { asked: a, flow }) if a == asked => {
            let key = question_key(index);
            let answer = replay
                .inputs
                .get(&key)
                .ok_or_else(|| ElicitError::InvalidAnswer(format!("no answer under {key:?}")))?;
            let action = match decode(answer)?.action {
                ElicitationAction::Accept => Some(true),
                ElicitationAction::Decline => Some(false),
                _ => None,
            };
            Ok(UrlStep::Answered {
                flow: flow.clone(),
                action,
            })
        }
        Some(Pending::Waiting {
            asked: a,
            flow,
            rounds,
        }) if a == asked => Ok(UrlStep::Waiting {
            flow: flow.clone(),
            rounds: *rounds,
        }),
        Some(_) => Err(changed()),
    }
}

/// The outcome of a flow that ended (or was declined): its result from the
/// store, if it produced one.
async fn ended<T: DeserializeOwned>(
    rounds: &Rounds,
    flow: String,
    accepted: Option<bool>,
) -> Result<Outcome<Visited<T>>, Stop> {
    Ok(match accepted {
        Some(false) => Outcome::Declined,
        None => Outcome::Cancelled,
        Some(true) => {
            let result = rounds.flow_result(&flow).await.map_err(store_unavailable)?;
            Outcome::Accepted(Visited {
                elicitation_id: flow,
                result,
            })
        }
    })
}

/// Drops a flow that is over without a result for the call (declined,
/// cancelled, out of rounds): a store that cannot hear it only keeps the
/// record until it expires, so the call goes on.
async fn forget(rounds: &Rounds, flow: &str) {
    if let Err(err) = rounds.drop_flow(flow).await {
        tracing::warn!(error = %err, flow, "a URL flow could not be dropped from the store");
    }
}

/// The refusal of a round whose flow the store could not record or read.
fn store_unavailable(err: StoreError) -> Stop {
    tracing::error!(error = %err, "a URL flow could not be recorded or read");
    Stop::refused(
        "state_store_unavailable",
        "The server could not record or read the URL flow (its state store is unreachable); \
         nothing was changed. Try again later.",
    )
}

/// How long a flow is kept: its rounds of waiting and a state's life.
fn flow_life_ms(rounds: &Rounds) -> u64 {
    let waits = rounds.url_round_wait() * (rounds.url_wait_rounds() + 1);
    u64::try_from((rounds.ttl() + waits).as_millis()).unwrap_or(u64::MAX)
}

fn changed() -> Stop {
    Stop::refused(
        "question_changed",
        "What the user was asked no longer matches what this call would ask now (the files \
         changed between rounds); nothing was changed. Call the tool again.",
    )
}

fn decode(answer: &Value) -> Result<ElicitResult, ElicitError> {
    serde_json::from_value(answer.clone()).map_err(|e| ElicitError::InvalidAnswer(e.to_string()))
}

fn digest_of<T: serde::Serialize + ?Sized>(asked: &T) -> String {
    let bytes = serde_json::to_vec(asked).expect("a question is plain data");
    hex(&Sha256::digest(&bytes))
}

fn new_flow_id() -> String {
    let mut id = [0u8; 12];
    getrandom::fill(&mut id).expect("the operating system's random source");
    format!("flow-{}", hex(&id))
}
