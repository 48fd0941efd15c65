//! A set with more roots than the descriptor limit allows is refused with an
//! error naming the limit, never a later `EMFILE`. Its own test binary: it
//! lowers the process's soft `RLIMIT_NOFILE`.

#![cfg(target_os = "linux")]

use mcp_roots::{RESERVED_DESCRIPTORS, RootSet};
use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};

#[test]
fn roots_beyond_the_descriptor_budget_are_rejected_with_the_limit_named() {
    let hard = getrlimit(Resource::Nofile).maximum;
    setrlimit(
        Resource::Nofile,
        Rlimit {
            current: Some(256),
            maximum: hard,
        },
    )
    .expect("setrlimit");
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::write(tmp.path().join("x.txt"), "x").expect("write");
    let dir = tmp.path().to_str().expect("utf-8").to_owned();
    let set = RootSet::from_uris(std::iter::repeat_n(dir.clone(), 400));

    assert!(set.len() < 256 - RESERVED_DESCRIPTORS as usize);
    assert_eq!(set.len() + set.rejected().len(), 400);
    let rejected = &set.rejected()[0];
    assert_eq!(rejected.reason(), "io");
    let source = std::error::Error::source(rejected.error())
        .expect("source")
        .to_string();
    assert!(source.contains("RLIMIT_NOFILE of 256"), "{source}");
    // The reserve is left: the server can still open files.
    let files: Vec<_> = (0..32)
        .map(|_| set.open(&format!("{dir}/x.txt")).expect("open"))
        .collect();
    assert_eq!(files.len(), 32);
}
