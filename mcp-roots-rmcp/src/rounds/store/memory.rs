//! The in-memory store: one process's consumed states (bounded, failing
//! closed when full) and URL flows, under mutexes held for a map operation
//! only, never across an `.await`.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use tokio::sync::Notify;
use tokio::time::Instant;

use super::{Consumed, FlowEnd, FlowStatus};

#[derive(Debug)]
pub(super) struct Memory {
    capacity: usize,
    /// Nonce of each consumed state → its expiry (unix ms).
    consumed: Mutex<HashMap<[u8; 16], u64>>,
    flows: Mutex<HashMap<String, Flow>>,
    /// Woken whenever a flow ends or goes.
    changed: Notify,
}

#[derive(Debug)]
struct Flow {
    expires: u64,
    end: Option<FlowEnd>,
}

impl Memory {
    pub(super) fn new(capacity: usize) -> Self {
        Self {
            capacity,
            consumed: Mutex::default(),
            flows: Mutex::default(),
            changed: Notify::new(),
        }
    }

    pub(super) fn capacity(&self) -> usize {
        self.capacity
    }

    #[cfg(test)]
    pub(super) fn held(&self) -> usize {
        lock(&self.consumed).len()
    }

    pub(super) fn consume(&self, nonce: &[u8; 16], expires: u64, now: u64) -> Consumed {
        let mut consumed = lock(&self.consumed);
        if consumed.get(nonce).is_some_and(|until| *until > now) {
            return Consumed::Before;
        }
        if consumed.len() >= self.capacity {
            consumed.retain(|_, until| *until > now);
            if consumed.len() >= self.capacity {
                return Consumed::Full;
            }
        }
        consumed.insert(*nonce, expires);
        Consumed::Now
    }

    pub(super) fn create_flow(&self, id: &str, expires: u64, now: u64) {
        let mut flows = lock(&self.flows);
        flows.retain(|_, flow| flow.expires > now);
        flows
            .entry(id.to_owned())
            .or_insert(Flow { expires, end: None });
    }

    pub(super) fn end_flow(&self, id: &str, end: &FlowEnd, now: u64) -> bool {
        let ended = match lock(&self.flows).get_mut(id) {
            Some(flow) if flow.expires > now && flow.end.is_none() => {
                flow.end = Some(end.clone());
                true
            }
            _ => false,
        };
        if ended {
            self.changed.notify_waiters();
        }
        ended
    }

    pub(super) fn flow(&self, id: &str, now: u64) -> FlowStatus {
        match lock(&self.flows).get(id) {
            Some(flow) if flow.expires > now => match &flow.end {
                Some(end) => FlowStatus::Ended(end.clone()),
                None => FlowStatus::Open,
            },
            _ => FlowStatus::Unknown,
        }
    }

    pub(super) fn remove_flow(&self, id: &str) {
        lock(&self.flows).remove(id);
        self.changed.notify_waiters();
    }

    /// Waits until `deadline` for the flow to end or go.
    pub(super) async fn wait_flow(
        &self,
        id: &str,
        deadline: Instant,
        now: &(dyn Fn() -> u64 + Sync),
    ) -> Option<FlowStatus> {
        loop {
            // Registered before the look, so that an end between the look
            // and the wait still wakes it.
            let woken = self.changed.notified();
            tokio::pin!(woken);
            woken.as_mut().enable();
            let status = self.flow(id, now());
            if status != FlowStatus::Open {
                return Some(status);
            }
            if tokio::time::timeout_at(deadline, woken).await.is_err() {
                return None;
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
