//! Whole-file writes that a concurrent reader sees as old or new content,
//! never torn: a temporary file beside the target, written and synced, then
//! renamed over (or, for a copy, renamed into place without replacing).

use std::fs::File;
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};

use cap_std::fs::Dir;

use crate::mutate::{Overwrite, parent_and_name};
use crate::options::Create;
use crate::sys::{self, Access, How, Kind};
use crate::target::Selected;
use crate::{Error, ErrorKind, Operation};

/// Replaces the content of the selected file with `data` atomically,
/// creating it if missing and keeping the permission bits of a file it
/// replaces. A symlink, directory or special file at the name is refused.
pub(crate) fn write_atomic(sel: &Selected, data: &[u8]) -> Result<(), Error> {
    let op = Operation::WriteAtomic;
    let (parent, name) = parent_and_name(sel, op)?;
    let fail = |e| Error::from_os(e, op, sel.input);
    let mode = match sys::lstat_at(&parent, name).map_err(fail)? {
        None => None,
        Some((_, _, true)) => {
            return Err(Error::new(ErrorKind::SymlinkLoop, op, sel.input)
                .with_detail("refusing to replace a symbolic link"));
        }
        Some((Kind::File, mode, false)) => Some(mode),
        Some(_) => return Err(Error::new(ErrorKind::NotARegularFile, op, sel.input)),
    };
    publish(sel, &parent, name, op, Overwrite::Replace, |file| {
        file.write_all(data)?;
        if let Some(mode) = mode {
            sys::set_mode(file, mode)?;
        }
        Ok(())
    })
}

/// Copies `from` to the new name `to` (never replacing an existing one).
/// Returns the number of bytes copied.
pub(crate) fn copy(from: &Selected, to: &Selected) -> Result<u64, Error> {
    let op = Operation::Copy;
    let how = How::default();
    let mut source = crate::ops::open_file(from, &how, op)?;
    let (parent, name) = parent_and_name(to, op)?;
    let mut copied = 0;
    publish(to, &parent, name, op, Overwrite::Refuse, |file| {
        copied = io::copy(&mut source, file)?;
        Ok(())
    })?;
    Ok(copied)
}

/// Fills a fresh temporary file in `parent`, syncs it, and renames it to
/// `name`; on any failure the temporary file is removed.
fn publish(
    sel: &Selected,
    parent: &Dir,
    name: &str,
    op: Operation,
    overwrite: Overwrite,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<(), Error> {
    let fail = |e| Error::from_os(e, op, sel.input);
    let (mut file, temp) = create_temp(parent, sel).map_err(fail)?;
    let written = fill(&mut file)
        .and_then(|()| file.sync_all())
        .and_then(|()| {
            sys::rename_at(parent, &temp, parent, name, overwrite == Overwrite::Replace)
        });
    if let Err(e) = written {
        let _ = sys::unlink_at(parent, &temp, Kind::File);
        return Err(fail(e));
    }
    sync_dir(parent).map_err(fail)
}

/// Creates an unused temporary name in `parent` with `O_EXCL|O_NOFOLLOW`.
fn create_temp(parent: &Dir, sel: &Selected) -> io::Result<(File, String)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let how = How {
        access: Access::Write,
        create: Create::New,
        hardening: sel.root.hardening,
        ..How::default()
    };
    const ATTEMPTS: usize = 64;
    for _ in 0..ATTEMPTS {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = format!(".mcp-roots.{}.{n}.tmp", std::process::id());
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

/// Makes the rename durable: fsync of the directory.
fn sync_dir(parent: &Dir) -> io::Result<()> {
    let how = How {
        directory: true,
        ..How::default()
    };
    sys::open_beneath(parent, ".", &how)?.sync_all()
}
