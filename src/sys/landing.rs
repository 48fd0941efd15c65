//! What a walk that follows a path across the roots of a set needs to know
//! of that set, in this layer's own terms (this layer does not know sets):
//! which root a lexical absolute path lands in, whether a path outside every
//! root still leads towards one, and each root's handle, physical path,
//! identity and hardening. The set implements [`RootMap`]; the walk is the
//! resolver's (`resolver::across`).

use std::fs::File;

use cap_std::fs::Dir;

use super::Identity;
use crate::options::hardening::Hardening;

/// The roots of a set, as the cross-root walk sees them.
#[cfg_attr(windows, allow(dead_code))] // Windows does not walk across roots
pub(crate) trait RootMap {
    /// The root a clean absolute path lies in, under the set's own lexical
    /// choice of root (the outermost), and the rest of the path after that
    /// root's key (empty, or starting with `/`).
    fn locate<'p>(&self, path: &'p str) -> Option<(usize, &'p str)>;
    /// Whether the clean absolute path `path`, which lies in no root, is an
    /// ancestor of a root's path.
    fn leads_to(&self, path: &str) -> Lead;
    /// The root at `index` (as [`locate`](Self::locate) gives it).
    fn root(&self, index: usize) -> Option<RootRef<'_>>;
}

/// How a path outside every root relates to the roots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(windows, allow(dead_code))] // Windows does not walk across roots
pub(crate) enum Lead {
    /// It is an ancestor of a root's physical path: every component of it
    /// was a real directory, never a symlink, when the set was built, so a
    /// `..` from it is its lexical parent.
    Canonical,
    /// It is an ancestor of a root's path as the client gave it only: going
    /// on down towards that root is the set's lexical root choice, but a
    /// `..` from it cannot be told without the disk.
    Lexical,
    /// It leads to no root.
    Nowhere,
}

/// One root of the set, as the cross-root walk sees it.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(windows, allow(dead_code))] // Windows does not walk across roots
pub(crate) struct RootRef<'a> {
    /// The root's directory handle: the walk goes on beneath it.
    pub(crate) dir: &'a Dir,
    /// The root's physical path, clean, when it is UTF-8: where a `..`
    /// above the root leads.
    pub(crate) resolved: Option<&'a str>,
    /// The identity the root is pinned to (its handle's device and inode).
    pub(crate) id: Identity,
    /// The root's hardening.
    pub(crate) hardening: Hardening,
}

/// What a walk across roots opened, and where.
#[derive(Debug)]
#[cfg_attr(windows, allow(dead_code))] // Windows does not walk across roots
pub(crate) struct Landed {
    /// The object opened.
    pub(crate) file: File,
    /// The root the object lies beneath (its index in the [`RootMap`]), or
    /// `None` when the walk never landed in another root than its start.
    pub(crate) root: Option<usize>,
    /// The stricter hardening of every root the walk went through.
    pub(crate) hardening: Hardening,
}

/// The error of a walk across roots that would change a file beneath a
/// root whose policy (or that of a root crossed on the way) refuses
/// writes: it stops before the last open, so nothing is created, written
/// or truncated. Carried inside an `io::Error` of kind `Other`.
#[derive(Debug)]
pub(crate) struct ReadOnlyLanding;

impl std::fmt::Display for ReadOnlyLanding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the path leads into a read-only root")
    }
}

impl std::error::Error for ReadOnlyLanding {}

impl ReadOnlyLanding {
    /// The `io::Error` that carries it.
    #[cfg_attr(windows, allow(dead_code))] // Windows does not walk across roots
    pub(crate) fn error() -> std::io::Error {
        std::io::Error::other(Self)
    }

    /// Whether `err` is one.
    pub(crate) fn is(err: &std::io::Error) -> bool {
        err.get_ref().is_some_and(|inner| inner.is::<Self>())
    }
}
