//! [`SessionRoots::serve`] and [`SessionRoots::serve_with`]: one tool body
//! for every protocol revision.

use std::future::Future;

use mcp_roots::Snapshot;
use rmcp::model::{
    CallToolResponse, CallToolResult, ClientCapabilities, InputRequests, InputRequiredResult,
};
use tracing::Instrument;

use crate::call::{revision::Revision, tool_call::ToolCall};
use crate::rounds::{Progress, Recorded, Rounds};
use crate::serve::ask::{Ask, Mode, Questions, Replay, Scope, Waiting};
use crate::session::input_required::ROOTS_INPUT;
use crate::session::roots::SessionRoots;
use crate::values::legacy;
use crate::values::stop::Stop;

impl SessionRoots {
    /// Serves a tool whose work needs the roots and asks the user nothing,
    /// on every revision: `work` runs against the session's roots (2024-11-05 to 2025-11-25; after the client's first
    /// answer, bounded) or against this request's roots (2026-07-28: the
    /// first round asks the client for them, the retry brings them; a
    /// client that declares no roots gets the server's policy at once).
    ///
    /// ```no_run
    /// # use mcp_roots_rmcp::{Parameters, SessionRoots};
    /// # use rmcp::handler::server::router::tool::ToolRouter;
    /// # use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
    /// # use rmcp::{tool, tool_router};
    /// # #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// # struct ReadArgs { path: String }
    /// # #[derive(Clone)]
    /// # struct Server { roots: SessionRoots, tool_router: ToolRouter<Server> }
    /// # #[tool_router]
    /// # impl Server {
    /// #[tool(description = "Read a text file inside the shared folders")]
    /// async fn read_file(&self, Parameters(call, args): Parameters<ReadArgs>) -> CallToolResponse {
    ///     self.roots
    ///         .serve(call, move |snap| {
    ///             let text = std::io::read_to_string(snap.open(&args.path)?)?;
    ///             Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    ///         })
    ///         .await
    /// }
    /// # }
    /// # fn main() {}
    /// ```
    ///
    /// A refusal (`?` on the library's errors) becomes the tool's error
    /// result: `isError`, a sentence, the stable reason.
    ///
    /// `work` runs where the call is, on the async thread, with no hop to
    /// the blocking pool, as `std::fs` in an async fn would: for work that
    /// blocks for microseconds (opening and reading a file, metadata, a
    /// small write). Work that may block for long (walks, large files,
    /// copies) goes through [`serve_blocking`](Self::serve_blocking). The
    /// hop costs more than such an open (bench-toolcall in the repository
    /// measures both).
    pub async fn serve<F>(&self, call: ToolCall, work: F) -> CallToolResponse
    where
        F: FnOnce(&Snapshot<'_>) -> Result<CallToolResult, Stop>,
    {
        self.serve_with(call, move |ask| async move { ask.files_inline(work).await })
            .await
    }

    /// [`serve`](Self::serve) for work that may block for long (a walk, a
    /// large read, a copy): it runs on tokio's blocking pool, in the call's
    /// span.
    pub async fn serve_blocking<F>(&self, call: ToolCall, work: F) -> CallToolResponse
    where
        F: FnOnce(&Snapshot<'_>) -> Result<CallToolResult, Stop> + Send + 'static,
    {
        self.serve_with(call, move |ask| async move { ask.files(work).await })
            .await
    }

    /// Serves a tool body that may also ask the user (forms, URL mode),
    /// on every revision. The body gets an [`Ask`]: its file work goes
    /// through [`Ask::files`], its questions through [`Ask::form`],
    /// [`Ask::choose`], [`Ask::confirm`] and [`Ask::url`], each answered as
    /// the revision allows (see the [`ask`](crate::Ask) docs: on 2026-07-28
    /// the body is replayed from the start in every round, so it changes
    /// nothing before its last question). Propagate every [`Stop`] with `?`.
    ///
    /// ```no_run
    /// # use mcp_roots_rmcp::{Outcome, Parameters, SessionRoots};
    /// # use rmcp::handler::server::router::tool::ToolRouter;
    /// # use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
    /// # use rmcp::{tool, tool_router};
    /// # #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// # struct PathArgs { path: String }
    /// # #[derive(Clone)]
    /// # struct Server { roots: SessionRoots, tool_router: ToolRouter<Server> }
    /// # #[tool_router]
    /// # impl Server {
    /// #[tool(description = "Delete a file inside the shared folders, after asking the user")]
    /// async fn delete(&self, Parameters(call, args): Parameters<PathArgs>) -> CallToolResponse {
    ///     self.roots
    ///         .serve_with(call, |mut ask| async move {
    ///             let path = args.path.clone();
    ///             // Refuse what is outside before asking anything.
    ///             ask.files(move |snap| Ok(snap.metadata(&path)?)).await?;
    ///             let question = format!("Delete {}? This cannot be undone.", args.path);
    ///             if ask.confirm(question, "Yes, delete it").await? != Outcome::Accepted(()) {
    ///                 return Ok(CallToolResult::success(vec![ContentBlock::text("kept")]));
    ///             }
    ///             // After the last question: the change, under this round's roots.
    ///             ask.files(move |snap| Ok(snap.remove_file(&args.path)?)).await?;
    ///             Ok(CallToolResult::success(vec![ContentBlock::text("deleted")]))
    ///         })
    ///         .await
    /// }
    /// # }
    /// # fn main() {}
    /// ```
    ///
    /// The call runs in a `tool_call` span (tool, request id, revision),
    /// carried onto the blocking pool, so every log line of the call, the
    /// library's denials included, names it.
    pub async fn serve_with<B, Fut>(&self, call: ToolCall, body: B) -> CallToolResponse
    where
        B: FnOnce(Ask) -> Fut,
        Fut: Future<Output = Result<CallToolResult, Stop>>,
    {
        let revision = call.revision();
        let span = tracing::info_span!(
            "tool_call",
            tool = %call.tool,
            request = %call.id,
            revision = ?revision,
        );
        let served = async move {
            if let Some(stop) = call.unseen_arguments() {
                return finish(stop);
            }
            match revision {
                Revision::Rounds => self.serve_rounds(call, body).await,
                _ => {
                    // A form may stay open as long as a sealed state lives
                    // on 2026-07-28.
                    let declared = call.declares_roots();
                    let tool = call.tool.to_string();
                    let questions = Questions {
                        call,
                        timeout: self.rounds().ttl(),
                        elicitor: None,
                    };
                    let ask = Ask::new(
                        revision,
                        declared,
                        Scope::Session(self.clone()),
                        Mode::Session(Box::new(questions)),
                    )
                    .for_tool(&tool, Some(self.asking().clone()));
                    match body(ask).await {
                        Ok(result) => result.into(),
                        Err(stop) => finish(stop),
                    }
                }
            }
        };
        served.instrument(span).await
    }

    /// One round of a 2026-07-28 call.
    async fn serve_rounds<B, Fut>(&self, mut call: ToolCall, body: B) -> CallToolResponse
    where
        B: FnOnce(Ask) -> Fut,
        Fut: Future<Output = Result<CallToolResult, Stop>>,
    {
        let rounds = self.rounds().clone();
        let progress = match rounds.open(&call).await {
            Ok(progress) => progress.unwrap_or_default(),
            Err(err) => {
                tracing::warn!(error = %err, "requestState refused");
                return err.to_tool_result().into();
            }
        };
        let declares = call.declares_roots();
        let retried = call.inputs.is_some();
        let inputs = call.inputs.take().unwrap_or_default();
        let scope = match inputs.get(ROOTS_INPUT) {
            Some(answer) => Some(self.call_roots(Some(answer)).await),
            None if !declares => Some(self.call_roots(None).await),
            // A retry (it answers something) that does not answer the roots
            // request, or follows a round that asked for them.
            None if retried || progress.roots_asked => {
                let stop = Stop::refused(
                    "no_roots",
                    "The client retried the call without answering the request for its roots, \
                     so no folder is shared with it; nothing was read or changed. Call the tool again.",
                );
                tracing::warn!("a retried call carried no roots answer");
                return finish(stop);
            }
            None => None,
        };
        let scope = match scope.transpose() {
            Ok(scope) => scope,
            Err(err) => return finish(err.into()),
        };
        // Held until the body is done: the call's roots stay its own while
        // it runs (the process's memory, when there is one).
        let (scope, client, _ticket) = match scope {
            Some(call) => (Some(call.roots), call.client, call.ticket),
            None => (None, None, None),
        };
        let capabilities = call.client_capabilities();
        let replay = Replay {
            rounds: rounds.clone(),
            prior: progress.clone(),
            inputs,
            forms: accepts_forms(capabilities.as_ref()),
            urls: accepts_urls(capabilities.as_ref()),
        };
        let ask = Ask::new(
            Revision::Rounds,
            declares,
            Scope::Request(scope),
            Mode::Rounds(replay),
        )
        .remembered(self.is_process_session(), client)
        .for_tool(
            &call.tool,
            self.is_process_session().then(|| self.asking().clone()),
        );
        let log = ask.log.clone();
        let outcome = body(ask).await;
        let (answers, waiting) = {
            let mut log = log
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            (std::mem::take(&mut log.answers), log.waiting.take())
        };
        let Some(waiting) = waiting else {
            return match outcome {
                Ok(result) => result.into(),
                Err(stop) => finish(stop),
            };
        };
        if !outcome.as_ref().is_err_and(Stop::is_question) {
            tracing::warn!(
                "the tool body went on past a question it had no answer to; the question is sent instead of its result"
            );
        }
        let round = Round {
            rounds: &rounds,
            call: &call,
            prior: progress,
            declares,
        };
        round.input_required(answers, waiting).into()
    }
}

struct Round<'a> {
    rounds: &'a Rounds,
    call: &'a ToolCall,
    prior: Progress,
    declares: bool,
}

impl Round<'_> {
    /// The input-required result for what the body waits for, with the
    /// call's progress sealed in `requestState`.
    fn input_required(self, answers: Vec<Recorded>, waiting: Waiting) -> InputRequiredResult {
        let answered_now = answers.len() > self.prior.answers.len();
        let mut requests = InputRequests::new();
        let next = match waiting {
            // The first round of a call: the roots are all it asks, and
            // there is nothing to carry, so no state (the retry starts
            // afresh with them).
            Waiting::Roots if answers.is_empty() && self.prior.pending.is_none() => {
                requests.insert(ROOTS_INPUT.into(), legacy::roots_input_request());
                return InputRequiredResult::new(Some(requests), None);
            }
            Waiting::Roots => {
                requests.insert(ROOTS_INPUT.into(), legacy::roots_input_request());
                // A round that answered nothing keeps waiting for the same
                // question (e.g. a URL flow after a state-only round).
                let pending = if answered_now {
                    None
                } else {
                    self.prior.pending
                };
                Progress {
                    answers,
                    pending,
                    roots_asked: true,
                }
            }
            Waiting::Question {
                key,
                request,
                pending,
            } => {
                requests.insert(key, *request);
                if self.declares {
                    requests.insert(ROOTS_INPUT.into(), legacy::roots_input_request());
                }
                Progress {
                    answers,
                    pending: Some(pending),
                    roots_asked: self.declares,
                }
            }
            // "Still waiting": a state-only round.
            Waiting::Flow(pending) => Progress {
                answers,
                pending: Some(pending),
                roots_asked: false,
            },
        };
        let state = self.rounds.seal(self.call, next);
        let requests = (!requests.is_empty()).then_some(requests);
        InputRequiredResult::new(requests, Some(state))
    }
}

fn finish(stop: Stop) -> CallToolResponse {
    if stop.is_question() {
        return unreachable_question().into();
    }
    stop.into_result().into()
}

/// A question stop without a question: only a body that invents its own
/// `Stop`s could get here; the call fails instead of hanging.
fn unreachable_question() -> CallToolResult {
    tracing::error!("a tool body stopped for a question that was never asked");
    Stop::suspended().into_result()
}

/// Whether the client accepts forms as input requests (an `elicitation`
/// capability without modes means forms).
fn accepts_forms(capabilities: Option<&ClientCapabilities>) -> bool {
    let declared = capabilities.and_then(|c| c.elicitation.as_ref());
    declared.is_some_and(|e| e.form.is_some() || e.url.is_none())
}

fn accepts_urls(capabilities: Option<&ClientCapabilities>) -> bool {
    let declared = capabilities.and_then(|c| c.elicitation.as_ref());
    declared.is_some_and(|e| e.url.is_some())
}
