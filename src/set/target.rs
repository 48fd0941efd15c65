//! [`Target`]: what an operation accepts — an untrusted `&str` (a `file:`
//! URI or an absolute path) or a [`ScopedPath`] — and how each selects its
//! root.

use crate::error::{Error, ErrorKind, Operation};
use crate::parse::input;
use crate::root::{ScopedPath, Selected};
use crate::set::root_set::RootSet;

/// Something an operation can be aimed at: `str`, `String` or
/// [`ScopedPath`]. Sealed.
pub trait Target: sealed::Sealed {
    /// Picks the root and the path beneath it.
    #[doc(hidden)]
    fn select<'s>(&'s self, set: &'s RootSet, op: Operation) -> Result<Selected<'s>, Error>;
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
        let root = &set.roots()[index];
        let mut rel_start = path.len() - rest.len();
        if root.granted_file().is_some() {
            // A file grant's key is the file's path: the path beneath its
            // root (the directory) starts with the file's name.
            rel_start = path[..rel_start]
                .trim_end_matches('/')
                .rfind('/')
                .map_or(0, |at| at + 1);
        }
        Ok(Selected::beneath(root, set, path, rel_start, self))
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
        Ok(Selected::relative(root, self.rel(), op)?.among(set))
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
    impl Sealed for crate::root::ScopedPath {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
}
