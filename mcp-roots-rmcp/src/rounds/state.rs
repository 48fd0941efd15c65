//! The sealed `requestState`: a call's [`Progress`] between rounds, bound to
//! the call, with an expiry and a nonce for the replay record.

use std::fmt;

use rmcp::model::SealOptions;
use rmcp::model::{CallToolResult, ContentBlock};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::Rounds;
use super::store::Consumed;
use crate::call::tool_call::ToolCall;

/// Longest `requestState` opened at all (a larger one is refused before
/// decoding).
const MAX_STATE_LEN: usize = 256 * 1024;
/// Mixed into the associated data, so that no other use of the key can
/// produce a valid state.
const DOMAIN: &[u8] = b"mcp-roots-rmcp/rounds/v1\0";

/// Where a tool call stands between two rounds.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Progress {
    /// The answers to the questions asked so far, in the order asked.
    pub(crate) answers: Vec<Recorded>,
    /// The question the last round asked (its index is `answers.len()`).
    pub(crate) pending: Option<Pending>,
    /// Whether the last round asked for the roots.
    pub(crate) roots_asked: bool,
}

/// One answered question, bound to what was asked.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Recorded {
    /// A form: the digest of the form as sent, and the client's
    /// `ElicitResult`.
    Form { asked: String, answer: Value },
    /// A URL flow: the digest of the question, the flow's id, and whether
    /// the user accepted (an accepted flow's result is in the flows).
    Url {
        asked: String,
        flow: String,
        accepted: Option<bool>,
    },
}

/// The question a round asked.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Pending {
    /// A form, under its key.
    Form { asked: String },
    /// A URL: the user's consent is asked for.
    Url { asked: String, flow: String },
    /// A URL the user accepted; the flow has not finished (`rounds`
    /// "still waiting" rounds so far).
    Waiting {
        asked: String,
        flow: String,
        rounds: u32,
    },
}

#[derive(Serialize, Deserialize)]
struct Envelope {
    nonce: String,
    expires: u64,
    progress: Progress,
}

/// Why a `requestState` was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StateError {
    /// Not sealed by this process, altered, or sealed for another call.
    Foreign,
    /// Sealed for this call, but its time ran out.
    Expired,
    /// Already used once.
    Replayed,
    /// The record of used states is full.
    Busy,
    /// The store could not record that it was used (unreachable), so it
    /// is not accepted.
    Unrecorded,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Foreign => {
                "The requestState does not belong to this call (it was altered, or sealed \
                 for another tool, other arguments or another server)"
            }
            Self::Expired => "The requestState has expired",
            Self::Replayed => "The requestState was already used",
            Self::Busy => "The server is holding too many unfinished calls",
            Self::Unrecorded => {
                "The server could not record that the requestState was used (its state store \
                 is unreachable), so it was not accepted"
            }
        })
    }
}

impl StateError {
    pub(crate) fn reason(self) -> &'static str {
        match self {
            Self::Busy => "busy",
            Self::Unrecorded => "state_store_unavailable",
            _ => "invalid_request_state",
        }
    }

    /// The tool result: a sentence the model can act on, and the reason.
    pub(crate) fn to_tool_result(self) -> CallToolResult {
        let text = format!(
            "{self}; nothing was changed. Call the tool again without requestState to start over."
        );
        let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
        result.structured_content = Some(json!({ "reason": self.reason() }));
        result
    }
}

impl Rounds {
    /// Seals `progress` for `call`, valid for the configured TTL.
    pub(crate) fn seal(&self, call: &ToolCall, progress: Progress) -> String {
        self.seal_bound(&call.digest(), progress)
    }

    /// Seals `progress` bound to `digest` (a call's, or a resource read's
    /// URI), valid for the configured TTL.
    pub(crate) fn seal_bound(&self, digest: &[u8; 32], progress: Progress) -> String {
        let mut nonce = [0u8; 16];
        getrandom::fill(&mut nonce).expect("the operating system's random source");
        let ttl_ms = u64::try_from(self.ttl().as_millis()).unwrap_or(u64::MAX);
        let envelope = Envelope {
            nonce: hex(&nonce),
            expires: self.now_ms().saturating_add(ttl_ms),
            progress,
        };
        let payload = serde_json::to_vec(&envelope).expect("the progress is plain data");
        let bound = associated_data(digest);
        let options = SealOptions::new().associated_data(&bound);
        self.codec().seal_with(&payload, &options)
    }

    /// Opens the state `call` carries (`None`: the first round, which
    /// needs no store), and records it consumed in the store: one atomic
    /// set-if-absent, kept for the state's whole lifetime plus the clock
    /// skew the deployment tolerates ([`Rounds::record_ms`]), whatever
    /// this instance's clock says.
    ///
    /// # Errors
    ///
    /// See [`StateError`]: a state the store cannot record is refused.
    pub(crate) async fn open(&self, call: &ToolCall) -> Result<Option<Progress>, StateError> {
        self.open_bound(call.state.as_deref(), &call.digest()).await
    }

    /// Opens `state` (`None`: a first round) as sealed for `digest`, and
    /// records it consumed, as [`open`](Self::open) does for a call.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open).
    pub(crate) async fn open_bound(
        &self,
        state: Option<&str>,
        digest: &[u8; 32],
    ) -> Result<Option<Progress>, StateError> {
        let Some(sealed) = state else {
            return Ok(None);
        };
        if sealed.len() > MAX_STATE_LEN {
            return Err(StateError::Foreign);
        }
        let payload = self
            .codec()
            .open_with(sealed, &associated_data(digest))
            .map_err(|_| StateError::Foreign)?;
        let envelope: Envelope =
            serde_json::from_slice(&payload).map_err(|_| StateError::Foreign)?;
        let nonce = unhex(&envelope.nonce).ok_or(StateError::Foreign)?;
        self.accept(&nonce, envelope.expires).await?;
        Ok(Some(envelope.progress))
    }

    /// Accepts the state `nonce`, expiring at `expires`, once: refused if
    /// this instance's clock has reached `expires`, else recorded consumed
    /// in the store for [`record_ms`](Self::record_ms).
    pub(crate) async fn accept(&self, nonce: &[u8; 16], expires: u64) -> Result<(), StateError> {
        let now = self.now_ms();
        if now >= expires {
            return Err(StateError::Expired);
        }
        let keep = self.record_ms(expires, now);
        match self.store().consume(nonce, expires, now, keep).await {
            Ok(Consumed::Now) => Ok(()),
            Ok(Consumed::Before) => Err(StateError::Replayed),
            Ok(Consumed::Full) => Err(StateError::Busy),
            Err(err) => {
                tracing::error!(error = %err, "a requestState could not be recorded as used");
                Err(StateError::Unrecorded)
            }
        }
    }

    /// How long (ms) the record of a state expiring at `expires` is kept
    /// when it is consumed at `now` (this instance's clock): the state's
    /// whole lifetime (the TTL, or what is left of it by this clock if
    /// that is longer) plus the tolerated clock skew. It does not shrink
    /// when this instance's clock runs ahead.
    pub(crate) fn record_ms(&self, expires: u64, now: u64) -> u64 {
        let ms = |d: std::time::Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let lifetime = ms(self.ttl()).max(expires.saturating_sub(now));
        lifetime.saturating_add(ms(self.max_clock_skew())).max(1)
    }

    /// A bare state as this instance would seal it now: a fresh nonce and
    /// its expiry (tests of several instances).
    #[cfg(test)]
    pub(crate) fn stamp(&self) -> ([u8; 16], u64) {
        let mut nonce = [0u8; 16];
        getrandom::fill(&mut nonce).expect("the operating system's random source");
        let ttl_ms = u64::try_from(self.ttl().as_millis()).unwrap_or(u64::MAX);
        (nonce, self.now_ms().saturating_add(ttl_ms))
    }
}

fn associated_data(digest: &[u8; 32]) -> Vec<u8> {
    let mut bound = DOMAIN.to_vec();
    bound.extend_from_slice(digest);
    bound
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<[u8; 16]> {
    if text.len() != 32 || !text.is_ascii() {
        return None;
    }
    let mut out = [0u8; 16];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_refuses_garbage() {
        let bytes = [
            0u8, 1, 0xab, 0xff, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
        ];
        assert_eq!(unhex(&hex(&bytes)), Some(bytes));
        assert_eq!(unhex("zz"), None);
        assert_eq!(unhex(&"g".repeat(32)), None);
        assert_eq!(unhex(&"é".repeat(16)), None);
    }
}
