//! The portable resolution: the fallback on Linux kernels without
//! `openat2`, and the implementation on other platforms; and the queries
//! that need no platform-specific call.

use std::fs::File;
use std::io;

use cap_std::fs::Dir;

use super::How;
use crate::ErrorKind;

/// Opens `rel` beneath `dir` with the library's own resolution (see
/// [`resolver`](super::resolver)): the same answers as `openat2`, the
/// hardening included, and nothing blocks.
#[cfg(unix)]
pub(crate) fn open_beneath(dir: &Dir, rel: &str, how: &How) -> io::Result<File> {
    super::resolver::open_beneath(dir, rel, how)
}

/// Opens `rel` beneath `dir` through cap-std (roots are rejected on these
/// platforms anyway). The opt-in hardening is refused rather than run
/// weaker.
#[cfg(not(unix))]
pub(crate) fn open_beneath(dir: &Dir, rel: &str, how: &How) -> io::Result<File> {
    use cap_fs_ext::{FollowSymlinks, OpenOptionsFollowExt, OpenOptionsMaybeDirExt};
    use cap_std::fs::OpenOptions;

    use super::Access;
    use crate::hardening::{MountPoints, Symlinks};
    use crate::options::Create;

    if how.hardening.symlinks == Symlinks::Refuse
        || how.hardening.mount_points == MountPoints::Refuse
    {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "refusing symlinks or mount crossings is implemented on Unix only",
        ));
    }
    let mut options = OpenOptions::new();
    options
        .read(matches!(
            how.access,
            Access::Read | Access::ReadWrite | Access::Path
        ))
        .write(matches!(how.access, Access::Write | Access::ReadWrite))
        .append(how.append)
        .truncate(how.truncate)
        .create(how.create == Create::OrOpen)
        .create_new(how.create == Create::New)
        .maybe_dir(how.directory || how.access == Access::Path)
        .follow(if how.follows_last() {
            FollowSymlinks::Yes
        } else {
            FollowSymlinks::No
        });
    let file = dir.open_with(rel, &options)?.into_std();
    if how.directory && !file.metadata()?.is_dir() {
        return Err(io::Error::from(io::ErrorKind::NotADirectory));
    }
    Ok(file)
}

/// The type of an open file, from one `fstat`.
#[cfg(unix)]
pub(crate) fn kind_of(file: &File) -> io::Result<Kind> {
    use rustix::fs::FileType;
    Ok(
        match FileType::from_raw_mode(rustix::fs::fstat(file)?.st_mode) {
            FileType::RegularFile => Kind::File,
            FileType::Directory => Kind::Dir,
            _ => Kind::Special,
        },
    )
}

/// The type of an open file.
#[cfg(not(unix))]
pub(crate) fn kind_of(file: &File) -> io::Result<Kind> {
    let file_type = file.metadata()?.file_type();
    Ok(if file_type.is_file() {
        Kind::File
    } else if file_type.is_dir() {
        Kind::Dir
    } else {
        Kind::Special
    })
}

/// What an open descriptor refers to, as far as the checks care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Dir,
    Special,
}

/// Without `/proc/self/fd`, a descriptor's path is not available.
#[cfg(not(target_os = "linux"))]
pub(crate) fn fd_path<T>(_file: &T) -> io::Result<std::path::PathBuf> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "locating a descriptor's path is implemented on Linux only",
    ))
}

/// Device and inode of an open file: the identity a root is pinned to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Identity {
    pub(crate) dev: u64,
    pub(crate) ino: u64,
}

/// The identity of an open file or directory.
#[cfg(unix)]
pub(crate) fn identity(file: &impl std::os::fd::AsFd) -> io::Result<Identity> {
    let stat = rustix::fs::fstat(file)?;
    Ok(Identity {
        dev: stat.st_dev as u64,
        ino: stat.st_ino as u64,
    })
}

/// The identity of the directory a path names now (following symlinks).
#[cfg(unix)]
pub(crate) fn identity_of_path(path: &str) -> io::Result<Identity> {
    let stat = rustix::fs::stat(path)?;
    Ok(Identity {
        dev: stat.st_dev as u64,
        ino: stat.st_ino as u64,
    })
}

/// Root identity is not implemented on this platform.
#[cfg(not(unix))]
pub(crate) fn identity_of_path(_path: &str) -> io::Result<Identity> {
    identity(&())
}

/// Root identity is not implemented on this platform.
#[cfg(not(unix))]
pub(crate) fn identity<T>(_file: &T) -> io::Result<Identity> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "root identity is implemented on Unix only",
    ))
}

#[cfg(unix)]
pub(crate) fn classify_errno(code: i32) -> ErrorKind {
    use rustix::io::Errno;
    match Errno::from_raw_os_error(code) {
        Errno::XDEV => ErrorKind::OutsideRoots,
        Errno::LOOP => ErrorKind::SymlinkLoop,
        Errno::NOTDIR => ErrorKind::NotADirectory,
        Errno::NOENT => ErrorKind::NotFound,
        Errno::EXIST => ErrorKind::AlreadyExists,
        Errno::ACCESS | Errno::PERM => ErrorKind::PermissionDenied,
        Errno::NXIO | Errno::ISDIR => ErrorKind::NotARegularFile,
        Errno::NAMETOOLONG => ErrorKind::InvalidPath,
        _ => ErrorKind::Io,
    }
}

#[cfg(not(unix))]
pub(crate) fn classify_errno(code: i32) -> ErrorKind {
    match io::Error::from_raw_os_error(code).kind() {
        io::ErrorKind::NotFound => ErrorKind::NotFound,
        io::ErrorKind::AlreadyExists => ErrorKind::AlreadyExists,
        io::ErrorKind::PermissionDenied => ErrorKind::PermissionDenied,
        io::ErrorKind::NotADirectory => ErrorKind::NotADirectory,
        io::ErrorKind::IsADirectory => ErrorKind::NotARegularFile,
        _ => ErrorKind::Io,
    }
}

/// The soft `RLIMIT_NOFILE`, where it can be told.
#[cfg(unix)]
pub(crate) fn nofile_limit() -> Option<u64> {
    rustix::process::getrlimit(rustix::process::Resource::Nofile).current
}

/// The number of descriptors open in this process (0 where it cannot be
/// told).
#[cfg(unix)]
pub(crate) fn open_descriptors() -> u64 {
    std::fs::read_dir("/proc/self/fd")
        .or_else(|_| std::fs::read_dir("/dev/fd"))
        .map(|entries| entries.count() as u64)
        .unwrap_or(0)
}

/// Whether an open failed because the process has no descriptor left.
#[cfg(unix)]
pub(crate) fn out_of_descriptors(error: &io::Error) -> bool {
    error.raw_os_error() == Some(rustix::io::Errno::MFILE.raw_os_error())
}

/// Descriptor limits are not checked on this platform.
#[cfg(not(unix))]
pub(crate) fn nofile_limit() -> Option<u64> {
    None
}

/// Descriptor limits are not checked on this platform.
#[cfg(not(unix))]
pub(crate) fn open_descriptors() -> u64 {
    0
}

/// Descriptor limits are not checked on this platform.
#[cfg(not(unix))]
pub(crate) fn out_of_descriptors(_error: &io::Error) -> bool {
    false
}

/// Without `statx` mount ids, where a root directory is cannot be told.
#[cfg(not(target_os = "linux"))]
pub(crate) fn ancestors<T>(_dir: &T) -> io::Result<Vec<(Identity, u64)>> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "walking up from a root is implemented on Linux only",
    ))
}

/// Without `statx` mount ids, where a root directory is cannot be told.
#[cfg(not(target_os = "linux"))]
pub(crate) fn placement<T>(_dir: &T) -> io::Result<(Identity, u64)> {
    ancestors(&()).map(|_| unreachable!())
}

/// Descriptor paths, one look-up at a time ([`fd_path`]).
#[cfg(not(target_os = "linux"))]
#[derive(Debug)]
pub(crate) struct FdPaths;

#[cfg(not(target_os = "linux"))]
impl FdPaths {
    pub(crate) fn batch() -> Self {
        Self
    }

    pub(crate) fn single() -> Self {
        Self
    }

    pub(crate) fn path<T>(&mut self, file: &T) -> io::Result<std::path::PathBuf> {
        fd_path(file)
    }
}
