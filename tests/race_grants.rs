//! A grant ending while reads through it run: one thread grants a file
//! and a directory for the session and ends both, [`CYCLES`] times, while
//! readers keep reading through them — through fresh snapshots, through
//! snapshots taken before the end, and through files opened before it. A
//! read that *began after* `end_grant` returned must never return data;
//! the count of those that did must be 0.
//!
//! Bounded in count and in wall time ([`TIME_LIMIT`]); the summary says
//! how many cycles and reads were done, and how many read data at all
//! (the race is real only if some do).

#![cfg(unix)]

use std::fs;
use std::io::{Read, Seek};
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use mcp_roots::{GrantAccess, Roots};

const CYCLES: u64 = 300;
const TIME_LIMIT: Duration = Duration::from_secs(60);
const STOP: u64 = u64::MAX;

/// How the reader reads.
#[derive(Clone, Copy, Debug)]
enum Way {
    /// A snapshot taken for the read.
    Fresh,
    /// A snapshot taken before the read, kept across it.
    OldSnapshot,
    /// A file opened earlier, read from its start.
    HeldFile,
}

#[test]
fn no_read_that_begins_after_a_grant_ends_returns_data() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    fs::create_dir_all(t.join("area/dir")).unwrap();
    fs::write(t.join("area/file.md"), "granted file").unwrap();
    fs::write(t.join("area/dir/in.md"), "granted dir").unwrap();
    let roots = Roots::builder()
        .ask_within([t.join("area").to_str().unwrap()])
        .build();
    let file = t.join("area/file.md").to_str().unwrap().to_owned();
    let inner = t.join("area/dir/in.md").to_str().unwrap().to_owned();
    let snapshot = roots.load();
    let asked = [
        snapshot.may_ask(&file, GrantAccess::Read).unwrap(),
        snapshot
            .may_ask(t.join("area/dir").to_str().unwrap(), GrantAccess::Read)
            .unwrap(),
    ];
    drop(snapshot);

    // Counts up once per step of a cycle: 0 granting, 1 granted, 2
    // ending, 3 every grant of the cycle ended and `end_grant` returned
    // (modulo 4); `STOP` at the end.
    let phase = AtomicU64::new(0);
    let start = Instant::now();
    let (late_reads, reads, read_data) = thread::scope(|s| {
        let readers: Vec<_> = [Way::Fresh, Way::OldSnapshot, Way::HeldFile]
            .into_iter()
            .map(|way| {
                let (roots, phase, file, inner) = (&roots, &phase, &file, &inner);
                s.spawn(move || {
                    let mut late = Vec::new();
                    let (mut reads, mut data) = (0u64, 0u64);
                    let mut held = None;
                    let mut old = roots.load();
                    while phase.load(Ordering::SeqCst) != STOP {
                        let target = if reads % 2 == 0 { file } else { inner };
                        if let Way::HeldFile = way
                            && held.is_none()
                        {
                            held = roots.load().open(target).ok();
                        }
                        let began = phase.load(Ordering::SeqCst);
                        let got = match way {
                            Way::Fresh => roots.load().read(target).ok(),
                            Way::OldSnapshot => old.read(target).ok(),
                            Way::HeldFile => held.as_mut().and_then(|f| {
                                let mut text = Vec::new();
                                f.rewind().ok()?;
                                f.read_to_end(&mut text).ok().map(|_| text)
                            }),
                        };
                        let ended = phase.load(Ordering::SeqCst);
                        reads += 1;
                        if got.as_ref().is_some_and(|d| !d.is_empty()) {
                            data += 1;
                            // Began and ended within one "ended" phase.
                            if began % 4 == 3 && began == ended {
                                late.push(format!("{way:?} read {target} in phase {began}"));
                            }
                        } else if matches!(way, Way::HeldFile) {
                            held = None;
                        }
                        if reads % 7 == 0 {
                            old = roots.load();
                        }
                    }
                    (late, reads, data)
                })
            })
            .collect();
        let mut cycles = 0;
        while cycles < CYCLES && start.elapsed() < TIME_LIMIT {
            let ids: Vec<_> = asked.iter().map(|a| roots.grant(a).unwrap()).collect();
            phase.fetch_add(1, Ordering::SeqCst); // granted
            thread::sleep(Duration::from_micros(300));
            phase.fetch_add(1, Ordering::SeqCst); // ending
            for id in ids {
                roots.end_grant(id);
            }
            phase.fetch_add(1, Ordering::SeqCst); // ended
            thread::sleep(Duration::from_micros(300));
            phase.fetch_add(1, Ordering::SeqCst); // granting
            cycles += 1;
        }
        phase.store(STOP, Ordering::SeqCst);
        let mut late = Vec::new();
        let (mut reads, mut data) = (0, 0);
        for reader in readers {
            let (l, r, d) = reader.join().unwrap();
            late.extend(l);
            reads += r;
            data += d;
        }
        (late, reads, data)
    });
    eprintln!(
        "race_grants: {reads} reads, {read_data} returned data, {} after an end",
        late_reads.len()
    );
    assert!(late_reads.is_empty(), "{late_reads:#?}");
    assert!(read_data > 0, "no read returned data: the race was not run");
}
