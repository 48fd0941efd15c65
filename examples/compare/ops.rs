//! Child `ops`: `create_new`, `read_dir` and `write_atomic` against their
//! plain `std::fs` counterparts.

use std::cell::Cell;
use std::fs::{self, File, OpenOptions};
use std::hint::black_box;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use mcp_roots::RootSet;

use crate::measure::{Variant, alternate, cpu_ratios, emit, timed};
use crate::tree::{Tree, uri};
use crate::{BATCH_MS, ROUNDS};

/// Removes every file in `dir` (between batches, untimed).
fn empty(dir: &Path) {
    for entry in fs::read_dir(dir).unwrap() {
        fs::remove_file(entry.unwrap().path()).unwrap();
    }
}

/// The plain-std way to replace a file atomically and durably: a temporary
/// file beside it, written and synced, renamed over it, the directory synced.
fn std_write_atomic(dir: &Path, name: &str, data: &[u8]) -> io::Result<()> {
    let temp = dir.join(format!(".{name}.tmp"));
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)?;
    file.write_all(data)?;
    file.sync_all()?;
    drop(file);
    fs::rename(&temp, dir.join(name))?;
    File::open(dir)?.sync_all()
}

pub(crate) fn ops(tree: &Tree) {
    let set = RootSet::from_uris([uri(&tree.target_root())]);
    assert!(set.rejected().is_empty(), "{:?}", set.rejected());
    create_new(tree, &set);
    read_dir(tree, &set);
    write_atomic(tree, &set);
}

fn create_new(tree: &Tree, set: &RootSet) {
    let work = tree.work_dir("create");
    let batch = Cell::new(0usize);
    // Names are made before the clock starts and removed after it stops.
    let names = |n: usize, prefix: &str| -> Vec<PathBuf> {
        batch.set(batch.get() + 1);
        (0..n)
            .map(|i| work.join(format!("{prefix}{}-{i}", batch.get())))
            .collect()
    };
    let mut variants: Vec<Variant> = vec![
        Box::new(|n| {
            let paths = names(n, "s");
            let mut it = paths.iter();
            let s = timed(n, || {
                let path = it.next().unwrap();
                drop(
                    OpenOptions::new()
                        .write(true)
                        .create_new(true)
                        .open(black_box(path))
                        .unwrap(),
                )
            });
            empty(&work);
            s
        }),
        Box::new(|n| {
            let uris: Vec<String> = names(n, "l").iter().map(|p| uri(p)).collect();
            let mut it = uris.iter();
            let s = timed(n, || {
                let target = it.next().unwrap();
                drop(set.create_new(black_box(target.as_str())).unwrap())
            });
            empty(&work);
            s
        }),
    ];
    let s = alternate(ROUNDS, BATCH_MS, &mut variants);
    emit("ops.create_new_vs_std", &cpu_ratios(&s[1], &s[0]));
}

fn read_dir(tree: &Tree, set: &RootSet) {
    let list = tree.list_dir();
    let list_uri = uri(&list);
    let mut variants: Vec<Variant> = vec![
        Box::new(|n| {
            timed(n, || {
                for entry in fs::read_dir(black_box(&list)).unwrap() {
                    let entry = entry.unwrap();
                    black_box(entry.file_name());
                    black_box(entry.file_type().unwrap());
                }
            })
        }),
        Box::new(|n| {
            timed(n, || {
                for entry in set.read_dir(black_box(list_uri.as_str())).unwrap() {
                    let entry = entry.unwrap();
                    black_box(entry.name());
                    black_box(entry.file_type());
                }
            })
        }),
    ];
    let s = alternate(ROUNDS, BATCH_MS, &mut variants);
    emit("ops.read_dir_vs_std", &cpu_ratios(&s[1], &s[0]));
}

fn write_atomic(tree: &Tree, set: &RootSet) {
    let work = tree.work_dir("atomic");
    let data = vec![b'x'; 4096];
    let plain = work.join("plain.txt");
    let std_name = "std.txt";
    let lib_uri = uri(&work.join("lib.txt"));
    fs::write(&plain, &data).unwrap();
    fs::write(work.join(std_name), &data).unwrap();
    fs::write(work.join("lib.txt"), &data).unwrap();
    let mut variants: Vec<Variant> = vec![
        Box::new(|n| timed(n, || std_write_atomic(&work, std_name, &data).unwrap())),
        Box::new(|n| timed(n, || set.write_atomic(lib_uri.as_str(), &data).unwrap())),
        Box::new(|n| timed(n, || fs::write(&plain, &data).unwrap())),
    ];
    // fsync-bound: fewer, longer batches.
    let s = alternate(ROUNDS.min(11), BATCH_MS * 2.0, &mut variants);
    let wall = |a: &[crate::measure::Sample], b: &[crate::measure::Sample]| -> Vec<f64> {
        a.iter().zip(b).map(|(a, b)| a.wall / b.wall).collect()
    };
    emit("ops.write_atomic_vs_std_atomic", &cpu_ratios(&s[1], &s[0]));
    emit("ops.write_atomic_vs_std_atomic_wall", &wall(&s[1], &s[0]));
    emit("ops.write_atomic_vs_fs_write", &cpu_ratios(&s[1], &s[2]));
    emit(
        "ops.write_atomic_wall_us",
        &s[1].iter().map(|s| s.wall / 1e3).collect::<Vec<_>>(),
    );
}
