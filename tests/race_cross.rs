//! Races on the walk across roots: while the main thread opens through a
//! link that leads from one root into another (or through a raw `..` that
//! does), a thread keeps exchanging a directory on that walk with a symlink
//! to outside, or a link with one whose target lies outside. Every open
//! the library grants must land inside; none may land outside.
//!
//! Bounded in count ([`ITERATIONS`]) and in wall time ([`LOOP_TIME_LIMIT`]
//! per loop), Linux only (`renameat2(RENAME_EXCHANGE)`).

#![cfg(target_os = "linux")]

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{MetadataExt, symlink};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use mcp_roots::RootSet;
use rustix::fs::{CWD, RenameFlags, renameat_with};

/// Opens per loop.
const ITERATIONS: usize = 100_000;

/// Each loop also stops after this much wall time, so the test stays
/// bounded on a loaded machine; the summary reports how many were done.
const LOOP_TIME_LIMIT: Duration = Duration::from_secs(30);

/// The tree:
///
/// ```text
/// T/a/                         a root
/// T/a/tob       -> T/b         into the other root (absolute)
/// T/a/l         -> T/b/d/f.txt swapped with a/l-out
/// T/a/l-out     -> T/outside/f.txt
/// T/b/                         a root
/// T/b/d/f.txt                  inside
/// T/b/swap      -> ../outside  swapped with b/d
/// T/outside/f.txt              outside
/// ```
struct Tree {
    _tmp: tempfile::TempDir,
    top: PathBuf,
    set: RootSet,
    inside: (u64, u64),
    outside: (u64, u64),
}

impl Tree {
    fn new() -> Self {
        let tmp = tempfile::tempdir().expect("tempdir");
        let top = fs::canonicalize(tmp.path()).expect("canonicalize tempdir");
        fs::create_dir_all(top.join("a")).unwrap();
        fs::create_dir_all(top.join("b/d")).unwrap();
        fs::create_dir(top.join("outside")).unwrap();
        fs::write(top.join("b/d/f.txt"), "inside\n").unwrap();
        fs::write(top.join("outside/f.txt"), "OUTSIDE\n").unwrap();
        symlink(top.join("b"), top.join("a/tob")).unwrap();
        symlink(top.join("b/d/f.txt"), top.join("a/l")).unwrap();
        symlink(top.join("outside/f.txt"), top.join("a/l-out")).unwrap();
        symlink("../outside", top.join("b/swap")).unwrap();
        let set = RootSet::from_uris([
            format!("file://{}/a", top.display()),
            format!("file://{}/b", top.display()),
        ]);
        assert!(set.rejected().is_empty() && set.len() == 2);
        let inside = dev_ino(&top.join("b/d/f.txt"));
        let outside = dev_ino(&top.join("outside/f.txt"));
        Self {
            _tmp: tmp,
            top,
            set,
            inside,
            outside,
        }
    }

    /// Runs `open` up to [`ITERATIONS`] times while a thread exchanges `x`
    /// and `y` (below the tree) as fast as it can; `x` is back in place
    /// afterwards.
    fn race(&self, x: &str, y: &str, open: impl Fn() -> Option<fs::File>) -> Tally {
        let (x, y) = (self.top.join(x), self.top.join(y));
        let x_was_link = fs::symlink_metadata(&x).unwrap().file_type().is_symlink();
        let stop = Arc::new(AtomicBool::new(false));
        let swaps = Arc::new(AtomicU64::new(0));
        let swapper = {
            let (stop, swaps, x, y) = (stop.clone(), swaps.clone(), x.clone(), y.clone());
            thread::spawn(move || -> rustix::io::Result<()> {
                while !stop.load(Ordering::Relaxed) {
                    renameat_with(CWD, &x, CWD, &y, RenameFlags::EXCHANGE)?;
                    swaps.fetch_add(1, Ordering::Relaxed);
                }
                Ok(())
            })
        };
        while swaps.load(Ordering::Relaxed) == 0 && !swapper.is_finished() {
            thread::yield_now();
        }
        let mut tally = Tally::default();
        let start = Instant::now();
        for _ in 0..ITERATIONS {
            if start.elapsed() > LOOP_TIME_LIMIT {
                break;
            }
            tally.attempts += 1;
            match open() {
                Some(file) => {
                    let id = file.metadata().map(|m| (m.dev(), m.ino())).unwrap();
                    if id == self.inside {
                        tally.inside += 1;
                    } else if id == self.outside {
                        tally.outside += 1;
                    } else {
                        tally.elsewhere += 1;
                    }
                }
                None => tally.refused += 1,
            }
        }
        tally.elapsed = start.elapsed();
        stop.store(true, Ordering::Relaxed);
        swapper.join().unwrap().expect("renameat2(RENAME_EXCHANGE)");
        tally.swaps = swaps.load(Ordering::Relaxed);
        if fs::symlink_metadata(&x).unwrap().file_type().is_symlink() != x_was_link {
            renameat_with(CWD, &x, CWD, &y, RenameFlags::EXCHANGE).unwrap();
        }
        tally
    }

    fn open(&self, input: &str, reasons: &mut BTreeMap<&'static str, usize>) -> Option<fs::File> {
        let input = format!("{}{input}", self.top.display());
        match self.set.open(input.as_str()) {
            Ok(file) => Some(file),
            Err(e) => {
                *reasons.entry(e.reason()).or_default() += 1;
                None
            }
        }
    }
}

fn dev_ino(path: &Path) -> (u64, u64) {
    let meta = fs::metadata(path).unwrap();
    (meta.dev(), meta.ino())
}

/// What one loop saw.
#[derive(Debug, Default)]
struct Tally {
    attempts: usize,
    inside: usize,
    outside: usize,
    elsewhere: usize,
    refused: usize,
    swaps: u64,
    elapsed: Duration,
}

/// The assertions every loop makes: nothing outside, nothing unexpected,
/// and both outcomes seen (so the race was exercised).
fn judge(what: &str, tally: &Tally, reasons: &BTreeMap<&'static str, usize>) {
    eprintln!("race across roots ({what}): {tally:?} refused as {reasons:?}");
    assert_eq!(
        tally.outside, 0,
        "{what}: landed OUTSIDE the roots: {tally:?}"
    );
    assert_eq!(tally.elsewhere, 0, "{what}: an unexpected file: {tally:?}");
    assert!(tally.inside > 0, "{what}: no open succeeded: {tally:?}");
    assert!(
        tally.refused > 0,
        "{what}: the swapper never won: {tally:?}"
    );
}

#[test]
fn a_directory_on_the_walk_swapped_for_a_link_outside() {
    let tree = Tree::new();
    for input in ["/a/tob/d/f.txt", "/a/../b/d/f.txt"] {
        let reasons = std::sync::Mutex::new(BTreeMap::new());
        let tally = tree.race("b/d", "b/swap", || {
            tree.open(input, &mut reasons.lock().unwrap())
        });
        judge(input, &tally, &reasons.into_inner().unwrap());
    }
}

#[test]
fn a_link_across_roots_swapped_for_a_link_outside() {
    let tree = Tree::new();
    let reasons = std::sync::Mutex::new(BTreeMap::new());
    let tally = tree.race("a/l", "a/l-out", || {
        tree.open("/a/l", &mut reasons.lock().unwrap())
    });
    judge("/a/l", &tally, &reasons.into_inner().unwrap());
}
