//! What happens to the files handed out when the roots change: the fate
//! of each tracked handle on [`replace`](crate::Roots::replace) (decided
//! once per departed root, [`departed`]) and on
//! [`rescan`](crate::Roots::rescan) (each handle located from its
//! descriptor, [`locate`]), and how a handle is settled: kept, moved to the
//! root that contains it now, or revoked (descriptor closed): `scope_lost`
//! when no root contains it, `read_only` when it was opened for writing and
//! the root that contains it (or the part of it where it lies) is
//! read-only, `hidden` when it lies in a part of that root the policy hides
//! ([`parts`]).

use std::fs::File;
use std::sync::Arc;

pub(crate) mod departed;
pub(crate) mod locate;
pub(crate) mod parts;

use crate::error::ErrorKind;
use crate::error::Escaped;
use crate::live::registry::Registry;
use crate::live::report::{RescanReport, Revoked};
use crate::live::tracked::{HandleInner, HandleState};
use crate::options::hardening::Writes;
use crate::root::RootId;
use crate::set::RootSet;
use crate::sys::FdPaths;

/// Checks one registered handle against `set` under its lock, locating it
/// from its descriptor: keeps it (registered under the root that contains
/// it now) or revokes it (descriptor closed).
pub(crate) fn check(
    handle: &Arc<HandleInner>,
    set: &RootSet,
    registry: &Registry,
    report: &mut RescanReport,
) {
    let mut state = handle.lock();
    let Some(file) = live_file(&state) else {
        return;
    };
    let old = state.root;
    let now = locate::locate(file, set, old, &mut FdPaths::single());
    if now != Some(old) {
        registry.unregister(old, handle.id);
    }
    settle(handle, &mut state, now, set, registry, report);
}

/// What to do with the handles of a bucket taken from the registry (they
/// are registered nowhere until kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fate {
    /// Keep every one under this root, without locating any.
    KeepUnder(RootId),
    /// Revoke every one, without locating any.
    Revoke,
    /// Locate each from its descriptor.
    Locate,
}

/// Applies `fate` to the handles of a taken bucket.
pub(crate) fn settle_taken(
    handles: Vec<Arc<HandleInner>>,
    fate: Fate,
    set: &RootSet,
    registry: &Registry,
    paths: &mut FdPaths,
    report: &mut RescanReport,
) {
    if fate == Fate::Revoke {
        report.revoked.reserve(handles.len());
    }
    for handle in &handles {
        let mut state = handle.lock();
        let Some(file) = live_file(&state) else {
            continue;
        };
        let now = match fate {
            Fate::KeepUnder(root) => Some(root),
            Fate::Revoke => None,
            Fate::Locate => locate::locate(file, set, state.root, paths),
        };
        settle(handle, &mut state, now, set, registry, report);
    }
}

/// The open file of a handle that is neither released nor revoked.
fn live_file(state: &HandleState) -> Option<&File> {
    if state.released || state.revoked.is_some() {
        return None;
    }
    state.file.as_ref()
}

/// Keeps the handle under `now`, a root of `set` (registering it there),
/// or revokes it: for `None` (`scope_lost`), and for a file opened for
/// writing whose root in `set` is read-only (`read_only`: no descriptor
/// that writes stays under a read-only root). The caller has unregistered
/// it where needed.
fn settle(
    handle: &Arc<HandleInner>,
    state: &mut HandleState,
    now: Option<RootId>,
    set: &RootSet,
    registry: &Registry,
    report: &mut RescanReport,
) {
    let read_only = |root| {
        set.root_by_id(root)
            .is_some_and(|root| root.writes() != Writes::Allow)
    };
    let hidden_now = |root| {
        let root = set.root_by_id(root)?;
        parts::refusal(root, state.file.as_ref()?, handle.writes)
    };
    let refusal = now.and_then(|root| match handle.writes && read_only(root) {
        true => Some(ErrorKind::ReadOnly),
        false => hidden_now(root),
    });
    let reason = match (now, refusal) {
        (Some(_), Some(reason)) => reason,
        (Some(root), None) => {
            state.root = root;
            registry.register(root, handle.id, Arc::downgrade(handle));
            report.kept += 1;
            return;
        }
        (None, _) => ErrorKind::ScopeLost,
    };
    state.file = None;
    state.revoked = Some(reason);
    let path = Escaped(&handle.opened_as);
    match reason {
        ErrorKind::ReadOnly => tracing::warn!(
            root = ?state.root,
            %path,
            "handle revoked: it writes and its root (or its part of it) is read-only"
        ),
        ErrorKind::Hidden => tracing::warn!(
            root = ?state.root,
            %path,
            "handle revoked: its file is in a part of the root the policy hides"
        ),
        _ => tracing::warn!(root = ?state.root, %path, "handle revoked: its file left the roots"),
    }
    report.revoked.push(Revoked {
        root: state.root,
        path: String::from(&*handle.opened_as),
        reason,
    });
}
