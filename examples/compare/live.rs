//! Children `threads`, `storm` and `watch`: throughput scaling on two
//! threads, the cost of a concurrent `replace` storm to readers, and the
//! cost of the disk watcher.

use std::fs::File;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::Instant;

use mcp_roots::{RootSet, Roots, TrackedFile};

use crate::measure::{
    Sample, Variant, alternate, alternate_sized, batch_size, cpu, cpu_ratios, emit, note, per_op,
    process_cpu_ns, raise_nofile, timed, timed_thread,
};
use crate::tree::{Tree, uri};
use crate::{BATCH_MS, ROUNDS};

/// `n` operations split over `threads` threads (thread `t` opens its own
/// file `t`); process CPU and wall time per operation.
fn on_threads(threads: usize, n: usize, op: &(dyn Fn(usize) + Sync)) -> Sample {
    let each = n.div_ceil(threads);
    let (c0, w0) = (process_cpu_ns(), Instant::now());
    thread::scope(|s| {
        for t in 0..threads {
            s.spawn(move || {
                pin_to_cpu(t);
                for _ in 0..each {
                    op(t);
                }
            });
        }
    });
    per_op(
        each * threads,
        process_cpu_ns() - c0,
        w0.elapsed().as_nanos() as u64,
    )
}

/// Keeps thread `t` on CPU `t`: the scheduler otherwise often queues both
/// threads of a short batch on one CPU while other jobs hold the other.
fn pin_to_cpu(t: usize) {
    let mut set = rustix::thread::CpuSet::new();
    set.set(t);
    let _ = rustix::thread::sched_setaffinity(None, &set);
}

pub(crate) fn threads(tree: &Tree) {
    note("threads.priority", &crate::measure::prefer_cpu());
    let root_uri = uri(&tree.target_root());
    // Each thread opens its own file in the same directory: the kernel's
    // per-file reference counts are not what is being measured.
    let files = [tree.thread_file(0), tree.thread_file(1)];
    let uris = [uri(&files[0]), uri(&files[1])];
    let set = RootSet::from_uris([root_uri.as_str()]);
    let roots = Roots::default();
    roots.replace(RootSet::from_uris([root_uri.as_str()]));
    let std_op = |t: usize| drop(File::open(black_box(&files[t])).unwrap());
    let lib_op = |t: usize| drop(set.open(black_box(uris[t].as_str())).unwrap());
    let tracked_op = |t: usize| drop(roots.load().open(black_box(uris[t].as_str())).unwrap());
    let ops: [&(dyn Fn(usize) + Sync); 3] = [&std_op, &lib_op, &tracked_op];
    let mut variants: Vec<Variant> = Vec::new();
    for op in ops {
        for threads in [1, 2] {
            variants.push(Box::new(move |n| on_threads(threads, n, op)));
        }
    }
    // One batch size for all six, from the plain open on one thread: thread
    // start-up would mislead a per-variant calibration on a busy machine.
    let n = batch_size(BATCH_MS, &mut variants[0]);
    let rounds = ROUNDS * 2;
    let s = alternate_sized(rounds, &[n; 6], &mut variants);
    // A round counts only if its two-thread batches really ran on two cores
    // and its one-thread batches on one (process CPU over wall time): on a
    // shared machine another job often holds a core, and then the wall
    // clock says nothing about scaling.
    let parallel = |x: &Sample| x.cpu / x.wall;
    let valid: Vec<usize> = (0..rounds)
        .filter(|&r| {
            [1, 3, 5].iter().all(|&i| parallel(&s[i][r]) >= 1.6)
                && [0, 2, 4].iter().all(|&i| parallel(&s[i][r]) >= 0.8)
        })
        .collect();
    note(
        "threads.valid_rounds",
        &format!(
            "{} of {rounds} rounds had both cores for the 2-thread batches (process CPU ≥ 1.6 × wall); scaling figures use only those",
            valid.len()
        ),
    );
    // Throughput scaling: ops per wall second on 2 threads over 1 thread.
    let scaling = |one: usize, two: usize| -> Vec<f64> {
        valid
            .iter()
            .map(|&r| s[one][r].wall / s[two][r].wall)
            .collect()
    };
    let std = scaling(0, 1);
    let lib = scaling(2, 3);
    let tracked = scaling(4, 5);
    let relative = |x: &[f64]| -> Vec<f64> { x.iter().zip(&std).map(|(a, b)| a / b).collect() };
    if !valid.is_empty() {
        emit("threads.std_scaling", &std);
        emit("threads.lib_scaling", &lib);
        emit("threads.tracked_scaling", &tracked);
        emit("threads.lib_vs_std_scaling", &relative(&lib));
        emit("threads.tracked_vs_std_scaling", &relative(&tracked));
    }
    // CPU per operation on 2 threads over 1 thread (contention costs CPU
    // when the threads really run at once: same rounds).
    let cpu_2v1 = |one: usize, two: usize| -> Vec<f64> {
        valid
            .iter()
            .map(|&r| s[two][r].cpu / s[one][r].cpu)
            .collect()
    };
    if !valid.is_empty() {
        emit("threads.std_cpu_2v1", &cpu_2v1(0, 1));
        emit("threads.lib_cpu_2v1", &cpu_2v1(2, 3));
        emit("threads.tracked_cpu_2v1", &cpu_2v1(4, 5));
    }
}

pub(crate) fn storm(tree: &Tree) {
    note("storm.priority", &crate::measure::prefer_cpu());
    let target_root = uri(&tree.target_root());
    let other_root = uri(&tree.root(0));
    let file_uri = uri(&tree.target());
    let dirs = [tree.target_root(), tree.root(0)];
    let elsewhere = [tree.root(1), tree.root(2)];
    let roots = Roots::default();
    roots.replace(RootSet::from_uris([target_root.as_str()]));
    let tracked = || drop(roots.load().open(black_box(file_uri.as_str())).unwrap());
    let untracked = || {
        drop(
            roots
                .load()
                .set()
                .open(black_box(file_uri.as_str()))
                .unwrap(),
        )
    };
    let replaces = AtomicUsize::new(0);
    let storm_ns = AtomicUsize::new(0);
    // The reader's thread CPU per open while another thread replaces the
    // set as fast as it can (the reader's root stays in every set),
    // alternating a one-root and a two-root list.
    let with_storm = |n: usize, reader: &dyn Fn(), storm: Storm| -> Sample {
        let stop = AtomicBool::new(false);
        let count = AtomicUsize::new(0);
        let started = Instant::now();
        let sample = thread::scope(|s| {
            s.spawn(|| {
                let lists = [
                    vec![target_root.as_str()],
                    vec![target_root.as_str(), other_root.as_str()],
                ];
                let mut wide = false;
                while !stop.load(Ordering::Relaxed) {
                    let list = &lists[usize::from(wide)];
                    match storm {
                        Storm::ReplaceUris => drop(roots.replace_uris(list.iter().copied())),
                        Storm::BuildReplace => {
                            drop(roots.replace(RootSet::from_uris(list.iter().copied())))
                        }
                        Storm::BuildOnly => {
                            drop(black_box(RootSet::from_uris(list.iter().copied())))
                        }
                        Storm::StdOpen => {
                            for dir in &dirs[..list.len()] {
                                drop(black_box(File::open(dir).unwrap()));
                            }
                        }
                        Storm::StdStat => {
                            for dir in &dirs[..list.len()] {
                                black_box(std::fs::metadata(dir).unwrap());
                            }
                        }
                        Storm::StdStatElsewhere => {
                            for dir in &elsewhere[..list.len()] {
                                black_box(std::fs::metadata(dir).unwrap());
                            }
                        }
                        Storm::Spin => spin(),
                    }
                    wide = !wide;
                    count.fetch_add(1, Ordering::Relaxed);
                }
            });
            while count.load(Ordering::Relaxed) == 0 {
                thread::yield_now();
            }
            let sample = timed_thread(n, reader);
            stop.store(true, Ordering::Relaxed);
            sample
        });
        if storm == Storm::ReplaceUris {
            replaces.fetch_add(count.load(Ordering::Relaxed), Ordering::Relaxed);
            storm_ns.fetch_add(started.elapsed().as_nanos() as usize, Ordering::Relaxed);
        }
        sample
    };
    let mut variants: Vec<Variant> = Vec::new();
    for reader in [&tracked as &dyn Fn(), &untracked] {
        variants.push(Box::new(move |n| timed_thread(n, reader)));
        for storm in STORMS {
            variants.push(Box::new(move |n| with_storm(n, reader, storm)));
        }
    }
    let s = alternate(ROUNDS, BATCH_MS, &mut variants);
    drop(variants);
    let per_reader = STORMS.len() + 1;
    for (i, reader) in ["tracked", "untracked"].into_iter().enumerate() {
        let calm = &s[per_reader * i];
        let suffixes = [
            "",
            "_build_replace",
            "_build_only",
            "_std_open",
            "_std_stat",
            "_std_stat_elsewhere",
            "_spin",
        ];
        for (j, suffix) in suffixes.into_iter().enumerate() {
            let stormy = &s[per_reader * i + 1 + j];
            emit(
                &format!("storm.{reader}{suffix}"),
                &cpu_ratios(stormy, calm),
            );
        }
        // The library's storm over a thread that is merely busy, and over
        // one that opens and closes the same directories with std alone.
        let replacing = &s[per_reader * i + 1];
        let (opening, spinning) = (&s[per_reader * i + 4], &s[per_reader * i + per_reader - 1]);
        emit(
            &format!("storm.{reader}_over_spin"),
            &cpu_ratios(replacing, spinning),
        );
        emit(
            &format!("storm.{reader}_over_std_open"),
            &cpu_ratios(replacing, opening),
        );
    }
    let rate =
        replaces.load(Ordering::Relaxed) as f64 / (storm_ns.load(Ordering::Relaxed) as f64 / 1e9);
    emit("storm.replaces_per_s", &[rate]);
}

const STORMS: [Storm; 7] = [
    Storm::ReplaceUris,
    Storm::BuildReplace,
    Storm::BuildOnly,
    Storm::StdOpen,
    Storm::StdStat,
    Storm::StdStatElsewhere,
    Storm::Spin,
];

/// What the storm thread does in a loop.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Storm {
    /// `Roots::replace_uris` (root handles of the installed set reused).
    ReplaceUris,
    /// `RootSet::from_uris` then `Roots::replace` (every root opened).
    BuildReplace,
    /// `RootSet::from_uris` and drop: the control for what opening
    /// directories on another thread costs a reader.
    BuildOnly,
    /// `std::fs::File::open` and close of the same directories, no library:
    /// the floor of any thread doing file-system calls beside the reader.
    StdOpen,
    /// `std::fs::metadata` of the same directories: what re-checking that
    /// a root's path still names its directory costs, without the library.
    StdStat,
    /// `std::fs::metadata` of two other roots' directories: the same
    /// system calls on directories the reader does not use.
    StdStatElsewhere,
    /// Arithmetic on a few cache lines, no system call and no shared data:
    /// the floor of any busy thread beside the reader on this machine.
    Spin,
}

/// About a microsecond of work that touches nothing the reader uses.
fn spin() {
    let mut x = black_box(0x9E37_79B9_7F4A_7C15_u64);
    for _ in 0..1_000 {
        x = x.rotate_left(5) ^ x.wrapping_mul(0x2545_F491_4F6C_DD1D);
    }
    black_box(x);
}

/// Longer than the watcher's poll (50 ms): a batch of the watch scenario
/// ends with this much idle time inside its measurement, so that the
/// refresh the batch's opens and closes cause is charged to it.
const WATCH_TAIL: std::time::Duration = std::time::Duration::from_millis(70);
/// Wall time of one batch of the watch scenario: several watcher polls.
const WATCH_BATCH_MS: f64 = 200.0;

pub(crate) fn watch(tree: &Tree) {
    raise_nofile();
    let file = tree.target();
    let file_uri = uri(&file);
    let roots = Roots::default();
    roots.replace(RootSet::from_uris([uri(&tree.target_root())]));
    let op = || drop(roots.load().open(black_box(file_uri.as_str())).unwrap());
    let std_op = || {
        let f = File::open(black_box(&file)).unwrap();
        black_box(f.metadata().unwrap());
    };
    let hold = |count: usize| -> Vec<TrackedFile> {
        let snapshot = roots.load();
        (0..count)
            .map(|_| snapshot.open(file_uri.as_str()).unwrap())
            .collect()
    };
    // Both sides hold the same handles and end with the same idle tail;
    // the watcher (started before the clock, stopped after it) is the
    // only difference.
    let tailed = |n: usize, op: &dyn Fn()| -> Sample {
        let (c0, w0) = (process_cpu_ns(), Instant::now());
        for _ in 0..n {
            op();
        }
        std::thread::sleep(WATCH_TAIL);
        per_op(n, process_cpu_ns() - c0, w0.elapsed().as_nanos() as u64)
    };
    let off = |n: usize, held: usize| -> Sample {
        let _held = hold(held);
        tailed(n, &op)
    };
    let on = |n: usize, held: usize| -> Sample {
        let _held = hold(held);
        let guard = roots.watch(|_| {}).unwrap();
        let sample = tailed(n, &op);
        drop(guard);
        sample
    };
    let mut variants: Vec<Variant> = vec![
        Box::new(|n| off(n, 1)),
        Box::new(|n| on(n, 1)),
        Box::new(|n| off(n, 1000)),
        Box::new(|n| on(n, 1000)),
        Box::new(|n| off(n, 10_000)),
        Box::new(|n| on(n, 10_000)),
        Box::new(|n| {
            let _held = hold(1);
            tailed(n, &std_op)
        }),
    ];
    // Sized from the bare operations: the idle tail is not a cost of the
    // operations and would shrink the batches to a few of them.
    let n_tracked = batch_size(WATCH_BATCH_MS, &mut (Box::new(|n| timed(n, op)) as Variant));
    let n_std = batch_size(
        WATCH_BATCH_MS,
        &mut (Box::new(|n| timed(n, std_op)) as Variant),
    );
    let mut sizes = [n_tracked; 7];
    sizes[6] = n_std;
    let s = alternate_sized(ROUNDS, &sizes, &mut variants);
    drop(variants);
    emit("watch.on_vs_off_1", &cpu_ratios(&s[1], &s[0]));
    emit("watch.on_vs_off_1000", &cpu_ratios(&s[3], &s[2]));
    emit("watch.on_vs_off_10000", &cpu_ratios(&s[5], &s[4]));
    emit("watch.off_vs_std_fstat", &cpu_ratios(&s[0], &s[6]));
    emit("watch.on_vs_std_fstat", &cpu_ratios(&s[1], &s[6]));
    emit("watch.off_ns", &cpu(&s[0]));
    emit("watch.on_ns", &cpu(&s[1]));
    revocation(tree);
}

/// Runs per revocation row.
const REVOCATIONS: usize = 40;

/// Where a flood of creations and deletions runs during a revocation.
#[derive(Clone, Copy)]
enum FloodIn {
    Nowhere,
    /// The root itself.
    Root,
    /// The directory holding the tracked file (every deletion there is
    /// relevant, so rescans run all along).
    Holder,
}

/// How long from a move of a tracked file's directory out of its root to
/// the handle's revocation, with the watcher running (wall clock, in ms),
/// 1,000 other tracked handles held beside it, with or without a flood.
fn revocation(tree: &Tree) {
    let base = tree.work_dir("revocation");
    for (name, flood_in) in [
        ("none", FloodIn::Nowhere),
        ("root", FloodIn::Root),
        ("holder", FloodIn::Holder),
    ] {
        let mut latencies = Vec::with_capacity(REVOCATIONS);
        let mut rates = Vec::new();
        for rep in 0..REVOCATIONS {
            let top = base.join(format!("{name}-{rep}"));
            let (root, out) = (top.join("root"), top.join("out"));
            std::fs::create_dir_all(root.join("d")).unwrap();
            std::fs::create_dir_all(root.join("h")).unwrap();
            std::fs::create_dir_all(&out).unwrap();
            std::fs::write(root.join("d/f.txt"), "f").unwrap();
            std::fs::write(root.join("h/keep.txt"), "k").unwrap();
            let roots = Roots::default();
            roots.replace(RootSet::from_uris([uri(&root)]));
            let snapshot = roots.load();
            let file = snapshot
                .open(crate::tree::path_str(&root.join("d/f.txt")))
                .unwrap();
            let keep: Vec<TrackedFile> = (0..1000)
                .map(|_| {
                    snapshot
                        .open(crate::tree::path_str(&root.join("h/keep.txt")))
                        .unwrap()
                })
                .collect();
            drop(snapshot);
            let _guard = roots.watch(|_| {}).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(150));
            let flood = match flood_in {
                FloodIn::Nowhere => None,
                FloodIn::Root => Some(Flood::start(&root)),
                FloodIn::Holder => Some(Flood::start(&root.join("h"))),
            };
            // Meet the watcher's waits at different points.
            std::thread::sleep(std::time::Duration::from_micros(
                1_500 * rep as u64 % 60_000,
            ));
            let since = Instant::now();
            std::fs::rename(root.join("d"), out.join("d")).unwrap();
            while file.revoked().is_none() {
                assert!(since.elapsed().as_secs() < 10, "not revoked within 10 s");
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
            latencies.push(since.elapsed().as_secs_f64() * 1e3);
            if let Some(flood) = flood {
                rates.push(flood.finish());
            }
            drop(keep);
        }
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let mut sorted = latencies.clone();
        sorted.sort_by(f64::total_cmp);
        let p99 = sorted[((0.99 * sorted.len() as f64).ceil() as usize).max(1) - 1];
        emit(&format!("watch.revoke_{name}_ms"), &latencies);
        emit(&format!("watch.revoke_{name}_p99_ms"), &[p99]);
        if !rates.is_empty() {
            emit(&format!("watch.flood_{name}_per_s"), &rates);
        }
    }
}

/// Creations and deletions of eight names in one directory, paced at
/// 15,000 a second (as in conformance/tests/watch_flood.rs), on a thread of its own.
struct Flood {
    stop: std::sync::Arc<AtomicBool>,
    thread: thread::JoinHandle<f64>,
}

impl Flood {
    fn start(dir: &std::path::Path) -> Self {
        const RATE: f64 = 15_000.0;
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let names: Vec<_> = (0..8).map(|i| dir.join(format!("flood-{i}"))).collect();
        let flag = stop.clone();
        let thread = thread::spawn(move || {
            let started = Instant::now();
            let mut done = 0u64;
            while !flag.load(Ordering::Relaxed) {
                for name in &names {
                    done += u64::from(File::create(name).is_ok());
                    done += u64::from(std::fs::remove_file(name).is_ok());
                }
                let due = started + std::time::Duration::from_secs_f64(done as f64 / RATE);
                if let Some(ahead) = due.checked_duration_since(Instant::now()) {
                    thread::sleep(ahead);
                }
            }
            done as f64 / started.elapsed().as_secs_f64()
        });
        // Under way before the move.
        thread::sleep(std::time::Duration::from_millis(20));
        Self { stop, thread }
    }

    /// Stops it: its rate, creations plus deletions per second.
    fn finish(self) -> f64 {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap()
    }
}
