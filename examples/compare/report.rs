//! Collecting the children's lines and printing the table.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::measure::Stat;

#[derive(Default)]
pub(crate) struct Results {
    values: BTreeMap<String, Vec<f64>>,
    notes: Vec<(String, String)>,
}

impl Results {
    /// Reads `X key v…` and `N key text` lines.
    pub(crate) fn parse(&mut self, out: &str) {
        for line in out.lines() {
            let mut words = line.splitn(3, ' ');
            match (words.next(), words.next(), words.next()) {
                (Some("X"), Some(key), Some(values)) => {
                    let values = values.split(' ').filter_map(|v| v.parse().ok()).collect();
                    self.values.insert(key.to_owned(), values);
                }
                (Some("N"), Some(key), Some(text)) => self.note(key, text),
                _ => {}
            }
        }
    }

    pub(crate) fn note(&mut self, key: &str, text: &str) {
        self.notes.push((key.to_owned(), text.to_owned()));
    }

    fn stat(&self, key: &str) -> Option<Stat> {
        Stat::of(self.values.get(key)?)
    }
}

#[derive(Clone, Copy)]
enum Target {
    AtMost(f64),
    AtLeast(f64),
    None,
}

#[derive(Clone, Copy)]
enum Unit {
    /// A ratio, printed as `1.23×`.
    Times,
    /// A count of `fstat`s.
    Fstats,
    Bytes,
    Ns,
    /// Milliseconds (wall clock).
    Ms,
    PerSecond,
}

struct Row {
    label: &'static str,
    key: &'static str,
    unit: Unit,
    target: Target,
}

const fn row(label: &'static str, key: &'static str, unit: Unit, target: Target) -> Row {
    Row {
        label,
        key,
        unit,
        target,
    }
}

use Target::{AtLeast, AtMost};
use Unit::{Bytes, Fstats, Ms, Ns, PerSecond, Times};

#[rustfmt::skip]
const SECTIONS: &[(&str, &[Row])] = &[
    ("open: one file 10 directories deep, 1 root", &[
        row("RootSet::open(uri) / File::open", "open.uri_vs_std", Times, AtMost(1.3)),
        row("RootSet::open(path) / File::open", "open.path_vs_std", Times, AtMost(1.3)),
        row("RootSet::open(uri) / naive check+open", "open.uri_vs_naive", Times, AtMost(0.25)),
        row("RootSet::open(path) / naive check+open", "open.path_vs_naive", Times, AtMost(0.25)),
        row("Snapshot::open(uri), tracked / File::open", "open.tracked_uri_vs_std", Times, AtMost(1.5)),
        row("Snapshot::open(path), tracked / File::open", "open.tracked_path_vs_std", Times, AtMost(1.5)),
        row("naive check+open / File::open", "open.naive_vs_std", Times, Target::None),
        row("(File::open + fstat) / File::open", "open.std_fstat_vs_std", Times, Target::None),
        row("RootSet::open(uri) / (File::open + fstat)", "open.uri_vs_std_fstat", Times, AtMost(1.05)),
        row("RootSet::open(path) / (File::open + fstat)", "open.path_vs_std_fstat", Times, AtMost(1.05)),
        row("File::open, CPU per open", "open.std_ns", Ns, Target::None),
        row("RootSet::open(uri), CPU per open", "open.uri_ns", Ns, Target::None),
        row("naive check+open, CPU per open", "open.naive_ns", Ns, Target::None),
    ]),
    ("lookup: the target in the last root (one process, all sets open)", &[
        row("RootSet::open(uri): 100 roots / 1 root", "lookup.r100_vs_r1", Times, AtMost(1.2)),
        row("RootSet::open(uri): 10,000 roots / 1 root", "lookup.r10k_vs_r1", Times, AtMost(1.05)),
        row("RootSet::open(path): 10,000 roots / 1 root", "lookup.path_r10k_vs_r1", Times, AtMost(1.05)),
        row("RootSet::open(uri), 1 root / File::open", "lookup.r1_vs_std", Times, Target::None),
        row("RootSet::open(uri), 100 roots / File::open", "lookup.r100_vs_std", Times, Target::None),
        row("RootSet::open(uri), 10,000 roots / File::open", "lookup.r10k_vs_std", Times, Target::None),
        row("Snapshot::open(uri), 10,000 roots / File::open", "lookup.tracked_r10k_vs_std", Times, Target::None),
    ]),
    ("parts of a root: 20 hide and read-only patterns (none matching) / none", &[
        row("RootSet::open(uri), 20 patterns / none", "parts.open_uri_vs_none", Times, AtMost(1.25)),
        row("RootSet::open(path), 20 patterns / none", "parts.open_path_vs_none", Times, AtMost(1.25)),
        row("RootSet::open(uri), 20 patterns, CPU per open", "parts.open_uri_ns", Ns, Target::None),
        row("walk of 100,000 entries, 20 patterns / none", "parts.walk_vs_none", Times, AtMost(1.5)),
        row("walk of 100,000 entries, 20 patterns, CPU", "parts.walk_ms", Ms, Target::None),
    ]),
    ("grants: the target file through a grant / through a client root (Snapshot::open, tracked)", &[
        row("file grant / client root", "grant.file_vs_root", Times, AtMost(1.05)),
        row("directory grant / client root", "grant.dir_vs_root", Times, AtMost(1.05)),
    ]),
    ("file operations against std::fs", &[
        row("create_new / OpenOptions::create_new", "ops.create_new_vs_std", Times, Target::None),
        row("read_dir (32 entries) / std::fs::read_dir", "ops.read_dir_vs_std", Times, Target::None),
        row("write_atomic / std temp+fsync+rename (CPU)", "ops.write_atomic_vs_std_atomic", Times, Target::None),
        row("write_atomic / std temp+fsync+rename (wall)", "ops.write_atomic_vs_std_atomic_wall", Times, Target::None),
        row("write_atomic / std::fs::write (CPU)", "ops.write_atomic_vs_fs_write", Times, Target::None),
    ]),
    ("throughput on 2 threads over 1 thread (wall clock; rounds with both cores)", &[
        row("File::open scaling", "threads.std_scaling", Times, Target::None),
        row("RootSet::open(uri) scaling", "threads.lib_scaling", Times, Target::None),
        row("Snapshot::open(uri) scaling", "threads.tracked_scaling", Times, Target::None),
        row("RootSet::open scaling / File::open scaling", "threads.lib_vs_std_scaling", Times, AtLeast(0.95)),
        row("Snapshot::open scaling / File::open scaling", "threads.tracked_vs_std_scaling", Times, AtLeast(0.95)),
        row("File::open CPU per open, 2 threads / 1", "threads.std_cpu_2v1", Times, Target::None),
        row("RootSet::open CPU per open, 2 threads / 1", "threads.lib_cpu_2v1", Times, Target::None),
        row("Snapshot::open CPU per open, 2 threads / 1", "threads.tracked_cpu_2v1", Times, Target::None),
    ]),
    ("reader thread CPU per open while another thread storms", &[
        row("Snapshot::open (tracked): replace_uris storm / calm", "storm.tracked", Times, AtMost(1.1)),
        row("Snapshot::open (tracked): from_uris+replace storm / calm", "storm.tracked_build_replace", Times, Target::None),
        row("Snapshot::open (tracked): from_uris-only storm / calm", "storm.tracked_build_only", Times, Target::None),
        row("Snapshot::open (tracked): std File::open-only storm / calm", "storm.tracked_std_open", Times, Target::None),
        row("Snapshot::open (tracked): std metadata-of-its-root storm / calm", "storm.tracked_std_stat", Times, Target::None),
        row("Snapshot::open (tracked): std metadata-of-other-roots storm / calm", "storm.tracked_std_stat_elsewhere", Times, Target::None),
        row("Snapshot::open (tracked): busy-spin thread / calm", "storm.tracked_spin", Times, Target::None),
        row("Snapshot::open (tracked): replace_uris storm / busy-spin thread", "storm.tracked_over_spin", Times, Target::None),
        row("Snapshot::open (tracked): replace_uris storm / std File::open-only storm", "storm.tracked_over_std_open", Times, Target::None),
        row("set().open (untracked): replace_uris storm / calm", "storm.untracked", Times, AtMost(1.1)),
        row("set().open (untracked): from_uris+replace storm / calm", "storm.untracked_build_replace", Times, Target::None),
        row("set().open (untracked): from_uris-only storm / calm", "storm.untracked_build_only", Times, Target::None),
        row("set().open (untracked): std File::open-only storm / calm", "storm.untracked_std_open", Times, Target::None),
        row("set().open (untracked): std metadata-of-its-root storm / calm", "storm.untracked_std_stat", Times, Target::None),
        row("set().open (untracked): std metadata-of-other-roots storm / calm", "storm.untracked_std_stat_elsewhere", Times, Target::None),
        row("set().open (untracked): busy-spin thread / calm", "storm.untracked_spin", Times, Target::None),
        row("set().open (untracked): replace_uris storm / busy-spin thread", "storm.untracked_over_spin", Times, Target::None),
        row("set().open (untracked): replace_uris storm / std File::open-only storm", "storm.untracked_over_std_open", Times, Target::None),
        row("replace_uris per second during the storm", "storm.replaces_per_s", PerSecond, Target::None),
    ]),
    ("watch: process CPU per tracked open, watch on / off", &[
        row("1 other tracked handle held", "watch.on_vs_off_1", Times, AtMost(1.05)),
        row("1,000 other tracked handles held", "watch.on_vs_off_1000", Times, Target::None),
        row("10,000 other tracked handles held", "watch.on_vs_off_10000", Times, Target::None),
        row("tracked open, watch off / (File::open + fstat)", "watch.off_vs_std_fstat", Times, AtMost(1.10)),
        row("tracked open, watch on / (File::open + fstat)", "watch.on_vs_std_fstat", Times, Target::None),
        row("tracked open, watch off, CPU per open", "watch.off_ns", Ns, Target::None),
        row("tracked open, watch on, CPU per open", "watch.on_ns", Ns, Target::None),
    ]),
    ("watch: a directory moved out of its root → its tracked file revoked (wall clock, 1,000 other handles held)", &[
        row("no flood: p50 (quartiles)", "watch.revoke_none_ms", Ms, AtMost(20.0)),
        row("no flood: p99", "watch.revoke_none_p99_ms", Ms, AtMost(100.0)),
        row("flood in the root: p50 (quartiles)", "watch.revoke_root_ms", Ms, AtMost(20.0)),
        row("flood in the root: p99", "watch.revoke_root_p99_ms", Ms, AtMost(100.0)),
        row("flood in the root: creations+deletions per second", "watch.flood_root_per_s", PerSecond, Target::None),
        row("flood where the handles are: p50 (quartiles)", "watch.revoke_holder_ms", Ms, AtMost(20.0)),
        row("flood where the handles are: p99", "watch.revoke_holder_p99_ms", Ms, AtMost(100.0)),
        row("flood where the handles are: creations+deletions per second", "watch.flood_holder_per_s", PerSecond, Target::None),
    ]),
    ("replace + rescan with 10,000 tracked handles (in fstats per handle)", &[
        row("replace, none affected: per unaffected handle", "rescan.unaffected_fstats", Fstats, AtMost(0.05)),
        row("replace, 10 % affected, revoked: per affected", "rescan.revoked_10_fstats", Fstats, AtMost(3.0)),
        row("replace, 10 % affected, kept: per affected", "rescan.kept_10_fstats", Fstats, AtMost(3.0)),
        row("replace, all affected, revoked: per affected", "rescan.revoked_all_fstats", Fstats, AtMost(3.0)),
        row("full rescan(), all kept: per handle", "rescan.full_fstats", Fstats, Target::None),
        row("close of one such descriptor (1,000 of 10,000, plain File)", "rescan.close_fstats", Fstats, Target::None),
        row("one fstat, CPU", "rescan.fstat_ns", Ns, Target::None),
        row("RootSet::from_uris(10 roots), 10,000 descriptors open / few", "rescan.build_10k_vs_few", Times, Target::None),
    ]),
    ("memory", &[
        row("registry, per tracked handle", "memory.registry_bytes", Bytes, AtMost(256.0)),
        row("TrackedFile open, per handle (heap)", "memory.tracked_bytes", Bytes, Target::None),
        row("File::open, per handle (heap)", "memory.plain_bytes", Bytes, Target::None),
    ]),
    ("the second wall: CPU per open, confined thread / free thread (Landlock, same process)", &[
        row("File::open, a file in the ceiling directory", "confine.std_d1", Times, Target::None),
        row("File::open, a file 10 directories below it", "confine.std_d10", Times, Target::None),
        row("RootSet::open(path), a file in the ceiling directory", "confine.lib_d1", Times, Target::None),
        row("RootSet::open(path), 10 directories below", "confine.lib_d10", Times, Target::None),
        row("File::open, 10 below, free", "confine.std_d10_free_ns", Ns, Target::None),
        row("File::open, 10 below, confined", "confine.std_d10_confined_ns", Ns, Target::None),
        row("RootSet::open(path), 10 below, free", "confine.lib_d10_free_ns", Ns, Target::None),
        row("RootSet::open(path), 10 below, confined", "confine.lib_d10_confined_ns", Ns, Target::None),
    ]),
    ("the official TypeScript server (Node): validatePath + open / fs.openSync", &[
        row("1 root", "node.check_vs_open_1", Times, Target::None),
        row("100 roots", "node.check_vs_open_100", Times, Target::None),
        row("10,000 roots", "node.check_vs_open_10000", Times, Target::None),
        row("fs.openSync + closeSync, CPU per open", "node.open_ns", Ns, Target::None),
    ]),
];

fn value(v: f64, unit: Unit) -> String {
    match unit {
        Times => format!("{v:.2}×"),
        Fstats => format!("{v:.2}"),
        Bytes => format!("{v:.0} B"),
        Ns => format!("{v:.0} ns"),
        Ms => format!("{v:.1} ms"),
        PerSecond => format!("{v:.0}/s"),
    }
}

fn target(t: Target, unit: Unit) -> String {
    match t {
        AtMost(x) => format!("≤ {}", value(x, unit)),
        AtLeast(x) => format!("≥ {}", value(x, unit)),
        Target::None => String::new(),
    }
}

fn verdict(t: Target, v: f64) -> &'static str {
    match t {
        AtMost(x) if v <= x => "met",
        AtLeast(x) if v >= x => "met",
        Target::None => "",
        _ => "MISSED",
    }
}

/// Prints the table (Markdown, so that docs/PERFORMANCE.md can take it as
/// it is) and the notes.
pub(crate) fn print(results: &Results, elapsed: Duration) {
    println!("| figure | median | quartiles | target | |");
    println!("|---|---:|---:|---:|---|");
    for (section, rows) in SECTIONS {
        println!("| **{section}** | | | | |");
        for r in rows.iter() {
            let Some(s) = results.stat(r.key) else {
                println!(
                    "| {} | — | | {} | not run |",
                    r.label,
                    target(r.target, r.unit)
                );
                continue;
            };
            let quartiles = if s.n > 1 {
                format!("{} – {}", value(s.q1, r.unit), value(s.q3, r.unit))
            } else {
                String::new()
            };
            println!(
                "| {} | {} | {} | {} | {} |",
                r.label,
                value(s.median, r.unit),
                quartiles,
                target(r.target, r.unit),
                verdict(r.target, s.median)
            );
        }
    }
    println!();
    for (key, text) in &results.notes {
        println!("- {key}: {text}");
    }
    println!("- run time: {:.0} s", elapsed.as_secs_f64());
}
