//! The one way this crate takes a lock: poisoning is ignored, because
//! every state a lock guards here changes by single assignments, inserts
//! or removals, so a panic while holding it leaves the state consistent.

use std::sync::{Mutex, MutexGuard};

/// Locks `mutex`, ignoring poisoning (see the module docs).
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
