//! The file operations beyond open/create/list, each against its own escape
//! cases, plus the opt-in hardening.

#![cfg(target_os = "linux")]

mod common;

use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;

use mcp_roots::{
    ErrorKind, FileType, HardLinks, MountPoints, OpenOptions, Overwrite, RootSet, Roots, Symlinks,
    WalkLimits,
};

/// `T/root` (the root) with `x.txt` and `sub/`, and `T/outside/secret.txt`.
type Tree = common::TempTree;

trait OpsTree {
    fn new() -> Self;
    fn set(&self) -> RootSet;
    fn link(&self, at: &str, target: &str);
    fn outside_names(&self) -> Vec<String>;
}

impl OpsTree for Tree {
    fn new() -> Self {
        let files = [("root/x.txt", "inside"), ("outside/secret.txt", "secret")];
        Tree::build(&["root/sub", "outside", "other"], &files)
    }

    fn set(&self) -> RootSet {
        RootSet::from_uris([self.p("root")])
    }

    fn link(&self, at: &str, target: &str) {
        symlink(target, self.p(at)).expect("symlink");
    }

    fn outside_names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.p("outside"))
            .expect("list")
            .map(|e| e.expect("entry").file_name().into_string().expect("utf-8"))
            .collect();
        names.sort();
        names
    }
}

fn kind<T: std::fmt::Debug>(result: Result<T, mcp_roots::Error>) -> ErrorKind {
    result.expect_err("expected a refusal").kind()
}

#[test]
fn create_dir_and_create_dir_all() {
    let tree = Tree::new();
    let set = tree.set();
    set.create_dir(&tree.p("root/new")).expect("create_dir");
    assert!(Path::new(&tree.p("root/new")).is_dir());
    assert_eq!(
        kind(set.create_dir(&tree.p("root/new"))),
        ErrorKind::AlreadyExists
    );
    assert_eq!(
        kind(set.create_dir(&tree.p("root/missing/new"))),
        ErrorKind::NotFound
    );
    assert_eq!(
        kind(set.create_dir(&tree.p("root/../outside/new"))),
        ErrorKind::OutsideRoots
    );

    set.create_dir_all(&tree.p("root/a/b/c"))
        .expect("create_dir_all");
    assert!(Path::new(&tree.p("root/a/b/c")).is_dir());
    set.create_dir_all(&tree.p("root/a/b/../d/./e/"))
        .expect("'..' in the existing part");
    assert!(Path::new(&tree.p("root/a/d/e")).is_dir());
    // A missing part may not continue with '..': refused, and nothing made.
    assert_eq!(
        kind(set.create_dir_all(&tree.p("root/n1/n2/../x"))),
        ErrorKind::NotFound
    );
    assert!(!Path::new(&tree.p("root/n1")).exists());
    assert_eq!(
        kind(set.create_dir_all(&tree.p("root/a/../../x"))),
        ErrorKind::OutsideRoots
    );
    assert_eq!(
        kind(set.create_dir_all(&tree.p("root/n3/../../x"))),
        ErrorKind::NotFound
    );
    assert!(!Path::new(&tree.p("root/n3")).exists());

    tree.link("root/out", "../outside");
    tree.link("root/in", "sub");
    assert_eq!(
        kind(set.create_dir_all(&tree.p("root/out/new"))),
        ErrorKind::NotADirectory
    );
    assert_eq!(
        kind(set.create_dir_all(&tree.p("root/in/new"))),
        ErrorKind::NotADirectory
    );
    assert_eq!(tree.outside_names(), ["secret.txt"]);
    assert!(!Path::new(&tree.p("root/sub/new")).exists());
}

#[test]
fn remove_file_and_dir() {
    let tree = Tree::new();
    let set = tree.set();
    tree.link("root/out", "../outside/secret.txt");
    set.remove_file(&tree.p("root/out"))
        .expect("removing the link itself");
    assert_eq!(
        tree.outside_names(),
        ["secret.txt"],
        "the link's target stays"
    );
    assert_eq!(
        kind(set.remove_file(&tree.p("root/sub"))),
        ErrorKind::NotARegularFile
    );
    assert_eq!(
        kind(set.remove_file(&tree.p("root/../outside/secret.txt"))),
        ErrorKind::OutsideRoots
    );
    tree.link("root/outdir", "../outside");
    assert_eq!(
        kind(set.remove_file(&tree.p("root/outdir/secret.txt"))),
        ErrorKind::OutsideRoots
    );

    set.remove_dir(&tree.p("root/sub")).expect("remove_dir");
    assert_eq!(
        kind(set.remove_dir(&tree.p("root"))),
        ErrorKind::OutsideRoots
    );
    assert_eq!(
        kind(set.remove_dir(&tree.p("root/"))),
        ErrorKind::OutsideRoots
    );
    assert!(Path::new(&tree.p("root")).is_dir());
}

#[test]
fn rename_refuses_overwrite_and_escapes() {
    let tree = Tree::new();
    let set = tree.set();
    std::fs::write(tree.p("root/y.txt"), "y").expect("write");
    assert_eq!(
        kind(set.rename(&tree.p("root/x.txt"), &tree.p("root/y.txt"))),
        ErrorKind::AlreadyExists
    );
    assert_eq!(
        std::fs::read_to_string(tree.p("root/y.txt")).expect("read"),
        "y"
    );
    set.rename_with(
        &tree.p("root/x.txt"),
        &tree.p("root/y.txt"),
        Overwrite::Replace,
    )
    .expect("replace");
    assert_eq!(
        std::fs::read_to_string(tree.p("root/y.txt")).expect("read"),
        "inside"
    );

    assert_eq!(
        kind(set.rename(&tree.p("root/y.txt"), &tree.p("root/../outside/y.txt"))),
        ErrorKind::OutsideRoots
    );
    tree.link("root/out", "../outside");
    assert_eq!(
        kind(set.rename(&tree.p("root/y.txt"), &tree.p("root/out/y.txt"))),
        ErrorKind::OutsideRoots
    );
    assert_eq!(
        kind(set.rename(&tree.p("root/out/secret.txt"), &tree.p("root/stolen.txt"))),
        ErrorKind::OutsideRoots
    );
    assert_eq!(tree.outside_names(), ["secret.txt"]);

    let two = RootSet::from_uris([tree.p("root"), tree.p("other")]);
    two.rename(&tree.p("root/y.txt"), &tree.p("other/y.txt"))
        .expect("across roots");
    assert!(Path::new(&tree.p("other/y.txt")).is_file());
}

#[test]
fn write_atomic_replaces_keeps_mode_and_refuses_links() {
    let tree = Tree::new();
    let set = tree.set();
    std::fs::set_permissions(tree.p("root/x.txt"), std::fs::Permissions::from_mode(0o640))
        .expect("chmod");
    set.write_atomic(&tree.p("root/x.txt"), b"new content")
        .expect("write_atomic");
    assert_eq!(
        std::fs::read_to_string(tree.p("root/x.txt")).expect("read"),
        "new content"
    );
    let mode = std::fs::metadata(tree.p("root/x.txt"))
        .expect("stat")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o640);
    set.write_atomic(&tree.p("root/fresh.txt"), b"fresh")
        .expect("create");

    tree.link("root/ln", "x.txt");
    assert_eq!(
        kind(set.write_atomic(&tree.p("root/ln"), b"no")),
        ErrorKind::SymlinkLoop
    );
    tree.link("root/out", "../outside");
    assert_eq!(
        kind(set.write_atomic(&tree.p("root/out/secret.txt"), b"no")),
        ErrorKind::OutsideRoots
    );
    assert_eq!(
        kind(set.write_atomic(&tree.p("root/sub"), b"no")),
        ErrorKind::NotARegularFile
    );
    assert_eq!(
        std::fs::read_to_string(tree.p("outside/secret.txt")).expect("read"),
        "secret"
    );
    let leftovers = std::fs::read_dir(tree.p("root"))
        .expect("list")
        .filter(|e| {
            e.as_ref()
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .ends_with(".tmp")
        })
        .count();
    assert_eq!(leftovers, 0, "no temporary file is left behind");
}

#[test]
fn copy_is_confined_and_never_overwrites() {
    let tree = Tree::new();
    let set = tree.set();
    assert_eq!(
        set.copy(&tree.p("root/x.txt"), &tree.p("root/x2.txt"))
            .expect("copy"),
        6
    );
    assert_eq!(
        std::fs::read_to_string(tree.p("root/x2.txt")).expect("read"),
        "inside"
    );
    assert_eq!(
        kind(set.copy(&tree.p("root/x.txt"), &tree.p("root/x2.txt"))),
        ErrorKind::AlreadyExists
    );
    tree.link("root/out", "../outside/secret.txt");
    assert_eq!(
        kind(set.copy(&tree.p("root/out"), &tree.p("root/s.txt"))),
        ErrorKind::OutsideRoots
    );
    assert_eq!(
        kind(set.copy(&tree.p("root/x.txt"), &tree.p("root/../outside/x.txt"))),
        ErrorKind::OutsideRoots
    );
    assert_eq!(tree.outside_names(), ["secret.txt"]);
}

#[test]
fn walk_is_bounded_and_does_not_follow_links() {
    let tree = Tree::new();
    let set = tree.set();
    std::fs::create_dir_all(tree.p("root/sub/deep/deeper")).expect("mkdir");
    std::fs::write(tree.p("root/sub/deep/deeper/z.txt"), "z").expect("write");
    tree.link("root/loop1", "loop2");
    tree.link("root/loop2", "loop1");
    tree.link("root/out", "../outside");
    let all = WalkLimits::new(10, 100);
    let mut seen: Vec<(String, FileType)> = set
        .walk(&tree.p("root"), all)
        .expect("walk")
        .map(|e| e.map(|e| (e.path().to_string(), e.file_type())))
        .collect::<Result<_, _>>()
        .expect("entries");
    seen.sort_by(|a, b| a.0.cmp(&b.0));
    let names: Vec<&str> = seen.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "loop1",
            "loop2",
            "out",
            "sub",
            "sub/deep",
            "sub/deep/deeper",
            "sub/deep/deeper/z.txt",
            "x.txt"
        ]
    );
    assert!(
        seen.iter()
            .any(|(n, t)| n == "out" && *t == FileType::Symlink)
    );

    let shallow = WalkLimits::new(1, 100);
    assert_eq!(set.walk(&tree.p("root"), shallow).expect("walk").count(), 5);
    let few = WalkLimits::new(10, 3);
    let mut walk = set.walk(&tree.p("root"), few).expect("walk");
    assert_eq!(walk.by_ref().count(), 3);
    assert!(walk.is_truncated());
    assert_eq!(
        kind(set.walk(&tree.p("root/out"), all)),
        ErrorKind::OutsideRoots
    );
    assert_eq!(
        kind(set.walk(&tree.p("root/loop1"), all)),
        ErrorKind::SymlinkLoop
    );
    let sub = set
        .walk(&tree.p("root/sub/deep"), all)
        .expect("walk")
        .next();
    assert_eq!(
        sub.expect("an entry").expect("ok").path().rel(),
        "sub/deep/deeper"
    );
}

#[test]
fn scoped_paths_name_files_relative_to_their_root() {
    let tree = Tree::new();
    let set = RootSet::from_uris([format!("file://{}/root/", tree.t)]);
    std::fs::write(tree.p("root/sub/a b#?.md"), "x").expect("write");
    let scoped = set
        .resolve(&tree.p("root/sub/./a b#?.md"))
        .expect("resolve");
    assert_eq!(scoped.to_string(), "sub/a b#?.md");
    assert_eq!(
        scoped.to_uri(),
        format!("file://{}/root/sub/a%20b%23%3F.md", tree.t)
    );
    let back = set
        .open(&scoped.to_uri())
        .expect("the URI opens the same file");
    assert_eq!(std::io::read_to_string(back).expect("read"), "x");
}

#[test]
fn refusing_symlinks() {
    let tree = Tree::new();
    tree.link("root/in", "x.txt");
    let strict = RootSet::builder()
        .root(tree.p("root"))
        .symlinks(Symlinks::Refuse)
        .build();
    assert_eq!(
        kind(strict.open(&tree.p("root/in"))),
        ErrorKind::SymlinkLoop
    );
    strict
        .open(&tree.p("root/x.txt"))
        .expect("plain files still open");
    tree.set()
        .open(&tree.p("root/in"))
        .expect("followed by default");
}

#[test]
fn refusing_writes_to_hard_linked_files() {
    let tree = Tree::new();
    std::fs::hard_link(tree.p("outside/secret.txt"), tree.p("root/hl")).expect("link");
    let strict = RootSet::builder()
        .root(tree.p("root"))
        .hard_links(HardLinks::RefuseWrites)
        .build();
    let truncate = OpenOptions::new().write(true).truncate(true);
    assert_eq!(
        kind(strict.open_with(&tree.p("root/hl"), truncate)),
        ErrorKind::OutsideRoots
    );
    assert_eq!(
        std::fs::read_to_string(tree.p("outside/secret.txt")).expect("read"),
        "secret"
    );
    strict
        .open(&tree.p("root/hl"))
        .expect("reading is still allowed");
    strict
        .open_with(&tree.p("root/x.txt"), truncate)
        .expect("single-link files are writable");
    assert_eq!(
        std::fs::read_to_string(tree.p("root/x.txt")).expect("read"),
        ""
    );
}

#[test]
fn refusing_mount_crossings() {
    let strict = RootSet::builder()
        .root("/")
        .mount_points(MountPoints::Refuse)
        .build();
    assert_eq!(kind(strict.open("/proc/version")), ErrorKind::OutsideRoots);
    RootSet::from_uris(["/"])
        .open("/proc/version")
        .expect("crossing by default");
}

/// `T/root` writable and `T/other` read-only (a read-only ceiling
/// directory), through every way a `Roots` installs or scopes a set.
fn mixed_sets(tree: &Tree) -> Vec<RootSet> {
    std::fs::write(tree.p("other/kept.txt"), "kept").expect("write");
    let (rw, ro) = (tree.p("root"), tree.p("other"));
    let roots = Roots::builder()
        .ceiling([rw.clone()])
        .read_only_ceiling([ro.clone()])
        .build();
    let list = RootSet::builder().root(&rw).root(&ro);
    let request = roots.for_request(Some(list.clone()));
    let scoped = roots.scoped_list(list);
    roots.replace(RootSet::from_uris([&rw, &ro]));
    vec![
        roots.load().set().clone(),
        request.load().set().clone(),
        scoped,
    ]
}

#[test]
fn renames_between_a_writable_and_a_read_only_root_are_refused_both_ways() {
    let tree = Tree::new();
    for set in mixed_sets(&tree) {
        let rows = [
            ("root/x.txt", "other/x.txt", "other/x.txt"),
            ("root/sub", "other/sub", "other/sub"),
            ("other/kept.txt", "root/kept.txt", "other/kept.txt"),
            ("other/kept.txt", "root/sub/kept.txt", "other/kept.txt"),
        ];
        for (from, to, blamed) in rows {
            let before = snapshot(&tree);
            for overwrite in [Overwrite::Refuse, Overwrite::Replace] {
                let err = set
                    .rename_with(&tree.p(from), &tree.p(to), overwrite)
                    .expect_err("refused");
                assert_eq!(err.kind(), ErrorKind::ReadOnly, "{from} -> {to}");
                assert_eq!(err.input(), tree.p(blamed));
            }
            assert_eq!(before, snapshot(&tree), "{from} -> {to} changed the tree");
        }
        set.rename(&tree.p("root/x.txt"), &tree.p("root/y.txt"))
            .expect("the writable root renames");
        set.rename(&tree.p("root/y.txt"), &tree.p("root/x.txt"))
            .expect("and back");
    }
}

#[test]
fn every_mutation_in_a_read_only_root_is_refused_before_the_disk() {
    let tree = Tree::new();
    for set in mixed_sets(&tree) {
        let before = snapshot(&tree);
        let p = |rel: &str| tree.p(rel);
        let write = OpenOptions::new().write(true);
        let refused: [(&str, Result<(), mcp_roots::Error>); 9] = [
            ("create_new", set.create_new(&p("other/new")).map(drop)),
            (
                "open write",
                set.open_with(&p("other/kept.txt"), write).map(drop),
            ),
            ("create_dir", set.create_dir(&p("other/missing/d"))),
            ("create_dir_all", set.create_dir_all(&p("other/a/b"))),
            ("remove_file", set.remove_file(&p("other/kept.txt"))),
            ("remove_dir", set.remove_dir(&p("other/missing"))),
            ("write_atomic", set.write_atomic(&p("other/kept.txt"), b"x")),
            (
                "copy in",
                set.copy(&p("root/x.txt"), &p("other/c")).map(drop),
            ),
            (
                "copy within",
                set.copy(&p("other/kept.txt"), &p("other/c")).map(drop),
            ),
        ];
        for (name, result) in refused {
            assert_eq!(kind(result), ErrorKind::ReadOnly, "{name}");
        }
        assert_eq!(before, snapshot(&tree));
        let copied = set.copy(&p("other/kept.txt"), &p("root/copied.txt"));
        assert_eq!(copied.expect("copy out of the read-only root"), 4);
        std::fs::remove_file(p("root/copied.txt")).expect("clean up");
    }
}

/// Every path below `T` with its content (`None` for a directory).
fn snapshot(tree: &Tree) -> Vec<(String, Option<Vec<u8>>)> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<(String, Option<Vec<u8>>)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("list")
            .map(|e| e.expect("entry").file_name().into_string().expect("utf-8"))
            .collect();
        entries.sort();
        for name in entries {
            let path = dir.join(&name);
            let rel = format!("{rel}/{name}");
            let meta = std::fs::symlink_metadata(&path).expect("lstat");
            if meta.is_dir() {
                out.push((rel.clone(), None));
                walk(&path, &rel, out);
            } else {
                let content = std::fs::read(&path).unwrap_or_default();
                out.push((rel, Some(content)));
            }
        }
    }
    let mut out = Vec::new();
    walk(Path::new(&tree.t), "", &mut out);
    out
}
