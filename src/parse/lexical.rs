//! Pure path work, no I/O: the components of an absolute path, the
//! cleaned form used as a lookup key, and the folding of names on volumes
//! that compare them case-insensitively. Never used to resolve a raw path
//! (the kernel does that); only to compare roots and inputs by components.

use std::borrow::Cow;

use unicode_normalization::UnicodeNormalization;

use crate::sys::Folding;

pub(crate) fn components(path: &str) -> impl Iterator<Item = &str> {
    path.split('/').filter(|c| !c.is_empty())
}

/// Every `/`-separated piece of `path`, empty ones included (as
/// `path.split('/')`), found by a plain byte scan: no character searcher,
/// no `memchr` call, which cost more than the short names of a path.
pub(crate) fn pieces(path: &str) -> Pieces<'_> {
    Pieces { rest: Some(path) }
}

/// The iterator of [`pieces`].
#[derive(Debug, Clone)]
pub(crate) struct Pieces<'a> {
    rest: Option<&'a str>,
}

impl<'a> Iterator for Pieces<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        match rest.bytes().position(|b| b == b'/') {
            Some(at) => {
                self.rest = Some(&rest[at + 1..]);
                Some(&rest[..at])
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

pub(crate) fn is_clean(key: &str) -> bool {
    key == "/"
        || (key.starts_with('/')
            && key[1..]
                .split('/')
                .all(|c| !c.is_empty() && c != "." && c != ".."))
}

/// `path` with `.` and empty components removed and no trailing slash, or
/// `None` when it has a `..` component (which only the disk can resolve).
pub(crate) fn clean_key(path: &str) -> Option<String> {
    let mut key = String::with_capacity(path.len());
    for component in components(path) {
        match component {
            "." => {}
            ".." => return None,
            _ => {
                key.push('/');
                key.push_str(component);
            }
        }
    }
    if key.is_empty() {
        key.push('/');
    }
    Some(key)
}

/// `path` with `.` and empty components removed and each `..` taking the
/// component before it away (never above `/`): a root's path for display,
/// when it has a `..` and the result names the same directory (not a
/// lookup key: only the disk can resolve `..`).
pub(crate) fn clean_lexically(path: &str) -> String {
    let (kept, _) = kept_components(path);
    if kept.is_empty() {
        return "/".into();
    }
    kept.iter().flat_map(|c| ["/", c]).collect()
}

/// The relative `rel` cleaned as [`clean_lexically`] cleans (`""` for the
/// start itself), or `None` when a `..` would climb above the start.
pub(crate) fn clean_relative(rel: &str) -> Option<String> {
    match kept_components(rel) {
        (kept, false) => Some(kept.join("/")),
        (_, true) => None,
    }
}

/// The components `path` keeps once `.` is dropped and each `..` takes the
/// one before it away, and whether a `..` found nothing to take.
fn kept_components(path: &str) -> (Vec<&str>, bool) {
    let mut kept: Vec<&str> = Vec::new();
    let mut climbed = false;
    for component in components(path) {
        match component {
            "." => {}
            ".." => climbed |= kept.pop().is_none(),
            _ => kept.push(component),
        }
    }
    (kept, climbed)
}

/// The name `component` as a volume of kind `folding` compares it: itself
/// ([`Folding::Exact`]), or a form in which the spellings the volume takes
/// for one name are equal.
///
/// [`Folding::Case`] maps each character to its simple uppercase (a single
/// character; Windows compares names through such an uppercase table).
/// [`Folding::CaseAndNormalization`] does the same on the canonical
/// decomposition (NFD), so NFC and NFD spellings are one name too (macOS).
/// The tables are the Unicode ones, which may differ from a volume's in
/// rare characters: a difference can only make a root unmatched (a
/// refusal) or choose another root of the set, never reach outside the
/// roots, since everything below the chosen root is the kernel's.
pub(crate) fn fold(component: &str, folding: Folding) -> Cow<'_, str> {
    match folding {
        Folding::Exact => Cow::Borrowed(component),
        _ if component.is_ascii() => {
            if component.bytes().any(|b| b.is_ascii_lowercase()) {
                Cow::Owned(component.to_ascii_uppercase())
            } else {
                Cow::Borrowed(component)
            }
        }
        Folding::Case => Cow::Owned(component.chars().map(simple_uppercase).collect()),
        Folding::CaseAndNormalization => Cow::Owned(
            component
                .nfd()
                .map(simple_uppercase)
                .collect::<String>()
                .nfd()
                .collect(),
        ),
    }
}

/// The uppercase of `c` when it is one character, else `c` (`ß` stays).
fn simple_uppercase(c: char) -> char {
    let mut upper = c.to_uppercase();
    match (upper.next(), upper.next()) {
        (Some(u), None) => u,
        _ => c,
    }
}

/// Whether the clean key `prefix` is a component prefix of the clean key
/// `path` (or equal to it), comparing names as `folding` says.
pub(crate) fn is_prefix(prefix: &str, path: &str, folding: Folding) -> bool {
    let mut path = components(path);
    components(prefix).all(|p| {
        path.next()
            .is_some_and(|c| fold(c, folding) == fold(p, folding))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_the_pieces_of_a_split() {
        for path in [
            "",
            "/",
            "a",
            "a/b",
            "/a//b/",
            "./x/../y",
            "é/ü/日本",
            "a/",
            "//",
        ] {
            let want: Vec<&str> = path.split('/').collect();
            assert_eq!(pieces(path).collect::<Vec<_>>(), want, "{path:?}");
        }
    }

    #[test]
    fn clean_keys() {
        assert_eq!(clean_key("/a/./b//c/").as_deref(), Some("/a/b/c"));
        assert_eq!(clean_key("/").as_deref(), Some("/"));
        assert_eq!(clean_key("/a/../b"), None);
        assert!(is_clean("/a/b") && is_clean("/") && !is_clean("/a/") && !is_clean("/a/./b"));
    }

    #[test]
    fn lexical_cleaning() {
        assert_eq!(clean_lexically("/a/../b/./c/"), "/b/c");
        assert_eq!(clean_lexically("/.."), "/");
        assert_eq!(clean_lexically("/C:/a/.."), "/C:");
        assert_eq!(clean_lexically("/a/b/../../.."), "/");
    }

    #[test]
    fn relative_cleaning() {
        assert_eq!(clean_relative("l/../b").as_deref(), Some("b"));
        assert_eq!(clean_relative("a/./b//").as_deref(), Some("a/b"));
        assert_eq!(clean_relative(".").as_deref(), Some(""));
        assert_eq!(clean_relative("a/..").as_deref(), Some(""));
        assert_eq!(clean_relative("a/../.."), None);
        assert_eq!(clean_relative("../a"), None);
    }

    #[test]
    fn folding() {
        let nfc = "caf\u{e9}";
        let nfd = "cafe\u{301}";
        assert_eq!(fold("Users", Folding::Exact), "Users");
        assert_eq!(fold("Users", Folding::Case), fold("uSERS", Folding::Case));
        assert_eq!(fold("ÉTÉ", Folding::Case), fold("été", Folding::Case));
        assert_eq!(
            fold("Σίσυφος", Folding::Case),
            fold("ΣΊΣΥΦΟΣ", Folding::Case)
        );
        // Windows does not fold normalisation: NFC and NFD are two names.
        assert_ne!(fold(nfc, Folding::Case), fold(nfd, Folding::Case));
        assert_eq!(
            fold(nfc, Folding::CaseAndNormalization),
            fold("CAFE\u{301}", Folding::CaseAndNormalization)
        );
        // Characters without a one-character uppercase stay themselves.
        assert_eq!(fold("straße", Folding::Case), "STRAßE");
        assert_ne!(
            fold("strasse", Folding::Case),
            fold("straße", Folding::Case)
        );
        assert!(matches!(fold("ABC", Folding::Case), Cow::Borrowed("ABC")));
    }

    #[test]
    fn prefixes_by_components() {
        assert!(is_prefix("/C:/Users", "/C:/Users/a", Folding::Exact));
        assert!(is_prefix("/C:/Users", "/C:/Users", Folding::Exact));
        assert!(!is_prefix("/C:/Users", "/C:/UsersX", Folding::Exact));
        assert!(!is_prefix("/c:/users", "/C:/Users/a", Folding::Exact));
        assert!(is_prefix("/c:/users", "/C:/Users/a", Folding::Case));
        assert!(!is_prefix("/C:/Users/a", "/C:/Users", Folding::Case));
        assert!(is_prefix("/", "/x", Folding::Exact));
    }
}
