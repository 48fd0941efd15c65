//! No change lands under a policy the user has withdrawn: every change
//! through a `Snapshot` taken before a `replace` (or a `rescan`) is judged
//! in the set installed *now*, before its system call. Rows: every mutating
//! operation (and every open that can change a file), aimed directly
//! beneath a root and through a link or a `..` that carries it into
//! another root, after the root was made read-only, removed from the list,
//! or removed from the disk; the tree is compared after each, so a change
//! that lands and then reports an error (a truncation, a created file) is
//! caught. Reads through the old snapshot keep their documented rules.

#![cfg(unix)]

use std::io::{Read, Write};
use std::os::unix::fs::symlink;

use mcp_roots::{
    Create, Error, ErrorKind, OpenOptions, Overwrite, RootSet, Roots, ScopedPath, Snapshot,
    WalkLimits, Writes,
};
use testkit::Fixture;

/// `T/a` and `T/b/ro`, each holding the same small tree (`x.txt`,
/// `sub/y.txt`, `empty/`); `T/a/l -> ../b`, a link from root `a` into the
/// second root; `T/b/top.txt`.
fn tree() -> Fixture {
    let fx = Fixture::new().expect("fixture");
    for dir in ["a", "b/ro"] {
        std::fs::create_dir_all(fx.path(&format!("{dir}/sub"))).expect("mkdir");
        std::fs::create_dir(fx.path(&format!("{dir}/empty"))).expect("mkdir");
        std::fs::write(fx.path(&format!("{dir}/x.txt")), format!("{dir} x")).expect("write");
        std::fs::write(fx.path(&format!("{dir}/sub/y.txt")), "y").expect("write");
    }
    std::fs::write(fx.path("b/top.txt"), "top").expect("write");
    symlink("../b", fx.path("a/l")).expect("symlink");
    fx
}

/// What the user withdrew after the old snapshot was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Withdrawal {
    /// `replace(set)` with the same roots, the set asking for read-only.
    ReadOnlySet,
    /// `replace_list(list)`, the list asking for read-only.
    ReadOnlyList,
    /// `replace` with a list that leaves the root out.
    Removed,
    /// The root's directory renamed away, then `rescan`.
    GoneFromDisk,
    /// Under a ceiling whose directory `T/b/ro` is read-only: the list
    /// `[a, b]` (where `b` is writable) becomes `[a, b/ro]`, so what a link
    /// or `..` from `a` reaches in `b/ro` lies in a read-only root now.
    LandingReadOnly,
    /// The same ceiling: `[a, b]` becomes `[a]`, so the link from `a`
    /// leads outside every root now.
    LandingRemoved,
}

const WITHDRAWALS: [Withdrawal; 6] = [
    Withdrawal::ReadOnlySet,
    Withdrawal::ReadOnlyList,
    Withdrawal::Removed,
    Withdrawal::GoneFromDisk,
    Withdrawal::LandingReadOnly,
    Withdrawal::LandingRemoved,
];

impl Withdrawal {
    /// The session, with the writable roots installed.
    fn session(self, fx: &Fixture) -> Roots {
        let (a, b) = (fx.subst("{T}/a"), fx.subst("{T}/b"));
        match self {
            Self::ReadOnlySet | Self::ReadOnlyList | Self::Removed | Self::GoneFromDisk => {
                let roots = Roots::builder().build();
                roots.replace(RootSet::from_uris([a, b]));
                roots
            }
            Self::LandingReadOnly | Self::LandingRemoved => {
                let roots = Roots::builder()
                    .ceiling([fx.subst("{T}")])
                    .read_only_ceiling([fx.subst("{T}/b/ro")])
                    .build();
                roots.replace_uris([a, b]);
                roots
            }
        }
    }

    /// Withdraws it.
    fn apply(self, roots: &Roots, fx: &Fixture) {
        let (a, b) = (fx.subst("{T}/a"), fx.subst("{T}/b"));
        let report = match self {
            Self::ReadOnlySet => roots.replace(
                RootSet::builder()
                    .root(&a)
                    .root(&b)
                    .writes(Writes::Refuse)
                    .build(),
            ),
            Self::ReadOnlyList => {
                roots.replace_list(RootSet::builder().root(&a).root(&b).writes(Writes::Refuse))
            }
            Self::Removed => roots.replace(RootSet::from_uris([b])),
            Self::GoneFromDisk => {
                std::fs::rename(fx.path("a"), fx.path("a-moved")).expect("rename");
                roots.rescan()
            }
            Self::LandingReadOnly => roots.replace_uris([a, fx.subst("{T}/b/ro")]),
            Self::LandingRemoved => roots.replace_uris([a]),
        };
        assert!(report.generation() > 1, "{self:?}: {report:?}");
    }

    /// The bases (directories holding `x.txt`, `sub/y.txt`, `empty/`) whose
    /// changes this withdrawal refuses: the reason for a path, and for the
    /// base's `x.txt` resolved before (a `ScopedPath`, judged by the root
    /// it lies beneath: `b` for the bases reached across roots), if that is
    /// refused too.
    fn refused(self) -> &'static [(&'static str, ErrorKind, Option<ErrorKind>)] {
        use ErrorKind::{OutsideRoots, ReadOnly, ScopeLost};
        match self {
            Self::ReadOnlySet | Self::ReadOnlyList => &[
                ("a", ReadOnly, Some(ReadOnly)),
                ("a/l/ro", ReadOnly, Some(ReadOnly)),
                ("a/../b/ro", ReadOnly, Some(ReadOnly)),
            ],
            Self::Removed | Self::GoneFromDisk => &[
                ("a", ScopeLost, Some(ScopeLost)),
                ("a/l/ro", ScopeLost, None),
                ("a/../b/ro", ScopeLost, None),
            ],
            Self::LandingReadOnly => &[
                ("a/l/ro", ReadOnly, Some(ScopeLost)),
                ("a/../b/ro", ReadOnly, Some(ScopeLost)),
            ],
            Self::LandingRemoved => &[
                ("a/l/ro", OutsideRoots, Some(ScopeLost)),
                ("a/../b/ro", OutsideRoots, Some(ScopeLost)),
            ],
        }
    }
}

/// Where a row acts: absolute paths below one base, and the base's
/// `x.txt` resolved (a `ScopedPath`) before the withdrawal.
struct At<'f> {
    fx: &'f Fixture,
    base: &'static str,
    scoped_x: ScopedPath,
}

impl At<'_> {
    fn p(&self, rel: &str) -> String {
        self.fx.subst(&format!("{{T}}/{}/{rel}", self.base))
    }

    /// The URI of `rel`; for a base with `..`, the path (a URI's dot
    /// segments are removed as text, so its `..` would carry nothing
    /// across roots).
    fn uri(&self, rel: &str) -> String {
        if self.base.contains("..") {
            return self.p(rel);
        }
        self.fx.subst(&format!("file://{{T}}/{}/{rel}", self.base))
    }

    /// Whether the base is reached across roots (a link or a `..`).
    fn across(&self) -> bool {
        self.base != "a"
    }
}

/// One change through a snapshot.
struct Row {
    name: &'static str,
    /// Aimed at the `ScopedPath` resolved before the withdrawal.
    scoped: bool,
    /// Whether it follows a path across roots (`create_dir_all` refuses
    /// every symlinked component and keeps its `..` beneath the root).
    across: bool,
    run: fn(&Snapshot<'_>, &At<'_>) -> Result<(), Error>,
}

fn open(s: &Snapshot<'_>, at: &At<'_>, rel: &str, options: OpenOptions) -> Result<(), Error> {
    s.open_with(at.p(rel).as_str(), options).map(drop)
}

/// Every change a snapshot offers, several forms each.
const ROWS: &[Row] = &[
    Row {
        name: "open for writing",
        scoped: false,
        across: true,
        run: |s, at| open(s, at, "x.txt", OpenOptions::new().write(true)),
    },
    Row {
        name: "open for writing, truncating",
        scoped: false,
        across: true,
        run: |s, at| {
            open(
                s,
                at,
                "x.txt",
                OpenOptions::new().write(true).truncate(true),
            )
        },
    },
    Row {
        name: "open to read, truncating",
        scoped: false,
        across: true,
        run: |s, at| open(s, at, "sub/y.txt", OpenOptions::new().truncate(true)),
    },
    Row {
        name: "open to append",
        scoped: false,
        across: true,
        run: |s, at| open(s, at, "x.txt", OpenOptions::new().append(true)),
    },
    Row {
        name: "create or open a new name",
        scoped: false,
        across: true,
        run: |s, at| {
            let options = OpenOptions::new().write(true).create(Create::OrOpen);
            open(s, at, "new.txt", options)
        },
    },
    Row {
        name: "create or open an existing file, truncating",
        scoped: false,
        across: true,
        run: |s, at| {
            let options = OpenOptions::new()
                .write(true)
                .truncate(true)
                .create(Create::OrOpen);
            open(s, at, "x.txt", options)
        },
    },
    Row {
        name: "create_new",
        scoped: false,
        across: true,
        run: |s, at| s.create_new(at.p("new.txt").as_str()).map(drop),
    },
    Row {
        name: "create_new in a subdirectory, as a URI",
        scoped: false,
        across: true,
        run: |s, at| s.create_new(at.uri("sub/new.txt").as_str()).map(drop),
    },
    Row {
        name: "create_dir",
        scoped: false,
        across: true,
        run: |s, at| s.create_dir(at.p("newdir").as_str()),
    },
    Row {
        name: "create_dir_all",
        scoped: false,
        across: false,
        run: |s, at| s.create_dir_all(at.p("n/e/w").as_str()),
    },
    Row {
        name: "remove_file",
        scoped: false,
        across: true,
        run: |s, at| s.remove_file(at.p("x.txt").as_str()),
    },
    Row {
        name: "remove_file in a subdirectory, as a URI",
        scoped: false,
        across: true,
        run: |s, at| s.remove_file(at.uri("sub/y.txt").as_str()),
    },
    Row {
        name: "remove_file of a ScopedPath resolved before",
        scoped: true,
        across: true,
        run: |s, at| s.remove_file(&at.scoped_x),
    },
    Row {
        name: "remove_dir",
        scoped: false,
        across: true,
        run: |s, at| s.remove_dir(at.p("empty").as_str()),
    },
    Row {
        name: "rename",
        scoped: false,
        across: true,
        run: |s, at| s.rename(at.p("x.txt").as_str(), at.p("moved.txt").as_str()),
    },
    Row {
        name: "rename_with, replacing",
        scoped: false,
        across: true,
        run: |s, at| {
            let (from, to) = (at.p("x.txt"), at.p("sub/y.txt"));
            s.rename_with(from.as_str(), to.as_str(), Overwrite::Replace)
        },
    },
    Row {
        name: "write_atomic over a file",
        scoped: false,
        across: true,
        run: |s, at| s.write_atomic(at.p("x.txt").as_str(), b"new"),
    },
    Row {
        name: "write_atomic of a new name, as a URI",
        scoped: false,
        across: true,
        run: |s, at| s.write_atomic(at.uri("sub/new.txt").as_str(), b"new"),
    },
    Row {
        name: "write_atomic to a ScopedPath resolved before",
        scoped: true,
        across: true,
        run: |s, at| s.write_atomic(&at.scoped_x, b"new"),
    },
    Row {
        name: "copy",
        scoped: false,
        across: true,
        run: |s, at| {
            s.copy(at.p("x.txt").as_str(), at.p("copy.txt").as_str())
                .map(drop)
        },
    },
];

/// Every row, through a snapshot taken before each withdrawal, aimed at
/// each base the withdrawal covers: refused with the expected reason, and
/// the tree unchanged.
#[test]
fn no_change_through_an_old_snapshot_lands_under_a_withdrawn_policy() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for withdrawal in WITHDRAWALS {
        for &(base, path_kind, scoped_kind) in withdrawal.refused() {
            for row in ROWS {
                let expected = match (row.scoped, scoped_kind) {
                    (false, _) => path_kind,
                    (true, Some(kind)) => kind,
                    (true, None) => continue,
                };
                let fx = tree();
                let roots = withdrawal.session(&fx);
                let old = roots.load();
                let at = at(&fx, &old, base);
                if at.across() && !row.across {
                    continue;
                }
                withdrawal.apply(&roots, &fx);
                let before = fx.snapshot();
                let result = (row.run)(&old, &at);
                let diff = before.diff(&fx.snapshot());
                let case = format!("{withdrawal:?} / {base} / {}", row.name);
                match result {
                    Err(e) if e.kind() == expected => {}
                    other => failures.push(format!("{case}: {other:?}, not {expected:?}")),
                }
                if !diff.is_empty() {
                    failures.push(format!("{case}: changed {diff:?}"));
                }
                // A snapshot taken now refuses the same change, and a
                // removed root is then no root at all.
                let fresh = roots.load();
                let now = (row.run)(&fresh, &at).map_err(|e| e.kind());
                if now.is_ok() {
                    failures.push(format!("{case}: a new snapshot made the change"));
                }
                checked += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 14 * ROWS.len(), "{checked} cases");
}

/// The rows are real changes: through a snapshot with nothing withdrawn
/// (fresh, or old after a replace or rescan that kept the roots as they
/// were), each one succeeds and changes the tree.
#[test]
fn every_row_changes_the_tree_when_nothing_was_withdrawn() {
    let mut failures = Vec::new();
    for keep in ["nothing", "the same list again", "a rescan"] {
        for base in ["a", "a/l/ro", "a/../b/ro"] {
            for row in ROWS {
                let fx = tree();
                let roots = Withdrawal::Removed.session(&fx);
                let old = roots.load();
                let at = at(&fx, &old, base);
                if at.across() && !row.across {
                    continue;
                }
                match keep {
                    "the same list again" => {
                        roots.replace(RootSet::from_uris([fx.subst("{T}/a"), fx.subst("{T}/b")]));
                    }
                    "a rescan" => {
                        roots.rescan();
                    }
                    _ => {}
                }
                let before = fx.snapshot();
                let result = (row.run)(&old, &at);
                let case = format!("{keep} / {base} / {}", row.name);
                if let Err(e) = result {
                    failures.push(format!("{case}: {e:?}"));
                } else if before.diff(&fx.snapshot()).is_empty()
                    && !row.name.starts_with("open for writing")
                    && row.name != "open to append"
                {
                    failures.push(format!("{case}: nothing changed"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Under the landing withdrawals, a change aimed directly beneath `a`
/// (which stayed, writable) still lands through the old snapshot.
#[test]
fn a_root_that_stayed_writable_still_takes_changes_from_an_old_snapshot() {
    for withdrawal in [Withdrawal::LandingReadOnly, Withdrawal::LandingRemoved] {
        let fx = tree();
        let roots = withdrawal.session(&fx);
        let old = roots.load();
        withdrawal.apply(&roots, &fx);
        let x = fx.subst("{T}/a/x.txt");
        old.write_atomic(x.as_str(), b"kept").expect("write_atomic");
        old.create_new(fx.subst("{T}/a/new.txt").as_str())
            .expect("create_new")
            .write_all(b"n")
            .expect("write");
        old.rename(x.as_str(), fx.subst("{T}/a/sub/x.txt").as_str())
            .expect("rename");
        assert_eq!(fx.read_rel("a/sub/x.txt").expect("moved"), b"kept");
        assert_eq!(fx.read_rel("a/new.txt").expect("created"), b"n");
    }
}

/// Reads through an old snapshot: under a root made read-only they work
/// (and files come back read-only); under a removed root they are refused
/// with `scope_lost`.
#[test]
fn reads_through_an_old_snapshot_keep_their_rules() {
    for withdrawal in [Withdrawal::ReadOnlySet, Withdrawal::ReadOnlyList] {
        let fx = tree();
        let roots = withdrawal.session(&fx);
        let old = roots.load();
        withdrawal.apply(&roots, &fx);
        let x = fx.subst("{T}/a/x.txt");
        let mut text = String::new();
        let mut file = old.open(x.as_str()).expect("open");
        file.read_to_string(&mut text).expect("read");
        assert_eq!(text, "a x", "{withdrawal:?}");
        assert_eq!(old.read(x.as_str()).expect("read"), b"a x");
        assert_eq!(
            old.read_dir(fx.subst("{T}/a").as_str())
                .expect("ls")
                .count(),
            4
        );
        assert!(
            old.metadata(fx.subst("{T}/a/sub").as_str())
                .expect("stat")
                .is_dir()
        );
        assert_eq!(old.resolve(x.as_str()).expect("resolve").rel(), "x.txt");
        let walk = old.walk(fx.subst("{T}/a").as_str(), WalkLimits::new(3, 50));
        assert!(walk.expect("walk").count() >= 5);
        assert_eq!(
            old.open_with(x.as_str(), OpenOptions::new().read(true))
                .expect("a read-only open")
                .read_to_string(&mut String::new())
                .expect("read"),
            3
        );
    }
    for withdrawal in [Withdrawal::Removed, Withdrawal::GoneFromDisk] {
        let fx = tree();
        let roots = withdrawal.session(&fx);
        let old = roots.load();
        withdrawal.apply(&roots, &fx);
        let x = fx.subst("{T}/a/x.txt");
        let kinds = [
            old.open(x.as_str()).map(drop).map_err(|e| e.kind()),
            old.read(x.as_str()).map(drop).map_err(|e| e.kind()),
            old.read_dir(fx.subst("{T}/a").as_str())
                .map(drop)
                .map_err(|e| e.kind()),
            old.metadata(x.as_str()).map(drop).map_err(|e| e.kind()),
        ];
        for kind in kinds {
            assert_eq!(kind, Err(ErrorKind::ScopeLost), "{withdrawal:?}");
        }
    }
}

/// A file opened for writing before a root was made read-only is revoked
/// by the replace (`read_only`) and cannot write any more; one opened for
/// reading keeps reading.
#[test]
fn a_writing_handle_opened_before_a_read_only_replace_writes_no_more() {
    {
        for base in ["a", "a/l/ro", "a/../b/ro"] {
            let fx = tree();
            let roots = Withdrawal::ReadOnlySet.session(&fx);
            let old = roots.load();
            let x = fx.subst(&format!("{{T}}/{base}/x.txt"));
            let mut writer = old
                .open_with(x.as_str(), OpenOptions::new().write(true))
                .expect("open for writing");
            let mut reader = old.open(x.as_str()).expect("open");
            writer.write_all(b"before").expect("write before");
            let report = roots.replace(
                RootSet::builder()
                    .root(fx.subst("{T}/a"))
                    .root(fx.subst("{T}/b"))
                    .writes(Writes::Refuse)
                    .build(),
            );
            let revoked: Vec<_> = report.revoked().iter().map(|r| r.reason).collect();
            assert_eq!(revoked, [ErrorKind::ReadOnly], "{base}");
            let err = writer.write_all(b"after").expect_err("revoked");
            let err = Error::from_io(&err).expect("a library error");
            assert_eq!(err.kind(), ErrorKind::ReadOnly, "{base}");
            let mut text = String::new();
            reader
                .read_to_string(&mut text)
                .expect("the reader is kept");
            assert_eq!(text, "before", "{base}");
            let physical = format!("{}/x.txt", base.replace("a/l", "b"));
            assert_eq!(fx.read_rel(&physical).expect("read"), b"before");
        }
    }
}

/// The base's `x.txt`, resolved through `snapshot` (before anything is
/// withdrawn).
fn at<'f>(fx: &'f Fixture, snapshot: &Snapshot<'_>, base: &'static str) -> At<'f> {
    let x = fx.subst(&format!("{{T}}/{base}/x.txt"));
    let scoped_x = snapshot.resolve(x.as_str()).expect("resolve x.txt");
    At { fx, base, scoped_x }
}

/// A change is made only where the old snapshot's view and the installed
/// set both allow it: a root added since is not reached through a snapshot
/// taken before (`outside_roots`, its own answer), while a new snapshot
/// reaches it.
#[test]
fn a_root_added_since_is_not_changed_through_an_old_snapshot() {
    let fx = tree();
    let roots = Roots::builder().build();
    roots.replace(RootSet::from_uris([fx.subst("{T}/a")]));
    let old = roots.load();
    roots.replace(RootSet::from_uris([fx.subst("{T}/a"), fx.subst("{T}/b")]));
    let before = fx.snapshot();
    let target = fx.subst("{T}/b/new.txt");
    let attempts = [
        old.write_atomic(target.as_str(), b"n"),
        old.create_new(target.as_str()).map(drop),
        old.create_dir(fx.subst("{T}/b/d").as_str()),
        old.remove_file(fx.subst("{T}/b/top.txt").as_str()),
        old.copy(fx.subst("{T}/a/x.txt").as_str(), target.as_str())
            .map(drop),
    ];
    for attempt in attempts {
        assert_eq!(attempt.map_err(|e| e.kind()), Err(ErrorKind::OutsideRoots));
    }
    assert!(before.diff(&fx.snapshot()).is_empty());
    roots
        .load()
        .write_atomic(target.as_str(), b"n")
        .expect("a new snapshot reaches the new root");
}
