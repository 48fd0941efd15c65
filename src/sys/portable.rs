//! Without `/proc/self/fd` and `statx` mount ids (macOS, the BSDs,
//! Windows): where a root directory sits among its ancestors cannot be
//! told, so every check that needs it fails closed; descriptor paths come
//! from the platform's own call where it has one (macOS `F_GETPATH`,
//! Windows `GetFinalPathNameByHandleW`), and not at all on the BSDs, where
//! a root's physical path comes from `canonicalize` checked against the
//! open handle.

use std::io;
use std::path::PathBuf;

use super::{Allowance, Floor, Grant, Identity, Restricted};

/// Nothing is kept outside a ceiling that no kernel enforces.
pub(crate) const ALLOWANCES: &[Allowance] = &[];

/// No Landlock here: best effort changes nothing; an ABI 3 floor is an
/// `Unsupported` error.
pub(crate) fn restrict(_grants: &[Grant<'_>], floor: Floor) -> io::Result<Restricted> {
    match floor {
        Floor::BestEffort => Ok(Restricted::default()),
        Floor::Abi3 => Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "Landlock is a Linux feature: this platform cannot confine the process",
        )),
    }
}

/// The thread count is only read where confinement exists.
pub(crate) fn threads() -> io::Result<usize> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "counting threads is implemented on Linux only",
    ))
}

/// The BSDs: a descriptor's path is not available.
#[cfg(not(any(target_os = "linux", target_vendor = "apple", windows)))]
pub(crate) fn fd_path<T>(_file: &T) -> io::Result<PathBuf> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "locating a descriptor's path is not available on this platform",
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

/// Descriptor paths, one look-up at a time (the platform's `fd_path`).
#[derive(Debug)]
pub(crate) struct FdPaths;

impl FdPaths {
    pub(crate) fn batch() -> Self {
        Self
    }

    pub(crate) fn single() -> Self {
        Self
    }

    pub(crate) fn path(&mut self, file: &std::fs::File) -> io::Result<PathBuf> {
        super::fd_path(file)
    }
}

/// The physical path of an open root directory: `canonicalize`, then a
/// check that it names the directory that was opened (macOS, the BSDs).
#[cfg(unix)]
pub(crate) fn resolved_path(dir: &cap_std::fs::Dir, given: &str) -> io::Result<PathBuf> {
    use cap_std::ambient_authority;
    use cap_std::fs::Dir;
    let resolved = std::fs::canonicalize(given)?;
    let again = Dir::open_ambient_dir(&resolved, ambient_authority())?;
    if super::identity(&again)? != super::identity(dir)? {
        return Err(io::Error::other("root changed while it was being opened"));
    }
    Ok(resolved)
}
