//! [`Selected`]: a root and the path beneath it, as the kernel will see it.
//! Choosing the root is the set's work (`set::Target`); every operation
//! takes the result.

use std::borrow::Cow;

use crate::error::{Error, Operation};
use crate::parse::input;
use crate::root::{Root, RootId};
use crate::sys::{Identity, RootMap};

/// A root and the path below it, as the kernel will see it.
#[doc(hidden)]
#[derive(Debug)]
pub struct Selected<'s> {
    pub(crate) root: &'s Root,
    /// The set the root was chosen from: no mutation may remove, rename or
    /// replace any of its roots. `None` for a root's own operations.
    roots: Option<&'s dyn Roots>,
    path: Cow<'s, str>,
    rel_start: usize,
    /// The input as the caller gave it, for error messages.
    pub(crate) input: &'s str,
}

/// The roots a selection was made among, by identity (a root set; this
/// layer does not know sets).
pub(crate) trait Roots: std::fmt::Debug {
    /// Whether a root with identity `id` is among them.
    fn has_root(&self, id: RootId) -> bool;
    /// The roots as a walk across them sees them.
    fn map(&self) -> &dyn RootMap;
    /// The root at `index` of [`map`](Self::map).
    fn root_at(&self, index: usize) -> Option<&Root>;
    /// Whether any of them has parts its policy hides or keeps read-only.
    fn has_parts(&self) -> bool;
}

impl<'s> Selected<'s> {
    /// The rest of `path` from `rel_start`, beneath `root`, one of `roots`.
    pub(crate) fn beneath(
        root: &'s Root,
        roots: &'s dyn Roots,
        path: Cow<'s, str>,
        rel_start: usize,
        input: &'s str,
    ) -> Self {
        Self {
            root,
            roots: Some(roots),
            path,
            rel_start,
            input,
        }
    }

    /// The same selection, judged among `roots` (see [`is_a_root`](Self::is_a_root)).
    pub(crate) fn among(self, roots: &'s dyn Roots) -> Self {
        Self {
            roots: Some(roots),
            ..self
        }
    }

    /// `rel` beneath `root`, as given (for a root's own relative operations
    /// and for a [`ScopedPath`]); its form is checked as an input's is.
    pub(crate) fn relative(root: &'s Root, rel: &'s str, op: Operation) -> Result<Self, Error> {
        let path = input::relative_path(rel)
            .map_err(|(kind, detail)| Error::new(kind, op, rel).with_detail(detail))?;
        Ok(Self {
            root,
            roots: None,
            path,
            rel_start: 0,
            input: rel,
        })
    }

    /// The path beneath the root: `.` for the root itself, never absolute.
    #[inline]
    pub(crate) fn rel(&self) -> &str {
        relative(&self.path[self.rel_start..])
    }

    /// Whether the path demands a directory, as the kernel reads it: it
    /// ends with `/`, or its last component is `.` or `..` ([semantics 3](crate::semantics#3-raw-paths)). A file operation on such a path is refused.
    ///
    /// A look at the last three bytes, on every open: the path ends with
    /// `/`, `/.`, `/..`, or is `.` or `..` (a trailing `/` after a `.`
    /// component is a trailing `/` too).
    #[inline]
    pub(crate) fn demands_dir(&self) -> bool {
        demands_dir(self.rel())
    }

    /// The set the root was chosen from, when a path may be followed
    /// across its roots (`None` for a root's own operations, which stay
    /// beneath the root).
    pub(crate) fn set(&self) -> Option<&'s dyn Roots> {
        self.roots
    }

    /// Whether `id` is the identity of a root of the set the root was
    /// chosen from (or of the root itself).
    pub(crate) fn is_a_root(&self, id: Identity) -> bool {
        let id = RootId::of(id);
        id == self.root.id || self.roots.is_some_and(|roots| roots.has_root(id))
    }
}

/// [`Selected::demands_dir`] of the relative path `rel`.
#[inline]
fn demands_dir(rel: &str) -> bool {
    matches!(
        rel.as_bytes(),
        [.., b'/'] | [b'.'] | [.., b'/', b'.'] | [b'.', b'.'] | [.., b'/', b'.', b'.']
    )
}

/// The remainder after a root prefix without its leading slashes, or `.`.
#[inline]
fn relative(rest: &str) -> &str {
    // A byte look (the common case is one `/` or none), not a pattern search.
    let start = rest.bytes().position(|b| b != b'/').unwrap_or(rest.len());
    match &rest[start..] {
        "" => ".",
        rel => rel,
    }
}

#[cfg(test)]
mod tests {
    /// The definition: a trailing `/`, or a last component `.` or `..`.
    fn by_components(rel: &str) -> bool {
        let trimmed = rel.trim_end_matches('/');
        let last = trimmed.rsplit('/').next().unwrap_or(trimmed);
        trimmed.len() != rel.len() || matches!(last, "." | "..")
    }

    #[test]
    fn the_last_bytes_say_what_the_components_say() {
        let parts = ["", ".", "..", "...", "a", ".a", "a.", "..a", "/", "//"];
        let mut checked = 0;
        for a in parts {
            for b in parts {
                for c in parts {
                    let rel = format!("{a}{b}{c}");
                    let rel = super::relative(&rel);
                    assert_eq!(super::demands_dir(rel), by_components(rel), "{rel:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 1000);
        for (rel, demands) in [
            (".", true),
            ("a/..", true),
            ("a/./", true),
            ("a/.b", false),
            ("a..", false),
            ("f.txt", false),
        ] {
            assert_eq!(super::demands_dir(rel), demands, "{rel}");
        }
    }
}
