//! Served directories inside other ones: the outermost root judges a
//! path, with one more layer per served directory it contains, so the
//! strictest answer wins. A read-only directory inside a writable one
//! refuses every change beneath it (and a move that would carry it); an
//! inner directory's anchored patterns hide beneath its place. Each row
//! is spelled several ways: plainly, through a link, with `..`, as a URI.

#![cfg(unix)]

use std::os::unix::fs::symlink;

use mcp_roots::{EmptyRoots, Error, Patterns, RootSet, Roots, WalkLimits};
use testkit::Fixture;

/// `T/d` served, with `d/inner` (served too, for the patterns),
/// `d/ro2` and `d/box/ro3` (served read-only).
fn tree() -> Fixture {
    let fx = Fixture::new().expect("fixture");
    for dir in ["d/inner/secrets", "d/ro2/sub", "d/box/ro3", "d/sub/secrets"] {
        std::fs::create_dir_all(fx.path(dir)).expect("mkdir");
    }
    for file in [
        "d/a.txt",
        "d/inner/other.txt",
        "d/inner/secrets/k.txt",
        "d/ro2/f.txt",
        "d/box/ro3/g.txt",
        "d/sub/secrets/x.txt",
    ] {
        std::fs::write(fx.path(file), file).expect("write");
    }
    symlink("inner", fx.path("d/lnk_inner")).expect("symlink");
    symlink("ro2", fx.path("d/lnk_ro")).expect("symlink");
    fx
}

fn p(fx: &Fixture, rel: &str) -> String {
    fx.subst(&format!("{{T}}/d/{rel}"))
}

fn uri(fx: &Fixture, rel: &str) -> String {
    fx.subst(&format!("file://{{T}}/d/{rel}"))
}

fn reason<T>(result: Result<T, Error>) -> &'static str {
    match result {
        Ok(_) => "ok",
        Err(e) => e.reason(),
    }
}

fn hide() -> Patterns {
    Patterns::parse(["/secrets/"]).expect("patterns")
}

/// Every kind of set that serves `d` and `d/inner` with `/secrets/`
/// anchored at each.
fn hiding_sets(fx: &Fixture) -> Vec<(&'static str, RootSet)> {
    let (d, inner) = (fx.subst("{T}/d"), fx.subst("{T}/d/inner"));
    let whole = Roots::builder()
        .ceiling([d.clone(), inner.clone()])
        .hide(hide())
        .empty_roots(EmptyRoots::Ceiling)
        .build();
    whole.replace_undeclared();
    let policy = Roots::builder().hide(hide()).build();
    policy.replace_uris([d.clone(), inner.clone()]);
    let request = Roots::builder()
        .hide(hide())
        .build()
        .for_request(Some(RootSet::builder().root(&d).root(&inner)));
    let own = RootSet::builder()
        .root(&d)
        .root(&inner)
        .hide(hide())
        .build();
    let ceiling = || {
        Roots::builder()
            .ceiling([d.clone(), inner.clone()])
            .hide(hide())
    };
    let above = ceiling().build();
    above.replace_uris([d.clone()]);
    let above_request = ceiling()
        .build()
        .for_request(Some(RootSet::builder().root(&d)));
    vec![
        ("ceiling served whole", whole.load().set().clone()),
        ("ceiling, a client root above", above.load().set().clone()),
        (
            "ceiling, request-scoped",
            above_request.load().set().clone(),
        ),
        ("policy, client roots", policy.load().set().clone()),
        ("policy, request-scoped", request.load().set().clone()),
        ("the set's own patterns", own),
    ]
}

#[test]
fn an_inner_directorys_anchored_patterns_hide_beneath_its_place() {
    let fx = tree();
    for (kind, set) in hiding_sets(&fx) {
        assert!(set.rejected().is_empty(), "{kind}: {:?}", set.rejected());
        let hidden = [
            p(&fx, "inner/secrets/k.txt"),
            p(&fx, "inner/secrets/missing.txt"),
            p(&fx, "lnk_inner/secrets/k.txt"),
            p(&fx, "sub/../inner/secrets/k.txt"),
            p(&fx, "inner/./secrets/k.txt"),
            uri(&fx, "inner/%73ecrets/k.txt"),
            uri(&fx, "sub/../inner/secrets/k.txt"),
        ];
        for input in &hidden {
            assert_eq!(
                reason(set.read(input.as_str())),
                "hidden",
                "{kind}: read {input}"
            );
            assert_eq!(
                reason(set.metadata(input.as_str())),
                "hidden",
                "{kind}: stat {input}"
            );
        }
        for dir in ["inner/secrets", "lnk_inner/secrets", "sub/../inner/secrets"] {
            let got = reason(set.read_dir(p(&fx, dir).as_str()));
            assert_eq!(got, "hidden", "{kind}: list {dir}");
        }
        let written = set.write_atomic(p(&fx, "inner/secrets/new.txt").as_str(), b"x");
        assert_eq!(reason(written), "hidden", "{kind}: write");
        assert!(!fx.path("d/inner/secrets/new.txt").exists());
        // Not re-anchored where nothing is served.
        for shared in ["inner/other.txt", "sub/secrets/x.txt", "a.txt"] {
            assert_eq!(
                reason(set.read(p(&fx, shared).as_str())),
                "ok",
                "{kind}: {shared}"
            );
        }
        let listed: Vec<String> = set
            .read_dir(p(&fx, "inner").as_str())
            .expect("list")
            .map(|e| e.expect("entry").name().to_string_lossy().into_owned())
            .collect();
        assert!(
            listed.iter().any(|n| n == "other.txt"),
            "{kind}: {listed:?}"
        );
        assert!(!listed.iter().any(|n| n == "secrets"), "{kind}: {listed:?}");
        let walked: Vec<String> = set
            .walk(p(&fx, "").as_str(), WalkLimits::new(10, 10_000))
            .expect("walk")
            .map(|e| e.expect("entry").path().rel().to_owned())
            .collect();
        assert!(
            walked.iter().any(|w| w.ends_with("inner/other.txt")),
            "{kind}: {walked:?}"
        );
        assert!(
            walked.iter().any(|w| w.ends_with("sub/secrets/x.txt")),
            "{kind}: {walked:?}"
        );
        assert!(
            !walked.iter().any(|w| w.contains("inner/secrets")),
            "{kind}: {walked:?}"
        );
    }
}

/// `d` served writable, `d/ro2` and `d/box/ro3` read-only: whole, to a
/// client that shares `d`, and request-scoped.
fn read_only_inside(fx: &Fixture) -> Vec<(&'static str, RootSet)> {
    let d = fx.subst("{T}/d");
    let policy = || {
        Roots::builder()
            .ceiling([d.clone()])
            .read_only_ceiling([fx.subst("{T}/d/ro2"), fx.subst("{T}/d/box/ro3")])
            .empty_roots(EmptyRoots::Ceiling)
    };
    let whole = policy().build();
    whole.replace_undeclared();
    let above = policy().build();
    above.replace_uris([d.clone()]);
    let request = policy()
        .build()
        .for_request(Some(RootSet::builder().root(&d)));
    vec![
        ("ceiling served whole", whole.load().set().clone()),
        ("a client root above", above.load().set().clone()),
        ("request-scoped", request.load().set().clone()),
    ]
}

#[test]
fn a_read_only_directory_inside_a_writable_one_refuses_every_change() {
    let fx = tree();
    for (kind, set) in read_only_inside(&fx) {
        refuses_every_change(&fx, kind, &set);
    }
}

fn refuses_every_change(fx: &Fixture, kind: &str, set: &RootSet) {
    assert!(set.rejected().is_empty(), "{kind}: {:?}", set.rejected());
    let d = std::fs::canonicalize(fx.path("d")).expect("canonical");
    let outer = set.roots().iter().find(|r| r.resolved_path() == d);
    let mut inside = outer.expect("d is served").read_only_inside();
    inside.sort();
    let want = ["d/box/ro3", "d/ro2"].map(|r| std::fs::canonicalize(fx.path(r)).unwrap());
    assert_eq!(
        inside,
        want.iter().map(|p| p.as_path()).collect::<Vec<_>>(),
        "{kind}"
    );
    for spelled in [
        p(fx, "ro2/f.txt"),
        p(fx, "lnk_ro/f.txt"),
        p(fx, "sub/../ro2/f.txt"),
        uri(fx, "%72o2/f.txt"),
        p(fx, "box/ro3/g.txt"),
    ] {
        let s = spelled.as_str();
        assert_eq!(reason(set.read(s)), "ok", "read {s}");
        assert_eq!(reason(set.write_atomic(s, b"x")), "read_only", "write {s}");
        assert_eq!(reason(set.remove_file(s)), "read_only", "remove {s}");
        assert_eq!(
            reason(set.rename(s, p(fx, "out.txt").as_str())),
            "read_only",
            "move out {s}"
        );
        assert_eq!(
            reason(set.copy(p(fx, "a.txt").as_str(), &format!("{s}.copy"))),
            "read_only"
        );
    }
    for made in [
        p(fx, "ro2/new.txt"),
        p(fx, "lnk_ro/new.txt"),
        p(fx, "sub/../ro2/new"),
    ] {
        let m = made.as_str();
        assert_eq!(reason(set.create_new(m)), "read_only", "create {m}");
        assert_eq!(reason(set.create_dir(m)), "read_only", "mkdir {m}");
        // `create_dir_all` refuses a link on its way (`not_a_directory`).
        let all = reason(set.create_dir_all(&format!("{m}/x/y")));
        assert!(
            ["read_only", "not_a_directory"].contains(&all),
            "mkdir -p {m}: {all}"
        );
        let into = set.rename(p(fx, "a.txt").as_str(), m);
        assert_eq!(reason(into), "read_only", "move into {m}");
    }
    // A move that would carry a read-only directory along.
    assert_eq!(
        reason(set.rename(p(fx, "box").as_str(), p(fx, "box2").as_str())),
        "read_only"
    );
    assert!(fx.path("d/box/ro3/g.txt").exists() && fx.path("d/ro2/f.txt").exists());
    assert!(!fx.path("d/out.txt").exists() && !fx.path("d/ro2/new.txt").exists());
    assert!(!fx.path("d/ro2/new").exists());
    assert_eq!(
        reason(set.create_dir_all(p(fx, "ro2/n/x").as_str())),
        "read_only"
    );
    // The rest of `d` stays writable.
    assert_eq!(
        reason(set.write_atomic(p(fx, "sub/w.txt").as_str(), b"w")),
        "ok"
    );
    assert_eq!(
        reason(set.rename(p(fx, "sub").as_str(), p(fx, "sub2").as_str())),
        "ok"
    );
    let back = set.rename(p(fx, "sub2").as_str(), p(fx, "sub").as_str());
    assert_eq!(reason(back), "ok");
}

#[test]
fn a_tracked_file_is_revoked_when_a_directory_it_lies_in_comes_to_be_served() {
    let fx = tree();
    let roots = Roots::builder().hide(hide()).build();
    roots.replace_uris([fx.subst("{T}/d")]);
    let snapshot = roots.load();
    let file = snapshot
        .open(p(&fx, "inner/secrets/k.txt").as_str())
        .expect("shared while only `d` is served");
    drop(snapshot);
    roots.replace_uris([fx.subst("{T}/d"), fx.subst("{T}/d/inner")]);
    assert_eq!(file.revoked(), Some(mcp_roots::ErrorKind::Hidden));
    let now = roots.load();
    assert_eq!(
        reason(now.read(p(&fx, "inner/secrets/k.txt").as_str())),
        "hidden"
    );
    // And back: the layer goes when the inner directory is no longer served.
    roots.replace_uris([fx.subst("{T}/d")]);
    assert_eq!(
        reason(roots.load().read(p(&fx, "inner/secrets/k.txt").as_str())),
        "ok"
    );
}

/// Two spellings of one served directory (its own name and a link to it)
/// are two roots: each carries the layers of the directories inside it,
/// so a change through the link's spelling is refused as through the
/// name's, and an inner anchored pattern hides through both.
#[test]
fn every_spelling_of_a_served_directory_carries_the_layers() {
    let fx = tree();
    symlink("d", fx.path("ld")).expect("symlink");
    let (d, ld) = (fx.subst("{T}/d"), fx.subst("{T}/ld"));
    for order in [[d.clone(), ld.clone()], [ld.clone(), d.clone()]] {
        let live = Roots::builder()
            .ceiling(order.clone())
            .read_only_ceiling([fx.subst("{T}/d/ro2")])
            .empty_roots(EmptyRoots::Ceiling)
            .build();
        live.replace_undeclared();
        let set = live.load().set().clone();
        for base in [&d, &ld] {
            let file = format!("{base}/ro2/f.txt");
            assert_eq!(
                reason(set.read(file.as_str())),
                "ok",
                "{order:?}: read {file}"
            );
            let written = set.write_atomic(file.as_str(), b"x");
            assert_eq!(reason(written), "read_only", "{order:?}: write {file}");
            let created = set.create_new(format!("{base}/ro2/new.txt").as_str());
            assert_eq!(reason(created), "read_only", "{order:?}: create in {base}");
        }
        let hiding = RootSet::builder()
            .root(&order[0])
            .root(&order[1])
            .root(fx.subst("{T}/d/inner"))
            .hide(hide())
            .build();
        for base in [&d, &ld] {
            let secret = format!("{base}/inner/secrets/k.txt");
            assert_eq!(
                reason(hiding.read(secret.as_str())),
                "hidden",
                "{order:?}: {secret}"
            );
        }
    }
    assert_eq!(
        std::fs::read(fx.path("d/ro2/f.txt")).unwrap(),
        b"d/ro2/f.txt"
    );
    assert!(!fx.path("d/ro2/new.txt").exists());
}
