//! Platform facade: opening beneath a directory handle, the identity of an
//! open file, and the path the kernel reports for a descriptor.
//!
//! # Platform behavior
//!
//! - Linux: `openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)` directly, one
//!   syscall per open (`RESOLVE_NO_SYMLINKS`, `RESOLVE_NO_XDEV` under the
//!   hardening). Kernels without `openat2` (before 5.6, or a seccomp
//!   filter answering `ENOSYS`) fall back at run time, for the rest of the
//!   process, to the library's own resolution ([`resolver`]), which gives
//!   the same answers and reasons, the hardening included. Descriptor
//!   paths come from `/proc/self/fd`.
//! - Other Unix: the library's own resolution ([`resolver`]; see its
//!   platform notes for what differs without `O_PATH` and mount ids).
//!   macOS asks each root's volume whether it compares names
//!   case-insensitively (`fpathconf`) and reads descriptor paths with
//!   `F_GETPATH`; the BSDs have no descriptor paths.
//! - Windows: cap-std beneath the directory handle (`NtCreateFile`
//!   relative to it), identities from the volume serial number and file
//!   index, descriptor paths from `GetFinalPathNameByHandleW`; no
//!   descriptor limits; the hardening that refuses symlinks or mount
//!   points is refused (`windows.rs`). Paths are read in their Windows
//!   forms ([semantics 12](crate::semantics#12-windows)).
//!
//! Directories are read from the descriptor opened beneath a root
//! ([`Entries`]): with `getdents64` on Linux, cap-std's listing elsewhere.
//!
//! Confinement of the whole process to the ceiling
//! ([`crate::confine_process`]) is Landlock's on Linux (`landlock.rs`); on
//! every other platform [`restrict`] reports that there is none and
//! changes nothing.

mod entries;
mod landing;
#[cfg(target_os = "linux")]
mod landlock;
#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_vendor = "apple")]
mod macos;
#[cfg(not(target_os = "linux"))]
mod portable;
#[cfg(unix)]
mod resolver;
#[cfg(unix)]
mod unix;
#[cfg(windows)]
mod windows;

// Each function is chosen once, here.
pub(crate) use entries::{Entries, EntryKind};
#[cfg(windows)]
pub(crate) use landing::Landed;
pub(crate) use landing::{Lead, ReadOnlyLanding, RootMap, RootRef};
#[cfg(target_os = "linux")]
pub(crate) use landlock::{ALLOWANCES, restrict, threads};
#[cfg(target_os = "linux")]
pub(crate) use linux::{FdPaths, ancestors, fd_path, open_beneath, placement, resolved_path};
#[cfg(target_vendor = "apple")]
pub(crate) use macos::{fd_path, folding};
#[cfg(not(any(target_os = "linux", target_vendor = "apple", windows)))]
pub(crate) use portable::fd_path;
#[cfg(all(unix, not(target_os = "linux")))]
pub(crate) use portable::resolved_path;
#[cfg(not(target_os = "linux"))]
pub(crate) use portable::{ALLOWANCES, FdPaths, ancestors, placement, restrict, threads};
#[cfg(unix)]
pub(crate) use resolver::across::open_across;
#[cfg(all(unix, not(target_os = "linux")))]
pub(crate) use resolver::open_beneath;
#[cfg(all(unix, not(target_vendor = "apple")))]
pub(crate) use unix::folding;
#[cfg(unix)]
pub(crate) use unix::{
    NAME_MAX, PATH_MAX, identity, identity_of_path, is_cross_device, kind_of, led_outside,
    link_count, lstat_at, mkdir_at, mode_of, nofile_limit, open_descriptors, os_reason,
    out_of_descriptors, rename_at, set_mode, sync_dir, unlink_at,
};
#[cfg(windows)]
pub(crate) use windows::{
    NAME_MAX, PATH_MAX, fd_path, folding, identity, identity_of_path, is_cross_device, kind_of,
    led_outside, link_count, lstat_at, mkdir_at, mode_of, name_on_disk, nofile_limit, open_across,
    open_beneath, open_descriptors, os_reason, out_of_descriptors, rename_at, resolved_path,
    set_mode, sync_dir, unlink_at,
};

use crate::options::Create;
use crate::options::hardening::Hardening;

/// The name an entry has on disk when the name given reaches it under
/// another spelling that no folding knows (Windows' 8.3 short names); on
/// Unix a name is only ever itself (case and normalisation are folded):
/// `None`.
#[cfg(not(windows))]
pub(crate) fn name_on_disk(
    _dir: &cap_std::fs::Dir,
    _name: &str,
) -> std::io::Result<Option<String>> {
    Ok(None)
}

/// How a platform spells an absolute path: what the parse layer reads an
/// untrusted path as ([semantics 12](crate::semantics#12-windows)). Every
/// style is parsed on every platform (the parsers are pure); the platform's
/// own is [`PATH_STYLE`].
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PathStyle {
    /// `/a/b`: the Unix systems.
    Unix,
    /// `C:\a\b`, `\\server\share\x`: Windows.
    Windows,
}

/// The style of this platform's paths.
#[cfg(windows)]
pub(crate) const PATH_STYLE: PathStyle = PathStyle::Windows;
/// The style of this platform's paths.
#[cfg(not(windows))]
pub(crate) const PATH_STYLE: PathStyle = PathStyle::Unix;

/// How a volume compares names, as far as choosing a root goes
/// ([semantics 5](crate::semantics#5-containment-and-the-choice-of-root)):
/// never used to resolve a path beneath a root, which stays the kernel's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[allow(dead_code)] // each platform builds one or two; the tests fold with all
pub(crate) enum Folding {
    /// Names are compared byte for byte (Linux, case-sensitive volumes).
    #[default]
    Exact,
    /// Case-insensitively (Windows).
    Case,
    /// Case-insensitively and insensitive to Unicode normalisation (NFC and
    /// NFD spell one name: macOS case-insensitive volumes).
    CaseAndNormalization,
}

/// Makes the symbolic link `link` to the directory `target` (for the tests
/// of the layers above, which may not name a platform), when symbolic links
/// work here ([`symlinks_work`]).
#[cfg(test)]
pub(crate) fn symlink_dir(target: &std::path::Path, link: &std::path::Path) -> std::io::Result<()> {
    #[cfg(unix)]
    return std::os::unix::fs::symlink(target, link);
    #[cfg(windows)]
    return std::os::windows::fs::symlink_dir(target, link);
}

/// Whether the file watcher's removal events are only ever unlinks: inotify
/// reports a move out of a watched directory as a rename (`IN_MOVED_FROM`,
/// which notify delivers as `Modify(Name)`). Other backends report a move
/// to another directory as a removal (Windows' `ReadDirectoryChangesW`, the
/// polling watcher).
#[cfg(feature = "watch")]
pub(crate) const REMOVALS_ARE_UNLINKS: bool = cfg!(target_os = "linux");

/// Whether a directory symlink made by [`symlink_dir`] can be followed
/// here: always on Unix; on Windows only with the privilege or developer
/// mode, and not under Wine 8 (which makes links it cannot follow). The
/// tests that build symlinks run only where it holds.
#[cfg(test)]
pub(crate) fn symlinks_work() -> bool {
    static WORK: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *WORK.get_or_init(|| {
        let Ok(tmp) = tempfile::tempdir() else {
            return false;
        };
        let (target, link) = (tmp.path().join("target"), tmp.path().join("link"));
        std::fs::create_dir(&target).is_ok()
            && symlink_dir(std::path::Path::new("target"), &link).is_ok()
            && link.is_dir()
    })
}

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

    /// Whether the open may change the file or its directory: write or
    /// append access, truncation, creation.
    pub(crate) fn changes(&self) -> bool {
        self.writes() || self.truncate || self.create != Create::No
    }

    /// Whether a symlink in the last component is followed: not for a
    /// write, a create, or an explicit `nofollow`.
    pub(crate) fn follows_last(&self) -> bool {
        !(self.nofollow || self.writes() || self.create != Create::No)
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

#[cfg(unix)]
impl How {
    /// The `open` flags of the last component, as `openat2` takes them.
    ///
    /// Data opens carry `O_NONBLOCK`, so that a FIFO never blocks before
    /// the caller can refuse it.
    pub(crate) fn oflags(&self) -> rustix::fs::OFlags {
        use rustix::fs::OFlags;
        let data = OFlags::CLOEXEC | OFlags::NOCTTY | OFlags::NONBLOCK;
        let mut flags = match self.access {
            Access::Read => data | OFlags::RDONLY,
            Access::Write => data | OFlags::WRONLY,
            Access::ReadWrite => data | OFlags::RDWR,
            Access::Path => LOCATION,
        };
        if self.append {
            flags |= OFlags::APPEND;
        }
        if self.truncate {
            flags |= OFlags::TRUNC;
        }
        flags |= match self.create {
            Create::No => OFlags::empty(),
            Create::OrOpen => OFlags::CREATE,
            Create::New => OFlags::CREATE | OFlags::EXCL,
        };
        if self.directory {
            flags |= OFlags::DIRECTORY;
        }
        if !self.follows_last() {
            flags |= OFlags::NOFOLLOW;
        }
        flags
    }

    /// The mode of a created file (`openat2` refuses a mode without
    /// `O_CREAT`: EINVAL).
    pub(crate) fn mode(&self) -> rustix::fs::Mode {
        match self.create {
            Create::No => rustix::fs::Mode::empty(),
            Create::New | Create::OrOpen => rustix::fs::Mode::from_raw_mode(0o666),
        }
    }
}

/// The flags of a location-only open: `O_PATH` (which `openat2` refuses
/// with flags other than `O_CLOEXEC`, `O_DIRECTORY` and `O_NOFOLLOW`).
#[cfg(any(target_os = "linux", target_os = "android"))]
const LOCATION: rustix::fs::OFlags = rustix::fs::OFlags::CLOEXEC.union(rustix::fs::OFlags::PATH);

/// The flags of a location-only open where there is no `O_PATH`: a
/// read-only open that cannot block on a FIFO or take a terminal.
#[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
const LOCATION: rustix::fs::OFlags = rustix::fs::OFlags::CLOEXEC
    .union(rustix::fs::OFlags::NOCTTY)
    .union(rustix::fs::OFlags::NONBLOCK)
    .union(rustix::fs::OFlags::RDONLY);

/// What an open descriptor refers to, as far as the checks care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Dir,
    Special,
}

/// Device and inode of an open file: the identity a root is pinned to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Identity {
    pub(crate) dev: u64,
    pub(crate) ino: u64,
}

/// What an OS error code means for the checks (the error layer maps it to
/// a reason).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(windows, allow(dead_code))] // Windows reports no EXDEV-like escape
pub(crate) enum OsReason {
    /// `EXDEV`: a beneath-resolution led outside, or a mount was crossed.
    CrossDevice,
    /// `ELOOP`.
    Loop,
    /// `ENOTDIR`.
    NotADirectory,
    /// `ENOENT`.
    NotFound,
    /// `EEXIST`.
    Exists,
    /// `EACCES`, `EPERM`.
    Denied,
    /// `ENXIO`, `EISDIR`: not a regular file.
    NotRegular,
    /// `ENAMETOOLONG`.
    NameTooLong,
    /// Anything else.
    Other,
}

/// One ceiling directory the kernel is asked to leave open to the process
/// ([`restrict`]): read and write beneath it when `write`, else read only.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))] // only Landlock reads them
pub(crate) struct Grant<'a> {
    pub(crate) dir: &'a cap_std::fs::Dir,
    pub(crate) write: bool,
}

/// What the kernel must at least enforce for [`restrict`] to go ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Floor {
    /// Whatever it can (nothing, without Landlock).
    BestEffort,
    /// Landlock ABI 3 (renames and links across directories, truncation),
    /// else an `Unsupported` error and no change.
    Abi3,
}

/// What [`restrict`] got the kernel to enforce.
#[derive(Clone, Debug, Default)]
pub(crate) struct Restricted {
    /// The kernel's Landlock ABI, if it has Landlock.
    pub(crate) abi: Option<u32>,
    /// The access rights the kernel now refuses outside the grants.
    pub(crate) handled: Vec<&'static str>,
    /// The rights the library asks for that the kernel does not handle
    /// (all of them without Landlock).
    pub(crate) missing: Vec<&'static str>,
}

/// Something outside the ceiling that a process confined by
/// [`confine_process`](crate::confine_process) keeps access to, because
/// the library itself opens it there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Allowance {
    /// The path, as the kernel is asked for it.
    pub path: &'static str,
    /// The rights kept there (the kernel's names, lowercase).
    pub access: &'static str,
    /// Why the process needs it.
    pub why: &'static str,
}
