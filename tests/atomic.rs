//! `write_atomic` never shows a partial file to a concurrent reader.

#![cfg(target_os = "linux")]

use std::sync::atomic::{AtomicBool, Ordering};

use mcp_roots::RootSet;

#[test]
fn readers_see_old_or_new_content_never_a_mix() {
    const SIZE: usize = 256 * 1024;
    const WRITES: usize = 300;
    let tmp = tempfile::tempdir().expect("tempdir");
    let path = tmp.path().join("note.md");
    let (a, b) = (vec![b'a'; SIZE], vec![b'b'; SIZE + 4096]);
    std::fs::write(&path, &a).expect("seed");
    let set = RootSet::from_uris([tmp.path().to_str().expect("utf-8")]);
    let input = path.to_str().expect("utf-8");
    let done = AtomicBool::new(false);
    let (reads, torn) = std::thread::scope(|scope| {
        let reader = scope.spawn(|| {
            let (mut reads, mut torn) = (0usize, 0usize);
            while !done.load(Ordering::Relaxed) {
                let content = std::fs::read(&path).expect("the name always exists");
                reads += 1;
                if content != a && content != b {
                    torn += 1;
                }
            }
            (reads, torn)
        });
        for i in 0..WRITES {
            set.write_atomic(input, if i % 2 == 0 { &b } else { &a })
                .expect("write_atomic");
        }
        done.store(true, Ordering::Relaxed);
        reader.join().expect("reader")
    });
    eprintln!("{WRITES} atomic writes, {reads} concurrent reads, {torn} torn");
    assert!(reads > 0, "the reader ran");
    assert_eq!(torn, 0);
}
