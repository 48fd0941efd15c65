//! [`RootSet`]: an immutable set of accepted roots and the operations that
//! pick a root for an untrusted input and act beneath it.

use std::collections::HashMap;
use std::fs::{File, Metadata};
use std::path::Path;
use std::sync::Arc;

use crate::error::traced;
use crate::error::{Error, ErrorKind, Operation};
use crate::ops;
use crate::ops::atomic;
use crate::ops::mutate;
use crate::ops::open::Plan;
use crate::ops::read_dir::ReadDir;
use crate::ops::walk::{Walk, WalkLimits};
use crate::options::Overwrite;
use crate::options::hardening::Hardening;
use crate::options::{Create, OpenOptions};
use crate::parse::input;
use crate::root::ScopedPath;
use crate::root::selected;
use crate::root::{Root, RootId};
use crate::set::Target;
use crate::set::index::PathIndex;

/// The roots a client consented to, each open and pinned; immutable.
///
/// Operations take an untrusted `&str` (a `file:` URI or an absolute path)
/// or a [`ScopedPath`], choose the outermost root that contains it by path
/// components, and act beneath that root's directory handle, so nothing a
/// path check approved can be swapped before the open. Files come back as
/// plain, untracked `std::fs::File`s: use this type directly only for sets
/// that never change, and [`Roots`](crate::Roots) for live roots.
///
/// For every operation, a path ending in `/` demands a directory (a file
/// operation on it is `not_a_directory`), and a path of `PATH_MAX` bytes or
/// more, or one with a component longer than `NAME_MAX`, is `invalid_path`
/// before anything touches the disk (see [the semantics](crate::semantics)).
///
/// ```
/// # fn main() -> Result<(), mcp_roots::Error> {
/// use std::io::Read;
/// use mcp_roots::{ErrorKind, RootSet};
///
/// let dir = tempfile::tempdir().unwrap();
/// let notes = dir.path().join("notes");
/// std::fs::create_dir(&notes).unwrap();
/// std::fs::write(notes.join("x.md"), "hello").unwrap();
/// let root_uri = format!("file://{}", notes.display());
///
/// let set = RootSet::from_uris([root_uri.as_str()]);
/// let mut text = String::new();
/// set.open(&format!("{root_uri}/x.md"))?.read_to_string(&mut text).unwrap();
/// assert_eq!(text, "hello");
///
/// let escape = set.open(&format!("{root_uri}/../secret")).unwrap_err();
/// assert_eq!(escape.kind(), ErrorKind::OutsideRoots);
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct RootSet {
    roots: Vec<Arc<Root>>,
    rejected: Vec<Rejected>,
    index: PathIndex,
    /// Resolved paths only: for locating a descriptor's physical path.
    physical: PathIndex,
    /// Paths of pinned roots that are gone: selecting one is `root_gone`.
    gone: PathIndex,
    by_id: HashMap<RootId, usize>,
    /// The hardening the set was asked to give its roots (its builder's,
    /// raised to the policy's floor where it was admitted), kept whichever
    /// of its roots were accepted: admitting the set again (under a
    /// ceiling, its rejected roots too) asks for the same.
    hardening: Hardening,
    /// Whether any root has patterns (see `sharing`).
    has_parts: bool,
}

/// A root that grants nothing, with the reason.
#[derive(Clone, Debug)]
pub struct Rejected {
    name: Option<Arc<str>>,
    error: Arc<Error>,
}

impl Rejected {
    pub(crate) fn new(name: Option<&str>, error: Error) -> Self {
        Self {
            name: name.map(Into::into),
            error: Arc::new(error),
        }
    }

    /// The root's URI as the client gave it.
    pub fn uri(&self) -> &str {
        self.error.input()
    }

    /// The root's name, if the client gave one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Why the root was rejected.
    pub fn kind(&self) -> ErrorKind {
        self.error.kind()
    }

    /// The stable reason string, e.g. `"not_a_directory"`.
    pub fn reason(&self) -> &'static str {
        self.error.reason()
    }

    /// The full error, with its `source()`.
    pub fn error(&self) -> &Error {
        &self.error
    }
}

impl RootSet {
    /// A set of already-open roots (in the client's order) and rejections,
    /// asked to carry `hardening` (see [`hardening`](Self::hardening)).
    pub(crate) fn assemble(
        roots: Vec<Arc<Root>>,
        mut rejected: Vec<Rejected>,
        hardening: Hardening,
    ) -> Self {
        let roots = crate::set::nesting::layered(roots, &mut rejected);
        let mut by_id = HashMap::with_capacity(roots.len());
        let mut index = PathIndex::default();
        let mut physical = PathIndex::default();
        let has_parts = roots.iter().any(|root| root.parts.is_some());
        for (i, root) in roots.iter().enumerate() {
            by_id.entry(root.id).or_insert(i);
            for key in root.keys.iter() {
                index.insert(&root.index_key(key), i, root.folding);
            }
            if let Some(key) = &root.keys.resolved {
                physical.insert(&root.index_key(key), i, root.folding);
            }
        }
        Self {
            roots,
            rejected,
            index,
            physical,
            gone: PathIndex::default(),
            by_id,
            hardening,
            has_parts,
        }
    }

    /// The hardening this set was asked to give its roots, whichever of
    /// them were accepted.
    pub(crate) fn hardening(&self) -> Hardening {
        self.hardening
    }

    /// The roots and rejections of `first`, then those of `second`, in one
    /// set (their handles shared) asked to carry `hardening`.
    pub(crate) fn concat(first: RootSet, second: RootSet, hardening: Hardening) -> Self {
        let mut roots = first.roots;
        roots.extend(second.roots);
        let mut rejected = first.rejected;
        rejected.extend(second.rejected);
        Self::assemble(roots, rejected, hardening)
    }

    /// The accepted roots, in the client's order.
    ///
    /// Reached through a [`Snapshot`](crate::Snapshot) (by `Deref`), this
    /// and the other accessors of a root (`root`, `root_named`,
    /// `root_by_id`) give the snapshot's own roots, with plain-set rules:
    /// a [`Root`]'s operations are not judged against the set installed
    /// since.
    pub fn roots(&self) -> &[Arc<Root>] {
        &self.roots
    }

    /// The `i`-th accepted root, counting in the client's order (through a
    /// [`Snapshot`](crate::Snapshot): the snapshot's own, with plain-set
    /// rules; see [`roots`](Self::roots)).
    pub fn root(&self, i: usize) -> Option<&Root> {
        self.roots.get(i).map(|r| &**r)
    }

    /// The one accepted root the client named `name` (through a
    /// [`Snapshot`](crate::Snapshot): the snapshot's own, with plain-set
    /// rules; see [`roots`](Self::roots)).
    ///
    /// # Errors
    ///
    /// `not_found` when no accepted root, or more than one, bears the name.
    pub fn root_named(&self, name: &str) -> Result<&Root, Error> {
        let mut named = self.roots.iter().filter(|r| r.name() == Some(name));
        match (named.next(), named.next()) {
            (Some(root), None) => Ok(&**root),
            (None, _) => Err(Error::new(ErrorKind::NotFound, Operation::Parse, name)
                .with_detail("no root bears this name")),
            (Some(_), Some(_)) => Err(Error::new(ErrorKind::NotFound, Operation::Parse, name)
                .with_detail("more than one root bears this name")),
        }
    }

    /// The roots that grant nothing, with their reasons.
    pub fn rejected(&self) -> &[Rejected] {
        &self.rejected
    }

    /// The number of accepted roots.
    pub fn len(&self) -> usize {
        self.roots.len()
    }

    /// Whether no root was accepted.
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }

    pub(crate) fn index(&self) -> &PathIndex {
        &self.index
    }

    /// Marks the paths of `gone` roots, so that selecting one reports
    /// `root_gone` rather than `outside_roots`.
    pub(crate) fn with_gone<'a>(mut self, gone: impl Iterator<Item = &'a Arc<Root>>) -> Self {
        for (i, root) in gone.enumerate() {
            for key in root.keys.iter() {
                self.gone.insert(&root.index_key(key), i, root.folding);
            }
        }
        self
    }

    pub(crate) fn gone_index(&self) -> &PathIndex {
        &self.gone
    }

    /// The outermost root whose physical path contains the physical path
    /// `path` (a descriptor's location, as the platform reports it).
    pub(crate) fn locate_physical(&self, path: &Path) -> Option<&Arc<Root>> {
        let path = input::physical_path(path)?;
        let (i, _) = self.physical.locate(&path)?;
        Some(&self.roots[i])
    }

    /// The accepted root with identity `id`, if the set has one (a
    /// [`ScopedPath`]'s root, or a [`TrackedFile`](crate::TrackedFile)'s;
    /// through a [`Snapshot`](crate::Snapshot), the snapshot's own, with
    /// plain-set rules: see [`roots`](Self::roots)).
    pub fn root_by_id(&self, id: RootId) -> Option<&Root> {
        self.by_id.get(&id).map(|&i| &*self.roots[i])
    }

    /// `Ok` when the set grants something; otherwise the `no_roots` error
    /// every operation would return (for a tool that has nothing to act on,
    /// such as a listing of all roots).
    ///
    /// # Errors
    ///
    /// `no_roots` when no root is accepted (and none is merely gone).
    pub fn check_roots(&self) -> Result<(), Error> {
        self.require_roots(Operation::Use, "")
    }

    pub(crate) fn require_roots(&self, op: Operation, input: &str) -> Result<(), Error> {
        if self.roots.is_empty() && self.gone.is_empty() {
            return Err(Error::new(ErrorKind::NoRoots, op, input));
        }
        Ok(())
    }

    /// Opens a regular file read-only.
    ///
    /// # Errors
    ///
    /// Any reason of [`ErrorKind`]: the input is malformed, outside every
    /// root, escapes its root through `..` or a symlink, is missing, or is
    /// not a regular file (FIFOs and devices are refused without blocking).
    ///
    /// # Platform behavior
    ///
    /// The file is opened with `O_NONBLOCK` (that is what lets a FIFO be
    /// refused instead of blocking) and keeps it: Linux ignores the flag for
    /// regular files, and clearing it would cost a syscall on every open.
    pub fn open<T: Target + ?Sized>(&self, target: &T) -> Result<File, Error> {
        self.open_with(target, OpenOptions::new())
    }

    /// Reads a regular file whole (`std::fs::read` beneath a root).
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open); `io` if reading fails.
    pub fn read<T: Target + ?Sized>(&self, target: &T) -> Result<Vec<u8>, Error> {
        traced(|| ops::open::read_file(&target.select(self, Operation::Open)?, Operation::Open))
    }

    /// Opens a regular file read-only, as [`read`](Self::read) does, and
    /// hands it to `read` with its length at the open (from the `fstat` the
    /// open makes anyway), to read it into a buffer of the caller's (the
    /// Node binding reads into a `Buffer` of that size). The file is closed
    /// when `read` returns.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open); `io` with the error `read` returned.
    pub fn read_with<T: Target + ?Sized, R>(
        &self,
        target: &T,
        read: impl FnOnce(&mut File, u64) -> std::io::Result<R>,
    ) -> Result<R, Error> {
        traced(|| {
            ops::open::read_file_with(
                &target.select(self, Operation::Open)?,
                Operation::Open,
                read,
            )
        })
    }

    /// Reads a regular file whole as UTF-8 text (`std::fs::read_to_string`
    /// beneath a root).
    ///
    /// # Errors
    ///
    /// As [`read`](Self::read); `io` if the file is not valid UTF-8.
    pub fn read_to_string<T: Target + ?Sized>(&self, target: &T) -> Result<String, Error> {
        traced(|| ops::open::read_text(&target.select(self, Operation::Open)?, Operation::Open))
    }

    /// Creates a new file for writing (`O_CREAT | O_EXCL | O_NOFOLLOW`); its
    /// parent must exist. A dangling symlink is an existing name.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open), plus `already_exists`.
    pub fn create_new<T: Target + ?Sized>(&self, target: &T) -> Result<File, Error> {
        self.open_with(target, OpenOptions::new().read(false).create(Create::New))
    }

    /// Opens a regular file with `options`; every write open refuses a
    /// symlink in the last component.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open).
    pub fn open_with<T: Target + ?Sized>(
        &self,
        target: &T,
        options: OpenOptions,
    ) -> Result<File, Error> {
        let op = options.operation();
        traced(|| {
            ops::open::open_file(&target.select(self, op)?, &options.how(), op).map(|o| o.file)
        })
    }

    /// Lists a directory (following a symlink that stays inside the root).
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open); `not_a_directory` for a file.
    pub fn read_dir<T: Target + ?Sized>(&self, target: &T) -> Result<ReadDir, Error> {
        traced(|| ops::open::read_dir(&target.select(self, Operation::ReadDir)?))
    }

    /// Metadata of a file or directory, following symlinks beneath the root.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open).
    pub fn metadata<T: Target + ?Sized>(&self, target: &T) -> Result<Metadata, Error> {
        traced(|| ops::open::metadata(&target.select(self, Operation::Metadata)?))
    }

    /// The number of hard links to a file or directory (following
    /// symlinks beneath the root): what `st_nlink` says on Unix and the
    /// handle's link count on Windows, where the standard library's
    /// [`Metadata`] does not give it.
    ///
    /// # Errors
    ///
    /// As [`metadata`](Self::metadata).
    pub fn link_count<T: Target + ?Sized>(&self, target: &T) -> Result<u64, Error> {
        traced(|| ops::open::link_count(&target.select(self, Operation::Metadata)?))
    }

    /// The root and physical path below it that `target` names now; a
    /// missing target resolves through its deepest existing ancestor.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open); `root_gone` if the root's directory moved.
    ///
    /// # Platform behavior
    ///
    /// The physical path comes from the descriptor: `/proc/self/fd` on
    /// Linux, `F_GETPATH` on macOS, `GetFinalPathNameByHandleW` on Windows;
    /// elsewhere this fails with `io` (unsupported).
    pub fn resolve<T: Target + ?Sized>(&self, target: &T) -> Result<ScopedPath, Error> {
        traced(|| ops::open::resolve(&target.select(self, Operation::Resolve)?))
    }

    /// Creates a directory; its parent must exist.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open), plus `already_exists`.
    pub fn create_dir<T: Target + ?Sized>(&self, target: &T) -> Result<(), Error> {
        let op = Operation::CreateDir;
        traced(|| mutate::create_dir(&target.select(self, op)?.writable(op)?))
    }

    /// Creates a directory and its missing ancestors, each beneath the root;
    /// a component that is a symlink is refused, even one inside the root.
    /// It holds a bounded number of descriptors whatever the depth. A
    /// refused call creates nothing; a failure while creating the missing
    /// part for another reason (disk full, `EACCES`) leaves the directories
    /// already made.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open); `not_a_directory` for a symlinked component.
    pub fn create_dir_all<T: Target + ?Sized>(&self, target: &T) -> Result<(), Error> {
        let op = Operation::CreateDir;
        traced(|| mutate::create_dir_all(&target.select(self, op)?.writable(op)?))
    }

    /// Removes a file, or a symlink itself (never its target). Never a root
    /// of the set (compared by identity, whichever root the path was judged
    /// under): `outside_roots`.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open); `not_a_regular_file` for a directory.
    pub fn remove_file<T: Target + ?Sized>(&self, target: &T) -> Result<(), Error> {
        let op = Operation::Remove;
        traced(|| mutate::remove_file(&target.select(self, op)?.writable(op)?))
    }

    /// Removes an empty directory. Never a root of the set (compared by
    /// identity, whichever root the path was judged under): `outside_roots`.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open); `io` for a non-empty directory.
    pub fn remove_dir<T: Target + ?Sized>(&self, target: &T) -> Result<(), Error> {
        let op = Operation::Remove;
        traced(|| mutate::remove_dir(&target.select(self, op)?.writable(op)?))
    }

    /// Renames `from` to `to`, refusing to replace an existing `to`
    /// atomically (`RENAME_NOREPLACE`). Both must lie beneath roots; two
    /// roots work when they share a file system. Neither end may be a root
    /// of the set (compared by identity): `outside_roots`. A trailing `/` on
    /// either end requires the source to be a directory.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open), plus `already_exists`; `io` across file
    /// systems.
    pub fn rename<F, T>(&self, from: &F, to: &T) -> Result<(), Error>
    where
        F: Target + ?Sized,
        T: Target + ?Sized,
    {
        self.rename_with(from, to, Overwrite::Refuse)
    }

    /// [`rename`](Self::rename), choosing whether to replace `to`.
    ///
    /// # Errors
    ///
    /// As [`rename`](Self::rename).
    pub fn rename_with<F, T>(&self, from: &F, to: &T, overwrite: Overwrite) -> Result<(), Error>
    where
        F: Target + ?Sized,
        T: Target + ?Sized,
    {
        traced(|| {
            let op = Operation::Rename;
            let from = from.select(self, op)?;
            let to = to.select(self, op)?;
            mutate::rename(&from.writable(op)?, &to.writable(op)?, overwrite)
        })
    }

    /// Moves `from` to `to` as [`rename_with`](Self::rename_with) renames,
    /// and where the two lie on different file systems (where a rename
    /// fails) moves a regular file by copying it as [`copy`](Self::copy)
    /// does (published atomically, permission bits and times kept) and
    /// then removing its name, only while that name is still the file
    /// copied; if the name cannot be removed, the copy is removed again and
    /// the source stays. Such a move is not atomic: for a moment both names
    /// exist, and with [`Overwrite::Replace`] a destination replaced by the
    /// copy is not restored when the source then cannot be removed. A
    /// directory, a symlink or a special file is not moved across file
    /// systems (`io`, with a detail saying so).
    ///
    /// # Errors
    ///
    /// As [`rename_with`](Self::rename_with), and as [`copy`](Self::copy)
    /// across file systems.
    pub fn move_with<F, T>(&self, from: &F, to: &T, overwrite: Overwrite) -> Result<(), Error>
    where
        F: Target + ?Sized,
        T: Target + ?Sized,
    {
        traced(|| {
            let op = Operation::Rename;
            let from = from.select(self, op)?;
            let to = to.select(self, op)?;
            atomic::move_file(&from.writable(op)?, &to.writable(op)?, overwrite)
        })
    }

    /// Replaces a file's content with `data` so that a concurrent reader
    /// sees the old or the new content, never a mix: a temporary file beside
    /// the target is written, synced and renamed over it. A symlink at the
    /// name is refused. The new file is created by the server's user: it
    /// keeps the replaced file's permission bits (`0o777`) only; set-user-ID,
    /// set-group-ID and sticky bits are never carried over. Its temporary
    /// name is random, so a name planted beside the target cannot block it.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open).
    pub fn write_atomic<T: Target + ?Sized>(&self, target: &T, data: &[u8]) -> Result<(), Error> {
        let op = Operation::WriteAtomic;
        traced(|| atomic::write_atomic(&target.select(self, op)?.writable(op)?, data))
    }

    /// Copies the regular file `from` to the new name `to` (published
    /// atomically, never replacing); returns the bytes copied. The copy
    /// keeps the source's permission bits (`0o777`: never set-user-ID,
    /// set-group-ID or sticky) and its access and modification times; a
    /// copy that fails part-way is removed.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open), plus `already_exists`.
    pub fn copy<F, T>(&self, from: &F, to: &T) -> Result<u64, Error>
    where
        F: Target + ?Sized,
        T: Target + ?Sized,
    {
        traced(|| {
            let op = Operation::Copy;
            let from = from.select(self, op)?;
            let to = to.select(self, op)?;
            atomic::copy(&from, &to.writable(op)?)
        })
    }

    /// Walks the directory `target` depth-first within `limits`, through
    /// directory handles, without following symlinks; entries are named
    /// relative to their root. Each directory is opened beneath its
    /// parent's handle and read from that descriptor; [`Walk::next_ref`]
    /// steps the walk without allocating per entry.
    ///
    /// # Errors
    ///
    /// As [`read_dir`](Self::read_dir) for the start; the iterator yields
    /// errors for directories it cannot enter.
    pub fn walk<T: Target + ?Sized>(&self, target: &T, limits: WalkLimits) -> Result<Walk, Error> {
        traced(|| ops::open::walk(&target.select(self, Operation::Walk)?, limits))
    }
}

impl selected::Roots for RootSet {
    fn has_root(&self, id: RootId) -> bool {
        self.by_id.contains_key(&id)
    }

    fn map(&self) -> &dyn crate::sys::RootMap {
        self
    }

    fn root_at(&self, index: usize) -> Option<&Root> {
        self.root(index)
    }

    fn has_parts(&self) -> bool {
        self.has_parts
    }
}
