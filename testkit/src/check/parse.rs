//! [`parse`]: the library's input parser against two oracles, the model's
//! own strict parser and the `url` crate.

use std::path::PathBuf;

use crate::model::input;
use crate::model::walk::Step;

/// What [`parse`] compared for one input.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ParseOutcome {
    /// `mcp_roots::parse_input` accepted the input.
    pub accepted: bool,
    /// The `url` crate accepted it too and the paths were compared.
    pub url_compared: bool,
    /// The input was a clean absolute path and its `file://` URI, built by
    /// `url::Url::from_file_path`, was parsed back.
    pub round_tripped: bool,
}

/// Checks `mcp_roots::parse_input` on one untrusted input:
///
/// - it never panics;
/// - it agrees with the model's parser ([`input::parse`]) on acceptance
///   and on the path (compared as walker steps), except that it may refuse
///   what the model accepts only leniently (a segment decoding to `\`),
///   and it may accept a malformed `%` escape in the query or fragment,
///   which it drops unread (the model refuses it);
///   refusal reasons are not compared (`file:a` is `invalid_uri` to one
///   and `not_absolute` to the other, and the semantics page allows both);
/// - where it and `url::Url` both accept a `file:` URI (and `url` can turn
///   it into a path), the two paths agree. `url` normalises what the strict
///   parser refuses (tabs, `\`, `%2F`), so only inputs both accept are
///   compared, and none whose first segment `url` reads as a Windows drive
///   letter (`/C:/..` keeps `C:`, `C|` becomes `C:`) or that `url` trims
///   (a leading or trailing space), and ignoring the `/` that `url` adds
///   after a last segment ending in `:` or `|`; `//` and `/` are the same;
/// - if the input is a clean absolute path (no empty, `.` or `..`
///   component, no trailing `/`, no NUL, no `\`), the URI that
///   `url::Url::from_file_path` builds for it parses back to the same path.
///
/// # Errors
///
/// A description of the first disagreement.
pub fn parse(untrusted: &str) -> Result<ParseOutcome, String> {
    let mut outcome = ParseOutcome::default();
    let library = mcp_roots::parse_input(untrusted);
    let model = input::parse(untrusted);
    match (&library, &model) {
        (Ok(path), Ok(parsed)) => {
            outcome.accepted = true;
            let steps = Step::split(path.as_bytes());
            if normal(steps.clone()) != normal(parsed.steps.clone()) {
                return Err(format!(
                    "{untrusted:?}: the library reads {path:?} ({steps:?}), the model {:?}",
                    parsed.steps
                ));
            }
        }
        (Ok(_), Err(why))
            if why.contains("'%' not followed") && bad_escape_after_query(untrusted) =>
        {
            // Tolerated: the library drops the query and fragment before it
            // checks escapes, the model checks the whole URI.
            outcome.accepted = true;
        }
        (Ok(path), Err(why)) => {
            return Err(format!(
                "{untrusted:?}: the library accepts it as {path:?}, the model refuses: {why}"
            ));
        }
        (Err(err), Ok(parsed)) if parsed.lenient.is_none() => {
            return Err(format!(
                "{untrusted:?}: the library refuses it ({}: {err}), the model reads {:?}",
                err.reason(),
                parsed.steps
            ));
        }
        (Err(_), _) => {}
    }
    if let (Ok(path), Some(url_path)) = (&library, url_file_path(untrusted)) {
        outcome.url_compared = true;
        let ours = normal(Step::split(path.as_bytes()));
        let mut theirs = normal(Step::split(url_path.as_os_str().as_encoded_bytes()));
        if path.ends_with([':', '|']) && theirs.last() == Some(&Step::Dot) {
            // url 2.5.8 quirk: `to_file_path` adds a `/` after a last
            // segment ending in `:` or `|` (`file:///a/b:` gives `/a/b:/`).
            theirs.pop();
        }
        if ours != theirs {
            return Err(format!(
                "{untrusted:?}: the library reads {path:?}, url reads {url_path:?}"
            ));
        }
    }
    if is_clean_path(untrusted) {
        match mcp_roots::parse_input(untrusted) {
            // A path refused for its form is refused as a URI too.
            Err(err) if err.kind() == mcp_roots::ErrorKind::InvalidPath => same_form(untrusted)?,
            _ => {
                round_trip(untrusted)?;
                outcome.round_tripped = true;
            }
        }
    }
    Ok(outcome)
}

/// Steps with a lone trailing [`Step::Dot`] (`//`: the root, which is a
/// directory) read as no steps (`/`).
fn normal(mut steps: Vec<Step>) -> Vec<Step> {
    if steps == [Step::Dot] {
        steps.clear();
    }
    steps
}

/// The path `url` gives a `file:` URI, unless it refuses it, trims it
/// (leading or trailing spaces) or reads a Windows drive letter in it (a
/// segment `C:` anywhere: `url` never lets `..` remove one).
fn url_file_path(untrusted: &str) -> Option<PathBuf> {
    let is_file = untrusted
        .get(..5)
        .is_some_and(|s| s.eq_ignore_ascii_case("file:"));
    if !is_file || untrusted.trim() != untrusted {
        return None;
    }
    let url = url::Url::parse(untrusted).ok()?;
    let is_drive = |segment: &str| {
        let b = segment.as_bytes();
        b.len() == 2 && b[0].is_ascii_alphabetic() && matches!(b[1], b':' | b'|')
    };
    if url.scheme() != "file" || url.path().split('/').any(is_drive) {
        return None;
    }
    url.to_file_path().ok()
}

/// Whether the first malformed `%` escape comes after a `?` or `#`.
pub(super) fn bad_escape_after_query(uri: &str) -> bool {
    let bytes = uri.as_bytes();
    let malformed = (0..bytes.len()).find(|&i| {
        bytes[i] == b'%'
            && !(bytes.len() > i + 2 && bytes[i + 1..i + 3].iter().all(u8::is_ascii_hexdigit))
    });
    let query = bytes.iter().position(|&b| b == b'?' || b == b'#');
    matches!((query, malformed), (Some(q), Some(m)) if q < m)
}

/// An absolute path with plain components only and no trailing `/`
/// (`from_file_path` drops it).
fn is_clean_path(path: &str) -> bool {
    let Some(body) = path.strip_prefix('/') else {
        return false;
    };
    let plain = |name: &str| !matches!(name, "" | "." | "..") && !name.contains(['\0', '\\']);
    body.is_empty() || body.split('/').all(plain)
}

/// A `path` refused for its form (`invalid_path`): its URI is refused the
/// same way (the limits apply to the decoded path, whatever its spelling).
fn same_form(path: &str) -> Result<(), String> {
    let url = url::Url::from_file_path(path)
        .map_err(|()| format!("{path:?}: url::Url::from_file_path refuses a clean path"))?;
    match mcp_roots::parse_input(url.as_str()) {
        Err(err) if err.kind() == mcp_roots::ErrorKind::InvalidPath => Ok(()),
        other => Err(format!(
            "{path:?} is invalid_path, but its URI {:?} gives {other:?}",
            url.as_str()
        )),
    }
}

/// `path` → `url::Url::from_file_path` → `parse_input` gives `path` back.
fn round_trip(path: &str) -> Result<(), String> {
    let url = url::Url::from_file_path(path)
        .map_err(|()| format!("{path:?}: url::Url::from_file_path refuses a clean path"))?;
    match mcp_roots::parse_input(url.as_str()) {
        Ok(back) if back == path => Ok(()),
        Ok(back) => Err(format!(
            "{path:?}: its URI {:?} parses back to {back:?}",
            url.as_str()
        )),
        Err(err) => Err(format!(
            "{path:?}: its URI {:?} is refused: {} ({err})",
            url.as_str(),
            err.reason()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_on_typical_inputs() {
        for input in [
            "file:///a/b%20c",
            "FILE://LocalHost/a/%2e%2E/b",
            "file:/a/.%2e/./b/",
            "/a/../b/%2e%2e",
            "file:///a/b?q#f",
            "/tmp/x y/é",
            "/",
            "file:///C:/../x",
            "file:///a/b%5Cc",
            "file:///a/b:",
            "file:/a?%zz",
            "file:////.",
            "FILE://LOCALHOST//",
            "file:/ ",
            "file:///x/C:/../y",
            "file:///a/xC|",
        ] {
            parse(input).unwrap_or_else(|e| panic!("{e}"));
        }
        let compared = parse("file:///a/b%20c").unwrap();
        assert!(compared.accepted && compared.url_compared && !compared.round_tripped);
        assert!(parse("/a/b c").unwrap().round_tripped);
        assert!(!parse("/a/b c/").unwrap().round_tripped);
        assert!(!parse("/a/./b").unwrap().round_tripped);
        assert!(!parse("file:///a\tb").unwrap().accepted);
    }
}
