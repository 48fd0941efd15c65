//! What the instances of one deployment share on 2026-07-28: the
//! [`Rounds`] built from `--state-key-file` (or the `MCP_ROOTS_STATE_KEYS`
//! environment variable) and `--state`, once per process.
//!
//! - Keys: every instance must seal and open request states with the same
//!   ring, or a retry landing on another instance is refused
//!   (`invalid_request_state`). Without a file or the variable, a random
//!   key of this process (one instance). The keys are read before the
//!   process is confined (the file need not be inside the directories).
//! - Store: `redis://HOST:PORT` keeps the consumed states of every
//!   instance; the server refuses to start if Redis does not answer or may
//!   evict them. Without it, this process's memory.

use std::path::Path;

use mcp_roots_rmcp::{KeyRing, Rounds, Store};

/// The key prefix of this server's records in a shared Redis.
const REDIS_PREFIX: &str = "mcp-roots-fs";

/// The key ring of `--state-key-file`, else of `MCP_ROOTS_STATE_KEYS`, else
/// none (a random key of this process).
pub(crate) fn key_ring(file: Option<&Path>) -> Result<Option<KeyRing>, String> {
    match file {
        Some(path) => KeyRing::from_file(path)
            .map(Some)
            .map_err(|e| format!("--state-key-file: {e}")),
        None => KeyRing::from_env().map_err(|e| e.to_string()),
    }
}

/// The rounds this process serves 2026-07-28 calls with: sealed with
/// `ring` (or a key of its own), the consumed states kept in the Redis at
/// `state` (or in memory).
pub(crate) async fn rounds(ring: Option<&KeyRing>, state: Option<&str>) -> Result<Rounds, String> {
    let mut rounds = match ring {
        Some(ring) => {
            tracing::info!(sealing_key = %ring.sealing_key_id(), "request states use the key ring");
            Rounds::with_key_ring(ring)
        }
        None => Rounds::new(),
    };
    if let Some(url) = state {
        let store = Store::redis(url, REDIS_PREFIX)
            .await
            .map_err(|e| format!("--state {url}: {e}"))?;
        if ring.is_none() {
            tracing::warn!(
                "--state is shared but the key is this process's own: other instances will refuse its states; give every instance the same --state-key-file"
            );
        }
        tracing::info!(%url, "consumed request states are kept in Redis");
        rounds = rounds.with_store(store);
    }
    Ok(rounds)
}

/// A `--state` value: a `redis://HOST[:PORT][/DB]` URL.
pub(crate) fn state_url(given: &str) -> Result<String, String> {
    let host = given
        .strip_prefix("redis://")
        .map(|rest| rest.split(['/', '?']).next().unwrap_or(""))
        .map(|authority| authority.rsplit('@').next().unwrap_or(""))
        .unwrap_or("");
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    if name.is_empty() {
        return Err("a redis://HOST:PORT URL".to_owned());
    }
    Ok(given.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_urls_are_redis_urls_with_a_host() {
        for good in [
            "redis://127.0.0.1:6379",
            "redis://localhost",
            "redis://[::1]:6379/2",
            "redis://user:pw@cache:6379",
        ] {
            assert_eq!(state_url(good).as_deref(), Ok(good), "{good}");
        }
        for bad in [
            "http://127.0.0.1:6379",
            "redis://",
            "redis://:6379",
            "redis:///0",
            "127.0.0.1:6379",
            "rediss://host",
        ] {
            assert!(state_url(bad).is_err(), "{bad}");
        }
    }
}
