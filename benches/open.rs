//! The cost of one checked open against the floor (`File::open` of the
//! absolute path) and against the naive check-then-open it replaces.
//!
//! The target is ten directories deep under its root
//! (`root/d1/…/d10/f.txt`); the `100_roots` variant puts it in the last of
//! 100 sibling roots, to show that root lookup does not grow with the
//! number of roots.

use std::fs::{self, File};
use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_roots::RootSet;

mod common;
use common::{deep_tree, uri_of};

const MANY_ROOTS: usize = 100;

fn naive_open(path: &Path, root_canonical: &Path) -> File {
    let canonical = fs::canonicalize(path).unwrap();
    assert!(canonical.starts_with(root_canonical));
    File::open(path).unwrap()
}

fn bench_open(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    let top = fs::canonicalize(tmp.path()).unwrap();

    let (root, file) = deep_tree(&top, "root");
    let set = RootSet::from_uris([uri_of(&root)]);
    assert!(set.rejected().is_empty(), "{:?}", set.rejected());
    let file_uri = uri_of(&file);
    let file_path = file.to_str().unwrap().to_owned();
    let root_canonical = fs::canonicalize(&root).unwrap();

    let many = top.join("many");
    let mut many_uris = Vec::with_capacity(MANY_ROOTS);
    let mut last_file = PathBuf::new();
    for i in 0..MANY_ROOTS {
        let (root, file) = deep_tree(&many, &format!("root{i:03}"));
        many_uris.push(uri_of(&root));
        last_file = file;
    }
    let many_set = RootSet::from_uris(many_uris);
    assert_eq!(many_set.len(), MANY_ROOTS, "{:?}", many_set.rejected());
    let last_uri = uri_of(&last_file);

    // Every variant must open the same kind of thing successfully.
    set.open(file_uri.as_str()).unwrap();
    set.open(file_path.as_str()).unwrap();
    many_set.open(last_uri.as_str()).unwrap();

    let mut group = c.benchmark_group("open_depth_10");
    group.bench_function("rootset_open_uri", |b| {
        b.iter(|| set.open(black_box(file_uri.as_str())).unwrap())
    });
    group.bench_function("rootset_open_path", |b| {
        b.iter(|| set.open(black_box(file_path.as_str())).unwrap())
    });
    group.bench_function("std_file_open", |b| {
        b.iter(|| File::open(black_box(&file)).unwrap())
    });
    group.bench_function("naive_canonicalize_starts_with_open", |b| {
        b.iter(|| naive_open(black_box(&file), &root_canonical))
    });
    group.bench_function("rootset_open_uri_100_roots_last", |b| {
        b.iter(|| many_set.open(black_box(last_uri.as_str())).unwrap())
    });
    group.finish();
}

/// Opens that leave their root and land in another root of the set (or
/// back in their own), beside the same file opened directly: the cost of
/// the walk across roots, which runs only after the kernel refused.
fn bench_across(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    let top = fs::canonicalize(tmp.path()).unwrap();
    let (root, file) = deep_tree(&top, "a");
    let other = top.join("b");
    fs::create_dir(&other).unwrap();
    // b/abs -> the target's directory in a (an absolute link).
    std::os::unix::fs::symlink(file.parent().unwrap(), other.join("abs")).unwrap();
    let set = RootSet::from_uris([uri_of(&root), uri_of(&other)]);
    assert_eq!(set.len(), 2, "{:?}", set.rejected());
    let direct = file.to_str().unwrap().to_owned();
    let via_link = format!("{}/abs/f.txt", other.display());
    let rel_below_a = file.strip_prefix(&root).unwrap().display().to_string();
    let via_dotdot = format!("{}/../a/{rel_below_a}", other.display());
    for input in [&direct, &via_link, &via_dotdot] {
        set.open(input.as_str()).unwrap();
    }

    let mut group = c.benchmark_group("open_across_roots");
    group.bench_function("direct_depth_10", |b| {
        b.iter(|| set.open(black_box(direct.as_str())).unwrap())
    });
    group.bench_function("absolute_link_into_other_root", |b| {
        b.iter(|| set.open(black_box(via_link.as_str())).unwrap())
    });
    group.bench_function("dotdot_into_other_root", |b| {
        b.iter(|| set.open(black_box(via_dotdot.as_str())).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench_open, bench_across);
criterion_main!(benches);
