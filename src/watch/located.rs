//! Where the tracked handles are, for the watch list: each handle is looked
//! up from its descriptor once, when the watcher first sees it, and again
//! only after a replace or a rescan (either can move it to another root or
//! find it elsewhere).
//!
//! Between those, a handle's directory can change only by a rename or
//! removal in a watched directory on its chain, and that event leads to a
//! rescan, after which every handle is looked up again. So a registry
//! change (a tracked open or close) costs the watcher one look-up per *new*
//! handle and a walk over the registry, not one descriptor look-up per
//! handle, and the watch list is recomputed only when the set of handle
//! directories changed.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

use crate::live::changes::Seen;
use crate::live::roots::{Inner, Installed};
use crate::root::RootId;
use crate::set::index::FastState;

/// A tracked handle's root directory and the directory holding it now,
/// both physical.
pub(super) type HandleDir = (PathBuf, PathBuf);

#[derive(Debug, Default)]
pub(super) struct Located {
    /// The count of replaces and rescans these look-ups are valid for.
    valid_for: Option<Seen>,
    /// Each live handle's root (as of its look-up) and directory.
    by_id: HashMap<u64, (RootId, Arc<HandleDir>), FastState>,
    /// One allocation per distinct directory.
    interned: HashSet<Arc<HandleDir>>,
}

impl Located {
    /// Forgets every look-up: the next [`dirs`](Self::dirs) looks up every
    /// handle from its descriptor.
    pub(super) fn forget(&mut self) {
        self.valid_for = None;
        self.by_id.clear();
        self.interned.clear();
    }

    /// Forgets the look-ups of `ids`.
    pub(super) fn forget_ids(&mut self, ids: &[u64]) {
        for id in ids {
            self.by_id.remove(id);
        }
    }

    /// The distinct directories of the live tracked handles, sorted, and
    /// the ids of the handles looked up from their descriptors by this call.
    pub(super) fn dirs(
        &mut self,
        inner: &Inner,
        installed: &Installed,
    ) -> (Vec<HandleDir>, Vec<u64>) {
        let seen = inner.changes.seen();
        if self.valid_for != Some(seen) {
            self.forget();
            self.valid_for = Some(seen);
        }
        let mut by_id =
            HashMap::with_capacity_and_hasher(self.by_id.len() + 1, FastState::default());
        // Keyed by address: one interned directory is one allocation.
        let mut distinct: HashMap<*const HandleDir, Arc<HandleDir>, FastState> = HashMap::default();
        let mut looked_up = Vec::new();
        for handle in inner.registry.handles() {
            let state = handle.lock();
            let Some(file) = &state.file else {
                continue;
            };
            let known = self
                .by_id
                .remove(&handle.id)
                .filter(|(root, _)| *root == state.root)
                .map(|(_, dir)| dir);
            let dir = match known {
                Some(dir) => dir,
                None => {
                    let Some(root) = installed.set().root_by_id(state.root) else {
                        continue;
                    };
                    let Some(dir) = crate::sys::fd_path(file)
                        .ok()
                        .and_then(|p| p.parent().map(PathBuf::from))
                    else {
                        continue;
                    };
                    looked_up.push(handle.id);
                    self.intern((root.resolved.clone(), dir))
                }
            };
            distinct
                .entry(Arc::as_ptr(&dir))
                .or_insert_with(|| dir.clone());
            by_id.insert(handle.id, (state.root, dir));
        }
        self.by_id = by_id;
        // Drop the directories no handle is in any more.
        self.interned.retain(|dir| Arc::strong_count(dir) > 1);
        let mut dirs: Vec<HandleDir> = distinct.values().map(|dir| (**dir).clone()).collect();
        dirs.sort();
        (dirs, looked_up)
    }

    fn intern(&mut self, dir: HandleDir) -> Arc<HandleDir> {
        if let Some(known) = self.interned.get(&dir) {
            return known.clone();
        }
        let dir = Arc::new(dir);
        self.interned.insert(dir.clone());
        dir
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::Roots;
    use crate::set::RootSet;

    #[test]
    fn handles_are_looked_up_once_until_a_rescan_or_replace() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let t = std::fs::canonicalize(tmp.path()).expect("canonical");
        // Windows canonicalises to a verbatim `\\?\` path, which is no root.
        let t = std::path::PathBuf::from(t.to_str().expect("utf-8").trim_start_matches(r"\\?\"));
        let root = t.join("root");
        std::fs::create_dir_all(root.join("d")).expect("mkdir");
        for file in ["a", "d/b", "d/c"] {
            std::fs::write(root.join(file), file).expect("write");
        }
        let roots = Roots::default();
        roots.replace(RootSet::from_uris([root.to_str().expect("utf-8")]));
        let open = |rel: &str| {
            let path = root.join(rel);
            roots
                .load()
                .open(path.to_str().expect("utf-8"))
                .expect("open")
        };
        let (_a, _b) = (open("a"), open("d/b"));
        let mut located = Located::default();
        let dirs = |located: &mut Located| located.dirs(roots.inner(), &roots.inner().installed());
        let both = vec![(root.clone(), root.clone()), (root.clone(), root.join("d"))];
        let (found, looked_up) = dirs(&mut located);
        assert_eq!((found.as_slice(), looked_up.len()), (both.as_slice(), 2));
        // Nothing new: nothing looked up.
        assert_eq!(dirs(&mut located), (both.clone(), Vec::new()));
        // A new handle beside one already known: only it.
        let c = open("d/c");
        let (found, looked_up) = dirs(&mut located);
        assert_eq!((found, looked_up.len()), (both.clone(), 1));
        // A closed one is forgotten; its directory too once empty.
        drop(_a);
        let (found, looked_up) = dirs(&mut located);
        assert_eq!((found.as_slice(), looked_up.len()), (&both[1..], 0));
        // A rescan may have found handles elsewhere: all looked up again.
        // (Not under Wine, whose descriptor paths do not follow a rename of
        // the directory above an open file.)
        if crate::sys::PATH_STYLE == crate::sys::PathStyle::Unix {
            std::fs::rename(root.join("d"), root.join("e")).expect("rename");
            roots.rescan();
            let (found, looked_up) = dirs(&mut located);
            assert_eq!(found, [(root.clone(), root.join("e"))]);
            assert_eq!(looked_up.len(), 2);
        }
        // As does a replace.
        roots.replace(RootSet::from_uris([root.to_str().expect("utf-8")]));
        assert_eq!(dirs(&mut located).1.len(), 2);
        drop(c);
    }
}
