//! URL-mode flows that outlive a round: the page the user was sent to keeps
//! running between the round that asked for consent and the rounds that
//! wait for it to finish.

use std::any::Any;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::AbortHandle;

/// How a flow ended.
#[derive(Clone)]
pub(crate) enum FlowState {
    /// The flow produced its result (shared: later rounds replay it).
    Finished(Arc<dyn Any + Send + Sync>),
    /// The flow ended without a result (its page timed out).
    Ended,
}

/// One flow in progress (or ended, until it expires).
pub(crate) struct Flow {
    expires: u64,
    ended: watch::Receiver<Option<FlowState>>,
    task: AbortHandle,
}

impl Drop for Flow {
    fn drop(&mut self) {
        // A flow forgotten (declined, expired) stops its page.
        self.task.abort();
    }
}

impl Flow {
    /// Runs `completion` in a task of its own; the flow is kept until
    /// `expires` (unix ms).
    pub(crate) fn spawn<T, F>(completion: F, expires: u64) -> Self
    where
        T: Send + Sync + 'static,
        F: Future<Output = Option<T>> + Send + 'static,
    {
        let (sender, ended) = watch::channel(None);
        let task = tokio::spawn(async move {
            let state = match completion.await {
                Some(value) => FlowState::Finished(Arc::new(value)),
                None => FlowState::Ended,
            };
            sender.send_replace(Some(state));
        });
        Self {
            expires,
            ended,
            task: task.abort_handle(),
        }
    }

    pub(crate) fn alive_at(&self, now: u64) -> bool {
        now < self.expires
    }

    /// A receiver to wait on without holding the registry.
    pub(crate) fn watcher(&self) -> watch::Receiver<Option<FlowState>> {
        self.ended.clone()
    }
}

/// Waits at most `within` for the flow behind `ended` to end.
pub(crate) async fn wait(
    mut ended: watch::Receiver<Option<FlowState>>,
    within: Duration,
) -> Option<FlowState> {
    let done = tokio::time::timeout(within, ended.wait_for(Option::is_some)).await;
    match done {
        Ok(Ok(state)) => state.clone(),
        // The task was aborted or panicked: the flow ended without result.
        Ok(Err(_)) => Some(FlowState::Ended),
        Err(_) => None,
    }
}
