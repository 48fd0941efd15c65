//! What a [`replace`](crate::Roots::replace) does with the handles under a
//! root that left the set: one decision per departed root, from the
//! kernel's view of that root's directory, instead of locating every handle
//! from its descriptor.
//!
//! For a departed root `R` whose path still names its pinned directory:
//!
//! - a root of the new set contains `R`'s directory (found by walking up
//!   from `R`'s open handle with `..`, comparing identity and mount): every
//!   handle is kept under the outermost such root;
//! - no root of the new set contains it, and none lies at or beneath it:
//!   every handle is revoked;
//! - otherwise (a new root lies beneath `R`, `R`'s path no longer names its
//!   directory, or anything cannot be told): each handle is located.
//!
//! The trade (SECURITY.md, "Live roots"): a file moved out of `R` since its
//! last check is judged with `R`'s directory, as it is while `R` stays in
//! the set; a file moved from `R` into another root is revoked.

use std::collections::HashSet;
use std::path::Path;

use crate::live::revocation::Fate;
use crate::root::{Root, RootId};
use crate::set::RootSet;
use crate::set::index::FastState;
use crate::sys;

/// Decides for the departed roots of one `replace` into `set`.
#[derive(Debug)]
pub(crate) struct Judge<'s> {
    set: &'s RootSet,
    /// The physical paths of `set`'s roots and of all their ancestors
    /// (`None` until first needed; `Some(None)` when a path is not UTF-8).
    at_or_above_roots: Option<Option<HashSet<&'s str, FastState>>>,
}

impl<'s> Judge<'s> {
    pub(crate) fn new(set: &'s RootSet) -> Self {
        Self {
            set,
            at_or_above_roots: None,
        }
    }

    /// The fate of the handles under `departed` (`None`: a root that is not
    /// in the set being replaced, whose directory is not at hand).
    pub(crate) fn fate(&mut self, departed: Option<&Root>) -> Fate {
        let Some(root) = departed else {
            return Fate::Locate;
        };
        // The directory is still what its path names (semantics 10).
        if !root.names_pinned_dir() {
            return Fate::Locate;
        }
        match self.container(root) {
            Ok(Some(id)) => return Fate::KeepUnder(id),
            Ok(None) => {}
            Err(Unsure) => return Fate::Locate,
        }
        let Ok(now) = sys::fd_path(&root.dir) else {
            return Fate::Locate;
        };
        match (now.to_str(), self.at_or_above_roots()) {
            (Some(now), Some(paths)) if !paths.contains(now) => Fate::Revoke,
            _ => Fate::Locate,
        }
    }

    /// The outermost root of the set whose directory contains `root`'s,
    /// reached on the same mount (a bind-mount alias of an ancestor is not
    /// taken for it).
    fn container(&self, root: &Root) -> Result<Option<RootId>, Unsure> {
        let (id, _) = sys::placement(&root.dir).map_err(|_| Unsure)?;
        if id != root.id.0 {
            // statx and fstat disagree on the device number: do not guess.
            return Err(Unsure);
        }
        let mut outermost = None;
        for (id, mount) in sys::ancestors(&root.dir).map_err(|_| Unsure)? {
            if let Some(candidate) = self.set.root_by_id(RootId::of(id)) {
                match sys::placement(&candidate.dir) {
                    Ok(placed) if placed == (id, mount) => outermost = Some(candidate.id),
                    _ => return Err(Unsure),
                }
            }
        }
        Ok(outermost)
    }

    fn at_or_above_roots(&mut self) -> Option<&HashSet<&'s str, FastState>> {
        let set = self.set;
        self.at_or_above_roots
            .get_or_insert_with(|| {
                let mut paths = HashSet::default();
                for root in set.roots() {
                    let mut at = Some(root.resolved.as_path());
                    while let Some(dir) = at {
                        paths.insert(dir.to_str()?);
                        at = dir.parent().filter(|p| *p != Path::new(""));
                    }
                }
                Some(paths)
            })
            .as_ref()
    }
}

/// Something about a departed root's place could not be told.
struct Unsure;
