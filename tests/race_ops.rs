//! More races, each bounded in count and time and compared by device and
//! inode: a missing name swapped with a dangling link to outside during
//! `create_new`; a root moved away and replaced by a symlink to outside
//! while handles are open and new opens run; `rename` and `write_atomic`
//! while a parent directory is swapped with a symlink to outside.

#![cfg(target_os = "linux")]

use std::fs;
use std::os::unix::fs::{MetadataExt, symlink};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mcp_roots::{RootSet, Roots};
use rustix::fs::{CWD, RenameFlags, renameat_with};

const ROUNDS: usize = 20_000;
const TIME_LIMIT: Duration = Duration::from_secs(20);

struct Tree {
    _tmp: tempfile::TempDir,
    top: PathBuf,
}

impl Tree {
    fn new() -> Self {
        let tmp = tempfile::tempdir().expect("tempdir");
        let top = fs::canonicalize(tmp.path()).expect("canonicalize");
        fs::create_dir_all(top.join("root/d")).expect("mkdir");
        fs::create_dir(top.join("outside")).expect("mkdir");
        fs::write(top.join("root/d/f.txt"), "inside").expect("write");
        fs::write(top.join("outside/f.txt"), "OUTSIDE").expect("write");
        Self { _tmp: tmp, top }
    }

    fn p(&self, rel: &str) -> PathBuf {
        self.top.join(rel)
    }

    fn s(&self, rel: &str) -> String {
        self.p(rel).to_str().expect("utf-8").to_owned()
    }

    /// Names under `outside/` other than the seed file.
    fn outside_changes(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(self.p("outside"))
            .expect("list")
            .map(|e| e.expect("entry").file_name().into_string().expect("utf-8"))
            .filter(|n| n != "f.txt")
            .collect();
        names.sort();
        let seed = fs::read_to_string(self.p("outside/f.txt")).expect("read");
        if seed != "OUTSIDE" {
            names.push(format!("f.txt now holds {seed:?}"));
        }
        names
    }
}

fn exchange(a: &Path, b: &Path) {
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).expect("renameat2(RENAME_EXCHANGE)");
}

/// Runs `swap` in a loop on another thread while `work(i)` runs `ROUNDS`
/// times (or until the time limit); returns (rounds done, swaps done).
fn race(swap: impl Fn() + Sync, mut work: impl FnMut(usize)) -> (usize, usize) {
    /// Stops the swapper even when `work` panics (a scope waits for its
    /// threads before it lets a panic through).
    struct StopOnDrop<'a>(&'a AtomicBool);
    impl Drop for StopOnDrop<'_> {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    let stop = AtomicBool::new(false);
    let swaps = AtomicUsize::new(0);
    let started = Instant::now();
    let mut done = 0;
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                swap();
                swaps.fetch_add(1, Ordering::Relaxed);
            }
        });
        let _stop = StopOnDrop(&stop);
        while done < ROUNDS && started.elapsed() < TIME_LIMIT {
            work(done);
            done += 1;
        }
    });
    (done, swaps.load(Ordering::Relaxed))
}

#[test]
fn create_new_on_a_name_swapped_with_a_dangling_link_to_outside() {
    let tree = Tree::new();
    symlink(tree.p("outside/planted.txt"), tree.p("root/link")).expect("dangling link");
    let set = RootSet::from_uris([tree.s("root")]);
    let target = tree.s("root/name");
    let mut created = 0;
    let (rounds, swaps) = race(
        // `root/name` alternates between missing and a dangling link.
        || {
            let _ = fs::rename(tree.p("root/link"), tree.p("root/name"));
            let _ = fs::rename(tree.p("root/name"), tree.p("root/link"));
        },
        // A created file is a plain file made in the root's directory (the
        // swapper's next rename replaces it with the link again).
        |_| {
            if let Ok(file) = set.create_new(target.as_str()) {
                created += 1;
                assert!(file.metadata().expect("fstat").is_file());
            }
        },
    );
    eprintln!("{rounds} create_new, {swaps} swaps, {created} created inside");
    assert_eq!(
        tree.outside_changes(),
        Vec::<String>::new(),
        "nothing may appear outside"
    );
    assert!(swaps > 0 && created > 0, "the race was exercised");
}

#[test]
fn a_root_replaced_by_a_symlink_to_outside_while_handles_are_open() {
    let tree = Tree::new();
    let roots = Roots::default();
    roots.replace(RootSet::from_uris([tree.s("root")]));
    let inside = fs::metadata(tree.p("root/d/f.txt")).expect("stat").ino();
    let outside = fs::metadata(tree.p("outside/f.txt")).expect("stat").ino();
    let held = roots
        .load()
        .open(&tree.s("root/d/f.txt"))
        .expect("open before the race");
    let input = tree.s("root/d/f.txt");
    let (mut opened, mut escaped) = (0, 0);
    let (rounds, swaps) = race(
        || {
            fs::rename(tree.p("root"), tree.p("root.moved")).expect("move the root away");
            symlink(tree.p("outside"), tree.p("root")).expect("plant");
            fs::remove_file(tree.p("root")).expect("unplant");
            fs::rename(tree.p("root.moved"), tree.p("root")).expect("move back");
        },
        |i| {
            if i % 64 == 0 {
                roots.rescan();
            }
            if let Ok(file) = roots.load().open(input.as_str()) {
                opened += 1;
                let ino = file.metadata().expect("fstat").ino();
                if ino == outside {
                    escaped += 1;
                }
                assert!(ino == inside || ino == outside);
            }
        },
    );
    roots.rescan();
    eprintln!("{rounds} opens, {swaps} root swaps: {opened} opened, {escaped} outside");
    assert_eq!(escaped, 0);
    assert!(swaps > 0, "the race was exercised");
    // Once the swapping stops, the same directory is back at its path.
    let again = roots.load().open(input.as_str()).expect("the root is back");
    assert_eq!(again.metadata().expect("fstat").ino(), inside);
    // The held handle never reaches outside: it still holds the inside file,
    // or a rescan that saw the root gone revoked it.
    match held.metadata() {
        Ok(meta) => assert_eq!(meta.ino(), inside),
        Err(err) => assert_eq!(err.kind(), mcp_roots::ErrorKind::ScopeLost),
    }
}

#[test]
fn rename_and_write_atomic_while_a_parent_is_swapped_with_a_symlink() {
    let tree = Tree::new();
    symlink("../outside", tree.p("root/swap")).expect("symlink");
    let set = RootSet::from_uris([tree.s("root")]);
    let (d, swap) = (tree.p("root/d"), tree.p("root/swap"));
    let (mut renamed, mut written) = (0, 0);
    let (rounds, swaps) = race(
        || exchange(&d, &swap),
        |i| {
            let (a, b) = (
                tree.s(&format!("root/d/a{i}")),
                tree.s(&format!("root/d/b{i}")),
            );
            if set.write_atomic(a.as_str(), b"atomic").is_ok() {
                written += 1;
            }
            if set.rename(a.as_str(), b.as_str()).is_ok() {
                renamed += 1;
            }
            let _ = set.rename(
                tree.s("root/d/f.txt").as_str(),
                tree.s("root/d/g.txt").as_str(),
            );
            let _ = set.rename(
                tree.s("root/d/g.txt").as_str(),
                tree.s("root/d/f.txt").as_str(),
            );
        },
    );
    eprintln!("{rounds} rounds, {swaps} swaps: {written} atomic writes, {renamed} renames");
    assert_eq!(
        tree.outside_changes(),
        Vec::<String>::new(),
        "nothing may change outside"
    );
    assert!(
        swaps > 0 && written > 0 && renamed > 0,
        "the race was exercised"
    );
}
