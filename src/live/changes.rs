//! [`Changes`]: how many replaces and rescans a session's roots have seen,
//! so that an open that began before one of them knows to check its handle
//! again (the registration race: an open can register its handle after a
//! replace or rescan has read the registry).

use std::sync::atomic::{AtomicU64, Ordering};

/// The count of replaces and rescans, bumped after each swap and before the
/// handles are checked. Replaces count in the low half, rescans in the high
/// half; only this type knows that.
#[derive(Debug, Default)]
pub(crate) struct Changes(AtomicU64);

/// A reading of [`Changes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Seen(u64);

/// What happened between two readings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Since {
    /// Nothing: no replace, no rescan.
    Nothing,
    /// Only replaces (each settled the handles of the roots it removed).
    Replaced,
    /// At least one rescan (it located every handle it saw).
    Rescanned,
}

/// What one rescan adds (one replace adds 1).
const RESCAN: u64 = 1 << 32;

impl Changes {
    /// The count now.
    pub(crate) fn seen(&self) -> Seen {
        Seen(self.0.load(Ordering::SeqCst))
    }

    /// Counts a replace.
    pub(crate) fn replaced(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }

    /// Counts a rescan.
    pub(crate) fn rescanned(&self) {
        self.0.fetch_add(RESCAN, Ordering::SeqCst);
    }
}

impl Seen {
    /// What happened between `earlier` and this reading.
    pub(crate) fn since(self, earlier: Seen) -> Since {
        if self == earlier {
            Since::Nothing
        } else if self.0 / RESCAN != earlier.0 / RESCAN {
            Since::Rescanned
        } else {
            Since::Replaced
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_tell_replaces_from_rescans() {
        let changes = Changes::default();
        let start = changes.seen();
        assert_eq!(changes.seen().since(start), Since::Nothing);
        changes.replaced();
        assert_eq!(changes.seen().since(start), Since::Replaced);
        let replaced = changes.seen();
        changes.rescanned();
        assert_eq!(changes.seen().since(start), Since::Rescanned);
        assert_eq!(changes.seen().since(replaced), Since::Rescanned);
    }
}
