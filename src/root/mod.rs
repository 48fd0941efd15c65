//! One accepted root: its identity and directory handle ([`Root`],
//! [`RootId`], in [`pinned`]), the path it is shown by (`shown`), a path
//! beneath it ([`ScopedPath`]), and the
//! choice of a root and the path below it that every operation takes
//! ([`Selected`]), the write check every mutation passes ([`writable`]),
//! and the parts of a root its policy hides or keeps read-only ([`parts`],
//! judged by [`shared`]), and what a grant covers ([`granted`]).
//! A root knows how to check that its path still names its
//! directory; it does not know the operations (they live above, in `ops`).

pub(crate) mod beneath;
pub(crate) mod granted;
pub(crate) mod parts;
pub(crate) mod pinned;
mod scoped;
pub(crate) mod selected;
pub(crate) mod shared;
mod shown;
pub(crate) mod writable;

pub(crate) use pinned::{Anchor, Keys};
pub use pinned::{Root, RootId};
pub use scoped::ScopedPath;
pub(crate) use selected::Selected;
pub(crate) use shown::shown;
pub(crate) use writable::Writable;
