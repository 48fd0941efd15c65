//! Races against the hidden parts of a root: one thread keeps moving a
//! hidden object in and out of the path the other thread opens, by
//! renaming a directory in and out of a hidden directory, or by swapping
//! a symlink between a hidden and a shared target. The opener must never
//! read or write the hidden object through a descriptor it was given:
//! whatever the timing, what it reads is the shared content or a refusal.
//!
//! The `..` race counts what it saw and fails unless the window it aims
//! at was open: plain reads of the same path by the kernel's own walk must
//! have read the hidden file, and the library's opens must have overlapped
//! an exchange, a minimum number of times each (a few seconds at most).
//!
//! Bounded in count and in wall time, Linux only
//! (`renameat2(RENAME_EXCHANGE)`); run on both resolution paths.

#![cfg(target_os = "linux")]

use std::fs;
use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use mcp_roots::{OpenOptions, Patterns, RootSet};
use rustix::fs::{CWD, RenameFlags, renameat_with};

const ITERATIONS: usize = 20_000;
const LOOP_TIME_LIMIT: Duration = Duration::from_secs(10);
const SECRET: &[u8] = b"SECRET";

/// `T/root/secrets/d/f.txt` and `T/root/secrets/f.txt` (hidden, `SECRET`),
/// `T/root/pub/d/f.txt` and `T/root/pub/f.txt` (`public`), `T/root/swap ->
/// pub`, `T/root/alt -> secrets`.
fn fixture() -> (tempfile::TempDir, RootSet) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("root");
    fs::create_dir_all(root.join("secrets/d")).expect("mkdir");
    fs::create_dir_all(root.join("pub/d")).expect("mkdir");
    for secret in ["secrets/d/f.txt", "secrets/f.txt"] {
        fs::write(root.join(secret), SECRET).expect("write");
    }
    for public in ["pub/d/f.txt", "pub/f.txt"] {
        fs::write(root.join(public), "public").expect("write");
    }
    std::os::unix::fs::symlink("pub", root.join("swap")).expect("symlink");
    std::os::unix::fs::symlink("secrets", root.join("alt")).expect("symlink");
    let set = RootSet::builder()
        .root(root.to_str().expect("utf-8"))
        .hide(Patterns::parse(["/secrets/"]).expect("pattern"))
        .build();
    assert!(set.rejected().is_empty());
    (tmp, set)
}

/// Runs `open` on `target` (below the root) in a loop while another
/// thread exchanges the symlinks `swap` (-> pub) and `alt` (-> secrets);
/// returns how many opens were granted. Afterwards no hidden file has
/// changed.
fn race(target: &str, mut open: impl FnMut(&RootSet, &str) -> bool) -> usize {
    let (tmp, set) = fixture();
    let root = tmp.path().join("root");
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let stop = stop.clone();
        let (a, b) = (root.join("swap"), root.join("alt"));
        thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                renameat_with(CWD, &a, CWD, &b, RenameFlags::EXCHANGE).expect("exchange");
            }
        })
    };
    let target = format!("{}/{target}", root.display());
    let mut granted = 0;
    let start = Instant::now();
    for _ in 0..ITERATIONS {
        if start.elapsed() > LOOP_TIME_LIMIT {
            break;
        }
        if open(&set, &target) {
            granted += 1;
        }
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().expect("swapper");
    assert_eq!(
        fs::read(root.join("secrets/d/f.txt")).expect("read"),
        SECRET,
        "secrets/d/f.txt changed"
    );
    granted
}

fn reads_never_secret(set: &RootSet, target: &str) -> bool {
    match set.open(target) {
        Ok(mut file) => {
            let mut data = Vec::new();
            file.read_to_end(&mut data).expect("read");
            assert_ne!(data, SECRET, "read the hidden file through {target}");
            true
        }
        Err(e) => {
            assert!(matches!(e.reason(), "hidden" | "not_found"), "{e}");
            false
        }
    }
}

fn writes_never_secret(set: &RootSet, target: &str) -> bool {
    let write = OpenOptions::new().write(true);
    match set.open_with(target, write) {
        Ok(mut file) => {
            file.write_all(b"p").expect("write");
            true
        }
        Err(e) => {
            assert!(matches!(e.reason(), "hidden" | "not_found"), "{e}");
            false
        }
    }
}

#[test]
fn a_symlink_swapped_between_a_hidden_and_a_shared_target() {
    let read = race("swap/d/f.txt", reads_never_secret);
    let written = race("swap/d/f.txt", writes_never_secret);
    eprintln!("symlink swap: {read} reads, {written} writes granted");
    assert!(
        read > 0 && written > 0,
        "nothing was granted: the race did not run"
    );
}

/// How deep the directory chain below each `d` is: the path the opener
/// sends goes down it and back up (`pub/d/e/…/e/../…/../../f.txt`), so
/// that a plain walk by the kernel spends long enough inside `d` for an
/// exchange to move it meanwhile.
const CHAIN: usize = 12;
/// The opener stops once the window was seen this often (and the opens
/// raced the exchange this often), or after [`WINDOW_TIME_LIMIT`].
const MIN_WINDOW: usize = 10;
const MIN_RACED: usize = 100;
const WINDOW_TIME_LIMIT: Duration = Duration::from_secs(5);

/// What one run of the `..` race saw.
#[derive(Debug, Default)]
struct Window {
    /// Opens through the library.
    opens: usize,
    /// Of those, granted (the shared `pub/f.txt`, read or written).
    granted: usize,
    /// Refused as hidden: the resolution reached `secrets` and the
    /// judgement of what was reached refused it.
    hidden: usize,
    /// Opens during which at least one exchange ran (the exchange counter
    /// moved between the start and the end of the open and its read).
    raced: usize,
    /// Plain reads of the same path by the kernel's own walk (no
    /// `RESOLVE_BENEATH`), and how many of them read the hidden file: the
    /// window in which `d/..` is `secrets`, open during this run.
    plain: usize,
    plain_secret: usize,
}

/// Runs `open` on the `..` path in a loop, alternating with a plain
/// `std::fs::read` of the same path, while another thread exchanges
/// `pub/d` and `secrets/d` as fast as it can, until the window was seen
/// [`MIN_WINDOW`] times and [`MIN_RACED`] opens raced an exchange, or the
/// time limit passes. No hidden file changes.
fn dot_dot_race(mut open: impl FnMut(&RootSet, &str) -> bool) -> Window {
    let (tmp, set) = fixture();
    let root = tmp.path().join("root");
    let chain = ["e"; CHAIN].join("/");
    for top in ["pub/d", "secrets/d"] {
        fs::create_dir_all(root.join(top).join(&chain)).expect("mkdir");
    }
    let exchanges = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (stop, exchanges) = (stop.clone(), exchanges.clone());
        let (a, b) = (root.join("pub/d"), root.join("secrets/d"));
        thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                renameat_with(CWD, &a, CWD, &b, RenameFlags::EXCHANGE).expect("exchange");
                exchanges.fetch_add(1, Ordering::Relaxed);
            }
        })
    };
    let up = [".."; CHAIN + 1].join("/");
    let target = format!("{}/pub/d/{chain}/{up}/f.txt", root.display());
    let mut window = Window::default();
    let start = Instant::now();
    while start.elapsed() < WINDOW_TIME_LIMIT
        && (window.plain_secret < MIN_WINDOW || window.raced < MIN_RACED)
    {
        let before = exchanges.load(Ordering::Relaxed);
        if open(&set, &target) {
            window.granted += 1;
        } else {
            window.hidden += 1;
        }
        window.opens += 1;
        window.raced += usize::from(exchanges.load(Ordering::Relaxed) != before);
        if let Ok(data) = fs::read(&target) {
            window.plain += 1;
            window.plain_secret += usize::from(data == SECRET);
        }
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().expect("swapper");
    assert_eq!(
        fs::read(root.join("secrets/f.txt")).expect("read"),
        SECRET,
        "secrets/f.txt changed"
    );
    window
}

#[test]
fn a_dot_dot_out_of_a_directory_exchanged_into_a_hidden_one() {
    // `pub/d/e/../..` is `pub` until the exchange moves that `d` into
    // `secrets` while a walk is inside it: then the kernel's `..` is
    // `secrets`, whose `f.txt` never moves. Lexically the path is
    // `pub/f.txt`: only the judgement of what was reached can refuse it.
    // The plain reads beside the library's opens show that the window is
    // real (they read the hidden file); the library's `..` never lands
    // there (`openat2` answers `EAGAIN` to a rename during a scoped `..`
    // and is retried; the portable walk pops the handle it entered, never
    // looking `..` up on disk), so its opens are granted or refused
    // `hidden`, and never read or write the hidden file.
    let start = Instant::now();
    let read = dot_dot_race(reads_never_secret);
    let written = dot_dot_race(writes_never_secret);
    eprintln!(
        "directory exchange in {:?}: reads {read:?}; writes {written:?}",
        start.elapsed()
    );
    for (what, window) in [("reads", &read), ("writes", &written)] {
        assert!(
            window.plain_secret >= MIN_WINDOW,
            "{what}: the window was seen {} times in {} plain reads, not {MIN_WINDOW}",
            window.plain_secret,
            window.plain
        );
        assert!(
            window.raced >= MIN_RACED,
            "{what}: {} of {} opens raced an exchange, not {MIN_RACED}",
            window.raced,
            window.opens
        );
        assert!(window.granted > 0, "{what}: nothing was granted");
    }
}
