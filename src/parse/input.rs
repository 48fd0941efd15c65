//! Classifying untrusted input: a `file:` URI, an absolute path, or an error
//! ([semantics 1](crate::semantics#1-input-forms) and [semantics 3](crate::semantics#3-raw-paths)).

use std::borrow::Cow;

use crate::error::{Error, ErrorKind, Operation};
use crate::parse::lexical::clean_key;
use crate::parse::{uri, windows};
use crate::sys;
use crate::sys::PathStyle;

/// The absolute path an untrusted input names, exactly as every operation
/// reads it: a `file:` URI is parsed strictly (escapes decoded once, dot
/// segments removed as text), a raw absolute path is taken literally. It
/// borrows the input unless something had to be decoded or removed.
///
/// No file system access: this says nothing about roots or symlinks. Useful
/// for logs, and for differential testing of the parser. On Windows the
/// answer is the path's slash form: `C:\a\b` and `file:///c%3A/a/b` are
/// `/C:/a/b`, `\\server\share\x` is `/UNC/server/share/x`
/// ([semantics 12](crate::semantics#12-windows)).
///
/// ```
/// use mcp_roots::parse_input;
/// # #[cfg(unix)] {
/// assert_eq!(parse_input("file://localhost/a/%2e%2e/b%20c").unwrap(), "/b c");
/// assert_eq!(parse_input("/a/../b").unwrap(), "/a/../b");
/// # }
/// assert_eq!(parse_input("a/b").unwrap_err().reason(), "not_absolute");
/// assert_eq!(parse_input("file:///a%2Fb").unwrap_err().reason(), "invalid_uri");
/// ```
///
/// # Errors
///
/// `invalid_uri`, `not_absolute` or `invalid_path` (too long, or a name
/// too long, or on Windows a name Windows would alias), as for every
/// operation.
pub fn parse_input(untrusted: &str) -> Result<Cow<'_, str>, Error> {
    parse_input_as(untrusted, sys::PATH_STYLE)
}

/// [`parse_input`] as a platform whose paths have `style` reads the input
/// (every style is parsed on every platform: for tests and fuzzing).
///
/// ```
/// use mcp_roots::{PathStyle, parse_input_as};
/// let windows = |s| parse_input_as(s, PathStyle::Windows);
/// assert_eq!(windows(r"c:\Users\a/x.md").unwrap(), "/C:/Users/a/x.md");
/// assert_eq!(windows("file:///c%3A/Users/a").unwrap(), "/C:/Users/a");
/// assert_eq!(windows(r"\\srv\share\x").unwrap(), "/UNC/srv/share/x");
/// assert_eq!(windows(r"C:x").unwrap_err().reason(), "not_absolute");
/// assert_eq!(windows(r"C:\a\nul.txt").unwrap_err().reason(), "invalid_path");
/// assert_eq!(windows("file:///C:/a/x.").unwrap_err().reason(), "invalid_uri");
/// ```
///
/// # Errors
///
/// As [`parse_input`].
#[doc(hidden)]
pub fn parse_input_as(untrusted: &str, style: PathStyle) -> Result<Cow<'_, str>, Error> {
    absolute_path_as(untrusted, style)
        .map_err(|(kind, detail)| Error::new(kind, Operation::Parse, untrusted).with_detail(detail))
}

/// The absolute path an untrusted input names, read in this platform's
/// style ([`absolute_path_as`]).
pub(crate) fn absolute_path(untrusted: &str) -> Result<Cow<'_, str>, (ErrorKind, &'static str)> {
    absolute_path_as(untrusted, sys::PATH_STYLE)
}

/// The absolute path an untrusted input names, in `style`.
///
/// A raw path is taken literally (no decoding, no `..` removal; on Windows
/// its separators become `/`); a `file:` URI goes through the strict
/// parser. Either way the path must pass [`check_form_as`]. The error
/// carries a short detail.
pub(crate) fn absolute_path_as(
    untrusted: &str,
    style: PathStyle,
) -> Result<Cow<'_, str>, (ErrorKind, &'static str)> {
    let path = match style {
        PathStyle::Windows => windows_path(untrusted)?,
        _ => named_path(untrusted)?,
    };
    check_form_as(&path, style).map_err(|detail| (ErrorKind::InvalidPath, detail))?;
    Ok(path)
}

/// A path relative to a root, as a root's own operations take it: never
/// absolute (`outside_roots`), its form checked as an input's is.
pub(crate) fn relative_path(rel: &str) -> Result<Cow<'_, str>, (ErrorKind, &'static str)> {
    let rel = match sys::PATH_STYLE {
        PathStyle::Windows => windows::relative_path(rel)?,
        _ if rel.starts_with('/') => {
            return Err((
                ErrorKind::OutsideRoots,
                "a root's own operations take a path relative to it",
            ));
        }
        _ => Cow::Borrowed(rel),
    };
    check_form_as(&rel, sys::PATH_STYLE).map_err(|detail| (ErrorKind::InvalidPath, detail))?;
    Ok(rel)
}

/// Refuses a path for its form, before anything touches the disk: one that
/// the kernel could not take whole (`PATH_MAX` bytes or more, counting the
/// NUL it needs), or one with a component longer than `NAME_MAX` bytes
/// (on Windows: UTF-16 units). Every resolution path then gives the same
/// answer (`openat2` would say `ENAMETOOLONG`, a component-by-component
/// walk might not), and a `create_dir_all` is refused before it creates
/// anything.
pub(crate) fn check_form_as(path: &str, style: PathStyle) -> Result<(), &'static str> {
    if style == PathStyle::Windows {
        return windows::check_form(path);
    }
    if path.len() >= sys::PATH_MAX {
        return Err("the path is longer than the platform's PATH_MAX");
    }
    // A shorter path cannot hold a longer component.
    if path.len() > sys::NAME_MAX && path.split('/').any(|c| c.len() > sys::NAME_MAX) {
        return Err("a path component is longer than the platform's NAME_MAX");
    }
    Ok(())
}

/// The slash form of the physical path `path` the platform reported (a
/// root's, or a descriptor's), cleaned for a lookup; `None` when it is not
/// UTF-8, has a `..`, or is not a path this parser takes.
pub(crate) fn physical_key(path: &std::path::Path) -> Option<String> {
    clean_key(&physical_path(path)?)
}

/// The slash form of the physical path `path` the platform reported, not
/// cleaned (itself, but on Windows); `None` as for [`physical_key`].
pub(crate) fn physical_path(path: &std::path::Path) -> Option<Cow<'_, str>> {
    let path = path.to_str()?;
    match sys::PATH_STYLE {
        PathStyle::Windows => windows::from_native(path).map(Cow::Owned),
        _ => Some(Cow::Borrowed(path)),
    }
}

/// The path the platform takes for a slash form (itself, but on Windows).
pub(crate) fn native(path: &str) -> Cow<'_, str> {
    match sys::PATH_STYLE {
        PathStyle::Windows => Cow::Owned(windows::native(path)),
        _ => Cow::Borrowed(path),
    }
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
    if is_file_uri(untrusted) {
        return uri::file_uri_path(untrusted).map_err(|detail| (ErrorKind::InvalidUri, detail));
    }
    not_a_path(untrusted, |_| Err((ErrorKind::NotAbsolute, "drive path")))
}

/// [`named_path`] for Windows: raw drive and UNC paths, and `file:` URIs
/// whose path starts with a drive or whose host is a server.
fn windows_path(untrusted: &str) -> Result<Cow<'_, str>, (ErrorKind, &'static str)> {
    if untrusted.as_bytes().contains(&0) {
        return Err((ErrorKind::InvalidUri, "NUL byte in path"));
    }
    if windows::is_raw_path(untrusted) {
        return windows::raw_path(untrusted).map(Cow::Owned);
    }
    if is_file_uri(untrusted) {
        let uri = uri::file_uri(untrusted).map_err(|detail| (ErrorKind::InvalidUri, detail))?;
        return windows::uri_path(uri.host, &uri.path).map(Cow::Owned);
    }
    // A one-letter scheme is a drive, which `is_raw_path` took.
    not_a_path(untrusted, |_| {
        Err((ErrorKind::NotAbsolute, "a drive-relative path"))
    })
}

/// Whether `s` starts with the `file:` scheme, in any case.
#[inline]
fn is_file_uri(s: &str) -> bool {
    // One word compare: setting bit 5 lowercases the four letters and maps
    // no other byte onto them; the `:` is compared exactly.
    match s.as_bytes() {
        [a, b, c, d, b':', ..] => {
            u32::from_le_bytes([*a, *b, *c, *d]) | 0x2020_2020 == u32::from_le_bytes(*b"file")
        }
        _ => false,
    }
}

/// Why an input that is neither a raw absolute path nor a `file:` URI is
/// refused; `drive` answers for a one-letter scheme.
fn not_a_path<'a>(
    untrusted: &'a str,
    drive: impl FnOnce(&str) -> Result<Cow<'a, str>, (ErrorKind, &'static str)>,
) -> Result<Cow<'a, str>, (ErrorKind, &'static str)> {
    match scheme(untrusted) {
        Some(s) if s.len() == 1 => drive(s),
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

    #[test]
    fn the_scheme_test_is_eq_ignore_ascii_case() {
        for at in 0..5 {
            for c in (0u8..0x80)
                .map(char::from)
                .chain(['\u{e9}', '\u{130}', '\u{212a}'])
            {
                let mut s: Vec<char> = "file:///a".chars().collect();
                s[at] = c;
                let s: String = s.into_iter().collect();
                let expected = s.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("file:"));
                assert_eq!(is_file_uri(&s), expected, "{s:?}");
            }
        }
        assert!(is_file_uri("FiLe:") && !is_file_uri("file") && !is_file_uri(""));
    }

    fn unix(s: &str) -> Result<Cow<'_, str>, (ErrorKind, &'static str)> {
        absolute_path_as(s, PathStyle::Unix)
    }

    fn kind(s: &str) -> ErrorKind {
        unix(s).expect_err(s).0
    }

    fn windows(s: &str) -> Result<Cow<'_, str>, (ErrorKind, &'static str)> {
        absolute_path_as(s, PathStyle::Windows)
    }

    fn windows_kind(s: &str) -> ErrorKind {
        windows(s).expect_err(s).0
    }

    #[test]
    fn forms() {
        assert_eq!(unix("/a/%2e%2e/b").unwrap(), "/a/%2e%2e/b");
        assert_eq!(unix("File:///a/%2e%2e/b").unwrap(), "/b");
        assert_eq!(kind(""), ErrorKind::NotAbsolute);
        assert_eq!(kind("a/b"), ErrorKind::NotAbsolute);
        assert_eq!(kind("~/b"), ErrorKind::NotAbsolute);
        assert_eq!(kind(" file:///a"), ErrorKind::NotAbsolute);
        assert_eq!(kind("C:\\Windows"), ErrorKind::NotAbsolute);
        assert_eq!(kind("\\\\server\\share"), ErrorKind::NotAbsolute);
        assert_eq!(kind("untitled:Untitled-1"), ErrorKind::InvalidUri);
        assert_eq!(kind("file+ssh://localhost/a"), ErrorKind::InvalidUri);
        assert_eq!(kind("/a/x\0y"), ErrorKind::InvalidUri);
        // A server name is a Windows URI's business.
        assert_eq!(kind("file://server/share/x"), ErrorKind::InvalidUri);
    }

    #[test]
    fn form() {
        let name = "n".repeat(sys::NAME_MAX);
        assert!(unix(&format!("/a/{name}/b")).is_ok());
        assert_eq!(kind(&format!("/a/{name}x/b")), ErrorKind::InvalidPath);
        assert_eq!(
            kind(&format!("file:///a/{name}%41")),
            ErrorKind::InvalidPath
        );
        // Dot segments are removed first: the kernel never sees the long name.
        assert!(unix(&format!("file:///a/{name}x/..")).is_ok());
        // PATH_MAX bytes: one more than the kernel takes with its NUL.
        let long = "/a".repeat(sys::PATH_MAX / 2 + 1);
        assert_eq!(kind(&long), ErrorKind::InvalidPath);
        assert_eq!(
            check_form_as(&long[..sys::PATH_MAX - 1], PathStyle::Unix),
            Ok(())
        );
    }

    #[test]
    fn windows_forms() {
        for (input, slash) in [
            (r"C:\Users\a\x.md", "/C:/Users/a/x.md"),
            ("c:/Users/a/x.md", "/C:/Users/a/x.md"),
            (r"C:\Users/a\x.md", "/C:/Users/a/x.md"),
            (r"C:\Users\a\", "/C:/Users/a/"),
            (r"C:\a\..\b", "/C:/a/../b"),
            ("file:///C:/Users/a/x.md", "/C:/Users/a/x.md"),
            ("file:///c%3A/Users/a/x.md", "/C:/Users/a/x.md"),
            ("file:///c%3a/Users/a/x%20y.md", "/C:/Users/a/x y.md"),
            ("FILE://LocalHost/C:/Users/a", "/C:/Users/a"),
            ("file:/C:/a", "/C:/a"),
            ("file:///C:", "/C:"),
            ("file:///C:/a/%2e%2e/b", "/C:/b"),
            (r"\\server\share\x", "/UNC/server/share/x"),
            ("file://server/share/x", "/UNC/server/share/x"),
        ] {
            assert_eq!(windows(input).unwrap(), slash, "{input}");
        }
    }

    #[test]
    fn windows_refusals() {
        use ErrorKind::*;
        for (input, expected) in [
            (r"C:x", NotAbsolute),
            ("C:", NotAbsolute),
            (r"\x\y", NotAbsolute),
            ("/home/a", NotAbsolute),
            ("a\\b", NotAbsolute),
            ("", NotAbsolute),
            ("file:///home/a", NotAbsolute),
            ("file:///C:/..", NotAbsolute),
            (r"\\?\C:\x", InvalidPath),
            (r"\\.\COM1", InvalidPath),
            (r"C:\a\x.txt:stream", InvalidPath),
            (r"C:\a\x::$DATA", InvalidPath),
            (r"C:\a\x.", InvalidPath),
            (r"C:\a\x \y", InvalidPath),
            (r"C:\a\CON", InvalidPath),
            (r"C:\a\lpt1.txt", InvalidPath),
            (r"\\server", InvalidPath),
            ("file:///C:/a/x.txt:stream", InvalidUri),
            ("file:///C:/a/x.txt%3A%3A$DATA", InvalidUri),
            ("file:///C:/a/x.", InvalidUri),
            ("file:///C:/a/x%20", InvalidUri),
            ("file:///C:/a/nul", InvalidUri),
            ("file:///C:/a/Aux.c", InvalidUri),
            ("file:///C:/a%5Cb", InvalidUri),
            ("file:///C:/a\\b", InvalidUri),
            ("file:///C:x/a", InvalidUri),
            ("file:///C%7C/a", NotAbsolute),
            ("file://user@server/share", InvalidUri),
            ("file://server:445/share", InvalidUri),
            ("file://ser%76er/share", InvalidUri),
            ("file://server/", InvalidUri),
            ("file:///C:/a/x\0", InvalidUri),
            ("C:\\a\0b", InvalidUri),
            ("untitled:Untitled-1", InvalidUri),
        ] {
            assert_eq!(windows_kind(input), expected, "{input:?}");
        }
    }

    #[test]
    fn windows_form_limits() {
        let name = "é".repeat(windows::NAME_MAX);
        assert!(windows(&format!(r"C:\a\{name}\b")).is_ok());
        assert_eq!(
            windows_kind(&format!("file:///C:/a/{name}%41")),
            ErrorKind::InvalidPath
        );
        let long = format!("C:{}", "\\a".repeat(windows::PATH_MAX / 2));
        assert_eq!(windows_kind(&long), ErrorKind::InvalidPath);
    }

    #[test]
    fn relative_paths_in_this_platforms_style() {
        assert_eq!(relative_path("a/b").unwrap(), "a/b");
        assert_eq!(relative_path("/a").unwrap_err().0, ErrorKind::OutsideRoots);
        let long = "n".repeat(sys::NAME_MAX + 1);
        assert_eq!(relative_path(&long).unwrap_err().0, ErrorKind::InvalidPath);
    }
}
