//! [`Rounds`]: what carries one tool call across the input-required rounds
//! of 2026-07-28. The call's progress (the answers given so far, the
//! question pending) travels in `requestState`, which the client echoes:
//! untrusted input. So it is sealed (HMAC-SHA256 with a per-process key,
//! through rmcp's `RequestStateCodec`), bound to the tool and a digest of
//! its arguments, stamped with an expiry read from an injectable clock, and
//! accepted once: a bounded record keeps the states already consumed until
//! they expire. URL-mode flows that outlive a round (the user is on the
//! page) are held here too, by `elicitationId`.
//!
//! One `Rounds` serves a whole process (2026-07-28 has no session: a retry
//! may reach any server instance of the process). [`Rounds::global`] is the
//! default every [`SessionRoots`](crate::SessionRoots) uses.

mod flows;
mod state;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rmcp::model::RequestStateCodec;

pub(crate) use self::flows::{Flow, FlowState, wait};
pub(crate) use self::state::{Pending, Progress, Recorded, StateError, hex};

/// How long a sealed `requestState` is accepted after it was issued: the
/// time a user has to answer one question.
pub const DEFAULT_STATE_TTL: Duration = Duration::from_secs(5 * 60);
/// How long a "still waiting" round waits for a URL flow to finish before
/// it answers (rmcp's client retries a state-only round after 50–250 ms and
/// gives up after 10 rounds, so each round does the waiting).
pub const DEFAULT_URL_ROUND_WAIT: Duration = Duration::from_secs(20);
/// How many "still waiting" rounds one URL flow may take.
pub const DEFAULT_URL_WAIT_ROUNDS: u32 = 8;
/// How many unexpired consumed states are remembered; past it, new rounds
/// are refused (fail closed) until some expire.
pub const DEFAULT_REPLAY_CAPACITY: usize = 65_536;

/// The clock a [`Rounds`] reads (injectable, so that a test can expire a
/// state without waiting).
pub type Clock = Arc<dyn Fn() -> SystemTime + Send + Sync>;

/// The sealing key, TTL, clock, replay record and URL flows of the
/// 2026-07-28 rounds (see the module docs). Clones share everything.
#[derive(Clone)]
pub struct Rounds {
    inner: Arc<Inner>,
}

struct Inner {
    codec: RequestStateCodec,
    ttl: Duration,
    url_round_wait: Duration,
    url_wait_rounds: u32,
    capacity: usize,
    clock: Clock,
    /// Nonce of each consumed state → its expiry (unix ms).
    consumed: Mutex<HashMap<[u8; 16], u64>>,
    flows: Mutex<HashMap<String, Flow>>,
}

impl fmt::Debug for Rounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rounds")
            .field("ttl", &self.inner.ttl)
            .field("url_round_wait", &self.inner.url_round_wait)
            .field("url_wait_rounds", &self.inner.url_wait_rounds)
            .field("consumed", &lock(&self.inner.consumed).len())
            .field("flows", &lock(&self.inner.flows).len())
            .finish_non_exhaustive()
    }
}

impl Default for Rounds {
    fn default() -> Self {
        Self::new()
    }
}

impl Rounds {
    /// Rounds with a fresh random key, the default TTL and the system clock.
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
    /// processes behind one load balancer share one), the default TTL and
    /// the system clock.
    ///
    /// # Panics
    ///
    /// If `key` is shorter than 32 bytes.
    pub fn with_key(key: &[u8]) -> Self {
        let codec = RequestStateCodec::try_new(key.to_vec()).expect("a key of 32 bytes or more");
        Self {
            inner: Arc::new(Inner {
                codec,
                ttl: DEFAULT_STATE_TTL,
                url_round_wait: DEFAULT_URL_ROUND_WAIT,
                url_wait_rounds: DEFAULT_URL_WAIT_ROUNDS,
                capacity: DEFAULT_REPLAY_CAPACITY,
                clock: Arc::new(SystemTime::now),
                consumed: Mutex::default(),
                flows: Mutex::default(),
            }),
        }
    }

    /// The process-wide rounds (random key), which sessions use unless told
    /// otherwise.
    pub fn global() -> Self {
        static GLOBAL: OnceLock<Rounds> = OnceLock::new();
        GLOBAL.get_or_init(Rounds::new).clone()
    }

    /// Sets how long a state is accepted after it was issued.
    pub fn with_ttl(self, ttl: Duration) -> Self {
        self.configure(|inner| inner.ttl = ttl)
    }

    /// Sets the clock states are stamped and judged by.
    pub fn with_clock(self, clock: impl Fn() -> SystemTime + Send + Sync + 'static) -> Self {
        self.configure(|inner| inner.clock = Arc::new(clock))
    }

    /// Sets how long one "still waiting" round waits for a URL flow, and
    /// how many such rounds a flow may take.
    pub fn with_url_wait(self, per_round: Duration, rounds: u32) -> Self {
        self.configure(|inner| {
            inner.url_round_wait = per_round;
            inner.url_wait_rounds = rounds;
        })
    }

    /// Sets how many unexpired consumed states are remembered.
    pub fn with_replay_capacity(self, capacity: usize) -> Self {
        self.configure(|inner| inner.capacity = capacity)
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

    /// Now, in unix milliseconds, by the configured clock.
    pub(crate) fn now_ms(&self) -> u64 {
        let now = (self.inner.clock)();
        let since = now.duration_since(UNIX_EPOCH).unwrap_or_default();
        u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
    }

    pub(crate) fn codec(&self) -> &RequestStateCodec {
        &self.inner.codec
    }

    /// Marks the state with `nonce` (valid until `expires`) consumed.
    ///
    /// # Errors
    ///
    /// [`StateError::Replayed`] if it was consumed before;
    /// [`StateError::Busy`] if the record is full of unexpired states.
    pub(crate) fn consume(&self, nonce: [u8; 16], expires: u64) -> Result<(), StateError> {
        let now = self.now_ms();
        let mut consumed = lock(&self.inner.consumed);
        if consumed.contains_key(&nonce) {
            return Err(StateError::Replayed);
        }
        if consumed.len() >= self.inner.capacity {
            consumed.retain(|_, until| *until > now);
            if consumed.len() >= self.inner.capacity {
                return Err(StateError::Busy);
            }
        }
        consumed.insert(nonce, expires);
        Ok(())
    }

    pub(crate) fn flows(&self) -> MutexGuard<'_, HashMap<String, Flow>> {
        let now = self.now_ms();
        let mut flows = lock(&self.inner.flows);
        flows.retain(|_, flow| flow.alive_at(now));
        flows
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
