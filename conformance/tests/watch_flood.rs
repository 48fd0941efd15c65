//! The watcher under floods of events that cannot change an answer.
//!
//! Revocation: while a thread creates and deletes files at 10,000+
//! operations per second (in the root, in the root's parent, or in a
//! directory holding a tracked handle, where every deletion counts as
//! relevant), a directory holding a tracked handle leaves the root, or the
//! root is moved away or replaced; the handle must be revoked within
//! [`BOUND`]. Each row runs [`REPS`] times and prints the flood rate and
//! the revocation latency (p50, p99, max) for the record.
//!
//! Silence: events that cannot change an answer must not rescan at all.
//! A rescan is observed through a canary: a handle opened through a
//! symlinked root nested in another root is registered under the inner
//! root, and any rescan re-registers it under the outer one (rescans keep
//! a file under the outermost root that contains it).
//!
//! The rows of this file run one at a time (see [`serial`]), so that the
//! floods do not share the CPU with each other.

#![cfg(all(feature = "watch", target_os = "linux"))]

mod common;

use std::ffi::CString;
use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use common::TempTree;
use mcp_roots::{Error, ErrorKind, RootId, RootSet, Roots, ScopeEvent, TrackedFile, WatchGuard};
use rustix::fs::{AtFlags, Mode, OFlags};

/// The longest a revocation may take after the move, whatever the flood.
const BOUND: Duration = Duration::from_secs(1);
/// The flood rate every row must reach (creations plus deletions; each is
/// at least one inotify event, a creation three: create, open, close).
const MIN_RATE: f64 = 10_000.0;
/// The rate the flood aims at: above [`MIN_RATE`], and low enough for
/// notify's thread to keep up in a debug build (a flood it cannot keep up
/// with overflows the kernel's queue, and an overflow rescans).
const FLOOD_RATE: f64 = 15_000.0;
/// Runs per flood row.
const REPS: usize = 20;
/// Long enough for the watcher to take in a new handle (it refreshes
/// every 50 ms).
const SETTLE: Duration = Duration::from_millis(150);
/// How long a rescan that should not happen is given to happen anyway (the
/// watcher's longest wait is 50 ms).
const SILENCE: Duration = Duration::from_millis(400);
/// How long a rescan that should happen is waited for, where the bound is
/// not what is measured.
const PATIENCE: Duration = Duration::from_secs(10);

/// `T` for the trees of this file: on a tmpfs when there is one (creating
/// and deleting files on this machine's disk file system tops out at a
/// few thousand per second, below the flood rate), else in the temp
/// directory.
fn temp_tree(dirs: &[&str], files: &[(&str, &str)]) -> TempTree {
    let shm = Path::new("/dev/shm");
    let base = match tempfile::tempdir_in(shm) {
        Ok(_) => shm.to_path_buf(),
        Err(_) => std::env::temp_dir(),
    };
    TempTree::build_in(&base, dirs, files)
}

/// Runs the rows of this file one at a time.
fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A thread creating and deleting files in one directory, through a
/// descriptor of the directory (so it follows the directory when it
/// moves).
struct Flood {
    stop: Arc<AtomicBool>,
    ops: Arc<AtomicU64>,
    thread: Option<JoinHandle<Duration>>,
}

impl Flood {
    /// Starts flooding `dir` at [`FLOOD_RATE`] and returns once the flood
    /// is under way.
    fn start(dir: &str) -> Self {
        let dir = File::open(dir).expect("open the flooded directory");
        let stop = Arc::new(AtomicBool::new(false));
        let ops = Arc::new(AtomicU64::new(0));
        let thread = {
            let (stop, ops) = (stop.clone(), ops.clone());
            std::thread::spawn(move || {
                let names: Vec<CString> = (0..8)
                    .map(|i| CString::new(format!("flood-{i}")).expect("name"))
                    .collect();
                let flags = OFlags::CREATE | OFlags::WRONLY | OFlags::CLOEXEC;
                let started = Instant::now();
                let mut done = 0;
                while !stop.load(Ordering::Relaxed) {
                    for name in &names {
                        let created =
                            rustix::fs::openat(&dir, name, flags, Mode::RUSR | Mode::WUSR).is_ok();
                        let deleted = rustix::fs::unlinkat(&dir, name, AtFlags::empty()).is_ok();
                        done += u64::from(created) + u64::from(deleted);
                    }
                    ops.store(done, Ordering::Relaxed);
                    // Paced: ahead of FLOOD_RATE, wait.
                    let due = started + Duration::from_secs_f64(done as f64 / FLOOD_RATE);
                    if let Some(ahead) = due.checked_duration_since(Instant::now()) {
                        std::thread::sleep(ahead);
                    }
                }
                started.elapsed()
            })
        };
        let flood = Self {
            stop,
            ops,
            thread: Some(thread),
        };
        let deadline = Instant::now() + PATIENCE;
        while flood.ops() < 500 {
            assert!(Instant::now() < deadline, "the flood did not start");
            std::thread::sleep(Duration::from_millis(1));
        }
        flood
    }

    fn ops(&self) -> u64 {
        self.ops.load(Ordering::Relaxed)
    }

    /// Stops the flood: the operations it did, and for how long.
    fn finish(mut self) -> (u64, Duration) {
        self.stop.store(true, Ordering::Relaxed);
        let elapsed = self.thread.take().expect("running").join().expect("flood");
        (self.ops(), elapsed)
    }
}

impl Drop for Flood {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A root with a watcher and the events it reported.
struct Watched {
    tree: TempTree,
    roots: Roots,
    events: Receiver<ScopeEvent>,
    _guard: WatchGuard,
}

impl Watched {
    /// `tree` with the roots `rel_roots` (relative to `T`), watched.
    fn new(tree: TempTree, rel_roots: &[&str]) -> Self {
        let roots = Roots::default();
        roots.replace(RootSet::from_uris(rel_roots.iter().map(|r| tree.p(r))));
        assert_eq!(
            roots.load().set().len(),
            rel_roots.len(),
            "every root accepted"
        );
        let (events, guard) = common::watch(&roots);
        Self {
            tree,
            roots,
            events,
            _guard: guard,
        }
    }

    fn open(&self, rel: &str) -> TrackedFile {
        self.roots.load().open(&self.tree.p(rel)).expect("open")
    }

    fn rename(&self, from: &str, to: &str) {
        std::fs::rename(self.tree.p(from), self.tree.p(to)).expect("rename");
    }

    /// The events reported so far.
    fn drain(&self) -> Vec<ScopeEvent> {
        self.events.try_iter().collect()
    }
}

/// Waits up to `limit` for `file` to be revoked; how long it took.
fn revocation(file: &TrackedFile, since: Instant, limit: Duration) -> Option<Duration> {
    while since.elapsed() < limit {
        if file.revoked().is_some() {
            return Some(since.elapsed());
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    file.revoked().map(|_| since.elapsed())
}

/// Asserts that reads of `file` fail with `scope_lost`.
fn assert_scope_lost(file: &mut TrackedFile) {
    let err = file.read(&mut [0; 4]).expect_err("a revoked handle reads");
    let kind = Error::from_io(&err).map(Error::kind);
    assert_eq!(kind, Some(ErrorKind::ScopeLost), "{err}");
}

/// Where the flood runs.
#[derive(Clone, Copy, Debug)]
enum FloodIn {
    /// `T/root`, the root itself.
    Root,
    /// `T`, the root's parent (watched as an ancestor).
    Parent,
    /// `T/root/h`, which holds a tracked handle: every deletion there is
    /// relevant, so rescans run all along and the deadline is what bounds
    /// the wait.
    Holder,
}

/// What leaves the root.
#[derive(Clone, Copy, Debug)]
enum Leaves {
    /// `T/root/d`, holding the tracked handle, moves to `T/outside/d`.
    DirMovedOut,
    /// `T/root` moves to `T/moved`.
    RootMovedAway,
    /// `T/root` moves to `T/old` and `T/new` takes its place.
    RootReplaced,
}

/// One run of a row: the revocation latency, the flood's operations and
/// duration, and how many overflows the watcher reported.
struct Run {
    latency: Duration,
    ops: u64,
    flooded: Duration,
    overflows: usize,
}

/// One run; the move comes `phase` after the flood is under way, so that
/// the runs of a row meet the watcher's wait at different points.
fn flood_run(flood_in: FloodIn, leaves: Leaves, phase: Duration) -> Run {
    let tree = temp_tree(
        &["root/d", "root/h", "new", "outside"],
        &[("root/d/f.txt", "f"), ("root/h/keep.txt", "k")],
    );
    let w = Watched::new(tree, &["root"]);
    let mut file = w.open("root/d/f.txt");
    let _keep = w.open("root/h/keep.txt");
    std::thread::sleep(SETTLE);
    let flooded = match flood_in {
        FloodIn::Root => w.tree.p("root"),
        FloodIn::Parent => w.tree.t.clone(),
        FloodIn::Holder => w.tree.p("root/h"),
    };
    let flood = Flood::start(&flooded);
    std::thread::sleep(phase);
    let since = Instant::now();
    match leaves {
        Leaves::DirMovedOut => w.rename("root/d", "outside/d"),
        Leaves::RootMovedAway => w.rename("root", "moved"),
        Leaves::RootReplaced => {
            w.rename("root", "old");
            w.rename("new", "root");
        }
    }
    let latency = revocation(&file, since, PATIENCE);
    let (ops, flooded) = flood.finish();
    let latency = latency
        .unwrap_or_else(|| panic!("{flood_in:?}/{leaves:?}: not revoked within {PATIENCE:?}"));
    assert_scope_lost(&mut file);
    let overflows = w
        .drain()
        .iter()
        .filter(|e| matches!(e, ScopeEvent::Overflow))
        .count();
    Run {
        latency,
        ops,
        flooded,
        overflows,
    }
}

/// Runs a row [`REPS`] times: every revocation within [`BOUND`], the
/// flood at [`MIN_RATE`] or more; prints the figures.
fn flood_row(flood_in: FloodIn, leaves: Leaves) {
    let _serial = serial();
    // Phases from 0 to 57 ms: over the watcher's longest wait (50 ms).
    let phase = |rep| Duration::from_millis(3 * rep as u64);
    let runs: Vec<Run> = (0..REPS)
        .map(|rep| flood_run(flood_in, leaves, phase(rep)))
        .collect();
    let mut latencies: Vec<Duration> = runs.iter().map(|r| r.latency).collect();
    latencies.sort();
    let percentile = |p: f64| latencies[((p * REPS as f64).ceil() as usize).max(1) - 1];
    let ops: u64 = runs.iter().map(|r| r.ops).sum();
    let flooded: Duration = runs.iter().map(|r| r.flooded).sum();
    let rate = ops as f64 / flooded.as_secs_f64();
    let overflows: usize = runs.iter().map(|r| r.overflows).sum();
    let max = latencies[REPS - 1];
    eprintln!(
        "flood in {flood_in:?}, {leaves:?}: {rate:.0} creations+deletions/s over {flooded:.2?}; \
         revoked after p50 {:.1?}, p99 {:.1?}, max {max:.1?} ({REPS} runs, {overflows} overflows)",
        percentile(0.50),
        percentile(0.99),
    );
    assert!(
        rate >= MIN_RATE,
        "the flood reached only {rate:.0} operations/s (needs {MIN_RATE})"
    );
    assert!(
        max <= BOUND,
        "a revocation took {max:?} (bound {BOUND:?}); sorted: {latencies:?}"
    );
}

#[test]
fn flood_in_the_root_while_a_directory_moves_out() {
    flood_row(FloodIn::Root, Leaves::DirMovedOut);
}

#[test]
fn flood_in_the_parent_while_a_directory_moves_out() {
    flood_row(FloodIn::Parent, Leaves::DirMovedOut);
}

#[test]
fn flood_where_a_handle_is_while_a_directory_moves_out() {
    flood_row(FloodIn::Holder, Leaves::DirMovedOut);
}

#[test]
fn flood_in_the_root_while_the_root_moves_away() {
    flood_row(FloodIn::Root, Leaves::RootMovedAway);
}

#[test]
fn flood_in_the_parent_while_the_root_moves_away() {
    flood_row(FloodIn::Parent, Leaves::RootMovedAway);
}

#[test]
fn flood_in_the_parent_while_the_root_is_replaced() {
    flood_row(FloodIn::Parent, Leaves::RootReplaced);
}

/// Roots `T/top` and `T/alias` (a symlink to `T/top/inner`), watched, and
/// the canary `T/alias/c.txt`, registered under the inner root until a
/// rescan moves it to the outer one.
struct Canary {
    w: Watched,
    file: TrackedFile,
    outer: RootId,
}

impl Canary {
    fn new() -> Self {
        let tree = temp_tree(&["top/inner"], &[("top/inner/c.txt", "c"), ("top/x", "x")]);
        std::os::unix::fs::symlink(tree.p("top/inner"), tree.p("alias")).expect("symlink");
        let w = Watched::new(tree, &["top", "alias"]);
        let set = w.roots.load();
        let id = |i| set.set().root(i).expect("root").id();
        let (outer, inner) = (id(0), id(1));
        drop(set);
        let file = w.open("alias/c.txt");
        assert_eq!(file.root(), inner, "opened under the root its path names");
        std::thread::sleep(SETTLE);
        let canary = Self { w, file, outer };
        assert!(!canary.rescanned(), "taking in a handle rescanned");
        canary
    }

    /// Whether a rescan ran since the canary was opened.
    fn rescanned(&self) -> bool {
        self.file.root() == self.outer
    }

    fn p(&self, rel: &str) -> String {
        self.w.tree.p(rel)
    }
}

#[test]
fn a_rescan_moves_the_canary_to_the_outer_root() {
    let _serial = serial();
    let canary = Canary::new();
    canary.w.roots.rescan();
    assert!(canary.rescanned());
}

/// Creates and deletes `count` files `prefix-N` in `dir`.
fn churn(dir: &str, prefix: &str, count: usize) {
    for i in 0..count {
        let path = format!("{dir}/{prefix}-{i}");
        std::fs::write(&path, "").expect("create");
        std::fs::remove_file(&path).expect("delete");
    }
}

/// Renames `T/rel_a` to `T/rel_b` and back, `count` times.
fn swap(canary: &Canary, rel_a: &str, rel_b: &str, count: usize) {
    for _ in 0..count {
        std::fs::rename(canary.p(rel_a), canary.p(rel_b)).expect("rename");
        std::fs::rename(canary.p(rel_b), canary.p(rel_a)).expect("rename back");
    }
}

type Row = (&'static str, fn(&Canary));

/// Events that cannot change an answer; each row's events stay below the
/// kernel's queue (16,384 by default) so that no overflow can rescan.
const SILENT: &[Row] = &[
    ("files created and deleted in the root", |c| {
        churn(&c.p("top"), "junk", 2_000);
    }),
    ("files created and deleted in the roots' parent", |c| {
        churn(&c.w.tree.t, "junk", 2_000);
    }),
    (
        "files created and deleted two levels above the roots",
        |c| {
            let grandparent = Path::new(&c.w.tree.t).parent().expect("parent");
            let prefix = format!("mcp-roots-canary-{}", std::process::id());
            churn(grandparent.to_str().expect("utf-8"), &prefix, 500);
        },
    ),
    (
        "names on no chain renamed in the parent and in the root",
        |c| {
            std::fs::write(c.p("a"), "").expect("create");
            swap(c, "a", "b", 500);
            swap(c, "top/x", "top/y", 500);
        },
    ),
    ("prefix siblings of chain names made and removed", |c| {
        for rel in ["top_evil", "alias2", "top/inner2", "top/inne", "top/alias"] {
            std::fs::create_dir(c.p(rel)).expect("mkdir");
            std::fs::remove_dir(c.p(rel)).expect("rmdir");
        }
    }),
    (
        "files created and deleted where the handle is (only a tracked file's name could matter)",
        |c| {
            churn(&c.p("top/inner"), "junk", 2_000);
        },
    ),
    ("directories made and removed in the root", |c| {
        for i in 0..500 {
            let dir = c.p(&format!("top/dir-{i}"));
            std::fs::create_dir(&dir).expect("mkdir");
            std::fs::remove_dir(&dir).expect("rmdir");
        }
    }),
    (
        "opens, reads, writes, metadata changes and creations where the handle is",
        |c| {
            use std::os::unix::fs::PermissionsExt;
            for i in 0..200 {
                std::fs::write(c.p("top/inner/c.txt"), format!("c{i}")).expect("write");
                std::fs::read(c.p("alias/c.txt")).expect("read");
                std::fs::write(c.p(&format!("top/inner/new-{i}")), "").expect("create");
                let mode = std::fs::Permissions::from_mode(0o600 + (i % 2) * 0o40);
                std::fs::set_permissions(c.p("top/inner/c.txt"), mode).expect("chmod");
                std::fs::read_dir(c.p("top/inner"))
                    .expect("list")
                    .for_each(drop);
            }
            let root = std::fs::Permissions::from_mode(0o755);
            std::fs::set_permissions(c.p("top"), root).expect("chmod");
        },
    ),
];

#[test]
fn events_that_cannot_change_an_answer_do_not_rescan() {
    let _serial = serial();
    for (row, events) in SILENT {
        let canary = Canary::new();
        events(&canary);
        std::thread::sleep(SILENCE);
        assert!(!canary.rescanned(), "{row}: rescanned");
        assert_eq!(canary.w.drain(), [], "{row}: reported");
        // The control: a rename next to the tracked file rescans (the
        // event cannot tell whether the tracked file moved).
        std::fs::write(canary.p("top/inner/probe"), "").expect("create");
        std::fs::rename(canary.p("top/inner/probe"), canary.p("top/inner/probe2")).expect("rename");
        let deadline = Instant::now() + PATIENCE;
        while !canary.rescanned() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(canary.rescanned(), "{row}: the control did not rescan");
    }
}

#[test]
fn a_directory_moved_out_right_after_an_open_is_revoked() {
    let _serial = serial();
    for _ in 0..10 {
        let tree = temp_tree(&["root/a/b", "outside"], &[("root/a/b/f.txt", "f")]);
        let w = Watched::new(tree, &["root"]);
        // Before the watcher took the handle in: its directories are not
        // watched yet, and the event is judged by what was watched.
        let mut file = w.open("root/a/b/f.txt");
        let since = Instant::now();
        w.rename("root/a", "outside/a");
        let latency = revocation(&file, since, PATIENCE).expect("revoked");
        assert!(latency <= BOUND, "revoked after {latency:?}");
        assert_scope_lost(&mut file);
    }
}

#[test]
fn a_directory_moved_away_and_back_is_watched_again() {
    let _serial = serial();
    for away in ["root", "root/d"] {
        // A rescan between the two renames (the thread preempted for 10 ms
        // there) revokes the handle: that attempt proves nothing, try again.
        let (w, mut file) = (0..5)
            .find_map(|_| away_and_back(away))
            .unwrap_or_else(|| panic!("{away}: every attempt rescanned between the renames"));
        let mut text = String::new();
        file.read_to_string(&mut text).expect("back in place: kept");
        assert_eq!(text, "f");
        let since = Instant::now();
        w.rename("root/d/e", "outside/e");
        let latency = revocation(&file, since, PATIENCE);
        assert!(
            latency.is_some_and(|l| l <= BOUND),
            "{away} moved away and back: revoked after {latency:?}"
        );
        assert_scope_lost(&mut file);
    }
}

/// `T/root/d/e/f.txt`, tracked and taken in by the watcher, after `away`
/// was renamed away and back at once; `None` if the handle was revoked
/// meanwhile.
fn away_and_back(away: &str) -> Option<(Watched, TrackedFile)> {
    let tree = temp_tree(&["root/d/e", "outside"], &[("root/d/e/f.txt", "f")]);
    let w = Watched::new(tree, &["root"]);
    let file = w.open("root/d/e/f.txt");
    std::thread::sleep(SETTLE);
    // notify stops watching a directory renamed away, and everything below
    // it, even when it comes back.
    w.rename(away, "elsewhere");
    w.rename("elsewhere", away);
    std::thread::sleep(SILENCE);
    file.revoked().is_none().then_some((w, file))
}
