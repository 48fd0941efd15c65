//! `MountPoints::Refuse` on either resolution path: crossing a mount below
//! the root is `outside_roots`, a bind mount of the same file system
//! included (on Linux both paths compare mounts, not devices). Needs
//! `mount --bind` (root, or a user namespace that allows it): skipped with
//! a message where it fails. Run directly and under the `no-openat2`
//! launcher (CI does both).

#![cfg(target_os = "linux")]

mod common;
mod portable_support;

use std::os::unix::fs::symlink;

use common::mounts::Mounts;
use mcp_roots::{MountPoints, RootSet};
use portable_support::reason;

/// `T/root` with `x.txt`, `sub/`, `bound/` (a bind mount of `T/elsewhere`,
/// same file system) and `tmp/` (a tmpfs); links into both.
struct Fixture {
    // Unmounted before the tree is removed (fields drop in order).
    _mounts: Mounts,
    tree: common::TempTree,
}

impl Fixture {
    fn new() -> Option<Self> {
        let tree = common::TempTree::build(
            &["root/sub", "root/bound", "root/tmp", "elsewhere/inner"],
            &[("root/x.txt", "x"), ("elsewhere/e.txt", "e")],
        );
        symlink("bound/e.txt", tree.p("root/to_bound")).expect("symlink");
        symlink("tmp", tree.p("root/to_tmp")).expect("symlink");
        let mut mounts = Mounts::default();
        let elsewhere = tree.p("elsewhere");
        if !mounts.mount(&["--bind", &elsewhere], &tree.p("root/bound")) {
            eprintln!("skipped: `mount --bind` is not allowed here");
            return None;
        }
        if !mounts.mount(&["-t", "tmpfs", "none"], &tree.p("root/tmp")) {
            eprintln!("skipped: mounting a tmpfs is not allowed here");
            return None;
        }
        std::fs::write(tree.p("root/tmp/t.txt"), "t").expect("write into the tmpfs");
        Some(Self {
            _mounts: mounts,
            tree,
        })
    }
}

type Op = fn(&RootSet, &str) -> Result<(), mcp_roots::Error>;

const READ: Op = |s, p| s.open(p).map(drop);
const METADATA: Op = |s, p| s.metadata(p).map(drop);
const READ_DIR: Op = |s, p| s.read_dir(p).map(drop);
const CREATE_NEW: Op = |s, p| s.create_new(p).map(drop);
const CREATE_DIR: Op = |s, p| s.create_dir(p);

#[test]
fn crossing_a_mount_below_the_root_is_refused() {
    let Some(fx) = Fixture::new() else { return };
    let strict = RootSet::builder()
        .root(fx.tree.p("root"))
        .mount_points(MountPoints::Refuse)
        .build();
    let default = RootSet::from_uris([fx.tree.p("root")]);
    let rows: &[(&str, Op, &str, &str)] = &[
        // A bind mount of the same file system: a crossing all the same.
        ("read", READ, "root/bound/e.txt", "outside_roots"),
        ("read_dir", READ_DIR, "root/bound", "outside_roots"),
        ("read_dir", READ_DIR, "root/bound/inner", "outside_roots"),
        ("metadata", METADATA, "root/bound", "outside_roots"),
        (
            "create_new",
            CREATE_NEW,
            "root/bound/new.txt",
            "outside_roots",
        ),
        (
            "create_dir",
            CREATE_DIR,
            "root/bound/newdir",
            "outside_roots",
        ),
        ("read", READ, "root/to_bound", "outside_roots"),
        ("read_dir", READ_DIR, "root/bound/..", "outside_roots"),
        // Another file system.
        ("read", READ, "root/tmp/t.txt", "outside_roots"),
        ("read_dir", READ_DIR, "root/tmp/", "outside_roots"),
        ("read_dir", READ_DIR, "root/to_tmp", "outside_roots"),
        ("metadata", METADATA, "root/to_tmp", "outside_roots"),
    ];
    for &(what, op, rel, want) in rows {
        let path = fx.tree.p(rel);
        assert_eq!(reason(&op(&strict, &path)), want, "strict {what} {rel}");
        assert_eq!(reason(&op(&default, &path)), "ok", "default {what} {rel}");
    }
}

#[test]
fn the_root_own_mount_is_not_a_crossing() {
    let Some(fx) = Fixture::new() else { return };
    let strict = RootSet::builder()
        .root(fx.tree.p("root"))
        .mount_points(MountPoints::Refuse)
        .build();
    let rows: &[(&str, Op, &str)] = &[
        ("read", READ, "root/x.txt"),
        ("read_dir", READ_DIR, "root"),
        ("read_dir", READ_DIR, "root/sub/.."),
        ("metadata", METADATA, "root/sub"),
        ("create_new", CREATE_NEW, "root/sub/new.txt"),
    ];
    for &(what, op, rel) in rows {
        assert_eq!(reason(&op(&strict, &fx.tree.p(rel))), "ok", "{what} {rel}");
    }
    // A root that is itself a mount point: what lies on it is not a crossing.
    let inside = RootSet::builder()
        .root(fx.tree.p("root/bound"))
        .mount_points(MountPoints::Refuse)
        .build();
    assert_eq!(reason(&READ(&inside, &fx.tree.p("root/bound/e.txt"))), "ok");
    assert_eq!(
        reason(&READ_DIR(&inside, &fx.tree.p("root/bound/inner"))),
        "ok"
    );
}
