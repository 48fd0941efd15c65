//! Platform facade: opening beneath a directory handle, the identity of an
//! open file, and the path the kernel reports for a descriptor.
//!
//! # Platform behavior
//!
//! - Linux: `openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)` directly, one
//!   syscall per open; kernels without `openat2` (before 5.6, or a seccomp
//!   filter answering `ENOSYS`) fall back to cap-std's component-by-component
//!   resolution. Descriptor paths come from `/proc/self/fd`.
//! - Other Unix: cap-std's resolution (it uses `openat2`-like checks where
//!   the platform has them, and its manual walk elsewhere).
//! - Windows: the crate compiles, but roots are rejected (`io`): the
//!   semantics have not been written or tested for Windows paths.

use crate::ErrorKind;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(not(unix))]
mod other;
mod portable;
#[cfg(unix)]
mod unix;

#[cfg(not(unix))]
pub(crate) use other::{
    NAME_MAX, PATH_MAX, link_count, lstat_at, mkdir_at, rename_at, set_mode, unlink_at,
};
#[cfg(unix)]
pub(crate) use unix::{
    NAME_MAX, PATH_MAX, link_count, lstat_at, mkdir_at, rename_at, set_mode, unlink_at,
};

#[cfg(target_os = "linux")]
pub(crate) use linux::{FdPaths, ancestors, fd_path, open_beneath, placement};
#[cfg(not(target_os = "linux"))]
pub(crate) use portable::{FdPaths, ancestors, fd_path, open_beneath, placement};
pub(crate) use portable::{
    Identity, Kind, identity, identity_of_path, kind_of, nofile_limit, open_descriptors,
    out_of_descriptors,
};

use crate::hardening::Hardening;
use crate::options::Create;

/// What a single open asks of the kernel.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct How {
    pub(crate) access: Access,
    pub(crate) append: bool,
    pub(crate) truncate: bool,
    pub(crate) create: Create,
    /// Require a directory (`O_DIRECTORY`).
    pub(crate) directory: bool,
    /// Do not follow a symlink in the last component (`O_NOFOLLOW`).
    pub(crate) nofollow: bool,
    /// The root set's opt-in resolution restrictions.
    pub(crate) hardening: Hardening,
}

/// What `lstat` says of one name in a directory ([`lstat_at`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stat {
    /// The object's own kind (a symlink is [`Kind::Special`] with `is_link`).
    pub(crate) kind: Kind,
    pub(crate) is_link: bool,
    /// The mode bits below the file type (`0o7777`).
    pub(crate) mode: u32,
    pub(crate) id: Identity,
}

/// The access mode of an open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Access {
    #[default]
    Read,
    Write,
    ReadWrite,
    /// No data access: a location handle (`O_PATH` on Linux).
    Path,
}

impl How {
    pub(crate) fn writes(&self) -> bool {
        matches!(self.access, Access::Write | Access::ReadWrite) || self.append
    }

    /// A location-only open (`O_PATH`), of a directory when `directory`.
    pub(crate) fn location(directory: bool, hardening: Hardening) -> Self {
        Self {
            access: Access::Path,
            directory,
            hardening,
            ..Self::default()
        }
    }
}

/// Maps an OS error code to a reason.
pub(crate) fn classify_errno(code: i32) -> ErrorKind {
    portable::classify_errno(code)
}
