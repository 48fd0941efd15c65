//! What a [`replace`](crate::Roots::replace) or
//! [`rescan`](crate::Roots::rescan) reports: the handles revoked and the
//! roots gone or back.

use crate::error::ErrorKind;
use crate::root::RootId;

/// A handle that lost its scope and was closed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Revoked {
    /// The root it was beneath.
    pub root: RootId,
    /// The path below that root it was opened as.
    pub path: String,
    /// Why: `scope_lost` (no root contains the file any more), or
    /// `read_only` (the file was opened for writing and the root that
    /// contains it is read-only).
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
