//! The Redis store (feature `redis`): one Redis shared by every instance of
//! a deployment, through the `redis` crate's connection manager (it
//! reconnects by itself once Redis is back).
//!
//! Keys, under the deployment's prefix `P`:
//!
//! | key | value | set by | expires |
//! |---|---|---|---|
//! | `P:state:NONCE` | a random token of this consumption | `SET NX PX … GET`: one round trip per round that consumes a state | after the state's lifetime plus the tolerated clock skew, counted by Redis |
//! | `P:flow:ID` | `open` | `SET NX PX` when the URL goes out | with the flow |
//! | `P:flow:ID:end` | the end, JSON | `SET NX PX … GET` (first end wins) | with the flow |
//!
//! A waiting round reads a flow with one `MGET` of its two keys.
//!
//! **One retry.** A command that fails for want of Redis (the connection
//! dropped, as after a Redis restart, or no answer within
//! [`RESPONSE_TIMEOUT`]) is sent once more, on the connection the manager
//! has made again, within [`BUDGET`] from the first send; what fails then
//! is refused. A write may have been applied although its answer never
//! came (a Redis slower than the timeout applies it when it wakes), so the
//! retry of a set-if-absent asks for the value already there (`GET`): a
//! consumption writes a random token of its own, and finding its own token
//! means it was recorded by the first try (the state is this round's), not
//! consumed before. A flow's end compares its whole value the same way.
//!
//! **Checked at start only.** `Store::redis` refuses a Redis whose
//! `maxmemory-policy` is not `noeviction` when it connects; a policy
//! changed afterwards (`CONFIG SET`, a restart with another configuration)
//! is not seen until the instance restarts. `SET … NX GET` needs Redis 7.0
//! or later, also checked at start.

use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::{Consumed, FlowEnd, FlowStatus, StoreError};

/// How long one command may take before it is sent again (once) or the
/// round refused.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(2);
/// How long a (re)connection may take.
const CONNECTION_TIMEOUT: Duration = Duration::from_secs(2);
/// How long one store operation may take, its retry included: past it the
/// round is refused.
const BUDGET: Duration = Duration::from_secs(5);

#[derive(Clone)]
pub(super) struct Redis {
    connection: ConnectionManager,
    prefix: String,
}

impl Redis {
    pub(super) async fn connect(url: &str, prefix: &str) -> Result<Self, StoreError> {
        let client = redis::Client::open(url)
            .map_err(|err| StoreError::new(format_args!("{url:?} is not a Redis URL: {err}")))?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(CONNECTION_TIMEOUT))
            .set_response_timeout(Some(RESPONSE_TIMEOUT))
            .set_number_of_retries(2)
            .set_max_delay(Duration::from_millis(500));
        let connection = ConnectionManager::new_with_config(client, config)
            .await
            .map_err(|err| StoreError::new(format_args!("cannot reach Redis at {url}: {err}")))?;
        let redis = Self {
            connection,
            prefix: prefix.to_owned(),
        };
        redis.check_eviction().await?;
        redis.check_set_get().await?;
        Ok(redis)
    }

    pub(super) fn prefix(&self) -> &str {
        &self.prefix
    }

    /// Refuses a Redis that may evict keys: an evicted consumption record
    /// would let its state be accepted again.
    async fn check_eviction(&self) -> Result<(), StoreError> {
        let mut connection = self.connection.clone();
        let answer: Vec<String> = redis::cmd("CONFIG")
            .arg("GET")
            .arg("maxmemory-policy")
            .query_async(&mut connection)
            .await
            .map_err(|err| {
                StoreError::new(format_args!(
                    "cannot read Redis's maxmemory-policy (CONFIG GET): {err}"
                ))
            })?;
        match answer.get(1).map(String::as_str) {
            Some("noeviction") => Ok(()),
            Some(policy) => Err(StoreError::new(format_args!(
                "Redis's maxmemory-policy is {policy:?}: it may evict the records of consumed \
                 states, which would let a state be used twice; set it to \"noeviction\""
            ))),
            None => Err(StoreError::new(
                "Redis did not say its maxmemory-policy (CONFIG GET answered nothing)",
            )),
        }
    }

    /// Refuses a Redis that does not take `SET … NX GET` (before 7.0): one
    /// such `SET` of a key of its own, removed at once.
    async fn check_set_get(&self) -> Result<(), StoreError> {
        let mut probe = [0u8; 8];
        getrandom::fill(&mut probe).map_err(StoreError::new)?;
        let key = format!("{}:probe:{}", self.prefix, crate::rounds::hex(&probe));
        set_nx_get(&self.connection, &key, "probe", 1000)
            .await
            .map_err(|err| {
                StoreError::new(format_args!(
                    "Redis refused SET with NX and GET (Redis 7.0 or later is needed): {err}"
                ))
            })?;
        let mut connection = self.connection.clone();
        let _: i64 = redis::cmd("DEL")
            .arg(&key)
            .query_async(&mut connection)
            .await
            .map_err(unreachable)?;
        Ok(())
    }

    fn state_key(&self, nonce: &[u8; 16]) -> String {
        format!("{}:state:{}", self.prefix, crate::rounds::hex(nonce))
    }

    fn flow_key(&self, id: &str) -> String {
        format!("{}:flow:{id}", self.prefix)
    }

    fn end_key(&self, id: &str) -> String {
        format!("{}:flow:{id}:end", self.prefix)
    }

    /// Records the state `nonce` consumed, kept `keep_ms` by Redis's clock.
    pub(super) async fn consume(
        &self,
        nonce: &[u8; 16],
        keep_ms: u64,
    ) -> Result<Consumed, StoreError> {
        let mut token = [0u8; 16];
        getrandom::fill(&mut token).map_err(StoreError::new)?;
        let token = crate::rounds::hex(&token);
        let key = self.state_key(nonce);
        let ours = retried(|| set_nx_get(&self.connection, &key, &token, keep_ms.max(1))).await?;
        Ok(if ours {
            Consumed::Now
        } else {
            Consumed::Before
        })
    }

    pub(super) async fn create_flow(
        &self,
        id: &str,
        expires: u64,
        now: u64,
    ) -> Result<(), StoreError> {
        let ttl = expires.saturating_sub(now).max(1);
        let key = self.flow_key(id);
        retried(|| set_nx_get(&self.connection, &key, "open", ttl)).await?;
        Ok(())
    }

    pub(super) async fn end_flow(&self, id: &str, end: &FlowEnd) -> Result<bool, StoreError> {
        let flow = self.flow_key(id);
        let left: i64 = retried(|| async {
            let mut connection = self.connection.clone();
            redis::cmd("PTTL")
                .arg(&flow)
                .query_async(&mut connection)
                .await
        })
        .await?;
        // -2: no such flow; -1 cannot happen (flows are set with PX).
        let Ok(left @ 1..) = u64::try_from(left) else {
            return Ok(false);
        };
        let value = serde_json::to_string(end).map_err(StoreError::new)?;
        let key = self.end_key(id);
        retried(|| set_nx_get(&self.connection, &key, &value, left)).await
    }

    pub(super) async fn flow(&self, id: &str) -> Result<FlowStatus, StoreError> {
        let keys = [self.flow_key(id), self.end_key(id)];
        let (open, end): (Option<String>, Option<String>) = retried(|| async {
            let mut connection = self.connection.clone();
            redis::cmd("MGET")
                .arg(&keys)
                .query_async(&mut connection)
                .await
        })
        .await?;
        match (open, end) {
            (None, _) => Ok(FlowStatus::Unknown),
            (Some(_), None) => Ok(FlowStatus::Open),
            (Some(_), Some(end)) => serde_json::from_str(&end)
                .map(FlowStatus::Ended)
                .map_err(|err| StoreError::new(format_args!("a flow's end is not JSON: {err}"))),
        }
    }

    pub(super) async fn remove_flow(&self, id: &str) -> Result<(), StoreError> {
        let keys = [self.flow_key(id), self.end_key(id)];
        let _: i64 = retried(|| async {
            let mut connection = self.connection.clone();
            redis::cmd("DEL")
                .arg(&keys)
                .query_async(&mut connection)
                .await
        })
        .await?;
        Ok(())
    }
}

/// `SET key value NX PX ttl_ms GET`: whether `key` now holds `value`
/// because of this call or of an earlier try of it (it was absent, or
/// already held exactly `value`); `false`: it held something else.
async fn set_nx_get(
    connection: &ConnectionManager,
    key: &str,
    value: &str,
    ttl_ms: u64,
) -> Result<bool, redis::RedisError> {
    let mut connection = connection.clone();
    let before: Option<String> = redis::cmd("SET")
        .arg(key)
        .arg(value)
        .arg("NX")
        .arg("PX")
        .arg(ttl_ms)
        .arg("GET")
        .query_async(&mut connection)
        .await?;
    Ok(before.is_none_or(|before| before == value))
}

/// Runs `command`, and once more if it failed for want of Redis (see the
/// module docs), all within [`BUDGET`].
async fn retried<T, F, Fut>(mut command: F) -> Result<T, StoreError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, redis::RedisError>>,
{
    let deadline = tokio::time::Instant::now() + BUDGET;
    let first = match tokio::time::timeout_at(deadline, command()).await {
        Ok(Ok(done)) => return Ok(done),
        Ok(Err(err)) if !transient(&err) => return Err(unreachable(err)),
        Ok(Err(err)) => err,
        Err(_) => return Err(StoreError::new("Redis did not answer in time")),
    };
    tracing::warn!(error = %first, "a Redis command failed; sending it again");
    match tokio::time::timeout_at(deadline, command()).await {
        Ok(done) => done.map_err(unreachable),
        Err(_) => Err(StoreError::new(format_args!(
            "Redis did not answer in time (first try: {first})"
        ))),
    }
}

/// Whether `err` is Redis missing (a dropped or refused connection, no
/// answer in time), not an answer.
fn transient(err: &redis::RedisError) -> bool {
    err.is_io_error()
        || err.is_timeout()
        || err.is_connection_dropped()
        || err.is_connection_refusal()
}

fn unreachable(err: redis::RedisError) -> StoreError {
    StoreError::new(format_args!("Redis did not answer: {err}"))
}
