//! [`Roots::watch`]: noticing on disk that a root, a directory above it, or
//! an open file's directory was moved or removed.
//!
//! Only what can change the answer is watched, non-recursively: each root's
//! directory and every ancestor up to `/` (of the path the client gave and
//! of the resolved path, and the directories holding the symlinks met while
//! resolving it), and the directories from a root down to each tracked
//! handle's directory. Every [`POLL`] (50 ms) in which the root set or
//! the tracked handles changed, the watcher looks up the directories of the
//! handles new since its last look (one descriptor look-up each; the others
//! keep theirs until a replace or a rescan, see `located.rs`), and
//! recomputes the watch list if the root set or the set of handle
//! directories changed; after every rescan it looks every handle up and
//! recomputes the list. A tracked open or close in a directory already
//! watched costs the watcher a walk over the registry, no system call.
//!
//! Each event is judged on arrival, on notify's thread, by its kind and its
//! paths against those chains (see [`scope`]): a rename or removal of a
//! root, of a directory above one or on the way to a tracked handle, or of
//! any name in a directory that holds tracked handles (it may be a tracked
//! file), triggers a full [`Roots::rescan`], which locates handles from
//! their descriptors and verifies root identities: event paths are hints,
//! never trusted. So does the creation of a name on a chain (a root's path
//! can come back as a symlink), an error of the watcher, or an overflow of
//! the kernel's queue. Everything else is dropped on arrival and neither
//! triggers nor delays a rescan: opens, closes, reads, writes and metadata
//! changes anywhere, creations of other names, and renames or removals of
//! names on no chain outside directories holding tracked handles (a file
//! deleted in `/tmp` when `/tmp` is watched only as an ancestor of a root).
//!
//! # Bounds
//!
//! Relevant events are coalesced: the rescan runs once [`QUIET`] (10 ms)
//! passed without another relevant event, and at the latest [`MAX_WAIT`]
//! (50 ms) after the first one, a deadline that later events never push
//! back. So a move out of a root is acted on within 50 ms of its event
//! (plus the rescan itself), whatever else arrives, and a steady stream of
//! relevant events costs at most one rescan per 50 ms. The watcher thread
//! sleeps when nothing relevant happens, waking every [`POLL`] to refresh
//! the watch list.
//!
//! A handle's directories are watched from the first refresh after its
//! open (within [`POLL`]); until then its moves are judged without them. So
//! a refresh that finds a tracked handle outside its root (it moved before
//! it was watched) schedules a rescan [`MAX_WAIT`] later, one that finds
//! the handles elsewhere after installing the watches than before
//! refreshes again at the next [`POLL`], and the first refresh for a new
//! root set schedules a rescan if a root no longer names its directory.
//! notify stops watching a directory that is renamed away or removed (and
//! every watched path below it), even when it comes back: the watcher
//! forgets those watches, installs them again if still wanted before the
//! rescan runs, and the rescan catches what happened in between.
//!
//! # notify, pinned, and the kernel's mask
//!
//! The kernel is asked only for the events that can change an answer:
//! [`EVENT_KINDS`] is `CREATE | REMOVE | MODIFY_NAME`, which notify makes
//! the inotify mask `IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM |
//! IN_MOVE_SELF`, with `IN_DELETE_SELF | IN_MOVE_SELF` on each watched
//! directory (the kernel always reports `IN_Q_OVERFLOW`, `IN_IGNORED` and
//! `IN_UNMOUNT`). Opens, closes, reads, writes and metadata changes are
//! never queued, so a tracked open in a watched directory does not wake
//! notify's thread or this one. notify 8 always asked for `IN_OPEN`,
//! `IN_CLOSE_WRITE`, `IN_MODIFY` and `IN_ATTRIB` as well, and each open
//! in a watched directory then cost an event read and dropped: 2.2 to
//! 2.7 times the CPU of the same open without the watcher.
//!
//! That mask exists from notify 9, released so far only as candidates, so
//! the dependency is pinned to one, `=9.0.0-rc.7`: a caret requirement
//! would take any later candidate or 9.0.0 by itself, and what this
//! module relies on is how that release turns a mask into kernel flags
//! and events, which candidates may change. In rc.7, `CREATE` and `REMOVE`
//! put `IN_MOVED_TO` and `IN_MOVED_FROM` into the kernel's mask, but notify
//! delivers every rename as `Modify(Name(_))` and drops those unless the
//! mask also has `MODIFY_NAME`: without it, renames would reach the kernel
//! and never this module. Moving to another notify release means checking
//! that again: the unit test beside this module asserts what the mask
//! delivers (and that opens, writes and metadata changes are not), and
//! `conformance/tests/watch.rs` and `conformance/tests/watch_flood.rs` move roots, directories and
//! files away, back and over.

mod located;
mod scope;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use arc_swap::ArcSwap;
use notify::event::{EventKind, ModifyKind};
use notify::{Config, EventKindMask, RecommendedWatcher, RecursiveMode, Watcher};

use crate::error::{Error, ErrorKind, Operation};
use crate::live::Roots;
use crate::live::report::RescanReport;
use crate::live::roots::{Inner, Installed};
use crate::root::RootId;
use located::{HandleDir, Located};
use scope::{Relevance, Scope, Wanted};

/// How often the watcher looks for new handles or a new root set.
const POLL: Duration = Duration::from_millis(50);
/// A burst of relevant events is handled by one rescan once this long
/// passed without another.
const QUIET: Duration = Duration::from_millis(10);
/// The longest a rescan waits after the first relevant event of a burst.
const MAX_WAIT: Duration = Duration::from_millis(50);

/// The events asked of the kernel: creations, removals and renames, and
/// nothing else (no opens, closes, reads, writes or metadata changes).
/// notify 9 turns this into the inotify mask `IN_CREATE | IN_MOVED_TO |
/// IN_DELETE | IN_MOVED_FROM | IN_MOVE_SELF` (and `IN_DELETE_SELF |
/// IN_MOVE_SELF` on every watched directory); the kernel always adds
/// `IN_Q_OVERFLOW`, `IN_IGNORED` and `IN_UNMOUNT`. `MODIFY_NAME` is
/// needed besides `CREATE | REMOVE`: those two put `IN_MOVED_TO` and
/// `IN_MOVED_FROM` in the mask, but notify delivers renames as
/// `Modify(Name(_))` and drops them unless the mask has `MODIFY_NAME`.
const EVENT_KINDS: EventKindMask = EventKindMask::CREATE
    .union(EventKindMask::REMOVE)
    .union(EventKindMask::MODIFY_NAME);

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
    /// An event that can change an answer, with the paths whose watches
    /// notify drops because of it.
    Fs(Relevance, Vec<PathBuf>),
    Stop,
}

#[cfg_attr(docsrs, doc(cfg(feature = "watch")))]
impl Roots {
    /// Starts watching the disk; `on_event` is called, on the watcher's own
    /// thread, for each [`ScopeEvent`]. The watcher holds only a weak
    /// reference to the roots and follows `replace` by itself.
    ///
    /// A rename or removal that can take a root or a tracked file out of
    /// scope leads to a [`rescan`](Self::rescan) within 50 ms of its event,
    /// however many other events arrive; events that cannot change an
    /// answer (opens, reads, writes, creations, renames and removals of
    /// unrelated names) trigger nothing. A handle's directories are watched
    /// within 50 ms of its open; a handle moved out of its root before that
    /// is found by that refresh and revoked by a rescan 50 ms later.
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
        // Judged on notify's thread: irrelevant events never reach ours.
        let scope = Arc::new(ArcSwap::from_pointee(Scope::default()));
        let judge = scope.clone();
        let handler = move |event| {
            let relevance = judge.load().judge(&event);
            if relevance != Relevance::Irrelevant {
                let _ = events.send(Message::Fs(relevance, unwatched_by(&event)));
            }
        };
        let config = Config::default().with_event_kinds(EVENT_KINDS);
        let watcher =
            RecommendedWatcher::new(handler, config).map_err(|e| watch_error(e, Path::new("/")))?;
        let mut state = State {
            roots: self.downgrade(),
            watcher,
            watched: HashSet::new(),
            dropped: Vec::new(),
            scope,
            on_event: Box::new(on_event),
            seen: (u64::MAX, u64::MAX),
            located: Located::default(),
            dirs: Vec::new(),
            stale: true,
            degraded: false,
        };
        let refreshed = state.refresh(self);
        if let Some((dir, err)) = refreshed.failures.into_iter().next() {
            return Err(watch_error(err, &dir));
        }
        let pending = refreshed.rescan.then(|| Pending::found(Instant::now()));
        let thread = std::thread::Builder::new()
            .name("mcp-roots-watch".into())
            .spawn(move || state.run(&rx, pending))
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
    /// The directories being watched.
    watched: HashSet<PathBuf>,
    /// Directories notify stopped watching (moved or removed): unwatched
    /// and watched again, if still wanted, by the next refresh.
    dropped: Vec<PathBuf>,
    /// What the events are judged by, on notify's thread.
    scope: Arc<ArcSwap<Scope>>,
    on_event: Box<dyn Fn(ScopeEvent) + Send + Sync>,
    /// The generation and registry version the watch list was computed for.
    seen: (u64, u64),
    /// Where the tracked handles were found.
    located: Located,
    /// The handle directories the watch list was computed for.
    dirs: Vec<HandleDir>,
    /// The watch list must be recomputed even if the handle directories
    /// did not change (after a rescan).
    stale: bool,
    /// The last refresh could not watch some directory.
    degraded: bool,
}

/// A rescan that is due: the relevant events since the last one.
struct Pending {
    /// When it runs unless another relevant event arrives first.
    due: Instant,
    /// When it runs at the latest, fixed by the first event.
    deadline: Instant,
    overflow: bool,
}

impl Pending {
    /// At the first relevant event, at `now`.
    fn event(now: Instant) -> Self {
        let deadline = now + MAX_WAIT;
        Self {
            due: (now + QUIET).min(deadline),
            deadline,
            overflow: false,
        }
    }

    /// After a refresh found something an event may have missed: at the
    /// deadline, so that a state that stays odd cannot rescan more often.
    fn found(now: Instant) -> Self {
        let deadline = now + MAX_WAIT;
        Self {
            due: deadline,
            deadline,
            overflow: false,
        }
    }

    /// Another relevant event: later, but never past the deadline.
    fn add(&mut self, relevance: Relevance, now: Instant) {
        self.due = self.due.max((now + QUIET).min(self.deadline));
        self.overflow |= relevance == Relevance::Overflow;
    }
}

/// What a refresh of the watch list found.
#[derive(Default)]
struct Refreshed {
    /// The directories that could not be watched.
    failures: Vec<(PathBuf, notify::Error)>,
    /// Something may have moved before it was watched: a rescan is due.
    rescan: bool,
}

impl State {
    fn run(mut self, rx: &Receiver<Message>, mut pending: Option<Pending>) {
        let mut next_poll = Instant::now() + POLL;
        loop {
            let wake = pending.as_ref().map_or(next_poll, |p| p.due.min(next_poll));
            match rx.recv_timeout(wake.saturating_duration_since(Instant::now())) {
                Ok(Message::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                Ok(Message::Fs(relevance, paths)) => {
                    self.forget_dropped(&paths);
                    let now = Instant::now();
                    pending
                        .get_or_insert_with(|| Pending::event(now))
                        .add(relevance, now);
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            let now = Instant::now();
            let due = pending.take_if(|p| p.due <= now);
            if due.is_none() && now < next_poll {
                continue;
            }
            let Some(roots) = self.roots.upgrade().map(Roots::from_inner) else {
                return;
            };
            if let Some(due) = due {
                if !self.dropped.is_empty() {
                    // Watch again first: a move after that has an event, one
                    // before it is found by the rescan.
                    self.refresh_and_report(&roots);
                }
                if due.overflow {
                    (self.on_event)(ScopeEvent::Overflow);
                }
                let report = roots.rescan();
                self.report(&roots, &report);
                // The handles may be elsewhere now (the rescan counted
                // itself, so every handle is looked up again).
                self.stale = true;
            }
            if self.refresh_and_report(&roots) {
                pending.get_or_insert_with(|| Pending::found(Instant::now()));
            }
            if now >= next_poll {
                next_poll = now + POLL;
            }
        }
    }

    /// Forgets the watches notify dropped: a watched directory that was
    /// renamed or removed, and every watched path beneath it.
    fn forget_dropped(&mut self, paths: &[PathBuf]) {
        for path in paths {
            if !self.watched.contains(path) {
                continue;
            }
            let below: Vec<_> = self
                .watched
                .iter()
                .filter(|w| w.starts_with(path))
                .cloned()
                .collect();
            for dir in below {
                self.watched.remove(&dir);
                self.dropped.push(dir);
            }
        }
    }

    /// [`refresh`](Self::refresh), reporting the directories that could not
    /// be watched; returns whether a rescan is due.
    fn refresh_and_report(&mut self, roots: &Roots) -> bool {
        let refreshed = self.refresh(roots);
        for (dir, err) in refreshed.failures {
            let detail = watch_error(err, &dir).to_string();
            (self.on_event)(ScopeEvent::Degraded { dir, detail });
        }
        refreshed.rescan
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

    /// Brings the watch list and the scope events are judged by in line
    /// with the roots and handles now, if either changed (or notify dropped
    /// watches). A registry change looks up only the handles new since the
    /// last refresh ([`Located`]), and rebuilds the watch list only when
    /// the set of their directories changed.
    fn refresh(&mut self, roots: &Roots) -> Refreshed {
        let now = (roots.generation(), roots.inner().registry.version());
        if now == self.seen && self.dropped.is_empty() && !self.stale {
            return Refreshed::default();
        }
        let new_set = now.0 != self.seen.0;
        self.seen = now;
        let installed = roots.inner().installed();
        let (before, looked_up) = self.handle_dirs(roots, &installed);
        let unchanged = !new_set && !self.stale && self.dropped.is_empty() && before == self.dirs;
        self.stale = false;
        if unchanged {
            // The same directories: the watches and the scope stand. A new
            // handle in one of them is covered by their events from now on;
            // one that moved before it was looked up is a stray.
            return Refreshed {
                failures: Vec::new(),
                rescan: scope::strays(&before),
            };
        }
        let wanted = Wanted::new(installed.pinned_paths(), &before);
        let mut rescan = wanted.strays;
        for dir in self.dropped.drain(..) {
            let _ = self.watcher.unwatch(&dir);
        }
        for dir in self.watched.difference(&wanted.dirs) {
            let _ = self.watcher.unwatch(dir);
        }
        let mut failures = Vec::new();
        for dir in wanted.dirs.difference(&self.watched) {
            if let Err(err) = self.watcher.watch(dir, RecursiveMode::NonRecursive) {
                failures.push((dir.clone(), err));
            }
        }
        self.watched.clone_from(&wanted.dirs);
        for (dir, _) in &failures {
            self.watched.remove(dir);
        }
        self.degraded = !failures.is_empty();
        self.scope
            .store(Arc::new(Scope::new(wanted, &self.watched)));
        // What moved while the watches went in was judged by the old scope:
        // look the handles just looked up (and any new ones) up again,
        // unless their directories are the ones the old scope already held
        // handles in (after a rescan, typically), whose moves it judged
        // relevant too (and every directory could be watched).
        if before != self.dirs || self.degraded {
            self.located.forget_ids(&looked_up);
            let (after, _) = self.handle_dirs(roots, &installed);
            rescan |= scope::strays(&after);
            if after != before {
                self.seen.1 = u64::MAX;
            }
        }
        self.dirs = before;
        rescan |= new_set && roots_moved(&installed);
        Refreshed { failures, rescan }
    }

    /// The distinct directories of the tracked handles, sorted, and the
    /// handles looked up from their descriptors to find them.
    fn handle_dirs(&mut self, roots: &Roots, installed: &Installed) -> (Vec<HandleDir>, Vec<u64>) {
        if self.degraded {
            // Some directory is not watched: moves there have no events,
            // so every handle is looked up again, every time.
            self.located.forget();
            let mut dirs = roots.inner().handle_dirs();
            dirs.sort();
            dirs.dedup();
            return (dirs, Vec::new());
        }
        self.located.dirs(roots.inner(), installed)
    }
}

/// The paths of `event` whose watches notify drops: it stops watching a
/// watched path (and the watched paths beneath it) that is renamed away or
/// removed.
fn unwatched_by(event: &notify::Result<notify::Event>) -> Vec<PathBuf> {
    match event {
        Ok(event)
            if matches!(
                event.kind,
                EventKind::Remove(_) | EventKind::Modify(ModifyKind::Name(_))
            ) =>
        {
            event.paths.clone()
        }
        _ => Vec::new(),
    }
}

/// Whether a root of `installed` no longer names its directory (it moved
/// before its directories were watched).
fn roots_moved(installed: &Installed) -> bool {
    installed
        .set()
        .roots()
        .iter()
        .any(|root| root.verify().is_none())
}

/// What notify makes of [`EVENT_KINDS`], on the inotify backend (the test
/// suite runs on Linux; other platforms are only compiled).
#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::RenameMode;

    const PATIENCE: Duration = Duration::from_secs(10);

    /// A watcher with the library's mask on `dirs`, and what it delivers.
    fn watcher(dirs: &[&Path]) -> (RecommendedWatcher, Receiver<notify::Result<notify::Event>>) {
        let (tx, rx) = mpsc::channel();
        let config = Config::default().with_event_kinds(EVENT_KINDS);
        let mut watcher = RecommendedWatcher::new(
            move |event| {
                let _ = tx.send(event);
            },
            config,
        )
        .expect("watcher");
        for dir in dirs {
            watcher
                .watch(dir, RecursiveMode::NonRecursive)
                .expect("watch");
        }
        (watcher, rx)
    }

    /// The events up to the first one of `kind` for `path` (included);
    /// panics after [`PATIENCE`].
    fn until(
        rx: &Receiver<notify::Result<notify::Event>>,
        kind: impl Fn(&EventKind) -> bool,
        path: &Path,
    ) -> Vec<notify::Event> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let event = match rx.recv_timeout(left) {
                Ok(event) => event.expect("no watcher error"),
                Err(_) => panic!("no event for {path:?} within {PATIENCE:?}; got {seen:?}"),
            };
            let done = kind(&event.kind) && event.paths.iter().any(|p| p == path);
            seen.push(event);
            if done {
                return seen;
            }
        }
    }

    fn renamed(kind: &EventKind) -> bool {
        matches!(kind, EventKind::Modify(ModifyKind::Name(_)))
    }

    fn renamed_as(mode: RenameMode) -> impl Fn(&EventKind) -> bool {
        move |kind| *kind == EventKind::Modify(ModifyKind::Name(mode))
    }

    #[test]
    fn the_mask_delivers_creations_removals_and_renames_and_nothing_else() {
        if crate::sys::PATH_STYLE == crate::sys::PathStyle::Windows {
            // ReadDirectoryChangesW reports by its own rules (and Wine's
            // differ again): this test is about the inotify mask.
            eprintln!("skipped: the mask is inotify's");
            return;
        }
        let tmp = tempfile::tempdir().expect("tempdir");
        let t = std::fs::canonicalize(tmp.path()).expect("canonical");
        let (w, sub, out) = (t.join("w"), t.join("w/sub"), t.join("out"));
        for dir in [&sub, &out] {
            std::fs::create_dir_all(dir).expect("mkdir");
        }
        let f = w.join("f");
        std::fs::write(&f, "f").expect("write");
        let (_watcher, rx) = watcher(&[&w, &sub]);

        // Opens, reads, writes, closes, metadata changes and listings: not
        // asked of the kernel, so the creation after them is the first
        // event (inotify delivers in order).
        std::fs::read(&f).expect("read");
        std::fs::write(&f, "g").expect("write");
        let mut permissions = std::fs::metadata(&f).expect("stat").permissions();
        permissions.set_readonly(!permissions.readonly());
        std::fs::set_permissions(&f, permissions).expect("chmod");
        std::fs::read_dir(&w).expect("list").for_each(drop);
        let sentinel = w.join("sentinel");
        std::fs::write(&sentinel, "").expect("create");
        let seen = until(&rx, |k| matches!(k, EventKind::Create(_)), &sentinel);
        assert_eq!(seen.len(), 1, "events before the creation: {seen:?}");

        // A rename within a watched directory.
        let g = w.join("g");
        std::fs::rename(&f, &g).expect("rename");
        until(&rx, renamed_as(RenameMode::From), &f);
        until(&rx, renamed_as(RenameMode::To), &g);
        // Out to an unwatched directory, and back in from it: each seen at
        // its watched end alone.
        let away = out.join("g");
        std::fs::rename(&g, &away).expect("rename out");
        until(&rx, renamed_as(RenameMode::From), &g);
        std::fs::rename(&away, &g).expect("rename in");
        until(&rx, renamed_as(RenameMode::To), &g);
        // Over an existing name.
        std::fs::write(&f, "new").expect("create");
        until(&rx, |k| matches!(k, EventKind::Create(_)), &f);
        std::fs::rename(&f, &g).expect("rename over");
        until(&rx, renamed_as(RenameMode::To), &g);
        // A removal.
        std::fs::remove_file(&g).expect("remove");
        until(&rx, |k| matches!(k, EventKind::Remove(_)), &g);
        // A watched directory moved away: its parent sees it leave, and
        // the directory itself its own move (IN_MOVE_SELF).
        std::fs::rename(&sub, out.join("sub")).expect("rename the directory");
        let seen = until(&rx, renamed_as(RenameMode::From), &sub);
        assert!(seen.iter().all(|e| renamed(&e.kind)), "{seen:?}");
        // A watched directory removed.
        let (_watcher, rx) = watcher(&[&out]);
        std::fs::remove_dir_all(out.join("sub")).expect("remove the directory");
        std::fs::remove_dir(&out).expect("remove the watched directory");
        until(&rx, |k| matches!(k, EventKind::Remove(_)), &out);
    }
}
