//! [`Rounds`]: what carries one tool call across the input-required rounds
//! of 2026-07-28. The call's progress (the answers given so far, the
//! question pending) travels in `requestState`, which the client echoes:
//! untrusted input. So it is sealed (HMAC-SHA256 through rmcp's
//! `RequestStateCodec`, with one key or a [`KeyRing`]), bound to the tool
//! and a digest of its arguments, stamped with an expiry read from an
//! injectable clock, and accepted once: the [`Store`] records each state
//! consumed for its whole lifetime plus the clock skew the deployment
//! tolerates ([`Rounds::with_max_clock_skew`]). URL-mode flows that outlive a round (the user
//! is on the page) are recorded in the store too, by `elicitationId`.
//!
//! One `Rounds` serves a whole process (2026-07-28 has no session: a retry
//! may reach any server instance of the process, or, with a shared store
//! and keys, any process of the deployment). [`Rounds::global`] is the
//! default every [`SessionRoots`](crate::SessionRoots) uses.

mod deployment;
mod flows;
#[cfg(test)]
mod instances;
mod keys;
mod state;
mod store;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rmcp::model::RequestStateCodec;
use tokio::task::AbortHandle;

pub use self::deployment::{Deployment, DeploymentError};
pub use self::keys::{KeyError, KeyRing, STATE_KEYS_ENV};
pub(crate) use self::state::{Pending, Progress, Recorded, hex};
pub(crate) use self::store::{FlowEnd, FlowStatus};
pub use self::store::{Store, StoreError};

/// How long a sealed `requestState` is accepted after it was issued: the
/// time a user has to answer one question.
pub const DEFAULT_STATE_TTL: Duration = Duration::from_secs(5 * 60);
/// How long a "still waiting" round waits for a URL flow to finish before
/// it answers (rmcp's client retries a state-only round after 50–250 ms and
/// gives up after 10 rounds, so each round does the waiting).
pub const DEFAULT_URL_ROUND_WAIT: Duration = Duration::from_secs(20);
/// How many "still waiting" rounds one URL flow may take.
pub const DEFAULT_URL_WAIT_ROUNDS: u32 = 8;
/// How often a waiting round asks a shared store (Redis) whether its flow
/// has ended (the memory store wakes it at once instead).
pub const DEFAULT_URL_POLL: Duration = Duration::from_millis(200);
/// How many unexpired consumed states the memory store remembers; past it,
/// new rounds are refused (fail closed) until some expire.
pub const DEFAULT_REPLAY_CAPACITY: usize = 65_536;
/// How far apart the clocks of a deployment's instances may be: a consumed
/// state's record is kept this long past the state's whole lifetime, so
/// that no instance whose clock is at most this much behind the consuming
/// one still accepts the state once its record has gone (see
/// [`Rounds::with_max_clock_skew`]).
pub const DEFAULT_MAX_CLOCK_SKEW: Duration = Duration::from_secs(5 * 60);

/// The clock a [`Rounds`] reads (injectable, so that a test can expire a
/// state without waiting).
pub type Clock = Arc<dyn Fn() -> SystemTime + Send + Sync>;

/// The sealing keys, TTL, clock, store and URL waits of the 2026-07-28
/// rounds (see the module docs). Clones share everything.
///
/// Several instances of one server behind a load balancer share a call's
/// rounds when they share the keys ([`with_key_ring`](Self::with_key_ring))
/// and the store ([`with_store`](Self::with_store), e.g.
/// [`Store::redis`]).
#[derive(Clone)]
pub struct Rounds {
    inner: Arc<Inner>,
}

struct Inner {
    codec: RequestStateCodec,
    ttl: Duration,
    max_clock_skew: Duration,
    url_round_wait: Duration,
    url_wait_rounds: u32,
    url_poll: Duration,
    clock: Clock,
    store: Store,
    /// The completions this process runs for its flows (each records its
    /// end in the store), by flow id.
    local: Mutex<HashMap<String, AbortHandle>>,
}

impl fmt::Debug for Rounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rounds")
            .field("ttl", &self.inner.ttl)
            .field("max_clock_skew", &self.inner.max_clock_skew)
            .field("url_round_wait", &self.inner.url_round_wait)
            .field("url_wait_rounds", &self.inner.url_wait_rounds)
            .field("store", &self.inner.store)
            .field("local_flows", &lock(&self.inner.local).len())
            .finish_non_exhaustive()
    }
}

impl Default for Rounds {
    fn default() -> Self {
        Self::new()
    }
}

impl Rounds {
    /// Rounds with a fresh random key, the default TTL, the system clock
    /// and the memory store.
    ///
    /// # Panics
    ///
    /// If the operating system has no random source.
    pub fn new() -> Self {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).expect("the operating system's random source");
        Self::with_key(&key)
    }

    /// Rounds sealing with `key` (at least 32 bytes; several server
    /// processes behind one load balancer share one), the default TTL, the
    /// system clock and the memory store. States are sealed in rmcp's
    /// single-key format (`rs1`); [`with_key_ring`](Self::with_key_ring)
    /// accepts them during a move to a ring.
    ///
    /// # Panics
    ///
    /// If `key` is shorter than 32 bytes.
    pub fn with_key(key: &[u8]) -> Self {
        let codec = RequestStateCodec::try_new(key.to_vec()).expect("a key of 32 bytes or more");
        Self::with_codec(codec)
    }

    /// Rounds sealing with the ring's sealing key and accepting every key
    /// it lists (see [`KeyRing`] for a rolling rotation), the default TTL,
    /// the system clock and the memory store.
    pub fn with_key_ring(ring: &KeyRing) -> Self {
        Self::with_codec(ring.codec())
    }

    fn with_codec(codec: RequestStateCodec) -> Self {
        Self {
            inner: Arc::new(Inner {
                codec,
                ttl: DEFAULT_STATE_TTL,
                max_clock_skew: DEFAULT_MAX_CLOCK_SKEW,
                url_round_wait: DEFAULT_URL_ROUND_WAIT,
                url_wait_rounds: DEFAULT_URL_WAIT_ROUNDS,
                url_poll: DEFAULT_URL_POLL,
                clock: Arc::new(SystemTime::now),
                store: Store::default(),
                local: Mutex::default(),
            }),
        }
    }

    /// The process-wide rounds (random key, memory store), which sessions
    /// use unless told otherwise.
    pub fn global() -> Self {
        static GLOBAL: OnceLock<Rounds> = OnceLock::new();
        GLOBAL.get_or_init(Rounds::new).clone()
    }

    /// Sets how long a state is accepted after it was issued.
    pub fn with_ttl(self, ttl: Duration) -> Self {
        self.configure(|inner| inner.ttl = ttl)
    }

    /// Sets how far apart the instances' clocks may be (default
    /// [`DEFAULT_MAX_CLOCK_SKEW`], 5 minutes).
    ///
    /// A state is stamped with its expiry by the clock of the instance that
    /// seals it and accepted by any instance whose own clock has not
    /// reached that expiry, so an instance whose clock is behind accepts it
    /// for longer. The record that the state was consumed is therefore
    /// kept for the state's whole lifetime (the longer of the TTL and what
    /// is left of it by the consuming instance's clock) plus this skew, as
    /// a duration the store counts (Redis: `PX`), whatever the consuming
    /// instance's clock says. The deployment tolerates clocks that differ
    /// by at most this much: past it, an instance whose clock is further
    /// behind the one that consumed a state could accept that state again
    /// once its record has gone. Each round's record in Redis lives TTL +
    /// skew (10 minutes by default). The memory store serves one process,
    /// whose one clock both stamps and judges: it keeps a record until the
    /// state's expiry by that clock, and the skew does not apply.
    pub fn with_max_clock_skew(self, skew: Duration) -> Self {
        self.configure(|inner| inner.max_clock_skew = skew)
    }

    /// The clock skew the deployment tolerates
    /// ([`with_max_clock_skew`](Self::with_max_clock_skew)).
    pub fn max_clock_skew(&self) -> Duration {
        self.inner.max_clock_skew
    }

    /// Sets the clock states are stamped and judged by.
    pub fn with_clock(self, clock: impl Fn() -> SystemTime + Send + Sync + 'static) -> Self {
        self.configure(|inner| inner.clock = Arc::new(clock))
    }

    /// Sets how long one "still waiting" round waits for a URL flow
    /// (default [`DEFAULT_URL_ROUND_WAIT`]), and how many such rounds a
    /// flow may take (default [`DEFAULT_URL_WAIT_ROUNDS`]).
    pub fn with_url_wait(self, per_round: Duration, rounds: u32) -> Self {
        self.configure(|inner| {
            inner.url_round_wait = per_round;
            inner.url_wait_rounds = rounds;
        })
    }

    /// Sets how often a waiting round asks a shared store whether its flow
    /// ended (default [`DEFAULT_URL_POLL`]; one Redis `MGET` each).
    pub fn with_url_poll(self, every: Duration) -> Self {
        self.configure(|inner| inner.url_poll = every.max(Duration::from_millis(1)))
    }

    /// Sets where consumed states and URL flows are kept (default: the
    /// memory store, [`Store::memory`] with [`DEFAULT_REPLAY_CAPACITY`]).
    pub fn with_store(self, store: Store) -> Self {
        self.configure(|inner| inner.store = store)
    }

    /// Uses a memory store remembering at most `capacity` unexpired
    /// consumed states (shorthand for
    /// `with_store(Store::memory(capacity))`).
    pub fn with_replay_capacity(self, capacity: usize) -> Self {
        self.with_store(Store::memory(capacity))
    }

    fn configure(mut self, set: impl FnOnce(&mut Inner)) -> Self {
        let inner = Arc::get_mut(&mut self.inner).expect("configure Rounds before sharing it");
        set(inner);
        self
    }

    pub(crate) fn ttl(&self) -> Duration {
        self.inner.ttl
    }

    pub(crate) fn url_round_wait(&self) -> Duration {
        self.inner.url_round_wait
    }

    pub(crate) fn url_wait_rounds(&self) -> u32 {
        self.inner.url_wait_rounds
    }

    pub(crate) fn url_poll(&self) -> Duration {
        self.inner.url_poll
    }

    /// The store the rounds keep their shared records in.
    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// Now, in unix milliseconds, by the configured clock.
    pub(crate) fn now_ms(&self) -> u64 {
        let now = (self.inner.clock)();
        let since = now.duration_since(UNIX_EPOCH).unwrap_or_default();
        u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
    }

    pub(crate) fn codec(&self) -> &RequestStateCodec {
        &self.inner.codec
    }

    /// The completions this process runs, by flow id.
    pub(crate) fn local_flows(&self) -> MutexGuard<'_, HashMap<String, AbortHandle>> {
        lock(&self.inner.local)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
