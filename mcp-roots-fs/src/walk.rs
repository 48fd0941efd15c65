//! The bounded walk under `search_files` and `directory_tree`: the
//! library's [`Walk`](mcp_roots::Walk) (through directory handles, one descriptor per level,
//! symlinks reported and never followed, so a link loop cannot recur),
//! stepped with its borrowing `next_ref` (no allocation per entry), with
//! the server's bounds on top: entries examined, depth, a deadline, and the
//! client's cancellation. When it stops early, it says why.

use std::cmp::Ordering as Order;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use mcp_roots::{Error, FileType, ScopedPath, Snapshot, Target, WalkLimits, WalkRef};
use mcp_roots_rmcp::Progress;

use crate::context::Bounds;
use crate::original::glob::Exclusions;

/// One entry, as the tools see it: its path relative to the walk's start.
#[derive(Debug)]
pub(crate) struct Found<'a> {
    pub(crate) rel: &'a str,
    pub(crate) file_type: FileType,
    pub(crate) depth: usize,
}

/// The order the original lists a walk in: pre-order, each directory's
/// entries by name in byte order (its `readdir` is libuv's, which sorts
/// with `strcmp`). Comparing two paths byte by byte with `/` as the lowest
/// byte gives exactly that: a directory comes before what is beneath it,
/// and its subtree before a sibling whose name extends its own (`a/x`
/// before `a.txt`).
pub(crate) fn path_order(a: &str, b: &str) -> Order {
    let key = |c: u8| if c == b'/' { 0 } else { c };
    let (a, b) = (a.as_bytes(), b.as_bytes());
    for (x, y) in a.iter().zip(b) {
        match key(*x).cmp(&key(*y)) {
            Order::Equal => {}
            other => return other,
        }
    }
    a.len().cmp(&b.len())
}

/// What a walk does with a directory it cannot read: the original's
/// `search_files` skips it, its `directory_tree` fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OnError {
    Skip,
    Fail,
}

/// Entries a walk sees on its own thread before it shares the rest of
/// its subtrees with others (starting a thread costs tens of
/// microseconds, what 50 to 100 entries do).
pub(crate) const ALONE: u64 = 4096;

/// Walks `start`, calling `visit` on each entry not excluded (an excluded
/// directory is not entered); returns the entries' states, why the walk
/// stopped early, if it did, and the directories it skipped unread.
///
/// The start's own entries are listed first, on this thread; each
/// directory among them is then walked, on this thread until [`ALONE`]
/// entries have been seen, then on one of up to [`MAX_THREADS`](crate::threads::MAX_THREADS) threads
/// (as many as the machine has cores), the bounds shared by all.
/// The entries are cut into units: a unit's entries are one run of the
/// start's entries up to and including a directory, then that directory's
/// subtree. Each unit gets a state of its own (`new`), and the states come
/// back in the order of the units, so their entries, read one state after
/// the other, are in pre-order (each directory's subtree right after it),
/// each directory in its own order; a tool that answers in the original's
/// order sorts them (see [`path_order`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn walk<S: Send>(
    snap: &Snapshot<'_>,
    start: &str,
    bounds: Bounds,
    progress: &Progress,
    exclude: &Exclusions,
    on_error: OnError,
    new: impl Fn() -> S + Sync,
    visit: impl Fn(&mut S, &Found<'_>) -> Result<(), Error> + Sync,
) -> Result<Outcome<S>, Error> {
    let scoped = snap.resolve(start)?;
    let prefix = match scoped.rel() {
        "." => String::new(),
        rel => format!("{rel}/"),
    };
    let shared = Shared {
        snap,
        prefix: &prefix,
        bounds,
        progress,
        exclude,
        on_error,
        visit: &visit,
        begun: Instant::now(),
        seen: AtomicU64::new(0),
        stop: Mutex::new(None),
        root_path: snap
            .set()
            .root_by_id(scoped.root())
            .map(|root| root.resolved_path().to_string_lossy().into_owned())
            .unwrap_or_default(),
        unreadable: Mutex::new(Vec::new()),
        halt: AtomicBool::new(false),
    };
    // The start's own entries, cut into units.
    let mut units = vec![new()];
    let mut subtrees: Vec<(usize, ScopedPath)> = Vec::new();
    let top = WalkLimits::new(1, bounds.max_entries);
    shared.run(start, top, 0, &mut |found, entry| {
        let unit = units.len() - 1;
        (shared.visit)(&mut units[unit], found)?;
        if found.file_type == FileType::Dir && bounds.max_depth > 1 {
            subtrees.push((unit, entry.to_entry().path().clone()));
            units.push(new());
        }
        Ok(())
    })?;
    // Their subtrees, on the threads.
    let units: Vec<Mutex<S>> = units.into_iter().map(Mutex::new).collect();
    let next = AtomicUsize::new(0);
    // Takes subtrees until none is left; `grow` (this thread's) is called
    // each time the walk has seen more entries, and starts the other
    // threads once [`ALONE`] have been seen.
    let work = |grow: Option<&(dyn Fn(u64) + Sync)>| -> Result<(), Error> {
        loop {
            let job = next.fetch_add(1, Ordering::Relaxed);
            let Some((unit, path)) = subtrees.get(job) else {
                return Ok(());
            };
            if shared.halt.load(Ordering::Relaxed) {
                return Ok(());
            }
            let mut state = units[*unit].lock().expect("a unit's state");
            let state = &mut *state;
            let limits = WalkLimits::new(
                bounds.max_depth - 1,
                bounds.max_entries.saturating_sub(shared.seen() as usize),
            );
            let walked = shared.run(path, limits, 1, &mut |found, _| {
                if let Some(grow) = grow {
                    grow(shared.seen());
                }
                (shared.visit)(state, found)
            });
            if let Err(e) = walked {
                shared.halt.store(true, Ordering::Relaxed);
                return Err(e);
            }
        }
    };
    let threads = crate::threads::available().min(subtrees.len());
    let failed = if threads <= 1 {
        work(None).err()
    } else {
        // This thread alone first: a small walk is over before another
        // thread would have started.
        std::thread::scope(|scope| {
            let helpers = Mutex::new(Vec::new());
            let started = std::sync::Once::new();
            let grow = |seen: u64| {
                if seen >= ALONE {
                    started.call_once(|| {
                        let mut helpers = helpers.lock().expect("the helpers");
                        for _ in 1..threads {
                            helpers.push(scope.spawn(move || work(None)));
                        }
                    });
                }
            };
            let mut failed = work(Some(&grow)).err();
            for handle in helpers.into_inner().expect("the helpers") {
                let joined = handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                failed = failed.or(joined.err());
            }
            failed
        })
    };
    if let Some(e) = failed {
        return Err(e);
    }
    let units = units
        .into_iter()
        .map(|unit| unit.into_inner().expect("a unit's state"))
        .collect();
    let stopped = shared.stop.into_inner().expect("the reason to stop");
    let mut unreadable = shared
        .unreadable
        .into_inner()
        .expect("the unreadable directories");
    unreadable.sort_unstable_by(|a, b| path_order(a, b));
    Ok(Outcome {
        units,
        only_depth: stopped == Some(Why::Depth),
        stopped: stopped.map(|why| why.message(bounds)),
        unreadable,
    })
}

/// What a walk gives back.
pub(crate) struct Outcome<S> {
    /// The units' states, in pre-order (see [`walk`]).
    pub(crate) units: Vec<S>,
    /// Why the walk stopped early, if it did.
    pub(crate) stopped: Option<String>,
    /// Whether the only reason was the depth bound: directories at the
    /// last level were not entered, and nothing else stopped it.
    pub(crate) only_depth: bool,
    /// The directories skipped because they could not be read (with
    /// [`OnError::Skip`]), each as `PATH (ECODE)`, in path order.
    pub(crate) unreadable: Vec<String>,
}

/// Why a walk stopped early. When threads stop for different reasons, the
/// weightiest is told: the client's cancellation, then the deadline, then
/// the entry bound, then the depth (which stops no thread: only the
/// directories past it are not entered).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Why {
    Depth,
    Entries,
    Deadline(u64),
    Cancelled,
}

impl Why {
    fn message(self, bounds: Bounds) -> String {
        match self {
            Why::Cancelled => "the client cancelled the call".to_owned(),
            Why::Deadline(seen) => format!(
                "the walk ran past its deadline of {:?} (--walk-timeout) after {seen} entries",
                bounds.deadline
            ),
            Why::Entries => format!(
                "the walk examined its limit of {} entries (--max-entries)",
                bounds.max_entries
            ),
            Why::Depth => format!(
                "directories deeper than {} levels were not entered (--max-depth)",
                bounds.max_depth
            ),
        }
    }
}

/// What a walk's threads share.
struct Shared<'a, V> {
    snap: &'a Snapshot<'a>,
    /// The start's path beneath its root, with a trailing `/` (empty for
    /// the root itself): what is cut from each entry's path.
    prefix: &'a str,
    bounds: Bounds,
    progress: &'a Progress,
    exclude: &'a Exclusions,
    on_error: OnError,
    visit: &'a V,
    begun: Instant,
    /// Entries examined, by every thread.
    seen: AtomicU64,
    stop: Mutex<Option<Why>>,
    /// The physical path of the start's root.
    root_path: String,
    /// The directories skipped because they could not be read.
    unreadable: Mutex<Vec<String>>,
    /// Set when the walk is to end at once (cancelled, past its deadline
    /// or its entries, or failed).
    halt: AtomicBool,
}

impl<V> Shared<'_, V> {
    /// Notes a directory skipped because it could not be read: its full
    /// path (the error names it beneath the root) and its errno's name.
    fn unreadable(&self, err: &Error) {
        let input = err.input();
        let path = if input.starts_with('/') || self.root_path.is_empty() {
            input.to_owned()
        } else {
            format!("{}/{input}", self.root_path.trim_end_matches('/'))
        };
        let code = std::error::Error::source(err)
            .and_then(|source| source.downcast_ref::<std::io::Error>())
            .and_then(std::io::Error::raw_os_error)
            .map(crate::sys::errno_name);
        let line = match code {
            Some(code) => format!("{path} ({code})"),
            None => path,
        };
        tracing::debug!(directory = %line, "walk skipped a directory it cannot read");
        self.unreadable
            .lock()
            .expect("the unreadable directories")
            .push(line);
    }

    fn seen(&self) -> u64 {
        self.seen.load(Ordering::Relaxed)
    }

    fn stop(&self, why: Why) {
        let mut stop = self.stop.lock().expect("the reason to stop");
        *stop = Some(stop.map_or(why, |was| was.max(why)));
        if why != Why::Depth {
            self.halt.store(true, Ordering::Relaxed);
        }
    }

    /// Walks `path` within `limits`, its entries `depth_below` levels below
    /// the start's own, each one not excluded given to `each`.
    fn run<T: Target + ?Sized>(
        &self,
        path: &T,
        limits: WalkLimits,
        depth_below: usize,
        each: &mut dyn FnMut(&Found<'_>, &WalkRef<'_>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let mut walk = match self.snap.walk(path, limits) {
            Ok(walk) => walk,
            // A subtree that went away since it was listed, or cannot be read.
            Err(e) if depth_below > 0 && self.on_error == OnError::Skip => {
                self.unreadable(&e);
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        let mut mine: u64 = 0;
        while let Some(entry) = walk.next_ref() {
            if self.halt.load(Ordering::Relaxed) {
                return Ok(());
            }
            let seen = self.seen.fetch_add(1, Ordering::Relaxed) + 1;
            mine += 1;
            // The client's cancellation and the clock, every 64 entries
            // (each costs more than an entry).
            if mine.is_multiple_of(64) || mine == 1 {
                if self.progress.is_cancelled() {
                    tracing::info!(
                        entries = seen,
                        "walk stopped: the client cancelled the call"
                    );
                    self.stop(Why::Cancelled);
                    return Ok(());
                }
                if self.begun.elapsed() > self.bounds.deadline {
                    self.stop(Why::Deadline(seen));
                    return Ok(());
                }
            }
            if seen > self.bounds.max_entries as u64 {
                self.stop(Why::Entries);
                return Ok(());
            }
            self.progress
                .report(seen, || format!("{seen} entries examined"));
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) if self.on_error == OnError::Skip => {
                    self.unreadable(&e);
                    continue;
                }
                Err(err) => return Err(err),
            };
            let rel = entry.rel();
            // Beneath the start; in a subtree, or not at all (one replaced
            // on disk since it was listed, by a link elsewhere, is left out).
            let rel = match rel.strip_prefix(self.prefix) {
                Some(rel) => rel,
                None if depth_below == 0 => rel,
                None => continue,
            };
            if self
                .exclude
                .excludes(rel, entry.file_type() == FileType::Dir)
            {
                walk.skip_entered();
                continue;
            }
            let depth = entry.depth() + depth_below;
            if entry.file_type() == FileType::Dir && depth == self.bounds.max_depth {
                self.stop(Why::Depth);
            }
            let found = Found {
                rel,
                file_type: entry.file_type(),
                depth,
            };
            each(&found, &entry)?;
        }
        if walk.is_truncated() {
            self.stop(Why::Entries);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_order_is_pre_order_with_names_in_byte_order() {
        let mut paths = vec![
            "a.txt", "b", "a/x", "B", "a", "a/x/y", "a/.h", "a-b", "_", ".e", "a/x.md", "ä",
        ];
        paths.sort_by(|a, b| path_order(a, b));
        assert_eq!(
            paths,
            [
                ".e", "B", "_", "a", "a/.h", "a/x", "a/x/y", "a/x.md", "a-b", "a.txt", "b", "ä"
            ]
            .to_vec()
        );
    }
}
