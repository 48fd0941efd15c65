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

use mcp_roots_rmcp::{DEFAULT_URL_WAIT_ROUNDS, Deployment, Rounds};

/// The key prefix of the notes server's records in a shared Redis.
pub const REDIS_PREFIX: &str = "notes-server";

/// The rounds this process serves 2026-07-28 calls with: the glue's
/// [`Deployment`] of `--state` and `--state-key-file`, with the notes
/// server's own `--url-wait`.
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
    let deployment = Deployment::read(state, key_file).map_err(|e| e.to_string())?;
    let rounds = deployment
        .rounds(REDIS_PREFIX)
        .await
        .map_err(|e| e.to_string())?;
    Ok(match url_wait {
        Some(wait) => rounds.with_url_wait(wait, DEFAULT_URL_WAIT_ROUNDS),
        None => rounds,
    })
}
