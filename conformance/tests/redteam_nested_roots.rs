//! Red team, class 5: no mutation removes, renames or replaces a root of
//! the set, whichever root the path was judged under (the outermost one,
//! for nested roots), on both ends of a rename. Roots are recognised by
//! identity (device and inode), not by path.

#![cfg(target_os = "linux")]

use std::os::unix::fs::MetadataExt;

use mcp_roots::{ErrorKind, Overwrite, RootSet};
use testkit::Fixture;

/// `{T}/a` with `sub/` (empty), `full/f.txt`, `other/` (empty, no root),
/// `x.txt` and a link `ln` to `sub`; `{T}/alias` links to `a/sub`. The
/// roots: `a`, `a/full`, `{T}/alias` (which is `a/sub` by identity), and
/// `{T}/b`.
fn tree() -> (Fixture, RootSet) {
    let fx = Fixture::new().expect("fixture");
    for dir in ["a/sub", "a/full", "a/other", "b"] {
        std::fs::create_dir_all(fx.path(dir)).expect("mkdir");
    }
    std::fs::write(fx.path("a/full/f.txt"), "f").expect("write");
    std::fs::write(fx.path("a/x.txt"), "x").expect("write");
    std::os::unix::fs::symlink("sub", fx.path("a/ln")).expect("symlink");
    std::os::unix::fs::symlink("a/sub", fx.path("alias")).expect("symlink");
    let set = RootSet::from_uris([
        fx.subst("{T}/a"),
        fx.subst("file://{T}/a/full"),
        fx.subst("{T}/alias"),
        fx.subst("{T}/b"),
    ]);
    assert_eq!(set.len(), 4, "{:?}", set.rejected());
    (fx, set)
}

fn identity(fx: &Fixture, rel: &str) -> (u64, u64) {
    let meta = std::fs::symlink_metadata(fx.path(rel)).expect("stat");
    (meta.dev(), meta.ino())
}

#[test]
fn no_mutation_removes_renames_or_replaces_a_root() {
    let (fx, set) = tree();
    let p = |rel: &str| fx.subst(&format!("{{T}}/{rel}"));
    let roots_before = ["a", "a/sub", "a/full", "b"].map(|r| identity(&fx, r));
    let scoped_sub = set.resolve(&p("a/sub")).expect("resolve");
    assert_eq!(scoped_sub.rel(), "sub", "judged under the outer root");
    type Attempt<'a> = (&'a str, Box<dyn Fn() -> Result<(), mcp_roots::Error> + 'a>);
    let attempts: Vec<Attempt<'_>> = vec![
        ("remove_dir a/sub", Box::new(|| set.remove_dir(&p("a/sub")))),
        (
            "remove_dir a/sub/",
            Box::new(|| set.remove_dir(&p("a/sub/"))),
        ),
        (
            "remove_dir a/other/../sub",
            Box::new(|| set.remove_dir(&p("a/other/../sub"))),
        ),
        (
            "remove_dir as a URI",
            Box::new(|| set.remove_dir(&fx.subst("file://{T}/a/%73ub"))),
        ),
        (
            "remove_dir scoped",
            Box::new(|| set.remove_dir(&scoped_sub)),
        ),
        (
            "remove_dir a/ln/.. (the outer root)",
            Box::new(|| set.remove_dir(&p("a/ln/.."))),
        ),
        (
            "remove_dir a/full/.. (the outer root)",
            Box::new(|| set.remove_dir(&p("a/full/.."))),
        ),
        (
            "rename a/sub",
            Box::new(|| set.rename(&p("a/sub"), &p("a/moved"))),
        ),
        (
            "rename a/full/",
            Box::new(|| set.rename(&p("a/full/"), &p("a/moved"))),
        ),
        (
            "rename a/sub into b",
            Box::new(|| set.rename(&p("a/sub"), &p("b/moved"))),
        ),
        (
            "rename onto a/sub, replacing",
            Box::new(|| set.rename_with(&p("a/other"), &p("a/sub"), Overwrite::Replace)),
        ),
        (
            "rename onto a/sub/, replacing",
            Box::new(|| set.rename_with(&p("a/other/"), &p("a/sub/"), Overwrite::Replace)),
        ),
        (
            "rename onto a/sub",
            Box::new(|| set.rename(&p("a/other"), &p("a/sub"))),
        ),
        (
            "rename a file onto a/full, replacing",
            Box::new(|| set.rename_with(&p("a/x.txt"), &p("a/full"), Overwrite::Replace)),
        ),
    ];
    for (what, attempt) in &attempts {
        let before = fx.snapshot();
        let err = attempt().expect_err(what);
        assert_eq!(err.kind(), ErrorKind::OutsideRoots, "{what}: {err}");
        assert_eq!(before.diff(&fx.snapshot()), Vec::<String>::new(), "{what}");
    }
    let roots_after = ["a", "a/sub", "a/full", "b"].map(|r| identity(&fx, r));
    assert_eq!(roots_before, roots_after);

    // What is not a root can still be changed.
    set.remove_file(&p("a/ln"))
        .expect("a link to a root is no root");
    set.rename(&p("a/other"), &p("a/renamed")).expect("rename");
    set.remove_dir(&p("a/renamed")).expect("remove_dir");
    assert!(fx.path("a/sub").is_dir() && !fx.path("a/renamed").exists());
}

#[test]
fn a_file_operation_aimed_at_a_root_changes_nothing() {
    let (fx, set) = tree();
    let p = |rel: &str| fx.subst(&format!("{{T}}/{rel}"));
    let before = fx.snapshot();
    let kinds = [
        set.remove_file(&p("a/sub")),
        set.write_atomic(&p("a/sub"), b"x"),
        set.copy(&p("a/x.txt"), &p("a/sub")).map(drop),
    ]
    .map(|r| r.expect_err("refused").kind());
    assert_eq!(
        kinds,
        [
            // A removal is judged against the roots first.
            ErrorKind::OutsideRoots,
            ErrorKind::NotARegularFile,
            ErrorKind::AlreadyExists
        ]
    );
    assert_eq!(before.diff(&fx.snapshot()), Vec::<String>::new());
}
