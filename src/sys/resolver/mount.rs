//! Which mount a handle lies on, for `MountPoints::Refuse`.
//!
//! # Platform behavior
//!
//! - Linux 5.8 and later: the mount id (`statx` `STATX_MNT_ID`), which is
//!   what `RESOLVE_NO_XDEV` compares, so a bind mount of a directory of the
//!   same file system is a crossing too.
//! - Older Linux and other Unix: the device (`st_dev`). A bind mount (or a
//!   BSD nullfs mount) of the same file system is then *not* seen as a
//!   crossing; a mount of another file system is.

use std::os::fd::AsFd;

/// The identity of a mount, as far as the platform can tell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mount {
    /// A mount id (`statx`).
    #[cfg(target_os = "linux")]
    Id(u64),
    /// A device number (`st_dev`), where mount ids are not available.
    Device(u64),
}

/// The mount that `fd` lies on.
#[cfg(target_os = "linux")]
pub(super) fn of(fd: impl AsFd) -> rustix::io::Result<Mount> {
    use rustix::fs::{AtFlags, StatxFlags};
    match rustix::fs::statx(&fd, "", AtFlags::EMPTY_PATH, StatxFlags::MNT_ID) {
        Ok(stx) if StatxFlags::from_bits_retain(stx.stx_mask).contains(StatxFlags::MNT_ID) => {
            Ok(Mount::Id(stx.stx_mnt_id))
        }
        Ok(stx) => Ok(Mount::Device(rustix::fs::makedev(
            stx.stx_dev_major,
            stx.stx_dev_minor,
        ))),
        Err(rustix::io::Errno::NOSYS) => device(fd),
        Err(errno) => Err(errno),
    }
}

/// The mount that `fd` lies on: its device.
#[cfg(not(target_os = "linux"))]
pub(super) fn of(fd: impl AsFd) -> rustix::io::Result<Mount> {
    device(fd)
}

fn device(fd: impl AsFd) -> rustix::io::Result<Mount> {
    Ok(Mount::Device(rustix::fs::fstat(fd)?.st_dev as u64))
}
