//! [`Target`]: what an operation accepts — an untrusted `&str` (a `file:`
//! URI or an absolute path) or a [`ScopedPath`] — and how each selects its
//! root.

use std::borrow::Cow;

use crate::root::{Root, RootId};
use crate::root_set::RootSet;
use crate::scoped::ScopedPath;
use crate::sys::Identity;
use crate::{Error, ErrorKind, Operation, input};

/// Something an operation can be aimed at: `str`, `String` or
/// [`ScopedPath`]. Sealed.
pub trait Target: sealed::Sealed {
    /// Picks the root and the path beneath it.
    #[doc(hidden)]
    fn select<'s>(&'s self, set: &'s RootSet, op: Operation) -> Result<Selected<'s>, Error>;
}

/// A root and the path below it, as the kernel will see it.
#[doc(hidden)]
#[derive(Debug)]
pub struct Selected<'s> {
    pub(crate) root: &'s Root,
    /// The set the root was chosen from: no mutation may remove, rename or
    /// replace any of its roots. `None` for a root's own operations.
    set: Option<&'s RootSet>,
    path: Cow<'s, str>,
    rel_start: usize,
    /// The input as the caller gave it, for error messages.
    pub(crate) input: &'s str,
}

impl<'s> Selected<'s> {
    /// `rel` beneath `root`, as given (for a root's own relative operations
    /// and for a [`ScopedPath`]); its form is checked as an input's is.
    pub(crate) fn relative(root: &'s Root, rel: &'s str, op: Operation) -> Result<Self, Error> {
        if rel.starts_with('/') {
            return Err(Error::new(ErrorKind::OutsideRoots, op, rel)
                .with_detail("a root's own operations take a path relative to it"));
        }
        input::check_form(rel)
            .map_err(|detail| Error::new(ErrorKind::InvalidPath, op, rel).with_detail(detail))?;
        Ok(Self {
            root,
            set: None,
            path: Cow::Borrowed(rel),
            rel_start: 0,
            input: rel,
        })
    }

    /// The path beneath the root: `.` for the root itself, never absolute.
    pub(crate) fn rel(&self) -> &str {
        relative(&self.path[self.rel_start..])
    }

    /// Whether the path demands a directory, as the kernel reads it: it
    /// ends with `/`, or its last component is `.` or `..` (DESIGN.md
    /// semantics 3). A file operation on such a path is refused.
    pub(crate) fn demands_dir(&self) -> bool {
        let rel = self.rel();
        let trimmed = rel.trim_end_matches('/');
        let last = trimmed.rsplit('/').next().unwrap_or(trimmed);
        trimmed.len() != rel.len() || matches!(last, "." | "..")
    }

    /// Whether `id` is the identity of a root of the set the root was
    /// chosen from (or of the root itself).
    pub(crate) fn is_a_root(&self, id: Identity) -> bool {
        let id = RootId(id);
        id == self.root.id || self.set.is_some_and(|set| set.root_by_id(id).is_some())
    }
}

/// The remainder after a root prefix without its leading slashes, or `.`.
fn relative(rest: &str) -> &str {
    match rest.trim_start_matches('/') {
        "" => ".",
        rel => rel,
    }
}

impl Target for str {
    fn select<'s>(&'s self, set: &'s RootSet, op: Operation) -> Result<Selected<'s>, Error> {
        set.require_roots(op, self)?;
        let path = input::absolute_path(self)
            .map_err(|(kind, detail)| Error::new(kind, op, self).with_detail(detail))?;
        let Some((index, rest)) = set.index().locate(&path) else {
            let kind = match set.gone_index().locate(&path) {
                Some(_) => ErrorKind::RootGone,
                None => ErrorKind::OutsideRoots,
            };
            return Err(Error::new(kind, op, self));
        };
        let rel_start = path.len() - rest.len();
        Ok(Selected {
            root: &set.roots()[index],
            set: Some(set),
            path,
            rel_start,
            input: self,
        })
    }
}

impl Target for String {
    fn select<'s>(&'s self, set: &'s RootSet, op: Operation) -> Result<Selected<'s>, Error> {
        self.as_str().select(set, op)
    }
}

impl Target for ScopedPath {
    fn select<'s>(&'s self, set: &'s RootSet, op: Operation) -> Result<Selected<'s>, Error> {
        let root = set
            .root_by_id(self.root())
            .ok_or_else(|| Error::new(ErrorKind::OutsideRoots, op, self.rel()))?;
        let selected = Selected::relative(root, self.rel(), op)?;
        Ok(Selected {
            set: Some(set),
            ..selected
        })
    }
}

impl<T: Target + ?Sized> Target for &T {
    fn select<'s>(&'s self, set: &'s RootSet, op: Operation) -> Result<Selected<'s>, Error> {
        (**self).select(set, op)
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for str {}
    impl Sealed for String {}
    impl Sealed for crate::ScopedPath {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
}
