//! A rename moves everything beneath the name it renames: renaming the
//! directory above a path pattern (`config` under `config/secret.json`)
//! would move a hidden or read-only part out of its pattern, and moving a
//! directory where a path pattern reaches beneath it would put new content
//! into one. Both are refused, on the patterns alone (the same answer
//! whatever is on disk), on the physical path of each end (a link or `..`
//! does not walk around it), for a set's own patterns, the server's policy
//! and under a ceiling; renames that carry nothing of the kind still work,
//! and what a one-name pattern hides stays hidden after its directory
//! moved.

#![cfg(unix)]

use std::os::unix::fs::symlink;

use mcp_roots::{Error, Patterns, RootSet, Roots};
use testkit::Fixture;

fn tree() -> Fixture {
    let fx = Fixture::new().expect("fixture");
    for dir in [
        "proj/config",
        "proj/a/b/secrets",
        "proj/docs/api",
        "proj/src/m/gen",
        "proj/sub",
        "proj/plain",
        "proj/staging/api",
        "proj/staging/keys",
    ] {
        std::fs::create_dir_all(fx.path(dir)).expect("mkdir");
    }
    for file in [
        "proj/config/secret.json",
        "proj/config/app.json",
        "proj/a/b/secrets/s.txt",
        "proj/a/c.txt",
        "proj/docs/api/x.md",
        "proj/docs/guide.md",
        "proj/src/m/gen/g.rs",
        "proj/sub/.env",
        "proj/sub/b.txt",
        "proj/plain/p.txt",
        "proj/staging/api/new.md",
        "proj/staging/keys/k",
    ] {
        std::fs::write(fx.path(file), file).expect("write");
    }
    symlink(".", fx.path("proj/sub/here")).expect("symlink");
    symlink("..", fx.path("proj/sub/up")).expect("symlink");
    fx
}

/// The patterns, anchored at `anchor` (`""` for the root, `/proj` under a
/// ceiling at `T`).
fn patterns(anchor: &str) -> (Patterns, Patterns) {
    // A pattern with a `/` in its middle is anchored too.
    let middle = match anchor.trim_start_matches('/') {
        "" => String::new(),
        dir => format!("{dir}/"),
    };
    let hide = Patterns::parse([
        format!("{middle}config/secret.json"),
        format!("{anchor}/a/b/secrets/"),
        format!("{anchor}/vault/keys/"),
        ".env".to_owned(),
    ])
    .expect("hide");
    let read_only = Patterns::parse([
        format!("{anchor}/docs/api/"),
        format!("{anchor}/src/**/gen/"),
        format!("{anchor}/published/api/"),
    ])
    .expect("read-only");
    (hide, read_only)
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Own,
    Policy,
    Request,
    Ceiling,
}

fn with_set<T>(kind: Kind, fx: &Fixture, f: impl FnOnce(&RootSet) -> T) -> T {
    let proj = fx.subst("{T}/proj");
    let (hide, read_only) = patterns("");
    match kind {
        Kind::Own => f(&RootSet::builder()
            .root(&proj)
            .hide(hide)
            .read_only(read_only)
            .build()),
        Kind::Policy => {
            let roots = Roots::builder().hide(hide).read_only(read_only).build();
            roots.replace_uris([proj]);
            f(&roots.load())
        }
        Kind::Request => {
            let roots = Roots::builder().hide(hide).read_only(read_only).build();
            let set = roots.for_request(Some(RootSet::builder().root(&proj)));
            f(&set.load())
        }
        Kind::Ceiling => {
            let (hide, read_only) = patterns("/proj");
            let roots = Roots::builder()
                .ceiling([fx.subst("{T}")])
                .hide(hide)
                .read_only(read_only)
                .build();
            roots.replace_uris([proj]);
            f(&roots.load())
        }
    }
}

const KINDS: [Kind; 4] = [Kind::Own, Kind::Policy, Kind::Request, Kind::Ceiling];

fn reason(result: Result<(), Error>) -> &'static str {
    match result {
        Ok(()) => "ok",
        Err(e) => e.reason(),
    }
}

/// `(from, to, reason)`, below `T/proj`.
const REFUSED: &[(&str, &str, &str)] = &[
    ("config", "cfg", "hidden"),
    ("a", "z", "hidden"),
    ("a/b", "a/q", "hidden"),
    ("docs", "documentation", "read_only"),
    ("src", "lib", "read_only"),
    ("src/m", "src/n", "read_only"),
    // Into a part: the moved directory's `api/` and `keys/` would be in it.
    ("staging", "published", "read_only"),
    ("staging", "vault", "hidden"),
    // Through a link or `..`: judged on the physical path.
    ("sub/here/../config", "cfg", "hidden"),
    ("sub/up/a", "z", "hidden"),
    ("plain", "sub/up/vault", "hidden"),
];

/// Renames that carry nothing a path pattern names.
const ALLOWED: &[(&str, &str)] = &[
    ("plain", "plain2"),
    ("config/app.json", "app.json"),
    ("docs/guide.md", "guide.md"),
    ("a/c.txt", "c.txt"),
    ("staging/api", "api2"),
    ("sub/up/plain", "plain3"),
    ("sub/up/docs/guide.md", "sub/guide.md"),
];

#[test]
fn a_rename_that_would_carry_a_part_along_is_refused_before_the_disk() {
    for kind in KINDS {
        for (from, to, want) in REFUSED {
            let fx = tree();
            let before = fx.snapshot();
            let got = with_set(kind, &fx, |s| {
                s.rename(
                    fx.subst(&format!("{{T}}/proj/{from}")).as_str(),
                    fx.subst(&format!("{{T}}/proj/{to}")).as_str(),
                )
            });
            assert_eq!(reason(got), *want, "{kind:?}: {from} -> {to}");
            assert_eq!(
                fx.snapshot(),
                before,
                "{kind:?}: {from} -> {to} changed the disk"
            );
        }
    }
}

#[test]
fn renames_that_carry_no_part_still_move() {
    for kind in KINDS {
        for (from, to) in ALLOWED {
            let fx = tree();
            let got = with_set(kind, &fx, |s| {
                s.rename(
                    fx.subst(&format!("{{T}}/proj/{from}")).as_str(),
                    fx.subst(&format!("{{T}}/proj/{to}")).as_str(),
                )
            });
            assert_eq!(reason(got), "ok", "{kind:?}: {from} -> {to}");
            assert!(fx.path(&format!("proj/{to}")).exists(), "{kind:?}: {to}");
        }
    }
}

#[test]
fn what_a_one_name_pattern_hides_stays_hidden_after_its_directory_moved() {
    for kind in KINDS {
        let fx = tree();
        with_set(kind, &fx, |s| {
            let at = |rel: &str| fx.subst(&format!("{{T}}/proj/{rel}"));
            s.rename(at("sub").as_str(), at("moved").as_str())
                .unwrap_or_else(|e| panic!("{kind:?}: {e}"));
            let read = s.read(at("moved/.env").as_str()).map(drop);
            assert_eq!(reason(read), "hidden", "{kind:?}");
            assert_eq!(reason(s.read(at("moved/b.txt").as_str()).map(drop)), "ok");
        });
    }
}

#[test]
fn without_patterns_the_same_renames_move() {
    for (from, to, _) in REFUSED {
        let fx = tree();
        let set = RootSet::builder().root(fx.subst("{T}/proj")).build();
        let at = |rel: &str| fx.subst(&format!("{{T}}/proj/{rel}"));
        let got = set.rename(at(from).as_str(), at(to).as_str());
        assert_eq!(reason(got), "ok", "{from} -> {to}");
    }
}

#[test]
fn listings_and_walks_leave_out_what_path_patterns_hide() {
    for kind in KINDS {
        let fx = tree();
        with_set(kind, &fx, |s| {
            let at = |rel: &str| fx.subst(&format!("{{T}}/proj/{rel}"));
            let names: Vec<String> = s
                .read_dir(at("config").as_str())
                .expect("read_dir")
                .map(|e| e.expect("entry").name().to_string_lossy().into_owned())
                .collect();
            assert_eq!(names, ["app.json"], "{kind:?}");
            let walked: Vec<String> = s
                .walk(at("").as_str(), mcp_roots::WalkLimits::new(10, 1000))
                .expect("walk")
                .map(|e| e.expect("entry").path().rel().to_owned())
                .collect();
            for hidden in ["config/secret.json", "a/b/secrets", "a/b/secrets/s.txt"] {
                assert!(
                    !walked.iter().any(|w| w.ends_with(hidden)),
                    "{kind:?} walk yielded {hidden}: {walked:?}"
                );
            }
            assert!(
                walked.iter().any(|w| w.ends_with("config/app.json")),
                "{kind:?}"
            );
            assert!(
                walked.iter().any(|w| w.ends_with("docs/api/x.md")),
                "{kind:?}"
            );
        });
    }
}
