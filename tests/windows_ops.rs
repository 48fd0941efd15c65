//! The operations on Windows, through the public API, in Windows forms:
//! directory changes beneath a root (create, remove, rename with and
//! without replacing, atomic writes, copies, walks), resolving to a
//! `ScopedPath` and its `file:///C:/` URI, root identity, the hardening
//! Windows can and cannot give, live roots revoking a tracked file, and
//! what the share mode of a root's handle means for the user's folder.
//!
//! Run under Wine by tools/wine/run-tests.sh.

#![cfg(windows)]

use std::io::Read;
use std::path::PathBuf;

use mcp_roots::{ErrorKind, HardLinks, Overwrite, RootSet, Roots, Symlinks, WalkLimits};

/// `T/root` with `a.txt` and `sub/b.txt`, `T/outside/secret.txt`.
struct Tree {
    _tmp: tempfile::TempDir,
    t: PathBuf,
}

impl Tree {
    fn new() -> Self {
        let tmp = tempfile::tempdir().expect("tempdir");
        let t = tmp.path().to_path_buf();
        std::fs::create_dir_all(t.join(r"root\sub")).unwrap();
        std::fs::create_dir_all(t.join("outside")).unwrap();
        std::fs::write(t.join(r"root\a.txt"), "a").unwrap();
        std::fs::write(t.join(r"root\sub\b.txt"), "b").unwrap();
        std::fs::write(t.join(r"outside\secret.txt"), "secret").unwrap();
        Self { _tmp: tmp, t }
    }

    /// `rel` (with `\`) below `T`, as a native path string.
    fn p(&self, rel: &str) -> String {
        self.t.join(rel).to_str().expect("UTF-8").to_owned()
    }

    fn root(&self) -> RootSet {
        RootSet::from_uris([self.p("root")])
    }

    fn exists(&self, rel: &str) -> bool {
        self.t.join(rel).exists()
    }
}

fn read(set: &RootSet, input: &str) -> Result<String, ErrorKind> {
    let mut text = String::new();
    set.open(input)
        .map_err(|e| e.kind())?
        .read_to_string(&mut text)
        .expect("read");
    Ok(text)
}

#[test]
fn directories_are_made_and_removed_beneath_the_root() {
    let tree = Tree::new();
    let set = tree.root();
    set.create_dir(&tree.p(r"root\new")).unwrap();
    assert!(tree.t.join(r"root\new").is_dir());
    let again = set.create_dir(&tree.p(r"root\new")).unwrap_err();
    assert_eq!(again.kind(), ErrorKind::AlreadyExists);
    set.create_dir_all(&tree.p(r"root\x\y\z")).unwrap();
    assert!(tree.t.join(r"root\x\y\z").is_dir());
    // Forward slashes and a trailing separator are the same directory.
    set.create_dir_all(&format!(
        "{}/",
        tree.p("root").replace('\\', "/") + "/x/y/z"
    ))
    .unwrap();
    let outside = set
        .create_dir(&tree.p(r"root\..\outside\made"))
        .unwrap_err();
    assert_eq!(outside.kind(), ErrorKind::OutsideRoots);
    assert!(!tree.exists(r"outside\made"));
    set.remove_dir(&tree.p(r"root\x\y\z")).unwrap();
    assert!(!tree.exists(r"root\x\y\z"));
    let not_empty = set.remove_dir(&tree.p(r"root\x")).unwrap_err();
    assert_eq!(not_empty.kind(), ErrorKind::Io);
    let a_file = set.remove_dir(&tree.p(r"root\a.txt")).unwrap_err();
    assert_eq!(a_file.kind(), ErrorKind::NotADirectory);
}

#[test]
fn files_are_removed_and_never_the_root() {
    let tree = Tree::new();
    let set = tree.root();
    set.remove_file(&tree.p(r"root\sub\b.txt")).unwrap();
    assert!(!tree.exists(r"root\sub\b.txt"));
    let missing = set.remove_file(&tree.p(r"root\sub\b.txt")).unwrap_err();
    assert_eq!(missing.kind(), ErrorKind::NotFound);
    let a_dir = set.remove_file(&tree.p(r"root\sub")).unwrap_err();
    assert_eq!(a_dir.kind(), ErrorKind::NotARegularFile);
    for the_root in [tree.p("root"), tree.p(r"root\"), tree.p(r"ROOT\sub\..")] {
        let refused = set.remove_dir(&the_root).unwrap_err();
        assert_eq!(refused.kind(), ErrorKind::OutsideRoots, "{the_root}");
    }
    // A nested root is a root whichever root judges the path.
    let nested = RootSet::from_uris([tree.p("root"), tree.p(r"root\sub")]);
    let refused = nested.remove_dir(&tree.p(r"root\SUB")).unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::OutsideRoots);
    assert!(tree.t.join(r"root\sub").is_dir());
    let outside = set.remove_file(&tree.p(r"outside\secret.txt")).unwrap_err();
    assert_eq!(outside.kind(), ErrorKind::OutsideRoots);
    assert!(tree.exists(r"outside\secret.txt"));
}

#[test]
fn renames_refuse_or_replace_an_existing_name() {
    let tree = Tree::new();
    let set = tree.root();
    std::fs::write(tree.t.join(r"root\c.txt"), "c").unwrap();
    let refused = set
        .rename(&tree.p(r"root\a.txt"), &tree.p(r"root\c.txt"))
        .unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::AlreadyExists);
    assert_eq!(read(&set, &tree.p(r"root\c.txt")).as_deref(), Ok("c"));
    set.rename(&tree.p(r"root\a.txt"), &tree.p(r"root\sub\moved.txt"))
        .unwrap();
    assert_eq!(
        read(&set, &tree.p(r"root\sub\moved.txt")).as_deref(),
        Ok("a")
    );
    set.rename_with(
        &tree.p(r"root\sub\moved.txt"),
        &tree.p(r"root\c.txt"),
        Overwrite::Replace,
    )
    .unwrap();
    assert_eq!(read(&set, &tree.p(r"root\c.txt")).as_deref(), Ok("a"));
    let out = set
        .rename(&tree.p(r"root\c.txt"), &tree.p(r"outside\c.txt"))
        .unwrap_err();
    assert_eq!(out.kind(), ErrorKind::OutsideRoots);
    let root = set
        .rename(&tree.p("root"), &tree.p(r"root\sub\r"))
        .unwrap_err();
    assert_eq!(root.kind(), ErrorKind::OutsideRoots);
    // A directory moves with a trailing separator on either end.
    set.rename(&tree.p(r"root\sub\"), &tree.p(r"root\sub2"))
        .unwrap();
    assert!(tree.t.join(r"root\sub2\b.txt").is_file());
}

#[test]
fn atomic_writes_copies_and_walks() {
    let tree = Tree::new();
    let set = tree.root();
    set.write_atomic(&tree.p(r"root\a.txt"), b"new").unwrap();
    assert_eq!(read(&set, &tree.p(r"root\a.txt")).as_deref(), Ok("new"));
    set.write_atomic(&format!("{}/w.txt", tree.p("root")), b"w")
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(tree.t.join(r"root\w.txt")).unwrap(),
        "w"
    );
    let copied = set
        .copy(&tree.p(r"root\sub\b.txt"), &tree.p(r"root\b2.txt"))
        .unwrap();
    assert_eq!(copied, 1);
    let refused = set
        .copy(&tree.p(r"outside\secret.txt"), &tree.p(r"root\s.txt"))
        .unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::OutsideRoots);
    // No temporary file is left beside the targets.
    let mut names: Vec<String> = std::fs::read_dir(tree.t.join("root"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["a.txt", "b2.txt", "sub", "w.txt"]);
    let limits = WalkLimits::new(4, 100);
    let mut walked: Vec<String> = set
        .walk(&tree.p("root"), limits)
        .unwrap()
        .map(|e| e.unwrap().path().rel().to_owned())
        .collect();
    walked.sort();
    assert_eq!(walked, ["a.txt", "b2.txt", "sub", "sub/b.txt", "w.txt"]);
}

#[test]
fn resolving_names_the_place_below_the_root() {
    let tree = Tree::new();
    let set = RootSet::from_uris([format!("file:///{}", tree.p("root").replace('\\', "/"))]);
    assert!(set.rejected().is_empty(), "{:?}", set.rejected());
    let root = set.root(0).unwrap();
    // Shown as Windows spells it; resolved to the directory's final path.
    assert_eq!(root.path(), tree.p("root"));
    let resolved = root.resolved_path().to_str().unwrap().to_owned();
    assert!(resolved.eq_ignore_ascii_case(&tree.p("root")), "{resolved}");
    let scoped = set.resolve(&tree.p(r"root\sub\..\sub\b.txt")).unwrap();
    assert_eq!(scoped.rel(), "sub/b.txt");
    let uri = scoped.to_uri();
    let drive = &tree.p("root")[..1];
    assert!(
        uri.starts_with(&format!("file:///{drive}:/")) && uri.ends_with("/root/sub/b.txt"),
        "{uri}"
    );
    // The URI names the same file again, and so does the ScopedPath.
    assert_eq!(read(&set, &uri).as_deref(), Ok("b"));
    let mut text = String::new();
    set.open(&scoped)
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(text, "b");
    // A missing name resolves through its existing parent.
    let missing = set.resolve(&tree.p(r"root\sub\new\x.txt")).unwrap();
    assert_eq!(missing.rel(), "sub/new/x.txt");
    // A root's own operations take either separator, never a drive.
    assert_eq!(
        root.open(r"sub\b.txt")
            .map(|mut f| {
                let mut s = String::new();
                f.read_to_string(&mut s).unwrap();
                s
            })
            .unwrap(),
        "b"
    );
    for outside in [r"C:\x", r"\x", r"..\outside\secret.txt"] {
        assert_eq!(
            root.open(outside).unwrap_err().kind(),
            ErrorKind::OutsideRoots,
            "{outside}"
        );
    }
    assert_eq!(
        root.open("a.txt.").unwrap_err().kind(),
        ErrorKind::InvalidPath
    );
}

#[test]
fn roots_are_pinned_by_volume_and_file_index() {
    let tree = Tree::new();
    let set = RootSet::from_uris([
        tree.p("root"),
        format!("{}/", tree.p("root").to_uppercase()),
        tree.p(r"root\sub"),
    ]);
    assert_eq!(set.len(), 3, "{:?}", set.rejected());
    let ids: Vec<_> = set.roots().iter().map(|r| r.id()).collect();
    assert_eq!(ids[0], ids[1], "two spellings of one directory");
    assert_ne!(ids[0], ids[2]);
}

#[test]
fn hardening_is_given_or_refused() {
    let tree = Tree::new();
    std::fs::hard_link(tree.t.join(r"root\a.txt"), tree.t.join(r"root\linked.txt")).unwrap();
    let set = RootSet::builder()
        .root(tree.p("root"))
        .hard_links(HardLinks::RefuseWrites)
        .build();
    let write = mcp_roots::OpenOptions::new().write(true);
    let refused = set
        .open_with(&tree.p(r"root\linked.txt"), write)
        .unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::OutsideRoots, "{refused}");
    set.open_with(&tree.p(r"root\sub\b.txt"), write).unwrap();
    // Refusing symlinks during resolution is not available: refused, not
    // run weaker.
    let strict = RootSet::builder()
        .root(tree.p("root"))
        .symlinks(Symlinks::Refuse)
        .build();
    let err = strict.open(&tree.p(r"root\a.txt")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Io, "{err}");
}

#[test]
fn a_removed_root_revokes_its_tracked_files() {
    let tree = Tree::new();
    let roots = Roots::default();
    roots.replace(RootSet::from_uris([tree.p("root"), tree.p("outside")]));
    let mut kept = roots.load().open(&tree.p(r"root\a.txt")).unwrap();
    let mut revoked = roots.load().open(&tree.p(r"outside\secret.txt")).unwrap();
    roots.replace(RootSet::from_uris([tree.p("root")]));
    assert_eq!(revoked.revoked(), Some(ErrorKind::ScopeLost));
    assert!(revoked.read_to_string(&mut String::new()).is_err());
    assert_eq!(kept.revoked(), None);
    let mut text = String::new();
    kept.read_to_string(&mut text).unwrap();
    assert_eq!(text, "a");
    assert_eq!(kept.path().unwrap().rel(), "a.txt");
}

/// The share mode of a root's handle (cap-std's: no `FILE_SHARE_DELETE`):
/// while a set holds the root, the folder cannot be renamed or removed; once
/// the set is dropped it can.
#[test]
fn a_held_root_cannot_be_renamed_until_released() {
    let tree = Tree::new();
    let set = tree.root();
    let moved = tree.t.join("moved");
    let held = std::fs::rename(tree.t.join("root"), &moved);
    let error = held.expect_err("renaming a held root");
    eprintln!("renaming a held root: {error} ({:?})", error.raw_os_error());
    assert!(tree.exists(r"root\a.txt"));
    assert_eq!(read(&set, &tree.p(r"root\a.txt")).as_deref(), Ok("a"));
    drop(set);
    std::fs::rename(tree.t.join("root"), &moved).expect("renaming a released root");
    assert!(moved.join("a.txt").is_file());
}

/// What the share mode does *not* cover: the folder above a root. Windows
/// (NTFS) refuses to rename a directory while a handle below it is open;
/// Wine follows the Unix rename and lets it move. Either way the root's
/// handle keeps naming the same directory, and a root whose path no longer
/// names it is `root_gone` on the next check.
#[test]
fn the_folder_above_a_held_root() {
    let tree = Tree::new();
    let roots = Roots::default();
    roots.replace(RootSet::from_uris([tree.p(r"root\sub")]));
    let parent_moved = std::fs::rename(tree.t.join("root"), tree.t.join("moved"));
    eprintln!("renaming the folder above a held root: {parent_moved:?}");
    let report = roots.rescan();
    let snapshot = roots.load();
    let answer = snapshot.open(&tree.p(r"root\sub\b.txt")).map(|_| ());
    match parent_moved {
        Ok(()) => {
            assert_eq!(report.roots_gone().len(), 1, "{report:?}");
            assert_eq!(answer.unwrap_err().kind(), ErrorKind::RootGone);
        }
        Err(_) => assert!(answer.is_ok()),
    }
}
