//! Whole-file writes that a concurrent reader sees as old or new content,
//! never torn: a temporary file beside the target, written and synced, then
//! renamed over (or, for a copy, renamed into place without replacing,
//! with the source's permission bits and times).
//!
//! The new file is created by the server's user: it keeps the permission
//! bits (`0o777`) of a file it replaces, never the set-user-ID, set-group-ID
//! or sticky bits, which would otherwise survive a change of owner. Its
//! temporary name is random (64 bits), so that no one can make the call
//! fail by creating the names in advance.

use std::collections::hash_map::RandomState;
use std::fs::{File, FileTimes};
use std::hash::BuildHasher;
use std::io::{self, Write};

use cap_std::fs::Dir;

use crate::error::{Error, ErrorKind, Operation};
use crate::ops::mutate::{self, Leaf, Renamed};
use crate::ops::open::refuse_dir_demand;
use crate::options::Create;
use crate::options::Overwrite;
use crate::options::hardening::Hardening;
use crate::root::{Selected, Writable};
use crate::sys;
use crate::sys::{Access, How, Kind};

/// The mode bits a replacement keeps: permissions only, never set-user-ID,
/// set-group-ID or sticky.
const KEPT_MODE: u32 = 0o777;

/// Replaces the content of the selected file with `data` atomically,
/// creating it if missing and keeping the permission bits (only) of a file
/// it replaces. A symlink, directory or special file at the name is
/// refused, and so is a name given with a trailing `/`.
pub(crate) fn write_atomic(sel: &Writable, data: &[u8]) -> Result<(), Error> {
    let op = Operation::WriteAtomic;
    refuse_dir_demand(sel, op, ErrorKind::NotARegularFile)?;
    let leaf = Leaf::open(sel, op)?;
    let mode = match leaf.stat(sel, op)? {
        None => None,
        Some(stat) if stat.is_link => {
            return Err(Error::new(ErrorKind::SymlinkLoop, op, sel.input)
                .with_detail("refusing to replace a symbolic link"));
        }
        Some(stat) if stat.kind == Kind::File => Some(stat.mode & KEPT_MODE),
        Some(_) => return Err(Error::new(ErrorKind::NotARegularFile, op, sel.input)),
    };
    publish(sel, &leaf, leaf.name, op, Overwrite::Replace, |file| {
        file.write_all(data)?;
        if let Some(mode) = mode {
            sys::set_mode(file, mode)?;
        }
        Ok(())
    })
}

/// Copies `from` to the new name `to` (never replacing an existing one).
/// Returns the number of bytes copied. The copy keeps the source's
/// permission bits (`0o777` only, as [`write_atomic`] keeps them) and its
/// access and modification times; the bits are given to the temporary
/// file before any byte is written, so the content is never readable
/// under a wider mode than the source's.
pub(crate) fn copy(from: &Selected, to: &Writable) -> Result<u64, Error> {
    let op = Operation::Copy;
    let how = How::default();
    let source = crate::ops::open::open_file(from, &how, op)?.file;
    refuse_dir_demand(to, op, ErrorKind::AlreadyExists)?;
    let leaf = Leaf::open(to, op)?;
    copy_into(source, from, to, &leaf, op, Overwrite::Refuse).map(|(copied, _)| copied)
}

/// Publishes a copy of the open `source` at the leaf's name, with its
/// permission bits and times: the bits are given to the temporary file
/// before any byte is written, so the content is never readable under a
/// wider mode than the source's. Returns the bytes copied and the
/// identity of the copy.
fn copy_into(
    mut source: File,
    from: &Selected,
    to: &Writable,
    leaf: &Leaf,
    op: Operation,
    overwrite: Overwrite,
) -> Result<(u64, sys::Identity), Error> {
    let fail = |e| Error::from_os(e, op, from.input);
    let mode = sys::mode_of(&source).map_err(fail)? & KEPT_MODE;
    let meta = source.metadata().map_err(fail)?;
    let mut times = FileTimes::new();
    if let Ok(accessed) = meta.accessed() {
        times = times.set_accessed(accessed);
    }
    if let Ok(modified) = meta.modified() {
        times = times.set_modified(modified);
    }
    let mut copied = 0;
    let mut made = None;
    publish(to, leaf, leaf.name, op, overwrite, |file| {
        sys::set_mode(file, mode)?;
        copied = io::copy(&mut source, file)?;
        made = Some(sys::identity(&*file)?);
        file.set_times(times)
    })?;
    let made = made.ok_or_else(|| Error::new(ErrorKind::Io, op, to.input))?;
    Ok((copied, made))
}

/// Moves `from` to `to` by rename; where the two lie on different file
/// systems, a regular file is copied as [`copy`] copies it (published
/// atomically, mode and times kept, replacing `to` only when `overwrite`
/// says so) and its name removed, only while that name is still the file
/// that was copied. A directory, a symlink or a special file is not moved
/// across file systems. A copy whose source cannot be removed is removed
/// again, so that a failed move leaves one file, where it was.
pub(crate) fn move_file(from: &Writable, to: &Writable, overwrite: Overwrite) -> Result<(), Error> {
    let op = Operation::Rename;
    let (error, source, target, moved) = match mutate::rename_within(from, to, overwrite)? {
        Renamed::Done => return Ok(()),
        Renamed::Across {
            error,
            source,
            target,
            moved,
        } => (error, source, target, moved),
    };
    let refuse =
        |detail: &'static str| Err(mutate::across_devices(error, op, from).with_detail(detail));
    let Some(stat) = moved else {
        return Err(Error::new(ErrorKind::NotFound, op, from.input));
    };
    if stat.kind == Kind::Dir && !stat.is_link {
        return refuse(
            "a directory is not moved across file systems: create it at the destination and move its files one at a time",
        );
    }
    if stat.is_link || stat.kind != Kind::File {
        return refuse("only a regular file is moved across file systems (copied, then removed)");
    }
    let how = How {
        nofollow: true,
        hardening: source.hardening,
        ..How::default()
    };
    let fail = |e| Error::from_os(e, op, from.input);
    let file = sys::open_beneath(&source.parent, source.name, &how).map_err(fail)?;
    if sys::identity(&file).map_err(fail)? != stat.id {
        return Err(Error::new(ErrorKind::Io, op, from.input)
            .with_detail("the source was replaced while it was being moved; nothing was moved"));
    }
    let (_, made) = copy_into(file, from, to, &target, op, overwrite)?;
    let still = sys::lstat_at(&source.parent, source.name).map_err(fail)?;
    let removed = match still {
        Some(now) if now.id == stat.id && !now.is_link => {
            sys::unlink_at(&source.parent, source.name, Kind::File).map_err(fail)
        }
        _ => Err(Error::new(ErrorKind::Io, op, from.input).with_detail(
            "the source was replaced during the move; the copy was removed and the source left as it is",
        )),
    };
    if let Err(e) = removed {
        // Only the copy this move made is taken back.
        if let Ok(Some(now)) = sys::lstat_at(&target.parent, target.name)
            && now.id == made
        {
            let _ = sys::unlink_at(&target.parent, target.name, Kind::File);
        }
        return Err(e);
    }
    sys::sync_dir(&source.parent).map_err(fail)
}

/// Fills a fresh temporary file in the leaf's parent, syncs it, and
/// renames it to `name`; on any failure the temporary file is removed.
fn publish(
    sel: &Writable,
    leaf: &Leaf,
    name: &str,
    op: Operation,
    overwrite: Overwrite,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<(), Error> {
    let fail = |e| Error::from_os(e, op, sel.input);
    let parent = &leaf.parent;
    let (mut file, temp) = create_temp(parent, leaf.hardening).map_err(fail)?;
    let written = fill(&mut file)
        .and_then(|()| file.sync_all())
        .and_then(|()| {
            sys::rename_at(parent, &temp, parent, name, overwrite == Overwrite::Replace)
        });
    if let Err(e) = written {
        let _ = sys::unlink_at(parent, &temp, Kind::File);
        return Err(fail(e));
    }
    sys::sync_dir(parent).map_err(fail)
}

/// Creates an unused temporary name in `parent` with `O_EXCL|O_NOFOLLOW`,
/// under the hardening `parent` was opened with.
fn create_temp(parent: &Dir, hardening: Hardening) -> io::Result<(File, String)> {
    let how = How {
        access: Access::Write,
        create: Create::New,
        hardening,
        ..How::default()
    };
    const ATTEMPTS: usize = 64;
    for _ in 0..ATTEMPTS {
        let temp = format!(".mcp-roots.{:016x}.tmp", random());
        match sys::open_beneath(parent, &temp, &how) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
            Ok(file) => return Ok((file, temp)),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no unused temporary name beside the target",
    ))
}

/// 64 unpredictable bits: SipHash under a fresh `RandomState` (its keys
/// come from the operating system's random source, once per thread, and
/// change with every state).
fn random() -> u64 {
    RandomState::new().hash_one(std::process::id())
}
