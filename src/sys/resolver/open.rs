//! The one-name opens a resolution is made of: entering a directory, and
//! opening the last component as `How` asks. Every open names a single
//! component with `O_NOFOLLOW`, so the kernel never follows a symlink or
//! walks `..` on our behalf; symlinks come back as [`Found::Link`] for the
//! resolution to follow (or refuse) itself.

use std::os::fd::{AsFd, OwnedFd};

use rustix::fs::{Mode, OFlags};
use rustix::io::Errno;

use super::link;
use crate::sys::How;

/// What one open found.
#[derive(Debug)]
pub(super) enum Found {
    /// The object itself.
    Opened(OwnedFd),
    /// A symlink to follow, with its body.
    Link(Vec<u8>),
}

/// Flags for entering a directory: a location handle where the platform
/// has `O_PATH` (no read permission needed, like the kernel's own walk).
#[cfg(any(target_os = "linux", target_os = "android"))]
const ENTER: OFlags = OFlags::PATH
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

/// Flags for entering a directory without `O_PATH`: read-only (so a
/// directory without read permission cannot be entered, unlike in the
/// kernel's walk), never blocking.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const ENTER: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::NONBLOCK)
    .union(OFlags::CLOEXEC);

/// Enters the directory `name` of `dir`: `ENOTDIR` if it is anything but
/// a directory or a symlink.
pub(super) fn enter(dir: impl AsFd, name: &[u8]) -> rustix::io::Result<Found> {
    match rustix::fs::openat(&dir, name, ENTER, Mode::empty()) {
        Ok(fd) => Ok(Found::Opened(fd)),
        Err(errno) if hints_at_link(errno) => match link::body_at(&dir, name)? {
            Some(body) => Ok(Found::Link(body)),
            None => Err(errno),
        },
        Err(errno) => Err(errno),
    }
}

/// What the last component must be, beyond `How`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Last {
    /// A trailing `/`: a directory, and a symlink is followed even when
    /// `How` says not to (the kernel's rule).
    pub(super) trailing_slash: bool,
}

/// Opens the last component `name` of `dir` as `how` says.
pub(super) fn last(
    dir: impl AsFd,
    name: &[u8],
    how: &How,
    last: Last,
) -> rustix::io::Result<Found> {
    let mut flags = how.oflags() | OFlags::NOFOLLOW;
    if last.trailing_slash {
        if flags.contains(OFlags::CREATE) {
            return Err(Errno::ISDIR); // the kernel's answer to `name/` with O_CREAT
        }
        flags |= OFlags::DIRECTORY;
    }
    let opened = rustix::fs::openat(&dir, name, flags, how.mode());
    if !(how.follows_last() || last.trailing_slash) {
        // The flags are the caller's own, O_NOFOLLOW included: the kernel's
        // answer is the answer.
        return opened.map(Found::Opened);
    }
    match opened {
        Ok(fd) => followed_location(fd, flags),
        Err(errno) if hints_at_link(errno) => match link::body_at(&dir, name)? {
            Some(body) => Ok(Found::Link(body)),
            None => Err(errno),
        },
        Err(errno) => Err(errno),
    }
}

/// An `O_PATH | O_NOFOLLOW` open succeeds on a symlink (it opens the link
/// itself), so a location handle that is to be followed is checked.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn followed_location(fd: OwnedFd, flags: OFlags) -> rustix::io::Result<Found> {
    use rustix::fs::FileType;
    if !flags.contains(OFlags::PATH) || flags.contains(OFlags::DIRECTORY) {
        return Ok(Found::Opened(fd));
    }
    if FileType::from_raw_mode(rustix::fs::fstat(&fd)?.st_mode) == FileType::Symlink {
        return Ok(Found::Link(link::body_of(&fd)?));
    }
    Ok(Found::Opened(fd))
}

/// Without `O_PATH`, an `O_NOFOLLOW` open of a symlink fails: what opened
/// is not a link.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn followed_location(fd: OwnedFd, _flags: OFlags) -> rustix::io::Result<Found> {
    Ok(Found::Opened(fd))
}

/// Whether an `O_NOFOLLOW` open failed in a way a symlink causes: `ELOOP`
/// (`EMLINK` on FreeBSD and DragonFly, `EFTYPE` on NetBSD), or `ENOTDIR`
/// under `O_DIRECTORY`.
fn hints_at_link(errno: Errno) -> bool {
    #[cfg(any(target_os = "freebsd", target_os = "dragonfly"))]
    if errno == Errno::MLINK {
        return true;
    }
    #[cfg(target_os = "netbsd")]
    if errno == Errno::FTYPE {
        return true;
    }
    matches!(errno, Errno::LOOP | Errno::NOTDIR)
}

/// Reopens the directory `dir` itself as `how` says: the last component
/// was `.` or `..`. The kernel answers for `.` exactly as for a final dot
/// it resolved (`EISDIR` for a write, `EEXIST` for `O_CREAT | O_EXCL`).
pub(super) fn reopen(dir: impl AsFd, how: &How) -> rustix::io::Result<OwnedFd> {
    rustix::fs::openat(dir, ".", how.oflags(), how.mode())
}
