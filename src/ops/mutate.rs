//! Directory-changing operations beneath a root: each one opens the parent
//! directory beneath the root's handle, then acts on one name in it with a
//! `*at` call, so no path is ever re-resolved after a check.
//!
//! Rules every operation here keeps:
//!
//! - The last component goes to the kernel as given ([`Leaf::given`]): a
//!   trailing `/` demands a directory. A file operation on such a path is
//!   refused before it acts ([`refuse_dir_demand`]); a rename with a `/` on
//!   either end moves a directory only.
//! - No operation removes, renames or replaces a root of the set, whichever
//!   root the path was judged under: the name is compared by identity
//!   (`lstat` in the opened parent) with every root ([`Leaf::refuse_root`]).
//! - Each operation takes a [`Writable`] selection: the root's policy was
//!   asked before anything here runs, so a read-only root is never changed.
//! - A call holds a bounded number of descriptors, whatever the depth of
//!   its path ([`create_dir_all`] holds at most two besides the root's).

use cap_std::fs::Dir;

use crate::error::{Error, ErrorKind, Operation};
use crate::ops::open::{open_raw, refuse_dir_demand};
use crate::ops::shared::{join, judge_change, open_judged};
use crate::options::Overwrite;
use crate::options::hardening::Hardening;
use crate::root::shared::{Intent, judge};
use crate::root::writable::check_writes;
use crate::root::{Selected, Writable};
use crate::sys;
use crate::sys::{How, Identity, Kind, Stat};

/// The last component of a selected path, in its parent directory opened
/// beneath the root.
pub(crate) struct Leaf<'s> {
    pub(crate) parent: Dir,
    /// The name alone: a plain name, never `.` or `..`.
    pub(crate) name: &'s str,
    /// The name as the kernel gets it: with the trailing slashes the input
    /// had, which demand a directory.
    pub(crate) given: &'s str,
    /// The hardening the parent was opened under: the stricter of every
    /// root its resolution went through (it may have landed in another
    /// root of the set than the one selected), which judges the change.
    pub(crate) hardening: Hardening,
}

impl<'s> Leaf<'s> {
    /// Opens the parent of the selected path. A last component `.` or `..`
    /// is refused (after the path up to it was opened, so that `x.txt/.`
    /// is `not_a_directory` like the kernel's answer).
    pub(crate) fn open(sel: &'s Writable, op: Operation) -> Result<Self, Error> {
        let rel = sel.rel();
        let trimmed = rel.trim_end_matches('/');
        let (parent, name) = trimmed.rsplit_once('/').unwrap_or((".", trimmed));
        let parent = if parent.is_empty() { "." } else { parent };
        let location = How::location(true, Default::default());
        if matches!(name, "" | ".") && parent == "." {
            return Err(Error::new(ErrorKind::OutsideRoots, op, sel.input)
                .with_detail("names the root itself"));
        }
        if matches!(name, "." | "..") {
            let dir = open_raw(sel, rel, location, op)?;
            let id = sys::identity(&dir).map_err(|e| Error::from_os(e, op, sel.input))?;
            return Err(if sel.is_a_root(id) {
                Error::new(ErrorKind::OutsideRoots, op, sel.input).with_detail(NAMES_A_ROOT)
            } else {
                Error::new(ErrorKind::NotFound, op, sel.input)
                    .with_detail("the last component must be a name, not '.' or '..'")
            });
        }
        let judged = open_judged(sel, parent, location, op)?;
        let opened = judged.opened;
        // A parent reached across roots is judged by the root it lies
        // beneath (and every root crossed), before any change, and so is
        // the name in it by that root's parts.
        check_writes(opened.hardening, op, sel.input)?;
        let parent = Dir::from_std_file(opened.file);
        if let Some(path) = &judged.path {
            judge_change(opened.root, path, &parent, name, op, sel.input)?;
        }
        Ok(Self {
            parent,
            name,
            given: &rel[trimmed.len() - name.len()..],
            hardening: opened.hardening,
        })
    }

    /// Whether the input named this leaf with a trailing `/`.
    pub(crate) fn demands_dir(&self) -> bool {
        self.given.len() != self.name.len()
    }

    /// What the name is now, without following a symlink.
    pub(crate) fn stat(&self, sel: &Selected, op: Operation) -> Result<Option<Stat>, Error> {
        sys::lstat_at(&self.parent, self.name).map_err(|e| Error::from_os(e, op, sel.input))
    }

    /// Refuses the name when `stat` (its [`stat`](Self::stat)) shows a
    /// root of the set: no mutation removes, renames or replaces a root,
    /// whichever root the path was judged under.
    pub(crate) fn refuse_root(
        &self,
        stat: Option<Stat>,
        sel: &Selected,
        op: Operation,
    ) -> Result<(), Error> {
        match stat {
            Some(stat) if sel.is_a_root(stat.id) => {
                Err(Error::new(ErrorKind::OutsideRoots, op, sel.input).with_detail(NAMES_A_ROOT))
            }
            _ => Ok(()),
        }
    }
}

const NAMES_A_ROOT: &str = "names a root of the set";

/// Creates one directory; its parent must exist.
pub(crate) fn create_dir(sel: &Writable) -> Result<(), Error> {
    let op = Operation::CreateDir;
    let leaf = Leaf::open(sel, op)?;
    sys::mkdir_at(&leaf.parent, leaf.given).map_err(|e| Error::from_os(e, op, sel.input))
}

/// Creates a directory and its missing ancestors, one component at a time
/// beneath the root, refusing any component that is a symlink. The existing
/// part is walked first (`..` in it goes back to the directory passed
/// through) and the missing tail must be plain names, so a refused call
/// creates nothing; a failure while creating the tail (say, `ENOSPC` or
/// `EACCES`) leaves the directories already made.
///
/// At most two descriptors are held besides the root's, whatever the depth:
/// the directory reached so far and the next one. A `..` reopens its target
/// from the root and checks that it is the directory passed through.
pub(crate) fn create_dir_all(sel: &Writable) -> Result<(), Error> {
    let op = Operation::CreateDir;
    let fail = |e| {
        Error::from_os(e, op, sel.input)
            .with_detail("every component must be a directory, not a symlink")
    };
    let how = How {
        nofollow: true,
        ..How::location(true, sel.root.hardening)
    };
    let mut components = sel
        .rel()
        .split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .peekable();
    let mut walked = Walked::default();
    // Whether an existing component was spelled otherwise than on disk
    // (an 8.3 short name): the path was judged lexically only as given.
    let mut respelled = false;
    // The existing part: opened (not created) component by component, and
    // walked by the names the directories have on disk.
    while let Some(&component) = components.peek() {
        if component == ".." {
            walked.up(sel, op)?;
        } else {
            let on_disk = match sel.root.parts {
                Some(_) => sys::name_on_disk(walked.dir(sel), component).map_err(fail)?,
                None => None,
            };
            respelled |= on_disk.is_some();
            match sys::open_beneath(walked.dir(sel), component, &how) {
                Ok(dir) => walked
                    .down(on_disk.as_deref().unwrap_or(component), dir)
                    .map_err(fail)?,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
                Err(e) => return Err(fail(e)),
            }
        }
        components.next();
    }
    let missing: Vec<&str> = components.collect();
    if missing.contains(&"..") {
        return Err(Error::new(ErrorKind::NotFound, op, sel.input)
            .with_detail("a missing path may not continue with '..'"));
    }
    if respelled {
        let mut path = walked.path.clone();
        for name in &missing {
            path = join(&path, name);
        }
        judge(sel.root, &path, Intent::Change, op, sel.input)?;
    }
    // The missing tail: plain names, created in order.
    for component in missing {
        let current = walked.dir(sel);
        match sys::mkdir_at(current, component) {
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(fail(e)),
            _ => {}
        }
        let dir = sys::open_beneath(current, component, &how).map_err(fail)?;
        walked.down(component, dir).map_err(fail)?;
    }
    Ok(())
}

/// Where [`create_dir_all`] is: one open directory (none: the root), its
/// path below the root, and the identity of each directory on that path.
#[derive(Default)]
struct Walked {
    here: Option<Dir>,
    path: String,
    /// For each directory on the path: where its name starts in `path`
    /// (minus the slash), and its identity.
    passed: Vec<(usize, Identity)>,
}

impl Walked {
    fn dir<'d>(&'d self, sel: &'d Selected) -> &'d Dir {
        self.here.as_ref().unwrap_or(&sel.root.dir)
    }

    /// Steps into `name`, opened as `dir`.
    fn down(&mut self, name: &str, dir: std::fs::File) -> std::io::Result<()> {
        self.passed.push((self.path.len(), sys::identity(&dir)?));
        if !self.path.is_empty() {
            self.path.push('/');
        }
        self.path.push_str(name);
        self.here = Some(Dir::from_std_file(dir));
        Ok(())
    }

    /// Steps back to the directory passed through before this one: reopened
    /// from the root, and refused if it is no longer that directory.
    fn up(&mut self, sel: &Selected, op: Operation) -> Result<(), Error> {
        let Some((start, _)) = self.passed.pop() else {
            return Err(Error::new(ErrorKind::OutsideRoots, op, sel.input));
        };
        self.path.truncate(start);
        self.here = None;
        let Some(&(_, expected)) = self.passed.last() else {
            return Ok(()); // back at the root
        };
        let how = How {
            nofollow: true,
            ..How::location(true, sel.root.hardening)
        };
        let fail = |e| Error::from_os(e, op, sel.input);
        let dir = sys::open_beneath(&sel.root.dir, &self.path, &how).map_err(fail)?;
        if sys::identity(&dir).map_err(fail)? != expected {
            return Err(Error::new(ErrorKind::Io, op, sel.input)
                .with_detail("a directory on the path was moved or replaced during the call"));
        }
        self.here = Some(Dir::from_std_file(dir));
        Ok(())
    }
}

/// Removes a file (or a symlink itself); a directory is refused.
pub(crate) fn remove_file(sel: &Writable) -> Result<(), Error> {
    remove(sel, Kind::File)
}

/// Removes an empty directory.
pub(crate) fn remove_dir(sel: &Writable) -> Result<(), Error> {
    remove(sel, Kind::Dir)
}

fn remove(sel: &Writable, kind: Kind) -> Result<(), Error> {
    let op = Operation::Remove;
    if kind == Kind::File {
        refuse_dir_demand(sel, op, ErrorKind::NotARegularFile)?;
    }
    let leaf = Leaf::open(sel, op)?;
    leaf.refuse_root(leaf.stat(sel, op)?, sel, op)?;
    sys::unlink_at(&leaf.parent, leaf.given, kind).map_err(|e| Error::from_os(e, op, sel.input))
}

/// Renames `from` to `to`, both beneath roots (possibly two roots on the
/// same file system). A trailing `/` on either end requires the source to
/// be a directory (the kernel's rule); neither end may be a root of the set.
pub(crate) fn rename(from: &Writable, to: &Writable, overwrite: Overwrite) -> Result<(), Error> {
    match rename_within(from, to, overwrite)? {
        Renamed::Done => Ok(()),
        Renamed::Across { error, .. } => Err(across_devices(error, Operation::Rename, from)),
    }
}

/// What [`rename_within`] did: the rename, or nothing because the two ends
/// lie on different file systems, with both ends still open and what the
/// source was when it was judged.
pub(crate) enum Renamed<'s> {
    Done,
    Across {
        error: std::io::Error,
        source: Leaf<'s>,
        target: Leaf<'s>,
        moved: Option<Stat>,
    },
}

/// The rename of [`rename`], leaving a move across file systems to the
/// caller.
pub(crate) fn rename_within<'s>(
    from: &'s Writable,
    to: &'s Writable,
    overwrite: Overwrite,
) -> Result<Renamed<'s>, Error> {
    let op = Operation::Rename;
    let source = Leaf::open(from, op)?;
    let target = Leaf::open(to, op)?;
    let moved = source.stat(from, op)?;
    if source.demands_dir() || target.demands_dir() {
        match moved {
            Some(stat) if stat.kind == Kind::Dir => {}
            Some(_) => {
                return Err(Error::new(ErrorKind::NotADirectory, op, from.input)
                    .with_detail("a rename with a trailing '/' moves a directory only"));
            }
            None => return Err(Error::new(ErrorKind::NotFound, op, from.input)),
        }
    }
    source.refuse_root(moved, from, op)?;
    target.refuse_root(target.stat(to, op)?, to, op)?;
    let replace = overwrite == Overwrite::Replace;
    match sys::rename_at(
        &source.parent,
        source.given,
        &target.parent,
        target.given,
        replace,
    ) {
        Ok(()) => Ok(Renamed::Done),
        // Here EXDEV means two file systems, not an escape.
        Err(error) if sys::is_cross_device(&error) => Ok(Renamed::Across {
            error,
            source,
            target,
            moved,
        }),
        Err(e) => {
            let input = blamed(&e, moved, from, to);
            Err(Error::from_os(e, op, input))
        }
    }
}

/// The error of a rename between two file systems.
pub(crate) fn across_devices(error: std::io::Error, op: Operation, from: &Selected) -> Error {
    Error::with_source(ErrorKind::Io, error, op, from.input)
        .with_detail("source and destination are on different file systems")
}

/// The end of a rename that the kernel's refusal `e` is about, so that the
/// error names it: an existing destination (`EEXIST`, `ENOTEMPTY`,
/// `EISDIR`, or `ENOTDIR` when a directory would replace a file) names the
/// destination, a missing source the source, a missing destination parent
/// the destination; anything else the source.
fn blamed<'a>(
    e: &std::io::Error,
    moved: Option<Stat>,
    from: &'a Writable,
    to: &'a Writable,
) -> &'a str {
    use std::io::ErrorKind as Io;
    let moved_dir = moved.is_some_and(|stat| stat.kind == Kind::Dir);
    match e.kind() {
        Io::AlreadyExists | Io::DirectoryNotEmpty | Io::IsADirectory => to.input,
        Io::NotADirectory if moved_dir => to.input,
        Io::NotFound if moved.is_some() => to.input,
        _ => from.input,
    }
}
