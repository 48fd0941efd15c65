//! [`Roots::watch`]: noticing on disk that a root, a directory above it, or
//! an open file's directory was moved or removed (DESIGN.md "Watching the
//! disk").
//!
//! Only what can change the answer is watched, non-recursively: each root's
//! directory and every ancestor up to `/` (of the path the client gave and
//! of the resolved path), and the directories from a root down to each
//! tracked handle's directory. A rename or removal there triggers a full
//! [`Roots::rescan`], which locates handles from their descriptors and
//! verifies root identities: event paths are hints, never trusted. The
//! watch list is recomputed after every rescan, every `replace` and every
//! change in the tracked handles.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Weak;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use notify::event::{EventKind, ModifyKind};
use notify::{RecommendedWatcher, RecursiveMode, Watcher};

use crate::live::Inner;
use crate::rescan::RescanReport;
use crate::root::RootId;
use crate::{Error, ErrorKind, Operation, Roots};

/// How often the watcher looks for new handles or a new root set.
const POLL: Duration = Duration::from_millis(50);
/// Events arriving within this window are handled by one rescan.
const DEBOUNCE: Duration = Duration::from_millis(10);

/// What the watcher noticed. A server can log these or ask the client for
/// `roots/list` again.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ScopeEvent {
    /// A root's path stopped naming its directory (moved away, removed or
    /// replaced); it left the set and its handles were re-checked.
    RootGone {
        /// The root.
        root: RootId,
        /// Its URI as the client gave it.
        uri: String,
    },
    /// A gone root's directory is at its path again; it is back in the set.
    RootBack {
        /// The root.
        root: RootId,
        /// Its URI as the client gave it.
        uri: String,
    },
    /// A tracked handle left every root and was revoked.
    HandleRevoked {
        /// The root it was beneath.
        root: RootId,
        /// The path below that root it was opened as.
        path: String,
        /// Why (`scope_lost`).
        reason: ErrorKind,
    },
    /// The kernel's event queue overflowed; a full rescan followed, so
    /// nothing was missed.
    Overflow,
    /// A directory could not be watched (for example the inotify watch
    /// limit, `/proc/sys/fs/inotify/max_user_watches`, was reached): changes
    /// there are noticed only by the next rescan.
    Degraded {
        /// The directory.
        dir: PathBuf,
        /// What failed.
        detail: String,
    },
}

/// Keeps the watcher running; dropping it stops the watcher.
#[derive(Debug)]
pub struct WatchGuard {
    control: Sender<Message>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for WatchGuard {
    fn drop(&mut self) {
        let _ = self.control.send(Message::Stop);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

enum Message {
    Fs(notify::Result<notify::Event>),
    Stop,
}

impl Roots {
    /// Starts watching the disk; `on_event` is called, on the watcher's own
    /// thread, for each [`ScopeEvent`]. The watcher holds only a weak
    /// reference to the roots and follows `replace` by itself.
    ///
    /// # Errors
    ///
    /// `io` when the watcher cannot start or the initial directories cannot
    /// be watched (the message names the inotify limit when that is the
    /// cause).
    pub fn watch<F>(&self, on_event: F) -> Result<WatchGuard, Error>
    where
        F: Fn(ScopeEvent) + Send + Sync + 'static,
    {
        let (tx, rx) = mpsc::channel();
        let events = tx.clone();
        let watcher = notify::recommended_watcher(move |event| {
            let _ = events.send(Message::Fs(event));
        })
        .map_err(|e| watch_error(e, Path::new("/")))?;
        let mut state = State {
            roots: self.downgrade(),
            watcher,
            watched: HashSet::new(),
            on_event: Box::new(on_event),
            seen: (u64::MAX, u64::MAX),
        };
        let failures = state.refresh(self);
        if let Some((dir, err)) = failures.into_iter().next() {
            return Err(watch_error(err, &dir));
        }
        let thread = std::thread::Builder::new()
            .name("mcp-roots-watch".into())
            .spawn(move || state.run(&rx))
            .map_err(|e| Error::from_os(e, Operation::Watch, "watcher thread"))?;
        Ok(WatchGuard {
            control: tx,
            thread: Some(thread),
        })
    }
}

fn watch_error(err: notify::Error, dir: &Path) -> Error {
    let input = dir.to_string_lossy();
    let error = Error::new(ErrorKind::Io, Operation::Watch, &input);
    match err.kind {
        notify::ErrorKind::MaxFilesWatch => error.with_detail(
            "inotify watch limit reached: raise /proc/sys/fs/inotify/max_user_watches",
        ),
        notify::ErrorKind::Io(io) => Error::from_os(io, Operation::Watch, &input),
        _ => error.with_detail("the file watcher failed"),
    }
}

struct State {
    roots: Weak<Inner>,
    watcher: RecommendedWatcher,
    watched: HashSet<PathBuf>,
    on_event: Box<dyn Fn(ScopeEvent) + Send + Sync>,
    /// The generation and registry version the watch list was computed for.
    seen: (u64, u64),
}

impl State {
    fn run(mut self, rx: &Receiver<Message>) {
        loop {
            let message = rx.recv_timeout(POLL);
            let Some(roots) = self.roots.upgrade().map(Roots::from_inner) else {
                return;
            };
            let mut rescan = false;
            let mut overflow = false;
            match message {
                Ok(Message::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                Ok(Message::Fs(event)) => {
                    (rescan, overflow) = relevance(&event);
                    // Coalesce a burst into one rescan.
                    while let Ok(next) = rx.recv_timeout(DEBOUNCE) {
                        match next {
                            Message::Stop => return,
                            Message::Fs(event) => {
                                let (r, o) = relevance(&event);
                                rescan |= r;
                                overflow |= o;
                            }
                        }
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            if overflow {
                (self.on_event)(ScopeEvent::Overflow);
            }
            if rescan || overflow {
                let report = roots.rescan();
                self.report(&roots, &report);
                self.seen = (u64::MAX, u64::MAX);
            }
            for (dir, err) in self.refresh(&roots) {
                let detail = watch_error(err, &dir).to_string();
                (self.on_event)(ScopeEvent::Degraded { dir, detail });
            }
        }
    }

    fn report(&self, roots: &Roots, report: &RescanReport) {
        let installed = roots.inner().installed();
        let uri = |id: RootId| installed.uri_of(id).unwrap_or_default();
        for &root in report.roots_gone() {
            (self.on_event)(ScopeEvent::RootGone {
                root,
                uri: uri(root),
            });
        }
        for &root in report.roots_back() {
            (self.on_event)(ScopeEvent::RootBack {
                root,
                uri: uri(root),
            });
        }
        for revoked in report.revoked() {
            (self.on_event)(ScopeEvent::HandleRevoked {
                root: revoked.root,
                path: revoked.path.clone(),
                reason: revoked.reason,
            });
        }
    }

    /// Brings the watch list in line with the roots and handles now, if
    /// either changed; returns the directories that could not be watched.
    fn refresh(&mut self, roots: &Roots) -> Vec<(PathBuf, notify::Error)> {
        let now = (roots.generation(), roots.inner().registry.version());
        if now == self.seen {
            return Vec::new();
        }
        self.seen = now;
        let wanted = wanted_dirs(roots);
        for dir in self.watched.difference(&wanted) {
            let _ = self.watcher.unwatch(dir);
        }
        let mut failures = Vec::new();
        for dir in wanted.difference(&self.watched) {
            if let Err(err) = self.watcher.watch(dir, RecursiveMode::NonRecursive) {
                failures.push((dir.clone(), err));
            }
        }
        self.watched = wanted;
        for (dir, _) in &failures {
            self.watched.remove(dir);
        }
        failures
    }
}

/// Whether an event can change the answer (a rename or removal), and
/// whether it reports a queue overflow. Opens, reads, writes and creations
/// cannot move anything out of scope.
fn relevance(event: &notify::Result<notify::Event>) -> (bool, bool) {
    match event {
        Err(_) => (true, false),
        Ok(event) if event.need_rescan() => (true, true),
        Ok(event) => {
            let moves = matches!(
                event.kind,
                EventKind::Remove(_)
                    | EventKind::Modify(ModifyKind::Name(_))
                    | EventKind::Any
                    | EventKind::Other
            );
            (moves, false)
        }
    }
}

/// The directories to watch: each pinned root's directory and ancestors
/// (given and resolved paths), and the chain from a root down to each
/// tracked handle's directory.
fn wanted_dirs(roots: &Roots) -> HashSet<PathBuf> {
    let installed = roots.inner().installed();
    let mut dirs = HashSet::new();
    for path in installed.pinned_paths() {
        for ancestor in path.ancestors() {
            if ancestor.is_dir() {
                dirs.insert(ancestor.to_path_buf());
            }
        }
    }
    for (root_dir, handle_dir) in roots.inner().handle_dirs() {
        let Ok(below) = handle_dir.strip_prefix(&root_dir) else {
            continue;
        };
        let mut dir = root_dir;
        dirs.insert(dir.clone());
        for component in below.components() {
            dir.push(component);
            dirs.insert(dir.clone());
        }
    }
    dirs
}
