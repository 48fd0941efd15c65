//! Where a tracked file lies now, told from its descriptor (never from the
//! path it was opened as).

use std::fs::File;

use crate::root::RootId;
use crate::set::RootSet;
use crate::sys;

/// Where an open file lies now, by its descriptor: the root containing it in
/// `set`, or `None` if it lies beneath none. A deleted file stays with
/// `current` if that root is still in the set. Fails closed: a descriptor
/// that cannot be located is out of scope.
pub(crate) fn locate(
    file: &File,
    set: &RootSet,
    current: RootId,
    paths: &mut sys::FdPaths,
) -> Option<RootId> {
    let path = paths.path(file).ok()?;
    if let Some(root) = set.locate_physical(&path) {
        return Some(root.id);
    }
    let deleted =
        path.to_str()?.ends_with(" (deleted)") && sys::link_count(file).is_ok_and(|n| n == 0);
    (deleted && set.root_by_id(current).is_some()).then_some(current)
}
