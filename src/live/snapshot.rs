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
/// [`RootSet`]'s, run as described below.
///
/// # How long a request may use an old set
///
/// A snapshot *reads* the set that was installed when it was taken, for as
/// long as it lives: take one per request. Once a
/// [`replace`](Roots::replace) or a [`rescan`](Roots::rescan) has removed a
/// root from the installed set, every operation of an older snapshot aimed
/// beneath that root is refused with `scope_lost` (files it opened earlier
/// are revoked by the replace itself).
///
/// A *change* (creating, writing, truncating, removing or renaming, an
/// atomic write, a copy, and every open that may change a file: write,
/// append, truncate or create) is never made under a policy the user has
/// withdrawn. Before its system call, a change through a snapshot taken
/// before the last `replace` or `rescan` is judged in the set installed
/// *now*: the root the snapshot chose for its target must still be
/// installed (`scope_lost` otherwise), and the change is then made as a
/// new snapshot would make it, so a root made read-only since refuses it
/// (`read_only`), and so does a read-only root that a link or `..` carries
/// it into. A target the snapshot places under no root keeps the
/// snapshot's refusal (a root added since is reached through a new
/// snapshot). While nothing was replaced or rescanned, this costs one
/// atomic load.
///
/// What [`replace`](Roots::replace) guarantees to operations in flight: an
/// operation that passed its check before `replace` returned may still
/// land; one that begins after `replace` returned never lands under the
/// policy that `replace` withdrew. The window is one operation, never the
/// rest of the request.
///
/// # What keeps plain-set rules
///
/// What the snapshot exposes of its set ([`set`](Self::set), the
/// [`Deref`] to [`RootSet`] and every [`Root`] reached through it:
/// `root(i)`, `root_named`, `roots`, `root_by_id`) keeps plain-set rules:
/// it acts on the snapshot's set, is not judged against the installed
/// set, and its files are untracked. Every operation of `RootSet` that can
/// change the disk has a method of the same name here, so
/// `snapshot.write_atomic(…)` is always the judged one; only an explicit
/// `snapshot.set().write_atomic(…)`, or a `Root`'s own `create_new` or
/// `open_with`, is not.
///
/// [`Root`]: crate::Root
pub struct Snapshot<'r> {
    pub(crate) roots: &'r Roots,
    pub(crate) installed: Arc<Installed>,
    pub(crate) changes: Seen,
    /// Whether `installed` holds grants for one call
    /// ([`with_grant`](Snapshot::with_grant)): a set never installed, which
    /// the files opened through it keep to find their root.
    pub(crate) call_grants: bool,
}

impl Snapshot<'_> {
    /// The generation of the set this snapshot sees.
    pub fn generation(&self) -> u64 {
        self.installed.generation()
    }

    /// The set this snapshot sees. It keeps plain-set rules: its files are
    /// untracked, and its operations, changes included, act on this set
    /// without being judged against the set installed now (see
    /// [What keeps plain-set rules](Snapshot#what-keeps-plain-set-rules)).
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

    /// Creates a new file, tracked; see [`RootSet::create_new`]. Judged in
    /// the installed set as every change is (see [`Snapshot`]).
    ///
    /// # Errors
    ///
    /// As [`open_with`](Self::open_with).
    pub fn create_new<T: Target + ?Sized>(&self, target: &T) -> Result<TrackedFile, Error> {
        self.open_with(target, OpenOptions::new().read(false).create(Create::New))
    }

    /// Opens a regular file with `options`, tracked; see
    /// [`RootSet::open_with`]. An open that may change the file (write,
    /// append, truncate, create) is judged in the installed set before it
    /// opens anything, as every change is (see [`Snapshot`]); a read-only
    /// open reads the snapshot's set.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open); for an open that may change the file,
    /// `scope_lost` if its root has left the roots since the snapshot was
    /// taken, and `read_only` if the root it acts under is read-only now.
    pub fn open_with<T: Target + ?Sized>(
        &self,
        target: &T,
        options: OpenOptions,
    ) -> Result<TrackedFile, Error> {
        let op = options.operation();
        let how = options.how();
        let (set, baseline) = if how.changes() {
            let judged = self.for_change(op, &[&target])?;
            let seen = judged.seen;
            (judged.set, seen)
        } else {
            (Judged::own(self).set, self.changes)
        };
        let selected = target.select(&set, op).inspect_err(trace_denial)?;
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
        let recheck = match inner.changes.seen().since(baseline) {
            Since::Nothing => false,
            Since::Rescanned => true,
            Since::Replaced => match inner.installed().set().root_by_id(root) {
                None => true,
                Some(root) => handle.writes && root.writes() != Writes::Allow,
            },
        };
        if recheck {
            // A rescan ran since the set this open was made in was read,
            // or a replace that removed the handle's root (or, for a file
            // opened for writing, made it read-only), and may have missed
            // this handle (it registered after the registry was read):
            // check it against the current set. Had only replaces that
            // kept its root as it was run, none of them had to look at it.
            let mut report = RescanReport::default();
            revocation::check(&handle, inner.installed().set(), registry, &mut report);
            if let Some(revoked) = report.revoked.first() {
                return Err(Error::new(revoked.reason, op, selected.input));
            }
        }
        // A file opened under a grant for one call keeps that call's set:
        // its root is in no installed set.
        let call_set = self.call_grants.then(|| self.installed.clone());
        Ok(TrackedFile::new(handle, inner.clone(), call_set))
    }
}

/// The set an operation of a snapshot runs in, and the reading of the
/// change counter it was chosen at.
struct Judged<'a> {
    set: SetRef<'a>,
    seen: Seen,
}

/// The snapshot's own set, or the set installed when a change was judged.
enum SetRef<'a> {
    Own(&'a RootSet),
    Installed(Arc<Installed>),
}

impl Deref for SetRef<'_> {
    type Target = RootSet;

    fn deref(&self) -> &RootSet {
        match self {
            Self::Own(set) => set,
            Self::Installed(installed) => installed.set(),
        }
    }
}

impl<'a> Judged<'a> {
    fn own(snapshot: &'a Snapshot<'_>) -> Self {
        Self {
            set: SetRef::Own(snapshot.installed.set()),
            seen: snapshot.changes,
        }
    }
}

/// How the operations that return no file are judged: reads in the
/// snapshot's set, changes in the installed one.
impl Snapshot<'_> {
    /// The set a change aimed at `targets` is made in, judged before its
    /// system call: the snapshot's own while nothing was replaced or
    /// rescanned since it was taken (one atomic load); otherwise the set
    /// installed now, once the root the snapshot chooses for each target is
    /// checked to be still in it (`scope_lost`; a target the snapshot
    /// places under no root gets the snapshot's own refusal). Running the change in that
    /// set judges it by the current policy: the root it lands in (across a
    /// link or `..` too) must be installed and writable there.
    fn for_change(&self, op: Operation, targets: &[&dyn Target]) -> Result<Judged<'_>, Error> {
        let inner = self.roots.inner_arc();
        let seen = inner.changes.seen();
        if seen.since(self.changes) == Since::Nothing {
            return Ok(Judged::own(self));
        }
        // Loaded after the counter was read: at least as new as the last
        // replace that counted before it.
        let installed = inner.installed();
        for target in targets {
            self.still_installed(*target, op, installed.set())?;
        }
        Ok(Judged {
            set: SetRef::Installed(installed),
            seen,
        })
    }

    /// Refuses (`scope_lost`) an operation whose root has left the
    /// installed set since this snapshot was taken. Free while nothing was
    /// replaced or rescanned.
    fn in_scope<T: Target + ?Sized>(&self, target: &T, op: Operation) -> Result<(), Error> {
        let inner = self.roots.inner_arc();
        if inner.changes.seen().since(self.changes) == Since::Nothing {
            return Ok(());
        }
        self.still_installed(&target, op, inner.installed().set())
    }

    /// `Ok` when the root this snapshot chooses for `target` is in
    /// `installed`; `scope_lost` when it is not; the snapshot's own refusal
    /// when it chooses none (a change is made only where the snapshot's
    /// view and the installed set both allow it).
    fn still_installed(
        &self,
        target: &dyn Target,
        op: Operation,
        installed: &RootSet,
    ) -> Result<(), Error> {
        let selected = target
            .select(self.installed.set(), op)
            .inspect_err(trace_denial)?;
        if installed.root_by_id(selected.root.id).is_some() {
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

    /// Opens a regular file read-only and hands it to `read`; see
    /// [`RootSet::read_with`]. Not tracked, as [`read`](Self::read): the
    /// file is closed when `read` returns.
    ///
    /// # Errors
    ///
    /// As [`read`](Self::read); `io` with the error `read` returned.
    pub fn read_with<T: Target + ?Sized, R>(
        &self,
        target: &T,
        read: impl FnOnce(&mut std::fs::File, u64) -> std::io::Result<R>,
    ) -> Result<R, Error> {
        self.in_scope(target, Operation::Open)?;
        self.set().read_with(target, read)
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

    /// The number of hard links to a file or directory; see
    /// [`RootSet::link_count`].
    ///
    /// # Errors
    ///
    /// As [`read_dir`](Self::read_dir).
    pub fn link_count<T: Target + ?Sized>(&self, target: &T) -> Result<u64, Error> {
        self.in_scope(target, Operation::Metadata)?;
        self.set().link_count(target)
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

    /// Creates a directory; see [`RootSet::create_dir`]. Judged in the
    /// installed set, as every change is (see [`Snapshot`]).
    ///
    /// # Errors
    ///
    /// As `RootSet::create_dir`; `scope_lost` if its root has left the
    /// roots since the snapshot was taken; `read_only` if the root it acts
    /// under is read-only now.
    pub fn create_dir<T: Target + ?Sized>(&self, target: &T) -> Result<(), Error> {
        let judged = self.for_change(Operation::CreateDir, &[&target])?;
        judged.set.create_dir(target)
    }

    /// Creates a directory and its missing ancestors; see
    /// [`RootSet::create_dir_all`]. Judged as [`create_dir`](Self::create_dir).
    ///
    /// # Errors
    ///
    /// As [`create_dir`](Self::create_dir).
    pub fn create_dir_all<T: Target + ?Sized>(&self, target: &T) -> Result<(), Error> {
        let judged = self.for_change(Operation::CreateDir, &[&target])?;
        judged.set.create_dir_all(target)
    }

    /// Removes a file; see [`RootSet::remove_file`]. Judged as
    /// [`create_dir`](Self::create_dir).
    ///
    /// # Errors
    ///
    /// As [`create_dir`](Self::create_dir).
    pub fn remove_file<T: Target + ?Sized>(&self, target: &T) -> Result<(), Error> {
        let judged = self.for_change(Operation::Remove, &[&target])?;
        judged.set.remove_file(target)
    }

    /// Removes an empty directory; see [`RootSet::remove_dir`]. Judged as
    /// [`create_dir`](Self::create_dir).
    ///
    /// # Errors
    ///
    /// As [`create_dir`](Self::create_dir).
    pub fn remove_dir<T: Target + ?Sized>(&self, target: &T) -> Result<(), Error> {
        let judged = self.for_change(Operation::Remove, &[&target])?;
        judged.set.remove_dir(target)
    }

    /// Renames without replacing; see [`RootSet::rename`]. Judged as
    /// [`create_dir`](Self::create_dir), both ends.
    ///
    /// # Errors
    ///
    /// As [`create_dir`](Self::create_dir), for either end.
    pub fn rename<F, T>(&self, from: &F, to: &T) -> Result<(), Error>
    where
        F: Target + ?Sized,
        T: Target + ?Sized,
    {
        self.rename_with(from, to, Overwrite::Refuse)
    }

    /// Renames, choosing whether to replace; see [`RootSet::rename_with`].
    /// Judged as [`create_dir`](Self::create_dir), both ends.
    ///
    /// # Errors
    ///
    /// As [`create_dir`](Self::create_dir), for either end.
    pub fn rename_with<F, T>(&self, from: &F, to: &T, overwrite: Overwrite) -> Result<(), Error>
    where
        F: Target + ?Sized,
        T: Target + ?Sized,
    {
        let judged = self.for_change(Operation::Rename, &[&from, &to])?;
        judged.set.rename_with(from, to, overwrite)
    }

    /// Moves, by rename or across file systems by copy and removal; see
    /// [`RootSet::move_with`]. Judged as [`create_dir`](Self::create_dir),
    /// both ends.
    ///
    /// # Errors
    ///
    /// As [`create_dir`](Self::create_dir), for either end.
    pub fn move_with<F, T>(&self, from: &F, to: &T, overwrite: Overwrite) -> Result<(), Error>
    where
        F: Target + ?Sized,
        T: Target + ?Sized,
    {
        let judged = self.for_change(Operation::Rename, &[&from, &to])?;
        judged.set.move_with(from, to, overwrite)
    }

    /// Replaces a file's content atomically; see [`RootSet::write_atomic`].
    /// Judged as [`create_dir`](Self::create_dir).
    ///
    /// # Errors
    ///
    /// As [`create_dir`](Self::create_dir).
    pub fn write_atomic<T: Target + ?Sized>(&self, target: &T, data: &[u8]) -> Result<(), Error> {
        let judged = self.for_change(Operation::WriteAtomic, &[&target])?;
        judged.set.write_atomic(target, data)
    }

    /// Copies a file to a new name; see [`RootSet::copy`]. Judged as
    /// [`create_dir`](Self::create_dir): the source's root must still be
    /// installed, and the destination is judged by the current policy.
    ///
    /// # Errors
    ///
    /// As [`create_dir`](Self::create_dir), for either end.
    pub fn copy<F, T>(&self, from: &F, to: &T) -> Result<u64, Error>
    where
        F: Target + ?Sized,
        T: Target + ?Sized,
    {
        let judged = self.for_change(Operation::Copy, &[&from, &to])?;
        judged.set.copy(from, to)
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
            call_grants: false,
        }
    }
}

/// The snapshot's set, with plain-set rules: every method of [`RootSet`]
/// that a `Snapshot` does not define itself (the accessors `roots`,
/// `root(i)`, `root_named`, `root_by_id`, `rejected`, `len`, …) acts on the
/// snapshot's set and is not judged against the installed one; the
/// operations of a [`Root`](crate::Root) reached so are not either. Every
/// operation that can change the disk is a `Snapshot` method of its own and
/// is judged (see [`Snapshot`]).
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

#[cfg(test)]
mod tests {
    /// The names of the `pub fn`s in `source` whose signature (up to its
    /// body) takes a [`Target`](crate::set::Target): the operations.
    fn operations(source: &str) -> Vec<&str> {
        let mut names = Vec::new();
        for (at, _) in source.match_indices("pub fn ") {
            let rest = &source[at + "pub fn ".len()..];
            let name_end = rest.find(['<', '(']).unwrap_or(0);
            let signature = &rest[..rest.find('{').unwrap_or(rest.len())];
            if signature.contains("Target") {
                names.push(&rest[..name_end]);
            }
        }
        names
    }

    /// Every operation of `RootSet` (the mutating ones above all) has a
    /// `Snapshot` method of the same name, so none is reached through
    /// `Deref` without the snapshot's checks.
    #[test]
    fn a_snapshot_shadows_every_operation_of_a_set() {
        let set = operations(include_str!("../set/root_set.rs"));
        let snapshot = operations(include_str!("snapshot.rs"));
        for name in [
            "write_atomic",
            "rename_with",
            "copy",
            "create_dir_all",
            "open_with",
        ] {
            assert!(set.contains(&name), "{name} is an operation of RootSet");
        }
        let missing: Vec<_> = set.iter().filter(|n| !snapshot.contains(n)).collect();
        assert!(missing.is_empty(), "not shadowed by Snapshot: {missing:?}");
    }
}
