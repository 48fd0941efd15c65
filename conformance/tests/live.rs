//! Live roots: replacement, the operator ceiling, tracked handles, rescans
//! and root identity, through the public API.

#![cfg(target_os = "linux")]

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};

mod common;

use mcp_roots::{EmptyRoots, Error, ErrorKind, RootSet, Roots, TrackedFile};

/// `T/a` with `x.txt` and `sub/y.txt`, `T/b` with `z.txt`, `T/outside`.
type Tree = common::TempTree;

trait LiveTree {
    fn new() -> Self;
    fn set(&self, rels: &[&str]) -> RootSet;
}

impl LiveTree for Tree {
    fn new() -> Self {
        let files = [("a/x.txt", "x"), ("a/sub/y.txt", "y"), ("b/z.txt", "z")];
        Tree::build(&["a/sub", "b", "outside"], &files)
    }

    fn set(&self, rels: &[&str]) -> RootSet {
        RootSet::from_uris(rels.iter().map(|r| format!("file://{}", self.p(r))))
    }
}

fn read(file: &mut TrackedFile) -> Result<String, ErrorKind> {
    let mut text = String::new();
    match file.read_to_string(&mut text) {
        Ok(_) => Ok(text),
        Err(e) => Err(Error::from_io(&e).expect("our error inside").kind()),
    }
}

#[test]
fn nothing_is_served_before_the_first_answer() {
    let tree = Tree::new();
    let roots = Roots::default();
    assert_eq!(roots.generation(), 0);
    let err = roots.load().open(&tree.p("a/x.txt")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NoRoots);
    roots.replace(tree.set(&["a"]));
    assert_eq!(roots.generation(), 1);
    roots
        .load()
        .open(&tree.p("a/x.txt"))
        .expect("served after the answer");
}

#[test]
fn removing_a_root_revokes_its_handles_and_only_those() {
    let tree = Tree::new();
    let roots = Roots::default();
    roots.replace(tree.set(&["a", "b"]));
    let snapshot = roots.load();
    let mut in_a = snapshot.open(&tree.p("a/x.txt")).expect("open a");
    let mut in_b = snapshot.open(&tree.p("b/z.txt")).expect("open b");
    drop(snapshot);
    assert_eq!(roots.tracked(), 2);

    let report = roots.replace(tree.set(&["b"]));
    assert_eq!(report.generation(), 2);
    assert_eq!(report.revoked().len(), 1);
    assert_eq!(report.revoked()[0].path, "x.txt");
    assert_eq!(report.revoked()[0].reason, ErrorKind::ScopeLost);
    assert_eq!(
        report.kept(),
        0,
        "handles under unchanged roots are not even checked"
    );
    assert_eq!(read(&mut in_a), Err(ErrorKind::ScopeLost));
    assert_eq!(
        in_a.write(b"no")
            .map_err(|e| Error::from_io(&e).unwrap().kind())
            .unwrap_err(),
        ErrorKind::ScopeLost
    );
    assert_eq!(in_a.metadata().unwrap_err().kind(), ErrorKind::ScopeLost);
    assert_eq!(in_a.revoked(), Some(ErrorKind::ScopeLost));
    assert_eq!(read(&mut in_b).as_deref(), Ok("z"));
    assert_eq!(
        roots.load().open(&tree.p("a/x.txt")).unwrap_err().kind(),
        ErrorKind::OutsideRoots
    );
    assert_eq!(roots.tracked(), 1);
    drop(in_b);
    assert_eq!(roots.tracked(), 0, "dropping a handle unregisters it");
}

#[test]
fn narrowing_a_root_keeps_what_stays_inside() {
    let tree = Tree::new();
    let roots = Roots::default();
    roots.replace(tree.set(&["a"]));
    let mut x = roots.load().open(&tree.p("a/x.txt")).expect("open");
    let mut y = roots.load().open(&tree.p("a/sub/y.txt")).expect("open");
    let report = roots.replace(tree.set(&["a/sub"]));
    assert_eq!((report.revoked().len(), report.kept()), (1, 1));
    assert_eq!(read(&mut x), Err(ErrorKind::ScopeLost));
    assert_eq!(read(&mut y).as_deref(), Ok("y"));
    let sub = roots.load().root(0).expect("a root").id();
    assert_eq!(
        y.root(),
        sub,
        "the kept handle is bound to the narrower root"
    );
    assert_eq!(y.path().expect("located").rel(), "y.txt");
}

#[test]
fn a_file_moved_between_roots_stays_in_scope() {
    let tree = Tree::new();
    let roots = Roots::default();
    roots.replace(tree.set(&["a", "b"]));
    let mut moved_in = roots.load().open(&tree.p("a/x.txt")).expect("open");
    let mut moved_out = roots.load().open(&tree.p("a/sub/y.txt")).expect("open");
    std::fs::rename(tree.p("a/x.txt"), tree.p("b/x.txt")).expect("move into b");
    std::fs::rename(tree.p("a/sub/y.txt"), tree.p("outside/y.txt")).expect("move out");
    let report = roots.rescan();
    assert_eq!(
        report.generation(),
        1,
        "a rescan that changes no root keeps the generation"
    );
    assert_eq!((report.revoked().len(), report.kept()), (1, 1));
    assert_eq!(read(&mut moved_in).as_deref(), Ok("x"));
    assert_eq!(
        moved_in.path().expect("located").to_uri(),
        format!("file://{}", tree.p("b/x.txt"))
    );
    assert_eq!(read(&mut moved_out), Err(ErrorKind::ScopeLost));
}

#[test]
fn untracked_files_are_not_revoked() {
    let tree = Tree::new();
    let roots = Roots::default();
    roots.replace(tree.set(&["a"]));
    let file = roots.load().open(&tree.p("a/x.txt")).expect("open");
    let mut plain = file.into_untracked().expect("untracked");
    assert_eq!(roots.tracked(), 0);
    roots.replace(tree.set(&["b"]));
    let mut text = String::new();
    plain
        .read_to_string(&mut text)
        .expect("still readable: the caller took responsibility");
}

#[test]
fn the_ceiling_clips_and_rejects() {
    let tree = Tree::new();
    let roots = Roots::builder().ceiling([tree.p("a")]).build();
    // A client root above the ceiling is clipped to it; one outside is rejected.
    roots.replace(tree.set(&["", "b", "a/sub"]));
    let snapshot = roots.load();
    let rejected: Vec<_> = snapshot
        .rejected()
        .iter()
        .map(|r| (r.uri().to_owned(), r.reason()))
        .collect();
    assert_eq!(
        rejected,
        [(format!("file://{}", tree.p("b")), "outside_ceiling")]
    );
    assert_eq!(snapshot.len(), 2);
    snapshot
        .open(&tree.p("a/x.txt"))
        .expect("inside the ceiling");
    assert_eq!(
        snapshot.open(&tree.p("b/z.txt")).unwrap_err().kind(),
        ErrorKind::OutsideRoots
    );
    assert_eq!(
        snapshot
            .open(&tree.p("outside/../b/z.txt"))
            .unwrap_err()
            .kind(),
        ErrorKind::OutsideRoots
    );
}

#[test]
fn an_empty_answer_follows_the_policy() {
    let tree = Tree::new();
    let deny = Roots::builder().ceiling([tree.p("a")]).build();
    deny.replace(RootSet::from_uris(Vec::<String>::new()));
    assert_eq!(
        deny.load().open(&tree.p("a/x.txt")).unwrap_err().kind(),
        ErrorKind::NoRoots
    );

    let ceiling = Roots::builder()
        .ceiling([tree.p("a")])
        .empty_roots(EmptyRoots::Ceiling)
        .build();
    // A client that shares no folder and never shared one (no capability,
    // or an empty list so far) is served the ceiling.
    ceiling.replace_undeclared();
    ceiling
        .load()
        .open(&tree.p("a/x.txt"))
        .expect("the ceiling is granted");
    ceiling.replace(RootSet::from_uris(Vec::<String>::new()));
    ceiling
        .load()
        .open(&tree.p("a/x.txt"))
        .expect("an empty list before any sharing: the ceiling");
    ceiling.replace(tree.set(&["missing"]));
    assert_eq!(
        ceiling.load().open(&tree.p("a/x.txt")).unwrap_err().kind(),
        ErrorKind::NoRoots,
        "a non-empty answer whose roots are all rejected is not an empty answer"
    );
    ceiling.replace(RootSet::from_uris(Vec::<String>::new()));
    assert_eq!(
        ceiling.load().open(&tree.p("a/x.txt")).unwrap_err().kind(),
        ErrorKind::NoRoots,
        "an empty list after sharing never grants the ceiling"
    );
}

#[test]
fn a_root_moved_away_is_gone_until_the_same_directory_returns() {
    let tree = Tree::new();
    let roots = Roots::default();
    roots.replace(tree.set(&["a", "b"]));
    let mut held = roots.load().open(&tree.p("a/x.txt")).expect("open");
    std::fs::rename(tree.p("a"), tree.p("moved")).expect("move the root away");
    let report = roots.rescan();
    assert_eq!(report.roots_gone().len(), 1);
    assert_eq!(report.generation(), 2, "losing a root installs a new set");
    assert_eq!(read(&mut held), Err(ErrorKind::ScopeLost));
    assert_eq!(
        roots.load().open(&tree.p("a/x.txt")).unwrap_err().kind(),
        ErrorKind::RootGone
    );
    assert!(
        roots
            .load()
            .rejected()
            .iter()
            .any(|r| r.reason() == "root_gone")
    );

    // A new directory at the same path is not the root.
    std::fs::create_dir(tree.p("a")).expect("impostor");
    std::fs::write(tree.p("a/x.txt"), "impostor").expect("write");
    assert!(roots.rescan().roots_back().is_empty());
    assert_eq!(
        roots.load().open(&tree.p("a/x.txt")).unwrap_err().kind(),
        ErrorKind::RootGone
    );

    std::fs::remove_dir_all(tree.p("a")).expect("remove impostor");
    std::fs::rename(tree.p("moved"), tree.p("a")).expect("move back");
    let report = roots.rescan();
    assert_eq!(report.roots_back().len(), 1);
    let mut again = roots
        .load()
        .open(&tree.p("a/x.txt"))
        .expect("the root is back");
    assert_eq!(read(&mut again).as_deref(), Ok("x"));
}

#[test]
fn a_replaced_set_is_verified_at_install() {
    let tree = Tree::new();
    let stale = tree.set(&["a"]);
    std::fs::rename(tree.p("a"), tree.p("moved")).expect("move");
    std::fs::create_dir(tree.p("a")).expect("impostor");
    let roots = Roots::default();
    let report = roots.replace(stale);
    assert_eq!(report.roots_gone().len(), 1);
    assert_eq!(
        roots.load().open(&tree.p("a/x.txt")).unwrap_err().kind(),
        ErrorKind::RootGone
    );
}

/// Opens race against the removal of their root: in each round a thread
/// opens files in root `a` while `a` is removed. An open that began on the
/// old set and registered after the removal's rescan must still end up
/// revoked: after the round no handle into `a` may work.
#[test]
fn no_handle_outlives_its_root_under_concurrent_replaces() {
    const ROUNDS: usize = 300;
    let tree = Tree::new();
    let roots = Roots::default();
    let input = tree.p("a/x.txt");
    let (mut opened, mut survivors) = (0, 0);
    for _ in 0..ROUNDS {
        roots.replace(tree.set(&["a", "b"]));
        let removed = AtomicBool::new(false);
        let mut handles = std::thread::scope(|scope| {
            let opener = scope.spawn(|| {
                let mut handles = Vec::new();
                // Stop only after an open that began after the removal.
                while !removed.load(Ordering::SeqCst) {
                    handles.extend(roots.load().open(input.as_str()).ok());
                }
                handles.extend(roots.load().open(input.as_str()).ok());
                handles
            });
            while roots.tracked() == 0 {
                std::thread::yield_now();
            }
            roots.replace(tree.set(&["b"]));
            removed.store(true, Ordering::SeqCst);
            opener.join().expect("opener")
        });
        opened += handles.len();
        survivors += handles.iter_mut().map(read).filter(Result::is_ok).count();
    }
    eprintln!("{ROUNDS} rounds: {opened} opens into the removed root, {survivors} survived");
    assert!(opened >= ROUNDS);
    assert_eq!(survivors, 0);
}
