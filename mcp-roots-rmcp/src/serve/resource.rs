//! [`SessionRoots::serve_resource`]: a `resources/read` served as a tool
//! call is, on every revision, and its refusals as JSON-RPC errors.

use std::sync::{Arc, Mutex, PoisonError};

use mcp_roots::Snapshot;
use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, CallToolResult, ReadResourceResponse, ReadResourceResult};
use serde_json::{Map, Value};

use crate::call::resource_read::ResourceRead;
use crate::call::tool_call::ToolCall;
use crate::session::roots::SessionRoots;
use crate::values::needs::Needs;
use crate::values::stop::Stop;

impl SessionRoots {
    /// Serves a `resources/read` whose work needs the roots, on every
    /// revision, as [`serve_blocking`](Self::serve_blocking) serves a tool:
    /// `work` runs on tokio's blocking pool against the session's roots
    /// (2024-11-05 to 2025-11-25; after the client's first answer, bounded)
    /// or against this request's roots (2026-07-28: the first round answers
    /// with an input request for them and, as a tool call's first round,
    /// no state; the retry brings them; a client that declares no roots
    /// gets the server's policy at once). A later round that carries
    /// something (a grant's question, see
    /// [`serve_resource_needing`](Self::serve_resource_needing)) seals a
    /// `requestState` with [`Rounds`](crate::Rounds), bound to the URI: it
    /// serves no other read and no tool call, once. The read is served as
    /// a call named `resources/read` (its logs' `tool_call` span names
    /// it). An empty set is refused before `work` sees it.
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
        self.serve_resource_needing(read, Needs::new(), work).await
    }

    /// [`serve_resource`](Self::serve_resource) for a read that declares
    /// the path it reads ([`Needs::read`]): a path outside the shared
    /// folders that the server may ask about
    /// ([`RootsBuilder::ask_within`](mcp_roots::RootsBuilder::ask_within))
    /// is asked about first, as [`serve_needing`](Self::serve_needing)
    /// asks for a tool (the question names `resources/read`), and `work`
    /// runs with what the user granted. A refusal to grant is the read's
    /// JSON-RPC error, as every refusal is.
    ///
    /// # Errors
    ///
    /// As [`serve_resource`](Self::serve_resource), and as
    /// [`Ask::need`](crate::Ask::need).
    pub async fn serve_resource_needing<F>(
        &self,
        read: ResourceRead,
        needs: Needs,
        work: F,
    ) -> Result<ReadResourceResponse, ErrorData>
    where
        F: FnOnce(&Snapshot<'_>) -> Result<ReadResourceResult, Stop> + Send + 'static,
    {
        let uri = read.uri.clone();
        let call = ToolCall::for_resource(read);
        // The body answers a tool call's result; the read's own result
        // waits here.
        let read_result: Arc<Mutex<Option<ReadResourceResult>>> = Arc::default();
        let kept = Arc::clone(&read_result);
        let response = self
            .serve_with(call, move |mut ask| async move {
                ask.need(&needs).await?;
                ask.files(move |snap| {
                    let result = work(snap)?;
                    *kept.lock().unwrap_or_else(PoisonError::into_inner) = Some(result);
                    Ok(CallToolResult::success(Vec::new()))
                })
                .await
            })
            .await;
        match response {
            CallToolResponse::InputRequired(round) => Ok(round.into()),
            CallToolResponse::Complete(result) if result.is_error != Some(true) => read_result
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take()
                .map(Into::into)
                .ok_or_else(|| {
                    ErrorData::internal_error("the read finished without a result", None)
                }),
            CallToolResponse::Complete(result) => Err(refusal(&uri, result)),
            // The glue makes no tasks.
            _ => Err(ErrorData::internal_error(
                "a resource read was answered as a task",
                None,
            )),
        }
    }
}

/// A refusal of a read of `uri` as a JSON-RPC error (see
/// [`SessionRoots::serve_resource`]).
fn refusal(uri: &str, result: CallToolResult) -> ErrorData {
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
