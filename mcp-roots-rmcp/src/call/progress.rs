//! [`Progress`]: a call's progress token and cancellation, for work that
//! runs long (a walk over a large tree).
//!
//! rmcp cancels a request's token when `notifications/cancelled` arrives
//! (and, over Streamable HTTP on 2026-07-28, when the client closes the
//! call's stream), but it does not abort the handler, and blocking work on
//! tokio's pool cannot be aborted anyway: the work polls
//! [`Progress::is_cancelled`] and stops itself.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rmcp::ErrorData;
use rmcp::Peer;
use rmcp::RoleServer;
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{ProgressNotificationParam, ProgressToken};
use tokio_util::sync::CancellationToken;

/// The least time between two progress notifications of one call, so that
/// a fast walk does not flood the client.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// One call's progress token (when the request carried `_meta.progressToken`)
/// and its cancellation, as a tool method's argument (before
/// `Parameters<…>`, like [`ToolCall`](crate::ToolCall)).
///
/// It is `Clone + Send`: move it into the body of
/// [`serve_blocking`](crate::SessionRoots::serve_blocking) and call
/// [`is_cancelled`](Self::is_cancelled) and [`report`](Self::report) from
/// the blocking pool.
#[derive(Clone, Debug)]
pub struct Progress {
    peer: Peer<RoleServer>,
    token: Option<ProgressToken>,
    cancelled: CancellationToken,
    runtime: Option<tokio::runtime::Handle>,
    pacing: Arc<Pacing>,
}

/// When the last notification went out (milliseconds since `start`, plus
/// one: 0 means never).
#[derive(Debug)]
struct Pacing {
    start: Instant,
    last: AtomicU64,
}

impl<S> FromContextPart<ToolCallContext<'_, S>> for Progress {
    fn from_context_part(cx: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        let request = &cx.request_context;
        Ok(Self {
            peer: request.peer.clone(),
            token: request.meta.get_progress_token(),
            cancelled: request.ct.clone(),
            runtime: tokio::runtime::Handle::try_current().ok(),
            pacing: Arc::new(Pacing {
                start: Instant::now(),
                last: AtomicU64::new(0),
            }),
        })
    }
}

impl Progress {
    /// Whether the client cancelled the call (`notifications/cancelled`,
    /// or its stream closed). Cheap: poll it in a loop.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.is_cancelled()
    }

    /// Whether the client asked for progress notifications.
    pub fn wanted(&self) -> bool {
        self.token.is_some()
    }

    /// Sends `notifications/progress` with `done` (and `message`) if the
    /// request carried a progress token and at least
    /// [`PROGRESS_INTERVAL`] passed since the last one; otherwise nothing.
    /// Never blocks: the notification is sent from the runtime.
    pub fn report(&self, done: u64, message: impl FnOnce() -> String) {
        let (Some(token), Some(runtime)) = (&self.token, &self.runtime) else {
            return;
        };
        let now = self.pacing.start.elapsed().as_millis() as u64 + 1;
        let last = self.pacing.last.load(Ordering::Relaxed);
        let interval = PROGRESS_INTERVAL.as_millis() as u64;
        if last != 0 && now < last + interval {
            return;
        }
        if self
            .pacing
            .last
            .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
            .is_err()
        {
            return; // another thread just sent one
        }
        let param =
            ProgressNotificationParam::new(token.clone(), done as f64).with_message(message());
        let peer = self.peer.clone();
        runtime.spawn(async move {
            if let Err(err) = peer.notify_progress(param).await {
                tracing::debug!(error = %err, "progress notification not sent");
            }
        });
    }
}
