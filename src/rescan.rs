//! Re-checking tracked handles against a root set, and what a check found.

use std::sync::Arc;

use crate::handle::{self, HandleInner};
use crate::registry::Registry;
use crate::root::RootId;
use crate::{ErrorKind, RootSet};

/// A handle that lost its scope and was closed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Revoked {
    /// The root it was beneath.
    pub root: RootId,
    /// The path below that root it was opened as.
    pub path: String,
    /// Why (`scope_lost`).
    pub reason: ErrorKind,
}

/// What a [`replace`](crate::Roots::replace) or
/// [`rescan`](crate::Roots::rescan) did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RescanReport {
    pub(crate) generation: u64,
    pub(crate) revoked: Vec<Revoked>,
    pub(crate) kept: usize,
    pub(crate) roots_gone: Vec<RootId>,
    pub(crate) roots_back: Vec<RootId>,
}

impl RescanReport {
    /// The generation of the set installed afterwards.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The handles that were revoked.
    pub fn revoked(&self) -> &[Revoked] {
        &self.revoked
    }

    /// How many checked handles were kept.
    pub fn kept(&self) -> usize {
        self.kept
    }

    /// Roots whose path stopped naming their pinned directory.
    pub fn roots_gone(&self) -> &[RootId] {
        &self.roots_gone
    }

    /// Roots whose pinned directory is at their path again.
    pub fn roots_back(&self) -> &[RootId] {
        &self.roots_back
    }
}

/// Checks one handle against `set` under its lock: keeps it (registered
/// under the root that contains it now) or revokes it (descriptor closed).
pub(crate) fn check(
    handle: &Arc<HandleInner>,
    set: &RootSet,
    registry: &Registry,
    report: &mut RescanReport,
) {
    let mut state = handle.lock();
    if state.released || state.revoked.is_some() {
        return;
    }
    let Some(file) = state.file.as_ref() else {
        return;
    };
    let old = state.root;
    match handle::locate(file, set, old) {
        Some(root) => {
            state.root = root;
            if root != old {
                registry.unregister(old, handle.id);
            }
            registry.register(root, handle.id, Arc::downgrade(handle));
            report.kept += 1;
        }
        None => {
            state.file = None;
            state.revoked = Some(ErrorKind::ScopeLost);
            registry.unregister(old, handle.id);
            tracing::warn!(root = ?old, path = %handle.opened_as, "handle revoked: its file left the roots");
            report.revoked.push(Revoked {
                root: old,
                path: handle.opened_as.to_string(),
                reason: ErrorKind::ScopeLost,
            });
        }
    }
}
