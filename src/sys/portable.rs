//! Without `/proc/self/fd` and `statx` mount ids (macOS, the BSDs,
//! Windows): a descriptor's path cannot be read, so a root's physical path
//! comes from `canonicalize` checked against the open handle, and handles
//! are never located by path (every check that needs it fails closed).

use std::io;
use std::path::PathBuf;

use cap_std::ambient_authority;
use cap_std::fs::Dir;

use super::Identity;

/// Without `/proc/self/fd`, a descriptor's path is not available.
pub(crate) fn fd_path<T>(_file: &T) -> io::Result<PathBuf> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "locating a descriptor's path is implemented on Linux only",
    ))
}

/// Without `statx` mount ids, where a root directory is cannot be told.
pub(crate) fn ancestors<T>(_dir: &T) -> io::Result<Vec<(Identity, u64)>> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "walking up from a root is implemented on Linux only",
    ))
}

/// Without `statx` mount ids, where a root directory is cannot be told.
pub(crate) fn placement<T>(_dir: &T) -> io::Result<(Identity, u64)> {
    ancestors(&()).map(|_| unreachable!())
}

/// Descriptor paths, one look-up at a time ([`fd_path`]).
#[derive(Debug)]
pub(crate) struct FdPaths;

impl FdPaths {
    pub(crate) fn batch() -> Self {
        Self
    }

    pub(crate) fn single() -> Self {
        Self
    }

    pub(crate) fn path<T>(&mut self, file: &T) -> io::Result<PathBuf> {
        fd_path(file)
    }
}

/// The physical path of an open root directory: `canonicalize`, then a
/// check that it names the directory that was opened.
pub(crate) fn resolved_path(dir: &Dir, given: &str) -> io::Result<PathBuf> {
    let resolved = std::fs::canonicalize(given)?;
    let again = Dir::open_ambient_dir(&resolved, ambient_authority())?;
    if super::identity(&again)? != super::identity(dir)? {
        return Err(io::Error::other("root changed while it was being opened"));
    }
    Ok(resolved)
}
