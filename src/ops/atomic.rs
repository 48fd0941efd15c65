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
use crate::ops::mutate::Leaf;
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
    let mut source = crate::ops::open::open_file(from, &how, op)?.file;
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
    refuse_dir_demand(to, op, ErrorKind::AlreadyExists)?;
    let leaf = Leaf::open(to, op)?;
    let mut copied = 0;
    publish(to, &leaf, leaf.name, op, Overwrite::Refuse, |file| {
        sys::set_mode(file, mode)?;
        copied = io::copy(&mut source, file)?;
        file.set_times(times)
    })?;
    Ok(copied)
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
