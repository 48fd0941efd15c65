//! [`SessionRoots::serve_resource`]: a `resources/read` served as a tool
//! call is, on every revision, and its refusals as JSON-RPC errors.

use mcp_roots::Snapshot;
use rmcp::ErrorData;
use rmcp::model::{InputRequests, InputRequiredResult, ReadResourceResponse, ReadResourceResult};
use serde_json::{Map, Value};
use tracing::Instrument;

use crate::call::blocking::run_blocking;
use crate::call::resource_read::ResourceRead;
use crate::call::revision::Revision;
use crate::rounds::Progress;
use crate::serve::ask::guarded;
use crate::session::input_required::ROOTS_INPUT;
use crate::session::roots::SessionRoots;
use crate::values::empty::Client;
use crate::values::legacy;
use crate::values::stop::Stop;

impl SessionRoots {
    /// Serves a `resources/read` whose work needs the roots, on every
    /// revision, as [`serve_blocking`](Self::serve_blocking) serves a tool:
    /// `work` runs on tokio's blocking pool against the session's roots
    /// (2024-11-05 to 2025-11-25; after the client's first answer, bounded)
    /// or against this request's roots (2026-07-28: the first round answers
    /// with an input request for them, and a `requestState` sealed by
    /// [`Rounds`](crate::Rounds) and bound to the URI; the retry brings
    /// them; a client that declares no roots gets the server's policy at
    /// once). An empty set is refused before `work` sees it.
    ///
    /// A refusal (a [`Stop`], or `?` on the library's errors) becomes a
    /// JSON-RPC error: `-32602` (invalid params) whose message is the
    /// refusal's sentence and whose `data` carries `uri` (the URI as the
    /// client sent it) beside the refusal's structured content (`reason`,
    /// and for the library's refusals `detail`, `input`, `operation`); a
    /// refusal whose reason is `io` (the disk failed, not the request) is
    /// `-32603` (internal error).
    ///
    /// ```no_run
    /// use mcp_roots_rmcp::{ResourceRead, SessionRoots};
    /// use rmcp::model::{ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ResourceContents};
    /// use rmcp::service::RequestContext;
    /// use rmcp::{ErrorData, RoleServer};
    ///
    /// // In `ServerHandler::read_resource`:
    /// async fn read_resource(
    ///     roots: &SessionRoots,
    ///     request: ReadResourceRequestParams,
    ///     context: RequestContext<RoleServer>,
    /// ) -> Result<ReadResourceResponse, ErrorData> {
    ///     let read = ResourceRead::new(request, &context);
    ///     let uri = read.uri().to_owned();
    ///     roots
    ///         .serve_resource(read, move |snap| {
    ///             // The URI is judged by the library's strict `file:` parser.
    ///             let text = std::io::read_to_string(snap.open(uri.as_str())?)?;
    ///             Ok(ReadResourceResult::new(vec![ResourceContents::text(text, uri)]))
    ///         })
    ///         .await
    /// }
    /// # fn main() {}
    /// ```
    ///
    /// # Errors
    ///
    /// The refusal of `work`, of the roots (`no_roots`), of a
    /// `requestState` that was not sealed for this URI by this server, has
    /// expired or was used before (`invalid_request_state`), and of a retry
    /// that answers nothing about the roots.
    pub async fn serve_resource<F>(
        &self,
        read: ResourceRead,
        work: F,
    ) -> Result<ReadResourceResponse, ErrorData>
    where
        F: FnOnce(&Snapshot<'_>) -> Result<ReadResourceResult, Stop> + Send + 'static,
    {
        let revision = read.revision();
        let span = tracing::info_span!(
            "resource_read",
            request = %read.id,
            revision = ?revision,
        );
        let uri = read.uri.clone();
        let served = async move {
            let done = match revision {
                Revision::Rounds => match self.read_in_rounds(read, work).await {
                    Round::Asked(round) => return Ok(round.into()),
                    Round::Done(done) => done,
                },
                _ => {
                    let client = if read.declares_roots() {
                        Client::Session {
                            shared: self.roots().has_shared(),
                        }
                    } else {
                        Client::Undeclared
                    };
                    let run = self.run(move |snap| Ok(guarded(client, &[], snap, work)));
                    run.await.map_err(Stop::from).and_then(|done| done)
                }
            };
            match done {
                Ok(result) => Ok(result.into()),
                Err(stop) => Err(refusal(&uri, stop)),
            }
        };
        served.instrument(span).await
    }

    /// One round of a 2026-07-28 read: the input request for the roots,
    /// or `work` under the roots the retry brought.
    async fn read_in_rounds<F>(&self, read: ResourceRead, work: F) -> Round
    where
        F: FnOnce(&Snapshot<'_>) -> Result<ReadResourceResult, Stop> + Send + 'static,
    {
        let rounds = self.rounds().clone();
        let digest = read.digest();
        let progress = match rounds.open_bound(read.state.as_deref(), &digest).await {
            Ok(progress) => progress.unwrap_or_default(),
            Err(err) => {
                tracing::warn!(error = %err, "requestState refused");
                let text = format!(
                    "{err}; nothing was read. Read the resource again without requestState to start over."
                );
                return Round::Done(Err(Stop::refused(err.reason(), text)));
            }
        };
        let declares = read.declares_roots();
        let retried = read.inputs.is_some();
        let inputs = read.inputs.unwrap_or_default();
        let call = match inputs.get(ROOTS_INPUT) {
            Some(answer) => self.call_roots(Some(answer)).await,
            None if !declares => self.call_roots(None).await,
            None if retried || progress.roots_asked => {
                tracing::warn!("a retried resource read carried no roots answer");
                return Round::Done(Err(Stop::refused(
                    "no_roots",
                    "The client retried the read without answering the request for its roots, \
                     so no folder is shared with it; nothing was read. Read the resource again.",
                )));
            }
            None => {
                let mut requests = InputRequests::new();
                requests.insert(ROOTS_INPUT.into(), legacy::roots_input_request());
                let asked = Progress {
                    roots_asked: true,
                    ..Progress::default()
                };
                let state = rounds.seal_bound(&digest, asked);
                let round = InputRequiredResult::new(Some(requests), Some(state));
                return Round::Asked(round);
            }
        };
        let call = match call {
            Ok(call) => call,
            Err(err) => return Round::Done(Err(err.into())),
        };
        let client = call.client.unwrap_or(if declares {
            Client::Request
        } else {
            Client::Undeclared
        });
        // Held until the work is done: the read's roots stay its own while
        // it runs (the process's memory, when there is one).
        let _ticket = call.ticket;
        let done = run_blocking(&call.roots, move |snap| {
            Ok(guarded(client, &[], snap, work))
        })
        .await;
        Round::Done(done.map_err(Stop::from).and_then(|done| done))
    }
}

/// What one 2026-07-28 round of a read comes to.
enum Round {
    /// The first round: the input request for the roots.
    Asked(InputRequiredResult),
    /// The read under this request's roots, or its refusal.
    Done(Result<ReadResourceResult, Stop>),
}

/// A refusal of a read of `uri` as a JSON-RPC error (see
/// [`SessionRoots::serve_resource`]).
fn refusal(uri: &str, stop: Stop) -> ErrorData {
    let result = stop.into_result();
    let text: Vec<&str> = result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
        .collect();
    let message = text.join("\n");
    let mut data = Map::new();
    data.insert("uri".into(), Value::String(uri.to_owned()));
    if let Some(Value::Object(structured)) = result.structured_content {
        for (key, value) in structured {
            data.entry(key).or_insert(value);
        }
    }
    let reason = data.get("reason").and_then(Value::as_str).unwrap_or("");
    tracing::info!(reason, "resource read refused");
    if reason == "io" {
        ErrorData::internal_error(message, Some(Value::Object(data)))
    } else {
        ErrorData::invalid_params(message, Some(Value::Object(data)))
    }
}
