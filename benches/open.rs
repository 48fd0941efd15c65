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

criterion_group!(benches, bench_open);
criterion_main!(benches);
