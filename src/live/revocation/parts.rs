//! The parts of a root a tracked file may have moved into (or that a
//! `replace` with other patterns now hides or keeps read-only): judged on
//! the descriptor's path beneath the root that contains the file now.

use std::fs::File;

use crate::error::ErrorKind;
use crate::root::Root;
use crate::root::parts::Verdict;
use crate::sys;

/// Why a file that lies beneath `root` is revoked by `root`'s patterns:
/// `hidden` when its path is hidden now, `read_only` when it writes and
/// its path is read-only; `None` to keep it. A descriptor whose path cannot
/// be told is revoked (`scope_lost`): the check fails closed.
pub(crate) fn refusal(root: &Root, file: &File, writes: bool) -> Option<ErrorKind> {
    let parts = root.parts.as_ref()?;
    let Ok(path) = sys::fd_path(file) else {
        return Some(ErrorKind::ScopeLost);
    };
    let Ok(rel) = path.strip_prefix(&root.resolved) else {
        // Not beneath the root's path: the caller located it there by
        // identity (a deleted file); nothing is named to judge.
        return None;
    };
    let mut joined = String::with_capacity(rel.as_os_str().len());
    for component in rel.components() {
        if !joined.is_empty() {
            joined.push('/');
        }
        joined.push_str(&component.as_os_str().to_string_lossy());
    }
    match parts.judge(&joined) {
        Verdict::Hidden(_) => Some(ErrorKind::Hidden),
        Verdict::ReadOnly(_) | Verdict::ReadOnlyDir if writes => Some(ErrorKind::ReadOnly),
        _ => None,
    }
}

/// Whether a root that stays in the set through a `replace` has other
/// patterns than before: its files are then located and judged again.
pub(crate) fn changed(now: &Root, before: Option<&Root>) -> bool {
    let Some(before) = before else {
        return false;
    };
    match (&now.parts, &before.parts) {
        (None, None) => false,
        (Some(a), Some(b)) => !a.same_as(b),
        _ => true,
    }
}
