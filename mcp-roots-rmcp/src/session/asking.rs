//! What a session remembers of the grant questions it asked the user
//! ([`SessionRoots::serve_needing`](crate::SessionRoots::serve_needing)):
//! the "no"s, keyed by the physical path and the access (never by
//! spelling), how many questions it asked lately (the rate limit), and
//! the questions being asked right now, so that a concurrent call that
//! needs the same grant waits for that answer instead of asking again.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcp_roots::{AskAbout, GrantAccess};
use tokio::sync::watch;

/// At most this many grant questions per session in [`GRANT_QUESTION_WINDOW`].
pub const GRANT_QUESTIONS: usize = 10;

/// The window of [`GRANT_QUESTIONS`]: ten minutes.
pub const GRANT_QUESTION_WINDOW: Duration = Duration::from_secs(600);

/// A grant's key: the physical path and the access.
pub(crate) type Key = (PathBuf, GrantAccess);

pub(crate) fn key_of(about: &AskAbout) -> Key {
    (about.path().to_path_buf(), about.access())
}

/// One session's memory of its grant questions.
#[derive(Debug)]
pub(crate) struct Asking {
    declined: Mutex<HashSet<Key>>,
    asked: Mutex<VecDeque<Instant>>,
    in_flight: Mutex<HashMap<Key, watch::Receiver<bool>>>,
    pub(crate) limit: usize,
    pub(crate) window: Duration,
}

impl Default for Asking {
    fn default() -> Self {
        Self {
            declined: Mutex::default(),
            asked: Mutex::default(),
            in_flight: Mutex::default(),
            limit: GRANT_QUESTIONS,
            window: GRANT_QUESTION_WINDOW,
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Asking {
    /// Whether the user said no to `about` in this session: a "no" to
    /// reading is also a "no" to changing.
    pub(crate) fn declined(&self, about: &AskAbout) -> bool {
        let declined = lock(&self.declined);
        let path = about.path().to_path_buf();
        declined.contains(&(path.clone(), about.access()))
            || declined.contains(&(path, GrantAccess::Read))
    }

    /// Remembers a "no" for the session.
    pub(crate) fn remember_no(&self, about: &AskAbout) {
        lock(&self.declined).insert(key_of(about));
    }

    /// Counts one more question, unless the session asked its limit in the
    /// window already (`false`: not asked).
    pub(crate) fn take_question(&self) -> bool {
        let now = Instant::now();
        let mut asked = lock(&self.asked);
        while asked
            .front()
            .is_some_and(|t| now.duration_since(*t) >= self.window)
        {
            asked.pop_front();
        }
        if asked.len() >= self.limit {
            return false;
        }
        asked.push_back(now);
        true
    }

    /// The answers being awaited for any of `keys` by other calls.
    pub(crate) fn awaited(&self, keys: &[Key]) -> Vec<watch::Receiver<bool>> {
        let in_flight = lock(&self.in_flight);
        keys.iter()
            .filter_map(|k| in_flight.get(k).cloned())
            .collect()
    }

    /// Marks `keys` as being asked by this call, until the returned guard
    /// is dropped (answered, refused or abandoned): then the calls waiting
    /// for them go on. `None` when another call asks about one of them.
    pub(crate) fn asking(self: &Arc<Self>, keys: Vec<Key>) -> Option<InFlight> {
        let mut in_flight = lock(&self.in_flight);
        if keys.iter().any(|k| in_flight.contains_key(k)) {
            return None;
        }
        let (done, seen) = watch::channel(false);
        for key in &keys {
            in_flight.insert(key.clone(), seen.clone());
        }
        Some(InFlight {
            asking: self.clone(),
            keys,
            done,
        })
    }
}

/// The questions one call is asking; dropping it releases the waiters.
#[derive(Debug)]
pub(crate) struct InFlight {
    asking: Arc<Asking>,
    keys: Vec<Key>,
    done: watch::Sender<bool>,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut in_flight = lock(&self.asking.in_flight);
        for key in &self.keys {
            in_flight.remove(key);
        }
        self.done.send_replace(true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_counts_questions_in_the_window() {
        let asking = Asking {
            limit: 2,
            window: Duration::from_millis(50),
            ..Asking::default()
        };
        assert!(asking.take_question());
        assert!(asking.take_question());
        assert!(!asking.take_question(), "a third question in the window");
        std::thread::sleep(Duration::from_millis(60));
        assert!(asking.take_question(), "the window moved on");
        let none = Asking {
            limit: 0,
            ..Asking::default()
        };
        assert!(!none.take_question());
    }

    #[tokio::test]
    async fn a_question_in_flight_is_asked_once_and_releases_its_waiters() {
        let asking = Arc::new(Asking::default());
        let a: Key = (PathBuf::from("/a"), GrantAccess::Read);
        let b: Key = (PathBuf::from("/b"), GrantAccess::Change);
        let first = Asking::asking(&asking, vec![a.clone(), b.clone()]).unwrap();
        // Any overlap is refused; another key is not.
        assert!(Asking::asking(&asking, vec![b.clone()]).is_none());
        let other = (PathBuf::from("/a"), GrantAccess::Change);
        let second = Asking::asking(&asking, vec![other.clone()]).unwrap();
        let mut waiters = asking.awaited(&[a.clone(), other]);
        assert_eq!(waiters.len(), 2);
        drop(first);
        let released = waiters.remove(0).wait_for(|done| *done).await.is_ok();
        assert!(released);
        assert!(asking.awaited(&[a.clone(), b]).is_empty());
        assert!(Asking::asking(&asking, vec![a]).is_some());
        drop(second);
    }
}
