//! The process is the session: what a server that serves one client per
//! process (stdio) remembers of that client across 2026-07-28 requests.
//!
//! On 2026-07-28 the roots come with each request and are judged as that
//! request's own ([`Roots::for_request`]): two requests in flight at once
//! each run under the list it carried, and nothing is installed as the
//! process's boundary. What a request cannot know alone, the process
//! remembers here, because over stdio every request comes from the same
//! client:
//!
//! - **whether the client has shared a folder yet.** Until it lists a root,
//!   an empty list is the answer of a client with no folder open, served
//!   as a client without the capability is (the ceiling under
//!   [`EmptyRoots::Ceiling`](mcp_roots::EmptyRoots::Ceiling)); once it has
//!   listed one, an empty list shares nothing, as on a 2025 session.
//! - **the files its earlier requests opened.** Each request's roots are a
//!   [`Roots`] of their own, and a file a server keeps open past its call
//!   stays registered there. When a later request arrives with another
//!   list, the roots of every request no call is using any more take that
//!   list's set ([`Roots::replace`]): a file under a root the client
//!   dropped is revoked (`scope_lost`), one under a root it kept stays. The
//!   roots of a call still in flight are left alone until it ends (it is
//!   judged under its own list to the end), then take the newest list.
//!
//! Requests are ordered by their arrival here (under one lock, which also
//! makes the roots' construction one at a time).

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use mcp_roots::{Error, RootSet, Roots};
use serde_json::Value;

use crate::call::blocking::{blocking, inline};
use crate::session::input_required::{INLINE_ROOTS, answer_in};
use crate::session::roots::SessionRoots;
use crate::values::answer::Answer;
use crate::values::empty::Client;

/// The memory of the one client a process serves.
#[derive(Debug, Default)]
pub(crate) struct Memory {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// The client has listed at least one root (whatever became of it).
    shared: bool,
    /// The number of the newest request (requests are numbered from 1).
    newest: u64,
    /// The set the newest request was served: the client's consent now.
    consent: Option<RootSet>,
    /// The roots handed to requests that are in flight, that may still
    /// hold files, or that the core may hand out again.
    held: Vec<Held>,
    /// The roots of the newest request that carried a list: the core keeps
    /// them to hand again to a request that repeats that list.
    last_listed: Option<Roots>,
}

#[derive(Debug)]
struct Held {
    roots: Roots,
    /// Calls running under these roots now.
    calls: usize,
    /// The request whose set these roots hold.
    consent: u64,
    /// Given a later request's set: never handed out again (the core would
    /// hand them again to a request that repeats their first list).
    retired: bool,
}

/// One call's roots under the process's memory: while the ticket lives,
/// the call is in flight and its roots are left as they are.
#[derive(Debug)]
pub(crate) struct Ticket {
    memory: Arc<Memory>,
    roots: Roots,
}

/// A call's roots: the set it is judged under, whose answer it is (for the
/// sentence of an empty set), and the ticket that keeps them its own.
#[derive(Debug)]
pub(crate) struct Admitted {
    pub(crate) roots: Roots,
    pub(crate) client: Client,
    pub(crate) ticket: Ticket,
}

impl Memory {
    /// The roots of one request, `answer` judged with what the process
    /// remembers of the client (opens every root: blocking).
    pub(crate) fn admit(self: &Arc<Self>, live: &Roots, answer: Answer) -> Admitted {
        let mut state = self.lock();
        let (answer, client) = match answer {
            Answer::Undeclared => (Answer::Undeclared, Client::Undeclared),
            // A client that has never shared a folder, with none open.
            Answer::Listed(list) if list.is_empty() && !state.shared => {
                (Answer::Undeclared, Client::Session { shared: false })
            }
            Answer::Listed(list) => {
                state.shared |= !list.is_empty();
                let shared = state.shared;
                (Answer::Listed(list), Client::Session { shared })
            }
        };
        let roots = state.fresh(live, answer);
        state.newest += 1;
        let request = state.newest;
        state.consent = Some(roots.load().set().clone());
        match state
            .held
            .iter_mut()
            .find(|h| Roots::ptr_eq(&h.roots, &roots))
        {
            Some(held) => {
                held.calls += 1;
                held.consent = request;
            }
            None => state.held.push(Held {
                roots: roots.clone(),
                calls: 1,
                consent: request,
                retired: false,
            }),
        }
        state.settle();
        let ticket = Ticket {
            memory: Arc::clone(self),
            roots: roots.clone(),
        };
        Admitted {
            roots,
            client,
            ticket,
        }
    }

    fn release(&self, roots: &Roots) {
        let mut state = self.lock();
        if let Some(held) = state
            .held
            .iter_mut()
            .find(|h| Roots::ptr_eq(&h.roots, roots))
        {
            held.calls = held.calls.saturating_sub(1);
        }
        state.settle();
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl State {
    /// The request's roots from the core, never roots that took a later
    /// request's set since they were first handed out.
    fn fresh(&mut self, live: &Roots, answer: Answer) -> Roots {
        let retired = |roots: &Roots| {
            self.held
                .iter()
                .any(|h| h.retired && Roots::ptr_eq(&h.roots, roots))
        };
        let Some(list) = answer.into_list() else {
            return live.for_request(None);
        };
        let mut roots = live.for_request(Some(list.clone()));
        if retired(&roots) {
            // The core kept them as the last request's: a request with an
            // empty list (which reuses nothing) makes it forget them.
            drop(live.for_request(Some(RootSet::builder())));
            roots = live.for_request(Some(list));
        }
        self.last_listed = Some(roots.clone());
        roots
    }

    /// Gives the newest set to the roots of every request no call uses any
    /// more, and forgets those that hold no file.
    fn settle(&mut self) {
        let Some(consent) = &self.consent else {
            return;
        };
        for held in &mut self.held {
            if held.calls > 0 || held.consent >= self.newest {
                continue;
            }
            let report = held.roots.replace(consent.clone());
            held.consent = self.newest;
            held.retired = true;
            if !report.revoked().is_empty() {
                tracing::info!(
                    revoked = report.revoked().len(),
                    "files opened under roots the client no longer lists were revoked"
                );
            }
        }
        let last = self.last_listed.as_ref();
        self.held.retain(|h| {
            h.calls > 0
                || h.roots.tracked() > 0
                || last.is_some_and(|last| Roots::ptr_eq(last, &h.roots))
        });
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.memory.release(&self.roots);
    }
}

/// One 2026-07-28 call's roots, with the process's memory when there is
/// one.
#[derive(Debug)]
pub(crate) struct CallRoots {
    pub(crate) roots: Roots,
    /// Whose answer it is, when the process remembers the client (`None`:
    /// a request without memory).
    pub(crate) client: Option<Client>,
    /// Held for the whole call.
    pub(crate) ticket: Option<Ticket>,
}

impl SessionRoots {
    /// The roots of one 2026-07-28 call (`response`: its
    /// `inputResponses[ROOTS_INPUT]`, `None` for a client without the
    /// capability): request-scoped, judged with the process's memory when
    /// the process is the session.
    ///
    /// # Errors
    ///
    /// As [`request_roots`](SessionRoots::request_roots).
    pub(crate) async fn call_roots(&self, response: Option<&Value>) -> Result<CallRoots, Error> {
        let Some(memory) = self.inner_process() else {
            let roots = self.request_roots(response).await?;
            return Ok(CallRoots {
                roots,
                client: None,
                ticket: None,
            });
        };
        let answer = answer_in(response)?;
        let live = self.roots().clone();
        let admitted = if answer.len() <= INLINE_ROOTS {
            inline(|| memory.admit(&live, answer))?
        } else {
            blocking(move || memory.admit(&live, answer)).await?
        };
        Ok(CallRoots {
            roots: admitted.roots,
            client: Some(admitted.client),
            ticket: Some(admitted.ticket),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use mcp_roots::{EmptyRoots, ErrorKind, RootsBuilder};

    use super::*;
    use crate::values::legacy::ClientRoot;

    /// `a`, `b` and `c` with a file each, under one temporary folder.
    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a", "b", "c"] {
            std::fs::create_dir(dir.path().join(name)).unwrap();
            std::fs::write(dir.path().join(name).join("f.txt"), name).unwrap();
        }
        dir
    }

    fn path(dir: &tempfile::TempDir, rel: &str) -> String {
        dir.path().join(rel).to_str().unwrap().to_owned()
    }

    fn listed(dir: &tempfile::TempDir, names: &[&str]) -> Answer {
        let roots = names
            .iter()
            .map(|n| ClientRoot {
                uri: path(dir, n),
                name: None,
            })
            .collect();
        Answer::Listed(roots)
    }

    /// The process's live roots, the ceiling the whole tree.
    fn live(dir: &tempfile::TempDir, empty: EmptyRoots) -> Roots {
        RootsBuilder::default()
            .ceiling([dir.path().to_str().unwrap()])
            .empty_roots(empty)
            .build()
    }

    /// Whether `roots` can read `rel`'s file.
    fn reads(roots: &Roots, dir: &tempfile::TempDir, rel: &str) -> bool {
        roots.load().read(path(dir, rel).as_str()).is_ok()
    }

    fn reason(file: &mut mcp_roots::TrackedFile) -> Option<ErrorKind> {
        let err = file.read(&mut [0; 4]).err()?;
        mcp_roots::Error::from_io(&err).map(|e| e.kind())
    }

    #[test]
    fn a_first_empty_list_is_served_the_ceiling_and_never_after_sharing() {
        let dir = tree();
        for (empty, first) in [(EmptyRoots::Ceiling, true), (EmptyRoots::DenyAll, false)] {
            let live = live(&dir, empty);
            let memory = Arc::new(Memory::default());
            // Two empty answers in a row: both are a client with no folder open.
            for _ in 0..2 {
                let call = memory.admit(&live, listed(&dir, &[]));
                assert_eq!(reads(&call.roots, &dir, "c/f.txt"), first, "{empty:?}");
                assert_eq!(call.client, Client::Session { shared: false });
            }
            let call = memory.admit(&live, listed(&dir, &["a"]));
            assert!(reads(&call.roots, &dir, "a/f.txt"));
            assert!(!reads(&call.roots, &dir, "c/f.txt"));
            drop(call);
            // Un-sharing after sharing: nothing, whatever the policy.
            let call = memory.admit(&live, listed(&dir, &[]));
            assert!(call.roots.load().is_empty(), "{empty:?}");
            assert_eq!(call.client, Client::Session { shared: true });
            // A client without the capability is still the policy's.
            let call = memory.admit(&live, Answer::Undeclared);
            assert_eq!(reads(&call.roots, &dir, "c/f.txt"), first);
            assert_eq!(call.client, Client::Undeclared);
        }
    }

    #[test]
    fn a_list_naming_only_refused_roots_counts_as_sharing() {
        let dir = tree();
        let live = live(&dir, EmptyRoots::Ceiling);
        let memory = Arc::new(Memory::default());
        let call = memory.admit(&live, listed(&dir, &["gone"]));
        assert!(call.roots.load().is_empty());
        drop(call);
        let call = memory.admit(&live, listed(&dir, &[]));
        assert!(call.roots.load().is_empty(), "the ceiling is not served");
    }

    #[test]
    fn files_under_a_dropped_root_are_revoked_and_the_others_kept() {
        let dir = tree();
        let live = live(&dir, EmptyRoots::DenyAll);
        let memory = Arc::new(Memory::default());
        let first = memory.admit(&live, listed(&dir, &["a", "b"]));
        let mut in_a = first
            .roots
            .load()
            .open(path(&dir, "a/f.txt").as_str())
            .unwrap();
        let mut in_b = first
            .roots
            .load()
            .open(path(&dir, "b/f.txt").as_str())
            .unwrap();
        drop(first); // the call ends; the server keeps its files
        let later = memory.admit(&live, listed(&dir, &["b", "c"]));
        assert_eq!(reason(&mut in_a), Some(ErrorKind::ScopeLost));
        assert_eq!(reason(&mut in_b), None);
        assert!(reads(&later.roots, &dir, "c/f.txt"));
        drop(later);
        // Un-sharing revokes the rest.
        let _none = memory.admit(&live, listed(&dir, &[]));
        let mut again = String::new();
        let err = in_b.read_to_string(&mut again).unwrap_err();
        assert_eq!(
            mcp_roots::Error::from_io(&err).map(|e| e.kind()),
            Some(ErrorKind::ScopeLost)
        );
    }

    #[test]
    fn calls_in_flight_at_once_each_keep_their_own_roots() {
        let dir = tree();
        let live = live(&dir, EmptyRoots::DenyAll);
        let memory = Arc::new(Memory::default());
        let one = memory.admit(&live, listed(&dir, &["a"]));
        let mut held = one
            .roots
            .load()
            .open(path(&dir, "a/f.txt").as_str())
            .unwrap();
        let two = memory.admit(&live, listed(&dir, &["b"]));
        // Each judged under the list it carried, while both run.
        assert!(reads(&one.roots, &dir, "a/f.txt"));
        assert!(!reads(&one.roots, &dir, "b/f.txt"));
        assert!(reads(&two.roots, &dir, "b/f.txt"));
        assert!(!reads(&two.roots, &dir, "a/f.txt"));
        assert_eq!(reason(&mut held), None, "not revoked under a running call");
        // The same list again while the first still runs: its own roots.
        let three = memory.admit(&live, listed(&dir, &["a"]));
        assert!(reads(&three.roots, &dir, "a/f.txt"));
        assert!(reads(&one.roots, &dir, "a/f.txt"));
        drop(three);
        drop(two);
        drop(one);
        // The newest list (`a`) keeps the file.
        assert_eq!(reason(&mut held), None);
        let _b = memory.admit(&live, listed(&dir, &["b"]));
        assert_eq!(reason(&mut held), Some(ErrorKind::ScopeLost));
    }

    #[test]
    fn roots_that_took_a_later_set_are_never_handed_out_again() {
        let dir = tree();
        let live = live(&dir, EmptyRoots::Ceiling);
        let memory = Arc::new(Memory::default());
        let first = memory.admit(&live, listed(&dir, &["a"]));
        let _file = first
            .roots
            .load()
            .open(path(&dir, "a/f.txt").as_str())
            .unwrap();
        drop(first);
        // A request without the capability gets the ceiling; the first
        // request's roots take that set (the core still keeps them as the
        // last listed request's).
        drop(memory.admit(&live, Answer::Undeclared));
        // The first list again: judged as that list, not the ceiling.
        let again = memory.admit(&live, listed(&dir, &["a"]));
        assert!(reads(&again.roots, &dir, "a/f.txt"));
        assert!(!reads(&again.roots, &dir, "b/f.txt"));
    }

    #[test]
    fn roots_no_call_uses_and_no_file_holds_are_forgotten() {
        let dir = tree();
        let live = live(&dir, EmptyRoots::DenyAll);
        let memory = Arc::new(Memory::default());
        for names in [&["a"][..], &["b"], &["a", "c"], &["c"]] {
            drop(memory.admit(&live, listed(&dir, names)));
        }
        // At most the last listed request's roots (the core may hand them again).
        assert!(memory.lock().held.len() <= 1, "{:?}", memory.lock().held);
    }
}
