//! The registry of tracked handles, bucketed by root so that a `replace`
//! touches only the handles under roots that changed. It holds weak
//! references: it never keeps a file open.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use crate::handle::HandleInner;
use crate::root::RootId;

#[derive(Debug, Default)]
pub(crate) struct Registry {
    buckets: Mutex<Buckets>,
    next_id: AtomicU64,
    /// Bumped on every registration change (for the watcher).
    version: AtomicU64,
}

type Buckets = HashMap<RootId, Bucket, crate::lookup::FastState>;
type Bucket = HashMap<u64, Weak<HandleInner>, crate::lookup::FastState>;

impl Registry {
    /// A fresh handle id (never reused).
    pub(crate) fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    pub(crate) fn register(&self, root: RootId, id: u64, handle: Weak<HandleInner>) {
        self.lock().entry(root).or_default().insert(id, handle);
        self.version.fetch_add(1, Ordering::Relaxed);
    }

    /// Changes whenever a handle is registered or unregistered.
    #[cfg_attr(not(feature = "watch"), allow(dead_code))]
    pub(crate) fn version(&self) -> u64 {
        self.version.load(Ordering::Relaxed)
    }

    pub(crate) fn unregister(&self, root: RootId, id: u64) {
        // An empty bucket stays (with its table) until a replace or rescan
        // takes it: a server that opens one file at a time would otherwise
        // allocate and free the table on every open.
        if let Some(bucket) = self.lock().get_mut(&root) {
            bucket.remove(&id);
        }
        self.version.fetch_add(1, Ordering::Relaxed);
    }

    /// Removes and returns the live handles under `root`.
    pub(crate) fn take(&self, root: RootId) -> Vec<Arc<HandleInner>> {
        let bucket = self.lock().remove(&root).unwrap_or_default();
        bucket.values().filter_map(Weak::upgrade).collect()
    }

    /// The roots that have handles.
    pub(crate) fn roots(&self) -> Vec<RootId> {
        self.lock().keys().copied().collect()
    }

    /// Every live handle (for the watcher's list of directories).
    pub(crate) fn handles(&self) -> Vec<Arc<HandleInner>> {
        let buckets = self.lock();
        buckets
            .values()
            .flat_map(HashMap::values)
            .filter_map(Weak::upgrade)
            .collect()
    }

    /// The number of registered handles.
    pub(crate) fn len(&self) -> usize {
        self.lock().values().map(HashMap::len).sum()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Buckets> {
        // A panic while holding this lock leaves the maps consistent (every
        // operation is a single insert or remove), so poisoning is ignored.
        self.buckets
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
