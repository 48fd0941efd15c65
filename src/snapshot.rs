//! [`Snapshot`]: one request's consistent view of a session's roots; the
//! files it opens are tracked.

use std::ops::Deref;
use std::sync::Arc;

use crate::error::trace_denial;
use crate::handle::{HandleInner, TrackedFile};
use crate::live::{Installed, RESCAN, Roots};
use crate::options::{Create, OpenOptions};
use crate::rescan::{self, RescanReport};
use crate::target::Target;
use crate::{Error, ErrorKind, RootSet, ops};

/// One request's view of the roots. It dereferences to its [`RootSet`] for
/// every operation that returns no file; the file-returning operations
/// (`open`, `create_new`, `open_with`) are its own and return
/// [`TrackedFile`]s.
pub struct Snapshot<'r> {
    pub(crate) roots: &'r Roots,
    pub(crate) installed: Arc<Installed>,
    pub(crate) changes: u64,
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
        let set = self.installed.set();
        let selected = target.select(set, op).inspect_err(trace_denial)?;
        let file = ops::open_file(&selected, &options.how(), op).inspect_err(trace_denial)?;
        let inner = self.roots.inner_arc();
        let registry = &inner.registry;
        let handle = Arc::new(HandleInner::new(
            registry.next_id(),
            selected.root.id,
            selected.rel(),
            file,
        ));
        registry.register(selected.root.id, handle.id, Arc::downgrade(&handle));
        let changes = inner.changes();
        if changes != self.changes
            && (changes / RESCAN != self.changes / RESCAN
                || inner
                    .installed()
                    .set()
                    .root_by_id(selected.root.id)
                    .is_none())
        {
            // A rescan ran since this snapshot was taken, or a replace that
            // removed the handle's root, and may have missed this handle
            // (it registered after the registry was read): check it against
            // the current set. Had only replaces that kept its root run,
            // none of them had to look at it.
            let mut report = RescanReport::default();
            rescan::check(&handle, inner.installed().set(), registry, &mut report);
            if !report.revoked.is_empty() {
                return Err(Error::new(ErrorKind::ScopeLost, op, selected.input));
            }
        }
        Ok(TrackedFile::new(handle, inner.clone()))
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
