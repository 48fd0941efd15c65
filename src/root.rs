//! One accepted root: its forms, its identity and its directory handle.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cap_std::fs::Dir;

use crate::sys::Identity;

/// The identity of a root: the directory (device and inode) its path named
/// when the set was built. Two roots naming the same directory share it, and
/// a [`ScopedPath`](crate::ScopedPath) stays valid in any later set that
/// still has that directory as a root.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RootId(pub(crate) Identity);

impl fmt::Debug for RootId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RootId({}:{})", self.0.dev, self.0.ino)
    }
}

/// A root the set accepted: an existing directory, held open.
///
/// Its operations take paths *relative to the root* and resolve them beneath
/// its directory handle; an absolute path or a `..` that leaves the root is
/// refused (`outside_roots`).
pub struct Root {
    pub(crate) id: RootId,
    pub(crate) name: Option<Box<str>>,
    pub(crate) uri: Box<str>,
    pub(crate) path: Arc<str>,
    pub(crate) resolved: PathBuf,
    pub(crate) dir: Dir,
}

impl Root {
    /// The root's identity.
    pub fn id(&self) -> RootId {
        self.id
    }

    /// The name the client gave the root, if any.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The URI (or path) exactly as the client gave it.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The root's path as given, lexically cleaned (for display).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The root's physical path when the set was built (symlinks resolved).
    pub fn resolved_path(&self) -> &Path {
        &self.resolved
    }
}

impl fmt::Debug for Root {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Root")
            .field("id", &self.id)
            .field("name", &self.name)
            .field("uri", &self.uri)
            .field("resolved", &self.resolved)
            .finish_non_exhaustive()
    }
}
