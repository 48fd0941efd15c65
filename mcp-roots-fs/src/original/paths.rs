//! A tool's path argument as the original reads it, before the boundary
//! judges it: `~` and `~/…` name the home directory, and a relative path
//! is taken relative to the first shared directory. Both only *spell* a
//! path: the result is an absolute path that the library then resolves
//! beneath a root like any other, so neither can reach outside.

use mcp_roots::{Error, ErrorKind, Snapshot};
use mcp_roots_rmcp::Stop;
use rmcp::model::ContentBlock;

/// The absolute path (or `file:` URI) for `untrusted`, as given when it
/// already is one.
pub(crate) fn target(snap: &Snapshot<'_>, untrusted: &str) -> String {
    let home = std::env::var("HOME").ok();
    let first = snap.set().root(0).map(|root| root.path().to_owned());
    spell(untrusted, home.as_deref(), first.as_deref())
}

/// `err` about a path the tool resolved first (whose refusal names it
/// beneath its root, `missing/x.txt`), naming instead the whole path as
/// spelled (`/projects/app/missing/x.txt`), as every tool's refusals do.
pub(crate) fn named(err: Error, spelled: &str) -> Error {
    if err.input() == spelled || err.pattern().is_some() {
        return err;
    }
    let named = Error::new(err.kind(), err.operation(), spelled);
    match err.detail() {
        Some(detail) => named.with_detail(detail),
        None => named,
    }
}

/// A read's or an edit's refusal: named by the whole path as spelled, and
/// for a file that does not exist, with how to make a new one.
pub(crate) fn read_refusal(err: Error, spelled: &str) -> Stop {
    let err = named(err, spelled);
    if err.kind() != ErrorKind::NotFound {
        return err.into();
    }
    let mut result = mcp_roots_rmcp::tool_error(&err);
    tracing::info!(reason = err.reason(), op = ?err.operation(), input = %err.escaped_input(), "tool refused");
    for block in &mut result.content {
        if let ContentBlock::Text(text) = block {
            text.text.push_str(" To create a new file, use write_file.");
        }
    }
    Stop::with_result(result)
}

fn spell(untrusted: &str, home: Option<&str>, first_root: Option<&str>) -> String {
    let expanded = match home {
        Some(home) if untrusted == "~" => home.to_owned(),
        Some(home) if untrusted.starts_with("~/") => {
            format!("{}/{}", home.trim_end_matches('/'), &untrusted[2..])
        }
        _ => untrusted.to_owned(),
    };
    if expanded.starts_with('/') || has_scheme(&expanded) || expanded.is_empty() {
        return expanded;
    }
    match first_root {
        Some(root) => format!("{}/{}", root.trim_end_matches('/'), expanded),
        // No root: the library refuses it (no_roots or not_absolute).
        None => expanded,
    }
}

/// Whether `s` starts with a URI scheme (`file:`, `FILE:`, `http:`): the
/// library judges it as a URI (and refuses every scheme but `file`).
fn has_scheme(s: &str) -> bool {
    let Some((scheme, _)) = s.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

#[cfg(test)]
mod tests {
    use super::spell;

    #[test]
    fn spelled_paths() {
        let home = Some("/home/a");
        let root = Some("/srv/r");
        for (given, want) in [
            ("/srv/r/x", "/srv/r/x"),
            ("file:///srv/r/x", "file:///srv/r/x"),
            ("FILE:///srv/r/x", "FILE:///srv/r/x"),
            ("http://h/x", "http://h/x"),
            ("C:/x", "C:/x"),
            ("a:b/../c", "a:b/../c"),
            ("dir/a:b", "/srv/r/dir/a:b"),
            ("~", "/home/a"),
            ("~/x", "/home/a/x"),
            ("x/y", "/srv/r/x/y"),
            ("../etc/passwd", "/srv/r/../etc/passwd"),
            ("~x", "/srv/r/~x"),
            ("", ""),
        ] {
            assert_eq!(spell(given, home, root), want, "{given}");
        }
        assert_eq!(spell("x", home, None), "x");
    }
}
