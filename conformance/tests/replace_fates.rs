//! What a `replace` does with the handles under a root that left the set:
//! kept under a new root that contains the departed root's
//! directory, revoked when no new root contains it or lies beneath it,
//! located one by one otherwise; never kept because of what a path says.

#![cfg(target_os = "linux")]

use std::io::Read;

mod common;

use mcp_roots::{Error, ErrorKind, RootSet, Roots, TrackedFile};

/// `T/top/a` with `x.txt`, `sub/y.txt` and `sub/deep/w.txt`, `T/b` with
/// `z.txt`, `T/o` outside.
fn tree() -> common::TempTree {
    let files = [
        ("top/a/x.txt", "x"),
        ("top/a/sub/y.txt", "y"),
        ("top/a/sub/deep/w.txt", "w"),
        ("b/z.txt", "z"),
    ];
    common::TempTree::build(&["top/a/sub/deep", "b", "o"], &files)
}

fn set(tree: &common::TempTree, rels: &[&str]) -> RootSet {
    RootSet::from_uris(rels.iter().map(|r| tree.p(r)))
}

fn open(roots: &Roots, tree: &common::TempTree, rel: &str) -> TrackedFile {
    roots.load().open(&tree.p(rel)).expect("open")
}

fn read(file: &mut TrackedFile) -> Result<String, ErrorKind> {
    let mut text = String::new();
    match file.read_to_string(&mut text) {
        Ok(_) => Ok(text),
        Err(e) => Err(Error::from_io(&e).expect("our error inside").kind()),
    }
}

fn root_id(roots: &Roots, i: usize) -> mcp_roots::RootId {
    roots.load().root(i).expect("a root").id()
}

#[test]
fn a_root_replaced_by_its_parent_keeps_its_handles_under_the_parent() {
    let tree = tree();
    let roots = Roots::default();
    roots.replace(set(&tree, &["top/a/sub", "b"]));
    let mut y = open(&roots, &tree, "top/a/sub/y.txt");
    let mut w = open(&roots, &tree, "top/a/sub/deep/w.txt");
    let mut z = open(&roots, &tree, "b/z.txt");

    let report = roots.replace(set(&tree, &["b", "top"]));
    assert_eq!((report.kept(), report.revoked().len()), (2, 0));
    let top = root_id(&roots, 1);
    for (file, rel, text) in [
        (&mut y, "a/sub/y.txt", "y"),
        (&mut w, "a/sub/deep/w.txt", "w"),
    ] {
        assert_eq!(read(file).as_deref(), Ok(text));
        assert_eq!(file.root(), top, "bound to the root that contains it");
        assert_eq!(file.path().expect("located").rel(), rel);
    }
    assert_eq!(read(&mut z).as_deref(), Ok("z"));

    // The moved handles are registered under their new root: removing it
    // revokes them, and dropping handles unregisters them.
    assert_eq!(roots.tracked(), 3);
    let report = roots.replace(set(&tree, &["b"]));
    assert_eq!(report.revoked().len(), 2);
    assert_eq!(read(&mut y), Err(ErrorKind::ScopeLost));
    assert_eq!(roots.tracked(), 1);
    drop((y, w, z));
    assert_eq!(roots.tracked(), 0);
}

#[test]
fn the_outermost_containing_root_takes_the_handles() {
    let tree = tree();
    let roots = Roots::default();
    roots.replace(set(&tree, &["top/a/sub/deep"]));
    let mut w = open(&roots, &tree, "top/a/sub/deep/w.txt");
    let report = roots.replace(set(&tree, &["top/a/sub", "top"]));
    assert_eq!(report.kept(), 1);
    assert_eq!(w.root(), root_id(&roots, 1), "top, not top/a/sub");
    assert_eq!(read(&mut w).as_deref(), Ok("w"));
}

#[test]
fn an_unrelated_removal_revokes_even_files_moved_into_another_root() {
    let tree = tree();
    let roots = Roots::default();
    roots.replace(set(&tree, &["top/a", "b"]));
    let mut x = open(&roots, &tree, "top/a/x.txt");
    let mut y = open(&roots, &tree, "top/a/sub/y.txt");
    let mut z = open(&roots, &tree, "b/z.txt");
    // Moved into root b since its last check: judged with its old root.
    std::fs::rename(tree.p("top/a/sub/y.txt"), tree.p("b/y.txt")).expect("move");

    let report = roots.replace(set(&tree, &["b"]));
    assert_eq!((report.kept(), report.revoked().len()), (0, 2));
    assert!(
        report
            .revoked()
            .iter()
            .all(|r| r.reason == ErrorKind::ScopeLost)
    );
    assert_eq!(read(&mut x), Err(ErrorKind::ScopeLost));
    assert_eq!(read(&mut y), Err(ErrorKind::ScopeLost));
    assert_eq!(read(&mut z).as_deref(), Ok("z"));
    assert_eq!(roots.tracked(), 1);
}

#[test]
fn a_rescan_before_the_replace_keeps_a_file_moved_into_another_root() {
    let tree = tree();
    let roots = Roots::default();
    roots.replace(set(&tree, &["top/a", "b"]));
    let mut y = open(&roots, &tree, "top/a/sub/y.txt");
    std::fs::rename(tree.p("top/a/sub/y.txt"), tree.p("b/y.txt")).expect("move");
    assert_eq!(roots.rescan().kept(), 1);
    assert_eq!(y.root(), root_id(&roots, 1));
    let report = roots.replace(set(&tree, &["b"]));
    assert_eq!(report.revoked().len(), 0);
    assert_eq!(read(&mut y).as_deref(), Ok("y"));
}

#[test]
fn a_new_root_beneath_the_departed_one_keeps_only_what_is_inside_it() {
    let tree = tree();
    let roots = Roots::default();
    roots.replace(set(&tree, &["top/a"]));
    let mut x = open(&roots, &tree, "top/a/x.txt");
    let mut y = open(&roots, &tree, "top/a/sub/y.txt");
    let mut w = open(&roots, &tree, "top/a/sub/deep/w.txt");
    // Moved out of the narrower root but still inside the departed one.
    std::fs::rename(tree.p("top/a/sub/deep/w.txt"), tree.p("top/a/w.txt")).expect("move");

    let report = roots.replace(set(&tree, &["top/a/sub"]));
    assert_eq!((report.kept(), report.revoked().len()), (1, 2));
    assert_eq!(read(&mut x), Err(ErrorKind::ScopeLost));
    assert_eq!(read(&mut w), Err(ErrorKind::ScopeLost));
    assert_eq!(read(&mut y).as_deref(), Ok("y"));
    assert_eq!(y.root(), root_id(&roots, 0));
}

#[test]
fn a_departed_root_replaced_by_a_symlink_into_a_new_root_is_not_kept() {
    let tree = tree();
    let roots = Roots::default();
    roots.replace(set(&tree, &["top/a", "b"]));
    let mut x = open(&roots, &tree, "top/a/x.txt");
    // The root's directory goes outside; its path now leads into root b.
    std::fs::rename(tree.p("top/a"), tree.p("o/a")).expect("move away");
    std::os::unix::fs::symlink(tree.p("b"), tree.p("top/a")).expect("symlink");

    let report = roots.replace(set(&tree, &["b"]));
    assert_eq!(report.revoked().len(), 1);
    assert_eq!(read(&mut x), Err(ErrorKind::ScopeLost));
}

#[test]
fn a_departed_root_moved_into_a_new_root_is_judged_per_handle() {
    let tree = tree();
    let roots = Roots::default();
    roots.replace(set(&tree, &["top/a"]));
    let mut x = open(&roots, &tree, "top/a/x.txt");
    let mut y = open(&roots, &tree, "top/a/sub/y.txt");
    std::fs::rename(tree.p("top/a"), tree.p("b/a")).expect("move into b");
    std::fs::rename(tree.p("b/a/x.txt"), tree.p("o/x.txt")).expect("move out");

    let report = roots.replace(set(&tree, &["b"]));
    assert_eq!((report.kept(), report.revoked().len()), (1, 1));
    assert_eq!(read(&mut x), Err(ErrorKind::ScopeLost));
    assert_eq!(read(&mut y).as_deref(), Ok("y"));
    assert_eq!(y.path().expect("located").rel(), "a/sub/y.txt");
}

/// The root's directory moves outside every new root while a symlink at its
/// path keeps naming it: its path lies inside the new root `top`, its
/// directory does not. Judged by where the directory is: revoked.
#[test]
fn a_departed_root_whose_path_lies_in_a_new_root_but_whose_directory_does_not_is_revoked() {
    let tree = tree();
    let roots = Roots::default();
    roots.replace(set(&tree, &["top/a/sub"]));
    let mut y = open(&roots, &tree, "top/a/sub/y.txt");
    std::fs::rename(tree.p("top/a/sub"), tree.p("o/sub")).expect("move away");
    std::os::unix::fs::symlink(tree.p("o/sub"), tree.p("top/a/sub")).expect("symlink");

    let report = roots.replace(set(&tree, &["top"]));
    assert_eq!(report.revoked().len(), 1);
    assert_eq!(read(&mut y), Err(ErrorKind::ScopeLost));
}

/// The documented trade: a file moved out of every root since its last
/// check is kept when its root's directory lies in a new root, as it would
/// be had its root stayed in the set; a rescan revokes it.
#[test]
fn a_kept_bucket_is_not_located_until_the_next_rescan() {
    let tree = tree();
    let roots = Roots::default();
    roots.replace(set(&tree, &["top/a/sub"]));
    let mut y = open(&roots, &tree, "top/a/sub/y.txt");
    std::fs::rename(tree.p("top/a/sub/y.txt"), tree.p("o/y.txt")).expect("move out");
    let report = roots.replace(set(&tree, &["top/a"]));
    assert_eq!((report.kept(), report.revoked().len()), (1, 0));
    assert_eq!(read(&mut y).as_deref(), Ok("y"));
    assert_eq!(roots.rescan().revoked().len(), 1);
    assert_eq!(read(&mut y), Err(ErrorKind::ScopeLost));
}

/// `replace_uris` takes over the installed roots' handles only while their
/// paths still name the pinned directories: an impostor at a root's path is
/// opened afresh, exactly as `replace(RootSet::from_uris(..))` would.
#[test]
fn replace_uris_reuses_only_roots_whose_path_still_names_them() {
    let tree = tree();
    let roots = Roots::default();
    let (a, b) = (tree.p("top/a"), tree.p("b"));
    roots.replace_uris([a.as_str(), b.as_str()]);
    let first = root_id(&roots, 0);
    let mut x = open(&roots, &tree, "top/a/x.txt");

    let report = roots.replace_uris([a.as_str(), b.as_str()]);
    assert_eq!((report.kept(), report.revoked().len()), (0, 0));
    assert_eq!(root_id(&roots, 0), first);
    assert_eq!(read(&mut x).as_deref(), Ok("x"));

    std::fs::rename(&a, tree.p("o/a")).expect("move the root away");
    std::fs::create_dir(&a).expect("impostor");
    std::fs::write(tree.p("top/a/x.txt"), "impostor").expect("write");
    let report = roots.replace_uris([a.as_str(), b.as_str()]);
    assert_ne!(root_id(&roots, 0), first, "the impostor is a new root");
    assert_eq!(
        report.revoked().len(),
        1,
        "the old root's handle lies outside"
    );
    assert_eq!(read(&mut x), Err(ErrorKind::ScopeLost));
    let mut again = open(&roots, &tree, "top/a/x.txt");
    assert_eq!(read(&mut again).as_deref(), Ok("impostor"));
}

#[test]
fn build_reusing_gives_the_set_build_gives() {
    let tree = tree();
    let current = RootSet::builder()
        .named_root("a", tree.p("top/a"))
        .root(tree.p("b"))
        .build();
    let again = RootSet::builder()
        .named_root("notes", tree.p("top/a"))
        .root(tree.p("missing"))
        .root(tree.p("b"))
        .build_reusing(&current);
    let fresh = RootSet::builder()
        .named_root("notes", tree.p("top/a"))
        .root(tree.p("missing"))
        .root(tree.p("b"))
        .build();
    let view = |set: &RootSet| {
        let roots: Vec<_> = set
            .roots()
            .iter()
            .map(|r| (r.id(), r.name().map(str::to_owned), r.uri().to_owned()))
            .collect();
        let rejected: Vec<_> = set
            .rejected()
            .iter()
            .map(|r| (r.uri().to_owned(), r.reason()))
            .collect();
        (roots, rejected)
    };
    assert_eq!(view(&again), view(&fresh));
    assert!(again.root_named("notes").is_ok());
    assert!(again.root_named("a").is_err());
    assert!(again.open(&tree.p("top/a/x.txt")).is_ok());
}

/// Handles opened on several threads (the registry keeps one shard per
/// thread) are all found by a replace, and dropped from any thread.
#[test]
fn handles_opened_on_many_threads_are_all_settled() {
    let tree = tree();
    let roots = Roots::default();
    roots.replace(set(&tree, &["top/a/sub", "b"]));
    let open_many = |rel: &str| -> Vec<TrackedFile> {
        std::thread::scope(|s| {
            let workers: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        (0..25)
                            .map(|_| open(&roots, &tree, rel))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().expect("opener"))
                .collect()
        })
    };
    let mut kept = open_many("top/a/sub/y.txt");
    let mut revoked = open_many("b/z.txt");
    assert_eq!(roots.tracked(), 200);

    let report = roots.replace(set(&tree, &["top/a"]));
    assert_eq!((report.kept(), report.revoked().len()), (100, 100));
    assert!(kept.iter_mut().all(|f| read(f).as_deref() == Ok("y")));
    assert!(
        revoked
            .iter_mut()
            .all(|f| read(f) == Err(ErrorKind::ScopeLost))
    );
    assert_eq!(roots.tracked(), 100);

    std::thread::spawn(move || drop(kept))
        .join()
        .expect("dropper");
    assert_eq!(roots.tracked(), 0);
}
