//! The operations beneath one root's directory handle. Callers have already
//! chosen the root; everything here is relative to `root.dir`, so the kernel
//! (or cap-std's fallback) guarantees the result lies beneath it.

use std::fs::{File, Metadata};

use crate::read_dir::ReadDir;
use crate::root::Root;
use crate::scoped::ScopedPath;
use crate::sys::{self, Access, How, Kind};
use crate::{Error, ErrorKind, Operation};

/// Opens a regular file beneath `root` as `how` says.
pub(crate) fn open_file(
    root: &Root,
    rel: &str,
    how: &How,
    op: Operation,
    input: &str,
) -> Result<File, Error> {
    let file = sys::open_beneath(&root.dir, rel, how).map_err(|e| Error::from_os(e, op, input))?;
    match sys::kind_of(&file).map_err(|e| Error::from_os(e, op, input))? {
        Kind::File => {}
        Kind::Dir => {
            return Err(
                Error::new(ErrorKind::NotARegularFile, op, input).with_detail("is a directory")
            );
        }
        Kind::Special => return Err(Error::new(ErrorKind::NotARegularFile, op, input)),
    }
    sys::clear_nonblock(&file, how).map_err(|e| Error::from_os(e, op, input))?;
    Ok(file)
}

/// Opens a directory beneath `root` for listing.
pub(crate) fn read_dir(root: &Root, rel: &str, input: &str) -> Result<ReadDir, Error> {
    let how = How {
        directory: true,
        ..How::default()
    };
    let op = Operation::ReadDir;
    let file = sys::open_beneath(&root.dir, rel, &how).map_err(|e| Error::from_os(e, op, input))?;
    ReadDir::new(file).map_err(|e| Error::from_os(e, op, input))
}

/// Metadata of the object beneath `root`, following symlinks.
pub(crate) fn metadata(root: &Root, rel: &str, input: &str) -> Result<Metadata, Error> {
    let how = How {
        access: Access::Path,
        ..How::default()
    };
    let op = Operation::Metadata;
    sys::open_beneath(&root.dir, rel, &how)
        .and_then(|file| file.metadata())
        .map_err(|e| Error::from_os(e, op, input))
}

/// The physical location of `rel` beneath `root`. A missing target resolves
/// through its deepest existing ancestor; the missing tail must be plain
/// names. A dangling symlink resolves to the link itself.
pub(crate) fn resolve(root: &Root, rel: &str, input: &str) -> Result<ScopedPath, Error> {
    let op = Operation::Resolve;
    let fail = |e| Error::from_os(e, op, input);
    let mut existing = rel;
    let mut tail: Vec<&str> = Vec::new();
    let located = loop {
        let path = if existing.is_empty() { "." } else { existing };
        match locate(root, path, tail.is_empty()) {
            Ok(found) => break found,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !existing.is_empty() => {
                let trimmed = existing.trim_end_matches('/');
                let (parent, name) = trimmed.rsplit_once('/').unwrap_or(("", trimmed));
                if matches!(name, "." | "..") {
                    return Err(Error::new(ErrorKind::NotFound, op, input)
                        .with_detail("a missing path may not continue with '.' or '..'"));
                }
                if !name.is_empty() {
                    tail.push(name);
                }
                existing = parent;
            }
            Err(e) => return Err(fail(e)),
        }
    };
    let mut physical = physical_rel(root, &located, input)?;
    for name in tail.iter().rev() {
        if !physical.is_empty() {
            physical.push('/');
        }
        physical.push_str(name);
    }
    Ok(ScopedPath::new(root.id, root.path.clone(), physical))
}

/// Opens `path` as a location handle; when `last` is set and the target is
/// missing, falls back to the name itself (a dangling symlink).
fn locate(root: &Root, path: &str, last: bool) -> std::io::Result<File> {
    let how = How {
        access: Access::Path,
        ..How::default()
    };
    match sys::open_beneath(&root.dir, path, &how) {
        Err(e) if last && e.kind() == std::io::ErrorKind::NotFound => {
            let link = How {
                nofollow: true,
                ..how
            };
            sys::open_beneath(&root.dir, path, &link).map_err(|_| e)
        }
        result => result,
    }
}

/// The path of an open location relative to the root's physical path.
fn physical_rel(root: &Root, located: &File, input: &str) -> Result<String, Error> {
    let op = Operation::Resolve;
    let path = sys::fd_path(located).map_err(|e| Error::from_os(e, op, input))?;
    let Ok(rel) = path.strip_prefix(&root.resolved) else {
        return Err(Error::new(ErrorKind::RootGone, op, input)
            .with_detail("the root is no longer at its path"));
    };
    rel.to_str()
        .map(str::to_owned)
        .ok_or_else(|| Error::new(ErrorKind::Io, op, input).with_detail("path is not UTF-8"))
}
