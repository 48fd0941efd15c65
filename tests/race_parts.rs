//! Races against the hidden parts of a root: one thread keeps moving a
//! hidden object in and out of the path the other thread opens, by
//! renaming a directory in and out of a hidden directory, or by swapping
//! a symlink between a hidden and a shared target. The opener must never
//! read or write the hidden object through a descriptor it was given:
//! whatever the timing, what it reads is the shared content or a refusal.
//!
//! Bounded in count and in wall time, Linux only
//! (`renameat2(RENAME_EXCHANGE)`); run on both resolution paths.

#![cfg(target_os = "linux")]

use std::fs;
use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
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

/// How the other thread moves things.
#[derive(Clone, Copy)]
enum Mover {
    /// Exchanges the symlinks `swap` (-> pub) and `alt` (-> secrets).
    SwapLinks,
    /// Exchanges the directories `pub/d` and `secrets/d`.
    ExchangeDirs,
}

/// Runs `open` on `target` (below the root) in a loop while the mover
/// runs; returns how many opens were granted. Afterwards no hidden file
/// has changed.
fn race(mover: Mover, target: &str, mut open: impl FnMut(&RootSet, &str) -> bool) -> usize {
    let (tmp, set) = fixture();
    let root = tmp.path().join("root");
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let stop = stop.clone();
        let root = root.clone();
        thread::spawn(move || {
            let (a, b) = match mover {
                Mover::SwapLinks => (root.join("swap"), root.join("alt")),
                Mover::ExchangeDirs => (root.join("pub/d"), root.join("secrets/d")),
            };
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
    let secret = match mover {
        Mover::SwapLinks => "secrets/d/f.txt",
        Mover::ExchangeDirs => "secrets/f.txt",
    };
    assert_eq!(
        fs::read(root.join(secret)).expect("read"),
        SECRET,
        "{secret} changed"
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
    let read = race(Mover::SwapLinks, "swap/d/f.txt", reads_never_secret);
    let written = race(Mover::SwapLinks, "swap/d/f.txt", writes_never_secret);
    eprintln!("symlink swap: {read} reads, {written} writes granted");
    assert!(
        read > 0 && written > 0,
        "nothing was granted: the race did not run"
    );
}

#[test]
fn a_dot_dot_out_of_a_directory_exchanged_into_a_hidden_one() {
    // `pub/d/..` is `pub` until the exchange moves that `d` into
    // `secrets`: then the kernel's `..` is `secrets`, whose `f.txt` never
    // moves. Lexically the path is `pub/f.txt`: only the judgement of what
    // was reached can refuse it.
    let read = race(Mover::ExchangeDirs, "pub/d/../f.txt", reads_never_secret);
    let written = race(Mover::ExchangeDirs, "pub/d/../f.txt", writes_never_secret);
    eprintln!("directory exchange: {read} reads, {written} writes granted");
    assert!(
        read > 0 && written > 0,
        "nothing was granted: the race did not run"
    );
}
