//! Children `rescan` and `memory`: `replace` and `rescan` with 10,000
//! tracked handles (cost per affected handle in `fstat`s), and the memory
//! the registry takes per tracked handle.

use std::fs::{self, File};
use std::hint::black_box;

use mcp_roots::{RescanReport, RootSet, Roots, TrackedFile};

use crate::measure::{emit, note, process_cpu_ns, raise_nofile, timed};
use crate::tree::{DEEP_PREFIX, Tree, path_str, uri};

/// Tracked handles in the registry.
const HANDLES: usize = 10_000;
const RESCAN_ROUNDS: usize = 7;

struct Fixture {
    root_uris: Vec<String>,
    file_uris: Vec<String>,
    file_paths: Vec<String>,
    parent_uri: String,
    other_uri: String,
}

impl Fixture {
    fn new(tree: &Tree) -> Self {
        Self {
            root_uris: (0..DEEP_PREFIX).map(|i| uri(&tree.root(i))).collect(),
            file_uris: (0..DEEP_PREFIX).map(|i| uri(&tree.deep_file(i))).collect(),
            file_paths: (0..DEEP_PREFIX)
                .map(|i| path_str(&tree.deep_file(i)).to_owned())
                .collect(),
            parent_uri: uri(tree.root(0).parent().unwrap()),
            other_uri: uri(&tree.target_root()),
        }
    }

    /// The ten roots.
    fn all(&self) -> RootSet {
        RootSet::from_uris(self.root_uris.iter().cloned())
    }

    /// Without the first root: its tenth of the handles is revoked.
    fn without_first(&self) -> RootSet {
        RootSet::from_uris(self.root_uris[1..].iter().cloned())
    }

    /// The first root replaced by its parent: its tenth of the handles is
    /// re-checked and kept.
    fn first_widened(&self) -> RootSet {
        let mut uris = vec![self.parent_uri.clone()];
        uris.extend(self.root_uris[1..].iter().cloned());
        RootSet::from_uris(uris)
    }

    /// None of the ten roots: every handle is revoked.
    fn none_of_them(&self) -> RootSet {
        RootSet::from_uris([self.other_uri.as_str()])
    }

    /// 10,000 tracked handles, a tenth under each root.
    fn open_all(&self, roots: &Roots) -> Vec<TrackedFile> {
        let snapshot = roots.load();
        (0..HANDLES)
            .map(|h| {
                snapshot
                    .open(self.file_uris[h % DEEP_PREFIX].as_str())
                    .unwrap()
            })
            .collect()
    }
}

/// Process CPU nanoseconds of one `replace` (the set is built beforehand).
fn time_replace(roots: &Roots, set: RootSet) -> (f64, RescanReport) {
    let c0 = process_cpu_ns();
    let report = roots.replace(set);
    ((process_cpu_ns() - c0) as f64, report)
}

fn time_rescan(roots: &Roots) -> (f64, RescanReport) {
    let c0 = process_cpu_ns();
    let report = roots.rescan();
    ((process_cpu_ns() - c0) as f64, report)
}

pub(crate) fn rescan(tree: &Tree) {
    raise_nofile();
    let fx = Fixture::new(tree);
    let fstat_file = File::open(tree.deep_file(0)).unwrap();
    let roots = Roots::default();
    let mut fstat = Vec::new();
    let mut unaffected = Vec::new();
    let mut revoked_10 = Vec::new();
    let mut kept_10 = Vec::new();
    let mut revoked_all = Vec::new();
    let mut full = Vec::new();
    let mut build = Vec::new();
    let mut close = Vec::new();
    let time_build = || {
        let c0 = process_cpu_ns();
        let set = fx.all();
        let t = (process_cpu_ns() - c0) as f64;
        drop(set);
        t
    };
    for _ in 0..RESCAN_ROUNDS {
        let f = timed(HANDLES, || {
            black_box(rustix::fs::fstat(black_box(&fstat_file)).unwrap());
        })
        .cpu;
        fstat.push(f);

        // The floor of a revocation: closing the descriptor (the last
        // reference to its open file), a tenth of 10,000 plain `File`s
        // opened the same way.
        let mut plain: Vec<Option<File>> = (0..HANDLES)
            .map(|h| Some(File::open(&fx.file_paths[h % DEEP_PREFIX]).unwrap()))
            .collect();
        let c0 = process_cpu_ns();
        for slot in plain.iter_mut().step_by(10) {
            *slot = None;
        }
        close.push((process_cpu_ns() - c0) as f64 / (HANDLES / 10) as f64 / f);
        drop(plain);

        // Baselines without handles.
        roots.replace(fx.all());
        let (none_empty, _) = time_replace(&roots, fx.all());
        let (rescan_empty, _) = time_rescan(&roots);

        // Building the ten-root set, with few and with 10,000 descriptors
        // open.
        let build_few = time_build();
        let handles = fx.open_all(&roots);
        build.push(time_build() / build_few);

        // None affected: the same ten roots again.
        let (none, report) = time_replace(&roots, fx.all());
        assert_eq!(report.revoked().len(), 0);
        unaffected.push((none - none_empty) / HANDLES as f64 / f);

        // Full rescan: every handle located from its descriptor, all kept.
        let (t, report) = time_rescan(&roots);
        assert_eq!(report.kept(), HANDLES);
        full.push((t - rescan_empty) / HANDLES as f64 / f);

        // 10 % affected and kept: the first root widened to its parent.
        let (t, report) = time_replace(&roots, fx.first_widened());
        assert_eq!((report.kept(), report.revoked().len()), (HANDLES / 10, 0));
        kept_10.push((t - none) / (HANDLES / 10) as f64 / f);
        roots.replace(fx.all());
        drop(handles);

        // 10 % affected and revoked: the first root removed.
        let handles = fx.open_all(&roots);
        let (t, report) = time_replace(&roots, fx.without_first());
        assert_eq!(report.revoked().len(), HANDLES / 10);
        revoked_10.push((t - none) / (HANDLES / 10) as f64 / f);
        drop(handles);

        // All affected: none of the roots stays.
        roots.replace(fx.all());
        let handles = fx.open_all(&roots);
        let (t, report) = time_replace(&roots, fx.none_of_them());
        assert_eq!(report.revoked().len(), HANDLES);
        revoked_all.push((t - none) / HANDLES as f64 / f);
        drop(handles);
    }
    emit("rescan.fstat_ns", &fstat);
    emit("rescan.unaffected_fstats", &unaffected);
    emit("rescan.kept_10_fstats", &kept_10);
    emit("rescan.revoked_10_fstats", &revoked_10);
    emit("rescan.revoked_all_fstats", &revoked_all);
    emit("rescan.full_fstats", &full);
    emit("rescan.close_fstats", &close);
    emit("rescan.build_10k_vs_few", &build);
}

/// Anonymous resident memory of this process, in bytes.
fn rss_anon() -> f64 {
    let status = fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with("RssAnon:"))
        .expect("RssAnon in /proc/self/status");
    let kb: f64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb * 1024.0
}

pub(crate) fn memory(tree: &Tree) {
    raise_nofile();
    let fx = Fixture::new(tree);
    let paths: Vec<String> = (0..DEEP_PREFIX)
        .map(|i| path_str(&tree.deep_file(i)).to_owned())
        .collect();
    let roots = Roots::default();
    roots.replace(fx.all());
    // The slots are written before the first reading, so only what the
    // opens allocate is counted; a few warm-up opens initialise statics.
    let mut plain: Vec<Option<File>> = (0..HANDLES).map(|_| None).collect();
    let mut tracked: Vec<Option<TrackedFile>> = (0..HANDLES).map(|_| None).collect();
    drop(fx.open_all_n(&roots, 16));
    let before = rss_anon();
    for (i, slot) in plain.iter_mut().enumerate() {
        *slot = Some(File::open(&paths[i % DEEP_PREFIX]).unwrap());
    }
    let plain_bytes = (rss_anon() - before) / HANDLES as f64;
    plain.iter_mut().for_each(|slot| *slot = None);
    let before = rss_anon();
    let snapshot = roots.load();
    for (i, slot) in tracked.iter_mut().enumerate() {
        *slot = Some(
            snapshot
                .open(fx.file_uris[i % DEEP_PREFIX].as_str())
                .unwrap(),
        );
    }
    let tracked_bytes = (rss_anon() - before) / HANDLES as f64;
    assert_eq!(roots.tracked(), HANDLES);
    emit("memory.plain_bytes", &[plain_bytes]);
    emit("memory.tracked_bytes", &[tracked_bytes]);
    emit("memory.registry_bytes", &[tracked_bytes - plain_bytes]);
    note(
        "memory.method",
        "RssAnon delta over 10,000 opens into pre-written slots; plain File::open as the baseline",
    );
}

impl Fixture {
    fn open_all_n(&self, roots: &Roots, n: usize) -> Vec<TrackedFile> {
        let snapshot = roots.load();
        (0..n)
            .map(|h| {
                snapshot
                    .open(self.file_uris[h % DEEP_PREFIX].as_str())
                    .unwrap()
            })
            .collect()
    }
}
