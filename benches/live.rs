//! Live roots: a tracked open (`Roots::load().open`) against the untracked
//! one and `File::open`, and `replace` with 1,000 tracked handles of which
//! none or all are affected. `examples/compare` measures the same things as
//! ratios of process CPU time (docs/PERFORMANCE.md); these benches are for
//! quick before/after comparisons of one change.

use std::fs::{self, File};
use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use mcp_roots::{RootSet, Roots, TrackedFile};

mod common;
use common::{deep_tree, uri_of};

const HANDLES: usize = 1_000;

/// Windows has no descriptor limit to raise.
#[cfg(not(unix))]
fn raise_nofile() {}

/// Soft descriptor limit up to the hard one (1,000 handles and more).
#[cfg(unix)]
fn raise_nofile() {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    let _ = setrlimit(
        Resource::Nofile,
        Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        },
    );
}

fn bench_tracked_open(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    let top = fs::canonicalize(tmp.path()).unwrap();
    let (root, file) = deep_tree(&top, "root");
    let root_uri = uri_of(&root);
    let file_uri = uri_of(&file);
    let set = RootSet::from_uris([root_uri.as_str()]);
    let roots = Roots::default();
    roots.replace(RootSet::from_uris([root_uri.as_str()]));
    roots.load().open(file_uri.as_str()).unwrap();

    let mut group = c.benchmark_group("tracked_open_depth_10");
    group.bench_function("std_file_open", |b| {
        b.iter(|| File::open(black_box(&file)).unwrap())
    });
    group.bench_function("rootset_open_uri", |b| {
        b.iter(|| set.open(black_box(file_uri.as_str())).unwrap())
    });
    group.bench_function("snapshot_open_uri_tracked", |b| {
        b.iter(|| roots.load().open(black_box(file_uri.as_str())).unwrap())
    });
    group.finish();
}

fn bench_replace(c: &mut Criterion) {
    raise_nofile();
    let tmp = tempfile::tempdir().unwrap();
    let top = fs::canonicalize(tmp.path()).unwrap();
    let (kept_root, kept_file) = deep_tree(&top, "kept");
    let (other_root, _) = deep_tree(&top, "other");
    let kept_uri = uri_of(&kept_root);
    let other_uri = uri_of(&other_root);
    let file_uri = uri_of(&kept_file);
    let roots = Roots::default();
    let open_all = |roots: &Roots| -> Vec<TrackedFile> {
        roots.replace(RootSet::from_uris([kept_uri.as_str()]));
        let snapshot = roots.load();
        (0..HANDLES)
            .map(|_| snapshot.open(file_uri.as_str()).unwrap())
            .collect()
    };

    let mut group = c.benchmark_group("replace_1000_tracked");
    group.sample_size(20);
    // The set is built in the setup: only `replace` is timed.
    group.bench_function("none_affected", |b| {
        let _handles = open_all(&roots);
        b.iter_batched(
            || RootSet::from_uris([kept_uri.as_str(), other_uri.as_str()]),
            |set| roots.replace(set),
            BatchSize::PerIteration,
        )
    });
    group.bench_function("all_affected_revoked", |b| {
        b.iter_batched(
            || (open_all(&roots), RootSet::from_uris([other_uri.as_str()])),
            |(handles, set)| (roots.replace(set), handles),
            BatchSize::PerIteration,
        )
    });
    group.bench_function("full_rescan_all_kept", |b| {
        let _handles = open_all(&roots);
        b.iter(|| roots.rescan())
    });
    group.finish();
}

criterion_group!(benches, bench_tracked_open, bench_replace);
criterion_main!(benches);
