//! A set carries the hardening it was asked for, whichever of its roots
//! were accepted. A set built with `writes(Writes::Refuse)` (or
//! `Symlinks::Refuse`, `HardLinks::RefuseWrites`, `MountPoints::Refuse`)
//! whose roots were all rejected when it was built (missing, a file, a
//! dangling link) gets them admitted again under a ceiling once they exist
//! (`replace`, `scoped`): they come back with that hardening, not the
//! default. Request-scoped sets (`for_request`) keep it the same way when
//! the last request's roots were rejected. Without a ceiling a rejected
//! root is not revived. Each row is checked against a control built
//! without the hardening, which must succeed.

#![cfg(target_os = "linux")]

mod common;

use std::os::unix::fs::symlink;

use common::mounts::Mounts;
use mcp_roots::{
    Error, ErrorKind, HardLinks, MountPoints, OpenOptions, RootSet, RootSetBuilder, Roots,
    Symlinks, Writes,
};
use testkit::Fixture;

/// Why the root `T/r` was rejected when the set was built.
#[derive(Clone, Copy, Debug)]
enum Rejection {
    /// Nothing at the path.
    Missing,
    /// A regular file at the path.
    File,
    /// A symlink to a directory that does not exist yet.
    DanglingLink,
}

const REJECTIONS: [Rejection; 3] = [Rejection::Missing, Rejection::File, Rejection::DanglingLink];

impl Rejection {
    /// Puts the rejected state at `T/r`; the reason it gives.
    fn set_up(self, fx: &Fixture) -> &'static str {
        match self {
            Self::Missing => "not_found",
            Self::File => {
                std::fs::write(fx.path("r"), "a file").expect("write");
                "not_a_directory"
            }
            Self::DanglingLink => {
                symlink("later", fx.path("r")).expect("symlink");
                "not_found"
            }
        }
    }

    /// Makes `T/r` name a new, empty directory.
    fn fix(self, fx: &Fixture) {
        match self {
            Self::Missing => std::fs::create_dir(fx.path("r")).expect("mkdir"),
            Self::File => {
                std::fs::remove_file(fx.path("r")).expect("rm");
                std::fs::create_dir(fx.path("r")).expect("mkdir");
            }
            Self::DanglingLink => std::fs::create_dir(fx.path("later")).expect("mkdir"),
        }
    }
}

/// One hardening option: what the set asks, what `T/r` then holds, and an
/// operation it refuses (a control set without it allows the operation).
struct Row {
    name: &'static str,
    ask: fn(RootSetBuilder) -> RootSetBuilder,
    /// Fills `T/r` (a directory now); `None` if the environment cannot.
    fill: fn(&Fixture) -> Option<Mounts>,
    probe: fn(&RootSet, &Fixture) -> Result<(), Error>,
    refused: ErrorKind,
    /// Whether the hardening refuses a root whose path is a symlink, when
    /// it is opened beneath a ceiling: such a root is then refused itself.
    refuses_linked_root: bool,
}

fn p(fx: &Fixture, rel: &str) -> String {
    fx.subst(&format!("{{T}}/r/{rel}"))
}

const ROWS: &[Row] = &[
    Row {
        name: "writes Refuse: write_atomic",
        ask: |b| b.writes(Writes::Refuse),
        fill: |_| Some(Mounts::default()),
        probe: |s, fx| s.write_atomic(p(fx, "file.txt").as_str(), b"x"),
        refused: ErrorKind::ReadOnly,
        refuses_linked_root: false,
    },
    Row {
        name: "writes Refuse: create_new",
        ask: |b| b.writes(Writes::Refuse),
        fill: |_| Some(Mounts::default()),
        probe: |s, fx| s.create_new(p(fx, "new.txt").as_str()).map(drop),
        refused: ErrorKind::ReadOnly,
        refuses_linked_root: false,
    },
    Row {
        name: "writes Refuse: create_dir",
        ask: |b| b.writes(Writes::Refuse),
        fill: |_| Some(Mounts::default()),
        probe: |s, fx| s.create_dir(p(fx, "d").as_str()),
        refused: ErrorKind::ReadOnly,
        refuses_linked_root: false,
    },
    Row {
        name: "symlinks Refuse: open through a link inside",
        ask: |b| b.symlinks(Symlinks::Refuse),
        fill: |fx| {
            std::fs::write(fx.path("r/t.txt"), "t").expect("write");
            symlink("t.txt", fx.path("r/l")).expect("symlink");
            Some(Mounts::default())
        },
        probe: |s, fx| s.open(p(fx, "l").as_str()).map(drop),
        refused: ErrorKind::SymlinkLoop,
        refuses_linked_root: true,
    },
    Row {
        name: "hard links RefuseWrites: open a linked file for writing",
        ask: |b| b.hard_links(HardLinks::RefuseWrites),
        fill: |fx| {
            std::fs::write(fx.path("r/a.txt"), "a").expect("write");
            std::fs::hard_link(fx.path("r/a.txt"), fx.path("r/b.txt")).expect("link");
            Some(Mounts::default())
        },
        probe: |s, fx| {
            let options = OpenOptions::new().write(true);
            s.open_with(p(fx, "a.txt").as_str(), options).map(drop)
        },
        refused: ErrorKind::OutsideRoots,
        refuses_linked_root: false,
    },
    Row {
        name: "mount points Refuse: list a bind mount below the root",
        ask: |b| b.mount_points(MountPoints::Refuse),
        fill: |fx| {
            std::fs::create_dir(fx.path("r/bound")).expect("mkdir");
            std::fs::create_dir(fx.path("elsewhere")).expect("mkdir");
            let mut mounts = Mounts::default();
            let elsewhere = fx.subst("{T}/elsewhere");
            mounts
                .mount(&["--bind", &elsewhere], &p(fx, "bound"))
                .then_some(mounts)
        },
        probe: |s, fx| s.read_dir(p(fx, "bound").as_str()).map(drop),
        refused: ErrorKind::OutsideRoots,
        refuses_linked_root: false,
    },
];

/// How the rejected set (or its list) is admitted again.
#[derive(Clone, Copy, Debug)]
enum Admission {
    /// `replace(set)` under the ceiling `T`.
    CeilingReplace,
    /// `scoped(set)` under the ceiling `T`.
    CeilingScoped,
    /// `replace(set)` under a ceiling, then `rescan`.
    CeilingReplaceRescan,
    /// `for_request(list)` under the ceiling `T`, once while the root was
    /// rejected and once after.
    CeilingForRequest,
    /// `for_request(list)` without a ceiling, as above.
    ForRequest,
}

const ADMISSIONS: [Admission; 5] = [
    Admission::CeilingReplace,
    Admission::CeilingScoped,
    Admission::CeilingReplaceRescan,
    Admission::CeilingForRequest,
    Admission::ForRequest,
];

impl Admission {
    /// The session, before anything is admitted.
    fn session(self, fx: &Fixture) -> Roots {
        match self {
            Self::ForRequest => Roots::builder().build(),
            _ => Roots::builder().ceiling([fx.subst("{T}")]).build(),
        }
    }

    /// Runs `probe` on the set `list` gives once the root exists;
    /// `rejected` is the set built while it did not (from `list`).
    fn probe(
        self,
        fx: &Fixture,
        list: &RootSetBuilder,
        rejected: RootSet,
        fix: impl FnOnce(),
        probe: impl FnOnce(&RootSet) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let roots = self.session(fx);
        match self {
            Self::CeilingReplace => {
                fix();
                roots.replace(rejected);
                probe(&roots.load())
            }
            Self::CeilingScoped => {
                fix();
                probe(&roots.scoped(rejected))
            }
            Self::CeilingReplaceRescan => {
                fix();
                roots.replace(rejected);
                roots.rescan();
                probe(&roots.load())
            }
            Self::CeilingForRequest | Self::ForRequest => {
                let first = roots.for_request(Some(list.clone()));
                assert_eq!(first.load().len(), 0, "{self:?}: rejected at first");
                fix();
                let second = roots.for_request(Some(list.clone()));
                probe(&second.load())
            }
        }
    }
}

#[test]
fn a_set_keeps_the_hardening_it_asked_for_when_its_roots_were_rejected() {
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    for row in ROWS {
        for rejection in REJECTIONS {
            for admission in ADMISSIONS {
                for asked in [true, false] {
                    let fx = Fixture::new().expect("fixture");
                    let reason = rejection.set_up(&fx);
                    let plain = RootSet::builder().root(fx.subst("{T}/r"));
                    let list = if asked { (row.ask)(plain) } else { plain };
                    let set = list.clone().build();
                    let case = format!(
                        "{} / {rejection:?} / {admission:?} / {}",
                        row.name,
                        if asked { "asked" } else { "control" }
                    );
                    assert!(set.is_empty(), "{case}: accepted at build");
                    assert_eq!(set.rejected()[0].reason(), reason, "{case}");
                    let (mut mounts, mut len, mut before) = (None, 0, None);
                    let result = admission.probe(
                        &fx,
                        &list,
                        set,
                        || {
                            rejection.fix(&fx);
                            mounts = Some((row.fill)(&fx));
                        },
                        |set| {
                            len = set.len();
                            before = Some(fx.snapshot());
                            (row.probe)(set, &fx)
                        },
                    );
                    let Some(Some(_mounts)) = mounts else {
                        skipped.push(case);
                        continue;
                    };
                    let linked_root = matches!(rejection, Rejection::DanglingLink)
                        && !matches!(admission, Admission::ForRequest);
                    if asked && row.refuses_linked_root && linked_root {
                        // The root itself is a link: the hardening refuses it.
                        if len != 0 {
                            failures.push(format!("{case}: a linked root was admitted"));
                        }
                        continue;
                    }
                    if len != 1 {
                        failures.push(format!("{case}: {len} roots admitted"));
                        continue;
                    }
                    match (asked, result) {
                        (true, Err(e)) if e.kind() == row.refused => {}
                        (false, Ok(())) => {}
                        (_, other) => failures.push(format!("{case}: {other:?}")),
                    }
                    let changed = before.is_some_and(|b| !b.diff(&fx.snapshot()).is_empty());
                    if asked && changed {
                        failures.push(format!("{case}: changed the tree"));
                    }
                }
            }
        }
    }
    if !skipped.is_empty() {
        eprintln!("skipped (mounting is not allowed here): {skipped:?}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Without a ceiling a root rejected at build is not revived by `replace`
/// or `scoped` (a new list brings it in); a set with one root accepted and
/// one rejected comes back, under a ceiling, with both read-only.
#[test]
fn without_a_ceiling_a_rejected_root_stays_rejected_and_a_mixed_set_stays_read_only() {
    for rejection in REJECTIONS {
        let fx = Fixture::new().expect("fixture");
        rejection.set_up(&fx);
        let list = RootSet::builder()
            .root(fx.subst("{T}/r"))
            .writes(Writes::Refuse);
        let set = list.build();
        rejection.fix(&fx);
        let roots = Roots::builder().build();
        roots.replace(set.clone());
        let scoped = roots.scoped(set);
        let before = fx.snapshot();
        for set in [&*roots.load(), &scoped] {
            assert!(set.is_empty(), "{rejection:?}");
            let refused = set.write_atomic(p(&fx, "file.txt").as_str(), b"x");
            assert!(refused.is_err(), "{rejection:?}");
        }
        assert!(before.diff(&fx.snapshot()).is_empty(), "{rejection:?}");

        let fx = Fixture::new().expect("fixture");
        std::fs::create_dir(fx.path("ok")).expect("mkdir");
        rejection.set_up(&fx);
        let mixed = RootSet::builder()
            .root(fx.subst("{T}/ok"))
            .root(fx.subst("{T}/r"))
            .writes(Writes::Refuse)
            .build();
        assert_eq!((mixed.len(), mixed.rejected().len()), (1, 1));
        rejection.fix(&fx);
        let roots = Roots::builder().ceiling([fx.subst("{T}")]).build();
        roots.replace(mixed);
        let snapshot = roots.load();
        assert_eq!(
            snapshot.len(),
            2,
            "{rejection:?}: {:?}",
            snapshot.rejected()
        );
        for root in snapshot.roots() {
            assert_eq!(
                root.writes(),
                Writes::Refuse,
                "{rejection:?} {}",
                root.uri()
            );
        }
        let before = fx.snapshot();
        for target in ["ok/n.txt", "r/n.txt"] {
            let target = fx.subst(&format!("{{T}}/{target}"));
            let refused = snapshot.create_new(target.as_str()).expect_err("refused");
            assert_eq!(refused.kind(), ErrorKind::ReadOnly, "{rejection:?}");
        }
        assert!(before.diff(&fx.snapshot()).is_empty(), "{rejection:?}");
    }
}
