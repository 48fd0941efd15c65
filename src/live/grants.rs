//! Grants ([semantics 15](crate::semantics#15-grants)): access the user
//! gave by answering a question, one file or one directory beneath the
//! operator's `ask_within` area.
//!
//! A grant for the session is a layer of its own in [`Roots`]
//! ([`Grants`]): every set installed is the client's list ∪ the grants, so
//! a new `roots/list` answer keeps them, and a grant does not count as the
//! client having shared a folder. It is installed like a root (the
//! watcher watches it, a snapshot taken before its end gets `scope_lost`
//! beneath it, and its end revokes the files opened through it as a
//! removed root's are). A grant for one call is a [`Snapshot`] of its own
//! ([`Snapshot::with_grant`]), never installed where a concurrent call
//! would see it.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, ErrorKind, Operation};
use crate::live::lock::lock;
use crate::live::report::RescanReport;
use crate::live::roots::Roots;
use crate::live::snapshot::Snapshot;
use crate::options::grant::GrantAccess;
use crate::root::Root;
use crate::set::RootSet;
use crate::set::area::{Area, AskAbout};

/// A session grant, as [`Roots::grant`] hands it out: what ends it
/// ([`Roots::end_grant`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GrantId(u64);

impl GrantId {
    /// The grant's number, unique in the process (for a log line).
    pub fn get(self) -> u64 {
        self.0
    }
}

/// The session's grants, in the order they were made.
#[derive(Debug, Default)]
pub(crate) struct Grants {
    list: Mutex<Vec<Grant>>,
}

#[derive(Debug)]
struct Grant {
    id: GrantId,
    about: AskAbout,
    root: Arc<Root>,
}

impl Grants {
    /// The grants' roots.
    pub(crate) fn roots(&self) -> Vec<Arc<Root>> {
        lock(&self.list).iter().map(|g| g.root.clone()).collect()
    }
}

impl Roots {
    /// The area the user may be asked about ([`RootsBuilder::ask_within`](crate::RootsBuilder::ask_within)),
    /// as admitted: its directories and the ones that grant nothing, with
    /// their reasons. `None` without `ask_within`.
    pub fn ask_area(&self) -> Option<&RootSet> {
        self.policy().area.as_ref().map(|area| &area.set)
    }

    /// Grants what `about` names for the session: the user said yes to
    /// the question [`Snapshot::may_ask`] allowed. The grant is judged
    /// again now (the path must still name what was asked about) and
    /// installed beside the client's roots as a new set; it stays through
    /// every later `replace`, until [`end_grant`](Self::end_grant) or the
    /// end of this `Roots`. A grant of what a session grant already covers
    /// (the same physical path and kind) with the same access, or for
    /// reading when it may change, is that grant (its id is returned
    /// again); a grant for changing what a grant covers for reading
    /// replaces that grant (its files are kept, and may now be changed).
    ///
    /// # Errors
    ///
    /// `outside_roots` without an area; `not_found` when what `about`
    /// names changed since it was judged; and as a client root's admission
    /// (`hidden`, `outside_ceiling`, `io`).
    pub fn grant(&self, about: &AskAbout) -> Result<GrantId, Error> {
        let area = self.area(about)?;
        let root = area.grant_root(about, self.policy().hardening)?;
        let writer = self.lock_writer();
        let id = {
            let mut list = lock(&self.inner().grants.list);
            let same = |g: &Grant| g.about.path() == about.path() && g.about.kind() == about.kind();
            let covers = |g: &Grant| {
                g.about.access() == about.access() || g.about.access() == GrantAccess::Change
            };
            if let Some(covering) = list.iter().find(|g| same(g) && covers(g)) {
                return Ok(covering.id);
            }
            // A read grant of the same thing is replaced by this one.
            list.retain(|g| !same(g));
            let id = GrantId(next_id());
            list.push(Grant {
                id,
                about: about.clone(),
                root,
            });
            id
        };
        let (pinned, rejected, hardening) = self.inner().installed().client_part();
        self.install_pins(writer, pinned, rejected, hardening);
        tracing::info!(
            grant = id.0,
            path = %crate::error::Escaped(&about.path().to_string_lossy()),
            kind = about.kind().as_str(),
            access = about.access().as_str(),
            "grant made for the session"
        );
        Ok(id)
    }

    /// Ends the session grant `id`: a new set without it is installed, and
    /// the files opened through it are settled as a removed root's are
    /// (revoked, `scope_lost`, unless another root of the set holds
    /// them), before this returns. Ending a grant that is not there (ended
    /// already) installs nothing and reports nothing.
    pub fn end_grant(&self, id: GrantId) -> RescanReport {
        let writer = self.lock_writer();
        let ended = {
            let mut list = lock(&self.inner().grants.list);
            let before = list.len();
            list.retain(|g| g.id != id);
            before != list.len()
        };
        if !ended {
            return RescanReport::default();
        }
        let (pinned, rejected, hardening) = self.inner().installed().client_part();
        let report = self.install_pins(writer, pinned, rejected, hardening);
        tracing::info!(
            grant = id.0,
            revoked = report.revoked().len(),
            "grant ended"
        );
        report
    }

    /// The session's grants, in the order they were made: each one's id
    /// and what it covers (path, kind, access), for a server to list them
    /// apart from the client's roots.
    pub fn grants(&self) -> Vec<(GrantId, AskAbout)> {
        let list = lock(&self.inner().grants.list);
        list.iter().map(|g| (g.id, g.about.clone())).collect()
    }

    fn area(&self, about: &AskAbout) -> Result<&Area, Error> {
        self.policy().area.as_ref().ok_or_else(|| {
            Error::new(
                ErrorKind::OutsideRoots,
                Operation::AddRoot,
                &about.path().to_string_lossy(),
            )
            .with_detail("the server asks about no folder")
        })
    }
}

impl<'r> Snapshot<'r> {
    /// The area the user may be asked about, as [`Roots::ask_area`] gives
    /// it: for a server that tells the model what may still be granted
    /// when nothing is served.
    pub fn ask_area(&self) -> Option<&'r RootSet> {
        self.roots.ask_area()
    }

    /// Whether `untrusted` (a `file:` URI or an absolute path this
    /// snapshot refused) may be asked about for `access`, judged before
    /// any question: inside the area ([`RootsBuilder::ask_within`](crate::RootsBuilder::ask_within)),
    /// not hidden, not read-only for a change. The answer names the
    /// physical path and what the grant would cover: the directory it
    /// names, or the file (an existing one, or a new name in an existing
    /// directory).
    ///
    /// Ask about a path this snapshot refused as `outside_roots` (or
    /// `no_roots`): a grant adds a root, it never lifts the refusal of a
    /// root that already holds the path (a read-only or hidden part), since
    /// the outermost root still judges it.
    ///
    /// The judgement is the boundary's own, with no existence oracle: the
    /// path as given is matched against the patterns before the disk, and
    /// a refusal from the disk after a link or a `..` is judged on the
    /// deepest existing ancestor's physical path, so a hidden part answers
    /// `hidden` whether anything is there or not.
    ///
    /// # Errors
    ///
    /// `outside_roots` past the area or without one (with a detail that
    /// says so); `hidden`; `read_only` for [`GrantAccess::Change`] where
    /// the policy keeps the path read-only (a question cannot lift it);
    /// `not_found` when neither the path nor its directory exists, or it
    /// is a dangling symlink; `not_a_regular_file`; the input's form
    /// errors.
    pub fn may_ask(&self, untrusted: &str, access: GrantAccess) -> Result<AskAbout, Error> {
        match &self.roots.policy().area {
            Some(area) => area.may_ask(untrusted, access),
            None => Err(
                Error::new(ErrorKind::OutsideRoots, Operation::Resolve, untrusted)
                    .with_detail("the server asks about no folder"),
            ),
        }
    }

    /// This snapshot with what `about` names granted for one call: a
    /// snapshot of its own (the same set, the grant added as a root),
    /// never installed, so no other request sees it. The grant is judged
    /// again now, as [`Roots::grant`] judges it.
    ///
    /// It lasts as long as the returned snapshot, and no longer than the
    /// installed set: once a `replace`, a `rescan` or a session grant has
    /// installed a new set, operations beneath it are `scope_lost`, and the
    /// files opened through it are revoked by the next one (they are not
    /// in any installed set).
    ///
    /// # Errors
    ///
    /// As [`Roots::grant`].
    pub fn with_grant(&self, about: &AskAbout) -> Result<Snapshot<'r>, Error> {
        let area = self.roots.area(about)?;
        let root = area.grant_root(about, self.roots.policy().hardening)?;
        tracing::info!(
            path = %crate::error::Escaped(&about.path().to_string_lossy()),
            kind = about.kind().as_str(),
            access = about.access().as_str(),
            "grant made for one call"
        );
        Ok(Snapshot {
            roots: self.roots,
            installed: Arc::new(self.installed.with_root(root)),
            changes: self.changes,
            call_grants: true,
        })
    }
}

fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}
