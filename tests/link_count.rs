//! `link_count` (and its `Snapshot` twin): every name of a file counted,
//! through a link beneath the root, and the open's rules: nothing outside
//! is counted, a hidden name is `hidden`. On Windows it is what the
//! standard library's metadata cannot give (run under Wine there by
//! tools/wine/run-tests.sh).

use std::path::{Path, PathBuf};

use mcp_roots::{ErrorKind, Patterns, RootSet, Roots};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8")
}

/// The temporary directory as roots name it: physical on Unix (it may be
/// behind a link); as given on Windows, where `canonicalize` answers the
/// verbatim `\\?\` form.
fn base(tmp: &tempfile::TempDir) -> PathBuf {
    if cfg!(windows) {
        tmp.path().to_path_buf()
    } else {
        tmp.path().canonicalize().expect("canonical")
    }
}

#[test]
fn every_name_is_counted_and_nothing_outside() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let top = base(&tmp);
    let root = top.join("root");
    std::fs::create_dir(&root).expect("mkdir");
    std::fs::write(root.join("one.txt"), "1").expect("write");
    std::fs::write(root.join("three.txt"), "3").expect("write");
    std::fs::hard_link(root.join("three.txt"), root.join("three-b.txt")).expect("link");
    std::fs::hard_link(root.join("three.txt"), root.join("three-c.txt")).expect("link");
    std::fs::write(top.join("outside.txt"), "o").expect("write");
    std::fs::hard_link(top.join("outside.txt"), top.join("outside-b.txt")).expect("link");
    std::fs::write(root.join("secret.key"), "k").expect("write");
    let set = RootSet::builder()
        .root(s(&root))
        .hide(Patterns::parse(["*.key"]).expect("pattern"))
        .build();
    assert_eq!(set.link_count(s(&root.join("one.txt"))).expect("count"), 1);
    for name in ["three.txt", "three-b.txt", "three-c.txt"] {
        assert_eq!(
            set.link_count(s(&root.join(name))).expect("count"),
            3,
            "{name}"
        );
    }
    let outside = set
        .link_count(s(&top.join("outside.txt")))
        .expect_err("outside");
    assert_eq!(outside.kind(), ErrorKind::OutsideRoots);
    let hidden = set
        .link_count(s(&root.join("secret.key")))
        .expect_err("hidden");
    assert_eq!(hidden.kind(), ErrorKind::Hidden);
    let missing = set
        .link_count(s(&root.join("none.txt")))
        .expect_err("missing");
    assert_eq!(missing.kind(), ErrorKind::NotFound);

    let roots = Roots::default();
    roots.replace_uris([s(&root)]);
    assert_eq!(
        roots
            .load()
            .link_count(s(&root.join("three-b.txt")))
            .expect("count"),
        3
    );
}

/// Through a symlink beneath the root the count is the target's; a link
/// leading outside is refused, never counted.
#[cfg(unix)]
#[test]
fn a_link_is_followed_beneath_the_root_only() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let top = base(&tmp);
    let root = top.join("root");
    std::fs::create_dir(&root).expect("mkdir");
    std::fs::write(root.join("two.txt"), "2").expect("write");
    std::fs::hard_link(root.join("two.txt"), root.join("two-b.txt")).expect("link");
    std::fs::write(top.join("outside.txt"), "o").expect("write");
    std::os::unix::fs::symlink("two.txt", root.join("to_two")).expect("symlink");
    std::os::unix::fs::symlink("../outside.txt", root.join("to_out")).expect("symlink");
    let set = RootSet::from_uris([s(&root)]);
    assert_eq!(set.link_count(s(&root.join("to_two"))).expect("count"), 2);
    let out = set
        .link_count(s(&root.join("to_out")))
        .expect_err("outside");
    assert_eq!(out.kind(), ErrorKind::OutsideRoots);
}
