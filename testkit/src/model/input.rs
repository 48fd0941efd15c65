//! Turning an untrusted input (a `file:` URI or a raw absolute path) into
//! the steps the walker takes, by the rules of `mcp_roots::semantics` (sections 1–3).
//!
//! - A raw path must start with `/`; it is taken literally (no decoding, no
//!   lexical `..` removal), only a NUL byte is refused.
//! - A URI has the scheme `file` (any case), an empty or `localhost` (any
//!   case) authority or none (`file:/path`), and an absolute path. Raw `\`,
//!   raw control characters (every Unicode `Cc`: C0, DEL, C1) and raw
//!   U+2028 / U+2029 are refused anywhere in it, and every `%`
//!   must be followed by two hex digits. The query and fragment are dropped.
//!   Each path segment is decoded exactly once; it may not decode to
//!   anything containing `/` or NUL, and the result must be UTF-8. Then dot
//!   segments are removed as text (RFC 3986 5.2.4).
//!
//! - Either way, the path (a URI's after decoding and dot removal) is
//!   refused `invalid_path` when the kernel could not take it whole
//!   (`PATH_MAX` bytes or more with its NUL) or a component is longer than
//!   `NAME_MAX`, before anything looks at the disk.
//!
//! This module decides one point the documents disagree on: a segment that
//! decodes to a `\` (`%5C`). the semantics page refuses it; the corpus allows it
//! as a literal name but marks it `deny_acceptable`. It is accepted here
//! and flagged as [`Parsed::lenient`], so the model says "may refuse".

use crate::model::walk::Step;

/// A parsed input: the steps below `/` and whether it needed leniency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// Steps from `/`; a trailing slash is a final [`Step::Dot`].
    pub steps: Vec<Step>,
    /// Why a conforming library may refuse this input although the model
    /// accepts it (`None` if it must accept it).
    pub lenient: Option<&'static str>,
}

/// Parses an input (or a root) into walker steps.
///
/// # Errors
///
/// A reason of the semantics page (`invalid_uri`, `not_absolute`,
/// `invalid_path`) and a detail.
pub fn parse(untrusted: &str) -> Result<Parsed, String> {
    let bytes = untrusted.as_bytes();
    if bytes.len() >= 5 && bytes[..5].eq_ignore_ascii_case(b"file:") {
        parse_uri(&untrusted[5..])
    } else if bytes.starts_with(b"/") {
        if bytes.contains(&0) {
            return Err("invalid_uri: a raw path with a NUL byte".into());
        }
        check_form(bytes)?;
        Ok(Parsed {
            steps: Step::split(bytes),
            lenient: None,
        })
    } else if has_scheme(bytes) {
        Err("invalid_uri: a scheme other than file".into())
    } else {
        Err("not_absolute: neither a file: URI nor an absolute path".into())
    }
}

/// Linux's `PATH_MAX`, counting the terminating NUL.
pub const PATH_MAX: usize = 4096;
/// Linux's `NAME_MAX`.
pub const NAME_MAX: usize = 255;

/// Refuses a path the kernel could not take (see the module docs).
fn check_form(path: &[u8]) -> Result<(), String> {
    if path.len() >= PATH_MAX {
        return Err(format!(
            "invalid_path: {} bytes, PATH_MAX is {PATH_MAX}",
            path.len()
        ));
    }
    if let Some(long) = path.split(|&b| b == b'/').find(|c| c.len() > NAME_MAX) {
        return Err(format!("invalid_path: a {}-byte component", long.len()));
    }
    Ok(())
}

/// Whether the input starts with an RFC 3986 scheme of two or more letters
/// and a `:` (one letter is a Windows drive, which is `not_absolute`).
fn has_scheme(bytes: &[u8]) -> bool {
    let Some(colon) = bytes.iter().position(|&b| b == b':') else {
        return false;
    };
    let scheme = &bytes[..colon];
    scheme.len() >= 2
        && scheme[0].is_ascii_alphabetic()
        && scheme
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(b))
}

/// Parses what follows `file:`.
fn parse_uri(rest: &str) -> Result<Parsed, String> {
    if let Some(c) = rest
        .chars()
        .find(|c| !c.is_ascii() && (c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')))
    {
        return Err(format!(
            "invalid_uri: raw control character or separator {c:?}"
        ));
    }
    let bytes = rest.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b < 0x20 || b == 0x7f {
            return Err(format!("invalid_uri: raw control character {b:#04x}"));
        }
        if b == b'\\' {
            return Err("invalid_uri: raw backslash".into());
        }
        let after = &bytes[i + 1..];
        let escape_ok = after.len() >= 2 && after[..2].iter().all(u8::is_ascii_hexdigit);
        if b == b'%' && !escape_ok {
            return Err("invalid_uri: '%' not followed by two hex digits".into());
        }
    }
    let hier = rest.split(['?', '#']).next().unwrap_or_default();
    let path = match hier.strip_prefix("//") {
        Some(after) => {
            let slash = after.find('/').unwrap_or(after.len());
            let authority = &after[..slash];
            if !authority.is_empty() && !authority.eq_ignore_ascii_case("localhost") {
                return Err(format!("invalid_uri: host {authority:?}"));
            }
            &after[slash..]
        }
        None => hier,
    };
    if !path.starts_with('/') {
        return Err("not_absolute: the URI has no absolute path".into());
    }
    let mut lenient = None;
    let mut segments = Vec::new();
    for raw in path[1..].split('/') {
        let decoded = decode(raw);
        if decoded.contains(&b'/') || decoded.contains(&0) {
            return Err(format!(
                "invalid_uri: segment {raw:?} decodes to '/' or NUL"
            ));
        }
        if decoded.contains(&b'\\') {
            lenient = Some("a segment decodes to '\\', which the semantics refuse");
        }
        let text = String::from_utf8(decoded)
            .map_err(|_| format!("invalid_uri: segment {raw:?} is not UTF-8"))?;
        segments.push(text);
    }
    let cleaned = remove_dot_segments(&segments);
    check_form(cleaned.as_bytes())?;
    Ok(Parsed {
        steps: Step::split(cleaned.as_bytes()),
        lenient,
    })
}

/// Decodes `%XX` escapes; the caller checked that each `%` has two hex
/// digits after it.
fn decode(raw: &str) -> Vec<u8> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            out.push(hex(bytes[i + 1]) * 16 + hex(bytes[i + 2]));
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

fn hex(digit: u8) -> u8 {
    match digit {
        b'0'..=b'9' => digit - b'0',
        b'a'..=b'f' => digit - b'a' + 10,
        _ => digit - b'A' + 10,
    }
}

/// RFC 3986 5.2.4 on an absolute path given as its decoded segments (the
/// text after the leading `/`, split on `/`). A trailing dot segment leaves
/// a trailing `/`.
fn remove_dot_segments(segments: &[String]) -> String {
    let mut out: Vec<&str> = Vec::new();
    for (i, segment) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        match segment.as_str() {
            "." => {}
            ".." => {
                out.pop();
            }
            name => out.push(name),
        }
        if last && matches!(segment.as_str(), "." | "..") {
            out.push("");
        }
    }
    format!("/{}", out.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path_of(input: &str) -> String {
        let steps = parse(input).unwrap().steps;
        let mut s = String::new();
        for step in steps {
            s.push('/');
            s.push_str(match &step {
                Step::Dot => ".",
                Step::DotDot => "..",
                Step::Name(n) => n.to_str().unwrap(),
            });
        }
        s
    }

    #[test]
    fn uri_forms() {
        assert_eq!(path_of("file:///r/a/x.txt"), "/r/a/x.txt");
        assert_eq!(path_of("FILE://LocalHost/r/a"), "/r/a");
        assert_eq!(path_of("file:/r/a/"), "/r/a/.");
        assert_eq!(path_of("file:///r/a/%2e%2E/b/./c?/../x#y"), "/r/b/c");
        assert_eq!(path_of("file:///r/a/.%2e"), "/r/.");
        assert_eq!(path_of("file:///r/a//../b"), "/r/a/b");
        assert_eq!(path_of("file:///.."), "");
        assert_eq!(path_of("file:///r/100%25/caf%C3%A9"), "/r/100%/café");
        assert!(parse("file:///r/b%5Cc").unwrap().lenient.is_some());
        for bad in [
            "file://evil/r",
            "file://localhost",
            "file:r/a",
            "file:///a/%2F",
            "file:///a/%00",
            "file:///a/%zz",
            "file:///a/%2",
            "file:///a/%",
            "file:///a/%c0%ae",
            "file:///a\\b",
            "file:///a/.\t./b",
            "file://[::1]/a",
            "file://u@localhost/a",
            "file://localhost:1/a",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn raw_paths_are_literal() {
        assert_eq!(path_of("/r/a/../%2e%2e/./x/"), "/r/a/../%2e%2e/./x/.");
        assert_eq!(path_of("//r//a"), "/r/a");
        assert_eq!(path_of("/r/a b\\c\t"), "/r/a b\\c\t");
        for bad in [
            "/r/a\0b",
            "r/a",
            "~/x",
            "",
            " /r",
            "C:\\x",
            "\\\\srv\\x",
            "http://x/y",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
