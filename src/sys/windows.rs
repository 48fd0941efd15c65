//! Windows: opens beneath a directory handle through cap-std
//! (`NtCreateFile` relative to the handle, each component resolved by
//! cap-std, `..` never above the start), the changes to one name in an
//! open directory (cap-std's `create_dir` and `remove_*`, and `MoveFileExW`
//! for renames, which may refuse to replace), identities (volume
//! serial number and file index), link counts, descriptor paths
//! (`GetFinalPathNameByHandleW`, through winx) and the Windows error table.
//!
//! cap-std performs the changes by path (and so does [`rename_at`]): the
//! parent directory's final path joined with one plain name. That is safe because cap-std opens every
//! directory handle without `FILE_SHARE_DELETE`: while the library holds a
//! root or a parent directory, Windows refuses to rename or delete it, so
//! the path keeps naming the directory that was opened beneath the root.
//! (The same share mode keeps a user from renaming a shared folder while a
//! server holds it as a root.)
//!
//! Not available, and refused rather than run weaker: the hardening that
//! refuses symlinks or mount points during resolution (cap-std has no
//! such mode on Windows). Descriptor limits do not apply.

// One call has no safe wrapper in the crates at hand: `MoveFileExW` with
// the flags chosen here (std and cap-std always replace, and do not write
// through), in `move_file` below, with its SAFETY comment.
#![allow(unsafe_code)]

use std::fs::File;
use std::io;
use std::os::windows::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use cap_fs_ext::{DirExt, MetadataExt};
use cap_std::fs::{Dir, Metadata};
use cap_std::io_lifetimes::AsFilelike;
use windows_sys::Win32::Foundation as codes;

use super::{Folding, How, Identity, Kind, OsReason, Stat};

/// The longest path Windows takes, in UTF-16 units (the extended-length
/// limit); the parser checks it in units (`parse::windows`).
pub(crate) const PATH_MAX: usize = 32_767;
/// The longest name (one path component), in UTF-16 units.
pub(crate) const NAME_MAX: usize = 255;

/// `ERROR_DIRECTORY_NOT_SUPPORTED`: a file operation met a directory.
const ERROR_DIRECTORY_NOT_SUPPORTED: u32 = 336;

/// The error of a file operation on a directory (`EISDIR` on Unix).
fn is_a_directory() -> io::Error {
    io::Error::from_raw_os_error(ERROR_DIRECTORY_NOT_SUPPORTED as i32)
}

/// The metadata of an open file or directory, with its volume serial
/// number, file index and link count (read from the handle).
fn metadata(file: &impl AsFilelike) -> io::Result<Metadata> {
    Metadata::from_file(&file.as_filelike_view::<File>())
}

/// Creates the directory `name` in `dir`.
pub(crate) fn mkdir_at(dir: &Dir, name: &str) -> io::Result<()> {
    dir.create_dir(name)
}

/// Removes `name` from `dir`: a directory (or a directory symlink) when
/// `kind` is [`Kind::Dir`], otherwise a file or a symlink itself. A real
/// directory removed as a file is refused, as `unlinkat` refuses it.
pub(crate) fn unlink_at(dir: &Dir, name: &str, kind: Kind) -> io::Result<()> {
    if kind == Kind::Dir {
        return dir.remove_dir(name);
    }
    let meta = dir.symlink_metadata(name)?;
    if meta.is_dir() && !meta.file_type().is_symlink() {
        return Err(is_a_directory());
    }
    dir.remove_file_or_symlink(name)
}

/// Renames `from_dir/from` to `to_dir/to` with `MoveFileExW`, written
/// through to the disk before it returns (`MOVEFILE_WRITE_THROUGH`: what
/// the `fsync` of the directory is on Unix). With `replace` false an
/// existing destination is refused by the system, atomically (no
/// `MOVEFILE_REPLACE_EXISTING`; cap-std's and std's `rename` always
/// replace). The paths are the directories' final paths joined with one
/// plain name each, as cap-std's own `rename` builds them.
pub(crate) fn rename_at(
    from_dir: &Dir,
    from: &str,
    to_dir: &Dir,
    to: &str,
    replace: bool,
) -> io::Result<()> {
    use windows_sys::Win32::Storage::FileSystem::{
        MOVEFILE_REPLACE_EXISTING, MOVEFILE_WRITE_THROUGH,
    };
    let from = joined(from_dir, from)?;
    let to = joined(to_dir, to)?;
    let mut flags = MOVEFILE_WRITE_THROUGH;
    if replace {
        flags |= MOVEFILE_REPLACE_EXISTING;
    }
    move_file(&from, &to, flags)
}

/// Nothing to do: every rename is written through ([`rename_at`]).
pub(crate) fn sync_dir(_dir: &Dir) -> io::Result<()> {
    Ok(())
}

/// The final path of `dir` (in its `\\?\` form, which no long path or
/// trailing character can change) joined with the plain name `name`.
fn joined(dir: &Dir, name: &str) -> io::Result<PathBuf> {
    let name = name.trim_end_matches(['/', '\\']);
    if name.is_empty() || name.contains(['/', '\\']) || matches!(name, "." | "..") {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "a rename takes one plain name in each directory",
        ));
    }
    Ok(winx::file::get_file_path(&dir.as_filelike_view::<File>())?.join(name))
}

/// `MoveFileExW(from, to, flags)`; without `MOVEFILE_REPLACE_EXISTING` it
/// fails with `ERROR_ALREADY_EXISTS` when `to` exists. Never across volumes
/// (no `MOVEFILE_COPY_ALLOWED`): `ERROR_NOT_SAME_DEVICE`.
fn move_file(from: &Path, to: &Path, flags: u32) -> io::Result<()> {
    use windows_sys::Win32::Storage::FileSystem::MoveFileExW;
    let wide = |p: &Path| -> Vec<u16> { p.as_os_str().encode_wide().chain([0]).collect() };
    let (from, to) = (wide(from), wide(to));
    // SAFETY: both arguments are NUL-terminated UTF-16 strings that live
    // until the call returns, as `MoveFileExW` requires; it keeps no
    // pointer to them.
    let moved = unsafe { MoveFileExW(from.as_ptr(), to.as_ptr(), flags) };
    if moved == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// What `dir/name` is, without following a symlink (`None` when the name
/// does not exist). Windows has no mode bits: a read-only file is `0o444`,
/// any other `0o666`.
pub(crate) fn lstat_at(dir: &Dir, name: &str) -> io::Result<Option<Stat>> {
    let meta = match dir.symlink_metadata(name) {
        Ok(meta) => meta,
        Err(e) if os_reason_of(&e) == Some(OsReason::NotFound) => return Ok(None),
        Err(e) => return Err(e),
    };
    let file_type = meta.file_type();
    let kind = if file_type.is_symlink() {
        Kind::Special
    } else {
        kind_of_type(&meta)
    };
    let mode = if meta.permissions().readonly() {
        0o444
    } else {
        0o666
    };
    Ok(Some(Stat {
        kind,
        is_link: file_type.is_symlink(),
        mode,
        id: identity_of_metadata(&meta),
    }))
}

fn os_reason_of(error: &io::Error) -> Option<OsReason> {
    error.raw_os_error().map(os_reason)
}

/// Sets the read-only attribute of an open file when `mode` grants no
/// write permission, and clears it otherwise (the only mode Windows has).
pub(crate) fn set_mode(file: &File, mode: u32) -> io::Result<()> {
    let mut permissions = file.metadata()?.permissions();
    permissions.set_readonly(mode & 0o222 == 0);
    file.set_permissions(permissions)
}

/// The permission bits [`set_mode`] would give back: `0o444` for a
/// read-only file, `0o666` otherwise (the only mode Windows has).
pub(crate) fn mode_of(file: &File) -> io::Result<u32> {
    Ok(if file.metadata()?.permissions().readonly() {
        0o444
    } else {
        0o666
    })
}

/// The number of hard links to an open file.
pub(crate) fn link_count(file: &File) -> io::Result<u64> {
    Ok(metadata(file)?.nlink())
}

/// Whether an open was refused because its path leads outside the root,
/// in a way a walk across the roots could take up: never on Windows, where
/// cap-std's refusal stands (links are not followed across roots).
pub(crate) fn led_outside(_error: &io::Error) -> bool {
    false
}

/// Following links across roots is not available on Windows: the refusal
/// of the open beneath one root stands ([`led_outside`] is never true).
pub(crate) fn open_across(
    _roots: &dyn super::RootMap,
    _start: super::RootRef<'_>,
    _rel: &str,
    _how: &How,
) -> io::Result<super::Landed> {
    Err(io::Error::new(
        io::ErrorKind::PermissionDenied,
        "a path led outside of its root",
    ))
}

/// Opens `rel` beneath `dir` through cap-std. The hardening that refuses
/// symlinks or mount points is refused rather than run weaker.
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
            "refusing symlinks or mount crossings is not available on Windows",
        ));
    }
    let location = how.directory || how.access == Access::Path;
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
        // A directory handle: FILE_FLAG_BACKUP_SEMANTICS, no FILE_SHARE_DELETE.
        .maybe_dir(location)
        .follow(if how.follows_last() {
            FollowSymlinks::Yes
        } else {
            FollowSymlinks::No
        });
    let file = match dir.open_with(rel, &options) {
        Ok(file) => file.into_std(),
        // A data open of a directory is refused with ERROR_ACCESS_DENIED:
        // say what it is (`EISDIR` on Unix).
        Err(e)
            if !location
                && e.raw_os_error() == Some(codes::ERROR_ACCESS_DENIED as i32)
                && dir.metadata(rel).is_ok_and(|m| m.is_dir()) =>
        {
            return Err(is_a_directory());
        }
        Err(e) => return Err(e),
    };
    if how.directory && !file.metadata()?.is_dir() {
        return Err(io::Error::from_raw_os_error(codes::ERROR_DIRECTORY as i32));
    }
    Ok(file)
}

fn kind_of_type(meta: &Metadata) -> Kind {
    if meta.is_file() {
        Kind::File
    } else if meta.is_dir() {
        Kind::Dir
    } else {
        Kind::Special
    }
}

/// The type and length of an open file.
pub(crate) fn kind_of(file: &File) -> io::Result<(Kind, u64)> {
    let meta = metadata(file)?;
    Ok((kind_of_type(&meta), meta.len()))
}

fn identity_of_metadata(meta: &Metadata) -> Identity {
    Identity {
        dev: meta.dev(),
        ino: meta.ino(),
    }
}

/// The identity of an open file or directory: its volume's serial number
/// and its file index.
pub(crate) fn identity(file: &impl AsFilelike) -> io::Result<Identity> {
    Ok(identity_of_metadata(&metadata(file)?))
}

/// The identity of the directory a path names now (following symlinks).
pub(crate) fn identity_of_path(path: &str) -> io::Result<Identity> {
    identity(&Dir::open_ambient_dir(path, cap_std::ambient_authority())?)
}

/// Windows compares names case-insensitively.
pub(crate) fn folding(_dir: &Dir) -> Folding {
    Folding::Case
}

/// What a Windows error code means for the checks.
pub(crate) fn os_reason(code: i32) -> OsReason {
    let Ok(code) = u32::try_from(code) else {
        return OsReason::Other;
    };
    match code {
        codes::ERROR_FILE_NOT_FOUND
        | codes::ERROR_PATH_NOT_FOUND
        | codes::ERROR_BAD_NETPATH
        | codes::ERROR_BAD_NET_NAME
        | codes::ERROR_INVALID_DRIVE => OsReason::NotFound,
        codes::ERROR_FILE_EXISTS | codes::ERROR_ALREADY_EXISTS => OsReason::Exists,
        codes::ERROR_ACCESS_DENIED
        | codes::ERROR_SHARING_VIOLATION
        | codes::ERROR_LOCK_VIOLATION
        | codes::ERROR_WRITE_PROTECT
        | codes::ERROR_PRIVILEGE_NOT_HELD => OsReason::Denied,
        codes::ERROR_DIRECTORY => OsReason::NotADirectory,
        codes::ERROR_STOPPED_ON_SYMLINK | codes::ERROR_CANT_RESOLVE_FILENAME => OsReason::Loop,
        codes::ERROR_FILENAME_EXCED_RANGE
        | codes::ERROR_INVALID_NAME
        | codes::ERROR_BAD_PATHNAME => OsReason::NameTooLong,
        ERROR_DIRECTORY_NOT_SUPPORTED => OsReason::NotRegular,
        _ => OsReason::Other,
    }
}

/// Descriptor limits do not apply on Windows (handles are not counted
/// against a small per-process limit).
pub(crate) fn nofile_limit() -> Option<u64> {
    None
}

/// Descriptor limits do not apply on Windows.
pub(crate) fn open_descriptors() -> u64 {
    0
}

/// Descriptor limits do not apply on Windows.
pub(crate) fn out_of_descriptors(_error: &io::Error) -> bool {
    false
}

/// Whether `error` says the two ends of a rename are on different volumes
/// (`ERROR_NOT_SAME_DEVICE`).
pub(crate) fn is_cross_device(error: &io::Error) -> bool {
    error.raw_os_error() == Some(codes::ERROR_NOT_SAME_DEVICE as i32)
}

/// The path Windows reports for an open file or directory now
/// (`GetFinalPathNameByHandleW`), without the `\\?\` prefix: `C:\a\b`, or
/// `\\server\share\x` for a UNC path.
pub(crate) fn fd_path(file: &impl AsFilelike) -> io::Result<PathBuf> {
    let path = winx::file::get_file_path(&file.as_filelike_view::<File>())?;
    Ok(without_verbatim(path))
}

/// `path` without the `\\?\` (or `\\?\UNC\`) prefix of a final path.
fn without_verbatim(path: PathBuf) -> PathBuf {
    let Some(text) = path.to_str() else {
        return path;
    };
    if let Some(unc) = text.strip_prefix(r"\\?\UNC\") {
        return PathBuf::from(format!(r"\\{unc}"));
    }
    match text.strip_prefix(r"\\?\") {
        Some(plain) => PathBuf::from(plain),
        None => path,
    }
}

/// The name the entry `name` of `dir` has on disk, when `name` reaches it
/// under another spelling that no folding of names knows: an 8.3 short
/// name (`SECRE~1`, or Wine's `_ENV~3EE`), which Windows resolves to the
/// entry it abbreviates. `None` when `name` names no entry, or names it
/// as it is. Every short name Windows and Wine generate holds a `~`, so
/// only such names are looked up (one open and one final path).
pub(crate) fn name_on_disk(dir: &Dir, name: &str) -> io::Result<Option<String>> {
    if !name.contains('~') {
        return Ok(None);
    }
    let how = How {
        nofollow: true,
        ..How::location(false, Default::default())
    };
    let entry = match open_beneath(dir, name, &how) {
        Ok(entry) => entry,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let path = fd_path(&entry)?;
    let long = path.file_name().and_then(|n| n.to_str()).ok_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidData, "an entry's name is not UTF-8")
    })?;
    Ok((long != name).then(|| long.to_owned()))
}

/// The physical path of an open root directory: its final path.
pub(crate) fn resolved_path(dir: &Dir, _given: &str) -> io::Result<PathBuf> {
    fd_path(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_paths_lose_their_verbatim_prefix() {
        for (final_path, plain) in [
            (r"\\?\C:\Users\a", r"C:\Users\a"),
            (r"\\?\UNC\server\share\x", r"\\server\share\x"),
            (r"C:\x", r"C:\x"),
        ] {
            assert_eq!(
                without_verbatim(PathBuf::from(final_path)),
                Path::new(plain)
            );
        }
    }

    #[test]
    fn error_codes() {
        for (code, reason) in [
            (codes::ERROR_FILE_NOT_FOUND, OsReason::NotFound),
            (codes::ERROR_PATH_NOT_FOUND, OsReason::NotFound),
            (codes::ERROR_ACCESS_DENIED, OsReason::Denied),
            (codes::ERROR_SHARING_VIOLATION, OsReason::Denied),
            (codes::ERROR_FILE_EXISTS, OsReason::Exists),
            (codes::ERROR_ALREADY_EXISTS, OsReason::Exists),
            (codes::ERROR_DIRECTORY, OsReason::NotADirectory),
            (codes::ERROR_STOPPED_ON_SYMLINK, OsReason::Loop),
            (codes::ERROR_NOT_SAME_DEVICE, OsReason::Other),
            (codes::ERROR_DIR_NOT_EMPTY, OsReason::Other),
        ] {
            assert_eq!(os_reason(code as i32), reason, "{code}");
        }
        assert_eq!(
            os_reason(ERROR_DIRECTORY_NOT_SUPPORTED as i32),
            OsReason::NotRegular
        );
        assert_eq!(os_reason(-1), OsReason::Other);
    }

    fn tree() -> (tempfile::TempDir, Dir) {
        let tmp = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(tmp.path().join("d")).unwrap();
        std::fs::write(tmp.path().join("f.txt"), "x").unwrap();
        let dir = Dir::open_ambient_dir(tmp.path(), cap_std::ambient_authority()).unwrap();
        (tmp, dir)
    }

    #[test]
    fn identities_name_one_object() {
        let (tmp, dir) = tree();
        let again = identity_of_path(tmp.path().to_str().unwrap()).unwrap();
        assert_eq!(identity(&dir).unwrap(), again);
        let file = std::fs::File::open(tmp.path().join("f.txt")).unwrap();
        let stat = lstat_at(&dir, "f.txt").unwrap().expect("exists");
        assert_eq!(stat.id, identity(&file).unwrap());
        assert_eq!(stat.kind, Kind::File);
        assert_ne!(stat.id, identity(&dir).unwrap());
        assert_eq!(lstat_at(&dir, "d").unwrap().unwrap().kind, Kind::Dir);
        assert!(lstat_at(&dir, "missing").unwrap().is_none());
        assert_eq!(link_count(&file).unwrap(), 1);
        std::fs::hard_link(tmp.path().join("f.txt"), tmp.path().join("g.txt")).unwrap();
        assert_eq!(link_count(&file).unwrap(), 2);
    }

    #[test]
    fn descriptor_paths_are_final_paths() {
        let (tmp, dir) = tree();
        let expected = without_verbatim(std::fs::canonicalize(tmp.path()).unwrap());
        assert_eq!(fd_path(&dir).unwrap(), expected);
        let file = open_beneath(&dir, "d/../f.txt", &How::default()).unwrap();
        assert_eq!(fd_path(&file).unwrap(), expected.join("f.txt"));
    }

    #[test]
    fn changes_to_one_name() {
        let (tmp, dir) = tree();
        mkdir_at(&dir, "new").unwrap();
        assert!(tmp.path().join("new").is_dir());
        assert_eq!(
            os_reason_of(&mkdir_at(&dir, "new").unwrap_err()),
            Some(OsReason::Exists)
        );
        rename_at(&dir, "f.txt", &dir, "new/g.txt", false).unwrap_err();
        std::fs::write(tmp.path().join("h.txt"), "y").unwrap();
        let refused = rename_at(&dir, "f.txt", &dir, "h.txt", false).unwrap_err();
        assert_eq!(os_reason_of(&refused), Some(OsReason::Exists));
        assert_eq!(std::fs::read(tmp.path().join("h.txt")).unwrap(), b"y");
        rename_at(&dir, "f.txt", &dir, "i.txt", false).unwrap();
        rename_at(&dir, "i.txt", &dir, "h.txt", true).unwrap();
        assert_eq!(std::fs::read(tmp.path().join("h.txt")).unwrap(), b"x");
        let on_dir = unlink_at(&dir, "d", Kind::File).unwrap_err();
        assert_eq!(os_reason_of(&on_dir), Some(OsReason::NotRegular));
        unlink_at(&dir, "h.txt", Kind::File).unwrap();
        unlink_at(&dir, "d", Kind::Dir).unwrap();
        assert!(!tmp.path().join("d").exists() && !tmp.path().join("h.txt").exists());
    }

    #[test]
    fn opens_stay_beneath_the_directory() {
        let (_tmp, dir) = tree();
        // cap-std's escape error: no OS code, "permission denied" (the
        // error layer's `outside_roots`).
        let escape = open_beneath(&dir, "../x", &How::default()).unwrap_err();
        assert_eq!(escape.kind(), io::ErrorKind::PermissionDenied);
        assert_eq!(escape.raw_os_error(), None);
        let data_open_of_dir = open_beneath(&dir, "d", &How::default()).unwrap_err();
        assert_eq!(os_reason_of(&data_open_of_dir), Some(OsReason::NotRegular));
        let how = How {
            directory: true,
            ..How::default()
        };
        let file_as_dir = open_beneath(&dir, "f.txt", &how).unwrap_err();
        assert_eq!(os_reason_of(&file_as_dir), Some(OsReason::NotADirectory));
    }
}
