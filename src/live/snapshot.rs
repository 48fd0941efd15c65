//! [`Snapshot`]: one request's consistent view of a session's roots; the
//! files it opens are tracked.

use std::ops::Deref;
use std::sync::Arc;

use crate::error::trace_denial;
use crate::error::{Error, ErrorKind, Operation};
use crate::live::changes::{Seen, Since};
use crate::live::report::RescanReport;
use crate::live::revocation;
use crate::live::roots::{Installed, Roots};
use crate::live::tracked::{HandleInner, TrackedFile};
use crate::ops;
use crate::ops::open::Plan;
use crate::ops::read_dir::ReadDir;
use crate::ops::walk::{Walk, WalkLimits};
use crate::options::{Create, OpenOptions};
use crate::options::{Overwrite, Writes};
use crate::root::ScopedPath;
use crate::set::RootSet;
use crate::set::Target;
use std::fs::Metadata;

/// One request's view of the roots. Its file-returning operations (`open`,
/// `create_new`, `open_with`) return [`TrackedFile`]s; its other operations
/// (listing, metadata, resolving, walking and every change to the tree) are
/// [`RootSet`]'s, run against the snapshot's set.
///
/// # How long a request may use an old set
///
/// A snapshot sees the set that was installed when it was taken, for as
/// long as it lives: take one per request. Once a
/// [`replace`](Roots::replace) or a [`rescan`](Roots::rescan) has removed a
/// root from the installed set, every operation of an older snapshot aimed
/// beneath that root is refused with `scope_lost` (files it opened earlier
/// are revoked by the replace itself). An operation that passed this check
/// just before the replace may still complete: the window is one
/// operation, never the rest of the request. Operations on a [`Root`]
/// reached through the snapshot's set (`root_named`, `root(i)`) are not
/// re-checked: they act on that root's handle as a plain [`RootSet`] does.
///
/// [`Root`]: crate::Root
pub struct Snapshot<'r> {
    pub(crate) roots: &'r Roots,
    pub(crate) installed: Arc<Installed>,
    pub(crate) changes: Seen,
}

impl Snapshot<'_> {
    /// The generation of the set this snapshot sees.
    pub fn generation(&self) -> u64 {
        self.installed.generation()
    }

    /// The set this snapshot sees (its files are untracked).
    pub fn set(&self) -> &RootSet {
        self.installed.set()
    }

    /// Opens a regular file read-only, tracked.
    ///
    /// # Errors
    ///
    /// As [`RootSet::open`]; `scope_lost` if the roots changed during the
    /// open and the file is no longer in scope.
    pub fn open<T: Target + ?Sized>(&self, target: &T) -> Result<TrackedFile, Error> {
        self.open_with(target, OpenOptions::new())
    }

    /// Creates a new file, tracked; see [`RootSet::create_new`].
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open).
    pub fn create_new<T: Target + ?Sized>(&self, target: &T) -> Result<TrackedFile, Error> {
        self.open_with(target, OpenOptions::new().read(false).create(Create::New))
    }

    /// Opens a regular file with `options`, tracked; see
    /// [`RootSet::open_with`].
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open).
    pub fn open_with<T: Target + ?Sized>(
        &self,
        target: &T,
        options: OpenOptions,
    ) -> Result<TrackedFile, Error> {
        let op = options.operation();
        let how = options.how();
        let set = self.installed.set();
        let selected = target.select(set, op).inspect_err(trace_denial)?;
        let opened = ops::open::open_file(&selected, &how, op).inspect_err(trace_denial)?;
        // Registered under the root the file lies beneath: the one a walk
        // across roots landed in, when it did.
        let root = opened.root.id;
        let inner = self.roots.inner_arc();
        let registry = &inner.registry;
        let handle = Arc::new(HandleInner::new(
            registry.next_id(),
            root,
            selected.rel(),
            opened.file,
            how.writes(),
        ));
        registry.register(root, handle.id, Arc::downgrade(&handle));
        let recheck = match inner.changes.seen().since(self.changes) {
            Since::Nothing => false,
            Since::Rescanned => true,
            Since::Replaced => match inner.installed().set().root_by_id(root) {
                None => true,
                Some(root) => handle.writes && root.writes() != Writes::Allow,
            },
        };
        if recheck {
            // A rescan ran since this snapshot was taken, or a replace that
            // removed the handle's root (or, for a file opened for writing,
            // made it read-only), and may have missed this handle (it
            // registered after the registry was read): check it against the
            // current set. Had only replaces that kept its root as it was
            // run, none of them had to look at it.
            let mut report = RescanReport::default();
            revocation::check(&handle, inner.installed().set(), registry, &mut report);
            if let Some(revoked) = report.revoked.first() {
                return Err(Error::new(revoked.reason, op, selected.input));
            }
        }
        Ok(TrackedFile::new(handle, inner.clone()))
    }
}

/// The operations that return no file: checked against the installed set,
/// then run on the snapshot's set.
impl Snapshot<'_> {
    /// Refuses (`scope_lost`) an operation whose root has left the
    /// installed set since this snapshot was taken. Free while nothing was
    /// replaced or rescanned.
    fn in_scope<T: Target + ?Sized>(&self, target: &T, op: Operation) -> Result<(), Error> {
        let inner = self.roots.inner_arc();
        if inner.changes.seen().since(self.changes) == Since::Nothing {
            return Ok(());
        }
        let Ok(selected) = target.select(self.installed.set(), op) else {
            return Ok(()); // the operation itself reports why
        };
        if inner
            .installed()
            .set()
            .root_by_id(selected.root.id)
            .is_some()
        {
            return Ok(());
        }
        let error = Error::new(ErrorKind::ScopeLost, op, selected.input)
            .with_detail("its root left the roots after this request began");
        trace_denial(&error);
        Err(error)
    }

    /// Reads a regular file whole; see [`RootSet::read`]. The file is
    /// closed before this returns, so it is not tracked.
    ///
    /// # Errors
    ///
    /// As [`RootSet::read`]; `scope_lost` if its root has left the roots
    /// since the snapshot was taken.
    pub fn read<T: Target + ?Sized>(&self, target: &T) -> Result<Vec<u8>, Error> {
        self.in_scope(target, Operation::Open)?;
        self.set().read(target)
    }

    /// Reads a regular file whole as UTF-8 text; see
    /// [`RootSet::read_to_string`]. Not tracked, as [`read`](Self::read).
    ///
    /// # Errors
    ///
    /// As [`read`](Self::read); `io` if the file is not valid UTF-8.
    pub fn read_to_string<T: Target + ?Sized>(&self, target: &T) -> Result<String, Error> {
        self.in_scope(target, Operation::Open)?;
        self.set().read_to_string(target)
    }

    /// Lists a directory; see [`RootSet::read_dir`].
    ///
    /// # Errors
    ///
    /// As `RootSet::read_dir`; `scope_lost` if its root has left the roots
    /// since the snapshot was taken.
    pub fn read_dir<T: Target + ?Sized>(&self, target: &T) -> Result<ReadDir, Error> {
        self.in_scope(target, Operation::ReadDir)?;
        self.set().read_dir(target)
    }

    /// Metadata of a file or directory; see [`RootSet::metadata`].
    ///
    /// # Errors
    ///
    /// As [`read_dir`](Self::read_dir).
    pub fn metadata<T: Target + ?Sized>(&self, target: &T) -> Result<Metadata, Error> {
        self.in_scope(target, Operation::Metadata)?;
        self.set().metadata(target)
    }

    /// Resolves a path; see [`RootSet::resolve`].
    ///
    /// # Errors
    ///
    /// As [`read_dir`](Self::read_dir).
    pub fn resolve<T: Target + ?Sized>(&self, target: &T) -> Result<ScopedPath, Error> {
        self.in_scope(target, Operation::Resolve)?;
        self.set().resolve(target)
    }

    /// Walks a directory tree; see [`RootSet::walk`].
    ///
    /// # Errors
    ///
    /// As [`read_dir`](Self::read_dir).
    pub fn walk<T: Target + ?Sized>(&self, target: &T, limits: WalkLimits) -> Result<Walk, Error> {
        self.in_scope(target, Operation::Walk)?;
        self.set().walk(target, limits)
    }

    /// Creates a directory; see [`RootSet::create_dir`].
    ///
    /// # Errors
    ///
    /// As [`read_dir`](Self::read_dir).
    pub fn create_dir<T: Target + ?Sized>(&self, target: &T) -> Result<(), Error> {
        self.in_scope(target, Operation::CreateDir)?;
        self.set().create_dir(target)
    }

    /// Creates a directory and its missing ancestors; see
    /// [`RootSet::create_dir_all`].
    ///
    /// # Errors
    ///
    /// As [`read_dir`](Self::read_dir).
    pub fn create_dir_all<T: Target + ?Sized>(&self, target: &T) -> Result<(), Error> {
        self.in_scope(target, Operation::CreateDir)?;
        self.set().create_dir_all(target)
    }

    /// Removes a file; see [`RootSet::remove_file`].
    ///
    /// # Errors
    ///
    /// As [`read_dir`](Self::read_dir).
    pub fn remove_file<T: Target + ?Sized>(&self, target: &T) -> Result<(), Error> {
        self.in_scope(target, Operation::Remove)?;
        self.set().remove_file(target)
    }

    /// Removes an empty directory; see [`RootSet::remove_dir`].
    ///
    /// # Errors
    ///
    /// As [`read_dir`](Self::read_dir).
    pub fn remove_dir<T: Target + ?Sized>(&self, target: &T) -> Result<(), Error> {
        self.in_scope(target, Operation::Remove)?;
        self.set().remove_dir(target)
    }

    /// Renames without replacing; see [`RootSet::rename`].
    ///
    /// # Errors
    ///
    /// As [`read_dir`](Self::read_dir), for either end.
    pub fn rename<F, T>(&self, from: &F, to: &T) -> Result<(), Error>
    where
        F: Target + ?Sized,
        T: Target + ?Sized,
    {
        self.rename_with(from, to, Overwrite::Refuse)
    }

    /// Renames, choosing whether to replace; see [`RootSet::rename_with`].
    ///
    /// # Errors
    ///
    /// As [`read_dir`](Self::read_dir), for either end.
    pub fn rename_with<F, T>(&self, from: &F, to: &T, overwrite: Overwrite) -> Result<(), Error>
    where
        F: Target + ?Sized,
        T: Target + ?Sized,
    {
        self.in_scope(from, Operation::Rename)?;
        self.in_scope(to, Operation::Rename)?;
        self.set().rename_with(from, to, overwrite)
    }

    /// Replaces a file's content atomically; see [`RootSet::write_atomic`].
    ///
    /// # Errors
    ///
    /// As [`read_dir`](Self::read_dir).
    pub fn write_atomic<T: Target + ?Sized>(&self, target: &T, data: &[u8]) -> Result<(), Error> {
        self.in_scope(target, Operation::WriteAtomic)?;
        self.set().write_atomic(target, data)
    }

    /// Copies a file to a new name; see [`RootSet::copy`].
    ///
    /// # Errors
    ///
    /// As [`read_dir`](Self::read_dir), for either end.
    pub fn copy<F, T>(&self, from: &F, to: &T) -> Result<u64, Error>
    where
        F: Target + ?Sized,
        T: Target + ?Sized,
    {
        self.in_scope(from, Operation::Copy)?;
        self.in_scope(to, Operation::Copy)?;
        self.set().copy(from, to)
    }
}

impl Roots {
    /// One consistent view for one request: a lock-free load of the current
    /// set. Files it opens are tracked.
    pub fn load(&self) -> Snapshot<'_> {
        let inner = self.inner_arc();
        // The counter first: a set loaded after it is at least as new.
        let changes = inner.changes.seen();
        Snapshot {
            roots: self,
            installed: inner.current.load_full(),
            changes,
        }
    }
}

impl Deref for Snapshot<'_> {
    type Target = RootSet;

    fn deref(&self) -> &RootSet {
        self.installed.set()
    }
}

impl std::fmt::Debug for Snapshot<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Snapshot")
            .field("generation", &self.installed.generation())
            .finish_non_exhaustive()
    }
}
