//! Classifying untrusted input: a `file:` URI, an absolute path, or an error
//! (DESIGN.md semantics 1 and 3).

use std::borrow::Cow;

use crate::uri;
use crate::{Error, ErrorKind, Operation};

/// The absolute path an untrusted input names, exactly as every operation
/// reads it: a `file:` URI is parsed strictly (escapes decoded once, dot
/// segments removed as text), a raw absolute path is taken literally. It
/// borrows the input unless something had to be decoded or removed.
///
/// No file system access: this says nothing about roots or symlinks. Useful
/// for logs, and for differential testing of the parser.
///
/// ```
/// use mcp_roots::parse_input;
/// assert_eq!(parse_input("file://localhost/a/%2e%2e/b%20c").unwrap(), "/b c");
/// assert_eq!(parse_input("/a/../b").unwrap(), "/a/../b");
/// assert_eq!(parse_input("a/b").unwrap_err().reason(), "not_absolute");
/// assert_eq!(parse_input("file:///a%2Fb").unwrap_err().reason(), "invalid_uri");
/// ```
///
/// # Errors
///
/// `invalid_uri` or `not_absolute`, as for every operation.
pub fn parse_input(untrusted: &str) -> Result<Cow<'_, str>, Error> {
    absolute_path(untrusted)
        .map_err(|(kind, detail)| Error::new(kind, Operation::Parse, untrusted).with_detail(detail))
}

/// The absolute path an untrusted input names.
///
/// A raw path is taken literally (no decoding, no `..` removal); a `file:`
/// URI goes through the strict parser. The error carries a short detail.
pub(crate) fn absolute_path(untrusted: &str) -> Result<Cow<'_, str>, (ErrorKind, &'static str)> {
    if untrusted.starts_with('/') {
        if untrusted.as_bytes().contains(&0) {
            return Err((ErrorKind::InvalidUri, "NUL byte in path"));
        }
        return Ok(Cow::Borrowed(untrusted));
    }
    // The common case first: `file:` in any case.
    if untrusted
        .get(..5)
        .is_some_and(|s| s.eq_ignore_ascii_case("file:"))
    {
        return uri::file_uri_path(untrusted).map_err(|detail| (ErrorKind::InvalidUri, detail));
    }
    match scheme(untrusted) {
        Some(s) if s.len() == 1 => Err((ErrorKind::NotAbsolute, "drive path")),
        Some(s) if s.eq_ignore_ascii_case("file") => {
            uri::file_uri_path(untrusted).map_err(|detail| (ErrorKind::InvalidUri, detail))
        }
        Some(_) => Err((ErrorKind::InvalidUri, "scheme is not file")),
        None if untrusted.is_empty() => Err((ErrorKind::NotAbsolute, "empty input")),
        None => Err((ErrorKind::NotAbsolute, "relative path")),
    }
}

/// The scheme of `s` if it starts with one (RFC 3986 3.1).
fn scheme(s: &str) -> Option<&str> {
    let colon = s.find(':')?;
    let candidate = &s[..colon];
    let mut bytes = candidate.bytes();
    let first_is_alpha = bytes.next()?.is_ascii_alphabetic();
    let rest_ok = bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    (first_is_alpha && rest_ok).then_some(candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(s: &str) -> ErrorKind {
        absolute_path(s).expect_err(s).0
    }

    #[test]
    fn forms() {
        assert_eq!(absolute_path("/a/%2e%2e/b").unwrap(), "/a/%2e%2e/b");
        assert_eq!(absolute_path("File:///a/%2e%2e/b").unwrap(), "/b");
        assert_eq!(kind(""), ErrorKind::NotAbsolute);
        assert_eq!(kind("a/b"), ErrorKind::NotAbsolute);
        assert_eq!(kind("~/b"), ErrorKind::NotAbsolute);
        assert_eq!(kind(" file:///a"), ErrorKind::NotAbsolute);
        assert_eq!(kind("C:\\Windows"), ErrorKind::NotAbsolute);
        assert_eq!(kind("\\\\server\\share"), ErrorKind::NotAbsolute);
        assert_eq!(kind("untitled:Untitled-1"), ErrorKind::InvalidUri);
        assert_eq!(kind("file+ssh://localhost/a"), ErrorKind::InvalidUri);
        assert_eq!(kind("/a/x\0y"), ErrorKind::InvalidUri);
    }
}
