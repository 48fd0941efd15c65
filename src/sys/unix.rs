//! Unix (Linux included): the `*at` calls that act on one name in an
//! already-open directory (opened beneath a root, so a single plain name
//! cannot lead out of it), identities, the errno table, descriptor limits
//! and link counts.

use std::fs::File;
use std::io;
use std::os::fd::AsFd;

use rustix::fs::{AtFlags, FileType, Mode, RawMode};

use super::{Identity, Kind, OsReason, Stat};

/// The longest path the kernel takes, counting its terminating NUL: a path
/// of `PATH_MAX` bytes or more fails with `ENAMETOOLONG`.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) const PATH_MAX: usize = 4096;
/// The longest path the kernel takes, counting its terminating NUL (macOS
/// and the BSDs).
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) const PATH_MAX: usize = 1024;
/// The longest name (one path component), in bytes.
pub(crate) const NAME_MAX: usize = 255;

pub(crate) fn mkdir_at(dir: &impl AsFd, name: &str) -> io::Result<()> {
    rustix::fs::mkdirat(dir, name, Mode::from_raw_mode(0o777)).map_err(Into::into)
}

pub(crate) fn unlink_at(dir: &impl AsFd, name: &str, kind: Kind) -> io::Result<()> {
    let flags = if kind == Kind::Dir {
        AtFlags::REMOVEDIR
    } else {
        AtFlags::empty()
    };
    rustix::fs::unlinkat(dir, name, flags).map_err(Into::into)
}

/// Renames `from_dir/from` to `to_dir/to`; with `replace` false the kernel
/// refuses an existing destination (`RENAME_NOREPLACE`), atomically.
pub(crate) fn rename_at(
    from_dir: &impl AsFd,
    from: &str,
    to_dir: &impl AsFd,
    to: &str,
    replace: bool,
) -> io::Result<()> {
    if replace {
        return rustix::fs::renameat(from_dir, from, to_dir, to).map_err(Into::into);
    }
    no_replace(from_dir, from, to_dir, to)
}

#[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
fn no_replace(from_dir: &impl AsFd, from: &str, to_dir: &impl AsFd, to: &str) -> io::Result<()> {
    use rustix::fs::RenameFlags;
    rustix::fs::renameat_with(from_dir, from, to_dir, to, RenameFlags::NOREPLACE)
        .map_err(Into::into)
}

#[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple")))]
fn no_replace(_: &impl AsFd, _: &str, _: &impl AsFd, _: &str) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "an atomic no-replace rename is not available on this platform",
    ))
}

/// What `dir/name` is, without following a symlink (`None` when the name
/// does not exist).
// The types of `st_mode`, `st_dev` and `st_ino` differ between platforms
// (u16 and i32 on macOS): the conversions are not useless everywhere.
#[allow(clippy::useless_conversion, clippy::unnecessary_cast)]
pub(crate) fn lstat_at(dir: &impl AsFd, name: &str) -> io::Result<Option<Stat>> {
    match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) => {
            let file_type = FileType::from_raw_mode(stat.st_mode);
            let kind = match file_type {
                FileType::RegularFile => Kind::File,
                FileType::Directory => Kind::Dir,
                _ => Kind::Special,
            };
            Ok(Some(Stat {
                kind,
                is_link: file_type == FileType::Symlink,
                mode: u32::from(stat.st_mode) & 0o7777,
                id: Identity {
                    dev: stat.st_dev as u64,
                    ino: stat.st_ino as u64,
                },
            }))
        }
        Err(rustix::io::Errno::NOENT) => Ok(None),
        Err(errno) => Err(errno.into()),
    }
}

/// Sets the mode bits of an open file (`fchmod`).
pub(crate) fn set_mode(file: &File, mode: u32) -> io::Result<()> {
    let mode = Mode::from_bits_truncate(mode as RawMode);
    rustix::fs::fchmod(file, mode).map_err(Into::into)
}

/// The permission bits of an open file (`0o7777`, from one `fstat`).
#[allow(clippy::useless_conversion, clippy::unnecessary_cast)]
pub(crate) fn mode_of(file: &File) -> io::Result<u32> {
    Ok(u32::from(rustix::fs::fstat(file)?.st_mode) & 0o7777)
}

pub(crate) fn link_count(file: &File) -> io::Result<u64> {
    Ok(rustix::fs::fstat(file)?.st_nlink as u64)
}

/// The type and length of an open file, from one `fstat`.
pub(crate) fn kind_of(file: &File) -> io::Result<(Kind, u64)> {
    use rustix::fs::FileType;
    let stat = rustix::fs::fstat(file)?;
    let kind = match FileType::from_raw_mode(stat.st_mode) {
        FileType::RegularFile => Kind::File,
        FileType::Directory => Kind::Dir,
        _ => Kind::Special,
    };
    Ok((kind, u64::try_from(stat.st_size).unwrap_or(0)))
}

/// The identity of an open file or directory.
pub(crate) fn identity(file: &impl std::os::fd::AsFd) -> io::Result<Identity> {
    let stat = rustix::fs::fstat(file)?;
    Ok(Identity {
        dev: stat.st_dev as u64,
        ino: stat.st_ino as u64,
    })
}

/// The identity of the directory a path names now (following symlinks).
pub(crate) fn identity_of_path(path: &str) -> io::Result<Identity> {
    let stat = rustix::fs::stat(path)?;
    Ok(Identity {
        dev: stat.st_dev as u64,
        ino: stat.st_ino as u64,
    })
}

pub(crate) fn os_reason(code: i32) -> OsReason {
    use rustix::io::Errno;
    match Errno::from_raw_os_error(code) {
        Errno::XDEV => OsReason::CrossDevice,
        Errno::LOOP => OsReason::Loop,
        Errno::NOTDIR => OsReason::NotADirectory,
        Errno::NOENT => OsReason::NotFound,
        Errno::EXIST => OsReason::Exists,
        Errno::ACCESS | Errno::PERM => OsReason::Denied,
        Errno::NXIO | Errno::ISDIR => OsReason::NotRegular,
        Errno::NAMETOOLONG => OsReason::NameTooLong,
        _ => OsReason::Other,
    }
}

/// The soft `RLIMIT_NOFILE`, where it can be told.
pub(crate) fn nofile_limit() -> Option<u64> {
    rustix::process::getrlimit(rustix::process::Resource::Nofile).current
}

/// The number of descriptors open in this process (0 where it cannot be
/// told).
pub(crate) fn open_descriptors() -> u64 {
    std::fs::read_dir("/proc/self/fd")
        .or_else(|_| std::fs::read_dir("/dev/fd"))
        .map(|entries| entries.count() as u64)
        .unwrap_or(0)
}

/// Whether an open failed because the process has no descriptor left.
pub(crate) fn out_of_descriptors(error: &io::Error) -> bool {
    error.raw_os_error() == Some(rustix::io::Errno::MFILE.raw_os_error())
}

/// How the volume of `dir` compares names: byte for byte (Linux and the
/// BSDs; a case-insensitive file system mounted there, such as a FAT volume
/// or an ext4 directory with the casefold attribute, is treated as
/// case-sensitive, so a differently cased spelling of its root is refused).
#[cfg(not(target_vendor = "apple"))]
pub(crate) fn folding(_dir: &cap_std::fs::Dir) -> super::Folding {
    super::Folding::Exact
}

/// Makes the renames in `dir` durable: `fsync` of the directory, reopened
/// for reading (`dir` may be a location handle, which `fsync` refuses).
pub(crate) fn sync_dir(dir: &cap_std::fs::Dir) -> io::Result<()> {
    let how = super::How {
        directory: true,
        ..super::How::default()
    };
    super::open_beneath(dir, ".", &how)?.sync_all()
}

/// Whether `error` is `EXDEV` (two file systems, for a rename).
pub(crate) fn is_cross_device(error: &io::Error) -> bool {
    error.raw_os_error() == Some(rustix::io::Errno::XDEV.raw_os_error())
}

/// Whether an open beneath a root was refused because the path leads
/// outside it (`EXDEV`, from `openat2(RESOLVE_BENEATH)` or the resolver): the
/// one answer after which a walk across the roots of the set may run.
pub(crate) fn led_outside(error: &io::Error) -> bool {
    error.raw_os_error() == Some(rustix::io::Errno::XDEV.raw_os_error())
}
