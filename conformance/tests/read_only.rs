//! Read-only roots: under a policy (or a set) that makes a root read-only,
//! every mutation aimed beneath it is refused with `read_only` and nothing
//! on disk changes, on every kind of set (a `RootSet` built directly, a set
//! `Roots::replace` installs, a request-scoped set), while reads, listings
//! and walks work and files come back opened for reading only.

#![cfg(unix)]

mod common;

use std::io::{Read, Write};
use std::os::unix::fs::symlink;

use mcp_roots::{
    Create, Error, ErrorKind, OpenOptions, Operation, Overwrite, RootSet, Roots, WalkLimits, Writes,
};
use testkit::Fixture;

/// `T/rw` and `T/ro`, each with `x.txt`, `sub/y.txt`, `empty/`, a link
/// `lnk -> x.txt` and a FIFO `fifo`; `T/outside/secret.txt`.
fn tree() -> Fixture {
    let fx = Fixture::new().expect("fixture");
    for root in ["rw", "ro"] {
        std::fs::create_dir_all(fx.path(&format!("{root}/sub"))).expect("mkdir");
        std::fs::create_dir(fx.path(&format!("{root}/empty"))).expect("mkdir");
        std::fs::write(fx.path(&format!("{root}/x.txt")), root).expect("write");
        std::fs::write(fx.path(&format!("{root}/sub/y.txt")), "y").expect("write");
        symlink("x.txt", fx.path(&format!("{root}/lnk"))).expect("symlink");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            fx.path(&format!("{root}/fifo")),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .expect("mkfifo");
    }
    std::fs::create_dir(fx.path("outside")).expect("mkdir");
    std::fs::write(fx.path("outside/secret.txt"), "secret").expect("write");
    fx
}

/// The kinds of set an operation can run on, each with `T/ro` read-only.
/// Some make `T/rw` read-only too (a policy or a set for all roots); the
/// ceiling kinds keep it writable.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// `RootSet::builder().writes(Writes::Refuse)`, both roots.
    Direct,
    /// `Roots` with a read-only policy, `replace(RootSet::from_uris(..))`.
    PolicyReplace,
    /// `Roots` with a read-only policy, `replace_uris`.
    PolicyReplaceUris,
    /// `Roots` with a read-only policy, `for_request`.
    PolicyForRequest,
    /// A plain `Roots`; the client set asks for read-only itself.
    ClientReplace,
    /// A plain `Roots`; a request-scoped list asks for read-only itself.
    ClientForRequest,
    /// `ceiling([rw]) + read_only_ceiling([ro])`, `replace_uris`.
    CeilingReplaceUris,
    /// The same ceiling, `replace(RootSet::from_uris(..))`.
    CeilingReplace,
    /// The same ceiling, `for_request`.
    CeilingForRequest,
    /// A ceiling above both roots, read-only for `T/ro` only: client roots
    /// clipped to the ceiling directories.
    CeilingClipped,
    /// The same ceiling, for a client that declares no roots
    /// (`EmptyRoots::Ceiling`).
    CeilingUndeclared,
}

const KINDS: [Kind; 11] = [
    Kind::Direct,
    Kind::PolicyReplace,
    Kind::PolicyReplaceUris,
    Kind::PolicyForRequest,
    Kind::ClientReplace,
    Kind::ClientForRequest,
    Kind::CeilingReplaceUris,
    Kind::CeilingReplace,
    Kind::CeilingForRequest,
    Kind::CeilingClipped,
    Kind::CeilingUndeclared,
];

/// A set of one kind, and the session that holds it (if any).
struct Built {
    set: Option<RootSet>,
    roots: Option<Roots>,
}

impl Built {
    fn new(kind: Kind, fx: &Fixture) -> Self {
        let (rw, ro) = (fx.subst("{T}/rw"), fx.subst("{T}/ro"));
        let uris = [rw.clone(), ro.clone()];
        let read_only = Roots::builder().writes(Writes::Refuse);
        let ceiling = Roots::builder()
            .ceiling([rw.clone()])
            .read_only_ceiling([ro.clone()]);
        let client = RootSet::builder().root(&rw).root(&ro);
        let session = |roots: Roots| Self {
            set: None,
            roots: Some(roots),
        };
        match kind {
            Kind::Direct => Self {
                set: Some(client.writes(Writes::Refuse).build()),
                roots: None,
            },
            Kind::PolicyReplace => {
                let roots = read_only.build();
                roots.replace(RootSet::from_uris(uris));
                session(roots)
            }
            Kind::PolicyReplaceUris => {
                let roots = read_only.build();
                roots.replace_uris(uris);
                session(roots)
            }
            Kind::PolicyForRequest => session(read_only.build().for_request(Some(client))),
            Kind::ClientReplace => {
                let roots = Roots::builder().build();
                roots.replace(client.writes(Writes::Refuse).build());
                session(roots)
            }
            Kind::ClientForRequest => {
                let roots = Roots::builder().build();
                session(roots.for_request(Some(client.writes(Writes::Refuse))))
            }
            Kind::CeilingReplaceUris => {
                let roots = ceiling.build();
                roots.replace_uris(uris);
                session(roots)
            }
            Kind::CeilingReplace => {
                let roots = ceiling.build();
                roots.replace(RootSet::from_uris(uris));
                session(roots)
            }
            Kind::CeilingForRequest => session(ceiling.build().for_request(Some(client))),
            Kind::CeilingClipped => {
                let roots = ceiling.build();
                roots.replace_uris([fx.subst("{T}")]);
                session(roots)
            }
            Kind::CeilingUndeclared => {
                let roots = ceiling.empty_roots(mcp_roots::EmptyRoots::Ceiling).build();
                roots.replace_undeclared();
                session(roots)
            }
        }
    }

    /// Runs `f` on the set (a snapshot's, for a session).
    fn with<T>(&self, f: impl FnOnce(&RootSet) -> T) -> T {
        match (&self.set, &self.roots) {
            (Some(set), _) => f(set),
            (None, Some(roots)) => f(&roots.load()),
            (None, None) => unreachable!("a built set has one or the other"),
        }
    }

    /// Whether `T/rw` is writable in this kind.
    fn rw_writable(kind: Kind) -> bool {
        matches!(
            kind,
            Kind::CeilingReplaceUris
                | Kind::CeilingReplace
                | Kind::CeilingForRequest
                | Kind::CeilingClipped
                | Kind::CeilingUndeclared
        )
    }
}

/// A mutation: its name, the operation its error carries, the input the
/// error names (relative to `T`), and the call.
struct Row {
    name: &'static str,
    op: Operation,
    blamed: &'static str,
    /// The end in `T/rw` that a rename judges first, and names, when
    /// `T/rw` is read-only too.
    first: Option<&'static str>,
    run: fn(&RootSet, &Fixture) -> Result<(), Error>,
}

fn p(fx: &Fixture, rel: &str) -> String {
    fx.subst(&format!("{{T}}/{rel}"))
}

fn uri(fx: &Fixture, rel: &str) -> String {
    fx.subst(&format!("file://{{T}}/{rel}"))
}

fn open(set: &RootSet, fx: &Fixture, rel: &str, options: OpenOptions) -> Result<(), Error> {
    set.open_with(p(fx, rel).as_str(), options).map(drop)
}

/// Every mutating operation, several rows each, aimed beneath `T/ro`:
/// existing and missing names, missing parents (where the refusal must come
/// before the disk is asked), links, FIFOs, URIs and trailing slashes.
const ROWS: &[Row] = &[
    Row {
        name: "create_new a new name",
        op: Operation::Create,
        blamed: "ro/new.txt",
        first: None,
        run: |s, fx| s.create_new(p(fx, "ro/new.txt").as_str()).map(drop),
    },
    Row {
        name: "create_new in a subdirectory, as a URI",
        op: Operation::Create,
        blamed: "ro/sub/new.txt",
        first: None,
        run: |s, fx| s.create_new(uri(fx, "ro/sub/new.txt").as_str()).map(drop),
    },
    Row {
        name: "create_new onto an existing file",
        op: Operation::Create,
        blamed: "ro/x.txt",
        first: None,
        run: |s, fx| s.create_new(p(fx, "ro/x.txt").as_str()).map(drop),
    },
    Row {
        name: "create_new under a missing parent",
        op: Operation::Create,
        blamed: "ro/missing/new.txt",
        first: None,
        run: |s, fx| s.create_new(p(fx, "ro/missing/new.txt").as_str()).map(drop),
    },
    Row {
        name: "create_new through a symlink",
        op: Operation::Create,
        blamed: "ro/lnk",
        first: None,
        run: |s, fx| s.create_new(p(fx, "ro/lnk").as_str()).map(drop),
    },
    Row {
        name: "open for writing",
        op: Operation::Open,
        blamed: "ro/x.txt",
        first: None,
        run: |s, fx| open(s, fx, "ro/x.txt", OpenOptions::new().write(true)),
    },
    Row {
        name: "open for writing only",
        op: Operation::Open,
        blamed: "ro/sub/y.txt",
        first: None,
        run: |s, fx| {
            open(
                s,
                fx,
                "ro/sub/y.txt",
                OpenOptions::new().read(false).write(true),
            )
        },
    },
    Row {
        name: "open to append",
        op: Operation::Open,
        blamed: "ro/x.txt",
        first: None,
        run: |s, fx| open(s, fx, "ro/x.txt", OpenOptions::new().append(true)),
    },
    Row {
        name: "open to truncate",
        op: Operation::Open,
        blamed: "ro/x.txt",
        first: None,
        run: |s, fx| open(s, fx, "ro/x.txt", OpenOptions::new().truncate(true)),
    },
    Row {
        name: "open a FIFO for writing (no block, no open)",
        op: Operation::Open,
        blamed: "ro/fifo",
        first: None,
        run: |s, fx| open(s, fx, "ro/fifo", OpenOptions::new().write(true)),
    },
    Row {
        name: "create or open an existing file",
        op: Operation::Create,
        blamed: "ro/x.txt",
        first: None,
        run: |s, fx| open(s, fx, "ro/x.txt", OpenOptions::new().create(Create::OrOpen)),
    },
    Row {
        name: "create or open a new file to append",
        op: Operation::Create,
        blamed: "ro/new.txt",
        first: None,
        run: |s, fx| {
            let options = OpenOptions::new().append(true).create(Create::OrOpen);
            open(s, fx, "ro/new.txt", options)
        },
    },
    Row {
        name: "create_dir",
        op: Operation::CreateDir,
        blamed: "ro/newdir",
        first: None,
        run: |s, fx| s.create_dir(p(fx, "ro/newdir").as_str()),
    },
    Row {
        name: "create_dir onto an existing directory, with a trailing slash",
        op: Operation::CreateDir,
        blamed: "ro/sub/",
        first: None,
        run: |s, fx| s.create_dir(p(fx, "ro/sub/").as_str()),
    },
    Row {
        name: "create_dir under a missing parent",
        op: Operation::CreateDir,
        blamed: "ro/missing/newdir",
        first: None,
        run: |s, fx| s.create_dir(p(fx, "ro/missing/newdir").as_str()),
    },
    Row {
        name: "create_dir_all",
        op: Operation::CreateDir,
        blamed: "ro/a/b/c",
        first: None,
        run: |s, fx| s.create_dir_all(p(fx, "ro/a/b/c").as_str()),
    },
    Row {
        name: "create_dir_all of an existing directory",
        op: Operation::CreateDir,
        blamed: "ro/sub",
        first: None,
        run: |s, fx| s.create_dir_all(uri(fx, "ro/sub").as_str()),
    },
    Row {
        name: "remove_file",
        op: Operation::Remove,
        blamed: "ro/x.txt",
        first: None,
        run: |s, fx| s.remove_file(p(fx, "ro/x.txt").as_str()),
    },
    Row {
        name: "remove_file in a subdirectory",
        op: Operation::Remove,
        blamed: "ro/sub/y.txt",
        first: None,
        run: |s, fx| s.remove_file(uri(fx, "ro/sub/y.txt").as_str()),
    },
    Row {
        name: "remove_file of a symlink",
        op: Operation::Remove,
        blamed: "ro/lnk",
        first: None,
        run: |s, fx| s.remove_file(p(fx, "ro/lnk").as_str()),
    },
    Row {
        name: "remove_file of a missing name",
        op: Operation::Remove,
        blamed: "ro/missing.txt",
        first: None,
        run: |s, fx| s.remove_file(p(fx, "ro/missing.txt").as_str()),
    },
    Row {
        name: "remove_dir",
        op: Operation::Remove,
        blamed: "ro/empty",
        first: None,
        run: |s, fx| s.remove_dir(p(fx, "ro/empty").as_str()),
    },
    Row {
        name: "remove_dir with a trailing slash",
        op: Operation::Remove,
        blamed: "ro/empty/",
        first: None,
        run: |s, fx| s.remove_dir(p(fx, "ro/empty/").as_str()),
    },
    Row {
        name: "rename within the read-only root",
        op: Operation::Rename,
        blamed: "ro/x.txt",
        first: None,
        run: |s, fx| s.rename(p(fx, "ro/x.txt").as_str(), p(fx, "ro/moved.txt").as_str()),
    },
    Row {
        name: "rename a directory within the read-only root, replacing",
        op: Operation::Rename,
        blamed: "ro/empty/",
        first: None,
        run: |s, fx| {
            let (from, to) = (p(fx, "ro/empty/"), p(fx, "ro/sub/"));
            s.rename_with(from.as_str(), to.as_str(), Overwrite::Replace)
        },
    },
    Row {
        name: "rename out of the read-only root into the writable one",
        op: Operation::Rename,
        blamed: "ro/x.txt",
        first: None,
        run: |s, fx| s.rename(p(fx, "ro/x.txt").as_str(), p(fx, "rw/moved.txt").as_str()),
    },
    Row {
        name: "rename from the writable root into the read-only one",
        op: Operation::Rename,
        blamed: "ro/moved.txt",
        first: Some("rw/x.txt"),
        run: |s, fx| s.rename(p(fx, "rw/x.txt").as_str(), p(fx, "ro/moved.txt").as_str()),
    },
    Row {
        name: "rename from the writable root over a read-only file",
        op: Operation::Rename,
        blamed: "ro/x.txt",
        first: Some("rw/sub/y.txt"),
        run: |s, fx| {
            let (from, to) = (p(fx, "rw/sub/y.txt"), p(fx, "ro/x.txt"));
            s.rename_with(from.as_str(), to.as_str(), Overwrite::Replace)
        },
    },
    Row {
        name: "write_atomic over an existing file",
        op: Operation::WriteAtomic,
        blamed: "ro/x.txt",
        first: None,
        run: |s, fx| s.write_atomic(p(fx, "ro/x.txt").as_str(), b"new"),
    },
    Row {
        name: "write_atomic of a new file, as a URI",
        op: Operation::WriteAtomic,
        blamed: "ro/sub/new.txt",
        first: None,
        run: |s, fx| s.write_atomic(uri(fx, "ro/sub/new.txt").as_str(), b"new"),
    },
    Row {
        name: "write_atomic through a symlink",
        op: Operation::WriteAtomic,
        blamed: "ro/lnk",
        first: None,
        run: |s, fx| s.write_atomic(p(fx, "ro/lnk").as_str(), b"new"),
    },
    Row {
        name: "copy within the read-only root",
        op: Operation::Copy,
        blamed: "ro/copy.txt",
        first: None,
        run: |s, fx| {
            s.copy(p(fx, "ro/x.txt").as_str(), p(fx, "ro/copy.txt").as_str())
                .map(drop)
        },
    },
    Row {
        name: "copy from the writable root into the read-only one",
        op: Operation::Copy,
        blamed: "ro/sub/copy.txt",
        first: None,
        run: |s, fx| {
            let (from, to) = (p(fx, "rw/x.txt"), p(fx, "ro/sub/copy.txt"));
            s.copy(from.as_str(), to.as_str()).map(drop)
        },
    },
    Row {
        name: "remove_file of a resolved ScopedPath",
        op: Operation::Remove,
        blamed: "x.txt",
        first: None,
        run: |s, fx| s.remove_file(&s.resolve(p(fx, "ro/lnk").as_str())?),
    },
    Row {
        name: "write_atomic to a resolved ScopedPath",
        op: Operation::WriteAtomic,
        blamed: "sub/y.txt",
        first: None,
        run: |s, fx| s.write_atomic(&s.resolve(p(fx, "ro/sub/y.txt").as_str())?, b"new"),
    },
    Row {
        name: "a root's own create_new",
        op: Operation::Create,
        blamed: "new.txt",
        first: None,
        run: |s, _| ro_root(s).create_new("new.txt").map(drop),
    },
    Row {
        name: "a root's own open for writing",
        op: Operation::Open,
        blamed: "sub/y.txt",
        first: None,
        run: |s, _| {
            let options = OpenOptions::new().write(true);
            ro_root(s).open_with("sub/y.txt", options).map(drop)
        },
    },
];

/// The accepted root at `T/ro`.
fn ro_root(set: &RootSet) -> &mcp_roots::Root {
    set.roots()
        .iter()
        .find(|r| r.resolved_path().ends_with("ro"))
        .expect("the read-only root is accepted")
}

#[test]
fn every_mutation_beneath_a_read_only_root_is_refused_and_changes_nothing() {
    let mut failures = Vec::new();
    for kind in KINDS {
        for row in ROWS {
            let fx = tree();
            let built = Built::new(kind, &fx);
            let before = fx.snapshot();
            let result = built.with(|set| (row.run)(set, &fx));
            let diff = before.diff(&fx.snapshot());
            let case = format!("{kind:?} / {}", row.name);
            match result {
                Err(e) if e.kind() == ErrorKind::ReadOnly => {
                    if e.reason() != "read_only" || e.operation() != row.op {
                        failures.push(format!("{case}: {e:?}"));
                    }
                    let rel = match row.first {
                        Some(first) if !Built::rw_writable(kind) => first,
                        _ => row.blamed,
                    };
                    let (blamed, blamed_uri) = (p(&fx, rel), uri(&fx, rel));
                    if ![blamed.as_str(), blamed_uri.as_str(), rel].contains(&e.input()) {
                        failures.push(format!("{case}: the error names {:?}", e.input()));
                    }
                }
                other => failures.push(format!("{case}: {other:?}, not read_only")),
            }
            if !diff.is_empty() {
                failures.push(format!("{case}: changed {diff:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn reads_listings_and_walks_work_and_files_are_opened_read_only() {
    for kind in KINDS {
        let fx = tree();
        let built = Built::new(kind, &fx);
        let before = fx.snapshot();
        built.with(|set| {
            for input in [p(&fx, "ro/x.txt"), uri(&fx, "ro/lnk")] {
                let mut file = set.open(input.as_str()).expect("open");
                let mut text = String::new();
                file.read_to_string(&mut text).expect("read");
                assert_eq!(text, "ro", "{kind:?}");
                let write = file.write(b"changed");
                assert!(write.is_err(), "{kind:?}: the file was opened for writing");
                assert!(
                    file.set_len(0).is_err(),
                    "{kind:?}: a read-only file truncated"
                );
                let options = OpenOptions::new().read(true);
                assert!(set.open_with(input.as_str(), options).is_ok(), "{kind:?}");
            }
            assert_eq!(
                set.read(p(&fx, "ro/sub/y.txt").as_str()).expect("read"),
                b"y"
            );
            let names = set.read_dir(p(&fx, "ro").as_str()).expect("list").count();
            assert_eq!(names, 5, "{kind:?}");
            assert!(
                set.metadata(p(&fx, "ro/sub").as_str())
                    .expect("stat")
                    .is_dir()
            );
            let scoped = set.resolve(p(&fx, "ro/lnk").as_str()).expect("resolve");
            assert_eq!(scoped.rel(), "x.txt", "{kind:?}");
            let walked = set
                .walk(p(&fx, "ro").as_str(), WalkLimits::new(4, 100))
                .expect("walk")
                .count();
            assert!(walked >= 6, "{kind:?}: walked {walked}");
            assert_eq!(
                set.open(p(&fx, "ro/../outside/secret.txt").as_str())
                    .expect_err("outside")
                    .kind(),
                ErrorKind::OutsideRoots,
                "{kind:?}: the boundary still holds"
            );
        });
        assert!(before.diff(&fx.snapshot()).is_empty(), "{kind:?}");
    }
}

#[test]
fn a_tracked_open_for_writing_is_refused_and_a_tracked_read_cannot_write() {
    for kind in KINDS {
        let fx = tree();
        let built = Built::new(kind, &fx);
        let Some(roots) = &built.roots else { continue };
        let before = fx.snapshot();
        let snapshot = roots.load();
        for (input, options) in [
            ("ro/x.txt", OpenOptions::new().write(true)),
            (
                "ro/new.txt",
                OpenOptions::new().read(false).create(Create::New),
            ),
            ("ro/sub/y.txt", OpenOptions::new().truncate(true)),
        ] {
            let refused = snapshot.open_with(p(&fx, input).as_str(), options);
            assert_eq!(
                refused.expect_err("refused").kind(),
                ErrorKind::ReadOnly,
                "{kind:?} {input}"
            );
        }
        let refused = snapshot.create_new(uri(&fx, "ro/sub/new.txt").as_str());
        assert_eq!(refused.expect_err("refused").kind(), ErrorKind::ReadOnly);
        let mut tracked = snapshot.open(p(&fx, "ro/x.txt").as_str()).expect("open");
        assert!(tracked.write(b"changed").is_err(), "{kind:?}");
        let mut text = String::new();
        tracked.read_to_string(&mut text).expect("read");
        assert_eq!(text, "ro");
        assert!(before.diff(&fx.snapshot()).is_empty(), "{kind:?}");
        assert_eq!(roots.tracked(), 1, "{kind:?}: only the read is tracked");
    }
}

#[test]
fn a_writable_root_beside_a_read_only_one_still_writes() {
    for kind in KINDS.into_iter().filter(|k| Built::rw_writable(*k)) {
        let fx = tree();
        let built = Built::new(kind, &fx);
        built.with(|set| {
            set.create_new(p(&fx, "rw/new.txt").as_str())
                .expect("create");
            set.create_dir(p(&fx, "rw/newdir").as_str()).expect("mkdir");
            set.write_atomic(p(&fx, "rw/sub/y.txt").as_str(), b"new")
                .expect("write");
            set.rename(
                p(&fx, "rw/new.txt").as_str(),
                p(&fx, "rw/newdir/n.txt").as_str(),
            )
            .expect("rename");
            // Reading from the read-only root into the writable one is a
            // read there and a write here.
            let copied = set.copy(
                p(&fx, "ro/x.txt").as_str(),
                p(&fx, "rw/from-ro.txt").as_str(),
            );
            assert_eq!(copied.expect("copy out of the read-only root"), 2);
            set.remove_file(p(&fx, "rw/x.txt").as_str())
                .expect("remove");
        });
        assert_eq!(fx.read_rel("rw/from-ro.txt").expect("copied"), b"ro");
        assert_eq!(fx.read_rel("rw/sub/y.txt").expect("written"), b"new");
        assert_eq!(fx.read_rel("ro/x.txt").expect("unchanged"), b"ro");
    }
}

#[test]
fn a_read_only_policy_cannot_be_loosened_by_the_client_set() {
    let fx = tree();
    let roots = Roots::builder().writes(Writes::Refuse).build();
    let asks_writes = RootSet::builder()
        .root(fx.subst("{T}/rw"))
        .writes(Writes::Allow);
    roots.replace(asks_writes.clone().build());
    let request = roots.for_request(Some(asks_writes.clone()));
    let scoped = roots.scoped_list(asks_writes);
    let target = p(&fx, "rw/new.txt");
    for set in [&*roots.load(), &*request.load(), &scoped] {
        let refused = set.create_new(target.as_str()).expect_err("refused");
        assert_eq!(refused.kind(), ErrorKind::ReadOnly);
    }
    assert!(!std::path::Path::new(&target).exists());
}

#[test]
fn a_read_only_ceiling_directory_covers_the_roots_beneath_it() {
    let fx = tree();
    std::fs::create_dir_all(fx.path("rw/archive/old")).expect("mkdir");
    symlink("archive", fx.path("rw/to-archive")).expect("symlink");
    let roots = Roots::builder()
        .ceiling([fx.subst("{T}/rw"), fx.subst("{T}/ro")])
        .read_only_ceiling([fx.subst("{T}/rw/archive"), fx.subst("{T}/ro")])
        .build();
    // Beneath a read-only directory as given, nested in a writable one;
    // physically beneath one through a link; listed in both lists.
    let cases = [
        (
            "rw/archive/old",
            "rw/archive/old/n.txt",
            ErrorKind::ReadOnly,
        ),
        (
            "rw/to-archive/old",
            "rw/to-archive/old/n.txt",
            ErrorKind::ReadOnly,
        ),
        ("ro", "ro/n.txt", ErrorKind::ReadOnly),
    ];
    for (root, target, expected) in cases {
        roots.replace_uris([fx.subst(&format!("{{T}}/{root}"))]);
        let snapshot = roots.load();
        assert_eq!(snapshot.len(), 1, "{root}: {:?}", snapshot.rejected());
        let refused = snapshot.create_new(p(&fx, target).as_str());
        assert_eq!(refused.expect_err(target).kind(), expected, "{root}");
    }
    // A directory listed both ways is read-only where the ceiling is
    // served whole, too.
    let whole = Roots::builder()
        .ceiling([fx.subst("{T}/ro")])
        .read_only_ceiling([fx.subst("{T}/ro/")])
        .empty_roots(mcp_roots::EmptyRoots::Ceiling)
        .build();
    whole.replace_undeclared();
    let refused = whole.load().create_new(p(&fx, "ro/n.txt").as_str());
    assert_eq!(refused.expect_err("refused").kind(), ErrorKind::ReadOnly);
    // A client root above the nested read-only directory is writable,
    // except beneath that directory: the strictest answer wins.
    roots.replace_uris([fx.subst("{T}/rw")]);
    let refused = roots.load().create_new(p(&fx, "rw/archive/n.txt").as_str());
    assert_eq!(refused.expect_err("refused").kind(), ErrorKind::ReadOnly);
    roots
        .load()
        .create_new(p(&fx, "rw/n.txt").as_str())
        .expect("the rest of the writable ceiling directory");
}

#[test]
fn roots_and_each_root_say_whether_they_write() {
    for kind in KINDS {
        let fx = tree();
        let built = Built::new(kind, &fx);
        built.with(|set| {
            for root in set.roots() {
                let rw = root.resolved_path().ends_with("rw") && Built::rw_writable(kind);
                let expected = if rw { Writes::Allow } else { Writes::Refuse };
                assert_eq!(root.writes(), expected, "{kind:?} {root:?}");
            }
        });
        let policy_read_only = matches!(
            kind,
            Kind::PolicyReplace | Kind::PolicyReplaceUris | Kind::PolicyForRequest
        );
        if let Some(roots) = &built.roots {
            let expected = if policy_read_only {
                Writes::Refuse
            } else {
                Writes::Allow
            };
            assert_eq!(roots.writes(), expected, "{kind:?}");
        }
    }
}

#[test]
fn a_replace_that_makes_a_root_read_only_revokes_its_writers_only() {
    let fx = tree();
    let rw = fx.subst("{T}/rw");
    let roots = Roots::builder().build();
    roots.replace(RootSet::from_uris([rw.clone()]));
    let snapshot = roots.load();
    let mut writer = snapshot
        .open_with(p(&fx, "rw/x.txt").as_str(), OpenOptions::new().append(true))
        .expect("a writable root opens for writing");
    let created = snapshot
        .create_new(p(&fx, "rw/new.txt").as_str())
        .expect("create");
    let mut reader = snapshot
        .open(p(&fx, "rw/sub/y.txt").as_str())
        .expect("open");
    drop(snapshot);
    let report = roots.replace(RootSet::builder().root(&rw).writes(Writes::Refuse).build());
    let mut revoked: Vec<_> = report
        .revoked()
        .iter()
        .map(|r| (r.path.clone(), r.reason))
        .collect();
    revoked.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        revoked,
        [
            ("new.txt".to_owned(), ErrorKind::ReadOnly),
            ("x.txt".to_owned(), ErrorKind::ReadOnly)
        ]
    );
    assert_eq!(created.revoked(), Some(ErrorKind::ReadOnly));
    let err = writer.write(b"more").expect_err("revoked");
    assert_eq!(
        Error::from_io(&err).map(Error::kind),
        Some(ErrorKind::ReadOnly)
    );
    let mut text = String::new();
    reader.read_to_string(&mut text).expect("a reader is kept");
    assert_eq!(text, "y");
    assert_eq!(fx.read_rel("rw/x.txt").expect("read"), b"rw");
    // Installing the same read-only set again looks at nothing.
    let again = roots.replace(RootSet::builder().root(&rw).writes(Writes::Refuse).build());
    assert!(again.revoked().is_empty());
    assert_eq!(roots.tracked(), 1);
}

#[test]
fn a_file_opened_for_writing_that_moves_into_a_read_only_root_is_revoked() {
    let fx = tree();
    let built = Built::new(Kind::CeilingReplaceUris, &fx);
    let roots = built.roots.as_ref().expect("a session");
    let snapshot = roots.load();
    let append = OpenOptions::new().append(true);
    let mut writer = snapshot
        .open_with(p(&fx, "rw/x.txt").as_str(), append)
        .expect("open for writing");
    let mut reader = snapshot
        .open(p(&fx, "rw/sub/y.txt").as_str())
        .expect("open");
    std::fs::write(fx.path("rw/stays.txt"), "stays").expect("write");
    let stays = snapshot
        .open_with(p(&fx, "rw/stays.txt").as_str(), append)
        .expect("a writer that stays");
    drop(snapshot);
    std::fs::rename(fx.path("rw/x.txt"), fx.path("ro/moved.txt")).expect("move");
    std::fs::rename(fx.path("rw/sub/y.txt"), fx.path("ro/y.txt")).expect("move");
    let report = roots.rescan();
    let revoked: Vec<_> = report
        .revoked()
        .iter()
        .map(|r| (r.path.as_str(), r.reason))
        .collect();
    assert_eq!(revoked, [("x.txt", ErrorKind::ReadOnly)]);
    assert!(writer.write(b"more").is_err());
    assert_eq!(stays.revoked(), None);
    let mut text = String::new();
    reader
        .read_to_string(&mut text)
        .expect("a reader that moved is kept");
    assert_eq!(text, "y");
    assert_eq!(fx.read_rel("ro/moved.txt").expect("read"), b"rw");
}

#[test]
fn a_repeated_list_takes_over_the_read_only_roots_it_repeats() {
    let fx = tree();
    let uris = [fx.subst("{T}/rw"), fx.subst("{T}/ro/sub"), fx.subst("{T}")];
    let roots = Roots::builder()
        .ceiling([fx.subst("{T}/rw")])
        .read_only_ceiling([fx.subst("{T}/ro")])
        .build();
    roots.replace_uris(uris.clone());
    let first = roots.load().set().clone();
    roots.replace_uris(uris.clone());
    let again = roots.load().set().clone();
    // `{T}/rw`, `{T}/ro/sub` inside `{T}/ro`, and `{T}` clipped to both.
    assert_eq!(first.len(), 4, "{:?}", first.rejected());
    // The roots listed as given are taken over (the clipped ones, which
    // carry their ceiling directory's URI, are opened again).
    for i in [0, 1] {
        let (before, now) = (&first.roots()[i], &again.roots()[i]);
        assert!(
            std::sync::Arc::ptr_eq(before, now),
            "{now:?} was opened again"
        );
    }
    let writes: Vec<_> = again.roots().iter().map(|r| r.writes()).collect();
    assert_eq!(
        writes,
        [Writes::Allow, Writes::Refuse, Writes::Allow, Writes::Refuse]
    );
}
