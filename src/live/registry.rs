//! The registry of tracked handles, bucketed by root so that a `replace`
//! touches only the handles under roots that changed. It holds weak
//! references: it never keeps a file open.
//!
//! It is split into shards, each behind its own lock, and each thread
//! registers into its own shard with ids from its own block: threads that
//! open files at the same time share no lock and no counter.

use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

use crate::live::lock::lock;
use crate::live::tracked::HandleInner;
use crate::root::RootId;

/// Shards per registry (a power of two; the low bits of a handle id).
const SHARDS: usize = 16;
/// Ids a thread takes from the process-wide counter at a time.
const ID_BLOCK: u64 = 1 << 16;

#[derive(Debug)]
pub(crate) struct Registry {
    shards: Box<[Shard]>,
}

/// One shard, on a cache line of its own.
#[derive(Debug, Default)]
#[repr(align(128))]
struct Shard {
    buckets: Mutex<Buckets>,
    /// Bumped on every registration change in this shard (for the
    /// watcher).
    version: AtomicU64,
}

type Buckets = HashMap<RootId, Bucket, crate::set::index::FastState>;
type Bucket = HashMap<u64, Weak<HandleInner>, crate::set::index::FastState>;

impl Default for Registry {
    fn default() -> Self {
        Self {
            shards: (0..SHARDS).map(|_| Shard::default()).collect(),
        }
    }
}

/// Where the next ids come from, process-wide: blocks of [`ID_BLOCK`].
static NEXT_BLOCK: AtomicU64 = AtomicU64::new(0);
/// Which shard the next thread takes.
static NEXT_SHARD: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// This thread's shard and the rest of its block of ids: (shard, next
    /// id, end of block). Ids are unique in the process, hence in every
    /// registry.
    static IDS: Cell<Option<(usize, u64, u64)>> = const { Cell::new(None) };
}

impl Registry {
    /// A fresh handle id (never reused) naming the calling thread's shard.
    pub(crate) fn next_id(&self) -> u64 {
        IDS.with(|ids| {
            let (shard, next, end) = match ids.get() {
                Some((shard, next, end)) if next < end => (shard, next, end),
                other => {
                    let shard = other.map_or_else(
                        || NEXT_SHARD.fetch_add(1, Ordering::Relaxed) % SHARDS,
                        |(shard, ..)| shard,
                    );
                    let start = NEXT_BLOCK.fetch_add(ID_BLOCK, Ordering::Relaxed);
                    (shard, start, start + ID_BLOCK)
                }
            };
            ids.set(Some((shard, next + 1, end)));
            next * SHARDS as u64 + shard as u64
        })
    }

    fn shard(&self, id: u64) -> &Shard {
        &self.shards[id as usize % SHARDS]
    }

    pub(crate) fn register(&self, root: RootId, id: u64, handle: Weak<HandleInner>) {
        let shard = self.shard(id);
        lock(&shard.buckets)
            .entry(root)
            .or_default()
            .insert(id, handle);
        shard.version.fetch_add(1, Ordering::Relaxed);
    }

    /// Changes whenever a handle is registered or unregistered.
    #[cfg_attr(not(feature = "watch"), allow(dead_code))]
    pub(crate) fn version(&self) -> u64 {
        self.shards
            .iter()
            .map(|shard| shard.version.load(Ordering::Relaxed))
            .fold(0, u64::wrapping_add)
    }

    pub(crate) fn unregister(&self, root: RootId, id: u64) {
        // An empty bucket stays (with its table) until a replace or rescan
        // takes it: a server that opens one file at a time would otherwise
        // allocate and free the table on every open.
        let shard = self.shard(id);
        if let Some(bucket) = lock(&shard.buckets).get_mut(&root) {
            bucket.remove(&id);
        }
        shard.version.fetch_add(1, Ordering::Relaxed);
    }

    /// Removes and returns the live handles under `root`.
    pub(crate) fn take(&self, root: RootId) -> Vec<Arc<HandleInner>> {
        let mut handles = Vec::new();
        for shard in &self.shards {
            let bucket = lock(&shard.buckets).remove(&root).unwrap_or_default();
            handles.extend(bucket.values().filter_map(Weak::upgrade));
        }
        handles
    }

    /// The roots that have handles.
    pub(crate) fn roots(&self) -> Vec<RootId> {
        let mut roots: HashSet<RootId, crate::set::index::FastState> = HashSet::default();
        for shard in &self.shards {
            roots.extend(lock(&shard.buckets).keys());
        }
        roots.into_iter().collect()
    }

    /// Every live handle (for the watcher's list of directories).
    pub(crate) fn handles(&self) -> Vec<Arc<HandleInner>> {
        let mut handles = Vec::new();
        for shard in &self.shards {
            let buckets = lock(&shard.buckets);
            handles.extend(
                buckets
                    .values()
                    .flat_map(HashMap::values)
                    .filter_map(Weak::upgrade),
            );
        }
        handles
    }

    /// The number of registered handles.
    pub(crate) fn len(&self) -> usize {
        let count = |shard: &Shard| {
            lock(&shard.buckets)
                .values()
                .map(HashMap::len)
                .sum::<usize>()
        };
        self.shards.iter().map(count).sum()
    }
}
