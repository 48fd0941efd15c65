//! Red team, class 3: a path refused for its form is `invalid_path` before
//! anything touches the disk, for every operation and every input form: a
//! path the kernel could not take whole (`PATH_MAX`, 4,096 bytes on Linux,
//! with its NUL) or a component longer than `NAME_MAX` (255 bytes). Both
//! resolution paths (openat2 and the portable walk) then answer alike.

#![cfg(target_os = "linux")]

use mcp_roots::{Error, ErrorKind, OpenOptions, Overwrite, RootSet, Roots, WalkLimits};
use testkit::Fixture;

const PATH_MAX: usize = 4096;
const NAME_MAX: usize = 255;

fn tree() -> (Fixture, RootSet) {
    let fx = Fixture::new().expect("fixture");
    std::fs::create_dir_all(fx.path("root/sub")).expect("mkdir");
    std::fs::write(fx.path("root/x.txt"), "x").expect("write");
    let set = RootSet::from_uris([fx.subst("{T}/root")]);
    assert_eq!(set.len(), 1);
    (fx, set)
}

/// Over-long inputs beneath the root, in every input form.
fn over_long(fx: &Fixture) -> Vec<String> {
    let long_name = "n".repeat(NAME_MAX + 1);
    let encoded_name = "%6E".repeat(NAME_MAX + 1);
    vec![
        // The red team's 6,000-byte input.
        fx.subst(&format!("{{T}}/root/{}x.txt", "a/".repeat(3000))),
        // Exactly PATH_MAX bytes.
        {
            let mut path = fx.subst("{T}/root/");
            while path.len() < PATH_MAX {
                path.push_str("./");
            }
            path.truncate(PATH_MAX - 1);
            path.push('x');
            assert_eq!(path.len(), PATH_MAX);
            path
        },
        fx.subst(&format!("{{T}}/root/{long_name}")),
        fx.subst(&format!("{{T}}/root/sub/{long_name}/x.txt")),
        fx.subst(&format!("file://{{T}}/root/{long_name}")),
        // Decoded, the name is too long; raw, every segment is.
        fx.subst(&format!("file://{{T}}/root/sub/{encoded_name}")),
        fx.subst(&format!("file://{{T}}/root/{}x.txt", "a/".repeat(3000))),
    ]
}

/// Every operation on `input` (the other end of a rename or copy is a
/// fresh name or `x.txt`).
fn every_operation(
    set: &RootSet,
    fx: &Fixture,
    input: &str,
) -> Vec<(&'static str, Result<(), Error>)> {
    let x = fx.subst("{T}/root/x.txt");
    let fresh = fx.subst("{T}/root/fresh");
    let limits = WalkLimits::new(4, 100);
    vec![
        ("open", set.open(input).map(drop)),
        ("create_new", set.create_new(input).map(drop)),
        (
            "open_with",
            set.open_with(input, OpenOptions::new().write(true).truncate(true))
                .map(drop),
        ),
        ("read_dir", set.read_dir(input).map(drop)),
        ("metadata", set.metadata(input).map(drop)),
        ("resolve", set.resolve(input).map(drop)),
        ("walk", set.walk(input, limits).map(drop)),
        ("create_dir", set.create_dir(input)),
        ("create_dir_all", set.create_dir_all(input)),
        ("remove_file", set.remove_file(input)),
        ("remove_dir", set.remove_dir(input)),
        ("write_atomic", set.write_atomic(input, b"w")),
        ("copy from", set.copy(input, &fresh).map(drop)),
        ("copy to", set.copy(&x, input).map(drop)),
        ("rename from", set.rename(input, &fresh)),
        ("rename to", set.rename_with(&x, input, Overwrite::Replace)),
    ]
}

#[test]
fn every_operation_refuses_an_over_long_path_before_the_disk() {
    let (fx, set) = tree();
    let before = fx.snapshot();
    for input in over_long(&fx) {
        for (op, result) in every_operation(&set, &fx, &input) {
            let err = result.expect_err(op);
            assert_eq!(
                err.kind(),
                ErrorKind::InvalidPath,
                "{op} {}: {err}",
                input.len()
            );
            assert_eq!(err.input(), input, "the input is kept as given");
        }
        let parsed = mcp_roots::parse_input(&input).expect_err("parse_input");
        assert_eq!(parsed.kind(), ErrorKind::InvalidPath);
        let live = Roots::default();
        live.replace(RootSet::from_uris([fx.subst("{T}/root")]));
        let tracked = live.load().open(&input).expect_err("tracked open");
        assert_eq!(tracked.kind(), ErrorKind::InvalidPath);
    }
    assert_eq!(before.diff(&fx.snapshot()), Vec::<String>::new());
}

#[test]
fn the_limit_is_on_the_path_the_kernel_gets() {
    let (fx, set) = tree();
    // A raw URI longer than PATH_MAX whose decoded path is short is served,
    // and so is a long escaped name that decodes to NAME_MAX bytes.
    let dots = fx.subst(&format!("file://{{T}}/root/{}x.txt", "a/../".repeat(1000)));
    assert!(dots.len() > PATH_MAX);
    set.open(&dots).expect("decoded, the path is short");
    let name = "n".repeat(NAME_MAX);
    std::fs::write(fx.path(&format!("root/{name}")), "n").expect("write");
    let escaped = fx.subst(&format!("file://{{T}}/root/{}", "%6E".repeat(NAME_MAX)));
    set.open(&escaped).expect("a name of NAME_MAX bytes");

    // An existing file whose path is PATH_MAX - 1 bytes opens; the same
    // file named with one more byte does not.
    let mut path = fx.subst("{T}/root/sub/");
    while PATH_MAX - 1 - path.len() > NAME_MAX {
        path.push_str(&"b".repeat(200));
        path.push('/');
    }
    let dir = path.clone();
    path.push_str(&"f".repeat(PATH_MAX - 1 - path.len()));
    assert_eq!(path.len(), PATH_MAX - 1);
    std::fs::create_dir_all(&dir).expect("mkdir -p");
    std::fs::write(&path, "deep").expect("write");
    let text = std::io::read_to_string(set.open(&path).expect("PATH_MAX - 1 bytes"));
    assert_eq!(text.expect("read"), "deep");
    let longer = format!("/{path}");
    let err = set.open(&longer).expect_err("PATH_MAX bytes");
    assert_eq!(err.kind(), ErrorKind::InvalidPath);
}

#[test]
fn a_roots_own_relative_operations_check_the_form_too() {
    let (fx, set) = tree();
    let root = set.root(0).expect("a root");
    let long_name = "n".repeat(NAME_MAX + 1);
    let long_path = "a/".repeat(PATH_MAX / 2);
    let before = fx.snapshot();
    for rel in [long_name.as_str(), long_path.as_str()] {
        let kinds = [
            root.open(rel).map(drop),
            root.create_new(rel).map(drop),
            root.read_dir(rel).map(drop),
            root.metadata(rel).map(drop),
            root.resolve(rel).map(drop),
        ]
        .map(|r| r.expect_err("refused").kind());
        assert_eq!(kinds, [ErrorKind::InvalidPath; 5], "{} bytes", rel.len());
    }
    assert_eq!(before.diff(&fx.snapshot()), Vec::<String>::new());
    root.open("x.txt").expect("a short path opens");
    // As the docs say: an absolute path is no path relative to the root.
    std::fs::create_dir(fx.path("root/etc")).expect("mkdir");
    std::fs::write(fx.path("root/etc/hosts"), "inside").expect("write");
    let absolute = root.open("/etc/hosts").expect_err("absolute");
    assert_eq!(absolute.kind(), ErrorKind::OutsideRoots);
}

#[test]
fn a_root_with_an_over_long_path_grants_nothing() {
    let fx = Fixture::new().expect("fixture");
    let long_name = "n".repeat(NAME_MAX + 1);
    for root in [
        fx.subst(&format!("{{T}}/{long_name}")),
        fx.subst(&format!("file://{{T}}/{}", "%6E".repeat(NAME_MAX + 1))),
        fx.subst(&format!("{{T}}/{}", "./".repeat(PATH_MAX / 2))),
    ] {
        let set = RootSet::from_uris([root.as_str()]);
        assert!(set.is_empty(), "{} bytes", root.len());
        let rejected = &set.rejected()[0];
        assert_eq!(rejected.reason(), "invalid_path");
        assert_eq!(rejected.uri(), root);
    }
}

/// The fuzz target `resolve` found this: the missing tail was created
/// before its over-long last name was refused.
#[test]
fn create_dir_all_with_an_over_long_last_name_creates_nothing() {
    let (fx, set) = tree();
    let before = fx.snapshot();
    for tail in [
        format!("n1/n2/n3/n4/n5/n6/n7/n8/{}", "l".repeat(NAME_MAX + 1)),
        format!("sub/n1/{}/n3", "l".repeat(NAME_MAX + 1)),
        format!("n1/{}", "n/".repeat(PATH_MAX / 2)),
    ] {
        let input = fx.subst(&format!("{{T}}/root/{tail}"));
        let err = set.create_dir_all(&input).expect_err("refused");
        assert_eq!(err.kind(), ErrorKind::InvalidPath);
        assert_eq!(before.diff(&fx.snapshot()), Vec::<String>::new());
    }
}
