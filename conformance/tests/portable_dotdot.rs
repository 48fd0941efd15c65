//! `..` on either resolution path: it is resolved on disk (after a symlink,
//! from where the link landed), never above the root (`outside_roots`, the
//! answer `openat2` gives as EXDEV). Run directly and under the
//! `no-openat2` launcher (CI does both).

#![cfg(target_os = "linux")]

mod common;
mod portable_support;

use std::os::unix::fs::symlink;

use mcp_roots::{MountPoints, RootSet, Symlinks};
use portable_support::reason;

fn tree() -> common::TempTree {
    let tree = common::TempTree::build(
        &["root/sub/deeper", "outside"],
        &[
            ("root/x.txt", "x"),
            ("root/sub/y.txt", "y"),
            ("outside/s.txt", "s"),
        ],
    );
    symlink("..", tree.p("root/to_parent")).expect("symlink");
    symlink("sub/deeper", tree.p("root/to_deeper")).expect("symlink");
    symlink("../../outside", tree.p("root/sub/out")).expect("symlink");
    symlink("../..", tree.p("root/sub/deeper/up2")).expect("symlink");
    tree
}

type Op = fn(&RootSet, &str) -> Result<(), mcp_roots::Error>;

const READ: Op = |s, p| s.open(p).map(drop);
const READ_DIR: Op = |s, p| s.read_dir(p).map(drop);
const METADATA: Op = |s, p| s.metadata(p).map(drop);
const CREATE_NEW: Op = |s, p| s.create_new(p).map(drop);

const ROWS: &[(&str, Op, &str, &str)] = &[
    ("read", READ, "root/sub/../x.txt", "ok"),
    ("read", READ, "root/sub/deeper/../../x.txt", "ok"),
    ("read", READ, "root/sub/./../sub/y.txt", "ok"),
    ("read_dir", READ_DIR, "root/sub/..", "ok"),
    ("read_dir", READ_DIR, "root/sub/../", "ok"),
    ("metadata", METADATA, "root/sub/deeper/..", "ok"),
    ("create_new", CREATE_NEW, "root/sub/../new.txt", "ok"),
    ("read_dir", READ_DIR, "root/..", "outside_roots"),
    ("read", READ, "root/../outside/s.txt", "outside_roots"),
    (
        "read",
        READ,
        "root/sub/../../outside/s.txt",
        "outside_roots",
    ),
    ("read_dir", READ_DIR, "root/sub/../..", "outside_roots"),
    (
        "metadata",
        METADATA,
        "root/sub/deeper/../../..",
        "outside_roots",
    ),
    (
        "create_new",
        CREATE_NEW,
        "root/sub/../../new.txt",
        "outside_roots",
    ),
    ("read", READ, "root/x.txt/..", "not_a_directory"),
    ("read", READ, "root/missing/..", "not_found"),
];

/// Rows through symlinks (allowed only where links are followed).
const LINK_ROWS: &[(&str, Op, &str, &str)] = &[
    ("read_dir", READ_DIR, "root/to_parent", "outside_roots"),
    ("read", READ, "root/to_deeper/../y.txt", "ok"),
    ("read", READ, "root/sub/out/s.txt", "outside_roots"),
    ("read_dir", READ_DIR, "root/sub/deeper/up2", "ok"),
    ("read", READ, "root/sub/deeper/up2/x.txt", "ok"),
    (
        "read_dir",
        READ_DIR,
        "root/sub/deeper/up2/..",
        "outside_roots",
    ),
];

fn check(set: &RootSet, rows: &[(&str, Op, &str, &str)], tree: &common::TempTree, label: &str) {
    for &(what, op, rel, want) in rows {
        let result = op(set, &tree.p(rel));
        assert_eq!(reason(&result), want, "{label} {what} {rel}");
        if what == "create_new" && result.is_ok() {
            std::fs::remove_file(tree.p("root/new.txt")).expect("remove the created file");
        }
    }
}

#[test]
fn dotdot_never_leaves_the_root() {
    let tree = tree();
    check(
        &RootSet::from_uris([tree.p("root")]),
        ROWS,
        &tree,
        "default",
    );
    check(
        &RootSet::from_uris([tree.p("root")]),
        LINK_ROWS,
        &tree,
        "default",
    );
}

#[test]
fn dotdot_under_the_hardening() {
    let tree = tree();
    let strict = RootSet::builder()
        .root(tree.p("root"))
        .symlinks(Symlinks::Refuse)
        .mount_points(MountPoints::Refuse)
        .build();
    check(&strict, ROWS, &tree, "hardened");
    for &(what, op, rel, _) in LINK_ROWS {
        assert_eq!(
            reason(&op(&strict, &tree.p(rel))),
            "symlink_loop",
            "hardened {what} {rel}"
        );
    }
}

#[test]
fn dotdot_after_a_symlink_is_the_physical_parent() {
    let tree = tree();
    let set = RootSet::from_uris([tree.p("root")]);
    // `to_deeper` lands in `sub/deeper`, so its `..` is `sub`, not the root.
    let mut names: Vec<String> = set
        .read_dir(&tree.p("root/to_deeper/.."))
        .expect("list")
        .map(|e| e.expect("entry").name().to_str().expect("utf-8").to_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["deeper", "out", "y.txt"]);
    let scoped = set.resolve(&tree.p("root/to_deeper/..")).expect("resolve");
    assert_eq!(scoped.rel(), "sub");
}
