//! The watcher, with real renames and removals on temporary trees. Waits
//! are bounded: each expectation polls for up to ten seconds, and most are
//! met within milliseconds.

#![cfg(all(target_os = "linux", feature = "watch"))]

mod common;

use std::io::Read;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use mcp_roots::{ErrorKind, RootSet, Roots, ScopeEvent, TrackedFile, WatchGuard};

const PATIENCE: Duration = Duration::from_secs(10);

struct Watched {
    _tmp: tempfile::TempDir,
    t: String,
    roots: Roots,
    events: Receiver<ScopeEvent>,
    _guard: WatchGuard,
}

impl Watched {
    /// `T/top/mid/root` (the root) with `x.txt` and `d/y.txt`, and `T/outside`.
    fn new() -> Self {
        let tmp = tempfile::tempdir().expect("tempdir");
        let t = tmp.path().to_str().expect("utf-8").to_owned();
        for dir in ["top/mid/root/d", "top/mid/root/e", "outside"] {
            std::fs::create_dir_all(format!("{t}/{dir}")).expect("mkdir");
        }
        std::fs::write(format!("{t}/top/mid/root/x.txt"), "x").expect("write");
        std::fs::write(format!("{t}/top/mid/root/d/y.txt"), "y").expect("write");
        let roots = Roots::default();
        roots.replace(RootSet::from_uris([format!("file://{t}/top/mid/root")]));
        let (events, guard) = common::watch(&roots);
        Self {
            _tmp: tmp,
            t,
            roots,
            events,
            _guard: guard,
        }
    }

    fn p(&self, rel: &str) -> String {
        format!("{}/{rel}", self.t)
    }

    fn open(&self, rel: &str) -> TrackedFile {
        self.roots.load().open(&self.p(rel)).expect("open")
    }

    fn rename(&self, from: &str, to: &str) {
        std::fs::rename(self.p(from), self.p(to)).expect("rename");
    }

    /// Waits for an event matching `want`.
    fn expect(&self, what: &str, want: impl Fn(&ScopeEvent) -> bool) -> ScopeEvent {
        let deadline = Instant::now() + PATIENCE;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.events.recv_timeout(left) {
                Ok(event) if want(&event) => return event,
                Ok(_) => continue,
                Err(_) => break,
            }
        }
        panic!("no {what} event within {PATIENCE:?}");
    }

    /// Waits until the watcher has caught up with the tracked handles (it
    /// polls for new ones), so that a move right after an open is seen.
    fn settle(&self) {
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn revoked(file: &mut TrackedFile) -> bool {
    file.read(&mut [0; 4]).is_err() && file.revoked() == Some(ErrorKind::ScopeLost)
}

/// The root renamed to `away` and back: gone with its handle revoked, then
/// back.
fn gone_and_back(away: &str) {
    let w = Watched::new();
    let mut held = w.open("top/mid/root/x.txt");
    w.settle();
    w.rename("top/mid/root", away);
    w.expect("RootGone", |e| matches!(e, ScopeEvent::RootGone { .. }));
    w.expect("HandleRevoked", |e| {
        matches!(e, ScopeEvent::HandleRevoked { .. })
    });
    assert!(revoked(&mut held));
    let err = w.roots.load().open(&w.p("top/mid/root/x.txt")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RootGone);

    w.rename(away, "top/mid/root");
    w.expect("RootBack", |e| matches!(e, ScopeEvent::RootBack { .. }));
    w.roots
        .load()
        .open(&w.p("top/mid/root/x.txt"))
        .expect("open after the root came back");
}

#[test]
fn a_root_renamed_away_is_gone_and_comes_back() {
    gone_and_back("top/mid/moved");
}

#[test]
fn a_root_moved_to_an_unwatched_directory_and_back_is_gone_then_back() {
    // Each rename is seen only at one end: its other end is not watched.
    gone_and_back("outside/stash");
}

#[test]
fn renaming_a_directory_two_levels_above_removes_the_root() {
    let w = Watched::new();
    w.rename("top", "top2");
    match w.expect("RootGone", |e| matches!(e, ScopeEvent::RootGone { .. })) {
        ScopeEvent::RootGone { uri, .. } => assert!(uri.ends_with("/top/mid/root")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn removing_a_root_removes_it() {
    let w = Watched::new();
    std::fs::remove_dir_all(w.p("top/mid/root")).expect("remove");
    w.expect("RootGone", |e| matches!(e, ScopeEvent::RootGone { .. }));
}

#[test]
fn a_directory_moved_out_revokes_its_files_and_one_moved_inside_keeps_them() {
    let w = Watched::new();
    let mut out = w.open("top/mid/root/d/y.txt");
    std::fs::write(w.p("top/mid/root/e/z.txt"), "z").expect("write");
    let mut kept = w.open("top/mid/root/e/z.txt");
    w.settle();
    w.rename("top/mid/root/e", "top/mid/root/d/e2");
    w.rename("top/mid/root/d", "outside/d");
    match w.expect("HandleRevoked", |e| {
        matches!(e, ScopeEvent::HandleRevoked { .. })
    }) {
        ScopeEvent::HandleRevoked { path, .. } => assert!(path == "d/y.txt" || path == "e/z.txt"),
        other => panic!("{other:?}"),
    }
    assert!(revoked(&mut out));
    // e moved into d, and d moved out: z.txt left too.
    let deadline = Instant::now() + PATIENCE;
    while !revoked(&mut kept) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(revoked(&mut kept));

    std::fs::create_dir(w.p("top/mid/root/f")).expect("mkdir");
    std::fs::write(w.p("top/mid/root/f/w.txt"), "w").expect("write");
    let mut inside = w.open("top/mid/root/f/w.txt");
    w.settle();
    w.rename("top/mid/root/f", "top/mid/root/g");
    std::thread::sleep(Duration::from_millis(300));
    let mut text = String::new();
    inside
        .read_to_string(&mut text)
        .expect("a move inside keeps the handle");
    assert_eq!(text, "w");
    assert_eq!(inside.path().expect("located").rel(), "g/w.txt");
}

#[test]
fn the_watcher_survives_a_burst_and_follows_replace() {
    let w = Watched::new();
    for i in 0..10_000 {
        std::fs::write(w.p(&format!("top/mid/root/burst-{i}")), "").expect("create");
    }
    std::fs::create_dir(w.p("other")).expect("mkdir");
    w.roots
        .replace(RootSet::from_uris([w.p("top/mid/root"), w.p("other")]));
    std::thread::sleep(Duration::from_millis(300));
    w.rename("other", "other-moved");
    match w.expect("RootGone", |e| matches!(e, ScopeEvent::RootGone { .. })) {
        ScopeEvent::RootGone { uri, .. } => assert!(uri.ends_with("/other")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_tracked_file_renamed_out_is_revoked_and_one_renamed_within_is_kept() {
    let w = Watched::new();
    let mut out = w.open("top/mid/root/x.txt");
    let mut kept = w.open("top/mid/root/d/y.txt");
    w.settle();
    // Within the root: the watcher rescans (a rename where a handle is)
    // and keeps the handle.
    w.rename("top/mid/root/d/y.txt", "top/mid/root/d/y2.txt");
    // Out to a directory nobody watches: only the root sees it leave.
    w.rename("top/mid/root/x.txt", "outside/x.txt");
    match w.expect("HandleRevoked", |e| {
        matches!(e, ScopeEvent::HandleRevoked { .. })
    }) {
        ScopeEvent::HandleRevoked { path, .. } => assert_eq!(path, "x.txt"),
        other => panic!("{other:?}"),
    }
    assert!(revoked(&mut out));
    let mut text = String::new();
    kept.read_to_string(&mut text)
        .expect("a file renamed within its root stays");
    assert_eq!(text, "y");
    assert_eq!(kept.path().expect("located").rel(), "d/y2.txt");
}

#[test]
fn a_root_renamed_over_is_gone_and_a_file_renamed_over_a_tracked_one_keeps_it() {
    let w = Watched::new();
    for dir in ["top/mid/empty", "outside/new"] {
        std::fs::create_dir(w.p(dir)).expect("mkdir");
    }
    w.roots.replace(RootSet::from_uris([
        w.p("top/mid/root"),
        w.p("top/mid/empty"),
    ]));
    std::fs::write(w.p("outside/o.txt"), "o").expect("write");
    let mut over = w.open("top/mid/root/x.txt");
    w.settle();
    // A file moved in over a tracked one: the tracked file is unlinked and
    // stays with its root (a deleted file has left no root).
    w.rename("outside/o.txt", "top/mid/root/x.txt");
    // An empty root replaced by another directory renamed over it.
    w.rename("outside/new", "top/mid/empty");
    match w.expect("RootGone", |e| matches!(e, ScopeEvent::RootGone { .. })) {
        ScopeEvent::RootGone { uri, .. } => assert!(uri.ends_with("/top/mid/empty"), "{uri}"),
        other => panic!("{other:?}"),
    }
    let mut text = String::new();
    over.read_to_string(&mut text)
        .expect("a tracked file renamed over is kept");
    assert_eq!(text, "x");
    let mut now = String::new();
    w.roots
        .load()
        .open(&w.p("top/mid/root/x.txt"))
        .expect("open the file now at that name")
        .read_to_string(&mut now)
        .expect("read");
    assert_eq!(now, "o");
}

#[test]
fn a_tracked_file_whose_name_is_unlinked_stays_with_its_root() {
    // Where a removal is never a move (Linux), the watcher does not even
    // rescan for it; elsewhere it rescans and keeps the file all the same.
    let w = Watched::new();
    let mut kept = w.open("top/mid/root/d/y.txt");
    let mut moved = w.open("top/mid/root/x.txt");
    w.settle();
    std::fs::remove_file(w.p("top/mid/root/d/y.txt")).expect("unlink");
    w.rename("top/mid/root/x.txt", "outside/x.txt");
    match w.expect("HandleRevoked", |e| {
        matches!(e, ScopeEvent::HandleRevoked { .. })
    }) {
        ScopeEvent::HandleRevoked { path, .. } => assert_eq!(path, "x.txt"),
        other => panic!("{other:?}"),
    }
    assert!(revoked(&mut moved));
    let mut text = String::new();
    kept.read_to_string(&mut text)
        .expect("an unlinked tracked file is kept");
    assert_eq!(text, "y");
}
