//! Classifying untrusted input: a `file:` URI, an absolute path, or an error
//! ([semantics 1](crate::semantics#1-input-forms) and [semantics 3](crate::semantics#3-raw-paths)).

use std::borrow::Cow;

use crate::error::{Error, ErrorKind, Operation};
use crate::parse::uri;
use crate::sys;

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
/// `invalid_uri`, `not_absolute` or `invalid_path` (too long, or a name
/// too long), as for every operation.
pub fn parse_input(untrusted: &str) -> Result<Cow<'_, str>, Error> {
    absolute_path(untrusted)
        .map_err(|(kind, detail)| Error::new(kind, Operation::Parse, untrusted).with_detail(detail))
}

/// The absolute path an untrusted input names.
///
/// A raw path is taken literally (no decoding, no `..` removal); a `file:`
/// URI goes through the strict parser. Either way the path must pass
/// [`check_form`]. The error carries a short detail.
pub(crate) fn absolute_path(untrusted: &str) -> Result<Cow<'_, str>, (ErrorKind, &'static str)> {
    let path = named_path(untrusted)?;
    check_form(&path).map_err(|detail| (ErrorKind::InvalidPath, detail))?;
    Ok(path)
}

/// Refuses a path for its form, before anything touches the disk: one that
/// the kernel could not take whole (`PATH_MAX` bytes or more, counting the
/// NUL it needs), or one with a component longer than `NAME_MAX` bytes.
/// Every resolution path then gives the same answer (`openat2` would say
/// `ENAMETOOLONG`, a component-by-component walk might not), and a
/// `create_dir_all` is refused before it creates anything.
pub(crate) fn check_form(path: &str) -> Result<(), &'static str> {
    if path.len() >= sys::PATH_MAX {
        return Err("the path is longer than the platform's PATH_MAX");
    }
    // A shorter path cannot hold a longer component.
    if path.len() > sys::NAME_MAX && path.split('/').any(|c| c.len() > sys::NAME_MAX) {
        return Err("a path component is longer than the platform's NAME_MAX");
    }
    Ok(())
}

/// The absolute path an untrusted input names, before its form is checked.
fn named_path(untrusted: &str) -> Result<Cow<'_, str>, (ErrorKind, &'static str)> {
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

    #[test]
    fn form() {
        let name = "n".repeat(sys::NAME_MAX);
        assert!(absolute_path(&format!("/a/{name}/b")).is_ok());
        assert_eq!(kind(&format!("/a/{name}x/b")), ErrorKind::InvalidPath);
        assert_eq!(
            kind(&format!("file:///a/{name}%41")),
            ErrorKind::InvalidPath
        );
        // Dot segments are removed first: the kernel never sees the long name.
        assert!(absolute_path(&format!("file:///a/{name}x/..")).is_ok());
        // PATH_MAX bytes: one more than the kernel takes with its NUL.
        let long = "/a".repeat(sys::PATH_MAX / 2);
        assert_eq!(kind(&long), ErrorKind::InvalidPath);
        assert_eq!(check_form(&long[..sys::PATH_MAX - 1]), Ok(()));
    }
}
