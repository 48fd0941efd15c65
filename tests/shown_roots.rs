//! The path a root is shown by, and every URI built below it, names the
//! directory the kernel opened: a raw path given with a `..` after a
//! symlink is shown by its physical path, not cleaned lexically into
//! another directory. Every set kind: a plain set, a root beneath a
//! ceiling directory, a root clipped to one, a root taken over by a later
//! set.

#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use mcp_roots::{RootSet, Roots};

/// `T/x/y/` (a directory), `T/l -> x/y`, `T/l2 -> l` (a chain),
/// `T/deep -> x/y/z`, and a file `f.txt` that says where it is in
/// `T/x/b`, `T/b`, `T/x/y/c`, `T/x/y/z/w` and in `T/w` (which is where
/// cleaning `T/deep/../../w` lexically would land inside `T`).
struct Tree {
    _tmp: tempfile::TempDir,
    /// The temp dir as given (it may sit behind a symlink, as on macOS).
    t: PathBuf,
    /// Its physical path.
    real: PathBuf,
}

fn tree() -> Tree {
    let tmp = tempfile::tempdir().expect("tempdir");
    let t = tmp.path().to_path_buf();
    for dir in ["x/y/c", "x/y/z/w", "x/b", "b", "w"] {
        std::fs::create_dir_all(t.join(dir)).unwrap();
        std::fs::write(t.join(dir).join("f.txt"), dir).unwrap();
    }
    symlink("x/y", t.join("l")).unwrap();
    symlink("l", t.join("l2")).unwrap();
    symlink("x/y/z", t.join("deep")).unwrap();
    let real = t.canonicalize().unwrap();
    Tree { _tmp: tmp, t, real }
}

fn s(path: &Path) -> String {
    path.to_str().expect("UTF-8 temp dir").to_owned()
}

/// The file a root's URIs name: resolves `f.txt` below root 0 of `set`,
/// builds its URI, and reads what the URI names through a set whose only
/// root is `/`; also checks that `root.path()` starts the URI.
fn named_by_uri(set: &RootSet) -> (String, String) {
    let root = set.root(0).expect("an accepted root");
    let scoped = set
        .resolve(&format!("{}/f.txt", root.path()))
        .expect("resolve");
    let uri = scoped.to_uri();
    let everything = RootSet::from_uris(["/"]);
    let text = everything
        .read_to_string(&uri)
        .expect("the URI names a file");
    (root.path().to_owned(), text)
}

#[test]
fn a_dotdot_after_a_symlink_is_shown_by_the_physical_path() {
    let tr = tree();
    let rows = [
        // `..` after a directory symlink: the kernel is in `x/y`, `..` is `x`.
        ("l/../b", "x/b"),
        // after a chain of links
        ("l2/../b", "x/b"),
        // several `..`: `deep` is `x/y/z`, two `..` are `x`.
        ("deep/../../b", "x/b"),
        // one more: the kernel is at `T` itself; lexically, above it.
        ("deep/../../../w", "w"),
        // `..` after a plain directory: the cleaned form names it too.
        ("x/../b", "b"),
        ("x/y/../b", "x/b"),
        // a `..` between plain directories, deeper down.
        ("x/y/c/../z/w", "x/y/z/w"),
    ];
    for (given, lands) in rows {
        let path = s(&tr.t.join(given));
        let set = RootSet::from_uris([path.clone()]);
        assert!(set.rejected().is_empty(), "{given}: {:?}", set.rejected());
        let (shown, text) = named_by_uri(&set);
        assert_eq!(text, lands, "{given}: shown as {shown}");
        let root = set.root(0).unwrap();
        assert_eq!(root.resolved_path(), tr.real.join(lands), "{given}");
        // Its physical path finds it (a path spelled with the `..` does
        // not: a root is never matched through `..`).
        let physical = s(&tr.real.join(lands).join("f.txt"));
        assert_eq!(set.read_to_string(&physical).as_deref().ok(), Some(lands));
    }
}

#[test]
fn the_cleaned_form_is_kept_when_it_names_the_directory() {
    let tr = tree();
    let set = RootSet::from_uris([s(&tr.t.join("x/../b"))]);
    assert_eq!(set.root(0).unwrap().path(), s(&tr.t.join("b")));
    let set = RootSet::from_uris([s(&tr.t.join("l/../b"))]);
    assert_eq!(set.root(0).unwrap().path(), s(&tr.real.join("x/b")));
}

#[test]
fn a_root_given_through_a_symlink_keeps_its_form() {
    let tr = tree();
    for (given, lands) in [
        ("l/c", "x/y/c"),
        ("l2/z/w", "x/y/z/w"),
        ("./l//c/.", "x/y/c"),
    ] {
        let set = RootSet::from_uris([s(&tr.t.join(given))]);
        let (shown, text) = named_by_uri(&set);
        assert_eq!(text, lands, "{given}");
        let expected = given.trim_start_matches("./").replace("//", "/");
        let expected = expected.trim_end_matches("/.");
        assert_eq!(shown, s(&tr.t.join(expected)), "{given}");
    }
}

#[test]
fn a_uri_root_has_its_dot_segments_removed_as_text() {
    // In a URI, `..` is text (RFC 3986): `file://T/l/../b` is `T/b`, the
    // directory it names, so the URIs below it name `T/b`'s files.
    let tr = tree();
    let set = RootSet::from_uris([format!("file://{}", s(&tr.t.join("l/../b")))]);
    let (shown, text) = named_by_uri(&set);
    assert_eq!((shown, text.as_str()), (s(&tr.t.join("b")), "b"));
}

#[test]
fn beneath_a_ceiling_the_same_holds() {
    let tr = tree();
    let roots = Roots::builder().ceiling([s(&tr.t)]).build();
    for (given, lands) in [("l/../b", "x/b"), ("deep/../../b", "x/b"), ("x/../b", "b")] {
        roots.replace(RootSet::from_uris([s(&tr.t.join(given))]));
        let snap = roots.load();
        assert!(snap.rejected().is_empty(), "{given}: {:?}", snap.rejected());
        let (shown, text) = named_by_uri(snap.set());
        assert_eq!(text, lands, "{given}: shown as {shown}");
    }
    // A cleaning that climbs above the ceiling directory is not looked at
    // outside it: the root is shown by its physical path.
    roots.replace(RootSet::from_uris([s(&tr.t.join("deep/../../../w"))]));
    let (shown, text) = named_by_uri(roots.load().set());
    assert_eq!((shown, text.as_str()), (s(&tr.real.join("w")), "w"));
}

#[test]
fn a_root_clipped_to_a_ceiling_directory_is_shown_as_that_directory() {
    let tr = tree();
    let roots = Roots::builder().ceiling([s(&tr.t.join("l/../b"))]).build();
    roots.replace(RootSet::from_uris([s(&tr.t)]));
    let snap = roots.load();
    let (shown, text) = named_by_uri(snap.set());
    assert_eq!((shown, text.as_str()), (s(&tr.real.join("x/b")), "x/b"));
}

#[test]
fn a_root_taken_over_by_a_later_set_is_shown_where_it_is_now() {
    let tr = tree();
    let given = s(&tr.t.join("l/../b"));
    let old = RootSet::from_uris([given.clone()]);
    assert_eq!(old.root(0).unwrap().path(), s(&tr.real.join("x/b")));
    // `x` moves to `x2` and the link follows: the root's path still names
    // its directory, which now lies at `x2/b`.
    std::fs::rename(tr.t.join("x"), tr.t.join("x2")).unwrap();
    std::fs::remove_file(tr.t.join("l")).unwrap();
    symlink("x2/y", tr.t.join("l")).unwrap();
    let new = RootSet::builder().root(given.clone()).build_reusing(&old);
    assert_eq!(new.root(0).unwrap().id(), old.root(0).unwrap().id());
    let (shown, text) = named_by_uri(&new);
    assert_eq!((shown, text.as_str()), (s(&tr.real.join("x2/b")), "x/b"));

    // A root shown cleaned whose cleaned form stops naming it: `a/../b2`
    // with `a` a directory is `b2`; once `b2` has moved to `x2/b2` and `a`
    // has become a link into `x2`, the cleaned form names nothing.
    std::fs::create_dir_all(tr.t.join("a")).unwrap();
    std::fs::create_dir_all(tr.t.join("b2")).unwrap();
    std::fs::write(tr.t.join("b2/f.txt"), "b2").unwrap();
    let given = s(&tr.t.join("a/../b2"));
    let old = RootSet::from_uris([given.clone()]);
    assert_eq!(old.root(0).unwrap().path(), s(&tr.t.join("b2")));
    std::fs::create_dir_all(tr.t.join("x2/a")).unwrap();
    std::fs::rename(tr.t.join("b2"), tr.t.join("x2/b2")).unwrap();
    std::fs::remove_dir(tr.t.join("a")).unwrap();
    symlink("x2/a", tr.t.join("a")).unwrap();
    let new = RootSet::builder().root(given).build_reusing(&old);
    assert_eq!(new.root(0).unwrap().id(), old.root(0).unwrap().id());
    let (shown, text) = named_by_uri(&new);
    assert_eq!((shown, text.as_str()), (s(&tr.real.join("x2/b2")), "b2"));
}

#[test]
fn a_tracked_file_names_the_file_it_opened() {
    let tr = tree();
    let roots = Roots::builder().build();
    roots.replace(RootSet::from_uris([s(&tr.t.join("l/../b"))]));
    let snap = roots.load();
    let file = snap.open(&s(&tr.real.join("x/b/f.txt"))).expect("open");
    let uri = file.path().expect("still in scope").to_uri();
    let text = RootSet::from_uris(["/"]).read_to_string(&uri).unwrap();
    assert_eq!(text, "x/b");
}
