//! The reading operations beneath one root's directory handle. The root is
//! already chosen ([`Selected`]); everything here is relative to its
//! directory, so the kernel (or the library's own resolver) guarantees the
//! result lies beneath it, or, for a path that a symlink or a `..` leads
//! into another root of the set, beneath that root ([`open_landed`]).

use std::fs::{File, Metadata};

use crate::error::{Error, ErrorKind, Operation};
use crate::ops::read_dir::ReadDir;
use crate::ops::shared::{open_changing, open_judged};
use crate::ops::walk::{Walk, WalkLimits};
use crate::options::hardening::{HardLinks, Hardening};
use crate::options::{Create, OpenOptions};
use crate::root::Root;
use crate::root::ScopedPath;
use crate::root::Selected;
use crate::root::shared::{Intent, judge};
use crate::root::writable::read_only;
use crate::sys;
use crate::sys::{Access, How, Kind};

/// What an open beneath a selected root reached, and beneath which root.
#[derive(Debug)]
pub(crate) struct Opened<'s> {
    pub(crate) file: File,
    /// The root the object lies beneath: the selected one, or the root a
    /// walk across the roots of the set landed in.
    pub(crate) root: &'s Root,
    /// The hardening that judged the open: the stricter of every root the
    /// resolution went through.
    pub(crate) hardening: Hardening,
    /// The caller asked for `O_TRUNC` and it was left to the caller, to do
    /// once it has judged the file by the root it landed in.
    pub(crate) truncate_pending: bool,
}

/// Opens `rel` beneath the selected root, adding the root's hardening.
pub(crate) fn open_raw(sel: &Selected, rel: &str, how: How, op: Operation) -> Result<File, Error> {
    open_judged(sel, rel, how, op).map(|judged| judged.opened.file)
}

/// Opens `rel` beneath the selected root, adding the root's hardening, and
/// says beneath which root the object lies.
///
/// When the path leads outside the selected root (a symlink or a `..`
/// leaving it, refused as `EXDEV` by the kernel or the resolver) and the
/// root was chosen from a set, the path is walked again across the roots of
/// the set ([`sys::open_across`]): a walk from held handles that can only
/// land inside a root, so an escape stays refused.
#[inline]
pub(crate) fn open_landed<'s>(
    sel: &Selected<'s>,
    rel: &str,
    how: How,
    op: Operation,
) -> Result<Opened<'s>, Error> {
    let how = How {
        hardening: sel.root.hardening,
        ..how
    };
    // The common case: the kernel opened it beneath the selected root.
    match sys::open_beneath(&sel.root.dir, rel, &how) {
        Ok(file) => Ok(Opened {
            file,
            root: sel.root,
            hardening: sel.root.hardening,
            truncate_pending: false,
        }),
        Err(refused) => open_across(sel, rel, how, op, refused),
    }
}

/// [`open_landed`] after the kernel (or the resolver) refused: the walk
/// across the roots of the set, when the refusal says the path led
/// outside the selected root; else the refusal.
#[cold]
#[inline(never)]
fn open_across<'s>(
    sel: &Selected<'s>,
    rel: &str,
    how: How,
    op: Operation,
    refused: std::io::Error,
) -> Result<Opened<'s>, Error> {
    let fail = |e| Error::from_os(e, op, sel.input);
    let Some(set) = sel.set().filter(|_| sys::led_outside(&refused)) else {
        return Err(fail(refused));
    };
    // Truncation waits until the file is judged by the root it landed in.
    let across_how = How {
        truncate: false,
        ..how
    };
    let landed =
        sys::open_across(set.map(), sel.root.walk_ref(), rel, &across_how).map_err(|e| {
            if sys::ReadOnlyLanding::is(&e) {
                read_only(op, sel.input)
            } else {
                fail(e)
            }
        })?;
    let root = match landed.root {
        None => sel.root,
        Some(index) => set.root_at(index).ok_or_else(|| fail(refused))?,
    };
    Ok(Opened {
        file: landed.file,
        root,
        hardening: landed.hardening,
        truncate_pending: how.truncate,
    })
}

/// Opens the regular file `sel` read-only and reads it whole: the open of
/// [`open_file`], then reads into a buffer sized for a small file (the
/// file's kind is already known from the open, so no other `fstat`).
pub(crate) fn read_file(sel: &Selected, op: Operation) -> Result<Vec<u8>, Error> {
    use std::io::Read as _;
    read_file_with(sel, op, |file, _| {
        let mut data = Vec::with_capacity(8 * 1024);
        file.read_to_end(&mut data)?;
        Ok(data)
    })
}

/// Opens the regular file `sel` read-only as [`read_file`] does and hands
/// it to `read` with its length at the open (from the `fstat` that checked
/// its type: no other system call); the file is closed when `read`
/// returns.
pub(crate) fn read_file_with<R>(
    sel: &Selected,
    op: Operation,
    read: impl FnOnce(&mut std::fs::File, u64) -> std::io::Result<R>,
) -> Result<R, Error> {
    let (opened, len) = open_file_sized(sel, &OpenOptions::new().how(), op)?;
    let mut file = opened.file;
    read(&mut file, len).map_err(|e| Error::from_os(e, op, sel.input))
}

/// [`read_file`] as text.
pub(crate) fn read_text(sel: &Selected, op: Operation) -> Result<String, Error> {
    String::from_utf8(read_file(sel, op)?).map_err(|_| {
        Error::new(ErrorKind::Io, op, sel.input).with_detail("the file is not valid UTF-8 text")
    })
}

/// Opens a regular file as `how` says; the result says beneath which root
/// it lies. An open that may change the file (write or append access,
/// truncation, creation) is refused before any system call unless the
/// selected root allows writes, and, when the path leads into another root
/// of the set, unless that root (and every root crossed) does too: a
/// read-only root only ever hands out files opened for reading.
pub(crate) fn open_file<'s>(
    sel: &Selected<'s>,
    how: &How,
    op: Operation,
) -> Result<Opened<'s>, Error> {
    open_file_sized(sel, how, op).map(|(opened, _)| opened)
}

/// [`open_file`], with the file's length from the `fstat` that checked its
/// type.
fn open_file_sized<'s>(
    sel: &Selected<'s>,
    how: &How,
    op: Operation,
) -> Result<(Opened<'s>, u64), Error> {
    if how.changes() {
        sel.writable(op)?;
    }
    let on_dir = match how.create {
        Create::New => ErrorKind::AlreadyExists,
        Create::No | Create::OrOpen => ErrorKind::NotARegularFile,
    };
    refuse_dir_demand(sel, op, on_dir)?;
    let refuse_links = how.writes() && sel.root.hardening.hard_links == HardLinks::RefuseWrites;
    // Truncate only once the link count has been checked.
    let open_how = How {
        truncate: how.truncate && !refuse_links,
        ..*how
    };
    let fail = |e| Error::from_os(e, op, sel.input);
    // Judged by the parts of the root it reaches (before the open, for a
    // change).
    let opened = if how.changes() {
        open_changing(sel, open_how, op)?
    } else {
        open_judged(sel, sel.rel(), open_how, op)?.opened
    };
    let file = &opened.file;
    let (kind, len) = sys::kind_of(file).map_err(fail)?;
    match kind {
        Kind::File => {}
        Kind::Dir => {
            return Err(
                Error::new(ErrorKind::NotARegularFile, op, sel.input).with_detail("is a directory")
            );
        }
        Kind::Special => return Err(Error::new(ErrorKind::NotARegularFile, op, sel.input)),
    }
    // Judged by the root the file lies beneath (the stricter hardening of
    // every root the resolution went through).
    if how.writes()
        && opened.hardening.hard_links == HardLinks::RefuseWrites
        && sys::link_count(file).map_err(fail)? > 1
    {
        return Err(Error::new(ErrorKind::OutsideRoots, op, sel.input)
            .with_detail("the file has more than one hard link"));
    }
    let truncated = open_how.truncate && !opened.truncate_pending;
    if how.truncate && !truncated {
        file.set_len(0).map_err(fail)?;
    }
    // O_NONBLOCK stays: Linux ignores it for regular files, and clearing
    // it would cost a syscall per open.
    Ok((opened, len))
}

/// A file operation on a path that demands a directory (a trailing `/`, or
/// a last component `.` or `..`; [semantics 3](crate::semantics#3-raw-paths)) is refused before it
/// acts: as a directory (`on_dir`) when a directory is there, otherwise
/// `not_a_directory`: such a path names no file. One look-up, only for such
/// paths.
#[inline]
pub(crate) fn refuse_dir_demand(
    sel: &Selected,
    op: Operation,
    on_dir: ErrorKind,
) -> Result<(), Error> {
    if !sel.demands_dir() {
        return Ok(());
    }
    dir_demand_refusal(sel, op, on_dir)
}

/// Why [`refuse_dir_demand`] refuses a path that demands a directory.
#[cold]
#[inline(never)]
fn dir_demand_refusal(sel: &Selected, op: Operation, on_dir: ErrorKind) -> Result<(), Error> {
    let location = How::location(true, Default::default());
    Err(match open_raw(sel, sel.rel(), location, op) {
        Ok(_) => Error::new(on_dir, op, sel.input).with_detail("is a directory"),
        // A trailing `/` names a directory whatever is there; a path ending
        // in `.` or `..` gets the kernel's answer for a missing component.
        Err(e) if e.kind() == ErrorKind::NotFound && !sel.rel().ends_with('/') => e,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            Error::new(ErrorKind::NotADirectory, op, sel.input)
                .with_detail("a path ending in '/' names a directory, not a file")
        }
        Err(e) => e,
    })
}

/// Opens a directory for listing.
pub(crate) fn read_dir(sel: &Selected) -> Result<ReadDir, Error> {
    let op = Operation::ReadDir;
    let how = How {
        directory: true,
        ..How::default()
    };
    let judged = open_judged(sel, sel.rel(), how, op)?;
    let hiding = judged
        .path
        .map(|path| (judged.opened.root.parts.clone(), path.into_owned()));
    let file = judged.opened.file;
    ReadDir::new(file, hiding).map_err(|e| Error::from_os(e, op, sel.input))
}

/// Metadata of the object, following symlinks beneath the root.
pub(crate) fn metadata(sel: &Selected) -> Result<Metadata, Error> {
    let op = Operation::Metadata;
    let file = open_raw(sel, sel.rel(), How::location(false, Default::default()), op)?;
    file.metadata()
        .map_err(|e| Error::from_os(e, op, sel.input))
}

/// The number of hard links to the object, following symlinks beneath the
/// root (the standard library's metadata gives it on Unix only).
pub(crate) fn link_count(sel: &Selected) -> Result<u64, Error> {
    let op = Operation::Metadata;
    let file = open_raw(sel, sel.rel(), How::location(false, Default::default()), op)?;
    sys::link_count(&file).map_err(|e| Error::from_os(e, op, sel.input))
}

/// The physical location beneath the root. A missing target resolves
/// through its deepest existing ancestor; the missing tail must be plain
/// names. A dangling symlink resolves to the link itself.
pub(crate) fn resolve(sel: &Selected) -> Result<ScopedPath, Error> {
    let op = Operation::Resolve;
    let rel = sel.rel();
    let mut existing = rel;
    let mut tail: Vec<&str> = Vec::new();
    let located = loop {
        let path = if existing.is_empty() { "." } else { existing };
        match locate(sel, path, tail.is_empty()) {
            Ok(found) => break found,
            Err(e) if e.kind() == ErrorKind::NotFound && !existing.is_empty() => {
                let trimmed = existing.trim_end_matches('/');
                let (parent, name) = trimmed.rsplit_once('/').unwrap_or(("", trimmed));
                if matches!(name, "." | "..") {
                    return Err(Error::new(ErrorKind::NotFound, op, sel.input)
                        .with_detail("a missing path may not continue with '.' or '..'"));
                }
                if !name.is_empty() {
                    tail.push(name);
                }
                existing = parent;
            }
            Err(e) => return Err(e),
        }
    };
    let mut physical = physical_rel(located.root, &located.file, op, sel.input)?;
    for name in tail.iter().rev() {
        if !physical.is_empty() {
            physical.push('/');
        }
        physical.push_str(name);
    }
    // The missing tail too, where the existing part actually is.
    judge(located.root, &physical, Intent::Read, op, sel.input)?;
    Ok(ScopedPath::new(
        located.root.id,
        located.root.slash.clone(),
        physical,
    ))
}

/// Opens `path` as a location handle; when `last` is set and the target is
/// missing, falls back to the name itself (a dangling symlink).
fn locate<'s>(sel: &Selected<'s>, path: &str, last: bool) -> Result<Opened<'s>, Error> {
    let op = Operation::Resolve;
    let how = How::location(false, Default::default());
    match open_judged(sel, path, how, op) {
        Err(e) if last && e.kind() == ErrorKind::NotFound => {
            let link = How {
                nofollow: true,
                ..how
            };
            open_judged(sel, path, link, op)
                .map(|judged| judged.opened)
                .map_err(|_| e)
        }
        result => result.map(|judged| judged.opened),
    }
}

/// The path of an open location relative to the root's physical path.
pub(crate) fn physical_rel(
    root: &Root,
    located: &File,
    op: Operation,
    input: &str,
) -> Result<String, Error> {
    let path = sys::fd_path(located).map_err(|e| Error::from_os(e, op, input))?;
    let Ok(rel) = path.strip_prefix(&root.resolved) else {
        return Err(Error::new(ErrorKind::RootGone, op, input)
            .with_detail("the root is no longer at its path"));
    };
    // Joined with `/` whatever the platform's separator.
    let mut joined = String::with_capacity(rel.as_os_str().len());
    for component in rel.components() {
        let Some(name) = component.as_os_str().to_str() else {
            return Err(Error::new(ErrorKind::Io, op, input).with_detail("path is not UTF-8"));
        };
        if !joined.is_empty() {
            joined.push('/');
        }
        joined.push_str(name);
    }
    Ok(joined)
}

/// Starts a walk at the selected directory.
pub(crate) fn walk(sel: &Selected, limits: WalkLimits) -> Result<Walk, Error> {
    let op = Operation::Walk;
    let how = How {
        directory: true,
        ..How::default()
    };
    let start = open_judged(sel, sel.rel(), how, op)?.opened;
    let prefix = physical_rel(start.root, &start.file, op, sel.input)?;
    Walk::new(
        start.root,
        cap_std::fs::Dir::from_std_file(start.file),
        prefix,
        limits,
    )
}

/// What an [`OpenOptions`] asks of the kernel, and the operation it is.
pub(crate) trait Plan {
    /// The operation, for errors.
    fn operation(&self) -> Operation;
    /// The open, for the platform layer.
    fn how(&self) -> How;
}

impl Plan for OpenOptions {
    fn operation(&self) -> Operation {
        match self.create {
            Create::No => Operation::Open,
            Create::New | Create::OrOpen => Operation::Create,
        }
    }

    fn how(&self) -> How {
        let write = self.write || self.append || self.truncate || self.create != Create::No;
        let access = match (self.read, write) {
            (_, false) => Access::Read,
            (false, true) => Access::Write,
            (true, true) => Access::ReadWrite,
        };
        How {
            access,
            append: self.append,
            truncate: self.truncate,
            create: self.create,
            ..How::default()
        }
    }
}
