//! [`KeyRing`]: the keys that seal and open `requestState`s, for a
//! deployment whose instances must open each other's states and rotate
//! their key without a restart in step.
//!
//! # The key file
//!
//! Plain text, one entry per line (or per `;` in the environment variable
//! [`STATE_KEYS_ENV`]); `#` starts a comment; blank lines are ignored:
//!
//! ```text
//! # the key new states are sealed with (exactly one)
//! seal = 4f1c…e9   # at least 64 hex digits (32 bytes)
//! # further keys whose states are still accepted (any number)
//! accept = 9ab0…17
//! ```
//!
//! Every key is also accepted; a key's id in the sealed state is derived
//! from the key itself (`k` and 16 hex digits of its SHA-256), so that every
//! instance names it alike without saying so. States sealed by
//! [`Rounds::with_key`](crate::Rounds::with_key) (rmcp's single-key format)
//! with any listed key are accepted too, so a deployment moves to a ring
//! without dropping calls.
//!
//! # Rolling rotation
//!
//! 1. Every instance, one by one: `seal = OLD`, `accept = NEW` (all of them
//!    accept states sealed with the new key before any seals with it).
//! 2. Every instance, one by one: `seal = NEW`, `accept = OLD` (states in
//!    flight, sealed with the old key, still open).
//! 3. Once a state's TTL has passed since the last instance took step 2:
//!    `seal = NEW` alone. A state sealed with the old key is then refused
//!    (`invalid_request_state`).
//!
//! Keep the file readable by the server's user only (`chmod 600`): the
//! keys are what makes a state the server's own. They are never taken on
//! the command line (where every user of the machine can read them).

use std::fmt;
use std::path::Path;

use rmcp::model::RequestStateCodec;
use sha2::{Digest, Sha256};

/// The environment variable a server may read its keys from instead of a
/// file (same format, entries separated by newlines or `;`).
pub const STATE_KEYS_ENV: &str = "MCP_ROOTS_STATE_KEYS";

/// The sealing key and the accepted keys of a deployment (see the module
/// docs for the file format and a rolling rotation).
#[derive(Clone)]
pub struct KeyRing {
    seal: Vec<u8>,
    accept: Vec<Vec<u8>>,
}

impl fmt::Debug for KeyRing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Key ids only: never the keys.
        f.debug_struct("KeyRing")
            .field("seal", &key_id(&self.seal))
            .field(
                "accept",
                &self.accept.iter().map(|k| key_id(k)).collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// Why a key ring could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyError {
    message: String,
}

impl KeyError {
    fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for KeyError {}

impl KeyRing {
    /// A ring sealing with `seal` and accepting it and every key of
    /// `accept`.
    ///
    /// # Errors
    ///
    /// A key shorter than 32 bytes.
    pub fn new(seal: &[u8], accept: &[&[u8]]) -> Result<Self, KeyError> {
        for key in std::iter::once(&seal).chain(accept) {
            if key.len() < RequestStateCodec::MIN_KEY_LENGTH {
                return Err(KeyError::new(format!(
                    "a state key has {} bytes; at least {} are needed",
                    key.len(),
                    RequestStateCodec::MIN_KEY_LENGTH
                )));
            }
        }
        let mut ring = Self {
            seal: seal.to_vec(),
            accept: Vec::new(),
        };
        for key in accept {
            if *key != seal && !ring.accept.iter().any(|k| k == key) {
                ring.accept.push(key.to_vec());
            }
        }
        Ok(ring)
    }

    /// Reads a ring in the key file format (see the module docs).
    ///
    /// # Errors
    ///
    /// A line that is not `seal = HEX` or `accept = HEX`, a key that is not
    /// hex or shorter than 32 bytes, no `seal` line or more than one. The
    /// message names the line, never a key.
    pub fn parse(text: &str) -> Result<Self, KeyError> {
        let mut seal = None;
        let mut accept = Vec::new();
        for (n, line) in text.split(['\n', ';']).enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let entry = n + 1;
            let Some((name, value)) = line.split_once('=') else {
                return Err(KeyError::new(format!(
                    "state keys, entry {entry}: expected `seal = HEX` or `accept = HEX`"
                )));
            };
            let key = unhex(value.trim()).ok_or_else(|| {
                KeyError::new(format!(
                    "state keys, entry {entry}: the key is not an even number of hex digits"
                ))
            })?;
            match name.trim() {
                "seal" if seal.is_none() => seal = Some(key),
                "seal" => {
                    return Err(KeyError::new(format!(
                        "state keys, entry {entry}: a second `seal` key (exactly one seals)"
                    )));
                }
                "accept" => accept.push(key),
                other => {
                    return Err(KeyError::new(format!(
                        "state keys, entry {entry}: unknown name {other:?} (expected `seal` or `accept`)"
                    )));
                }
            }
        }
        let seal = seal.ok_or_else(|| KeyError::new("state keys: no `seal = HEX` entry"))?;
        let accept: Vec<&[u8]> = accept.iter().map(Vec::as_slice).collect();
        Self::new(&seal, &accept)
    }

    /// Reads the key file at `path`.
    ///
    /// # Errors
    ///
    /// The file cannot be read, or as [`parse`](Self::parse).
    pub fn from_file(path: &Path) -> Result<Self, KeyError> {
        let text = std::fs::read_to_string(path).map_err(|err| {
            KeyError::new(format!(
                "cannot read the state key file {}: {err}",
                path.display()
            ))
        })?;
        Self::parse(&text).map_err(|err| KeyError::new(format!("{}: {err}", path.display())))
    }

    /// Reads the ring from [`STATE_KEYS_ENV`], if it is set.
    ///
    /// # Errors
    ///
    /// Set but not Unicode, or as [`parse`](Self::parse).
    pub fn from_env() -> Result<Option<Self>, KeyError> {
        match std::env::var(STATE_KEYS_ENV) {
            Ok(text) => Self::parse(&text)
                .map(Some)
                .map_err(|err| KeyError::new(format!("{STATE_KEYS_ENV}: {err}"))),
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(_)) => Err(KeyError::new(format!(
                "{STATE_KEYS_ENV} is not valid Unicode"
            ))),
        }
    }

    /// The id a sealed state names the sealing key by.
    pub fn sealing_key_id(&self) -> String {
        key_id(&self.seal)
    }

    /// rmcp's codec: `rs2` sealed with the sealing key, every key accepted
    /// in `rs2` and in the single-key `rs1`.
    pub(crate) fn codec(&self) -> RequestStateCodec {
        let keys = std::iter::once(&self.seal)
            .chain(&self.accept)
            .map(|key| (key_id(key), key.clone()));
        let mut codec = RequestStateCodec::new_with_keyring(key_id(&self.seal), keys)
            .expect("keys checked when the ring was made");
        for key in std::iter::once(&self.seal).chain(&self.accept) {
            codec = codec
                .with_rs1_fallback(key_id(key))
                .expect("the key is in the ring");
        }
        codec
    }
}

/// `k` and the first 16 hex digits of the key's SHA-256.
fn key_id(key: &[u8]) -> String {
    let digest = Sha256::digest(key);
    format!("k{}", super::hex(&digest[..8]))
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.is_empty() || !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    const B: &str = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";

    #[test]
    fn the_file_format() {
        let ring = KeyRing::parse(&format!(
            "# keys\n\nseal = {A}  # current\naccept={B}\naccept = {A}\n"
        ))
        .unwrap();
        assert_eq!(ring.seal, unhex(A).unwrap());
        assert_eq!(ring.accept, [unhex(B).unwrap()]);
        let env = KeyRing::parse(&format!("seal={B};accept={A}")).unwrap();
        assert_eq!(env.seal, unhex(B).unwrap());
        let debug = format!("{ring:?}");
        assert!(!debug.contains(A) && !debug.contains(&A[..20]), "{debug}");
        assert!(debug.contains(&ring.sealing_key_id()));
    }

    #[test]
    fn bad_files_name_the_entry_and_never_the_key() {
        for (text, says) in [
            (String::new(), "no `seal"),
            (format!("accept = {A}"), "no `seal"),
            (
                format!("seal = {A}\nseal = {B}"),
                "entry 2: a second `seal`",
            ),
            (format!("seal {A}"), "entry 1: expected"),
            (format!("seal = {A}\nsign = {B}"), "entry 2: unknown name"),
            ("seal = 0011zz".to_owned(), "not an even number of hex"),
            ("seal = 001".to_owned(), "not an even number of hex"),
            ("seal = 00112233".to_owned(), "4 bytes; at least 32"),
        ] {
            let err = KeyRing::parse(&text).unwrap_err().to_string();
            assert!(err.contains(says), "{text:?}: {err}");
            assert!(!err.contains(A) && !err.contains(B), "{err}");
        }
    }

    #[test]
    fn ids_are_derived_from_the_key() {
        let a = KeyRing::parse(&format!("seal = {A}")).unwrap();
        let again = KeyRing::parse(&format!("seal = {A}\naccept = {B}")).unwrap();
        let b = KeyRing::parse(&format!("seal = {B}")).unwrap();
        assert_eq!(a.sealing_key_id(), again.sealing_key_id());
        assert_ne!(a.sealing_key_id(), b.sealing_key_id());
        assert_eq!(a.sealing_key_id().len(), 17);
    }

    #[test]
    fn a_rolling_rotation_opens_in_flight_states_and_retires_the_old_key() {
        let (a, b) = (unhex(A).unwrap(), unhex(B).unwrap());
        let old = KeyRing::new(&a, &[]).unwrap().codec();
        let step1 = KeyRing::new(&a, &[&b]).unwrap().codec();
        let step2 = KeyRing::new(&b, &[&a]).unwrap().codec();
        let step3 = KeyRing::new(&b, &[]).unwrap().codec();
        let legacy = RequestStateCodec::try_new(a.clone()).unwrap();
        let sealed_old = old.seal(b"old");
        let sealed_legacy = legacy.seal(b"legacy");
        let sealed_step1 = step1.seal(b"one");
        let sealed_step2 = step2.seal(b"two");
        // Every stage opens what the stage before and after it seals.
        for codec in [&old, &step1, &step2] {
            assert_eq!(codec.open(&sealed_old).unwrap(), b"old");
            assert_eq!(codec.open(&sealed_step1).unwrap(), b"one");
            assert_eq!(codec.open(&sealed_legacy).unwrap(), b"legacy");
        }
        assert_eq!(step1.open(&sealed_step2).unwrap(), b"two");
        assert_eq!(step3.open(&sealed_step2).unwrap(), b"two");
        // The old key retired: its states are refused.
        assert!(step3.open(&sealed_old).is_err());
        assert!(step3.open(&sealed_step1).is_err());
        assert!(step3.open(&sealed_legacy).is_err());
        assert!(old.open(&sealed_step2).is_err(), "not yet accepted");
    }
}
