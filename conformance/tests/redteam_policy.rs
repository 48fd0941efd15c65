//! The server's policy holds on every set `Roots` hands out: a clipped,
//! relocated, re-listed or request-scoped root is never weaker than the
//! policy; a client root is judged against the ceiling before anything at
//! its path is touched; an empty list shares nothing; an old snapshot
//! cannot act under a root that has left the set.

#![cfg(unix)]

mod common;

use std::os::unix::fs::symlink;

use common::TempTree;
use mcp_roots::{
    EmptyRoots, ErrorKind, HardLinks, MountPoints, OpenOptions, RootSet, Roots, Symlinks,
};

fn kind<T>(result: Result<T, mcp_roots::Error>) -> ErrorKind {
    match result {
        Ok(_) => panic!("expected a refusal"),
        Err(e) => e.kind(),
    }
}

/// `T` with a ceiling `T/ceil` holding `notes/x.md`, a symlink
/// `notes/link.md -> x.md`, a hard link `notes/hl` to `T/outside/secret`,
/// and `T/outside/secret`.
fn tree() -> TempTree {
    let tree = TempTree::build(
        &["ceil/notes", "ceil/other", "outside/dir"],
        &[
            ("ceil/notes/x.md", "x"),
            ("ceil/other/y.md", "y"),
            ("outside/secret", "secret"),
            ("outside/dir/z", "z"),
        ],
    );
    symlink("x.md", tree.p("ceil/notes/link.md")).expect("symlink");
    std::fs::hard_link(tree.p("outside/secret"), tree.p("ceil/notes/hl")).expect("hard link");
    tree
}

/// The ways a client's roots reach a set: installed from URIs, from an
/// already-open set, re-listed (handles reused), request-scoped, and the
/// ceiling served to a client that declares no roots.
#[derive(Clone, Copy, Debug)]
enum Via {
    ReplaceUris,
    ReplaceSet,
    Relisted,
    ScopedList,
    Undeclared,
}

const ALL_VIAS: [Via; 5] = [
    Via::ReplaceUris,
    Via::ReplaceSet,
    Via::Relisted,
    Via::ScopedList,
    Via::Undeclared,
];

/// Runs `check` on the set `roots` serves for a client root `client`
/// (above the ceiling: clipped to it) reached `via`.
fn with_served(roots: &Roots, client: &str, via: Via, check: impl FnOnce(&RootSet)) {
    match via {
        Via::ReplaceUris => {
            roots.replace_uris([client]);
        }
        Via::ReplaceSet => {
            roots.replace(RootSet::from_uris([client]));
        }
        Via::Relisted => {
            roots.replace_uris([client]);
            let first = roots.load().set().roots()[0].id();
            roots.replace_uris([client]);
            assert_eq!(first, roots.load().set().roots()[0].id());
        }
        Via::ScopedList => {
            let set = roots.scoped_list(RootSet::builder().root(client));
            assert!(!set.is_empty(), "{via:?}: {set:?}");
            return check(&set);
        }
        Via::Undeclared => {
            roots.replace_undeclared();
        }
    }
    let snapshot = roots.load();
    assert!(!snapshot.set().is_empty(), "{via:?}: {snapshot:?}");
    check(snapshot.set());
}

fn policy(tree: &TempTree) -> mcp_roots::RootsBuilder {
    Roots::builder()
        .ceiling([tree.p("ceil")])
        .empty_roots(EmptyRoots::Ceiling)
}

#[test]
fn hard_link_refusal_holds_on_every_clipped_set() {
    for via in ALL_VIAS {
        let tree = tree();
        let roots = policy(&tree).hard_links(HardLinks::RefuseWrites).build();
        let truncate = OpenOptions::new().write(true).truncate(true);
        with_served(&roots, &tree.t, via, |set| {
            assert_eq!(
                kind(set.open_with(&tree.p("ceil/notes/hl"), truncate)),
                ErrorKind::OutsideRoots,
                "{via:?}"
            );
            let append = OpenOptions::new().append(true);
            assert_eq!(
                kind(set.open_with(&tree.p("ceil/notes/hl"), append)),
                ErrorKind::OutsideRoots,
                "{via:?}"
            );
            set.open(&tree.p("ceil/notes/hl"))
                .unwrap_or_else(|e| panic!("{via:?}: reads still work: {e}"));
        });
        if !matches!(via, Via::ScopedList) {
            let file = roots.load().open_with(&tree.p("ceil/notes/hl"), truncate);
            assert_eq!(kind(file), ErrorKind::OutsideRoots, "{via:?} (tracked)");
        }
        assert_eq!(
            std::fs::read_to_string(tree.p("outside/secret")).unwrap(),
            "secret",
            "{via:?}: the outside file is untouched"
        );
    }
}

#[test]
fn symlink_refusal_holds_on_every_clipped_set() {
    for via in ALL_VIAS {
        let tree = tree();
        let roots = policy(&tree).symlinks(Symlinks::Refuse).build();
        with_served(&roots, &tree.t, via, |set| {
            assert_eq!(
                kind(set.open(&tree.p("ceil/notes/link.md"))),
                ErrorKind::SymlinkLoop,
                "{via:?}"
            );
            set.open(&tree.p("ceil/notes/x.md"))
                .unwrap_or_else(|e| panic!("{via:?}: plain files open: {e}"));
        });
    }
}

#[test]
fn a_client_set_can_only_tighten_the_policy() {
    // The policy is the default; the client's own set asks for more, and
    // keeps it when it is clipped to the ceiling (the clipped root used to
    // carry the ceiling's defaults).
    let tree = tree();
    let roots = policy(&tree).build();
    let strict = RootSet::builder()
        .root(tree.t.as_str())
        .symlinks(Symlinks::Refuse)
        .hard_links(HardLinks::RefuseWrites);
    roots.replace_list(strict.clone());
    let installed = roots.load();
    let scoped = roots.scoped_list(strict.clone());
    for set in [installed.set(), &scoped] {
        assert_eq!(set.len(), 1, "clipped to the one ceiling directory");
        assert_eq!(
            kind(set.open(&tree.p("ceil/notes/link.md"))),
            ErrorKind::SymlinkLoop
        );
        let write = OpenOptions::new().write(true);
        assert_eq!(
            kind(set.open_with(&tree.p("ceil/notes/hl"), write)),
            ErrorKind::OutsideRoots
        );
    }
    // A set opened by the caller keeps its own hardening too.
    let opened = RootSet::builder()
        .root(tree.p("ceil/notes"))
        .symlinks(Symlinks::Refuse)
        .build();
    roots.replace(opened);
    assert_eq!(
        kind(roots.load().open(&tree.p("ceil/notes/link.md"))),
        ErrorKind::SymlinkLoop
    );
}

#[test]
fn the_policy_raises_a_set_without_a_ceiling() {
    let tree = tree();
    let roots = Roots::builder().symlinks(Symlinks::Refuse).build();
    for install in [
        |roots: &Roots, dir: &str| {
            roots.replace(RootSet::from_uris([dir]));
        },
        |roots: &Roots, dir: &str| {
            roots.replace_uris([dir]);
        },
    ] {
        install(&roots, &tree.p("ceil/notes"));
        assert_eq!(
            kind(roots.load().open(&tree.p("ceil/notes/link.md"))),
            ErrorKind::SymlinkLoop
        );
    }
    let scoped = roots.scoped(RootSet::from_uris([tree.p("ceil/notes")]));
    assert_eq!(
        kind(scoped.open(&tree.p("ceil/notes/link.md"))),
        ErrorKind::SymlinkLoop
    );
}

#[test]
fn a_relocated_root_keeps_its_hardening() {
    let tree = tree();
    let roots = Roots::builder().symlinks(Symlinks::Refuse).build();
    roots.replace_uris([tree.p("ceil/notes")]);
    std::fs::rename(tree.p("ceil/notes"), tree.p("ceil/moved")).unwrap();
    symlink(tree.p("ceil/moved"), tree.p("ceil/notes")).unwrap();
    roots.rescan();
    let snapshot = roots.load();
    assert_eq!(
        snapshot.set().roots()[0].resolved_path(),
        std::path::Path::new(&tree.p("ceil/moved")),
        "relocated"
    );
    assert_eq!(
        kind(snapshot.open(&tree.p("ceil/notes/link.md"))),
        ErrorKind::SymlinkLoop
    );
}

#[test]
fn mount_refusal_holds_on_a_clipped_root() {
    let tree = tree();
    std::fs::create_dir(tree.p("ceil/mnt")).unwrap();
    let mounted = std::process::Command::new("mount")
        .args(["--bind", &tree.p("outside/dir"), &tree.p("ceil/mnt")])
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("skipped: cannot bind-mount here (needs root and mount)");
        return;
    }
    struct Unmount(String);
    impl Drop for Unmount {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount").arg(&self.0).status();
        }
    }
    let _unmount = Unmount(tree.p("ceil/mnt"));
    for via in ALL_VIAS {
        let roots = policy(&tree).mount_points(MountPoints::Refuse).build();
        with_served(&roots, &tree.t, via, |set| {
            assert_eq!(
                kind(set.open(&tree.p("ceil/mnt/z"))),
                ErrorKind::OutsideRoots,
                "{via:?}"
            );
            assert_eq!(
                kind(set.read_dir(&tree.p("ceil/mnt"))),
                ErrorKind::OutsideRoots,
                "{via:?}"
            );
            set.open(&tree.p("ceil/notes/x.md"))
                .unwrap_or_else(|e| panic!("{via:?}: {e}"));
        });
    }
}

/// The reasons a client root gets, by what it names.
fn judged(roots: &Roots, client: &str) -> Result<usize, &'static str> {
    let set = roots.scoped_list(RootSet::builder().root(client));
    match set.rejected() {
        [] => Ok(set.len()),
        [rejected] => Err(rejected.reason()),
        more => panic!("one root listed, {} rejected", more.len()),
    }
}

#[test]
fn a_root_outside_the_ceiling_is_judged_before_the_disk() {
    let tree = tree();
    std::fs::write(tree.p("outside/file"), "f").unwrap();
    symlink("/etc", tree.p("ceil/etc")).unwrap();
    symlink(tree.p("outside"), tree.p("ceil/out")).unwrap();
    let roots = policy(&tree).build();
    // Whatever exists outside, the answer is the same.
    for outside in [
        tree.p("outside"),
        tree.p("outside/file"),
        tree.p("outside/missing"),
        tree.p("outside/missing/deeper"),
        "/etc".to_owned(),
        "/proc/self/root".to_owned(),
        tree.p("ceilx"),
        tree.p("ceil/../outside"),
        format!("file://{}/ceil/%2e%2e/outside", tree.t),
        format!("file://{}/ceil/notes/../../outside/file", tree.t),
    ] {
        assert_eq!(
            judged(&roots, &outside),
            Err("outside_ceiling"),
            "{outside}"
        );
        roots.replace_uris([outside.as_str()]);
        let snapshot = roots.load();
        assert_eq!(snapshot.set().rejected()[0].reason(), "outside_ceiling");
        assert!(snapshot.set().is_empty(), "{outside}");
    }
    // A link inside the ceiling that leads out cannot carry a root out.
    for link in ["ceil/etc", "ceil/out", "ceil/out/dir"] {
        assert_eq!(
            judged(&roots, &tree.p(link)),
            Err("outside_ceiling"),
            "{link}"
        );
    }
    // Inside the ceiling the disk answers.
    assert_eq!(judged(&roots, &tree.p("ceil/notes")), Ok(1));
    assert_eq!(judged(&roots, &tree.p("ceil/missing")), Err("not_found"));
    assert_eq!(
        judged(&roots, &tree.p("ceil/notes/x.md")),
        Err("not_a_directory")
    );
    assert_eq!(judged(&roots, &tree.t), Ok(1), "above: clipped");
    assert_eq!(judged(&roots, "/"), Ok(1), "above: clipped");
}

#[test]
fn a_root_inside_the_ceiling_follows_links_that_stay_inside() {
    let tree = tree();
    symlink("notes", tree.p("ceil/alias")).unwrap();
    let roots = policy(&tree).build();
    roots.replace_uris([tree.p("ceil/alias")]);
    let snapshot = roots.load();
    let root = &snapshot.set().roots()[0];
    assert_eq!(
        root.resolved_path(),
        std::path::Path::new(&tree.p("ceil/notes"))
    );
    snapshot
        .open(&tree.p("ceil/alias/x.md"))
        .expect("through the alias");
    snapshot
        .open(&tree.p("ceil/notes/x.md"))
        .expect("through the resolved path");
    // Under the policy's symlink refusal, the alias itself is refused.
    let strict = policy(&tree).symlinks(Symlinks::Refuse).build();
    assert_eq!(judged(&strict, &tree.p("ceil/alias")), Err("symlink_loop"));
}

#[test]
fn an_empty_list_shares_nothing() {
    let tree = tree();
    let roots = policy(&tree).build();
    roots.replace_uris([tree.p("ceil/notes")]);
    roots
        .load()
        .open(&tree.p("ceil/notes/x.md"))
        .expect("shared");
    // The user removes the last folder: nothing is shared, not the ceiling.
    for empty in [
        |roots: &Roots| {
            roots.replace_uris(Vec::<String>::new());
        },
        |roots: &Roots| {
            roots.replace(RootSet::from_uris(Vec::<String>::new()));
        },
        |roots: &Roots| {
            roots.replace_list(RootSet::builder());
        },
    ] {
        roots.replace_uris([tree.p("ceil/notes")]);
        empty(&roots);
        let snapshot = roots.load();
        for path in ["ceil/notes/x.md", "ceil/other/y.md"] {
            assert_eq!(kind(snapshot.open(&tree.p(path))), ErrorKind::NoRoots);
        }
    }
    let scoped = roots.scoped_list(RootSet::builder());
    assert_eq!(
        kind(scoped.open(&tree.p("ceil/other/y.md"))),
        ErrorKind::NoRoots
    );
    // Nor does the client's saying it has no roots capability now.
    roots.replace_undeclared();
    assert_eq!(
        kind(roots.load().open(&tree.p("ceil/other/y.md"))),
        ErrorKind::NoRoots
    );
    // A client that declares no roots (and so never shared) gets the ceiling.
    let roots = policy(&tree).build();
    roots.replace_undeclared();
    roots
        .load()
        .open(&tree.p("ceil/other/y.md"))
        .expect("the ceiling, whole");
    roots
        .scoped_undeclared()
        .open(&tree.p("ceil/other/y.md"))
        .expect("the ceiling, whole, for one request");
    // Under deny-all, it gets nothing.
    let deny = Roots::builder().ceiling([tree.p("ceil")]).build();
    deny.replace_undeclared();
    assert_eq!(
        kind(deny.load().open(&tree.p("ceil/other/y.md"))),
        ErrorKind::NoRoots
    );
}

#[test]
fn a_removal_never_grants_more() {
    let tree = tree();
    let roots = policy(&tree).build();
    roots.replace_uris([tree.p("ceil/notes"), tree.p("ceil/other")]);
    roots.replace_uris([tree.p("ceil/notes")]);
    let snapshot = roots.load();
    snapshot.open(&tree.p("ceil/notes/x.md")).expect("kept");
    assert_eq!(
        kind(snapshot.open(&tree.p("ceil/other/y.md"))),
        ErrorKind::OutsideRoots
    );
}

#[test]
fn a_root_relocated_out_of_the_ceiling_is_gone() {
    let tree = tree();
    let roots = policy(&tree).build();
    roots.replace_uris([tree.p("ceil/notes")]);
    // Moved out of the ceiling, a symlink left at its path.
    std::fs::rename(tree.p("ceil/notes"), tree.p("outside/notes")).unwrap();
    symlink(tree.p("outside/notes"), tree.p("ceil/notes")).unwrap();
    let report = roots.rescan();
    assert_eq!(report.roots_gone().len(), 1);
    assert_eq!(
        kind(roots.load().open(&tree.p("ceil/notes/x.md"))),
        ErrorKind::RootGone
    );
    // Relocated inside the ceiling, it is served at its new place.
    let tree = self::tree();
    let roots = policy(&tree).build();
    roots.replace_uris([tree.p("ceil/notes")]);
    std::fs::rename(tree.p("ceil/notes"), tree.p("ceil/other/notes")).unwrap();
    symlink("other/notes", tree.p("ceil/notes")).unwrap();
    let report = roots.rescan();
    assert!(report.roots_gone().is_empty());
    roots
        .load()
        .open(&tree.p("ceil/notes/x.md"))
        .expect("relocated inside the ceiling");
    // Without a ceiling a relocation is served wherever it went.
    let tree = self::tree();
    let roots = Roots::builder().build();
    roots.replace_uris([tree.p("ceil/notes")]);
    std::fs::rename(tree.p("ceil/notes"), tree.p("outside/notes")).unwrap();
    symlink(tree.p("outside/notes"), tree.p("ceil/notes")).unwrap();
    assert!(roots.rescan().roots_gone().is_empty());
}

#[test]
fn an_old_snapshot_cannot_act_under_a_removed_root() {
    let tree = tree();
    let roots = Roots::builder().build();
    roots.replace_uris([tree.p("ceil/notes"), tree.p("ceil/other")]);
    let old = roots.load();
    roots.replace_uris([tree.p("ceil/other")]);
    let x = tree.p("ceil/notes/x.md");
    let refusals = [
        ("write_atomic", kind(old.write_atomic(&x, b"new"))),
        ("remove_file", kind(old.remove_file(&x))),
        ("create_dir", kind(old.create_dir(&tree.p("ceil/notes/d")))),
        (
            "create_dir_all",
            kind(old.create_dir_all(&tree.p("ceil/notes/d/e"))),
        ),
        ("rename", kind(old.rename(&x, &tree.p("ceil/notes/y.md")))),
        (
            "rename into a kept root",
            kind(old.rename(&x, &tree.p("ceil/other/x.md"))),
        ),
        ("copy", kind(old.copy(&x, &tree.p("ceil/other/c.md")))),
        ("read_dir", kind(old.read_dir(&tree.p("ceil/notes")))),
        ("metadata", kind(old.metadata(&x))),
        ("open", kind(old.open(&x))),
    ];
    for (op, reason) in refusals {
        assert_eq!(reason, ErrorKind::ScopeLost, "{op}");
    }
    assert_eq!(std::fs::read_to_string(&x).unwrap(), "x", "unchanged");
    assert!(!std::path::Path::new(&tree.p("ceil/notes/d")).exists());
    assert!(!std::path::Path::new(&tree.p("ceil/other/x.md")).exists());
    assert!(!std::path::Path::new(&tree.p("ceil/other/c.md")).exists());
    // Under a root that stayed, the old snapshot still works.
    old.write_atomic(&tree.p("ceil/other/y.md"), b"kept")
        .expect("its root is still installed");
    assert_eq!(
        std::fs::read_to_string(tree.p("ceil/other/y.md")).unwrap(),
        "kept"
    );
}

#[test]
fn a_relist_takes_over_only_roots_as_strict_as_it_asks() {
    let tree = tree();
    let roots = policy(&tree).build();
    let notes = tree.p("ceil/notes");
    roots.replace_uris([notes.as_str()]);
    let first = roots.load().set().roots()[0].clone();
    roots.replace_uris([notes.as_str()]);
    assert!(
        std::sync::Arc::ptr_eq(&first, &roots.load().set().roots()[0]),
        "the same list takes over the installed root"
    );
    roots.replace_list(
        RootSet::builder()
            .root(notes.as_str())
            .symlinks(Symlinks::Refuse),
    );
    let snapshot = roots.load();
    assert!(
        !std::sync::Arc::ptr_eq(&first, &snapshot.set().roots()[0]),
        "a stricter list opens the root again"
    );
    assert_eq!(
        kind(snapshot.open(&tree.p("ceil/notes/link.md"))),
        ErrorKind::SymlinkLoop
    );
}
