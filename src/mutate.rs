//! Directory-changing operations beneath a root: each one opens the parent
//! directory beneath the root's handle, then acts on one plain name in it
//! with a `*at` call, so no path is ever re-resolved after a check.

use cap_std::fs::Dir;

use crate::ops::open_raw;
use crate::sys::{self, How, Kind};
use crate::target::Selected;
use crate::{Error, ErrorKind, Operation};

/// The parent directory of the selected path, opened beneath its root, and
/// the last component, which must be a plain name.
pub(crate) fn parent_and_name<'s>(
    sel: &'s Selected,
    op: Operation,
) -> Result<(Dir, &'s str), Error> {
    let rel = sel.rel().trim_end_matches('/');
    let (parent, name) = rel.rsplit_once('/').unwrap_or((".", rel));
    let parent = if parent.is_empty() { "." } else { parent };
    match name {
        "" | "." if parent == "." => {
            return Err(Error::new(ErrorKind::OutsideRoots, op, sel.input)
                .with_detail("names the root itself"));
        }
        "" | "." | ".." => {
            return Err(Error::new(ErrorKind::NotFound, op, sel.input)
                .with_detail("the last component must be a name, not '.' or '..'"));
        }
        _ => {}
    }
    let dir = open_raw(sel, parent, How::location(true, Default::default()), op)?;
    Ok((Dir::from_std_file(dir), name))
}

/// Creates one directory; its parent must exist.
pub(crate) fn create_dir(sel: &Selected) -> Result<(), Error> {
    let op = Operation::CreateDir;
    let (parent, name) = parent_and_name(sel, op)?;
    sys::mkdir_at(&parent, name).map_err(|e| Error::from_os(e, op, sel.input))
}

/// Creates a directory and its missing ancestors, one component at a time
/// beneath the root, refusing any component that is a symlink. The existing
/// part is walked first and the missing tail must be plain names, so a
/// refused call creates nothing.
pub(crate) fn create_dir_all(sel: &Selected) -> Result<(), Error> {
    let op = Operation::CreateDir;
    let fail = |e| {
        Error::from_os(e, op, sel.input)
            .with_detail("every component must be a directory, not a symlink")
    };
    let how = How {
        nofollow: true,
        ..How::location(true, sel.root.hardening)
    };
    let components: Vec<&str> = sel
        .rel()
        .split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    // The existing part: opened (not created) component by component.
    let mut stack: Vec<Dir> = Vec::new();
    let mut missing = components.as_slice();
    while let Some((&component, rest)) = missing.split_first() {
        if component == ".." {
            if stack.pop().is_none() {
                return Err(Error::new(ErrorKind::OutsideRoots, op, sel.input));
            }
        } else {
            let current = stack.last().unwrap_or(&sel.root.dir);
            match sys::open_beneath(current, component, &how) {
                Ok(dir) => stack.push(Dir::from_std_file(dir)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
                Err(e) => return Err(fail(e)),
            }
        }
        missing = rest;
    }
    if missing.contains(&"..") {
        return Err(Error::new(ErrorKind::NotFound, op, sel.input)
            .with_detail("a missing path may not continue with '..'"));
    }
    // The missing tail: plain names, created in order.
    for &component in missing {
        let current = stack.last().unwrap_or(&sel.root.dir);
        match sys::mkdir_at(current, component) {
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(fail(e)),
            _ => {}
        }
        let dir = sys::open_beneath(current, component, &how).map_err(fail)?;
        stack.push(Dir::from_std_file(dir));
    }
    Ok(())
}

/// Removes a file (or a symlink itself); a directory is refused.
pub(crate) fn remove_file(sel: &Selected) -> Result<(), Error> {
    remove(sel, Kind::File)
}

/// Removes an empty directory.
pub(crate) fn remove_dir(sel: &Selected) -> Result<(), Error> {
    remove(sel, Kind::Dir)
}

fn remove(sel: &Selected, kind: Kind) -> Result<(), Error> {
    let op = Operation::Remove;
    let (parent, name) = parent_and_name(sel, op)?;
    sys::unlink_at(&parent, name, kind).map_err(|e| Error::from_os(e, op, sel.input))
}

/// Whether a rename may replace an existing destination.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Overwrite {
    /// Refuse an existing destination, atomically (`RENAME_NOREPLACE`):
    /// `already_exists`. The default.
    #[default]
    Refuse,
    /// Replace an existing destination.
    Replace,
}

/// Renames `from` to `to`, both beneath roots (possibly two roots on the
/// same file system).
pub(crate) fn rename(from: &Selected, to: &Selected, overwrite: Overwrite) -> Result<(), Error> {
    let op = Operation::Rename;
    let (from_dir, from_name) = parent_and_name(from, op)?;
    let (to_dir, to_name) = parent_and_name(to, op)?;
    let replace = overwrite == Overwrite::Replace;
    sys::rename_at(&from_dir, from_name, &to_dir, to_name, replace).map_err(|e| {
        if e.raw_os_error() == Some(EXDEV) {
            // Here EXDEV means two file systems, not an escape.
            Error::with_source(ErrorKind::Io, e, op, from.input)
                .with_detail("source and destination are on different file systems")
        } else {
            Error::from_os(e, op, from.input)
        }
    })
}

#[cfg(unix)]
const EXDEV: i32 = rustix::io::Errno::XDEV.raw_os_error();
#[cfg(not(unix))]
const EXDEV: i32 = 17; // ERROR_NOT_SAME_DEVICE
