//! What the instances of one deployment share on 2026-07-28: the
//! [`Rounds`] built from `--state`, `--state-key-file` (or the
//! `MCP_ROOTS_STATE_KEYS` environment variable) and `--url-wait`, once per
//! process, before the server listens.
//!
//! - Keys: every instance must seal and open with the same ring, or a
//!   retry landing on another instance is refused (`invalid_request_state`).
//!   Without a file or the variable, a random key of this process (one
//!   instance).
//! - Store: `redis://HOST:PORT` for the consumed states and the setup
//!   flows of every instance; the server refuses to start if Redis does not
//!   answer or may evict them. Without it, this process's memory.
//!
//! What is *not* shared: sessions of the 2025 revisions (the instance that
//! holds a session serves it: a load balancer routes by `Mcp-Session-Id`),
//! and the preferences a setup sets (each instance applies the template
//! when it serves the setup call's last round or the page's submission).

use std::path::Path;
use std::time::Duration;

use mcp_roots_rmcp::{DEFAULT_URL_WAIT_ROUNDS, KeyRing, Rounds, Store};

/// The key prefix of the notes server's records in a shared Redis.
pub const REDIS_PREFIX: &str = "notes-server";

/// The rounds this process serves 2026-07-28 calls with.
///
/// # Errors
///
/// A sentence for the operator: the key file or variable cannot be read,
/// or Redis cannot be used.
pub async fn rounds(
    state: Option<&str>,
    key_file: Option<&Path>,
    url_wait: Option<Duration>,
) -> Result<Rounds, String> {
    let ring = match key_file {
        Some(path) => Some(KeyRing::from_file(path).map_err(|e| e.to_string())?),
        None => KeyRing::from_env().map_err(|e| e.to_string())?,
    };
    let mut rounds = match &ring {
        Some(ring) => {
            tracing::info!(sealing_key = %ring.sealing_key_id(), "request states use the key ring");
            Rounds::with_key_ring(ring)
        }
        None => Rounds::new(),
    };
    if let Some(wait) = url_wait {
        rounds = rounds.with_url_wait(wait, DEFAULT_URL_WAIT_ROUNDS);
    }
    if let Some(url) = state {
        let store = Store::redis(url, REDIS_PREFIX)
            .await
            .map_err(|e| e.to_string())?;
        if ring.is_none() {
            tracing::warn!(
                "--state is shared but the key is this process's own: other instances will refuse its states; give every instance the same --state-key-file"
            );
        }
        tracing::info!(%url, "consumed states and setup flows are kept in Redis");
        rounds = rounds.with_store(store);
    }
    Ok(rounds)
}
