//! [`TrackedFile`]: a file handed out by a [`Snapshot`](crate::Snapshot),
//! registered so that a root change or a move on disk can revoke it.

use std::fmt;
use std::fs::{File, Metadata};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::error::{Error, ErrorKind, Operation};
use crate::live::lock;
use crate::live::roots::{Inner, Installed};
use crate::ops;
use crate::root::RootId;
use crate::root::ScopedPath;
use crate::sys;

/// The shared part of a tracked handle: the registry holds it weakly.
#[derive(Debug)]
pub(crate) struct HandleInner {
    pub(crate) id: u64,
    /// The path below its root that the file was opened as (for reports).
    pub(crate) opened_as: Box<str>,
    /// Whether the file was opened for writing: such a handle is revoked
    /// when the root it lies under is read-only.
    pub(crate) writes: bool,
    state: Mutex<HandleState>,
}

/// What a handle is now; changed only under the handle's lock.
#[derive(Debug)]
pub(crate) struct HandleState {
    /// The root the file lies beneath, as of the last check.
    pub(crate) root: RootId,
    /// The open file; `None` once revoked or released.
    pub(crate) file: Option<File>,
    pub(crate) revoked: Option<ErrorKind>,
    /// The `TrackedFile` was dropped or turned untracked.
    pub(crate) released: bool,
}

impl HandleInner {
    pub(crate) fn new(id: u64, root: RootId, opened_as: &str, file: File, writes: bool) -> Self {
        Self {
            id,
            opened_as: opened_as.into(),
            writes,
            state: Mutex::new(HandleState {
                root,
                file: Some(file),
                revoked: None,
                released: false,
            }),
        }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, HandleState> {
        lock::lock(&self.state)
    }
}

/// A file beneath a root that stays in scope, or stops working.
///
/// It reads, writes and seeks like a `File`. When a
/// [`replace`](crate::Roots::replace) or [`rescan`](crate::Roots::rescan)
/// finds that the file no longer lies beneath any root, its descriptor is
/// closed and every later call fails with reason `scope_lost` (as an
/// `io::Error` whose inner error is an [`Error`]: see [`Error::from_io`]).
/// A file opened for writing is revoked the same way, with reason
/// `read_only`, when the root that contains it is read-only: a `replace`
/// that makes its root read-only, or a move into a read-only root that a
/// `rescan` finds.
///
/// It deliberately has no `AsFd`, `AsRawFd` or `try_clone`: a copy of the
/// descriptor would escape revocation. Leaving tracking is explicit:
/// [`into_untracked`](Self::into_untracked).
pub struct TrackedFile {
    handle: Arc<HandleInner>,
    roots: Arc<Inner>,
    /// The set of the call whose grant the file was opened through
    /// ([`Snapshot::with_grant`](crate::Snapshot::with_grant)), where its
    /// root is found: that set is never installed.
    call_set: Option<Arc<Installed>>,
}

impl TrackedFile {
    pub(crate) fn new(
        handle: Arc<HandleInner>,
        roots: Arc<Inner>,
        call_set: Option<Arc<Installed>>,
    ) -> Self {
        Self {
            handle,
            roots,
            call_set,
        }
    }

    /// The root the file lies beneath, as of the last check.
    pub fn root(&self) -> RootId {
        self.handle.lock().root
    }

    /// Why the handle was revoked, if it was.
    pub fn revoked(&self) -> Option<ErrorKind> {
        self.handle.lock().revoked
    }

    /// Metadata from the open descriptor.
    ///
    /// # Errors
    ///
    /// `scope_lost` after revocation; `io` if `fstat` fails.
    pub fn metadata(&self) -> Result<Metadata, Error> {
        self.with_file(Operation::Metadata, |file| file.metadata())
    }

    /// Where the file is now, relative to its root, located from its
    /// descriptor (not from the path it was opened with).
    ///
    /// # Errors
    ///
    /// `scope_lost` after revocation or when the file left its root;
    /// `not_found` when the file was deleted (it has no path any more).
    ///
    /// # Platform behavior
    ///
    /// The path comes from the descriptor: `/proc/self/fd` on Linux,
    /// `F_GETPATH` on macOS, `GetFinalPathNameByHandleW` on Windows;
    /// elsewhere `io` (unsupported).
    pub fn path(&self) -> Result<ScopedPath, Error> {
        let op = Operation::Resolve;
        let state = self.handle.lock();
        let file = self.open_file(&state, op)?;
        let installed = self.roots.installed();
        let root = installed.set().root_by_id(state.root).or_else(|| {
            self.call_set
                .as_ref()
                .and_then(|set| set.set().root_by_id(state.root))
        });
        let Some(root) = root else {
            return Err(self.error(ErrorKind::ScopeLost, op));
        };
        // A deleted file keeps a descriptor path ending in " (deleted)",
        // which a real name could also end with: ask the link count.
        if sys::link_count(file).is_ok_and(|n| n == 0) {
            return Err(self
                .error(ErrorKind::NotFound, op)
                .with_detail("the file was deleted"));
        }
        let rel = ops::open::physical_rel(root, file, op, &self.handle.opened_as)
            .map_err(|_| self.error(ErrorKind::ScopeLost, op))?;
        Ok(ScopedPath::new(root.id, root.slash.clone(), rel))
    }

    /// Stops tracking and returns the plain file: from now on no root change
    /// can revoke it. The caller takes responsibility for its scope.
    ///
    /// # Errors
    ///
    /// `scope_lost` if the handle was already revoked.
    pub fn into_untracked(self) -> Result<File, Error> {
        let mut state = self.handle.lock();
        let Some(file) = state.file.take() else {
            return Err(self.error(ErrorKind::ScopeLost, Operation::Use));
        };
        state.released = true;
        self.roots.registry.unregister(state.root, self.handle.id);
        Ok(file)
    }

    fn open_file<'s>(&self, state: &'s HandleState, op: Operation) -> Result<&'s File, Error> {
        state
            .file
            .as_ref()
            .ok_or_else(|| self.error(state.revoked.unwrap_or(ErrorKind::ScopeLost), op))
    }

    fn with_file<T>(
        &self,
        op: Operation,
        f: impl FnOnce(&mut File) -> io::Result<T>,
    ) -> Result<T, Error> {
        let mut state = self.handle.lock();
        let revoked = state.revoked.unwrap_or(ErrorKind::ScopeLost);
        let file = state.file.as_mut().ok_or_else(|| self.error(revoked, op))?;
        f(file).map_err(|e| Error::from_os(e, op, &self.handle.opened_as))
    }

    fn io<T>(&self, f: impl FnOnce(&mut File) -> io::Result<T>) -> io::Result<T> {
        let mut state = self.handle.lock();
        let revoked = state.revoked.unwrap_or(ErrorKind::ScopeLost);
        match state.file.as_mut() {
            Some(file) => f(file),
            None => Err(self.error(revoked, Operation::Use).into()),
        }
    }

    fn error(&self, kind: ErrorKind, op: Operation) -> Error {
        Error::new(kind, op, &self.handle.opened_as)
    }
}

impl Read for TrackedFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.io(|file| file.read(buf))
    }
}

impl Write for TrackedFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.io(|file| file.write(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.io(|file| file.flush())
    }
}

impl Seek for TrackedFile {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.io(|file| file.seek(pos))
    }
}

impl Drop for TrackedFile {
    fn drop(&mut self) {
        let mut state = self.handle.lock();
        if !state.released {
            state.released = true;
            state.file = None;
            self.roots.registry.unregister(state.root, self.handle.id);
        }
    }
}

impl fmt::Debug for TrackedFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.handle.lock();
        f.debug_struct("TrackedFile")
            .field("root", &state.root)
            .field("opened_as", &self.handle.opened_as)
            .field("revoked", &state.revoked)
            .finish()
    }
}
