//! [`Entries`]: the entries of one open directory, read from its own
//! descriptor, one borrowed [`Entry`] at a time.
//!
//! # Platform behavior
//!
//! - Linux (`getdents.rs`): `getdents64` straight into a buffer the reader
//!   keeps, so a directory costs no second open and an entry no allocation;
//!   an entry's type is the one the directory records (`d_type`), and where
//!   the file system records none (`DT_UNKNOWN`), one `fstatat` beneath the
//!   same handle with `AT_SYMLINK_NOFOLLOW`.
//! - Elsewhere (`portable.rs`): cap-std's listing of the handle (which
//!   opens the directory once more to read it, and allocates each name).
//!
//! Either way `.` and `..` are left out, a symlink is reported as one and
//! never followed, and a reader that met an error reads no further.

#[cfg(target_os = "linux")]
mod getdents;
#[cfg(not(target_os = "linux"))]
mod portable;

use std::ffi::OsStr;

use cap_std::fs::Dir;

#[cfg(target_os = "linux")]
pub(crate) use getdents::Entries;
#[cfg(not(target_os = "linux"))]
pub(crate) use portable::Entries;

/// What a directory entry is, without following a symlink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EntryKind {
    File,
    Dir,
    Symlink,
    /// A FIFO, socket or device.
    Other,
}

/// One entry of the directory an [`Entries`] reads, borrowed from the
/// reader until its next step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<'a> {
    /// The entry's name within its directory (never `.` or `..`).
    pub(crate) name: &'a OsStr,
    pub(crate) kind: EntryKind,
    /// The directory read, to open the entry beneath.
    pub(crate) dir: &'a Dir,
}

#[cfg(test)]
mod tests;
