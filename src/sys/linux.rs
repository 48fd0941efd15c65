//! Linux: `openat2` with `RESOLVE_BENEATH`, and `/proc/self/fd`.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd};
use std::path::PathBuf;

use cap_std::fs::Dir;
use rustix::fs::{Mode, OFlags, ResolveFlags, openat2};
use rustix::io::Errno;

use super::{Access, How, portable};
use crate::hardening::{MountPoints, Symlinks};
use crate::options::Create;

/// How many times to retry `openat2` when it reports `EAGAIN` (a concurrent
/// rename somewhere on the system) before giving up with an error.
const EAGAIN_RETRIES: usize = 32;

/// Opens `rel` beneath `dir`; the result never lies outside `dir`.
///
/// Data opens carry `O_NONBLOCK` so that a FIFO never blocks before the
/// caller can refuse it; Linux ignores the flag for regular files, so it is
/// left set rather than cleared with an extra syscall.
pub(crate) fn open_beneath(dir: &Dir, rel: &str, how: &How) -> io::Result<File> {
    let oflags = oflags(how);
    let mut resolve = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
    if how.hardening.symlinks == Symlinks::Refuse {
        resolve |= ResolveFlags::NO_SYMLINKS;
    }
    if how.hardening.mount_points == MountPoints::Refuse {
        resolve |= ResolveFlags::NO_XDEV;
    }
    // openat2 refuses a mode without O_CREAT (EINVAL).
    let mode = match how.create {
        Create::No => Mode::empty(),
        Create::New | Create::OrOpen => Mode::from_raw_mode(0o666),
    };
    for _ in 0..EAGAIN_RETRIES {
        match openat2(dir.as_fd(), rel, oflags, mode, resolve) {
            Ok(fd) => return Ok(File::from(fd)),
            Err(Errno::AGAIN | Errno::INTR) => continue,
            Err(Errno::NOSYS) => return portable::open_beneath(dir, rel, how),
            Err(errno) => return Err(errno.into()),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::ResourceBusy,
        "openat2 kept reporting EAGAIN under concurrent renames",
    ))
}

fn oflags(how: &How) -> OFlags {
    let data = OFlags::CLOEXEC | OFlags::NOCTTY | OFlags::NONBLOCK;
    // openat2 refuses O_PATH with flags other than these (EINVAL).
    let mut flags = match how.access {
        Access::Read => data | OFlags::RDONLY,
        Access::Write => data | OFlags::WRONLY,
        Access::ReadWrite => data | OFlags::RDWR,
        Access::Path => OFlags::CLOEXEC | OFlags::PATH,
    };
    if how.append {
        flags |= OFlags::APPEND;
    }
    if how.truncate {
        flags |= OFlags::TRUNC;
    }
    flags |= match how.create {
        Create::No => OFlags::empty(),
        Create::OrOpen => OFlags::CREATE,
        Create::New => OFlags::CREATE | OFlags::EXCL,
    };
    if how.directory {
        flags |= OFlags::DIRECTORY;
    }
    if how.nofollow || how.writes() || how.create != Create::No {
        flags |= OFlags::NOFOLLOW;
    }
    flags
}

/// The path the kernel currently reports for an open descriptor.
pub(crate) fn fd_path(file: &impl AsRawFd) -> io::Result<PathBuf> {
    std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd()))
}
