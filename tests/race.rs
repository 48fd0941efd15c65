//! Check-then-open races: a thread keeps exchanging a directory inside the
//! root with a symlink that points outside it, while the main thread opens
//! (or creates) through that directory. Every open the library grants must
//! land inside; a naive `canonicalize` + `starts_with` + `File::open` runs
//! the same loop to show that the race is real.
//!
//! Bounded in count ([`ITERATIONS`]) and in wall time ([`LOOP_TIME_LIMIT`]
//! per loop), Linux only (`renameat2(RENAME_EXCHANGE)`).

#![cfg(target_os = "linux")]

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use mcp_roots::{ErrorKind, RootSet};
use rustix::fs::{CWD, RenameFlags, renameat_with};

/// Opens per loop: the 100,000 the issue asks for. A debug build on the
/// 2-core machine does them in a few seconds, so the count is not lowered
/// for debug builds.
const ITERATIONS: usize = 100_000;

/// `create_new` calls in the create race: each leaves a file behind in one
/// directory, so fewer than [`ITERATIONS`] keep the run short.
const CREATE_ITERATIONS: usize = 20_000;

/// Each loop also stops after this much wall time, so the test stays
/// bounded on a loaded machine; the summary reports how many were done.
const LOOP_TIME_LIMIT: Duration = Duration::from_secs(30);

/// The tree every race runs in:
///
/// ```text
/// T/root/            the only root
/// T/root/d/f.txt     inside
/// T/root/swap     -> ../outside
/// T/outside/f.txt    outside, different content
/// ```
struct Fixture {
    _tmp: tempfile::TempDir,
    top: PathBuf,
    set: RootSet,
    root_uri: String,
    inside: (u64, u64),
    outside: (u64, u64),
}

impl Fixture {
    fn new() -> Self {
        let tmp = tempfile::tempdir().expect("tempdir");
        let top = fs::canonicalize(tmp.path()).expect("canonicalize tempdir");
        fs::create_dir_all(top.join("root/d")).unwrap();
        fs::create_dir(top.join("outside")).unwrap();
        fs::write(top.join("root/d/f.txt"), "inside\n").unwrap();
        fs::write(top.join("outside/f.txt"), "OUTSIDE\n").unwrap();
        std::os::unix::fs::symlink("../outside", top.join("root/swap")).unwrap();

        let root_uri = format!("file://{}/root", top.display());
        let set = RootSet::from_uris([root_uri.as_str()]);
        assert!(
            set.rejected().is_empty(),
            "the root was rejected: {:?}",
            set.rejected()
        );
        assert_eq!(set.len(), 1);

        let inside = dev_ino(&fs::metadata(top.join("root/d/f.txt")).unwrap());
        let outside = dev_ino(&fs::metadata(top.join("outside/f.txt")).unwrap());
        assert_ne!(inside, outside);
        Self {
            _tmp: tmp,
            top,
            set,
            root_uri,
            inside,
            outside,
        }
    }

    fn d(&self) -> PathBuf {
        self.top.join("root/d")
    }

    fn swap(&self) -> PathBuf {
        self.top.join("root/swap")
    }

    /// Runs `body` while a thread exchanges `root/d` and `root/swap` as fast
    /// as it can; returns what `body` returned and the number of exchanges.
    /// Afterwards `root/d` is the real directory again.
    fn with_swapper<R>(&self, body: impl FnOnce() -> R) -> (R, u64) {
        let stop = Arc::new(AtomicBool::new(false));
        let started = Arc::new(AtomicBool::new(false));
        let swapper = {
            let (stop, started) = (Arc::clone(&stop), Arc::clone(&started));
            let (a, b) = (self.d(), self.swap());
            thread::spawn(move || -> rustix::io::Result<u64> {
                let mut swaps = 0u64;
                started.store(true, Ordering::Release);
                while !stop.load(Ordering::Relaxed) {
                    renameat_with(CWD, &a, CWD, &b, RenameFlags::EXCHANGE)?;
                    swaps += 1;
                }
                Ok(swaps)
            })
        };
        // Give the swapper its first exchanges before the loop starts.
        while !started.load(Ordering::Acquire) && !swapper.is_finished() {
            thread::yield_now();
        }
        let result = {
            // Stops the swapper even if `body` panics.
            let _stop = StopOnDrop(&stop);
            body()
        };
        let swaps = swapper
            .join()
            .expect("swapper thread panicked")
            .unwrap_or_else(|e| panic!("renameat2(RENAME_EXCHANGE) failed in the swapper: {e}"));
        assert!(
            swaps > 0,
            "the swapper never exchanged root/d and root/swap: the race was not exercised"
        );
        if fs::symlink_metadata(self.d())
            .unwrap()
            .file_type()
            .is_symlink()
        {
            renameat_with(CWD, self.d(), CWD, self.swap(), RenameFlags::EXCHANGE).unwrap();
        }
        assert!(fs::symlink_metadata(self.d()).unwrap().is_dir());
        (result, swaps)
    }

    fn classify(&self, file: &fs::File) -> Landed {
        let id = dev_ino(&file.metadata().expect("fstat"));
        if id == self.inside {
            Landed::Inside
        } else if id == self.outside {
            Landed::Outside
        } else {
            Landed::Elsewhere
        }
    }
}

/// Sets the flag when dropped.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

fn dev_ino(meta: &fs::Metadata) -> (u64, u64) {
    (meta.dev(), meta.ino())
}

enum Landed {
    Inside,
    Outside,
    Elsewhere,
}

/// What one loop saw.
#[derive(Default, Debug)]
struct Tally {
    attempts: usize,
    inside: usize,
    outside: usize,
    elsewhere: usize,
    refused: BTreeMap<String, usize>,
    elapsed: Duration,
}

impl Tally {
    fn count(&mut self, landed: Landed) {
        match landed {
            Landed::Inside => self.inside += 1,
            Landed::Outside => self.outside += 1,
            Landed::Elsewhere => self.elsewhere += 1,
        }
    }

    fn refuse(&mut self, reason: impl Into<String>) {
        *self.refused.entry(reason.into()).or_default() += 1;
    }

    fn refused_total(&self) -> usize {
        self.refused.values().sum()
    }

    fn summary(&self, swaps: u64) -> String {
        format!(
            "{} attempts in {:.2?} ({} exchanges): inside {}, refused {} {:?}, OUTSIDE {}, elsewhere {}",
            self.attempts,
            self.elapsed,
            swaps,
            self.inside,
            self.refused_total(),
            self.refused,
            self.outside,
            self.elsewhere,
        )
    }
}

/// Runs `step` up to `iterations` times or until [`LOOP_TIME_LIMIT`].
fn bounded_loop(iterations: usize, mut step: impl FnMut(usize, &mut Tally)) -> Tally {
    let mut tally = Tally::default();
    let start = Instant::now();
    for i in 0..iterations {
        if start.elapsed() > LOOP_TIME_LIMIT {
            break;
        }
        step(i, &mut tally);
        tally.attempts += 1;
    }
    tally.elapsed = start.elapsed();
    tally
}

#[test]
fn open_never_lands_outside_while_a_directory_is_swapped_for_a_symlink() {
    let fx = Fixture::new();
    let uri = format!("{}/d/f.txt", fx.root_uri);
    let test_start = Instant::now();

    let (library, library_swaps) = fx.with_swapper(|| {
        bounded_loop(ITERATIONS, |_, tally| match fx.set.open(uri.as_str()) {
            Ok(file) => tally.count(fx.classify(&file)),
            Err(e) => tally.refuse(e.reason()),
        })
    });

    // The same race through the check-then-open this crate exists to
    // replace. Reported, not asserted: a given run may never lose the race.
    let path = fx.d().join("f.txt");
    let root_canonical = fs::canonicalize(fx.top.join("root")).unwrap();
    let (naive, naive_swaps) = fx.with_swapper(|| {
        bounded_loop(ITERATIONS, |_, tally| {
            match naive_open(&path, &root_canonical) {
                Ok(file) => tally.count(fx.classify(&file)),
                Err(reason) => tally.refuse(reason),
            }
        })
    });

    eprintln!(
        "race (library RootSet::open): {}",
        library.summary(library_swaps)
    );
    eprintln!(
        "race (naive canonicalize + starts_with + File::open): {}",
        naive.summary(naive_swaps)
    );
    eprintln!(
        "race summary: library inside={} refused={} outside={} | naive inside={} refused={} outside={} | total {:.2?}",
        library.inside,
        library.refused_total(),
        library.outside,
        naive.inside,
        naive.refused_total(),
        naive.outside,
        test_start.elapsed(),
    );

    assert_eq!(
        library.outside, 0,
        "RootSet::open returned the file OUTSIDE the root: {library:?}"
    );
    assert_eq!(
        library.elsewhere, 0,
        "RootSet::open returned an unexpected file: {library:?}"
    );
    assert!(
        library.inside > 0,
        "no open succeeded, so the race was not exercised: {library:?}"
    );
    assert!(
        library.refused_total() > 0,
        "no open was refused, so the swapper never won a race: {library:?}"
    );
}

/// `canonicalize`, `starts_with`, then open the path again: the window
/// between the check and the open is the bug.
fn naive_open(path: &Path, root_canonical: &Path) -> Result<fs::File, String> {
    let canonical = fs::canonicalize(path).map_err(|e| format!("canonicalize: {:?}", e.kind()))?;
    if !canonical.starts_with(root_canonical) {
        return Err("outside_roots".to_owned());
    }
    fs::File::open(path).map_err(|e| format!("open: {:?}", e.kind()))
}

#[test]
fn create_new_never_creates_outside_while_a_directory_is_swapped_for_a_symlink() {
    let fx = Fixture::new();
    let mut created: Vec<(String, (u64, u64))> = Vec::new();

    let (tally, swaps) = fx.with_swapper(|| {
        bounded_loop(CREATE_ITERATIONS, |i, tally| {
            let name = format!("new-{i}.txt");
            let uri = format!("{}/d/{name}", fx.root_uri);
            match fx.set.create_new(uri.as_str()) {
                Ok(file) => {
                    created.push((name, dev_ino(&file.metadata().expect("fstat"))));
                    tally.inside += 1;
                }
                Err(e) => tally.refuse(e.reason()),
            }
        })
    });
    eprintln!(
        "race (library RootSet::create_new): {}",
        tally.summary(swaps)
    );

    let mut outside: Vec<_> = fs::read_dir(fx.top.join("outside"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    outside.sort();
    assert_eq!(
        outside,
        ["f.txt"],
        "create_new left files in the outside directory"
    );

    let d = fx.d();
    for (name, id) in &created {
        let meta = fs::symlink_metadata(d.join(name))
            .unwrap_or_else(|e| panic!("created file {name} is not under root/d: {e}"));
        assert!(meta.is_file(), "{name} under root/d is not a regular file");
        assert_eq!(dev_ino(&meta), *id, "{name} under root/d is another file");
    }
    let in_d = fs::read_dir(&d).unwrap().count();
    assert_eq!(
        in_d,
        created.len() + 1,
        "root/d holds f.txt and the created files"
    );

    assert!(
        !created.is_empty(),
        "no create succeeded, so the race was not exercised: {tally:?}"
    );
    assert!(
        tally.refused_total() > 0,
        "no create was refused, so the swapper never won a race: {tally:?}"
    );
    for reason in tally.refused.keys() {
        assert_ne!(
            reason,
            ErrorKind::AlreadyExists.reason(),
            "every name is fresh, yet a create reported already_exists"
        );
    }
}
