//! [`Target`]: what an operation accepts — an untrusted `&str` (a `file:`
//! URI or an absolute path) or a [`ScopedPath`] — and how each selects its
//! root.

use std::borrow::Cow;

use crate::root::Root;
use crate::root_set::RootSet;
use crate::scoped::ScopedPath;
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
    path: Cow<'s, str>,
    rel_start: usize,
    /// The input as the caller gave it, for error messages.
    pub(crate) input: &'s str,
}

impl<'s> Selected<'s> {
    /// `rel` beneath `root`, as given (for a root's own relative operations).
    pub(crate) fn relative(root: &'s Root, rel: &'s str) -> Self {
        Self {
            root,
            path: Cow::Borrowed(rel),
            rel_start: 0,
            input: rel,
        }
    }

    /// The path beneath the root: `.` for the root itself, never absolute.
    pub(crate) fn rel(&self) -> &str {
        relative(&self.path[self.rel_start..])
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
        Ok(Selected::relative(root, self.rel()))
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
