//! Child `confine`: what the second wall costs. Landlock judges every
//! non-`O_PATH` open against the path's ancestors, so an open costs more
//! when the process is confined, and more the deeper the file lies below
//! the ceiling directory. Landlock confines the calling thread (and the
//! threads it starts), so this child confines one thread of its own and
//! keeps its main thread free: the two alternate batches of the same opens
//! (`File::open` and `RootSet::open` of a file in the ceiling directory
//! and of one 10 directories below it), each timed on its own thread's
//! CPU clock.

use std::fs::File;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::mpsc;

use mcp_roots::{Confinement, RootSet, Roots, confine_process};

use crate::measure::{Sample, Variant, alternate, cpu, cpu_ratios, emit, note, timed_thread};
use crate::tree::{Tree, path_str, uri};
use crate::{BATCH_MS, ROUNDS};

/// The four opens, by index: `File::open` at depth 1 and 10, then
/// `RootSet::open(path)` at depth 1 and 10.
fn run(which: usize, n: usize, files: &[PathBuf; 2], set: &RootSet) -> Sample {
    let file = &files[which % 2];
    if which < 2 {
        timed_thread(n, || drop(File::open(black_box(file)).unwrap()))
    } else {
        let path = path_str(file);
        timed_thread(n, || drop(set.open(black_box(path)).unwrap()))
    }
}

pub(crate) fn confine(tree: &Tree) {
    let root = tree.target_root();
    let shallow = root.join("shallow.txt");
    std::fs::write(&shallow, "hello\n").unwrap();
    let files = [shallow, tree.target()];
    let set = RootSet::from_uris([uri(&root)]);

    // The confined thread serves batch requests until the channel closes.
    let (ask, asked) = mpsc::channel::<(usize, usize)>();
    let (answer, answered) = mpsc::channel::<Sample>();
    let (worker_files, worker_root) = (files.clone(), root.clone());
    let worker = std::thread::spawn(move || {
        let set = RootSet::from_uris([uri(&worker_root)]);
        let policy = Roots::builder().ceiling([path_str(&worker_root)]).build();
        // Best effort: this process has two threads, and only this one is
        // meant to be confined.
        let report = confine_process(&policy, Confinement::BestEffort).unwrap();
        let outside = File::open("/etc/passwd").map(drop);
        let _ = answer.send(Sample::default());
        eprintln!("compare: confined thread: {report}; /etc/passwd: {outside:?}");
        for (which, n) in asked {
            if answer.send(run(which, n, &worker_files, &set)).is_err() {
                break;
            }
        }
        report.enforcement()
    });
    answered.recv().expect("the confined thread started");
    let confined = |which: usize| {
        let (ask, answered) = (&ask, &answered);
        Box::new(move |n: usize| {
            ask.send((which, n)).unwrap();
            answered.recv().unwrap()
        }) as Variant<'_>
    };
    let free = |which: usize| {
        let (files, set) = (&files, &set);
        Box::new(move |n: usize| run(which, n, files, set)) as Variant<'_>
    };
    let mut variants: Vec<Variant> = (0..4).map(free).chain((0..4).map(confined)).collect();
    let s = alternate(ROUNDS, BATCH_MS, &mut variants);
    drop(variants);
    drop(ask);
    let enforcement = worker.join().unwrap();
    note(
        "confine.enforcement",
        &format!("{enforcement:?} (the confined thread)"),
    );
    let [std1, std10, lib1, lib10, c_std1, c_std10, c_lib1, c_lib10] = &s[..] else {
        unreachable!()
    };
    emit("confine.std_d1", &cpu_ratios(c_std1, std1));
    emit("confine.std_d10", &cpu_ratios(c_std10, std10));
    emit("confine.lib_d1", &cpu_ratios(c_lib1, lib1));
    emit("confine.lib_d10", &cpu_ratios(c_lib10, lib10));
    emit("confine.std_d10_free_ns", &cpu(std10));
    emit("confine.std_d10_confined_ns", &cpu(c_std10));
    emit("confine.lib_d10_free_ns", &cpu(lib10));
    emit("confine.lib_d10_confined_ns", &cpu(c_lib10));
}
