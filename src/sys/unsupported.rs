//! Platforms without the Unix calls (Windows): opens through cap-std,
//! every mutation and every identity unsupported, so roots are rejected
//! (see the facade's docs).

use std::fs::File;
use std::io;

use cap_std::fs::Dir;

use super::{How, Identity, Kind, OsReason, Stat};

/// The longest path taken, in bytes (the extended-length limit; roots are
/// rejected on this platform anyway).
pub(crate) const PATH_MAX: usize = 32_767;
/// The longest name (one path component), in bytes.
pub(crate) const NAME_MAX: usize = 255;

fn unsupported<T>() -> io::Result<T> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "this operation is implemented on Unix only",
    ))
}

pub(crate) fn mkdir_at<D>(_: &D, _: &str) -> io::Result<()> {
    unsupported()
}

pub(crate) fn unlink_at<D>(_: &D, _: &str, _: Kind) -> io::Result<()> {
    unsupported()
}

pub(crate) fn rename_at<D, E>(_: &D, _: &str, _: &E, _: &str, _: bool) -> io::Result<()> {
    unsupported()
}

pub(crate) fn lstat_at<D>(_: &D, _: &str) -> io::Result<Option<Stat>> {
    unsupported()
}

pub(crate) fn set_mode(_: &File, _: u32) -> io::Result<()> {
    unsupported()
}

pub(crate) fn link_count(_: &File) -> io::Result<u64> {
    unsupported()
}

/// Opens `rel` beneath `dir` through cap-std (roots are rejected on these
/// platforms anyway). The opt-in hardening is refused rather than run
/// weaker.
pub(crate) fn open_beneath(dir: &Dir, rel: &str, how: &How) -> io::Result<File> {
    use cap_fs_ext::{FollowSymlinks, OpenOptionsFollowExt, OpenOptionsMaybeDirExt};
    use cap_std::fs::OpenOptions;

    use super::Access;
    use crate::options::Create;
    use crate::options::hardening::{MountPoints, Symlinks};

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

/// The type of an open file.
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

/// Root identity is not implemented on this platform.
pub(crate) fn identity_of_path(_path: &str) -> io::Result<Identity> {
    identity(&())
}

/// Root identity is not implemented on this platform.
pub(crate) fn identity<T>(_file: &T) -> io::Result<Identity> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "root identity is implemented on Unix only",
    ))
}

/// What an OS error code means for the checks.
pub(crate) fn os_reason(code: i32) -> OsReason {
    match io::Error::from_raw_os_error(code).kind() {
        io::ErrorKind::NotFound => OsReason::NotFound,
        io::ErrorKind::AlreadyExists => OsReason::Exists,
        io::ErrorKind::PermissionDenied => OsReason::Denied,
        io::ErrorKind::NotADirectory => OsReason::NotADirectory,
        io::ErrorKind::IsADirectory => OsReason::NotRegular,
        _ => OsReason::Other,
    }
}

/// Windows compares names case-insensitively.
pub(crate) fn folding(_dir: &Dir) -> super::Folding {
    super::Folding::Case
}

/// Descriptor limits are not checked on this platform.
pub(crate) fn nofile_limit() -> Option<u64> {
    None
}

/// Descriptor limits are not checked on this platform.
pub(crate) fn open_descriptors() -> u64 {
    0
}

/// Descriptor limits are not checked on this platform.
pub(crate) fn out_of_descriptors(_error: &io::Error) -> bool {
    false
}

/// Whether `error` says the two ends of a rename are on different volumes
/// (`ERROR_NOT_SAME_DEVICE`).
pub(crate) fn is_cross_device(error: &io::Error) -> bool {
    error.raw_os_error() == Some(17)
}
