//! A refusal from the disk is judged as if the path existed: when the
//! resolution went through a symlink or a `..`, the deepest existing
//! ancestor's physical path joined with the remaining names as given is
//! judged, so a missing name in a hidden part answers `hidden` as an
//! existing one does, for reads, stats, listings and the parents of
//! changes. Run through `tools/no-openat2` too (the portable resolution).

#![cfg(unix)]

use std::os::unix::fs::symlink;

use mcp_roots::{EmptyRoots, Error, Patterns, RootSet, Roots};
use testkit::Fixture;

/// `T/r` with `docs/`, `secrets/` (hidden by `/secrets/`), a link
/// `links/to_docs -> ../docs`, `lnkdir -> secrets`, and a loop inside
/// `secrets`.
fn tree() -> Fixture {
    let fx = Fixture::new().expect("fixture");
    for dir in ["r/docs", "r/secrets/sub", "r/links", "r/inner/secrets"] {
        std::fs::create_dir_all(fx.path(dir)).expect("mkdir");
    }
    for file in [
        "r/docs/d.txt",
        "r/secrets/real.txt",
        "r/inner/secrets/k.txt",
    ] {
        std::fs::write(fx.path(file), file).expect("write");
    }
    symlink("../docs", fx.path("r/links/to_docs")).expect("symlink");
    symlink("secrets", fx.path("r/lnkdir")).expect("symlink");
    symlink("loop", fx.path("r/secrets/loop")).expect("symlink");
    symlink("d.txt", fx.path("r/docs/file_link")).expect("symlink");
    fx
}

fn reason<T>(result: Result<T, Error>) -> &'static str {
    match result {
        Ok(_) => "ok",
        Err(e) => e.reason(),
    }
}

fn sets(fx: &Fixture) -> Vec<(&'static str, RootSet)> {
    let hide = || Patterns::parse(["/secrets/"]).expect("patterns");
    let r = fx.subst("{T}/r");
    let own = RootSet::builder().root(&r).hide(hide()).build();
    let policy = Roots::builder().hide(hide()).build();
    policy.replace_uris([r.clone()]);
    let whole = Roots::builder()
        .ceiling([r.clone()])
        .hide(hide())
        .empty_roots(EmptyRoots::Ceiling)
        .build();
    whole.replace_undeclared();
    // `r/inner` served too: its `/secrets/` is judged under `r`.
    let nested = Roots::builder().hide(hide()).build();
    nested.replace_uris([r.clone(), fx.subst("{T}/r/inner")]);
    vec![
        ("own", own),
        ("policy", policy.load().set().clone()),
        ("ceiling whole", whole.load().set().clone()),
        ("nested", nested.load().set().clone()),
    ]
}

/// Inputs in a hidden part, missing or not, each reached through a link
/// or a `..`.
const HIDDEN: &[&str] = &[
    "links/to_docs/../secrets/real.txt",
    "links/to_docs/../secrets/missing.txt",
    "links/to_docs/../secrets/nodir/missing.txt",
    "links/to_docs/../secrets/real.txt/x",
    "links/to_docs/../secrets/loop/x",
    "links/to_docs/../nothing/../secrets/missing.txt",
    "lnkdir/missing.txt",
    "lnkdir/sub/missing/deeper",
    "lnkdir/real.txt/x",
    "docs/../lnkdir/missing.txt",
];

/// The same shapes where nothing is hidden: the disk's answer stands.
const NOT_HIDDEN: &[(&str, &str)] = &[
    ("links/to_docs/../docs/missing.txt", "not_found"),
    ("links/to_docs/missing.txt", "not_found"),
    ("links/to_docs/d.txt/x", "not_a_directory"),
    ("docs/file_link/x", "not_a_directory"),
    ("links/to_docs/../nothing/missing.txt", "not_found"),
];

#[test]
fn a_refusal_reached_through_a_link_or_dot_dot_is_judged_as_if_it_existed() {
    let fx = tree();
    for (kind, set) in sets(&fx) {
        for rel in HIDDEN {
            // A URI's dot segments are removed as text (semantics 2): the
            // URI spelling is given to the rows without `..`.
            let mut inputs = vec![fx.subst(&format!("{{T}}/r/{rel}"))];
            if !rel.contains("..") {
                let encoded = rel.replace("lnkdir", "%6Cnkdir");
                inputs.push(fx.subst(&format!("file://{{T}}/r/{encoded}")));
            }
            for input in inputs {
                let i = input.as_str();
                assert_eq!(reason(set.read(i)), "hidden", "{kind}: read {i}");
                assert_eq!(reason(set.metadata(i)), "hidden", "{kind}: stat {i}");
                assert_eq!(reason(set.read_dir(i)), "hidden", "{kind}: list {i}");
                let child = format!("{i}/new.txt");
                let write = set.write_atomic(child.as_str(), b"x");
                assert_eq!(reason(write), "hidden", "{kind}: write {child}");
                let made = set.create_dir(child.as_str());
                assert_eq!(reason(made), "hidden", "{kind}: mkdir {child}");
            }
        }
        for (rel, want) in NOT_HIDDEN {
            let input = fx.subst(&format!("{{T}}/r/{rel}"));
            assert_eq!(reason(set.read(input.as_str())), *want, "{kind}: {input}");
            assert_eq!(
                reason(set.metadata(input.as_str())),
                *want,
                "{kind}: {input}"
            );
        }
        let missing = fx.subst("{T}/r/docs/missing.txt");
        assert_eq!(reason(set.read(missing.as_str())), "not_found", "{kind}");
    }
    assert!(!fx.path("r/secrets/nodir").exists());
}

#[test]
fn an_inner_served_directorys_hidden_part_is_judged_the_same_way() {
    let fx = tree();
    let (_, set) = sets(&fx).pop().expect("nested");
    for rel in [
        "links/to_docs/../inner/secrets/missing.txt",
        "links/to_docs/../inner/secrets/k.txt",
        "inner/secrets/missing.txt",
    ] {
        let input = fx.subst(&format!("{{T}}/r/{rel}"));
        assert_eq!(reason(set.read(input.as_str())), "hidden", "{input}");
    }
}
