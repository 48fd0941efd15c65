//! The Redis store (feature `redis`): one Redis shared by every instance of
//! a deployment, through the `redis` crate's connection manager (it
//! reconnects by itself once Redis is back).
//!
//! Keys, under the deployment's prefix `P`:
//!
//! | key | value | set by | expires |
//! |---|---|---|---|
//! | `P:state:NONCE` | `1` | `SET NX PX`: one round trip per round that consumes a state | with the state |
//! | `P:flow:ID` | `open` | `SET NX PX` when the URL goes out | with the flow |
//! | `P:flow:ID:end` | the end, JSON | `SET NX PX` (first end wins) | with the flow |
//!
//! A waiting round reads a flow with one `MGET` of its two keys.

use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::{Consumed, FlowEnd, FlowStatus, StoreError};

/// How long one command may take before the round is refused.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(2);
/// How long a (re)connection may take.
const CONNECTION_TIMEOUT: Duration = Duration::from_secs(2);

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

    fn state_key(&self, nonce: &[u8; 16]) -> String {
        format!("{}:state:{}", self.prefix, crate::rounds::hex(nonce))
    }

    fn flow_key(&self, id: &str) -> String {
        format!("{}:flow:{id}", self.prefix)
    }

    fn end_key(&self, id: &str) -> String {
        format!("{}:flow:{id}:end", self.prefix)
    }

    pub(super) async fn consume(
        &self,
        nonce: &[u8; 16],
        expires: u64,
        now: u64,
    ) -> Result<Consumed, StoreError> {
        let ttl = expires.saturating_sub(now).max(1);
        let set = set_nx(&self.connection, &self.state_key(nonce), "1", ttl).await?;
        Ok(if set { Consumed::Now } else { Consumed::Before })
    }

    pub(super) async fn create_flow(
        &self,
        id: &str,
        expires: u64,
        now: u64,
    ) -> Result<(), StoreError> {
        let ttl = expires.saturating_sub(now).max(1);
        set_nx(&self.connection, &self.flow_key(id), "open", ttl).await?;
        Ok(())
    }

    pub(super) async fn end_flow(&self, id: &str, end: &FlowEnd) -> Result<bool, StoreError> {
        let mut connection = self.connection.clone();
        let left: i64 = redis::cmd("PTTL")
            .arg(self.flow_key(id))
            .query_async(&mut connection)
            .await
            .map_err(unreachable)?;
        // -2: no such flow; -1 cannot happen (flows are set with PX).
        let Ok(left @ 1..) = u64::try_from(left) else {
            return Ok(false);
        };
        let value = serde_json::to_string(end).map_err(StoreError::new)?;
        set_nx(&self.connection, &self.end_key(id), &value, left).await
    }

    pub(super) async fn flow(&self, id: &str) -> Result<FlowStatus, StoreError> {
        let mut connection = self.connection.clone();
        let (open, end): (Option<String>, Option<String>) = redis::cmd("MGET")
            .arg(self.flow_key(id))
            .arg(self.end_key(id))
            .query_async(&mut connection)
            .await
            .map_err(unreachable)?;
        match (open, end) {
            (None, _) => Ok(FlowStatus::Unknown),
            (Some(_), None) => Ok(FlowStatus::Open),
            (Some(_), Some(end)) => serde_json::from_str(&end)
                .map(FlowStatus::Ended)
                .map_err(|err| StoreError::new(format_args!("a flow's end is not JSON: {err}"))),
        }
    }

    pub(super) async fn remove_flow(&self, id: &str) -> Result<(), StoreError> {
        let mut connection = self.connection.clone();
        let _: i64 = redis::cmd("DEL")
            .arg(self.flow_key(id))
            .arg(self.end_key(id))
            .query_async(&mut connection)
            .await
            .map_err(unreachable)?;
        Ok(())
    }
}

/// `SET key value NX PX ttl_ms`: whether it was set.
async fn set_nx(
    connection: &ConnectionManager,
    key: &str,
    value: &str,
    ttl_ms: u64,
) -> Result<bool, StoreError> {
    let mut connection = connection.clone();
    let answer: Option<String> = redis::cmd("SET")
        .arg(key)
        .arg(value)
        .arg("NX")
        .arg("PX")
        .arg(ttl_ms)
        .query_async(&mut connection)
        .await
        .map_err(unreachable)?;
    Ok(answer.is_some())
}

fn unreachable(err: redis::RedisError) -> StoreError {
    StoreError::new(format_args!("Redis did not answer: {err}"))
}
