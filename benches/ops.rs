//! `create_new`, `read_dir` and `write_atomic` against their `std::fs`
//! counterparts (`examples/compare` reports the same as CPU-time ratios).

use std::fs::{self, File, OpenOptions};
use std::hint::black_box;
use std::io::Write;
use std::path::Path;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use mcp_roots::RootSet;

mod common;
use common::uri_of;

const ENTRIES: usize = 32;

fn bench_ops(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(tmp.path()).unwrap();
    let set = RootSet::from_uris([uri_of(&root)]);
    let list = root.join("list");
    fs::create_dir(&list).unwrap();
    for i in 0..ENTRIES {
        fs::write(list.join(format!("entry-{i:02}.txt")), "x").unwrap();
    }
    let list_uri = uri_of(&list);
    let work = root.join("work");
    fs::create_dir(&work).unwrap();
    let data = vec![b'x'; 4096];

    let mut group = c.benchmark_group("file_ops");
    // Fresh names, removed only after the bench: on ext4, creating right
    // after an unlink pays for skipping recently deleted inodes, which would
    // bill one variant for the other's deletions.
    let mut n = 0u64;
    let mut fresh = |dir: &Path| {
        n += 1;
        dir.join(format!("f{n}"))
    };
    let std_dir = work.join("std");
    fs::create_dir(&std_dir).unwrap();
    group.bench_function("std_create_new", |b| {
        b.iter_batched(
            || fresh(&std_dir),
            |path| {
                OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&path)
                    .unwrap()
            },
            BatchSize::SmallInput,
        )
    });
    let lib_dir = work.join("lib");
    fs::create_dir(&lib_dir).unwrap();
    group.bench_function("rootset_create_new", |b| {
        b.iter_batched(
            || uri_of(&fresh(&lib_dir)),
            |uri| set.create_new(uri.as_str()).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("std_read_dir_32", |b| {
        b.iter(|| {
            for entry in fs::read_dir(black_box(&list)).unwrap() {
                let entry = entry.unwrap();
                black_box((entry.file_name(), entry.file_type().unwrap()));
            }
        })
    });
    group.bench_function("rootset_read_dir_32", |b| {
        b.iter(|| {
            for entry in set.read_dir(black_box(list_uri.as_str())).unwrap() {
                let entry = entry.unwrap();
                black_box((entry.name().to_owned(), entry.file_type()));
            }
        })
    });
    group.finish();

    // fsync-bound: fewer samples.
    let mut group = c.benchmark_group("write_atomic_4k");
    group.sample_size(10);
    let target = work.join("atomic.txt");
    let target_uri = uri_of(&target);
    fs::write(&target, &data).unwrap();
    group.bench_function("std_temp_fsync_rename", |b| {
        b.iter(|| {
            let temp = work.join(".atomic.txt.tmp");
            let mut file = File::create(&temp).unwrap();
            file.write_all(&data).unwrap();
            file.sync_all().unwrap();
            fs::rename(&temp, &target).unwrap();
            File::open(&work).unwrap().sync_all().unwrap();
        })
    });
    group.bench_function("rootset_write_atomic", |b| {
        b.iter(|| set.write_atomic(target_uri.as_str(), &data).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench_ops);
criterion_main!(benches);
