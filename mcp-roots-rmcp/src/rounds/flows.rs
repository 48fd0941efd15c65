//! URL-mode flows that outlive a round, recorded in the [`Store`] so that
//! every instance sees them: the round that asks for consent creates the
//! flow; its end (a result, serialised, or none) is recorded once, by the
//! completion the asking instance runs or by [`Rounds::finish_flow`] from
//! any instance (a page served elsewhere); the rounds that wait learn of
//! it through the store.
//!
//! [`Store`]: super::Store

use std::future::Future;

use rmcp::model::SealOptions;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{FlowEnd, FlowStatus, Rounds, StoreError};

impl Rounds {
    /// Records the flow `id` (alive until `expires`, unix ms) and runs
    /// `completion` in a task of this process, which records the flow's end
    /// when it finishes (unless it ended elsewhere first).
    ///
    /// # Errors
    ///
    /// The store could not record the flow (nothing is started).
    pub(crate) async fn start_flow<T, C>(
        &self,
        id: &str,
        expires: u64,
        completion: C,
    ) -> Result<(), StoreError>
    where
        T: Serialize + Send + 'static,
        C: Future<Output = Option<T>> + Send + 'static,
    {
        self.store().create_flow(id, expires, self.now_ms()).await?;
        let rounds = self.clone();
        let flow = id.to_owned();
        let task = tokio::spawn(async move {
            let end = end_of(completion.await.as_ref());
            let recorded = match end {
                Ok(end) => rounds.store().end_flow(&flow, &end, rounds.now_ms()).await,
                Err(err) => Err(err),
            };
            if let Err(err) = recorded {
                tracing::error!(error = %err, flow, "a URL flow's end could not be recorded");
            }
        });
        let mut local = self.local_flows();
        local.retain(|_, task| !task.is_finished());
        local.insert(id.to_owned(), task.abort_handle());
        Ok(())
    }

    /// Records that the URL flow `id` ended with `result` (`None`: without
    /// one), from whichever instance the flow's page was served by: a page
    /// submitted to any instance of the deployment ends the flow for the
    /// rounds that wait on every other. The first end recorded wins;
    /// whether this call's was.
    ///
    /// # Errors
    ///
    /// The store could not be reached, or `result` cannot be serialised.
    pub async fn finish_flow<T: Serialize>(
        &self,
        id: &str,
        result: Option<&T>,
    ) -> Result<bool, StoreError> {
        let end = end_of(result)?;
        self.store().end_flow(id, &end, self.now_ms()).await
    }

    /// Whether the URL flow `id` is waiting for its end (created, not
    /// ended, not expired): a page served by any instance shows its form
    /// only then.
    ///
    /// # Errors
    ///
    /// The store could not be reached.
    pub async fn flow_is_open(&self, id: &str) -> Result<bool, StoreError> {
        let status = self.store().flow(id, self.now_ms()).await?;
        Ok(status == FlowStatus::Open)
    }

    /// A token that names the flow `id` and proves this deployment made it:
    /// the flow id sealed with the rounds' sealing key (for another use
    /// than a `requestState`), valid for `ttl`. A page that any instance
    /// serves puts it in the URL it sends the user to, and reads the flow
    /// back with [`open_flow_token`](Self::open_flow_token) on whichever
    /// instance the browser reaches: no secret has to be stored per flow.
    pub fn flow_token(&self, id: &str, ttl: std::time::Duration) -> String {
        let options = SealOptions::new().associated_data(FLOW_TOKEN).ttl(ttl);
        self.codec().seal_with(id.as_bytes(), &options)
    }

    /// The flow a [`flow_token`](Self::flow_token) names, if it was sealed
    /// with a key of the ring, for this use, and has not expired (the flow
    /// itself may still have ended: see [`flow_is_open`](Self::flow_is_open)).
    pub fn open_flow_token(&self, token: &str) -> Option<String> {
        if token.len() > 4096 {
            return None;
        }
        let id = self.codec().open_with(token, FLOW_TOKEN).ok()?;
        String::from_utf8(id).ok()
    }

    /// Forgets the flow `id` (declined, cancelled, abandoned), stopping
    /// this process's completion of it.
    pub(crate) async fn drop_flow(&self, id: &str) -> Result<(), StoreError> {
        if let Some(task) = self.local_flows().remove(id) {
            task.abort();
        }
        self.store().remove_flow(id).await
    }

    /// Waits one round's worth for the flow `id` to end (`None`: still
    /// open); an unknown flow counts as ended without a result.
    pub(crate) async fn wait_flow(&self, id: &str) -> Result<Option<FlowStatus>, StoreError> {
        let now = || self.now_ms();
        let waited = self
            .store()
            .wait_flow(id, self.url_round_wait(), self.url_poll(), now)
            .await?;
        if waited.is_some() {
            // Ended (here or elsewhere): this process's completion, if any,
            // has nothing left to do.
            if let Some(task) = self.local_flows().remove(id) {
                task.abort();
            }
        }
        Ok(waited)
    }

    /// The result the flow `id` ended with, if it produced one that reads
    /// back as a `T`.
    pub(crate) async fn flow_result<T: DeserializeOwned>(
        &self,
        id: &str,
    ) -> Result<Option<T>, StoreError> {
        let status = self.store().flow(id, self.now_ms()).await?;
        let FlowStatus::Ended(FlowEnd::Finished(value)) = status else {
            return Ok(None);
        };
        match serde_json::from_value(value) {
            Ok(result) => Ok(Some(result)),
            Err(err) => {
                tracing::warn!(error = %err, flow = id, "a URL flow's result did not read back");
                Ok(None)
            }
        }
    }
}

/// Mixed into a flow token's associated data, so that no `requestState`
/// opens as a token nor a token as a state.
const FLOW_TOKEN: &[u8] = b"mcp-roots-rmcp/flow-token/v1\0";

/// A flow's end as the store keeps it.
fn end_of<T: Serialize>(result: Option<&T>) -> Result<FlowEnd, StoreError> {
    Ok(match result {
        Some(value) => FlowEnd::Finished(serde_json::to_value(value).map_err(StoreError::new)?),
        None => FlowEnd::Ended,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flow_tokens_name_their_flow_for_the_ring_that_sealed_them() {
        let a = Rounds::with_key(&[1; 32]);
        let b = Rounds::with_key(&[2; 32]);
        let hour = std::time::Duration::from_secs(3600);
        let token = a.flow_token("flow-1", hour);
        assert_eq!(a.open_flow_token(&token).as_deref(), Some("flow-1"));
        assert_eq!(b.open_flow_token(&token), None, "another key");
        let mut tampered = token.clone().into_bytes();
        let last = tampered.len() - 1;
        tampered[last] = if tampered[last] == b'A' { b'B' } else { b'A' };
        assert_eq!(
            a.open_flow_token(&String::from_utf8(tampered).unwrap()),
            None
        );
        // A plain seal of the same bytes (another use) is not a token.
        assert_eq!(a.open_flow_token(&a.codec().seal(b"flow-1")), None);
        let expired = a.flow_token("flow-2", std::time::Duration::ZERO);
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert_eq!(a.open_flow_token(&expired), None);
    }
}
