//! [`Roots`]: the live boundary of one MCP session. It holds the current
//! [`RootSet`] behind an `ArcSwap`, applies the server's policy inside every
//! [`replace`](Roots::replace), and re-checks the files it handed out.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use arc_swap::ArcSwap;

use crate::error::{Error, ErrorKind, Operation};
use crate::live::builder::{RootIdentity, RootsBuilder};
use crate::live::changes::Changes;
use crate::live::grants::Grants;
use crate::live::lock::lock;
use crate::live::registry::Registry;
use crate::live::report::RescanReport;
use crate::live::revocation;
use crate::live::revocation::Fate;
use crate::live::revocation::departed;
use crate::options::hardening::{Hardening, Writes};
use crate::root::Root;
use crate::set::RootSet;
use crate::set::builder::RootSetBuilder;
use crate::set::policy::Policy;
use crate::set::root_set::Rejected;
use crate::sys::FdPaths;

impl Roots {
    /// The session's roots under `policy`, with no set installed yet.
    pub(crate) fn with_policy(policy: Policy, identity: RootIdentity) -> Self {
        let installed = Installed::assemble(0, Vec::new(), Vec::new(), policy.hardening);
        Self {
            inner: Arc::new(Inner {
                policy,
                identity,
                current: ArcSwap::from_pointee(installed),
                registry: Registry::default(),
                changes: Changes::default(),
                writer: Mutex::new(Vec::new()),
                last_request: Mutex::new(None),
                shared: AtomicBool::new(false),
                grants: Grants::default(),
            }),
        }
    }
}

/// The roots of one MCP session (never share one between sessions: client
/// A's roots would authorise client B). Cheap to clone; `Send + Sync`.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::io::Read;
/// use mcp_roots::{ErrorKind, Roots, RootSet};
///
/// let tmp = tempfile::tempdir()?;
/// let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
/// std::fs::create_dir(&a)?;
/// std::fs::create_dir(&b)?;
/// std::fs::write(a.join("x.md"), "x")?;
///
/// let roots = Roots::builder().build();
/// roots.replace(RootSet::from_uris([a.to_str().unwrap(), b.to_str().unwrap()]));
/// let mut file = roots.load().open(a.join("x.md").to_str().unwrap())?;
///
/// // The user removes root `a`: the file it held is revoked.
/// let report = roots.replace(RootSet::from_uris([b.to_str().unwrap()]));
/// assert_eq!(report.revoked().len(), 1);
/// let err = file.read(&mut [0; 8]).unwrap_err();
/// assert_eq!(mcp_roots::Error::from_io(&err).unwrap().kind(), ErrorKind::ScopeLost);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Roots {
    inner: Arc<Inner>,
}

pub(crate) struct Inner {
    policy: Policy,
    identity: RootIdentity,
    pub(crate) current: ArcSwap<Installed>,
    pub(crate) registry: Registry,
    /// Counts every replace and rescan, after the swap and before the
    /// handles are checked: an open that saw an older count re-checks its
    /// handle.
    pub(crate) changes: Changes,
    /// Serialises `replace` and `rescan`, and holds the sets they replaced
    /// until no snapshot uses them, so that the writer frees them rather
    /// than a reader dropping the last snapshot.
    writer: Mutex<Vec<Arc<Installed>>>,
    /// The last request's roots: served again to a request with the same
    /// list while every root still names its directory, and otherwise the
    /// set whose handles the next one takes over (identity checked).
    last_request: Mutex<Option<LastRequest>>,
    /// Whether the client has shared a folder: a list naming at least one
    /// root was installed (set before that list is admitted; read under
    /// the writer lock, so an empty list installed after a shared one
    /// always sees it).
    shared: AtomicBool,
    /// The session's grants: a layer of their own, added to every set
    /// installed (client list ∪ grants), changed only under the writer
    /// lock.
    pub(crate) grants: Grants,
}

/// What [`Roots::for_request`] keeps of the last request.
#[derive(Debug)]
struct LastRequest {
    list: RootSetBuilder,
    roots: Roots,
}

impl LastRequest {
    /// The same roots again, if `list` is the same list, none of it was
    /// refused (a refusal such as `not_found` may no longer hold), and each
    /// root's path still names the directory it was opened as.
    fn again(&self, list: &RootSetBuilder) -> Option<Roots> {
        if self.list != *list {
            return None;
        }
        let installed = self.roots.inner.installed();
        let set = installed.set();
        let unchanged = set.rejected().is_empty()
            && set
                .roots()
                .iter()
                .all(|root| root.verify().is_some_and(|now| Arc::ptr_eq(&now, root)));
        unchanged.then(|| self.roots.clone())
    }
}

impl Inner {
    pub(crate) fn installed(&self) -> Arc<Installed> {
        self.current.load_full()
    }

    /// For each tracked handle: its root's physical directory and the
    /// physical directory holding the file now.
    #[cfg_attr(not(feature = "watch"), allow(dead_code))]
    pub(crate) fn handle_dirs(&self) -> Vec<(std::path::PathBuf, std::path::PathBuf)> {
        let installed = self.installed();
        let mut dirs = Vec::new();
        for handle in self.registry.handles() {
            let state = handle.lock();
            let (Some(file), Some(root)) = (&state.file, installed.set.root_by_id(state.root))
            else {
                continue;
            };
            if let Some(dir) = crate::sys::fd_path(file)
                .ok()
                .and_then(|p| p.parent().map(Into::into))
            {
                dirs.push((root.resolved.clone(), dir));
            }
        }
        dirs
    }
}

/// An installed set: the client's roots after the policy, which of them
/// still name their pinned directories, and the effective set.
pub(crate) struct Installed {
    generation: u64,
    pinned: Vec<Pin>,
    base_rejected: Vec<Rejected>,
    set: RootSet,
}

impl Installed {
    /// The set of the `pinned` roots that are present, asked to carry
    /// `hardening` (the hardening of the set it was made from).
    fn assemble(
        generation: u64,
        pinned: Vec<Pin>,
        base: Vec<Rejected>,
        hardening: Hardening,
    ) -> Self {
        let mut rejected = base.clone();
        for pin in pinned.iter().filter(|pin| !pin.present) {
            let error = Error::new(ErrorKind::RootGone, Operation::AddRoot, pin.root.uri());
            rejected.push(Rejected::new(pin.root.name(), error));
        }
        let present = pinned.iter().filter(|pin| pin.present);
        let gone = pinned
            .iter()
            .filter(|pin| !pin.present)
            .map(|pin| &pin.root);
        let present = present.map(|pin| pin.root.clone());
        let set = RootSet::assemble(present.collect(), rejected, hardening).with_gone(gone);
        Self {
            generation,
            pinned,
            base_rejected: base,
            set,
        }
    }

    pub(crate) fn set(&self) -> &RootSet {
        &self.set
    }

    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }

    /// The client's roots of this set (its grants left out), the
    /// rejections of their list and its hardening: what a grant or the end
    /// of one installs again beside the grants.
    pub(crate) fn client_part(&self) -> (Vec<Pin>, Vec<Rejected>, Hardening) {
        let client = self.pinned.iter().filter(|pin| pin.root.grant.is_none());
        (
            client.cloned().collect(),
            self.base_rejected.clone(),
            self.set.hardening(),
        )
    }

    /// This set with `root` (a grant for one call) added, not installed
    /// anywhere: same generation. A grant of the same thing already in the
    /// set is left out (the call asked for this access).
    pub(crate) fn with_root(&self, root: Arc<Root>) -> Self {
        let same = |pin: &&Pin| {
            pin.root.grant.is_some()
                && pin.root.resolved == root.resolved
                && pin.root.granted_file() == root.granted_file()
        };
        let mut pinned: Vec<Pin> = self.pinned.iter().filter(|p| !same(p)).cloned().collect();
        pinned.push(Pin::present(&root));
        let hardening = self.set.hardening();
        Self::assemble(
            self.generation,
            pinned,
            self.base_rejected.clone(),
            hardening,
        )
    }

    /// The URI of a pinned root, present or gone.
    #[cfg_attr(not(feature = "watch"), allow(dead_code))]
    pub(crate) fn uri_of(&self, id: crate::root::RootId) -> Option<String> {
        self.pinned
            .iter()
            .find(|pin| pin.root.id == id)
            .map(|pin| pin.root.uri().to_owned())
    }

    /// Every pinned root's paths: as the client gave it, and resolved.
    #[cfg_attr(not(feature = "watch"), allow(dead_code))]
    pub(crate) fn pinned_paths(&self) -> impl Iterator<Item = &std::path::Path> {
        self.pinned.iter().flat_map(|pin| {
            [
                std::path::Path::new(&*pin.root.given),
                pin.root.resolved.as_path(),
            ]
        })
    }
}

impl Roots {
    /// A builder for the server's policy.
    pub fn builder() -> RootsBuilder {
        RootsBuilder::default()
    }

    /// Installs the client's new root list: applies the ceiling and the
    /// empty-list policy, verifies root identities, swaps atomically, then
    /// settles the handles under roots that are no longer in the set (the
    /// others cost nothing), deciding once per departed root `R` from where
    /// `R`'s directory is now:
    ///
    /// - if `R`'s path still names its directory and a root of the new set
    ///   contains that directory (walking up from `R`'s handle), all of
    ///   `R`'s handles are kept under that root (the outermost one);
    /// - if `R`'s path still names its directory and no root of the new set
    ///   contains it or lies at or beneath it, all of `R`'s handles are
    ///   revoked (`scope_lost`);
    /// - otherwise (a new root lies beneath `R`, `R` moved or was replaced,
    ///   or its place cannot be told) each handle is located from its
    ///   descriptor, as [`rescan`](Self::rescan) does.
    ///
    /// A root that stays in the set but is read-only now (a set that asks
    /// for it) keeps its handles, except the files opened for writing,
    /// which are revoked (`read_only`); wherever a handle is kept, one that
    /// writes is revoked so if its new root is read-only.
    ///
    /// So in the first two cases a file is judged by the root it was last
    /// checked under, not by where it is now: one moved out of `R` since
    /// then is kept when `R` is kept (as it is while `R` stays in the set),
    /// and one moved from `R` into another root is revoked (the safe side).
    /// [`rescan`](Self::rescan) locates every handle and catches both.
    ///
    /// The replaced set is freed by a later `replace` or `rescan` if a
    /// [`Snapshot`](crate::Snapshot) still holds it (so readers never pay for it); until
    /// then its root directories stay open.
    ///
    /// # Operations in flight
    ///
    /// The new set is installed, and counted, before the handles are
    /// settled and before this returns. An operation that passed its check
    /// before `replace` returned may still land; one that begins after
    /// `replace` returned never lands under the policy it withdrew: a
    /// change through a snapshot taken earlier is judged in the new set
    /// before its system call (`scope_lost` under a root it removed,
    /// `read_only` under a root it made read-only), and a file opened for
    /// writing under a root it made read-only or removed is revoked before
    /// this returns. Reads through an older snapshot keep that snapshot's
    /// set, except beneath a removed root (`scope_lost`); see
    /// [`Snapshot`](crate::Snapshot).
    ///
    /// # Platform behavior
    ///
    /// Walking up from a root needs `statx` mount ids (Linux 5.8+); without
    /// them, and on other platforms, every handle of a departed root is
    /// located.
    ///
    /// # Under a ceiling
    ///
    /// `client` was opened by the caller, at its own paths, before the
    /// policy could judge it. Under a ceiling its handles are therefore not
    /// used: every listed root (accepted or rejected) is judged again from
    /// its URI and opened beneath the ceiling, as
    /// [`replace_list`](Self::replace_list) does, with the hardening the set
    /// was built with ([`RootSetBuilder::writes`](crate::RootSetBuilder::writes),
    /// `symlinks`, `mount_points`, `hard_links`), whichever of its roots
    /// were accepted: a read-only set whose roots were all rejected when it
    /// was built (they did not exist yet) comes back read-only. Prefer `replace_list` or
    /// [`replace_uris`](Self::replace_uris) there: they never open anything
    /// outside the ceiling because a client named it.
    ///
    /// # An empty list
    ///
    /// A `client` set that lists no root at all (none accepted, none
    /// rejected) is installed as [`replace_undeclared`](Self::replace_undeclared)
    /// installs the answer of a client that shares nothing: the ceiling
    /// under [`EmptyRoots::Ceiling`](crate::EmptyRoots::Ceiling) while this
    /// `Roots` has never installed a list naming a root, nothing after.
    pub fn replace(&self, client: RootSet) -> RescanReport {
        if client.is_empty() && client.rejected().is_empty() {
            return self.replace_unshared();
        }
        self.inner.shared.store(true, Ordering::SeqCst);
        self.install(self.inner.policy.admit_set(client), Checked::No)
    }

    /// Installs the answer of a client that shares no folder: one that
    /// does not declare the roots capability, or (what
    /// [`replace_list`](Self::replace_list) and [`replace`](Self::replace)
    /// do with an empty list) one that answers with an empty list.
    ///
    /// Under [`EmptyRoots::Ceiling`](crate::EmptyRoots::Ceiling) such a
    /// client is served the whole ceiling *as long as it has never shared a
    /// folder in this session* ([`has_shared`](Self::has_shared) is false:
    /// no capability, or only empty answers so far), as a client without
    /// a folder open (an editor with no folder, an inspector with no roots)
    /// expects. Once a list naming at least one root was installed (even
    /// if the ceiling or the disk rejected every root of it: the user meant
    /// those folders, not the ceiling), an empty answer shares nothing:
    /// un-sharing never widens what the client may reach. Under
    /// [`EmptyRoots::DenyAll`](crate::EmptyRoots::DenyAll) (the default)
    /// it shares nothing, always.
    ///
    /// A `Roots` keeps this memory for its whole life, so use one per
    /// session (as the rest of its API requires). Request-scoped sets
    /// ([`for_request`](Self::for_request), [`scoped_list`](Self::scoped_list))
    /// have no memory of a client's earlier answers: there an empty list
    /// shares nothing, and only a client without the capability
    /// ([`scoped_undeclared`](Self::scoped_undeclared), `for_request(None)`)
    /// is served the ceiling.
    pub fn replace_undeclared(&self) -> RescanReport {
        self.replace_unshared()
    }

    /// Whether the client has shared a folder with this `Roots`: a list
    /// naming at least one root was installed through
    /// [`replace`](Self::replace), [`replace_list`](Self::replace_list) or
    /// [`replace_uris`](Self::replace_uris), whatever became of its roots.
    /// From then on an empty answer shares nothing (see
    /// [`replace_undeclared`](Self::replace_undeclared)).
    pub fn has_shared(&self) -> bool {
        self.inner.shared.load(Ordering::SeqCst)
    }

    /// An answer that shares no folder: the policy's set for a client that
    /// never shared one, or nothing. Decided under the writer lock, so it
    /// cannot be installed after a list that shared, having decided before.
    fn replace_unshared(&self) -> RescanReport {
        let writer = self.lock_writer();
        let set = if self.has_shared() {
            RootSet::assemble(Vec::new(), Vec::new(), self.inner.policy.hardening)
        } else {
            self.inner.policy.without_roots()
        };
        self.install_locked(writer, set, Checked::No)
    }

    /// Installs the client's root list (names kept): each root judged
    /// against the ceiling before anything at its path is opened, then
    /// opened (beneath the ceiling directory when there is one) with at
    /// least the policy's hardening. Roots of the installed set that the
    /// list repeats (same URI, same effective hardening) are taken over,
    /// their identity checked again, instead of opened anew.
    ///
    /// An empty list is an answer that shares no folder: see
    /// [`replace_undeclared`](Self::replace_undeclared) (the ceiling under
    /// [`EmptyRoots::Ceiling`](crate::EmptyRoots::Ceiling) only while the
    /// client has never shared one).
    pub fn replace_list(&self, client: RootSetBuilder) -> RescanReport {
        if client.is_empty() {
            return self.replace_unshared();
        }
        self.inner.shared.store(true, Ordering::SeqCst);
        let current = self.inner.installed();
        let set = self.inner.policy.admit(client, Some(current.set()));
        drop(current);
        self.install(set, Checked::ByBuilder)
    }

    fn install(&self, effective: RootSet, checked: Checked) -> RescanReport {
        self.install_locked(self.lock_writer(), effective, checked)
    }

    fn install_locked(
        &self,
        writer: MutexGuard<'_, Vec<Arc<Installed>>>,
        effective: RootSet,
        checked: Checked,
    ) -> RescanReport {
        let pinned: Vec<_> = match checked {
            Checked::ByBuilder => effective.roots().iter().map(Pin::present).collect(),
            Checked::No => effective.roots().iter().map(Pin::verify).collect(),
        };
        let rejected = effective.rejected().to_vec();
        self.install_pins(writer, pinned, rejected, effective.hardening())
    }

    /// Installs the client's roots `pinned` (with the `base` rejections
    /// and the `hardening` of the list they came from) and the session's
    /// grants, each verified: the installing half of every replace, grant
    /// and end of a grant.
    pub(crate) fn install_pins(
        &self,
        mut writer: MutexGuard<'_, Vec<Arc<Installed>>>,
        mut pinned: Vec<Pin>,
        base: Vec<Rejected>,
        hardening: Hardening,
    ) -> RescanReport {
        pinned.extend(self.inner.grants.roots().iter().map(Pin::verify));
        let generation = self.inner.current.load().generation + 1;
        let installed = Arc::new(Installed::assemble(generation, pinned, base, hardening));
        let mut report = RescanReport {
            generation,
            roots_gone: gone(&installed),
            ..RescanReport::default()
        };
        // Installed, then counted: an operation that reads the count after
        // this (every one that begins after `replace` returns) acts on this
        // set or a newer one.
        let before = self.inner.current.swap(installed.clone());
        self.inner.changes.replaced();
        let mut judge = departed::Judge::new(&installed.set);
        let mut paths = FdPaths::batch();
        let read_only = |root: &Root| root.writes() != Writes::Allow;
        for root in self.inner.registry.roots() {
            let fate = match installed.set.root_by_id(root) {
                None => judge.fate(before.set.root_by_id(root)),
                // A root that stays but is read-only now: its files opened
                // for writing are revoked, the others kept.
                Some(now)
                    if read_only(now) && !before.set.root_by_id(root).is_some_and(read_only) =>
                {
                    Fate::KeepUnder(root)
                }
                // A root that stays with other patterns: its files are
                // judged again where they lie.
                Some(now) if revocation::parts::changed(now, before.set.root_by_id(root)) => {
                    Fate::Locate
                }
                Some(_) => continue,
            };
            self.settle_bucket(root, fate, &installed.set, &mut paths, &mut report);
        }
        retire(&mut writer, before);
        // One request's roots (2026-07-28) are replaced per call: `DEBUG`.
        let (roots, rejected) = (installed.set.len(), installed.set.rejected().len());
        let revoked = report.revoked.len();
        if self.inner.policy.per_request {
            tracing::debug!(
                generation,
                roots,
                rejected,
                revoked,
                "request roots replaced"
            );
        } else {
            tracing::info!(generation, roots, rejected, revoked, "roots replaced");
        }
        report
    }

    /// [`replace`](Self::replace) with a set built from `client_uris`,
    /// taking over the open handles of installed roots that the list
    /// repeats (same URI; identity checked again, see
    /// [`RootSetBuilder::build_reusing`](crate::RootSetBuilder::build_reusing))
    /// instead of opening their directories again. The result is the same
    /// as `replace(RootSet::from_uris(client_uris))`; a client that re-sends
    /// its whole list on every change costs the server one descriptor
    /// look-up per repeated root instead of an open and a close.
    pub fn replace_uris<I>(&self, client_uris: I) -> RescanReport
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        let list = client_uris
            .into_iter()
            .fold(RootSet::builder(), RootSetBuilder::root);
        self.replace_list(list)
    }

    /// Verifies every root's identity (a gone root leaves the set; a root
    /// whose directory is back returns) and re-checks every tracked handle,
    /// locating each from its descriptor: a file is kept under the
    /// outermost root whose directory contains it now, wherever it moved,
    /// and revoked if none does (`scope_lost`) or if it was opened for
    /// writing and that root is read-only (`read_only`).
    pub fn rescan(&self) -> RescanReport {
        let mut writer = self.lock_writer();
        let old = self.inner.current.load_full();
        let pinned: Vec<_> = old
            .pinned
            .iter()
            .map(|pin| Pin::verify(&pin.root))
            .collect();
        let changed = pinned
            .iter()
            .zip(&old.pinned)
            .any(|(new, old)| new.present != old.present || !Arc::ptr_eq(&new.root, &old.root));
        let mut report = RescanReport::default();
        let installed = if changed {
            for (now, before) in pinned.iter().zip(&old.pinned) {
                match (before.present, now.present) {
                    (true, false) => report.roots_gone.push(now.root.id),
                    (false, true) => report.roots_back.push(now.root.id),
                    _ => {}
                }
            }
            let installed = Arc::new(Installed::assemble(
                old.generation + 1,
                pinned,
                old.base_rejected.clone(),
                old.set.hardening(),
            ));
            retire(&mut writer, self.inner.current.swap(installed.clone()));
            installed
        } else {
            old
        };
        report.generation = installed.generation;
        self.inner.changes.rescanned();
        let mut paths = FdPaths::batch();
        for root in self.inner.registry.roots() {
            self.settle_bucket(root, Fate::Locate, &installed.set, &mut paths, &mut report);
        }
        if changed || !report.revoked.is_empty() {
            tracing::info!(
                generation = report.generation,
                gone = report.roots_gone.len(),
                back = report.roots_back.len(),
                revoked = report.revoked.len(),
                "roots rescanned"
            );
        }
        report
    }

    /// A client root set with the server's policy applied (ceiling,
    /// hardening), *without* installing it: for roots that arrive with one
    /// request (the 2026-07-28 revision) and must not become the session's
    /// boundary. Under a ceiling the set's roots are judged again and
    /// opened beneath it, as for [`replace`](Self::replace), with the
    /// hardening the set was built with whichever of its roots were
    /// accepted; prefer [`scoped_list`](Self::scoped_list). Files opened
    /// through it are untracked.
    pub fn scoped(&self, client: RootSet) -> RootSet {
        self.inner.policy.admit_set(client)
    }

    /// A client root list admitted as [`replace_list`](Self::replace_list)
    /// admits it, *without* installing it (a request-scoped set). An empty
    /// list shares nothing (a request-scoped set has no memory of earlier
    /// answers; see [`for_request`](Self::for_request)).
    pub fn scoped_list(&self, client: RootSetBuilder) -> RootSet {
        self.inner.policy.admit(client, None)
    }

    /// The request-scoped set of a client that does not declare the roots
    /// capability (see [`replace_undeclared`](Self::replace_undeclared)).
    pub fn scoped_undeclared(&self) -> RootSet {
        self.inner.policy.without_roots()
    }

    /// The roots of one request (the 2026-07-28 revision): `client`
    /// admitted as [`scoped_list`](Self::scoped_list) admits it, or the
    /// policy alone for a client that declares no roots (`None`, as
    /// [`scoped_undeclared`](Self::scoped_undeclared)), installed in a
    /// `Roots` of their own that lives as long as the caller keeps it.
    /// Nothing is installed in `self`.
    ///
    /// Requests usually repeat the same roots. A request with the same list
    /// as the last one, none of it refused, gets the last one's roots again
    /// once each root's path is checked to still name its directory (as
    /// [`rescan`](Self::rescan) checks); otherwise the handles of the last
    /// request's roots are taken over where the URI repeats and the check
    /// holds (as [`replace_list`](Self::replace_list) does), and the rest
    /// are opened. `self` keeps the last request's roots (their
    /// descriptors) until the next request or until it is dropped, and the
    /// files opened through them are the requests' own: the returned
    /// `Roots` may serve several requests at once.
    ///
    /// A request carries no memory of the client's earlier lists, so an
    /// empty list (`Some` of a list naming no root) cannot be told from one
    /// that removed the last folder: it shares nothing, whatever the
    /// policy. Only a client without the roots capability (`None`) is
    /// served the ceiling under [`EmptyRoots::Ceiling`](crate::EmptyRoots::Ceiling).
    ///
    /// The returned `Roots` has this one's area
    /// ([`RootsBuilder::ask_within`](crate::RootsBuilder::ask_within)), so
    /// a grant for one call ([`Snapshot::with_grant`](crate::Snapshot::with_grant))
    /// works on it, but none of this one's session grants
    /// ([`grant`](Self::grant)): a request-scoped set is the request's.
    pub fn for_request(&self, client: Option<RootSetBuilder>) -> Roots {
        let Some(client) = client else {
            let request = self.request_roots();
            request.install(self.inner.policy.without_roots(), Checked::ByBuilder);
            return request;
        };
        let mut last = lock(&self.inner.last_request);
        if let Some(same) = last.as_ref().and_then(|l| l.again(&client)) {
            return same;
        }
        let previous = last.as_ref().map(|l| l.roots.inner.installed());
        let set = self
            .inner
            .policy
            .admit(client.clone(), previous.as_ref().map(|p| p.set()));
        let request = self.request_roots();
        request.install(set, Checked::ByBuilder);
        *last = Some(LastRequest {
            list: client,
            roots: request.clone(),
        });
        request
    }

    /// Whether the policy makes every root read-only ([`Writes::Refuse`],
    /// set by [`RootsBuilder::writes`](crate::RootsBuilder::writes)). Roots
    /// may be read-only for other reasons too (a read-only ceiling
    /// directory, a set that asks for it): [`Root::writes`](crate::Root::writes)
    /// answers for one root. A `Roots` made by [`for_request`](Self::for_request)
    /// answers for its own roots' policy: `Writes::Refuse` when it was
    /// built under a read-only policy.
    pub fn writes(&self) -> Writes {
        self.inner.policy.hardening.writes
    }

    /// An empty `Roots` for one request's set: the policy's hardening
    /// (read-only included) as its own floor, no ceiling.
    fn request_roots(&self) -> Roots {
        let policy = &self.inner.policy;
        Roots::with_policy(policy.for_request(), self.inner.identity)
    }

    /// Whether `this` and `other` are the same `Roots` (clones of one
    /// another, sharing one installed set and one registry of files), not
    /// merely `Roots` with equal sets. [`for_request`](Self::for_request)
    /// hands the same `Roots` to requests that repeat a list: a caller that
    /// keeps what it was handed tells them apart with this.
    pub fn ptr_eq(this: &Self, other: &Self) -> bool {
        Arc::ptr_eq(&this.inner, &other.inner)
    }

    /// The generation of the installed set (0 before the first `replace`).
    pub fn generation(&self) -> u64 {
        self.inner.current.load().generation
    }

    /// The number of tracked handles currently registered.
    pub fn tracked(&self) -> usize {
        self.inner.registry.len()
    }

    /// The operator ceiling, if one was set.
    pub fn ceiling(&self) -> Option<&RootSet> {
        self.inner.policy.ceiling.as_ref()
    }

    /// The policy this `Roots` was built with.
    pub(crate) fn policy(&self) -> &Policy {
        &self.inner.policy
    }

    #[cfg_attr(not(feature = "watch"), allow(dead_code))]
    pub(crate) fn downgrade(&self) -> Weak<Inner> {
        Arc::downgrade(&self.inner)
    }

    #[cfg_attr(not(feature = "watch"), allow(dead_code))]
    pub(crate) fn from_inner(inner: Arc<Inner>) -> Self {
        Self { inner }
    }

    #[cfg_attr(not(feature = "watch"), allow(dead_code))]
    pub(crate) fn inner(&self) -> &Inner {
        &self.inner
    }

    pub(crate) fn inner_arc(&self) -> &Arc<Inner> {
        &self.inner
    }

    fn settle_bucket(
        &self,
        root: crate::root::RootId,
        fate: Fate,
        set: &RootSet,
        paths: &mut FdPaths,
        report: &mut RescanReport,
    ) {
        let handles = self.inner.registry.take(root);
        revocation::settle_taken(handles, fate, set, &self.inner.registry, paths, report);
    }

    pub(crate) fn lock_writer(&self) -> std::sync::MutexGuard<'_, Vec<Arc<Installed>>> {
        lock(&self.inner.writer)
    }
}

/// Whether the roots of a set to install were just checked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Checked {
    No,
    /// By [`RootSetBuilder::build_reusing`](crate::RootSetBuilder::build_reusing):
    /// each reused root verified, each other root just opened.
    ByBuilder,
}

/// Keeps a replaced set until no snapshot holds it, and frees those that
/// no snapshot holds any more (one `swap` makes the count exact: arc-swap
/// settles the readers' pending references before returning the old set).
fn retire(retired: &mut Vec<Arc<Installed>>, old: Arc<Installed>) {
    retired.push(old);
    retired.retain(|set| Arc::strong_count(set) > 1);
}

/// A root of an installed set, and whether its path still names its
/// pinned directory (a gone root stays pinned, so it can come back).
#[derive(Clone)]
pub(crate) struct Pin {
    root: Arc<Root>,
    present: bool,
}

impl Pin {
    /// A root just opened or just checked.
    fn present(root: &Arc<Root>) -> Self {
        Self {
            root: root.clone(),
            present: true,
        }
    }

    /// A root as it is now: relocated if its directory moved while its
    /// path still names it (and it stays inside its ceiling), and whether
    /// it is present.
    fn verify(root: &Arc<Root>) -> Self {
        match root.verify() {
            Some(now) => Self {
                root: now,
                present: true,
            },
            None => Self {
                root: root.clone(),
                present: false,
            },
        }
    }
}

fn gone(installed: &Installed) -> Vec<crate::root::RootId> {
    installed
        .pinned
        .iter()
        .filter(|pin| !pin.present)
        .map(|pin| pin.root.id)
        .collect()
}

impl Default for Roots {
    /// No ceiling, deny-all on an empty list, pinned identity.
    fn default() -> Self {
        Self::builder().build()
    }
}

impl std::fmt::Debug for Roots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let installed = self.inner.current.load();
        f.debug_struct("Roots")
            .field("generation", &installed.generation)
            .field("set", &installed.set)
            .field("tracked", &self.inner.registry.len())
            .finish_non_exhaustive()
    }
}
