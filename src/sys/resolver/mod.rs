//! The library's own resolution beneath a directory handle: a walk, one
//! component at a time, from the handle down, with every open naming a
//! single component under `O_NOFOLLOW`. It gives the answers (errno for
//! errno) of `openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)`, plus
//! `RESOLVE_NO_SYMLINKS` and `RESOLVE_NO_XDEV` under the hardening, where
//! `openat2` is missing: Linux before 5.6, a seccomp filter, macOS and the
//! BSDs.
//!
//! # The walk
//!
//! A [`Resolution`](state::Resolution) is the explicit state: the start
//! handle (never left), the handles of the directories entered below it
//! (their number is the depth), the components still to resolve (a stack
//! onto which a followed symlink pushes its body), the symlink budget (40,
//! as Linux), the trailing-`/` demand and the mount that
//! `MountPoints::Refuse` pins. [`step`](state::Resolution::step) resolves
//! one component and says whether to go on, what it opened, or that the
//! path leads outside ([`Escape`](state::Escape)), leaving the state as it
//! stood. [`open_beneath`] drives the steps and turns an escape into
//! `EXDEV`, the answer `openat2` gives.
//!
//! - A name that is not last is entered with `O_DIRECTORY | O_NOFOLLOW`
//!   (`O_PATH` where it exists); a symlink there is followed unless the
//!   hardening refuses symlinks (`ELOOP`).
//! - `..` pops the last entered handle; at depth 0 it is an escape. It is
//!   never looked up on disk, so a directory moved meanwhile cannot carry
//!   the walk out.
//! - The last component is opened with the caller's flags plus
//!   `O_NOFOLLOW`; data opens carry `O_NONBLOCK`, so a FIFO opens (and is
//!   refused by the caller) or fails at once, and never blocks. A symlink
//!   there is followed only where `How` follows one (reads, not writes or
//!   creates), or after a trailing `/`, as in the kernel. A final `.` or
//!   `..` reopens the directory reached.
//! - An absolute symlink is an escape; a magic link of procfs is `ELOOP`.
//! - Under `MountPoints::Refuse` each handle's mount is compared with the
//!   start's (see [`mount`] for what each platform compares).
//!
//! # Across roots
//!
//! Following a path across roots (a symlink or a `..` that leaves its root
//! and lands in another root of the set, or back in its own) is a driver
//! over the same steps ([`across`]): on
//! [`Step::Escaped`](state::Step::Escaped) the state still holds the
//! components after the escape and the symlink budget
//! ([`Resolution::into_rest`](state::Resolution::into_rest)), so the driver
//! picks the root the path lands in and goes on from that root's handle
//! with the same remaining components and budget
//! ([`Resolution::resume`](state::Resolution::resume)), instead of
//! answering `EXDEV`.
//!
//! # Platform behavior
//!
//! Linux uses `O_PATH` for directories and location opens, `statx` mount
//! ids and `fstatfs` (procfs magic links). Other Unix systems open
//! directories read-only (a directory with search but no read permission
//! cannot be passed through, unlike in the kernel's walk), a location open
//! is a non-blocking read-only open, and mounts are told apart by device.

pub(crate) mod across;
mod components;
mod link;
mod mount;
mod open;
mod state;

use std::fs::File;
use std::io;
use std::os::fd::AsFd;

use rustix::io::Errno;
use state::{Resolution, Step};

use super::How;

/// Opens `rel` beneath `dir` as `how` says, resolving it component by
/// component; the result never lies outside `dir`.
pub(crate) fn open_beneath(dir: &impl AsFd, rel: &str, how: &How) -> io::Result<File> {
    if rel.starts_with('/') {
        return Err(Errno::XDEV.into()); // an absolute path leads outside
    }
    let mut resolution = Resolution::new(dir.as_fd(), rel, *how)?;
    loop {
        match resolution.step()? {
            Step::Continue => {}
            Step::Opened(fd) => return Ok(File::from(fd)),
            Step::Escaped(escape) => return Err(escape.errno().into()),
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests;
