//! Parts of a root: hide and read-only patterns, judged on the object an
//! operation reaches, never on the string. Every row is a way around a
//! string match (a symlink inside, `..`, encoded dots, a walk across
//! roots, a rename or a create_dir_all component), run on every kind of
//! set: a set's own patterns, the server's policy without a ceiling (each
//! root), and under a ceiling (anchored patterns relative to the ceiling
//! directory), installed, request-scoped, or the ceiling served whole.

#![cfg(unix)]

use std::os::unix::fs::symlink;

use mcp_roots::{EmptyRoots, Error, ErrorKind, OpenOptions, Patterns, RootSet, Roots, WalkLimits};
use testkit::Fixture;

/// `T/proj` and `T/other`, the two roots.
fn tree() -> Fixture {
    let fx = Fixture::new().expect("fixture");
    let dirs = [
        "proj/sub",
        "proj/secrets/deep",
        "proj/.git",
        "proj/ro/inner",
        "proj/src",
        "other/secrets",
    ];
    for dir in dirs {
        std::fs::create_dir_all(fx.path(dir)).expect("mkdir");
    }
    let files = [
        "proj/.env",
        "proj/.env.local",
        "proj/a.txt",
        "proj/key.pem",
        "proj/keep.pem",
        "proj/sub/.env",
        "proj/sub/b.txt",
        "proj/secrets/s.txt",
        "proj/secrets/keep.pem",
        "proj/secrets/deep/d.txt",
        "proj/.git/config",
        "proj/ro/r.txt",
        "proj/ro/inner/i.txt",
        "proj/ro/.env",
        "proj/src/main.rs",
        "other/.env",
        "other/o.txt",
        "other/secrets/t.txt",
    ];
    for file in files {
        std::fs::write(fx.path(file), file).expect("write");
    }
    let links = [
        (".env", "proj/link_env"),
        ("secrets", "proj/link_secrets"),
        ("secrets/s.txt", "proj/link_s"),
        ("..", "proj/sub/up"),
        ("../../other/.env", "proj/sub/cross_env"),
        ("../other/secrets", "proj/cross_secrets"),
        ("../other/o.txt", "proj/cross_ok"),
        ("ro", "proj/link_ro"),
    ];
    for (target, link) in links {
        symlink(target, fx.path(link)).expect("symlink");
    }
    fx
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    /// `RootSet::builder().hide(..).read_only(..)`.
    Own,
    /// The server's policy, no ceiling, `replace_uris`.
    PolicyUris,
    /// The server's policy, no ceiling, `replace(RootSet)`.
    PolicyReplace,
    /// The server's policy, no ceiling, a request-scoped set.
    PolicyRequest,
    /// A ceiling at `T`: anchored patterns name `/proj/…`.
    CeilingUris,
    /// The ceiling, a request-scoped set.
    CeilingRequest,
    /// The ceiling served whole to a client that declares no roots.
    CeilingWhole,
}

const KINDS: [Kind; 7] = [
    Kind::Own,
    Kind::PolicyUris,
    Kind::PolicyReplace,
    Kind::PolicyRequest,
    Kind::CeilingUris,
    Kind::CeilingRequest,
    Kind::CeilingWhole,
];

/// The patterns; under a ceiling at `T` (`anchor` `/proj`), anchored ones
/// name the roots' directories below it.
fn patterns(anchor: &str) -> (Patterns, Patterns) {
    let secrets = if anchor.is_empty() {
        "/secrets/"
    } else {
        "/*/secrets/"
    };
    let hide = Patterns::parse([
        ".env".to_owned(),
        ".env.*".to_owned(),
        "**/.git/".to_owned(),
        "*.pem".to_owned(),
        secrets.to_owned(),
        "!keep.pem".to_owned(),
    ])
    .expect("patterns");
    let read_only = Patterns::parse([format!("{anchor}/ro/"), "*.lock".to_owned()]).expect("ro");
    (hide, read_only)
}

struct Built {
    set: Option<RootSet>,
    roots: Option<Roots>,
}

impl Built {
    fn new(kind: Kind, fx: &Fixture) -> Self {
        let (proj, other) = (fx.subst("{T}/proj"), fx.subst("{T}/other"));
        let uris = [proj.clone(), other.clone()];
        let (hide, read_only) = patterns("");
        let policy = Roots::builder()
            .hide(hide.clone())
            .read_only(read_only.clone());
        let (chide, cro) = patterns("/proj");
        let ceiling = Roots::builder()
            .ceiling([fx.subst("{T}")])
            .hide(chide)
            .read_only(cro);
        let client = RootSet::builder().root(&proj).root(&other);
        let session = |roots: Roots| Self {
            set: None,
            roots: Some(roots),
        };
        match kind {
            Kind::Own => Self {
                set: Some(client.hide(hide).read_only(read_only).build()),
                roots: None,
            },
            Kind::PolicyUris => {
                let roots = policy.build();
                roots.replace_uris(uris);
                session(roots)
            }
            Kind::PolicyReplace => {
                let roots = policy.build();
                roots.replace(RootSet::from_uris(uris));
                session(roots)
            }
            Kind::PolicyRequest => session(policy.build().for_request(Some(client))),
            Kind::CeilingUris => {
                let roots = ceiling.build();
                roots.replace_uris(uris);
                session(roots)
            }
            Kind::CeilingRequest => session(ceiling.build().for_request(Some(client))),
            Kind::CeilingWhole => {
                let roots = ceiling.empty_roots(EmptyRoots::Ceiling).build();
                roots.replace_undeclared();
                session(roots)
            }
        }
    }

    fn with<T>(&self, f: impl FnOnce(&RootSet) -> T) -> T {
        match (&self.set, &self.roots) {
            (Some(set), _) => f(set),
            (None, Some(roots)) => f(&roots.load()),
            (None, None) => unreachable!(),
        }
    }
}

fn p(fx: &Fixture, rel: &str) -> String {
    fx.subst(&format!("{{T}}/{rel}"))
}

fn reason<T>(result: Result<T, Error>) -> &'static str {
    match result {
        Ok(_) => "ok",
        Err(e) => e.reason(),
    }
}

type Op = fn(&RootSet, &Fixture) -> Result<(), Error>;

fn read(rel: &'static str) -> impl Fn(&RootSet, &Fixture) -> Result<(), Error> {
    move |s, fx| s.read(p(fx, rel).as_str()).map(drop)
}

/// Reads of hidden objects, each a way around a string match.
const HIDDEN_READS: &[&str] = &[
    "proj/.env",
    "proj/.env.local",
    "proj/.env.missing",
    "proj/sub/.env",
    "proj/key.pem",
    "proj/.git/config",
    "proj/.git/missing",
    "proj/secrets/s.txt",
    "proj/secrets/keep.pem",
    "proj/secrets/deep/d.txt",
    "proj/secrets/missing",
    "proj/secrets/../a.txt",
    "proj/sub/../.env",
    "proj/sub/../.git/config",
    "proj/sub/up/.env",
    "proj/sub/up/secrets/s.txt",
    "proj/link_env",
    "proj/link_s",
    "proj/link_secrets/s.txt",
    "proj/link_secrets/deep/d.txt",
    "proj/sub/cross_env",
    "proj/cross_secrets/t.txt",
    "proj/ro/.env",
    "other/.env",
    "other/secrets/t.txt",
];

/// Reads that stay allowed.
const SHARED_READS: &[&str] = &[
    "proj/a.txt",
    "proj/keep.pem",
    "proj/sub/b.txt",
    "proj/ro/r.txt",
    "proj/link_ro/r.txt",
    "proj/src/main.rs",
    "proj/cross_ok",
    "other/o.txt",
];

#[test]
fn hidden_objects_are_never_read_whatever_the_path() {
    let fx = tree();
    for kind in KINDS {
        let built = Built::new(kind, &fx);
        built.with(|set| {
            assert!(set.rejected().is_empty(), "{kind:?}: {:?}", set.rejected());
            for rel in HIDDEN_READS {
                let got = reason(read(rel)(set, &fx));
                assert_eq!(got, "hidden", "{kind:?} read {rel}");
                let got = reason(set.metadata(p(&fx, rel).as_str()));
                assert_eq!(got, "hidden", "{kind:?} metadata {rel}");
            }
            for rel in SHARED_READS {
                assert_eq!(reason(read(rel)(set, &fx)), "ok", "{kind:?} read {rel}");
            }
            for dir in [
                "proj/secrets",
                "proj/link_secrets",
                "proj/.git",
                "proj/sub/up/secrets",
            ] {
                let got = reason(set.read_dir(p(&fx, dir).as_str()));
                assert_eq!(got, "hidden", "{kind:?} read_dir {dir}");
                let got = reason(set.walk(p(&fx, dir).as_str(), WalkLimits::new(4, 100)));
                assert_eq!(got, "hidden", "{kind:?} walk {dir}");
            }
            for rel in [
                "proj/link_env",
                "proj/.env.none",
                "proj/link_secrets/none/x",
            ] {
                let got = reason(set.resolve(p(&fx, rel).as_str()));
                assert_eq!(got, "hidden", "{kind:?} resolve {rel}");
            }
        });
    }
}

#[test]
fn encoded_names_in_uris_are_judged_decoded() {
    let fx = tree();
    for kind in KINDS {
        let built = Built::new(kind, &fx);
        built.with(|set| {
            for encoded in [
                "proj/%2Eenv",
                "proj/.%65nv",
                "proj/%2e%65%6e%76",
                "proj/sub/%2E%2E/.env",
                "proj/%73ecrets/s.txt",
                "proj/.git%2Fconfig",
            ] {
                let uri = fx.subst(&format!("file://{{T}}/{encoded}"));
                let got = reason(set.read(uri.as_str()));
                let want = if encoded.contains("%2F") {
                    "invalid_uri"
                } else {
                    "hidden"
                };
                assert_eq!(got, want, "{kind:?} {encoded}");
            }
        });
    }
}

#[test]
fn listings_and_walks_never_show_a_hidden_entry() {
    let fx = tree();
    for kind in KINDS {
        let built = Built::new(kind, &fx);
        built.with(|set| {
            let names: Vec<String> = set
                .read_dir(p(&fx, "proj").as_str())
                .expect("read_dir")
                .map(|e| e.expect("entry").name().to_string_lossy().into_owned())
                .collect();
            for hidden in [".env", ".env.local", "key.pem", "secrets", ".git"] {
                assert!(
                    !names.iter().any(|n| n == hidden),
                    "{kind:?} {hidden}: {names:?}"
                );
            }
            for shown in ["a.txt", "keep.pem", "sub", "ro", "link_env"] {
                assert!(
                    names.iter().any(|n| n == shown),
                    "{kind:?} {shown}: {names:?}"
                );
            }
            let walked: Vec<String> = set
                .walk(p(&fx, "proj").as_str(), WalkLimits::new(10, 10_000))
                .expect("walk")
                .map(|e| {
                    let rel = e.expect("entry").path().rel().to_owned();
                    // The ceiling served whole is rooted at `T`.
                    rel.strip_prefix("proj/").map(str::to_owned).unwrap_or(rel)
                })
                .collect();
            for path in &walked {
                let hidden = path.split('/').any(|c| {
                    c == ".env" || c.starts_with(".env.") || c == ".git" || c == "key.pem"
                }) || path.starts_with("secrets");
                assert!(!hidden, "{kind:?} walk yielded {path}");
            }
            for shown in ["a.txt", "sub/b.txt", "ro/inner/i.txt", "src/main.rs"] {
                assert!(
                    walked.iter().any(|w| w == shown),
                    "{kind:?} {shown}: {walked:?}"
                );
            }
            // A hidden entry counts toward the work bound, never the yield.
            let all = set
                .read_dir(p(&fx, "proj/sub").as_str())
                .expect("read_dir")
                .count();
            assert_eq!(all, 3, "{kind:?}: b.txt, up, cross_env");
        });
    }
}

/// Changes refused, each with the reason; the disk must not change.
fn changes() -> Vec<(&'static str, &'static str, Op)> {
    vec![
        ("create .env.new", "hidden", |s, fx| {
            s.create_new(p(fx, "proj/.env.new").as_str()).map(drop)
        }),
        ("create through a link into secrets", "hidden", |s, fx| {
            s.create_new(p(fx, "proj/link_secrets/new.txt").as_str())
                .map(drop)
        }),
        ("create through .. into .git", "hidden", |s, fx| {
            s.create_new(p(fx, "proj/sub/up/.git/new").as_str())
                .map(drop)
        }),
        ("truncate .env", "hidden", |s, fx| {
            s.open_with(
                p(fx, "proj/.env").as_str(),
                OpenOptions::new().write(true).truncate(true),
            )
            .map(drop)
        }),
        ("atomic write in secrets", "hidden", |s, fx| {
            s.write_atomic(p(fx, "proj/secrets/s.txt").as_str(), b"x")
        }),
        (
            "atomic write through a cross-root link",
            "hidden",
            |s, fx| s.write_atomic(p(fx, "proj/cross_secrets/t.txt").as_str(), b"x"),
        ),
        ("rename into secrets", "hidden", |s, fx| {
            s.rename(
                p(fx, "proj/a.txt").as_str(),
                p(fx, "proj/secrets/a.txt").as_str(),
            )
        }),
        ("rename into a linked secrets", "hidden", |s, fx| {
            s.rename(
                p(fx, "proj/a.txt").as_str(),
                p(fx, "proj/link_secrets/a.txt").as_str(),
            )
        }),
        ("rename to a hidden name", "hidden", |s, fx| {
            s.rename(
                p(fx, "proj/a.txt").as_str(),
                p(fx, "proj/sub/.env").as_str(),
            )
        }),
        ("rename .env out", "hidden", |s, fx| {
            s.rename(p(fx, "proj/.env").as_str(), p(fx, "proj/visible").as_str())
        }),
        ("create_dir_all through .git", "hidden", |s, fx| {
            s.create_dir_all(p(fx, "proj/x/.git/y").as_str())
        }),
        ("create_dir_all in secrets", "hidden", |s, fx| {
            s.create_dir_all(p(fx, "proj/secrets/y/z").as_str())
        }),
        ("create_dir_all via ..", "hidden", |s, fx| {
            s.create_dir_all(p(fx, "proj/sub/../secrets2/../secrets/q").as_str())
        }),
        ("create_dir of a hidden name", "hidden", |s, fx| {
            s.create_dir(p(fx, "proj/sub/.git").as_str())
        }),
        ("remove .env", "hidden", |s, fx| {
            s.remove_file(p(fx, "proj/.env").as_str())
        }),
        (
            "remove a file in another root's hidden part",
            "hidden",
            |s, fx| s.remove_file(p(fx, "proj/cross_secrets/t.txt").as_str()),
        ),
        ("copy out of .env", "hidden", |s, fx| {
            s.copy(p(fx, "proj/.env").as_str(), p(fx, "proj/copy.txt").as_str())
                .map(drop)
        }),
        ("copy to a hidden name", "hidden", |s, fx| {
            s.copy(p(fx, "proj/a.txt").as_str(), p(fx, "proj/x.pem").as_str())
                .map(drop)
        }),
        ("write in a read-only part", "read_only", |s, fx| {
            s.open_with(
                p(fx, "proj/ro/r.txt").as_str(),
                OpenOptions::new().write(true),
            )
            .map(drop)
        }),
        (
            "write through a link into a read-only part",
            "read_only",
            |s, fx| {
                s.open_with(
                    p(fx, "proj/link_ro/r.txt").as_str(),
                    OpenOptions::new().write(true),
                )
                .map(drop)
            },
        ),
        ("create in a read-only part", "read_only", |s, fx| {
            s.create_new(p(fx, "proj/ro/inner/new").as_str()).map(drop)
        }),
        ("move out of a read-only part", "read_only", |s, fx| {
            s.rename(
                p(fx, "proj/ro/r.txt").as_str(),
                p(fx, "proj/moved").as_str(),
            )
        }),
        ("move into a read-only part", "read_only", |s, fx| {
            s.rename(
                p(fx, "proj/a.txt").as_str(),
                p(fx, "proj/ro/a.txt").as_str(),
            )
        }),
        ("copy into a read-only part", "read_only", |s, fx| {
            s.copy(
                p(fx, "proj/a.txt").as_str(),
                p(fx, "proj/ro/a.txt").as_str(),
            )
            .map(drop)
        }),
        ("remove in a read-only part", "read_only", |s, fx| {
            s.remove_file(p(fx, "proj/ro/inner/i.txt").as_str())
        }),
        ("a lock file", "read_only", |s, fx| {
            s.write_atomic(p(fx, "proj/sub/Cargo.lock").as_str(), b"x")
        }),
        ("hidden wins in a read-only part", "hidden", |s, fx| {
            s.remove_file(p(fx, "proj/ro/.env").as_str())
        }),
    ]
}

#[test]
fn changes_to_hidden_or_read_only_parts_are_refused_before_the_disk() {
    for kind in KINDS {
        let fx = tree();
        let before = fx.snapshot();
        let built = Built::new(kind, &fx);
        built.with(|set| {
            for (name, want, run) in changes() {
                let got = run(set, &fx);
                let err = got.expect_err(&format!("{kind:?} {name}: allowed"));
                assert_eq!(err.reason(), want, "{kind:?} {name}: {err}");
                assert!(err.pattern().is_some(), "{kind:?} {name}: no pattern named");
            }
        });
        assert_eq!(fx.snapshot(), before, "{kind:?}: the disk changed");
        built.with(|set| {
            let copied = set.copy(
                p(&fx, "proj/ro/r.txt").as_str(),
                p(&fx, "proj/out.txt").as_str(),
            );
            assert!(
                copied.is_ok(),
                "{kind:?}: copy out of a read-only part: {copied:?}"
            );
            set.create_dir_all(p(&fx, "proj/new/deeper").as_str())
                .expect("a shared create_dir_all");
            set.write_atomic(p(&fx, "proj/a.txt").as_str(), b"new")
                .expect("a shared write");
        });
    }
}

#[test]
fn a_refusal_names_the_pattern_and_not_what_is_there() {
    let fx = tree();
    let set = Built::new(Kind::Own, &fx);
    set.with(|set| {
        let there = set.read(p(&fx, "proj/.env").as_str()).unwrap_err();
        let missing = set.read(p(&fx, "proj/sub/x/.env").as_str()).unwrap_err();
        assert_eq!(there.kind(), ErrorKind::Hidden);
        assert_eq!(there.pattern(), Some(".env"));
        assert_eq!(there.detail(), missing.detail());
        assert_eq!(there.pattern(), missing.pattern());
        let shown = there.to_string();
        assert!(shown.contains("did not share"), "{shown}");
        assert!(shown.contains("\".env\""), "{shown}");
        let root = set.root(0).expect("root");
        let hides = [
            ".env",
            ".env.*",
            "**/.git/",
            "*.pem",
            "/secrets/",
            "!keep.pem",
        ];
        assert_eq!(root.hides(), hides);
        assert_eq!(root.protects(), ["/ro/", "*.lock"]);
    });
}

#[test]
fn a_root_inside_a_hidden_part_grants_nothing() {
    let fx = tree();
    let (hide, read_only) = patterns("/proj");
    let roots = Roots::builder()
        .ceiling([fx.subst("{T}")])
        .hide(hide)
        .read_only(read_only)
        .build();
    roots.replace_uris([
        fx.subst("{T}/proj/secrets/deep"),
        fx.subst("{T}/proj/.git"),
        fx.subst("{T}/proj/ro/inner"),
    ]);
    let set = roots.load();
    let rejected: Vec<_> = set.rejected().iter().map(|r| r.reason()).collect();
    assert_eq!(rejected, ["hidden", "hidden"]);
    assert_eq!(set.len(), 1);
    // A root inside a read-only part is read-only beneath.
    let err = set
        .create_new(p(&fx, "proj/ro/inner/n").as_str())
        .unwrap_err();
    assert_eq!(err.reason(), "read_only");
    assert_eq!(
        reason(set.read(p(&fx, "proj/ro/inner/i.txt").as_str())),
        "ok"
    );
}

#[test]
fn a_replace_that_changes_the_patterns_rejudges_the_roots_it_keeps() {
    let fx = tree();
    let roots = Roots::builder().build();
    let uris = [fx.subst("{T}/proj")];
    roots.replace(RootSet::builder().root(&uris[0]).build());
    assert_eq!(
        reason(roots.load().read(p(&fx, "proj/a.txt").as_str())),
        "ok"
    );
    let hide = Patterns::parse(["a.txt"]).expect("pattern");
    roots.replace(RootSet::builder().root(&uris[0]).hide(hide).build());
    assert_eq!(
        reason(roots.load().read(p(&fx, "proj/a.txt").as_str())),
        "hidden"
    );
    roots.replace(RootSet::builder().root(&uris[0]).build());
    assert_eq!(
        reason(roots.load().read(p(&fx, "proj/a.txt").as_str())),
        "ok"
    );
}

#[test]
fn tracked_files_that_become_hidden_or_read_only_are_revoked() {
    use std::io::Read;
    let fx = tree();
    let (hide, read_only) = patterns("");
    let roots = Roots::builder().hide(hide).read_only(read_only).build();
    roots.replace_uris([fx.subst("{T}/proj")]);
    let snapshot = roots.load();
    let mut moved = snapshot.open(p(&fx, "proj/a.txt").as_str()).expect("open");
    let writer = snapshot
        .open_with(
            p(&fx, "proj/sub/b.txt").as_str(),
            OpenOptions::new().write(true),
        )
        .expect("open for writing");
    let reader = snapshot
        .open(p(&fx, "proj/src/main.rs").as_str())
        .expect("open");
    drop(snapshot);
    // Moved on disk into a hidden directory, and into a read-only one.
    std::fs::rename(fx.path("proj/a.txt"), fx.path("proj/secrets/a.txt")).expect("mv");
    std::fs::rename(fx.path("proj/sub/b.txt"), fx.path("proj/ro/b.txt")).expect("mv");
    let report = roots.rescan();
    let mut reasons: Vec<_> = report.revoked().iter().map(|r| r.reason.reason()).collect();
    reasons.sort();
    assert_eq!(reasons, ["hidden", "read_only"], "{report:?}");
    let err = moved.read(&mut [0; 4]).unwrap_err();
    assert_eq!(Error::from_io(&err).map(Error::reason), Some("hidden"));
    drop(writer);
    // A replace that changes the patterns judges the roots it keeps again.
    let hide = Patterns::parse(["*.rs"]).expect("pattern");
    let report = roots.replace(
        RootSet::builder()
            .root(fx.subst("{T}/proj"))
            .hide(hide)
            .build(),
    );
    let reasons: Vec<_> = report.revoked().iter().map(|r| r.reason.reason()).collect();
    assert_eq!(reasons, ["hidden"], "{report:?}");
    drop(reader);
}

#[test]
fn a_second_name_of_a_hidden_file_is_refused_for_writes_under_refuse_writes() {
    let fx = tree();
    std::fs::hard_link(fx.path("proj/.env"), fx.path("proj/alias.txt")).expect("hard link");
    let (hide, read_only) = patterns("");
    let set = RootSet::builder()
        .root(fx.subst("{T}/proj"))
        .hide(hide)
        .read_only(read_only)
        .hard_links(mcp_roots::HardLinks::RefuseWrites)
        .build();
    let write = OpenOptions::new().write(true);
    let err = set
        .open_with(p(&fx, "proj/alias.txt").as_str(), write)
        .unwrap_err();
    assert_eq!(err.reason(), "outside_roots", "{err}");
    assert_eq!(err.detail(), Some("the file has more than one hard link"));
    assert_eq!(
        std::fs::read(fx.path("proj/.env")).expect("read"),
        b"proj/.env"
    );
}

#[test]
fn hidden_entries_count_toward_a_walks_work_bound() {
    let fx = tree();
    let set = Built::new(Kind::Own, &fx);
    set.with(|set| {
        // `proj/sub` holds `.env` (hidden), `b.txt`, `up` and `cross_env`.
        let mut walk = set
            .walk(p(&fx, "proj/sub").as_str(), WalkLimits::new(1, 4))
            .expect("walk");
        let yielded = walk.by_ref().count();
        assert_eq!(yielded, 3);
        assert!(!walk.is_truncated());
        let mut walk = set
            .walk(p(&fx, "proj/sub").as_str(), WalkLimits::new(1, 3))
            .expect("walk");
        let yielded = walk.by_ref().count();
        assert!(walk.is_truncated(), "the hidden entry was examined");
        assert!(yielded <= 3);
    });
}
