//! FIFOs never block, on either resolution path: every operation on a FIFO
//! (named directly, through a symlink, or as a parent) answers at once, the
//! way the `openat2` path does. Each row is bounded in time, so a regression
//! fails instead of hanging the suite. Run directly and under the
//! `no-openat2` launcher (CI does both).

#![cfg(target_os = "linux")]

mod common;
mod portable_support;

use std::os::unix::fs::{FileTypeExt, symlink};
use std::sync::Arc;

use mcp_roots::{Create, OpenOptions, RootSet, WalkLimits};
use portable_support::{bounded, mkfifo, reason};

/// `T/root` with `fifo`, `to_fifo -> fifo`, `sub/up_fifo -> ../fifo` and
/// `x.txt`; `T/outside/fifo` beside it.
struct Fixture {
    tree: common::TempTree,
    set: Arc<RootSet>,
}

impl Fixture {
    fn new() -> Self {
        let tree = common::TempTree::build(&["root/sub", "outside"], &[("root/x.txt", "x")]);
        mkfifo(&tree.p("root/fifo"));
        mkfifo(&tree.p("outside/fifo"));
        symlink("fifo", tree.p("root/to_fifo")).expect("symlink");
        symlink("../fifo", tree.p("root/sub/up_fifo")).expect("symlink");
        symlink("../outside/fifo", tree.p("root/out_fifo")).expect("symlink");
        let set = Arc::new(RootSet::from_uris([tree.p("root")]));
        Self { tree, set }
    }

    fn fifos(&self) -> Vec<String> {
        vec![self.tree.p("root/fifo"), self.tree.p("outside/fifo")]
    }

    /// Runs `op` on `T/root/rel`, bounded, and returns its reason.
    fn check<T: 'static>(
        &self,
        what: &str,
        rel: &str,
        op: fn(&RootSet, &str) -> Result<T, mcp_roots::Error>,
    ) -> &'static str {
        let set = self.set.clone();
        let path = self.tree.p(rel);
        bounded(&format!("{what} {rel}"), &self.fifos(), move || {
            reason(&op(&set, &path))
        })
    }
}

type Op = fn(&RootSet, &str) -> Result<(), mcp_roots::Error>;

const READ: Op = |set, p| set.open(p).map(drop);
const WRITE: Op = |set, p| set.open_with(p, OpenOptions::new().write(true)).map(drop);
const APPEND: Op = |set, p| {
    set.open_with(p, OpenOptions::new().read(false).append(true))
        .map(drop)
};
const CREATE_OR_OPEN: Op = |set, p| {
    set.open_with(p, OpenOptions::new().write(true).create(Create::OrOpen))
        .map(drop)
};
const TRUNCATE: Op = |set, p| {
    set.open_with(p, OpenOptions::new().write(true).truncate(true))
        .map(drop)
};
const CREATE_NEW: Op = |set, p| set.create_new(p).map(drop);
const READ_DIR: Op = |set, p| set.read_dir(p).map(drop);
const RESOLVE: Op = |set, p| set.resolve(p).map(drop);
const COPY_FROM: Op = |set, p| {
    let to = format!("{}.copy", p.trim_end_matches('/'));
    set.copy(p, &to).map(drop)
};

#[test]
fn opening_a_fifo_for_data_is_refused_at_once() {
    let fx = Fixture::new();
    let rows: &[(&str, Op, &str, &str)] = &[
        ("read", READ, "root/fifo", "not_a_regular_file"),
        ("read", READ, "root/to_fifo", "not_a_regular_file"),
        ("read", READ, "root/sub/up_fifo", "not_a_regular_file"),
        ("read", READ, "root/sub/../fifo", "not_a_regular_file"),
        ("read", READ, "root/out_fifo", "outside_roots"),
        ("write", WRITE, "root/fifo", "not_a_regular_file"),
        ("write", WRITE, "root/to_fifo", "symlink_loop"),
        ("append", APPEND, "root/fifo", "not_a_regular_file"),
        ("truncate", TRUNCATE, "root/fifo", "not_a_regular_file"),
        ("create", CREATE_OR_OPEN, "root/fifo", "not_a_regular_file"),
        ("create", CREATE_OR_OPEN, "root/to_fifo", "symlink_loop"),
        ("create_new", CREATE_NEW, "root/fifo", "already_exists"),
        ("create_new", CREATE_NEW, "root/to_fifo", "already_exists"),
        ("copy", COPY_FROM, "root/fifo", "not_a_regular_file"),
        ("copy", COPY_FROM, "root/to_fifo", "not_a_regular_file"),
    ];
    for &(what, op, rel, want) in rows {
        assert_eq!(fx.check(what, rel, op), want, "{what} {rel}");
    }
}

#[test]
fn a_fifo_is_not_a_directory() {
    let fx = Fixture::new();
    let rows: &[(&str, Op, &str, &str)] = &[
        ("read_dir", READ_DIR, "root/fifo", "not_a_directory"),
        ("read_dir", READ_DIR, "root/to_fifo", "not_a_directory"),
        ("read_dir", READ_DIR, "root/fifo/", "not_a_directory"),
        ("read", READ, "root/fifo/", "not_a_directory"),
        ("read", READ, "root/to_fifo/", "not_a_directory"),
        ("read", READ, "root/fifo/x", "not_a_directory"),
        ("create_new", CREATE_NEW, "root/fifo/x", "not_a_directory"),
        (
            "create_new",
            CREATE_NEW,
            "root/to_fifo/x",
            "not_a_directory",
        ),
    ];
    for &(what, op, rel, want) in rows {
        assert_eq!(fx.check(what, rel, op), want, "{what} {rel}");
    }
}

#[test]
fn locating_a_fifo_does_not_open_it() {
    let fx = Fixture::new();
    for rel in ["root/fifo", "root/to_fifo", "root/sub/up_fifo"] {
        let set = fx.set.clone();
        let path = fx.tree.p(rel);
        let meta = bounded(&format!("metadata {rel}"), &fx.fifos(), move || {
            set.metadata(&path)
        })
        .expect("metadata of a FIFO");
        assert!(meta.file_type().is_fifo(), "{rel}");
        assert_eq!(fx.check("resolve", rel, RESOLVE), "ok", "resolve {rel}");
    }
    let set = fx.set.clone();
    let path = fx.tree.p("root/to_fifo");
    let scoped = bounded("resolve root/to_fifo", &fx.fifos(), move || {
        set.resolve(&path)
    })
    .expect("resolve");
    assert_eq!(scoped.rel(), "fifo");
    assert_eq!(
        fx.check("metadata", "root/out_fifo", |s, p| s.metadata(p)),
        "outside_roots"
    );
}

#[test]
fn changing_a_directory_that_is_a_fifo_is_refused_at_once() {
    let fx = Fixture::new();
    let rows: &[(&str, Op, &str, &str)] = &[
        (
            "create_dir",
            |s, p| s.create_dir(p),
            "root/fifo/d",
            "not_a_directory",
        ),
        (
            "create_dir",
            |s, p| s.create_dir(p),
            "root/to_fifo/d",
            "not_a_directory",
        ),
        (
            "create_dir_all",
            |s, p| s.create_dir_all(p),
            "root/fifo/d/e",
            "not_a_directory",
        ),
        (
            "remove_file",
            |s, p| s.remove_file(p),
            "root/fifo/x",
            "not_a_directory",
        ),
        (
            "write_atomic",
            |s, p| s.write_atomic(p, b"x"),
            "root/fifo",
            "not_a_regular_file",
        ),
        (
            "write_atomic",
            |s, p| s.write_atomic(p, b"x"),
            "root/fifo/x",
            "not_a_directory",
        ),
        (
            "rename",
            |s, p| s.rename(p, &p.replace("x.txt", "fifo/y")),
            "root/x.txt",
            "not_a_directory",
        ),
    ];
    for &(what, op, rel, want) in rows {
        assert_eq!(fx.check(what, rel, op), want, "{what} {rel}");
    }
}

#[test]
fn listing_and_walking_past_a_fifo_do_not_block() {
    let fx = Fixture::new();
    let set = fx.set.clone();
    let root = fx.tree.p("root");
    let names = bounded("walk root", &fx.fifos(), move || {
        let limits = WalkLimits::new(4, 100);
        let mut names: Vec<String> = set
            .walk(&root, limits)
            .expect("walk")
            .map(|e| e.expect("entry").path().rel().to_owned())
            .collect();
        names.sort();
        names
    });
    assert_eq!(
        names,
        ["fifo", "out_fifo", "sub", "sub/up_fifo", "to_fifo", "x.txt"]
    );
    assert_eq!(fx.check("read_dir", "root", READ_DIR), "ok");
}
