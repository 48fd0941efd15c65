//! [`Store`]: what the instances of one deployment must share about the
//! 2026-07-28 rounds, so that a retry may land on any of them:
//!
//! - **consumed states**: a state is accepted once. Consuming it is one
//!   atomic set-if-absent of its nonce, kept for as long as the rounds say
//!   (the state's whole lifetime plus the clock skew the deployment
//!   tolerates: after that every instance's seal refuses it anyway);
//! - **URL flows**: a flow is created when its URL goes out, ended once
//!   (with a result, or without one), read by the rounds that wait for it,
//!   and removed when the user declines; it expires by itself.
//!
//! Two stores ship: [`Store::memory`] (one process: the default) and, with
//! the `redis` feature, [`Store::redis`] (several processes). Both fail
//! closed: what cannot be recorded is refused, never accepted unrecorded.

mod memory;
#[cfg(feature = "redis")]
mod redis;
#[cfg(all(test, feature = "redis"))]
pub(crate) mod redis_server;
#[cfg(test)]
mod suite;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use self::memory::Memory;

/// How a URL flow ended, as the store keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum FlowEnd {
    /// The flow produced its result (serialised).
    Finished(Value),
    /// The flow ended without a result (its page timed out, or it was
    /// abandoned).
    Ended,
}

/// A flow as the store knows it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum FlowStatus {
    /// No such flow (never created, removed or expired).
    Unknown,
    /// Created, not ended yet.
    Open,
    /// Ended.
    Ended(FlowEnd),
}

/// Why the store could not answer: the round that needed it is refused.
#[derive(Clone, Debug)]
pub struct StoreError {
    detail: Arc<str>,
}

impl StoreError {
    pub(crate) fn new(detail: impl fmt::Display) -> Self {
        Self {
            detail: detail.to_string().into(),
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the rounds' state store failed: {}", self.detail)
    }
}

impl std::error::Error for StoreError {}

/// Whether a consumption was recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Consumed {
    /// Recorded now: the state is this round's.
    Now,
    /// It was consumed before.
    Before,
    /// The record is full (the memory store's bound): refused.
    Full,
}

/// Where the rounds of a deployment keep what its instances share
/// (consumed states and URL flows; see the module docs). Clones share the
/// store.
///
/// - [`Store::memory`] (the default): this process only, bounded (past
///   [`DEFAULT_REPLAY_CAPACITY`](crate::DEFAULT_REPLAY_CAPACITY) unexpired
///   consumed states, new rounds are refused until some expire). One
///   instance, or several that route every call of a client to one.
/// - [`Store::redis`] (feature `redis`): one Redis shared by every
///   instance. Redis unreachable: a round that would consume a state is
///   refused with `state_store_unavailable`, and nothing changes.
#[derive(Clone)]
pub struct Store {
    backend: Backend,
}

#[derive(Clone)]
enum Backend {
    Memory(Arc<Memory>),
    #[cfg(feature = "redis")]
    Redis(self::redis::Redis),
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.backend {
            Backend::Memory(memory) => f
                .debug_struct("Store::Memory")
                .field("capacity", &memory.capacity())
                .finish_non_exhaustive(),
            #[cfg(feature = "redis")]
            Backend::Redis(redis) => f
                .debug_struct("Store::Redis")
                .field("prefix", &redis.prefix())
                .finish_non_exhaustive(),
        }
    }
}

impl Default for Store {
    fn default() -> Self {
        Self::memory(crate::rounds::DEFAULT_REPLAY_CAPACITY)
    }
}

impl Store {
    /// The in-memory store of one process, remembering at most `capacity`
    /// unexpired consumed states (past that, rounds are refused with
    /// `busy` until some expire).
    pub fn memory(capacity: usize) -> Self {
        Self {
            backend: Backend::Memory(Arc::new(Memory::new(capacity))),
        }
    }

    /// The Redis store at `url` (`redis://HOST:PORT`, `redis://HOST:PORT/DB`,
    /// `rediss://…` is not built in), its keys under `prefix` (one prefix
    /// per deployment: every instance of it uses the same one).
    ///
    /// It checks, before it returns, that Redis answers, that it takes
    /// `SET … NX GET` (Redis 7.0 or later) and that it will not evict the
    /// records (`CONFIG GET maxmemory-policy` is `noeviction`): an evicted
    /// record would let a consumed state be accepted again. **The policy is
    /// checked here only**, when the store connects: a policy changed
    /// while the server runs (`CONFIG SET`, a Redis restarted with another
    /// configuration) is not seen until the store is made again; keep
    /// `noeviction` in Redis's configuration file.
    ///
    /// A command whose connection dropped (a Redis restart) or that got no
    /// answer within 2 s is sent once more, within 5 s in all; a
    /// consumption writes a random token of its own, so a write that Redis
    /// applied late is recognised as this round's, not as an earlier use.
    /// Records of consumed states are kept for as long as the [`Rounds`]
    /// say ([`Rounds::with_max_clock_skew`]), counted by Redis.
    ///
    /// [`Rounds`]: crate::Rounds
    /// [`Rounds::with_max_clock_skew`]: crate::Rounds::with_max_clock_skew
    ///
    /// # Errors
    ///
    /// A URL Redis cannot use, Redis unreachable, `CONFIG GET` refused, a
    /// Redis before 7.0, or an eviction policy other than `noeviction`.
    #[cfg(feature = "redis")]
    #[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
    pub async fn redis(url: &str, prefix: &str) -> Result<Self, StoreError> {
        let redis = self::redis::Redis::connect(url, prefix).await?;
        Ok(Self {
            backend: Backend::Redis(redis),
        })
    }

    /// Records the state `nonce`, expiring at `expires`, consumed at `now`
    /// (unix ms, this process's clock). The memory store keeps the record
    /// until `expires` by that same clock (one process: no other clock
    /// judges the state); Redis keeps it for `keep_ms`, a duration it
    /// counts by its own clock, whatever the instances' clocks say.
    #[cfg_attr(not(feature = "redis"), allow(unused_variables))] // keep_ms is Redis's
    pub(crate) async fn consume(
        &self,
        nonce: &[u8; 16],
        expires: u64,
        now: u64,
        keep_ms: u64,
    ) -> Result<Consumed, StoreError> {
        match &self.backend {
            Backend::Memory(memory) => Ok(memory.consume(nonce, expires, now)),
            #[cfg(feature = "redis")]
            Backend::Redis(redis) => redis.consume(nonce, keep_ms).await,
        }
    }

    /// Creates the flow `id`, alive until `expires` (unix ms).
    pub(crate) async fn create_flow(
        &self,
        id: &str,
        expires: u64,
        now: u64,
    ) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Memory(memory) => {
                memory.create_flow(id, expires, now);
                Ok(())
            }
            #[cfg(feature = "redis")]
            Backend::Redis(redis) => redis.create_flow(id, expires, now).await,
        }
    }

    /// Ends the flow `id` with `end`, if it exists and has not ended;
    /// whether this call ended it.
    pub(crate) async fn end_flow(
        &self,
        id: &str,
        end: &FlowEnd,
        now: u64,
    ) -> Result<bool, StoreError> {
        match &self.backend {
            Backend::Memory(memory) => Ok(memory.end_flow(id, end, now)),
            #[cfg(feature = "redis")]
            Backend::Redis(redis) => redis.end_flow(id, end).await,
        }
    }

    /// What the store knows of the flow `id`.
    pub(crate) async fn flow(&self, id: &str, now: u64) -> Result<FlowStatus, StoreError> {
        match &self.backend {
            Backend::Memory(memory) => Ok(memory.flow(id, now)),
            #[cfg(feature = "redis")]
            Backend::Redis(redis) => redis.flow(id).await,
        }
    }

    /// Forgets the flow `id` (the user declined it).
    pub(crate) async fn remove_flow(&self, id: &str) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Memory(memory) => {
                memory.remove_flow(id);
                Ok(())
            }
            #[cfg(feature = "redis")]
            Backend::Redis(redis) => redis.remove_flow(id).await,
        }
    }

    /// Waits at most `within` for the flow `id` to end: the memory store
    /// is woken by the end itself; Redis is polled every `poll` (one `MGET`
    /// each). `Ok(None)`: still open when the time ran out.
    pub(crate) async fn wait_flow(
        &self,
        id: &str,
        within: Duration,
        poll: Duration,
        now: impl Fn() -> u64 + Sync,
    ) -> Result<Option<FlowStatus>, StoreError> {
        let deadline = tokio::time::Instant::now() + within;
        match &self.backend {
            Backend::Memory(memory) => {
                // Woken by the end itself: no polling.
                let _ = poll;
                Ok(memory.wait_flow(id, deadline, &now).await)
            }
            #[cfg(feature = "redis")]
            Backend::Redis(redis) => {
                let _ = &now;
                loop {
                    let status = redis.flow(id).await?;
                    if status != FlowStatus::Open {
                        return Ok(Some(status));
                    }
                    let next = tokio::time::Instant::now() + poll;
                    if next >= deadline {
                        tokio::time::sleep_until(deadline).await;
                        let status = redis.flow(id).await?;
                        return Ok((status != FlowStatus::Open).then_some(status));
                    }
                    tokio::time::sleep_until(next).await;
                }
            }
        }
    }

    /// How many unexpired consumed states the memory store holds (`None`
    /// for Redis).
    #[cfg(test)]
    pub(crate) fn held(&self) -> Option<usize> {
        match &self.backend {
            Backend::Memory(memory) => Some(memory.held()),
            #[cfg(feature = "redis")]
            Backend::Redis(_) => None,
        }
    }
}
