//! The page's one-time token: 16 bytes from the operating system's random
//! source (`getrandom`), shown as 32 lowercase hex digits, compared in time
//! that does not depend on where a guess first differs.

use std::fmt::Write as _;
use std::io;

/// The number of random bytes in a token.
const BYTES: usize = 16;

/// A secret that only the URL sent to the client carries.
#[derive(Clone)]
pub(crate) struct Token {
    hex: String,
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(<redacted>)")
    }
}

impl Token {
    /// A fresh token.
    ///
    /// # Errors
    ///
    /// The operating system's random source failed.
    pub(crate) fn new() -> io::Result<Self> {
        Ok(Self {
            hex: random_hex(BYTES)?,
        })
    }

    /// The token as it goes into the URL and the form.
    pub(crate) fn as_str(&self) -> &str {
        &self.hex
    }

    /// Whether `given` is this token, compared without stopping at the
    /// first difference.
    pub(crate) fn matches(&self, given: &str) -> bool {
        let (a, b) = (given.as_bytes(), self.hex.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

/// `bytes` random bytes from the operating system, as lowercase hex.
///
/// # Errors
///
/// The operating system's random source failed.
pub fn random_hex(bytes: usize) -> io::Result<String> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|err| io::Error::other(format!("random bytes: {err}")))?;
    let mut hex = String::with_capacity(2 * bytes);
    for byte in buf {
        // Writing to a String cannot fail.
        let _ = write!(hex, "{byte:02x}");
    }
    Ok(hex)
}

#[cfg(test)]
mod tests {
    use super::Token;

    #[test]
    fn tokens_are_fresh_hex_and_match_only_themselves() {
        let (a, b) = (Token::new().unwrap(), Token::new().unwrap());
        assert_ne!(a.as_str(), b.as_str());
        assert_eq!(a.as_str().len(), 32);
        assert!(
            a.as_str()
                .bytes()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
        assert!(a.matches(a.as_str()));
        assert!(!a.matches(b.as_str()));
        assert!(!a.matches(&a.as_str()[..31]));
        assert!(!a.matches(""));
        assert_eq!(format!("{a:?}"), "Token(<redacted>)");
    }
}
