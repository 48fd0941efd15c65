//! [`SessionRoots`]: one MCP session's roots, kept in sync with the client.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use mcp_roots::{Error, ErrorKind, Operation, Roots, RootsBuilder, Snapshot};
use rmcp::{Peer, RoleServer};
use tokio::sync::{Mutex, watch};

use crate::call::blocking::{blocking, run_blocking};
use crate::rounds::Rounds;
use crate::session::asking::Asking;
use crate::session::list;
use crate::session::process::Memory;
use crate::values::answer::Answer;
use crate::values::empty::Client;
use crate::values::legacy;

/// How long a tool call waits for the client's first `roots/list` answer.
pub const DEFAULT_FIRST_ANSWER_WAIT: Duration = Duration::from_secs(5);
/// How long a `roots/list` request may take.
pub const DEFAULT_LIST_TIMEOUT: Duration = Duration::from_secs(10);

/// The roots of one MCP session, synchronised with the client.
///
/// Create one per session (never share one between sessions: client A's
/// roots would authorise client B) and forward two notifications to it:
///
/// ```no_run
/// use mcp_roots_rmcp::SessionRoots;
/// use rmcp::{RoleServer, ServerHandler, service::NotificationContext};
///
/// #[derive(Clone)]
/// struct Notes {
///     roots: SessionRoots,
/// }
///
/// impl ServerHandler for Notes {
///     async fn on_initialized(&self, cx: NotificationContext<RoleServer>) {
///         self.roots.on_initialized(&cx.peer).await;
///     }
///     async fn on_roots_list_changed(&self, cx: NotificationContext<RoleServer>) {
///         self.roots.on_list_changed(&cx.peer).await;
///     }
/// }
/// ```
///
/// After `initialize`, if the client declared `roots`, it calls
/// `roots/list` and installs the answer; each `list_changed` re-lists.
/// Notifications that arrive while a request is in flight are coalesced into
/// one more request, and requests are numbered so that an older answer never
/// replaces a newer one. A client without `roots` gets the server's policy
/// (the ceiling, or nothing), said in the log; so does a client whose
/// answers have all been empty lists so far, and once it has listed a
/// folder an empty list shares nothing (see
/// [`Roots::replace_undeclared`](mcp_roots::Roots::replace_undeclared)). Tool calls go through
/// [`run`](Self::run), which waits (bounded) for the first answer and does
/// the blocking file work on tokio's blocking pool.
#[derive(Clone, Debug)]
pub struct SessionRoots {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    roots: Roots,
    first_answer_wait: Duration,
    list_timeout: Duration,
    /// Re-list requests asked for, and the last one served.
    wanted: AtomicU64,
    served: AtomicU64,
    /// Held by whoever is listing; others leave their request to it.
    lister: Mutex<()>,
    /// `Some(generation)` once the first answer (or the policy) is installed.
    ready: watch::Sender<Option<u64>>,
    /// The last re-list request served (mirrors `served`, for waiters).
    settled: watch::Sender<u64>,
    /// What carries a 2026-07-28 call across its rounds.
    rounds: Rounds,
    /// Whether `initialized` arrived (the session revisions).
    initialized: std::sync::atomic::AtomicBool,
    /// The memory of the process's one client, when the process is the
    /// session ([`SessionRoots::with_process_session`]).
    process: Option<Arc<Memory>>,
    /// The grant questions asked in this session.
    asking: Arc<Asking>,
    /// Told each set the session's roots are replaced with
    /// ([`SessionRoots::on_installed`]).
    on_installed: Option<OnInstalled>,
}

/// What [`SessionRoots::on_installed`] calls: the set in force, and whether
/// it came from the client's list.
type InstalledHook = dyn Fn(&mcp_roots::RootSet, bool) + Send + Sync;

/// A server's hook on each replacement of a session's roots.
#[derive(Clone)]
struct OnInstalled(Arc<InstalledHook>);

impl std::fmt::Debug for OnInstalled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OnInstalled")
    }
}

impl Drop for Inner {
    /// The session's grants end with it: their tracked files are revoked
    /// (`scope_lost`), as a removed root's are.
    fn drop(&mut self) {
        for (id, about) in self.roots.grants() {
            let report = self.roots.end_grant(id);
            tracing::info!(
                grant = id.get(),
                path = %crate::values::answer::escaped(&about.path().to_string_lossy()),
                access = about.access().as_str(),
                revoked = report.revoked().len(),
                "grant ended with the session"
            );
        }
    }
}

impl SessionRoots {
    /// A session with the server's policy (a fresh [`Roots`] is built from
    /// it, so no two sessions can share one).
    pub fn new(policy: RootsBuilder) -> Self {
        Self {
            inner: Arc::new(Inner {
                roots: policy.build(),
                first_answer_wait: DEFAULT_FIRST_ANSWER_WAIT,
                list_timeout: DEFAULT_LIST_TIMEOUT,
                wanted: AtomicU64::new(0),
                served: AtomicU64::new(0),
                lister: Mutex::new(()),
                ready: watch::Sender::new(None),
                settled: watch::Sender::new(0),
                rounds: Rounds::global(),
                initialized: std::sync::atomic::AtomicBool::new(false),
                process: None,
                asking: Arc::default(),
                on_installed: None,
            }),
        }
    }

    /// Sets how long tool calls wait for the first answer, and how long a
    /// `roots/list` request may take. Call before the session starts.
    ///
    /// # Panics
    ///
    /// If the session is already shared (cloned).
    pub fn with_timeouts(mut self, first_answer_wait: Duration, list_timeout: Duration) -> Self {
        let inner = Arc::get_mut(&mut self.inner).expect("set timeouts before sharing the session");
        inner.first_answer_wait = first_answer_wait;
        inner.list_timeout = list_timeout;
        self
    }

    /// Seals 2026-07-28 request states with `rounds` instead of the
    /// process-wide [`Rounds::global`] (for a key shared by several
    /// processes, or a test's clock). Call before the session starts.
    ///
    /// # Panics
    ///
    /// If the session is already shared (cloned).
    pub fn with_rounds(mut self, rounds: Rounds) -> Self {
        let inner =
            Arc::get_mut(&mut self.inner).expect("set the rounds before sharing the session");
        inner.rounds = rounds;
        self
    }

    /// Declares that this process serves one client, whose session it is
    /// (a server over stdio): 2026-07-28 requests, still each judged under
    /// the roots it carried (a request-scoped set, so requests in flight at
    /// once never run under each other's roots), are judged with the
    /// process's memory of the client, as a 2025 session is:
    ///
    /// - until the client has listed a root, an empty list is served as a
    ///   client without the roots capability is (the ceiling under
    ///   [`EmptyRoots::Ceiling`](mcp_roots::EmptyRoots::Ceiling), else
    ///   nothing): the answer of a client with no folder open;
    /// - once it has listed one, an empty list shares nothing;
    /// - a file opened under a request's roots and kept past its call is
    ///   revoked (`scope_lost`) when a later request's list drops its root:
    ///   the roots of every request no call is using any more take the
    ///   newest request's set ([`Roots::replace`]); those of a call in
    ///   flight take it when the call ends.
    ///
    /// Requests are ordered by their arrival. Without this (a server over
    /// HTTP, where a process serves many clients), a 2026-07-28 request has
    /// no memory: an empty list shares nothing and nothing is revoked
    /// across requests. The 2025 revisions are unchanged either way (their
    /// session is the connection). [`request_roots`](Self::request_roots)
    /// and [`run_scoped`](Self::run_scoped), for a server that drives its
    /// rounds itself, stay without memory: the memory is applied by
    /// [`serve`](Self::serve), [`serve_blocking`](Self::serve_blocking) and
    /// [`serve_with`](Self::serve_with). Call before the session starts.
    ///
    /// ```no_run
    /// use mcp_roots::{EmptyRoots, Roots};
    /// use mcp_roots_rmcp::SessionRoots;
    ///
    /// let policy = Roots::builder()
    ///     .ceiling(["/home/alice/project"])
    ///     .empty_roots(EmptyRoots::Ceiling);
    /// // The stdio entry: this process serves one client.
    /// let roots = SessionRoots::new(policy).with_process_session();
    /// # let _ = roots;
    /// ```
    ///
    /// # Panics
    ///
    /// If the session is already shared (cloned).
    pub fn with_process_session(mut self) -> Self {
        let inner = Arc::get_mut(&mut self.inner)
            .expect("declare the process's session before sharing the session");
        inner.process = Some(Arc::default());
        self
    }

    /// Allows at most `questions` grant questions per `window` in this
    /// session (default [`GRANT_QUESTIONS`](crate::GRANT_QUESTIONS) per
    /// [`GRANT_QUESTION_WINDOW`](crate::GRANT_QUESTION_WINDOW):
    /// ten in ten minutes); one more is refused with
    /// `grant_questions_exhausted` and asks nothing (see
    /// [`serve_needing`](Self::serve_needing)). Call before the session
    /// starts.
    ///
    /// # Panics
    ///
    /// If the session is already shared (cloned).
    pub fn with_grant_questions(mut self, questions: usize, window: Duration) -> Self {
        let inner = Arc::get_mut(&mut self.inner)
            .expect("set the grant questions before sharing the session");
        let asking = Arc::get_mut(&mut inner.asking).expect("not shared yet");
        asking.limit = questions;
        asking.window = window;
        self
    }

    /// What this session remembers of its grant questions.
    pub(crate) fn asking(&self) -> &Arc<Asking> {
        &self.inner.asking
    }

    /// Calls `hook` each time the session's roots are replaced from the
    /// client's answer (a first answer, a re-list after a change, or the
    /// policy for a client that does not declare roots), with the set now
    /// in force and whether it came from the client's list: for a server
    /// that tells its operator the directories in force on every change.
    /// Called on the blocking pool, after the replacement. Call before the
    /// session starts.
    ///
    /// # Panics
    ///
    /// If the session is already shared (cloned).
    pub fn on_installed(
        mut self,
        hook: impl Fn(&mcp_roots::RootSet, bool) + Send + Sync + 'static,
    ) -> Self {
        let inner = Arc::get_mut(&mut self.inner).expect("set the hook before sharing the session");
        inner.on_installed = Some(OnInstalled(Arc::new(hook)));
        self
    }

    /// Whether this process is its client's session (see
    /// [`with_process_session`](Self::with_process_session)).
    pub fn is_process_session(&self) -> bool {
        self.inner.process.is_some()
    }

    /// The process's memory of its client, if the process is the session.
    pub(crate) fn inner_process(&self) -> Option<Arc<Memory>> {
        self.inner.process.clone()
    }

    /// What carries this server's 2026-07-28 calls across their rounds.
    pub fn rounds(&self) -> &Rounds {
        &self.inner.rounds
    }

    /// The session's live roots.
    pub fn roots(&self) -> &Roots {
        &self.inner.roots
    }

    /// Call from `ServerHandler::on_initialized`: lists the client's roots,
    /// or applies the server's policy when the client declared none.
    pub async fn on_initialized(&self, peer: &Peer<RoleServer>) {
        self.inner.initialized.store(true, Ordering::SeqCst);
        match peer.peer_info() {
            Some(info) if legacy::declares_roots(&info.capabilities) => self.relist(peer).await,
            Some(info) => {
                tracing::info!(
                    client = %crate::values::answer::escaped(&info.client_info.name),
                    "client did not declare roots: the server's policy applies (its ceiling, or nothing)"
                );
                self.install(0, Answer::Undeclared).await;
            }
            None => {
                tracing::debug!("no initialize handshake on this session: roots come with requests")
            }
        }
    }

    /// Call from `ServerHandler::on_roots_list_changed`: re-lists the roots.
    pub async fn on_list_changed(&self, peer: &Peer<RoleServer>) {
        match peer.peer_info() {
            Some(info) if legacy::declares_roots(&info.capabilities) => self.relist(peer).await,
            _ => tracing::debug!("roots/list_changed from a session without roots: ignored"),
        }
    }

    /// Runs blocking file work against the current roots once the first
    /// answer is installed (waiting at most the configured time), on tokio's
    /// blocking pool.
    ///
    /// # Errors
    ///
    /// `no_roots` if no answer arrived in time; `io` if `work` panicked (the
    /// panic is logged; the tool call still gets an answer); whatever `work`
    /// returns.
    pub async fn run<T, F>(&self, work: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&Snapshot<'_>) -> Result<T, Error> + Send + 'static,
    {
        self.ready().await?;
        run_blocking(&self.inner.roots, work).await
    }

    /// Waits (bounded) until the first answer, or the policy, is installed,
    /// and until a re-list requested before this call has landed (bounded by
    /// the list timeout), so that a call right after `list_changed` sees the
    /// new roots. A call that starts before rmcp has even dispatched the
    /// notification can still see the previous roots: rmcp runs each
    /// notification and request in its own task.
    ///
    /// # Errors
    ///
    /// `no_roots` when nothing was installed in time.
    pub async fn ready(&self) -> Result<(), Error> {
        let inner = &self.inner;
        // The common case, without a timer: installed, no re-list pending.
        let installed = inner.ready.borrow().is_some();
        if installed && inner.wanted.load(Ordering::SeqCst) <= inner.served.load(Ordering::SeqCst) {
            return Ok(());
        }
        let mut ready = inner.ready.subscribe();
        let first = tokio::time::timeout(inner.first_answer_wait, ready.wait_for(Option::is_some));
        if !matches!(first.await, Ok(Ok(_))) {
            let detail = if inner.initialized.load(Ordering::SeqCst) {
                "the client has not answered roots/list yet"
            } else {
                // 2026-07-28 has no initialize and no roots/list: only
                // SessionRoots::serve gets roots there (with each request).
                "this session had no initialize handshake, so roots come with each request; the tool must be served through SessionRoots::serve"
            };
            return Err(Error::new(ErrorKind::NoRoots, Operation::Use, "").with_detail(detail));
        }
        let pending = inner.wanted.load(Ordering::SeqCst);
        if pending > inner.served.load(Ordering::SeqCst) {
            let mut settled = inner.settled.subscribe();
            let landed = settled.wait_for(|served| *served >= pending);
            // On timeout the previous roots serve: they are still the
            // user's last known consent.
            let _ = tokio::time::timeout(inner.list_timeout, landed).await;
        }
        Ok(())
    }

    /// Asks for one more `roots/list`; if a request is in flight, the lister
    /// sends another one after it, so a burst of notifications costs at
    /// most two requests.
    async fn relist(&self, peer: &Peer<RoleServer>) {
        let inner = &self.inner;
        inner.wanted.fetch_add(1, Ordering::SeqCst);
        loop {
            let Ok(_lister) = inner.lister.try_lock() else {
                return; // the current lister sees our request
            };
            loop {
                let wanted = inner.wanted.load(Ordering::SeqCst);
                if wanted == inner.served.load(Ordering::SeqCst) {
                    break;
                }
                match list::list_roots(peer, inner.list_timeout).await {
                    Ok(roots) => self.install(wanted, Answer::Listed(roots)).await,
                    Err(err) => {
                        tracing::warn!(request = wanted, error = %crate::values::answer::escaped(&err.to_string()), "roots/list failed; keeping the current roots")
                    }
                }
                inner.served.store(wanted, Ordering::SeqCst);
                inner.settled.send_replace(wanted);
            }
            drop(_lister);
            // A request that arrived just before the lock was released found
            // it held: serve it now.
            if inner.wanted.load(Ordering::SeqCst) == inner.served.load(Ordering::SeqCst) {
                return;
            }
        }
    }

    /// Installs an answer (request number `request`), off the async threads.
    async fn install(&self, request: u64, answer: Answer) {
        let roots = self.inner.roots.clone();
        let uris = answer.uris_for_log();
        let declared = !matches!(answer, Answer::Undeclared);
        let hook = self.inner.on_installed.clone();
        let installed = blocking(move || {
            let report = answer.install(&roots);
            let set = roots.load();
            if let Some(OnInstalled(hook)) = &hook {
                hook(set.set(), declared);
            }
            let client = match declared {
                true => Client::Session {
                    shared: roots.has_shared(),
                },
                false => Client::Undeclared,
            };
            // The operator hears at once when a session gets no usable root.
            let empty = set
                .set()
                .is_empty()
                .then(|| crate::values::empty::why(client, set.set()));
            (report, empty)
        });
        match installed.await {
            Ok((report, empty)) => {
                if let Some(why) = empty {
                    tracing::warn!(request, %why, "this session has no usable root");
                }
                tracing::info!(
                    request,
                    ?uris,
                    generation = report.generation(),
                    revoked = report.revoked().len(),
                    "client roots installed"
                );
                self.inner.ready.send_replace(Some(report.generation()));
            }
            Err(err) => tracing::error!(request, error = %err, "installing roots failed"),
        }
    }
}
