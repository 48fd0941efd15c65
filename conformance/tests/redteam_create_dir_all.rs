//! Red team, class 3: `create_dir_all` with a bounded number of descriptors
//! keeps its semantics: each component beneath the root, no symlinked
//! component (even one pointing inside), `..` in the existing part resolved
//! on disk without leaving the root, the missing tail plain names, and a
//! refused call creates nothing. (The descriptor count itself is measured
//! in `redteam_descriptors.rs`.)

#![cfg(target_os = "linux")]

use mcp_roots::{ErrorKind, RootSet};
use testkit::Fixture;

/// `{T}/root` with `a/b/c/`, `a/x.txt`, links `a/in` (to `b`, inside) and
/// `a/b/up` (to `../..`, the root); `{T}/outside/`.
fn tree() -> (Fixture, RootSet) {
    let fx = Fixture::new().expect("fixture");
    std::fs::create_dir_all(fx.path("root/a/b/c")).expect("mkdir");
    std::fs::create_dir_all(fx.path("outside")).expect("mkdir");
    std::fs::write(fx.path("root/a/x.txt"), "x").expect("write");
    std::os::unix::fs::symlink("b", fx.path("root/a/in")).expect("symlink");
    std::os::unix::fs::symlink("../..", fx.path("root/a/b/up")).expect("symlink");
    let set = RootSet::from_uris([fx.subst("{T}/root")]);
    assert_eq!(set.len(), 1);
    (fx, set)
}

#[test]
fn dotdot_in_the_existing_part_goes_back_to_the_directory_passed_through() {
    let (fx, set) = tree();
    for (input, made) in [
        ("a/b/../n1", "a/n1"),
        ("a/b/c/../../n2/n3", "a/n2/n3"),
        ("a/b/c/../../../n4", "n4"),
        ("a/../a/b/../b/c/./n5//n6/", "a/b/c/n5/n6"),
        ("a/b/c/../c/../../b/c/../../../a/n7", "a/n7"),
    ] {
        set.create_dir_all(&fx.subst(&format!("{{T}}/root/{input}")))
            .unwrap_or_else(|e| panic!("{input}: {e}"));
        assert!(fx.path(&format!("root/{made}")).is_dir(), "{input}");
    }
    set.create_dir_all(&fx.subst("{T}/root/a/b"))
        .expect("an existing path");
    set.create_dir_all(&fx.subst("{T}/root/a/.."))
        .expect("the root itself");
    // Deep: 300 existing components down and 299 back up, then a new name.
    set.create_dir_all(&fx.subst(&format!("{{T}}/root/{}", "d/".repeat(300))))
        .expect("300 components");
    let deep = format!("{}{}n8", "d/".repeat(300), "../".repeat(299));
    set.create_dir_all(&fx.subst(&format!("{{T}}/root/{deep}")))
        .expect("deep dotdot");
    assert!(fx.path("root/d/n8").is_dir());
}

#[test]
fn refused_calls_create_nothing() {
    let (fx, set) = tree();
    for (input, want) in [
        // A symlinked component, even one that stays inside.
        ("a/in/new", ErrorKind::NotADirectory),
        ("a/in/../new", ErrorKind::NotADirectory),
        ("a/b/up/a/new", ErrorKind::NotADirectory),
        ("a/b/c/../up/new", ErrorKind::NotADirectory),
        // `..` after a file, and after a missing name.
        ("a/x.txt/../new", ErrorKind::NotADirectory),
        ("a/new/../other", ErrorKind::NotFound),
        ("a/n1/n2/../../n3", ErrorKind::NotFound),
        // Leaving the root, directly or after going down.
        ("..", ErrorKind::OutsideRoots),
        ("a/../../outside/new", ErrorKind::OutsideRoots),
        ("a/b/c/../../../../outside/new", ErrorKind::OutsideRoots),
        // A file in the way.
        ("a/x.txt/new", ErrorKind::NotADirectory),
    ] {
        let before = fx.snapshot();
        let err = set
            .create_dir_all(&fx.subst(&format!("{{T}}/root/{input}")))
            .expect_err(input);
        assert_eq!(err.kind(), want, "{input}: {err}");
        assert_eq!(before.diff(&fx.snapshot()), Vec::<String>::new(), "{input}");
    }
}

#[test]
fn a_long_missing_tail_is_created_in_one_call() {
    let (fx, set) = tree();
    // 400 components: the red team's case failed after 251 under a
    // 256-descriptor limit; here the limit is untouched, the depth alone.
    let tail = "t/".repeat(400);
    set.create_dir_all(&fx.subst(&format!("{{T}}/root/a/{tail}")))
        .expect("400 components");
    assert!(fx.path(&format!("root/a/{tail}")).is_dir());
}
