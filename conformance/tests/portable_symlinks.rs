//! `Symlinks::Refuse` on either resolution path: a symlink anywhere in the
//! path is `symlink_loop` — as the last component, in the middle, staying
//! inside or not — while the default policy follows the links that stay
//! beneath the root. Run directly and under the `no-openat2` launcher (CI
//! does both): the rows are the same, so are the answers.

#![cfg(target_os = "linux")]

mod common;
mod portable_support;

use std::os::unix::fs::symlink;

use mcp_roots::{Create, OpenOptions, RootSet, Symlinks};
use portable_support::reason;

/// `T/root` with `x.txt`, `sub/y.txt` and links of every kind.
struct Fixture {
    tree: common::TempTree,
    strict: RootSet,
    default: RootSet,
}

impl Fixture {
    fn new() -> Self {
        let tree = common::TempTree::build(
            &["root/sub/deeper", "outside"],
            &[
                ("root/x.txt", "x"),
                ("root/sub/y.txt", "y"),
                ("outside/s.txt", "s"),
            ],
        );
        let links = [
            ("root/to_x", "x.txt".to_owned()),
            ("root/to_sub", "sub".to_owned()),
            ("root/to_sub_slash", "sub/".to_owned()),
            ("root/sub/up_x", "../x.txt".to_owned()),
            ("root/sub/deeper/up_sub", "..".to_owned()),
            ("root/chain", "to_x".to_owned()),
            ("root/dangling", "missing".to_owned()),
            ("root/loop", "loop".to_owned()),
            ("root/abs_in", tree.p("root/x.txt")),
            ("root/out", "../outside/s.txt".to_owned()),
        ];
        for (at, target) in links {
            symlink(target, tree.p(at)).expect("symlink");
        }
        let strict = RootSet::builder()
            .root(tree.p("root"))
            .symlinks(Symlinks::Refuse)
            .build();
        let default = RootSet::from_uris([tree.p("root")]);
        Self {
            tree,
            strict,
            default,
        }
    }
}

type Op = fn(&RootSet, &str) -> Result<(), mcp_roots::Error>;

const READ: Op = |s, p| s.open(p).map(drop);
const METADATA: Op = |s, p| s.metadata(p).map(drop);
const READ_DIR: Op = |s, p| s.read_dir(p).map(drop);
const RESOLVE: Op = |s, p| s.resolve(p).map(drop);
const WRITE: Op = |s, p| s.open_with(p, OpenOptions::new().write(true)).map(drop);
const CREATE_NEW: Op = |s, p| s.create_new(p).map(drop);
const CREATE_OR_OPEN: Op = |s, p| {
    s.open_with(p, OpenOptions::new().write(true).create(Create::OrOpen))
        .map(drop)
};
const CREATE_DIR: Op = |s, p| s.create_dir(p);
const WRITE_ATOMIC: Op = |s, p| s.write_atomic(p, b"new");

/// Each row: operation, path below `T`, reason under `Symlinks::Refuse`,
/// reason by default.
fn check(rows: &[(&str, Op, &str, &str, &str)]) {
    let fx = Fixture::new();
    for &(what, op, rel, strict, default) in rows {
        let path = fx.tree.p(rel);
        assert_eq!(
            reason(&op(&fx.strict, &path)),
            strict,
            "strict {what} {rel}"
        );
        assert_eq!(
            reason(&op(&fx.default, &path)),
            default,
            "default {what} {rel}"
        );
    }
}

#[test]
fn a_link_as_the_last_component() {
    check(&[
        ("read", READ, "root/to_x", "symlink_loop", "ok"),
        ("read", READ, "root/chain", "symlink_loop", "ok"),
        ("metadata", METADATA, "root/to_x", "symlink_loop", "ok"),
        ("resolve", RESOLVE, "root/to_x", "symlink_loop", "ok"),
        ("read_dir", READ_DIR, "root/to_sub", "symlink_loop", "ok"),
        ("read_dir", READ_DIR, "root/to_sub/", "symlink_loop", "ok"),
        (
            "read_dir",
            READ_DIR,
            "root/to_sub_slash",
            "symlink_loop",
            "ok",
        ),
        ("write", WRITE, "root/to_x", "symlink_loop", "symlink_loop"),
        (
            "create",
            CREATE_OR_OPEN,
            "root/to_x",
            "symlink_loop",
            "symlink_loop",
        ),
        (
            "create_new",
            CREATE_NEW,
            "root/to_x",
            "already_exists",
            "already_exists",
        ),
        (
            "create_new",
            CREATE_NEW,
            "root/dangling",
            "already_exists",
            "already_exists",
        ),
        ("read", READ, "root/dangling", "symlink_loop", "not_found"),
        ("read", READ, "root/loop", "symlink_loop", "symlink_loop"),
        // An absolute link back inside its root is followed across roots.
        ("read", READ, "root/abs_in", "symlink_loop", "ok"),
        ("read", READ, "root/out", "symlink_loop", "outside_roots"),
        (
            "write_atomic",
            WRITE_ATOMIC,
            "root/to_x",
            "symlink_loop",
            "symlink_loop",
        ),
    ]);
}

#[test]
fn a_link_in_the_middle() {
    check(&[
        ("read", READ, "root/to_sub/y.txt", "symlink_loop", "ok"),
        (
            "read",
            READ,
            "root/to_sub_slash/y.txt",
            "symlink_loop",
            "ok",
        ),
        (
            "metadata",
            METADATA,
            "root/to_sub/y.txt",
            "symlink_loop",
            "ok",
        ),
        (
            "read_dir",
            READ_DIR,
            "root/to_sub/deeper",
            "symlink_loop",
            "ok",
        ),
        (
            "create_new",
            CREATE_NEW,
            "root/to_sub/new.txt",
            "symlink_loop",
            "ok",
        ),
        (
            "create_dir",
            CREATE_DIR,
            "root/to_sub/newdir",
            "symlink_loop",
            "ok",
        ),
        ("write", WRITE, "root/to_sub/y.txt", "symlink_loop", "ok"),
        (
            "read",
            READ,
            "root/to_x/more",
            "symlink_loop",
            "not_a_directory",
        ),
        (
            "read",
            READ,
            "root/dangling/more",
            "symlink_loop",
            "not_found",
        ),
    ]);
}

#[test]
fn relative_links_that_stay_inside() {
    check(&[
        ("read", READ, "root/sub/up_x", "symlink_loop", "ok"),
        (
            "read",
            READ,
            "root/sub/deeper/up_sub/y.txt",
            "symlink_loop",
            "ok",
        ),
        (
            "read_dir",
            READ_DIR,
            "root/sub/deeper/up_sub",
            "symlink_loop",
            "ok",
        ),
        (
            "read",
            READ,
            "root/sub/deeper/up_sub/../x.txt",
            "symlink_loop",
            "ok",
        ),
        ("metadata", METADATA, "root/sub/up_x", "symlink_loop", "ok"),
    ]);
}

#[test]
fn paths_without_links_still_work() {
    check(&[
        ("read", READ, "root/x.txt", "ok", "ok"),
        ("read", READ, "root/sub/y.txt", "ok", "ok"),
        ("read", READ, "root/sub/../x.txt", "ok", "ok"),
        ("read", READ, "root/sub/./deeper/../y.txt", "ok", "ok"),
        ("read_dir", READ_DIR, "root/sub/", "ok", "ok"),
        ("metadata", METADATA, "root/sub/deeper", "ok", "ok"),
        (
            "create_new",
            CREATE_NEW,
            "root/sub/new.txt",
            "ok",
            "already_exists",
        ),
        ("write", WRITE, "root/x.txt", "ok", "ok"),
        ("read", READ, "root/missing", "not_found", "not_found"),
    ]);
}

#[test]
fn forty_links_are_followed_and_the_forty_first_is_a_loop() {
    let fx = Fixture::new();
    // `c0 -> c1 -> … -> cN -> x.txt`: opening `c0` follows N + 1 links.
    let chain = |prefix: &str, links: usize| {
        for i in 0..links {
            let target = if i + 1 == links {
                "x.txt".to_owned()
            } else {
                format!("{prefix}{}", i + 1)
            };
            symlink(target, fx.tree.p(&format!("root/{prefix}{i}"))).expect("symlink");
        }
        fx.tree.p(&format!("root/{prefix}0"))
    };
    let forty = chain("a", 40);
    let forty_one = chain("b", 41);
    assert_eq!(reason(&READ(&fx.default, &forty)), "ok");
    assert_eq!(reason(&READ(&fx.default, &forty_one)), "symlink_loop");
    assert_eq!(reason(&READ(&fx.strict, &forty)), "symlink_loop");
    // A link in the middle counts the same.
    let middle = format!("{}/../x.txt", fx.tree.p("root/to_sub"));
    assert_eq!(reason(&READ(&fx.default, &middle)), "ok");
}
