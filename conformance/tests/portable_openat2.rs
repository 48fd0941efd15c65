//! Which resolution path this process takes, proved rather than assumed:
//! under the `no-openat2` launcher (it sets `MCP_ROOTS_NO_OPENAT2`)
//! `openat2` must answer `ENOSYS` and the library must still open, refuse
//! and harden through its portable resolution; run directly on a kernel
//! with `openat2`, the call must work.

#![cfg(target_os = "linux")]

mod common;
mod portable_support;

use std::io::Read;
use std::os::unix::fs::symlink;

use mcp_roots::{ErrorKind, MountPoints, RootSet, Symlinks};
use portable_support::{openat2_available, under_launcher};

#[test]
fn the_launcher_removes_openat2() {
    if !under_launcher() {
        eprintln!(
            "not under the no-openat2 launcher: openat2 is {}",
            if openat2_available() {
                "available"
            } else {
                "missing"
            }
        );
        return;
    }
    let flags = rustix::fs::OFlags::PATH | rustix::fs::OFlags::CLOEXEC;
    let answer = rustix::fs::openat2(
        rustix::fs::CWD,
        ".",
        flags,
        rustix::fs::Mode::empty(),
        rustix::fs::ResolveFlags::BENEATH,
    );
    assert_eq!(answer.err(), Some(rustix::io::Errno::NOSYS));
    // Other opens are untouched.
    std::fs::File::open("/proc/self/status").expect("open(2) still works");
}

#[test]
fn the_library_works_on_the_path_this_process_has() {
    let tree = common::TempTree::build(&["root/sub", "outside"], &[("root/x.txt", "inside")]);
    symlink("../outside", tree.p("root/out")).expect("symlink");
    symlink("x.txt", tree.p("root/in")).expect("symlink");
    let set = RootSet::from_uris([tree.p("root")]);
    let mut content = String::new();
    set.open(&tree.p("root/in"))
        .expect("a link that stays inside")
        .read_to_string(&mut content)
        .expect("read");
    assert_eq!(content, "inside");
    let kind = |r: Result<std::fs::File, mcp_roots::Error>| r.expect_err("refused").kind();
    assert_eq!(
        kind(set.open(&tree.p("root/out/x"))),
        ErrorKind::OutsideRoots
    );
    assert_eq!(
        kind(set.open(&tree.p("root/sub/../../x"))),
        ErrorKind::OutsideRoots
    );
    let strict = RootSet::builder()
        .root(tree.p("root"))
        .symlinks(Symlinks::Refuse)
        .mount_points(MountPoints::Refuse)
        .build();
    assert_eq!(
        kind(strict.open(&tree.p("root/in"))),
        ErrorKind::SymlinkLoop
    );
    strict
        .open(&tree.p("root/x.txt"))
        .expect("no link, no mount");
    if under_launcher() {
        assert!(!openat2_available(), "the launcher's filter is in force");
    }
}
