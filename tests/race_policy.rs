//! Withdrawal races: one thread switches a root between writable and
//! read-only [`SWITCHES`] times (by `replace` and by `replace_list`) while
//! another keeps changing files beneath it, through fresh snapshots,
//! through snapshots taken before the switch, and through a file held
//! open for writing. A change that *began after* a read-only `replace`
//! returned (and ended before the next writable one began) must never
//! land; the count of those that did must be 0.
//!
//! Bounded in count and in wall time ([`TIME_LIMIT`]); the summary reports
//! how many switches and changes were done.

#![cfg(unix)]

use std::fs;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use mcp_roots::{Create, OpenOptions, RootSet, Roots, Snapshot, TrackedFile, Writes};

/// Read-only `replace`s (each followed by a writable one).
const SWITCHES: u64 = 500;

/// The whole race also stops after this much wall time.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// How long the switcher waits in each state for the writer to try a few
/// changes.
const DWELL: Duration = Duration::from_millis(3);

/// The phase of the switcher: odd while a read-only set is installed and
/// its `replace` has returned; even otherwise (writable, or about to
/// switch).
struct Phase(AtomicU64);

impl Phase {
    fn now(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// The kinds of change the writer cycles through.
#[derive(Clone, Copy, Debug)]
enum Change {
    CreateNew,
    WriteAtomic,
    Truncate,
    CreateDir,
    RemoveFile,
    Rename,
    HeldHandle,
}

const CHANGES: [Change; 7] = [
    Change::CreateNew,
    Change::WriteAtomic,
    Change::Truncate,
    Change::CreateDir,
    Change::RemoveFile,
    Change::Rename,
    Change::HeldHandle,
];

/// What the writer counted.
#[derive(Debug, Default)]
struct Counts {
    /// Changes that began and ended while a read-only set was in force.
    during_read_only: u64,
    /// Of those, the ones that landed: must be 0.
    landed_under_read_only: Vec<String>,
    /// Changes that landed at all (the race is real only if some do).
    landed: u64,
    /// Changes that began and ended while a writable set was in force
    /// (its replace may not have returned yet), and how many landed.
    during_writable: (u64, u64),
    total: u64,
}

struct Writer<'r> {
    roots: &'r Roots,
    dir: &'r Path,
    root: &'r str,
    held: Option<TrackedFile>,
    seq: u64,
}

impl Writer<'_> {
    /// Runs `change` through `snapshot`; whether it landed, read from the
    /// disk.
    fn change(&mut self, change: Change, snapshot: &Snapshot<'_>) -> bool {
        self.seq += 1;
        let seq = self.seq;
        let (root, dir) = (self.root, self.dir);
        match change {
            Change::CreateNew => {
                let name = format!("new-{seq}");
                let _ = snapshot.create_new(format!("{root}/{name}").as_str());
                dir.join(name).exists()
            }
            Change::WriteAtomic => {
                let name = format!("atomic-{seq}");
                let _ = snapshot.write_atomic(format!("{root}/{name}").as_str(), b"w");
                dir.join(name).exists()
            }
            Change::Truncate => {
                let options = OpenOptions::new().write(true).truncate(true);
                let _ = snapshot.open_with(format!("{root}/keep.txt").as_str(), options);
                let landed = fs::read(dir.join("keep.txt")).unwrap() != b"keep";
                if landed {
                    fs::write(dir.join("keep.txt"), "keep").unwrap();
                }
                landed
            }
            Change::CreateDir => {
                let name = format!("dir-{seq}");
                let _ = snapshot.create_dir(format!("{root}/{name}").as_str());
                dir.join(name).exists()
            }
            Change::RemoveFile => {
                let name = format!("victim-{seq}");
                fs::write(dir.join(&name), "v").unwrap();
                let _ = snapshot.remove_file(format!("{root}/{name}").as_str());
                let landed = !dir.join(&name).exists();
                let _ = fs::remove_file(dir.join(name));
                landed
            }
            Change::Rename => {
                let (from, to) = (format!("from-{seq}"), format!("to-{seq}"));
                fs::write(dir.join(&from), "r").unwrap();
                let _ = snapshot.rename(
                    format!("{root}/{from}").as_str(),
                    format!("{root}/{to}").as_str(),
                );
                dir.join(to).exists()
            }
            Change::HeldHandle => {
                // A file opened for writing earlier (reopened through the
                // snapshot when it was revoked or is missing).
                if self.held.as_ref().is_none_or(|f| f.revoked().is_some()) {
                    let options = OpenOptions::new().append(true).create(Create::OrOpen);
                    self.held = snapshot
                        .open_with(format!("{root}/held.txt").as_str(), options)
                        .ok();
                }
                let before = fs::metadata(dir.join("held.txt")).map_or(0, |m| m.len());
                if let Some(file) = &mut self.held {
                    let _ = file.write_all(b"h");
                }
                fs::metadata(dir.join("held.txt")).map_or(0, |m| m.len()) > before
            }
        }
    }
}

#[test]
fn no_change_that_began_after_a_read_only_replace_returned_lands() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = fs::canonicalize(tmp.path())
        .expect("canonicalize")
        .join("r");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("keep.txt"), "keep").unwrap();
    let root = dir.to_str().unwrap().to_owned();

    let roots = Roots::builder().build();
    let writable = RootSet::from_uris([root.as_str()]);
    let read_only = RootSet::builder().root(&root).writes(Writes::Refuse);
    roots.replace(writable.clone());

    let phase = Phase(AtomicU64::new(0));
    let done = AtomicBool::new(false);
    let tried = AtomicU64::new(0);
    let start = Instant::now();
    let (switches, counts) = thread::scope(|scope| {
        let switcher = scope.spawn(|| {
            let dwell = || {
                let (from, since) = (tried.load(Ordering::SeqCst), Instant::now());
                while tried.load(Ordering::SeqCst) < from + 3 && since.elapsed() < DWELL {
                    thread::yield_now();
                }
            };
            let mut switches = 0;
            while switches < SWITCHES && start.elapsed() < TIME_LIMIT {
                if switches.is_multiple_of(2) {
                    roots.replace(read_only.clone().build());
                } else {
                    roots.replace_list(read_only.clone());
                }
                // The read-only replace has returned.
                phase.0.store(2 * switches + 1, Ordering::SeqCst);
                dwell();
                phase.0.store(2 * switches + 2, Ordering::SeqCst);
                if switches.is_multiple_of(2) {
                    roots.replace(writable.clone());
                } else {
                    roots.replace_uris([root.as_str()]);
                }
                dwell();
                switches += 1;
            }
            done.store(true, Ordering::SeqCst);
            switches
        });
        let writer = scope.spawn(|| {
            let mut writer = Writer {
                roots: &roots,
                dir: &dir,
                root: &root,
                held: None,
                seq: 0,
            };
            let mut counts = Counts::default();
            let mut old = writer.roots.load();
            let mut i = 0_usize;
            while !done.load(Ordering::SeqCst) {
                let change = CHANGES[i % CHANGES.len()];
                // Every third change through a snapshot taken earlier
                // (renewed now and then, so it straddles switches).
                let through_old = i.is_multiple_of(3);
                if i.is_multiple_of(11) {
                    old = writer.roots.load();
                }
                let began = phase.now();
                let landed = if through_old {
                    writer.change(change, &old)
                } else {
                    let fresh = writer.roots.load();
                    writer.change(change, &fresh)
                };
                let ended = phase.now();
                tried.fetch_add(1, Ordering::SeqCst);
                counts.total += 1;
                counts.landed += u64::from(landed);
                if began == ended && began.is_multiple_of(2) {
                    counts.during_writable.0 += 1;
                    counts.during_writable.1 += u64::from(landed);
                }
                if began == ended && began % 2 == 1 {
                    counts.during_read_only += 1;
                    if landed {
                        let how = if through_old { "an old" } else { "a fresh" };
                        counts
                            .landed_under_read_only
                            .push(format!("{change:?} through {how} snapshot"));
                    }
                }
                i += 1;
            }
            counts
        });
        (
            switcher.join().expect("switcher"),
            writer.join().expect("writer"),
        )
    });
    eprintln!(
        "{switches} read-only switches in {:?}: {} changes, {} landed, {} during a read-only \
         set, {} during a writable one ({} landed)",
        start.elapsed(),
        counts.total,
        counts.landed,
        counts.during_read_only,
        counts.during_writable.0,
        counts.during_writable.1,
    );
    assert!(
        counts.landed_under_read_only.is_empty(),
        "{} changes landed after a read-only replace returned: {:?}",
        counts.landed_under_read_only.len(),
        counts.landed_under_read_only
    );
    assert!(
        switches >= 100,
        "only {switches} switches in {TIME_LIMIT:?}"
    );
    assert!(
        counts.landed > 0,
        "no change ever landed: the race ran nothing"
    );
    assert!(
        counts.during_read_only >= switches,
        "only {} changes fell inside a read-only period",
        counts.during_read_only
    );
}
