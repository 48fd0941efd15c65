//! Children `open` and `lookup`: one checked open against the floor
//! (`File::open` of the absolute path) and the naive check-then-open, and
//! root lookup with 1, 100 and 10,000 roots.

use std::fs::{self, File};
use std::hint::black_box;
use std::path::Path;

use mcp_roots::{RootSet, Roots};

use crate::measure::{Variant, alternate, cpu, cpu_ratios, emit, note, raise_nofile, timed};
use crate::tree::{ROOTS, Tree, path_str, uri};
use crate::{BATCH_MS, ROUNDS};

/// What servers do today: canonicalize, compare by components, open.
pub(crate) fn naive_open(path: &Path, root_canonical: &Path) -> File {
    let canonical = fs::canonicalize(path).unwrap();
    assert!(canonical.starts_with(root_canonical));
    File::open(&canonical).unwrap()
}

pub(crate) fn open(tree: &Tree) {
    let root = tree.target_root();
    let file = tree.target();
    let set = RootSet::from_uris([uri(&root)]);
    assert!(set.rejected().is_empty(), "{:?}", set.rejected());
    let roots = Roots::default();
    roots.replace(RootSet::from_uris([uri(&root)]));
    let file_uri = uri(&file);
    let file_path = path_str(&file).to_owned();
    let root_canonical = fs::canonicalize(&root).unwrap();

    let mut variants: Vec<Variant> = vec![
        Box::new(|n| timed(n, || drop(File::open(black_box(&file)).unwrap()))),
        Box::new(|n| timed(n, || drop(naive_open(black_box(&file), &root_canonical)))),
        Box::new(|n| timed(n, || drop(set.open(black_box(file_uri.as_str())).unwrap()))),
        Box::new(|n| timed(n, || drop(set.open(black_box(file_path.as_str())).unwrap()))),
        Box::new(|n| {
            timed(n, || {
                drop(roots.load().open(black_box(file_uri.as_str())).unwrap())
            })
        }),
        Box::new(|n| {
            timed(n, || {
                drop(roots.load().open(black_box(file_path.as_str())).unwrap())
            })
        }),
        // The floor plus the type check the library must make (one fstat).
        Box::new(|n| {
            timed(n, || {
                let f = File::open(black_box(&file)).unwrap();
                black_box(rustix::fs::fstat(&f).unwrap());
            })
        }),
    ];
    let s = alternate(ROUNDS, BATCH_MS, &mut variants);
    let [std, naive, uri_, path, t_uri, t_path, std_fstat] = &s[..] else {
        unreachable!()
    };
    emit("open.std_ns", &cpu(std));
    emit("open.naive_ns", &cpu(naive));
    emit("open.uri_ns", &cpu(uri_));
    emit("open.uri_vs_std", &cpu_ratios(uri_, std));
    emit("open.path_vs_std", &cpu_ratios(path, std));
    emit("open.uri_vs_naive", &cpu_ratios(uri_, naive));
    emit("open.path_vs_naive", &cpu_ratios(path, naive));
    emit("open.tracked_uri_vs_std", &cpu_ratios(t_uri, std));
    emit("open.tracked_path_vs_std", &cpu_ratios(t_path, std));
    emit("open.naive_vs_std", &cpu_ratios(naive, std));
    emit("open.std_fstat_vs_std", &cpu_ratios(std_fstat, std));
    emit("open.uri_vs_std_fstat", &cpu_ratios(uri_, std_fstat));
    emit("open.path_vs_std_fstat", &cpu_ratios(path, std_fstat));
}

pub(crate) fn lookup(tree: &Tree) {
    // A set beyond the descriptor limit fails with an error naming it.
    set_soft_limit_demo(tree);
    let (soft, hard) = raise_nofile();
    note(
        "lookup.nofile",
        &format!("soft RLIMIT_NOFILE raised to {soft:?} (hard {hard:?})"),
    );
    let uris: Vec<String> = (0..ROOTS).map(|i| uri(&tree.root(i))).collect();
    let set1 = RootSet::from_uris(uris[ROOTS - 1..].iter().cloned());
    let set100 = RootSet::from_uris(uris[ROOTS - 100..].iter().cloned());
    let roots = Roots::default();
    let report = roots.replace(RootSet::from_uris(uris.iter().cloned()));
    drop(report);
    let snapshot = roots.load();
    let set10k = snapshot.set();
    for (name, set, want) in [
        ("1", &set1, 1),
        ("100", &set100, 100),
        ("10000", set10k, ROOTS),
    ] {
        if set.len() != want {
            let why = set
                .rejected()
                .first()
                .map(|r| r.error().to_string())
                .unwrap_or_default();
            note(
                "lookup.rejected",
                &format!("{name}-root set accepted {} roots: {why}", set.len()),
            );
        }
    }
    let file = tree.target();
    let file_uri = uri(&file);
    let file_path = path_str(&file).to_owned();
    let mut variants: Vec<Variant> = vec![
        Box::new(|n| timed(n, || drop(File::open(black_box(&file)).unwrap()))),
        Box::new(|n| timed(n, || drop(set1.open(black_box(file_uri.as_str())).unwrap()))),
        Box::new(|n| {
            timed(n, || {
                drop(set100.open(black_box(file_uri.as_str())).unwrap())
            })
        }),
        Box::new(|n| {
            timed(n, || {
                drop(set10k.open(black_box(file_uri.as_str())).unwrap())
            })
        }),
        Box::new(|n| {
            timed(n, || {
                drop(set1.open(black_box(file_path.as_str())).unwrap())
            })
        }),
        Box::new(|n| {
            timed(n, || {
                drop(set10k.open(black_box(file_path.as_str())).unwrap())
            })
        }),
        Box::new(|n| {
            timed(n, || {
                drop(roots.load().open(black_box(file_uri.as_str())).unwrap())
            })
        }),
    ];
    let s = alternate(ROUNDS, BATCH_MS, &mut variants);
    let [std, r1, r100, r10k, p1, p10k, t10k] = &s[..] else {
        unreachable!()
    };
    emit("lookup.r100_vs_r1", &cpu_ratios(r100, r1));
    emit("lookup.r10k_vs_r1", &cpu_ratios(r10k, r1));
    emit("lookup.path_r10k_vs_r1", &cpu_ratios(p10k, p1));
    emit("lookup.r1_vs_std", &cpu_ratios(r1, std));
    emit("lookup.r100_vs_std", &cpu_ratios(r100, std));
    emit("lookup.r10k_vs_std", &cpu_ratios(r10k, std));
    emit("lookup.tracked_r10k_vs_std", &cpu_ratios(t10k, std));
}

/// With the soft limit at 1,024, a 10,000-root set keeps what fits and
/// rejects the rest with an error that names the limit.
fn set_soft_limit_demo(tree: &Tree) {
    crate::measure::set_soft_nofile(1024);
    let uris: Vec<String> = (0..ROOTS).map(|i| uri(&tree.root(i))).collect();
    let set = RootSet::from_uris(uris);
    let first = set
        .rejected()
        .first()
        .map(|r| (r.reason(), r.error().to_string()));
    let text = match first {
        Some((reason, message)) => format!(
            "soft limit 1024: {} roots accepted, {} rejected ({reason}: {message})",
            set.len(),
            set.rejected().len()
        ),
        None => format!("soft limit 1024: all {} roots accepted", set.len()),
    };
    note("lookup.limit_demo", &text);
}

/// `--profile VARIANT N`: N operations of one variant in this process
/// (`parts_uri` and `parts_path`: the open of `uri` and `path` in a set with
/// the twenty patterns of the `parts` scenario), for
/// `perf record`, `strace -c` or `valgrind --tool=callgrind` (with
/// `COMPARE_CALLGRIND=1`, which skips the CPU clock: rustix's vDSO lookup
/// faults under valgrind).
pub(crate) fn profile(tree: &Tree, variant: &str, n: usize) {
    let root = tree.target_root();
    let file = tree.target();
    let set = RootSet::from_uris([uri(&root)]);
    let (hide, read_only) = crate::parts::twenty();
    let patterned = RootSet::builder()
        .root(uri(&root))
        .hide(hide)
        .read_only(read_only)
        .build();
    let roots = Roots::default();
    roots.replace(RootSet::from_uris([uri(&root)]));
    let file_uri = uri(&file);
    let file_path = path_str(&file).to_owned();
    let root_canonical = fs::canonicalize(&root).unwrap();
    let _held = roots.load().open(file_uri.as_str()).unwrap();
    let _guard = (variant == "tracked_watch").then(|| roots.watch(|_| {}).unwrap());
    let op: Box<dyn Fn()> = match variant {
        "std" => Box::new(|| drop(File::open(black_box(&file)).unwrap())),
        "naive" => Box::new(|| drop(naive_open(black_box(&file), &root_canonical))),
        "uri" => Box::new(|| drop(set.open(black_box(file_uri.as_str())).unwrap())),
        "path" => Box::new(|| drop(set.open(black_box(file_path.as_str())).unwrap())),
        "parts_uri" => Box::new(|| drop(patterned.open(black_box(file_uri.as_str())).unwrap())),
        "parts_path" => Box::new(|| drop(patterned.open(black_box(file_path.as_str())).unwrap())),
        "tracked_uri" | "tracked_watch" => {
            Box::new(|| drop(roots.load().open(black_box(file_uri.as_str())).unwrap()))
        }
        "tracked_path" => {
            Box::new(|| drop(roots.load().open(black_box(file_path.as_str())).unwrap()))
        }
        "parse_uri" => Box::new(|| {
            drop(black_box(
                mcp_roots::parse_input(black_box(file_uri.as_str())).unwrap(),
            ))
        }),
        other => {
            panic!(
                "unknown variant {other}: std naive uri path parts_uri parts_path tracked_uri tracked_path tracked_watch parse_uri"
            )
        }
    };
    if std::env::var_os("COMPARE_CALLGRIND").is_some() {
        // Under valgrind: no clock (rustix's vDSO lookup faults there), only
        // the operations, for instruction counts.
        (0..n).for_each(|_| op());
        eprintln!("{variant}: {n} ops");
        return;
    }
    let sample = timed(n, op);
    eprintln!("{variant}: {n} ops, {:.0} ns CPU per op", sample.cpu);
}
