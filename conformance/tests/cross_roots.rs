//! Following links and `..` across roots: rows of a table over one fixture
//! tree, each run through the three kinds of set the library hands out (a
//! `RootSet` built directly, the set a `Roots::replace` installs, and a
//! request-scoped set of `Roots::for_request`), on whichever resolution
//! path the process has (CI runs the file again without `openat2`).
//!
//! An allow touches exactly the expected object; a refusal has the expected
//! reason and changes nothing.

#![cfg(unix)]

mod common;

use std::io::{Read, Write};
use std::os::unix::fs::MetadataExt;

use common::{MARKER, Touched};
use mcp_roots::{Error, ErrorKind, RootSet, RootSetBuilder, Roots, Snapshot, Symlinks};
use testkit::{Fixture, Op, SetupOp};

/// What a row expects.
#[derive(Clone, Copy, Debug)]
enum Want {
    /// An allow that touches this path (relative to the resolved `{T}`).
    Touch(&'static str),
    /// A refusal with this reason.
    Refuse(ErrorKind),
}

use Want::{Refuse, Touch};

/// One row: its name, its links (`"path -> body"`, `{T}` substituted),
/// its roots (relative to `{T}`), the input (`{T}` substituted), the
/// operation and what it expects.
struct Row {
    id: &'static str,
    links: &'static [&'static str],
    roots: &'static [&'static str],
    input: &'static str,
    op: Op,
    want: Want,
}

const fn row(
    id: &'static str,
    links: &'static [&'static str],
    roots: &'static [&'static str],
    input: &'static str,
    op: Op,
    want: Want,
) -> Row {
    Row {
        id,
        links,
        roots,
        input,
        op,
        want,
    }
}

const AB: &[&str] = &["a", "b"];
const A: &[&str] = &["a"];
const UP40: &str = "{T}/a/../../../../../../../../../../../../../../../../../../../../\
../../../../../../../../../../../../../../../../../../../..";

/// The rows that become allows by following links across roots.
const ALLOWS: &[Row] = &[
    row(
        "abs-link-to-file-inside",
        &["a/abs -> {T}/a/sub/y.txt"],
        A,
        "{T}/a/abs",
        Op::Read,
        Touch("a/sub/y.txt"),
    ),
    row(
        "abs-link-to-dir-on-the-way",
        &["a/d -> {T}/a/sub"],
        A,
        "{T}/a/d/y.txt",
        Op::Read,
        Touch("a/sub/y.txt"),
    ),
    row(
        "abs-link-to-dir-listed",
        &["a/d -> {T}/a/sub"],
        A,
        "{T}/a/d",
        Op::List,
        Touch("a/sub"),
    ),
    row(
        "abs-link-to-dir-trailing-slash",
        &["a/d -> {T}/a/sub/"],
        A,
        "{T}/a/d/",
        Op::List,
        Touch("a/sub"),
    ),
    row(
        "abs-link-with-dotdot-in-body",
        &["a/w -> {T}/a/../b/z.txt"],
        AB,
        "{T}/a/w",
        Op::Read,
        Touch("b/z.txt"),
    ),
    row(
        "abs-link-from-slash-dotdot",
        &["a/w -> /../../{T}/b/z.txt"],
        AB,
        "{T}/a/w",
        Op::Read,
        Touch("b/z.txt"),
    ),
    row(
        "link-into-other-root-abs",
        &["a/tob -> {T}/b"],
        AB,
        "{T}/a/tob/z.txt",
        Op::Read,
        Touch("b/z.txt"),
    ),
    row(
        "link-into-other-root-rel",
        &["a/rb -> ../b/z.txt"],
        AB,
        "{T}/a/rb",
        Op::Read,
        Touch("b/z.txt"),
    ),
    row(
        "link-to-other-root-listed",
        &["a/tob -> {T}/b"],
        AB,
        "{T}/a/tob",
        Op::List,
        Touch("b"),
    ),
    row(
        "link-leaves-and-reenters",
        &["a/rt -> ../a/x.txt"],
        A,
        "{T}/a/rt",
        Op::Read,
        Touch("a/x.txt"),
    ),
    row(
        "chain-across-two-roots",
        &["a/l1 -> {T}/b/l2", "b/l2 -> ../a/sub/y.txt"],
        AB,
        "{T}/a/l1",
        Op::Read,
        Touch("a/sub/y.txt"),
    ),
    row(
        "chain-of-dirs-across-roots",
        &["a/l1 -> ../b/d2", "b/d2 -> {T}/a/sub"],
        AB,
        "{T}/a/l1/y.txt",
        Op::Read,
        Touch("a/sub/y.txt"),
    ),
    row(
        "raw-dotdot-reenters-own-root",
        &[],
        A,
        "{T}/a/../a/x.txt",
        Op::Read,
        Touch("a/x.txt"),
    ),
    row(
        "raw-dotdot-enters-other-root",
        &[],
        AB,
        "{T}/a/sub/../../b/z.txt",
        Op::Read,
        Touch("b/z.txt"),
    ),
    row(
        "raw-dotdot-clamped-at-slash",
        &[],
        AB,
        "{UP40}{T}/b/z.txt",
        Op::Read,
        Touch("b/z.txt"),
    ),
    row(
        "raw-dotdot-lists-other-root",
        &[],
        AB,
        "{T}/a/../b",
        Op::List,
        Touch("b"),
    ),
    row(
        "root-via-symlink-dotdot-back-in",
        &[],
        &["rl"],
        "{T}/rl/../real/x.txt",
        Op::Read,
        Touch("deep/real/x.txt"),
    ),
    row(
        "root-via-symlink-dotdot-to-sibling",
        &[],
        &["rl", "deep/other"],
        "{T}/rl/../other/w.txt",
        Op::Read,
        Touch("deep/other/w.txt"),
    ),
    row(
        "abs-link-through-given-root-path",
        &["deep/real/me -> {T}/rl/x.txt"],
        &["rl"],
        "{T}/rl/me",
        Op::Read,
        Touch("deep/real/x.txt"),
    ),
    row(
        "create-through-dir-link-other-root",
        &["a/tob -> {T}/b"],
        AB,
        "{T}/a/tob/new.txt",
        Op::WriteNew,
        Touch("b/new.txt"),
    ),
    row(
        "link-into-nested-roots-lands-in-the-outer",
        &["b/ts -> {T}/a/sub/y.txt"],
        &["a/sub", "b", "a"],
        "{T}/b/ts",
        Op::Read,
        Touch("a/sub/y.txt"),
    ),
    row(
        "create-after-raw-dotdot",
        &[],
        AB,
        "{T}/a/../b/new.txt",
        Op::WriteNew,
        Touch("b/new.txt"),
    ),
];

/// The rows that stay refused, with their reasons.
const REFUSALS: &[Row] = &[
    row(
        "abs-link-outside",
        &["a/o -> {T}/outside/secret.txt"],
        AB,
        "{T}/a/o",
        Op::Read,
        Refuse(ErrorKind::OutsideRoots),
    ),
    row(
        "raw-dotdot-outside",
        &[],
        AB,
        "{T}/a/../outside/secret.txt",
        Op::Read,
        Refuse(ErrorKind::OutsideRoots),
    ),
    row(
        "raw-dotdot-clamped-outside",
        &[],
        AB,
        "{UP40}{T}/outside/secret.txt",
        Op::Read,
        Refuse(ErrorKind::OutsideRoots),
    ),
    row(
        "link-to-an-ancestor-then-out",
        &["a/p -> {T}"],
        AB,
        "{T}/a/p/outside/secret.txt",
        Op::Read,
        Refuse(ErrorKind::OutsideRoots),
    ),
    row(
        "link-to-an-ancestor-listed",
        &["a/p -> {T}"],
        AB,
        "{T}/a/p",
        Op::List,
        Refuse(ErrorKind::OutsideRoots),
    ),
    row(
        "chain-through-a-link-outside",
        &["a/l1 -> ../outside/l2", "outside/l2 -> {T}/b/z.txt"],
        AB,
        "{T}/a/l1",
        Op::Read,
        Refuse(ErrorKind::OutsideRoots),
    ),
    row(
        "inner-root-dotdot-into-its-parent",
        &["a/sub/up -> ../x.txt"],
        &["a/sub"],
        "{T}/a/sub/up",
        Op::Read,
        Refuse(ErrorKind::OutsideRoots),
    ),
    row(
        "decoy-beside-a-root-via-symlink",
        &[],
        &["rl"],
        "{T}/rl/../../real/x.txt",
        Op::Read,
        Refuse(ErrorKind::OutsideRoots),
    ),
    row(
        "magic-link-proc-root",
        &["a/m -> /proc/self/root{T}/b/z.txt"],
        AB,
        "{T}/a/m",
        Op::Read,
        Refuse(ErrorKind::OutsideRoots),
    ),
    row(
        "magic-link-proc-cwd",
        &["a/m -> /proc/self/cwd"],
        AB,
        "{T}/a/m/x",
        Op::Read,
        Refuse(ErrorKind::OutsideRoots),
    ),
    row(
        "dangling-cross-root-create",
        &["a/dl -> {T}/b/new.txt"],
        AB,
        "{T}/a/dl",
        Op::WriteNew,
        Refuse(ErrorKind::AlreadyExists),
    ),
    row(
        "dangling-cross-root-read",
        &["a/dl -> {T}/b/missing.txt"],
        AB,
        "{T}/a/dl",
        Op::Read,
        Refuse(ErrorKind::NotFound),
    ),
    row(
        "file-on-the-way-in-other-root",
        &["a/f -> {T}/b/z.txt"],
        AB,
        "{T}/a/f/x",
        Op::Read,
        Refuse(ErrorKind::NotADirectory),
    ),
    row(
        "loop-across-roots",
        &["a/l -> {T}/b/l", "b/l -> {T}/a/l"],
        AB,
        "{T}/a/l",
        Op::Read,
        Refuse(ErrorKind::SymlinkLoop),
    ),
    row(
        "create-missing-parent-other-root",
        &["a/tob -> {T}/b"],
        AB,
        "{T}/a/tob/none/new.txt",
        Op::WriteNew,
        Refuse(ErrorKind::NotFound),
    ),
];

/// The tree every row starts from.
fn base() -> Vec<SetupOp> {
    let file = |path: &str| SetupOp::File {
        path: path.into(),
        content: None,
    };
    let mut ops: Vec<SetupOp> = [
        "a/x.txt",
        "a/sub/y.txt",
        "b/z.txt",
        "outside/secret.txt",
        "deep/real/x.txt",
        "deep/other/w.txt",
        "real/x.txt",
    ]
    .into_iter()
    .map(file)
    .collect();
    ops.push(SetupOp::Symlink {
        path: "rl".into(),
        target: "deep/real".into(),
    });
    ops
}

fn fixture(row: &Row) -> Fixture {
    let mut ops = base();
    for link in row.links {
        let (path, target) = link.split_once(" -> ").expect("a link row");
        ops.push(SetupOp::Symlink {
            path: path.into(),
            target: target.into(),
        });
    }
    Fixture::with_setup(&ops).expect("fixture")
}

fn input(fx: &Fixture, row: &Row) -> String {
    fx.subst(&row.input.replace("{UP40}", UP40))
}

fn uris(fx: &Fixture, row: &Row) -> Vec<String> {
    row.roots
        .iter()
        .map(|r| format!("file://{}/{r}", fx.t_str()))
        .collect()
}

/// One operation through a snapshot (tracked files).
fn run_snapshot(snapshot: &Snapshot<'_>, op: Op, input: &str) -> Result<Touched, Error> {
    match op {
        Op::Read => {
            let mut file = snapshot.open(input)?;
            let meta = file.metadata()?;
            let mut content = Vec::new();
            file.read_to_end(&mut content).expect("read an opened file");
            Ok(Touched::Read {
                content,
                dev: meta.dev(),
                ino: meta.ino(),
            })
        }
        Op::WriteNew => {
            let mut file = snapshot.create_new(input)?;
            file.write_all(MARKER).expect("write a created file");
            Ok(Touched::Created)
        }
        Op::List => {
            let mut names = snapshot
                .read_dir(input)?
                .map(|e| e.map(|e| e.name().to_owned()))
                .collect::<Result<Vec<_>, _>>()?;
            names.sort();
            Ok(Touched::Listed(names))
        }
    }
}

/// The kinds of set a row runs through.
const KINDS: [&str; 3] = ["RootSet", "Roots::replace", "Roots::for_request"];

/// Runs `row` through the set kind `kind` on a fresh fixture; returns a
/// failure description, if any.
fn check(row: &Row, kind: &str) -> Option<String> {
    let fx = fixture(row);
    let uris = uris(&fx, row);
    let input = input(&fx, row);
    let before = fx.snapshot();
    let outcome = match kind {
        "RootSet" => common::run(&RootSet::from_uris(uris), row.op, &input),
        "Roots::replace" => {
            let roots = Roots::builder().build();
            roots.replace_uris(uris);
            run_snapshot(&roots.load(), row.op, &input)
        }
        _ => {
            let session = Roots::builder().build();
            let list = uris
                .into_iter()
                .fold(RootSetBuilder::new(), |b, uri| b.root(uri));
            let request = session.for_request(Some(list));
            run_snapshot(&request.load(), row.op, &input)
        }
    };
    let id = row.id;
    match (row.want, outcome) {
        (Touch(rel), Ok(touched)) => common::check_target(&touched, &fx.resolved(rel))
            .err()
            .map(|why| format!("{id} [{kind}]: allowed, but {why}")),
        (Touch(_), Err(err)) => Some(format!("{id} [{kind}]: refused: {err} [{}]", err.reason())),
        (Refuse(reason), Ok(touched)) => Some(format!(
            "{id} [{kind}]: ALLOWED {touched:?}, want {reason:?}"
        )),
        (Refuse(reason), Err(err)) => {
            let changes = before.diff(&fx.snapshot());
            if !changes.is_empty() {
                Some(format!("{id} [{kind}]: refused but changed {changes:?}"))
            } else if err.kind() != reason {
                Some(format!(
                    "{id} [{kind}]: refused as {:?}, want {reason:?}",
                    err.kind()
                ))
            } else {
                None
            }
        }
    }
}

fn run_rows(rows: &[Row]) {
    let failures: Vec<String> = rows
        .iter()
        .flat_map(|row| KINDS.iter().filter_map(move |kind| check(row, kind)))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        rows.len() * KINDS.len(),
        failures.join("\n")
    );
}

#[test]
fn links_and_dotdot_across_roots_are_followed() {
    run_rows(ALLOWS);
}

#[test]
fn what_leads_outside_every_root_stays_refused() {
    run_rows(REFUSALS);
}

#[test]
fn refused_symlinks_stay_refused_across_roots() {
    for (link, input) in [
        ("a/tob -> {T}/b", "{T}/a/tob/z.txt"),
        ("a/rb -> ../b/z.txt", "{T}/a/rb"),
    ] {
        let row = row(
            "refuse",
            &[],
            AB,
            input,
            Op::Read,
            Refuse(ErrorKind::SymlinkLoop),
        );
        let mut ops = base();
        let (path, target) = link.split_once(" -> ").unwrap();
        ops.push(SetupOp::Symlink {
            path: path.into(),
            target: target.into(),
        });
        let fx = Fixture::with_setup(&ops).unwrap();
        let set = uris(&fx, &row)
            .into_iter()
            .fold(RootSetBuilder::new(), |b, uri| b.root(uri))
            .symlinks(Symlinks::Refuse)
            .build();
        let err = set.open(&fx.subst(input)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::SymlinkLoop, "{input}");
        // A raw `..` is no symlink: it still crosses.
        set.open(&fx.subst("{T}/a/../b/z.txt")).unwrap();
    }
}

#[test]
fn a_file_opened_across_roots_is_tracked_under_the_root_it_lies_in() {
    let fx = fixture(&row("t", &["a/tob -> {T}/b"], AB, "", Op::Read, Touch("")));
    let roots = Roots::builder().build();
    let a = format!("file://{}/a", fx.t_str());
    let b = format!("file://{}/b", fx.t_str());
    roots.replace_uris([a.clone(), b.clone()]);
    let file = roots.load().open(&fx.subst("{T}/a/tob/z.txt")).unwrap();
    let b_id = roots.load().set().root(1).unwrap().id();
    assert_eq!(file.root(), b_id, "registered under b, where it lies");
    assert_eq!(file.path().unwrap().rel(), "z.txt");
    // b leaving the roots revokes it; a leaving would not have.
    let report = roots.replace_uris([a]);
    assert_eq!(report.revoked().len(), 1);
    assert_eq!(file.revoked(), Some(ErrorKind::ScopeLost));

    let file = {
        roots.replace_uris([format!("file://{}/a", fx.t_str()), b.clone()]);
        roots.load().open(&fx.subst("{T}/a/tob/z.txt")).unwrap()
    };
    let report = roots.replace_uris([b]);
    assert!(report.revoked().is_empty(), "a left, b stays: kept");
    assert_eq!(file.revoked(), None);

    // Nested roots: the outermost one the link lands in.
    let nested = ["a/sub", "a", "b"].map(|r| format!("file://{}/{r}", fx.t_str()));
    roots.replace_uris(nested);
    std::os::unix::fs::symlink(fx.path("a/sub/y.txt"), fx.path("b/ts")).unwrap();
    let file = roots.load().open(&fx.subst("{T}/b/ts")).unwrap();
    let a_id = roots.load().set().root(1).unwrap().id();
    assert_eq!(file.root(), a_id);
    assert_eq!(file.path().unwrap().rel(), "sub/y.txt");
}

#[test]
fn resolve_reports_the_root_a_walk_landed_in() {
    let fx = fixture(&row("r", &["a/tob -> {T}/b"], AB, "", Op::Read, Touch("")));
    let set = RootSet::from_uris(uris(&fx, &row("r", &[], AB, "", Op::Read, Touch(""))));
    let b = set.root(1).unwrap().id();
    for input in [
        "{T}/a/tob/z.txt",
        "{T}/a/../b/z.txt",
        "{T}/a/tob/missing.txt",
    ] {
        let scoped = set.resolve(&fx.subst(input)).unwrap();
        assert_eq!(scoped.root(), b, "{input}");
        assert!(
            scoped.rel() == "z.txt" || scoped.rel() == "missing.txt",
            "{input}"
        );
    }
}

#[test]
fn changes_act_in_the_root_their_parent_lands_in() {
    let fx = fixture(&row("m", &["a/tob -> {T}/b"], AB, "", Op::Read, Touch("")));
    let set = RootSet::from_uris(uris(&fx, &row("m", &[], AB, "", Op::Read, Touch(""))));
    let at = |input: &str| fx.subst(input);
    set.create_dir(&at("{T}/a/tob/nd")).unwrap();
    assert!(fx.path("b/nd").is_dir());
    set.write_atomic(&at("{T}/a/tob/z.txt"), b"new").unwrap();
    assert_eq!(std::fs::read(fx.path("b/z.txt")).unwrap(), b"new");
    assert!(
        std::fs::symlink_metadata(fx.path("a/tob"))
            .unwrap()
            .is_symlink()
    );
    set.rename(&at("{T}/a/../b/z.txt"), &at("{T}/a/tob/moved.txt"))
        .unwrap();
    assert!(fx.path("b/moved.txt").is_file() && !fx.path("b/z.txt").exists());
    let options = mcp_roots::OpenOptions::new().write(true).truncate(true);
    set.open_with(&at("{T}/a/tob/moved.txt"), options).unwrap();
    assert_eq!(std::fs::metadata(fx.path("b/moved.txt")).unwrap().len(), 0);
    set.remove_file(&at("{T}/a/tob/moved.txt")).unwrap();
    assert!(!fx.path("b/moved.txt").exists());
    // A root is never removed, whichever way it is reached.
    for input in ["{T}/a/../b", "{T}/a/tob/nd/.."] {
        let err = set.remove_dir(&at(input)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::OutsideRoots, "{input}");
    }
    // `tob/` is the link in `a` with a trailing `/`: the kernel refuses to
    // remove a symlink as a directory.
    let err = set.remove_dir(&at("{T}/a/tob/")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotADirectory);
    assert!(fx.path("b").is_dir());
    // The link itself is a name in `a`: removing it leaves `b` alone.
    set.remove_file(&at("{T}/a/tob")).unwrap();
    assert!(!fx.path("a/tob").exists() && fx.path("b/nd").is_dir());
}

#[test]
fn refusing_mount_points_still_crosses_between_roots_on_one_mount() {
    let fx = fixture(&row("mp", &["a/tob -> {T}/b"], AB, "", Op::Read, Touch("")));
    let set = uris(&fx, &row("mp", &[], AB, "", Op::Read, Touch("")))
        .into_iter()
        .fold(RootSetBuilder::new(), |b, uri| b.root(uri))
        .mount_points(mcp_roots::MountPoints::Refuse)
        .build();
    for input in ["{T}/a/tob/z.txt", "{T}/a/../b/z.txt"] {
        let mut text = String::new();
        set.open(&fx.subst(input))
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "b/z.txt", "{input}");
    }
    let err = set
        .open(&fx.subst("{T}/a/../outside/secret.txt"))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::OutsideRoots);
}

#[test]
fn dotdot_at_the_top_stays_there_however_often() {
    let fx = fixture(&row("top", &[], A, "", Op::Read, Touch("")));
    // The file system's root as a root: every `..` above it is a crossing
    // back into it, as many as an input can hold.
    let set = RootSet::from_uris(["file:///"]);
    let input = format!("{}{}", "/..".repeat(1300), fx.path("a/x.txt").display());
    let mut text = String::new();
    set.open(input.as_str())
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(text, "a/x.txt");
}

/// Every file and directory below `dir` with its contents (links as their
/// bodies), to compare a tree before and after refused changes.
fn tree(dir: &std::path::Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let what = if meta.is_symlink() {
                format!("-> {}", std::fs::read_link(&path).unwrap().display())
            } else if meta.is_dir() {
                stack.push(path.clone());
                "dir".to_owned()
            } else {
                String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned()
            };
            out.push((path.display().to_string(), what));
        }
    }
    out.sort();
    out
}

#[test]
fn a_change_that_lands_in_a_read_only_root_is_refused() {
    // `a` is writable, `b` read-only (a read-only ceiling entry); links
    // both ways, absolute and through `..`.
    let links: &[&str] = &["a/tob -> {T}/b", "b/toa -> {T}/a"];
    let fx = fixture(&row("ro", links, AB, "", Op::Read, Touch("")));
    let t = fx.t_str().to_owned();
    let policy = Roots::builder()
        .ceiling([format!("{t}/a")])
        .read_only_ceiling([format!("{t}/b")]);
    let at = |input: &str| fx.subst(input);
    let uris = uris(&fx, &row("ro", &[], AB, "", Op::Read, Touch("")));
    let replaced = policy.clone().build();
    replaced.replace(RootSet::from_uris(uris.clone()));
    let request = policy.build();
    let mut client = RootSetBuilder::new();
    for uri in &uris {
        client = client.root(uri.as_str());
    }
    let request = request.for_request(Some(client));
    for (kind, roots) in [("replace", &replaced), ("for_request", &request)] {
        let snap = roots.load();
        let set = snap.set();
        let before = tree(fx.t());
        // Into the read-only root through a link, or a `..`, from the
        // writable one; and out of the read-only one into the writable one
        // (judged by the stricter of the two).
        for via in ["{T}/a/tob", "{T}/a/../b", "{T}/b/toa", "{T}/b/../a"] {
            let p = |rest: &str| at(&format!("{via}/{rest}"));
            let existing = if via.contains("tob") || via.ends_with("/b") {
                "z.txt"
            } else {
                "x.txt"
            };
            let refusals: Vec<(&str, Result<(), Error>)> = vec![
                ("create_new", set.create_new(&p("new.txt")).map(drop)),
                ("write_atomic", set.write_atomic(&p(existing), b"over")),
                ("create_dir", set.create_dir(&p("nd"))),
                ("create_dir_all", set.create_dir_all(&p("nd/deeper"))),
                ("remove_file", set.remove_file(&p(existing))),
                (
                    "rename from",
                    set.rename(&p(existing), &at("{T}/a/moved.txt")),
                ),
                ("rename to", set.rename(&at("{T}/a/x.txt"), &p("moved.txt"))),
                (
                    "copy to",
                    set.copy(&at("{T}/a/sub/y.txt"), &p("copied.txt")).map(drop),
                ),
                (
                    "truncate",
                    set.open_with(
                        &p(existing),
                        mcp_roots::OpenOptions::new().write(true).truncate(true),
                    )
                    .map(drop),
                ),
                (
                    "tracked write",
                    snap.open_with(&p(existing), mcp_roots::OpenOptions::new().write(true))
                        .map(drop),
                ),
            ];
            for (op, result) in refusals {
                let err = result.expect_err(&format!("{kind}: {op} via {via} was allowed"));
                // `create_dir_all` walks on its own and refuses every link
                // and every `..` across roots before it gets that far.
                if op == "create_dir_all" && err.kind() != ErrorKind::ReadOnly {
                    let kinds = [ErrorKind::OutsideRoots, ErrorKind::NotADirectory];
                    assert!(kinds.contains(&err.kind()), "{kind}: {op} via {via}: {err}");
                    continue;
                }
                assert_eq!(
                    err.kind(),
                    ErrorKind::ReadOnly,
                    "{kind}: {op} via {via}: {err}"
                );
            }
            // Reading is allowed either way.
            let mut text = String::new();
            set.open(&p(existing))
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            assert!(!text.is_empty(), "{kind}: read via {via}");
        }
        assert_eq!(tree(fx.t()), before, "{kind}: the tree changed");
    }
}
