//! Linux: `openat2` with `RESOLVE_BENEATH`, and `/proc/self/fd`.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use cap_std::fs::Dir;
use rustix::fs::{AtFlags, Mode, OFlags, ResolveFlags, StatxFlags, makedev, openat2, statx};
use rustix::io::Errno;

use super::{How, Identity, resolver};
use crate::options::hardening::{MountPoints, Symlinks};

/// How many times to retry `openat2` when it reports `EAGAIN` (a concurrent
/// rename somewhere on the system) before giving up with an error.
const EAGAIN_RETRIES: usize = 32;

/// Set once `openat2` has answered `ENOSYS`: from then on every open takes
/// the portable resolution without asking the kernel again (a system call
/// that was missing does not appear later in the same process).
static OPENAT2_MISSING: AtomicBool = AtomicBool::new(false);

/// Opens `rel` beneath `dir`; the result never lies outside `dir`.
///
/// Data opens carry `O_NONBLOCK` so that a FIFO never blocks before the
/// caller can refuse it; Linux ignores the flag for regular files, so it is
/// left set rather than cleared with an extra syscall. Without `openat2`
/// (`ENOSYS`: before Linux 5.6, or a seccomp filter) the open is the
/// portable resolution's, with the same answers.
pub(crate) fn open_beneath(dir: &Dir, rel: &str, how: &How) -> io::Result<File> {
    if OPENAT2_MISSING.load(Ordering::Relaxed) {
        return resolver::open_beneath(dir, rel, how);
    }
    let mut resolve = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
    if how.hardening.symlinks == Symlinks::Refuse {
        resolve |= ResolveFlags::NO_SYMLINKS;
    }
    if how.hardening.mount_points == MountPoints::Refuse {
        resolve |= ResolveFlags::NO_XDEV;
    }
    for _ in 0..EAGAIN_RETRIES {
        match openat2(dir.as_fd(), rel, how.oflags(), how.mode(), resolve) {
            Ok(fd) => return Ok(File::from(fd)),
            Err(Errno::AGAIN | Errno::INTR) => continue,
            Err(Errno::NOSYS) => {
                OPENAT2_MISSING.store(true, Ordering::Relaxed);
                return resolver::open_beneath(dir, rel, how);
            }
            Err(errno) => return Err(errno.into()),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::ResourceBusy,
        "openat2 kept reporting EAGAIN under concurrent renames",
    ))
}

/// The path the kernel currently reports for an open descriptor.
pub(crate) fn fd_path(file: &impl AsRawFd) -> io::Result<PathBuf> {
    std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd()))
}

/// Where an open directory is: its identity and the id of the mount it was
/// reached through (`statx`, Linux 5.8+ for the mount id).
pub(crate) fn placement(dir: &impl AsFd) -> io::Result<(Identity, u64)> {
    let mask = StatxFlags::INO | StatxFlags::MNT_ID;
    let stx = statx(dir, "", AtFlags::EMPTY_PATH, mask)?;
    if !StatxFlags::from_bits_retain(stx.stx_mask).contains(mask) {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "statx reports no mount id (Linux before 5.8)",
        ));
    }
    let id = Identity {
        dev: makedev(stx.stx_dev_major, stx.stx_dev_minor),
        ino: stx.stx_ino,
    };
    Ok((id, stx.stx_mnt_id))
}

/// Deeper than this, [`ancestors`] gives up (no real tree is this deep).
const MAX_ANCESTORS: usize = 4096;

/// The directories above the open directory `dir`, innermost first, up to
/// the top of the file system (whose `..` is itself), each with
/// [`placement`]. They are found with `openat(..)` from the descriptor:
/// where the directory *is* now, whatever its path says.
pub(crate) fn ancestors(dir: &impl AsFd) -> io::Result<Vec<(Identity, u64)>> {
    let up = |from: &dyn AsFd| {
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        rustix::fs::openat(from.as_fd(), "..", flags, Mode::empty())
    };
    let mut here = placement(dir)?;
    let mut parent = up(dir)?;
    let mut out = Vec::new();
    loop {
        let there = placement(&parent)?;
        if there == here {
            return Ok(out);
        }
        if out.len() == MAX_ANCESTORS {
            return Err(io::Error::other("too many directories above a root"));
        }
        out.push(there);
        here = there;
        parent = up(&parent)?;
    }
}

/// Reads descriptor paths through one open `/proc/self/fd` (a `readlinkat`
/// per descriptor instead of a `readlink` that walks `/proc/self/fd/N` from
/// the top each time). Meant for one batch: a fork does not inherit the
/// batch, so the directory is never another process's.
#[derive(Debug)]
pub(crate) struct FdPaths {
    dir: Option<OwnedFd>,
    /// Open `/proc/self/fd` at the first look-up.
    open: bool,
    buf: Vec<u8>,
}

impl FdPaths {
    /// For a batch of look-ups: opens `/proc/self/fd` once, at the first
    /// (if that fails, each look-up falls back to [`fd_path`]).
    pub(crate) fn batch() -> Self {
        Self {
            dir: None,
            open: true,
            buf: Vec::new(),
        }
    }

    /// For a single look-up: [`fd_path`].
    pub(crate) fn single() -> Self {
        Self {
            dir: None,
            open: false,
            buf: Vec::new(),
        }
    }

    /// The path the kernel reports for `file` now.
    pub(crate) fn path(&mut self, file: &impl AsRawFd) -> io::Result<PathBuf> {
        if std::mem::take(&mut self.open) {
            let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
            self.dir = rustix::fs::open("/proc/self/fd", flags, Mode::empty()).ok();
        }
        let Some(dir) = &self.dir else {
            return fd_path(file);
        };
        let mut name = [0u8; 20];
        let name = decimal(file.as_raw_fd().unsigned_abs(), &mut name);
        let link = rustix::fs::readlinkat(dir, name, std::mem::take(&mut self.buf))?;
        let mut bytes = link.into_bytes();
        let path = PathBuf::from(std::ffi::OsStr::from_bytes(&bytes));
        bytes.clear();
        self.buf = bytes;
        Ok(path)
    }
}

/// `n` in decimal, in `buf`.
fn decimal(mut n: u32, buf: &mut [u8; 20]) -> &str {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[at..]).unwrap_or("")
}

/// The physical path of an open root directory, from `/proc/self/fd`.
pub(crate) fn resolved_path(dir: &Dir, _given: &str) -> io::Result<PathBuf> {
    fd_path(dir)
}
