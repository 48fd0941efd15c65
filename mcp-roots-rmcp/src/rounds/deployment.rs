//! [`Deployment`]: what the instances of one server deployment share on
//! 2026-07-28, as an operator gives it on the command line — the key ring
//! (`--state-key-file`, else [`STATE_KEYS_ENV`](super::STATE_KEYS_ENV))
//! and the store (`--state redis://HOST:PORT`) — and the [`Rounds`] built
//! from it, once per process.
//!
//! - Keys: every instance must seal and open request states with the same
//!   ring, or a retry landing on another instance is refused
//!   (`invalid_request_state`). Without a file or the variable, a random
//!   key of this process (one instance). [`Deployment::read`] reads them
//!   at once, so that a server reads them before it confines itself (the
//!   file need not be inside its directories).
//! - Store: a Redis keeps the consumed states and the URL flows of every
//!   instance; [`Deployment::rounds`] refuses if Redis does not answer or
//!   may evict them. Without it, this process's memory.

use std::fmt;
use std::path::Path;

use super::{KeyRing, Rounds};

/// The `--state` and `--state-key-file` values of one process, read (see
/// the module docs). Build it with [`read`](Self::read) before the process
/// confines itself, then [`rounds`](Self::rounds) inside the runtime.
#[derive(Debug)]
pub struct Deployment {
    ring: Option<KeyRing>,
    state: Option<String>,
}

impl Deployment {
    /// Reads the key ring of `key_file` (else of
    /// [`STATE_KEYS_ENV`](super::STATE_KEYS_ENV), else none) and keeps the
    /// store's URL `state` (checked by [`state_url`](Self::state_url)).
    ///
    /// # Errors
    ///
    /// The key file or the variable cannot be read or parsed (the message
    /// names `--state-key-file` or the variable), or `state` is not a
    /// Redis URL.
    pub fn read(state: Option<&str>, key_file: Option<&Path>) -> Result<Self, DeploymentError> {
        let ring = match key_file {
            Some(path) => Some(
                KeyRing::from_file(path)
                    .map_err(|e| DeploymentError::new(format!("--state-key-file: {e}")))?,
            ),
            None => KeyRing::from_env().map_err(|e| DeploymentError::new(e.to_string()))?,
        };
        let state = state.map(Self::state_url).transpose()?;
        Ok(Self { ring, state })
    }

    /// The rounds this process serves 2026-07-28 calls with: sealed with
    /// the key ring (or a key of this process), the consumed states kept
    /// in the Redis of `--state` under `redis_prefix` (or in memory). Logs
    /// which, and warns when the store is shared but the key is not.
    ///
    /// # Errors
    ///
    /// Redis cannot be used (it does not answer, or may evict), or
    /// `--state` was given to a build without the `redis` feature.
    pub async fn rounds(&self, redis_prefix: &str) -> Result<Rounds, DeploymentError> {
        let rounds = match &self.ring {
            Some(ring) => {
                tracing::info!(sealing_key = %ring.sealing_key_id(), "request states use the key ring");
                Rounds::with_key_ring(ring)
            }
            None => Rounds::new(),
        };
        let Some(url) = self.state.as_deref() else {
            return Ok(rounds);
        };
        let store = shared_store(url, redis_prefix).await?;
        if self.ring.is_none() {
            tracing::warn!(
                "--state is shared but the key is this process's own: other instances will refuse its states; give every instance the same --state-key-file"
            );
        }
        tracing::info!(%url, "consumed request states and URL flows are kept in Redis");
        Ok(rounds.with_store(store))
    }

    /// A `--state` value, checked: a `redis://HOST[:PORT][/DB]` URL with a
    /// host (a command-line parser's value parser).
    ///
    /// # Errors
    ///
    /// Another scheme, or no host.
    pub fn state_url(given: &str) -> Result<String, DeploymentError> {
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
            return Err(DeploymentError::new("a redis://HOST:PORT URL"));
        }
        Ok(given.to_owned())
    }
}

#[cfg(feature = "redis")]
async fn shared_store(url: &str, prefix: &str) -> Result<super::Store, DeploymentError> {
    super::Store::redis(url, prefix)
        .await
        .map_err(|e| DeploymentError::new(format!("--state {url}: {e}")))
}

#[cfg(not(feature = "redis"))]
async fn shared_store(url: &str, _prefix: &str) -> Result<super::Store, DeploymentError> {
    Err(DeploymentError::new(format!(
        "--state {url}: this build has no Redis store (the `redis` feature)"
    )))
}

/// Why a [`Deployment`] cannot be read or its rounds built: a sentence
/// for the operator, naming the option.
#[derive(Debug)]
pub struct DeploymentError {
    message: String,
}

impl DeploymentError {
    fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

impl fmt::Display for DeploymentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DeploymentError {}

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
            assert_eq!(
                Deployment::state_url(good).ok().as_deref(),
                Some(good),
                "{good}"
            );
        }
        for bad in [
            "http://127.0.0.1:6379",
            "redis://",
            "redis://:6379",
            "redis:///0",
            "127.0.0.1:6379",
            "rediss://host",
            "memory",
        ] {
            let err = Deployment::state_url(bad).unwrap_err();
            assert!(err.to_string().contains("redis://HOST:PORT"), "{bad}");
        }
    }

    #[test]
    fn a_key_file_that_cannot_be_read_names_the_option() {
        let missing = Path::new("/nonexistent/mcp-roots-keys");
        let err = Deployment::read(None, Some(missing)).unwrap_err();
        assert!(err.to_string().starts_with("--state-key-file: "), "{err}");
    }
}
