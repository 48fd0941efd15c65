//! Grants (semantics 16): the area that may be asked about, `may_ask`
//! before any question, and grants of one file or one directory, for the
//! session or for one call, judged as strictly as any root.

#![cfg(unix)]

use std::fs;
use std::io::Read;
use std::os::unix::fs::symlink;
use std::path::Path;

use mcp_roots::{Error, ErrorKind, GrantAccess, GrantKind, Patterns, RootSet, Roots, RootsBuilder};

/// `t/area/{proj/{a.md, .env, vendor/lib.rs, secrets/key}, other/b.md}`,
/// `t/outside/c.md`.
fn tree() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    for dir in [
        "area/proj/vendor",
        "area/proj/secrets",
        "area/other",
        "outside",
    ] {
        fs::create_dir_all(t.join(dir)).unwrap();
    }
    for (file, text) in [
        ("area/proj/a.md", "a"),
        ("area/proj/.env", "env"),
        ("area/proj/vendor/lib.rs", "lib"),
        ("area/proj/secrets/key", "key"),
        ("area/other/b.md", "b"),
        ("outside/c.md", "c"),
    ] {
        fs::write(t.join(file), text).unwrap();
    }
    tmp
}

fn p(t: &Path, rel: &str) -> String {
    format!("{}/{rel}", t.display())
}

fn policy(t: &Path) -> RootsBuilder {
    Roots::builder()
        .ask_within([p(t, "area")])
        .hide(Patterns::parse([".env", "secrets/"]).unwrap())
        .read_only(Patterns::parse(["vendor/"]).unwrap())
}

fn kind<T: std::fmt::Debug>(r: Result<T, Error>) -> ErrorKind {
    r.unwrap_err().kind()
}

/// Asks about `path` and grants it for the session.
fn grant(roots: &Roots, path: &str, access: GrantAccess) -> mcp_roots::GrantId {
    let about = roots.load().may_ask(path, access).unwrap();
    roots.grant(&about).unwrap()
}

#[test]
fn without_an_area_nothing_may_be_asked_about() {
    let tmp = tree();
    let t = tmp.path();
    let roots = Roots::builder().build();
    roots.replace_uris([p(t, "area/other")]);
    let err = roots
        .load()
        .may_ask(&p(t, "area/proj/a.md"), GrantAccess::Read);
    assert_eq!(kind(err), ErrorKind::OutsideRoots);
    assert!(roots.ask_area().is_none());
}

#[test]
fn an_area_without_a_ceiling_serves_nothing_until_granted() {
    let tmp = tree();
    let t = tmp.path();
    let roots = policy(t).build();
    let report = roots.replace_uris([p(t, "area/proj")]);
    assert_eq!(report.generation(), 1);
    let snapshot = roots.load();
    assert_eq!(snapshot.rejected()[0].reason(), "outside_ceiling");
    assert_eq!(
        kind(snapshot.read(&p(t, "area/proj/a.md"))),
        ErrorKind::NoRoots
    );
    // Past the area: refused before any question.
    let past = snapshot.may_ask(&p(t, "outside/c.md"), GrantAccess::Read);
    assert_eq!(kind(past), ErrorKind::OutsideRoots);
    let prefix_sibling = snapshot.may_ask(&p(t, "area_evil/x"), GrantAccess::Read);
    assert_eq!(kind(prefix_sibling), ErrorKind::OutsideRoots);
    let up = snapshot.may_ask(&p(t, "area/../outside/c.md"), GrantAccess::Read);
    assert_eq!(kind(up), ErrorKind::OutsideRoots);
}

#[test]
fn the_area_never_reaches_past_the_ceiling() {
    let tmp = tree();
    let t = tmp.path();
    let roots = Roots::builder()
        .ceiling([p(t, "area/proj")])
        .ask_within([p(t, "area/proj/vendor"), p(t, "outside"), p(t, "area")])
        .build();
    let area = roots.ask_area().unwrap();
    // `area` is clipped to the ceiling directory, `outside` refused.
    let rejected: Vec<_> = area.rejected().iter().map(|r| r.reason()).collect();
    assert_eq!(rejected, ["outside_ceiling"]);
    assert_eq!(area.len(), 2);
    let snapshot = roots.load();
    let about = snapshot.may_ask(&p(t, "area/other/b.md"), GrantAccess::Read);
    assert_eq!(kind(about), ErrorKind::OutsideRoots);
    assert!(
        snapshot
            .may_ask(&p(t, "area/proj/a.md"), GrantAccess::Read)
            .is_ok()
    );
}

#[test]
fn an_area_directory_under_a_read_only_ceiling_grants_reading_only() {
    let tmp = tree();
    let t = tmp.path();
    let roots = Roots::builder()
        .ceiling([p(t, "area")])
        .read_only_ceiling([p(t, "area/proj")])
        .ask_within([p(t, "area")])
        .build();
    let snapshot = roots.load();
    let change = snapshot.may_ask(&p(t, "area/proj/a.md"), GrantAccess::Change);
    assert_eq!(kind(change), ErrorKind::ReadOnly);
    let read = snapshot.may_ask(&p(t, "area/proj/a.md"), GrantAccess::Read);
    assert!(read.is_ok());
    // A writable grant of the directory above keeps the read-only one inside.
    let about = snapshot
        .may_ask(&p(t, "area"), GrantAccess::Change)
        .unwrap();
    roots.grant(&about).unwrap();
    let now = roots.load();
    assert_eq!(
        kind(now.write_atomic(&p(t, "area/proj/a.md"), b"x")),
        ErrorKind::ReadOnly
    );
    now.write_atomic(&p(t, "area/other/new.md"), b"x").unwrap();
}

#[test]
fn hidden_parts_are_refused_before_any_question_whether_or_not_they_exist() {
    let tmp = tree();
    let t = tmp.path();
    symlink("secrets", t.join("area/proj/alias")).unwrap();
    let roots = policy(t).build();
    let snapshot = roots.load();
    for target in [
        "area/proj/.env",
        "area/proj/.env/../a.md",
        "area/proj/missing/.env",
        "area/proj/secrets",
        "area/proj/secrets/key",
        "area/proj/secrets/none",
        "area/proj/alias/key",
        "area/proj/alias/none",
        "area/proj/alias",
    ] {
        for access in [GrantAccess::Read, GrantAccess::Change] {
            let answer = snapshot.may_ask(&p(t, target), access);
            assert_eq!(kind(answer), ErrorKind::Hidden, "{target} {access:?}");
        }
    }
}

#[test]
fn a_question_names_the_physical_path_whatever_the_spelling() {
    let tmp = tree();
    let t = tmp.path();
    symlink("proj", t.join("area/link")).unwrap();
    let roots = policy(t).build();
    let snapshot = roots.load();
    let spellings = [
        p(t, "area/proj/a.md"),
        p(t, "area/link/a.md"),
        p(t, "area/other/../proj/./a.md"),
        format!("file://{}/area/pr%6Fj/a.md", t.display()),
    ];
    let answers: Vec<_> = spellings
        .iter()
        .map(|s| snapshot.may_ask(s, GrantAccess::Read).unwrap())
        .collect();
    let physical = fs::canonicalize(t.join("area/proj/a.md")).unwrap();
    for answer in &answers {
        assert_eq!(answer, &answers[0]);
        assert_eq!(answer.path(), physical);
        assert_eq!(answer.kind(), GrantKind::File);
        assert!(answer.exists());
    }
    let dir = snapshot
        .may_ask(&p(t, "area/link"), GrantAccess::Read)
        .unwrap();
    assert_eq!(dir.kind(), GrantKind::Directory);
    assert_eq!(dir.path(), fs::canonicalize(t.join("area/proj")).unwrap());
}

#[test]
fn a_read_only_pattern_stays_read_only_and_cannot_be_asked_for_change() {
    let tmp = tree();
    let t = tmp.path();
    let roots = policy(t).build();
    let snapshot = roots.load();
    let vendor = p(t, "area/proj/vendor/lib.rs");
    assert_eq!(
        kind(snapshot.may_ask(&vendor, GrantAccess::Change)),
        ErrorKind::ReadOnly
    );
    let about = snapshot
        .may_ask(&p(t, "area/proj"), GrantAccess::Change)
        .unwrap();
    roots.grant(&about).unwrap();
    let now = roots.load();
    assert_eq!(now.read(&vendor).unwrap(), b"lib");
    assert_eq!(kind(now.write_atomic(&vendor, b"x")), ErrorKind::ReadOnly);
    assert_eq!(kind(now.read(&p(t, "area/proj/.env"))), ErrorKind::Hidden);
    assert_eq!(
        kind(now.read(&p(t, "area/proj/secrets/key"))),
        ErrorKind::Hidden
    );
    now.write_atomic(&p(t, "area/proj/a.md"), b"changed")
        .unwrap();
    assert_eq!(fs::read(t.join("area/proj/a.md")).unwrap(), b"changed");
    // The grant's own directory is never removed or renamed through it.
    assert!(now.remove_dir(&p(t, "area/proj")).is_err());
    assert!(fs::metadata(t.join("area/proj")).is_ok());
}

#[test]
fn a_read_grant_refuses_every_change() {
    let tmp = tree();
    let t = tmp.path();
    let roots = policy(t).build();
    grant(&roots, &p(t, "area/proj"), GrantAccess::Read);
    let now = roots.load();
    assert_eq!(now.read(&p(t, "area/proj/a.md")).unwrap(), b"a");
    assert_eq!(
        kind(now.write_atomic(&p(t, "area/proj/a.md"), b"x")),
        ErrorKind::ReadOnly
    );
    assert_eq!(
        kind(now.remove_file(&p(t, "area/proj/a.md"))),
        ErrorKind::ReadOnly
    );
    assert_eq!(
        kind(now.create_dir(&p(t, "area/proj/d"))),
        ErrorKind::ReadOnly
    );
}

#[test]
fn a_directory_grant_reaches_neither_its_siblings_nor_its_parent() {
    let tmp = tree();
    let t = tmp.path();
    symlink("..", t.join("area/proj/up")).unwrap();
    symlink(t.join("area/other"), t.join("area/proj/abs")).unwrap();
    symlink("../other/b.md", t.join("area/proj/rel")).unwrap();
    let roots = policy(t).build();
    grant(&roots, &p(t, "area/proj"), GrantAccess::Change);
    let now = roots.load();
    for target in [
        "area/other/b.md",
        "area/proj/../other/b.md",
        "area/proj/up/other/b.md",
        "area/proj/abs/b.md",
        "area/proj/rel",
        "area",
    ] {
        let read = now.read(&p(t, target));
        assert!(read.is_err(), "{target}");
        let listed = now.read_dir(&p(t, target));
        assert!(listed.is_err(), "{target}");
        let created = now.write_atomic(&p(t, &format!("{target}/new")), b"x");
        assert!(created.is_err(), "{target}");
    }
    assert!(!t.join("area/other/new").exists());
    assert_eq!(
        kind(now.read(&p(t, "area/proj/up/other/b.md"))),
        ErrorKind::OutsideRoots
    );
}

#[test]
fn a_file_grant_reaches_its_one_file() {
    let tmp = tree();
    let t = tmp.path();
    fs::write(t.join("area/proj/z.md"), "z").unwrap();
    let roots = policy(t).build();
    let file = p(t, "area/proj/a.md");
    let about = roots.load().may_ask(&file, GrantAccess::Change).unwrap();
    assert_eq!(about.kind(), GrantKind::File);
    roots.grant(&about).unwrap();
    let now = roots.load();
    assert_eq!(now.read(&file).unwrap(), b"a");
    let grant_root = now.roots().iter().find(|r| r.grant().is_some()).unwrap();
    assert_eq!(grant_root.grant(), Some(GrantKind::File));
    // Nothing else in its directory, nor the directory itself.
    for target in [
        "area/proj/z.md",
        "area/proj",
        "area/proj/",
        "area/proj/vendor/lib.rs",
        "area/other/b.md",
    ] {
        assert_eq!(
            kind(now.read(&p(t, target))),
            ErrorKind::OutsideRoots,
            "{target}"
        );
        assert_eq!(
            kind(now.metadata(&p(t, target))),
            ErrorKind::OutsideRoots,
            "{target}"
        );
    }
    assert!(now.read(&format!("{file}/../z.md")).is_err());
    assert!(now.read_dir(&format!("{file}/..")).is_err());
    // Its content may change; the file is never removed, renamed or made a folder.
    now.write_atomic(&file, b"new").unwrap();
    assert_eq!(fs::read(t.join("area/proj/a.md")).unwrap(), b"new");
    assert_eq!(now.read(&file).unwrap(), b"new");
    assert_eq!(kind(now.remove_file(&file)), ErrorKind::ReadOnly);
    // Another grant for a destination: the granted file still does not move.
    grant(&roots, &p(t, "area/other"), GrantAccess::Change);
    let now = roots.load();
    assert_eq!(
        kind(now.rename(&file, &p(t, "area/other/moved.md"))),
        ErrorKind::ReadOnly
    );
    assert_eq!(
        kind(now.rename(&p(t, "area/other/b.md"), &file)),
        ErrorKind::ReadOnly
    );
    assert_eq!(kind(now.create_dir(&file)), ErrorKind::ReadOnly);
    assert!(t.join("area/proj/a.md").exists());
    // Replaced on disk by a link to a sibling: the sibling stays out of reach.
    fs::remove_file(t.join("area/proj/a.md")).unwrap();
    symlink("z.md", t.join("area/proj/a.md")).unwrap();
    assert_eq!(kind(roots.load().read(&file)), ErrorKind::Hidden);
    // Replaced by a directory: nothing beneath it either (the name alone is granted).
    fs::remove_file(t.join("area/proj/a.md")).unwrap();
    fs::create_dir(t.join("area/proj/a.md")).unwrap();
    let beneath = roots.load().write_atomic(&format!("{file}/x"), b"x");
    assert_eq!(kind(beneath), ErrorKind::Hidden);
    assert!(!t.join("area/proj/a.md/x").exists());
}

#[test]
fn a_file_grant_of_a_new_name_lets_it_be_created_and_nothing_else() {
    let tmp = tree();
    let t = tmp.path();
    let roots = policy(t).build();
    let new = p(t, "area/proj/new.md");
    let snapshot = roots.load();
    let about = snapshot.may_ask(&new, GrantAccess::Change).unwrap();
    assert_eq!((about.kind(), about.exists()), (GrantKind::File, false));
    let missing_dir = snapshot.may_ask(&p(t, "area/proj/none/new.md"), GrantAccess::Change);
    assert_eq!(kind(missing_dir), ErrorKind::NotFound);
    roots.grant(&about).unwrap();
    let now = roots.load();
    now.write_atomic(&new, b"created").unwrap();
    assert_eq!(fs::read(t.join("area/proj/new.md")).unwrap(), b"created");
    assert_eq!(
        kind(now.create_dir(&p(t, "area/proj/dir"))),
        ErrorKind::OutsideRoots
    );
    assert_eq!(
        kind(now.create_new(&p(t, "area/proj/other.md"))),
        ErrorKind::OutsideRoots
    );
}

#[test]
fn session_grants_survive_a_new_list_and_are_not_shared_folders() {
    let tmp = tree();
    let t = tmp.path();
    let roots = Roots::builder()
        .ceiling([p(t, "area")])
        .ask_within([p(t, "area/proj")])
        .build();
    roots.replace_uris([p(t, "area/other")]);
    let about = roots
        .load()
        .may_ask(&p(t, "area/proj/a.md"), GrantAccess::Read)
        .unwrap();
    let id = roots.grant(&about).unwrap();
    assert_eq!(roots.grant(&about).unwrap(), id, "the same grant again");
    assert_eq!(roots.grants(), vec![(id, about.clone())]);
    roots.replace_uris([p(t, "area/other"), p(t, "outside")]);
    assert_eq!(roots.load().read(&p(t, "area/proj/a.md")).unwrap(), b"a");
    roots.replace(RootSet::from_uris(Vec::<String>::new()));
    assert_eq!(roots.load().read(&p(t, "area/proj/a.md")).unwrap(), b"a");
    assert_eq!(
        kind(roots.load().read(&p(t, "area/other/b.md"))),
        ErrorKind::OutsideRoots
    );

    // A grant alone does not count as the client having shared a folder.
    let fresh = Roots::builder()
        .ceiling([p(t, "area")])
        .ask_within([p(t, "area/proj")])
        .empty_roots(mcp_roots::EmptyRoots::Ceiling)
        .build();
    grant(&fresh, &p(t, "area/proj/a.md"), GrantAccess::Read);
    assert!(!fresh.has_shared());
    fresh.replace_undeclared();
    assert_eq!(fresh.load().read(&p(t, "area/other/b.md")).unwrap(), b"b");
}

#[test]
fn the_end_of_a_session_grant_revokes_its_files() {
    let tmp = tree();
    let t = tmp.path();
    fs::write(t.join("area/proj/z.md"), "z").unwrap();
    let roots = policy(t).build();
    let snapshot = roots.load();
    let a = snapshot
        .may_ask(&p(t, "area/proj/a.md"), GrantAccess::Read)
        .unwrap();
    let z = snapshot
        .may_ask(&p(t, "area/proj/z.md"), GrantAccess::Read)
        .unwrap();
    let (ga, gz) = (roots.grant(&a).unwrap(), roots.grant(&z).unwrap());
    let mut fa = roots.load().open(&p(t, "area/proj/a.md")).unwrap();
    let mut fz = roots.load().open(&p(t, "area/proj/z.md")).unwrap();
    let before = roots.load();
    let report = roots.end_grant(ga);
    assert_eq!(report.revoked().len(), 1);
    let err = fa.read(&mut [0; 4]).unwrap_err();
    assert_eq!(Error::from_io(&err).unwrap().kind(), ErrorKind::ScopeLost);
    let mut text = String::new();
    fz.read_to_string(&mut text).unwrap();
    assert_eq!(text, "z");
    // A snapshot taken before the end: scope_lost; a new one: outside.
    assert_eq!(
        kind(before.read(&p(t, "area/proj/a.md"))),
        ErrorKind::ScopeLost
    );
    assert_eq!(
        kind(roots.load().read(&p(t, "area/proj/a.md"))),
        ErrorKind::OutsideRoots
    );
    assert_eq!(roots.end_grant(ga).revoked().len(), 0);
    roots.end_grant(gz);
    assert!(roots.grants().is_empty());
}

#[test]
fn a_call_grant_is_never_installed() {
    let tmp = tree();
    let t = tmp.path();
    let roots = policy(t).build();
    let snapshot = roots.load();
    let about = snapshot
        .may_ask(&p(t, "area/proj"), GrantAccess::Change)
        .unwrap();
    let call = snapshot.with_grant(&about).unwrap();
    assert_eq!(call.read(&p(t, "area/proj/a.md")).unwrap(), b"a");
    call.write_atomic(&p(t, "area/proj/call.md"), b"c").unwrap();
    assert_eq!(
        kind(snapshot.read(&p(t, "area/proj/a.md"))),
        ErrorKind::NoRoots
    );
    assert_eq!(
        kind(roots.load().read(&p(t, "area/proj/a.md"))),
        ErrorKind::NoRoots
    );
    assert!(roots.grants().is_empty());
    // A new set installed since: the call's grant is gone with its view.
    let mut held = call.open(&p(t, "area/proj/a.md")).unwrap();
    roots.replace_uris(Vec::<String>::new());
    assert_eq!(
        kind(call.read(&p(t, "area/proj/a.md"))),
        ErrorKind::ScopeLost
    );
    let err = held.read(&mut [0; 4]).unwrap_err();
    assert_eq!(Error::from_io(&err).unwrap().kind(), ErrorKind::ScopeLost);
}

/// A file opened through a grant for one call knows where it is (its root
/// is in the call's set, never installed), for a directory grant and a
/// file grant alike, until the roots change and revoke it.
#[test]
fn a_file_opened_through_a_call_grant_knows_its_path() {
    let tmp = tree();
    let t = tmp.path();
    let roots = policy(t).build();
    for (granted, file, rel) in [
        ("area/proj", "area/proj/a.md", "a.md"),
        ("area/other/b.md", "area/other/b.md", "b.md"),
    ] {
        let snapshot = roots.load();
        let about = snapshot.may_ask(&p(t, granted), GrantAccess::Read).unwrap();
        let call = snapshot.with_grant(&about).unwrap();
        let held = call.open(&p(t, file)).unwrap();
        let path = held.path().unwrap();
        assert_eq!(path.rel(), rel, "{granted}");
        assert_eq!(held.root(), path.root());
        // A new set installed: the call's files are revoked.
        roots.replace_uris(Vec::<String>::new());
        assert_eq!(kind(held.path()), ErrorKind::ScopeLost, "{granted}");
    }
}

#[test]
fn a_granted_file_renamed_away_on_disk_is_revoked() {
    let tmp = tree();
    let t = tmp.path();
    let roots = policy(t).build();
    grant(&roots, &p(t, "area/proj/a.md"), GrantAccess::Read);
    let mut file = roots.load().open(&p(t, "area/proj/a.md")).unwrap();
    fs::rename(t.join("area/proj/a.md"), t.join("area/proj/gone.md")).unwrap();
    let report = roots.rescan();
    assert_eq!(report.revoked().len(), 1);
    let err = file.read(&mut [0; 4]).unwrap_err();
    assert_eq!(Error::from_io(&err).unwrap().kind(), ErrorKind::ScopeLost);
    assert_eq!(
        kind(roots.load().read(&p(t, "area/proj/gone.md"))),
        ErrorKind::OutsideRoots
    );
    // The name is what was granted: a file put back at it is reachable.
    fs::write(t.join("area/proj/a.md"), "back").unwrap();
    assert_eq!(roots.load().read(&p(t, "area/proj/a.md")).unwrap(), b"back");
}

#[cfg(feature = "watch")]
#[test]
fn the_watcher_sees_a_granted_file_renamed_away() {
    use std::time::{Duration, Instant};
    let tmp = tree();
    let t = tmp.path();
    let roots = policy(t).build();
    grant(&roots, &p(t, "area/proj/a.md"), GrantAccess::Read);
    let _guard = roots.watch(|_| {}).unwrap();
    let mut file = roots.load().open(&p(t, "area/proj/a.md")).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    fs::rename(t.join("area/proj/a.md"), t.join("area/proj/gone.md")).unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match file.read(&mut [0; 4]) {
            Err(err) => {
                assert_eq!(Error::from_io(&err).unwrap().kind(), ErrorKind::ScopeLost);
                break;
            }
            Ok(_) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Ok(_) => panic!("the watcher did not revoke the renamed granted file"),
        }
    }
}

#[test]
fn what_changed_between_the_question_and_the_answer_is_not_granted() {
    let tmp = tree();
    let t = tmp.path();
    let roots = policy(t).build();
    let about = roots
        .load()
        .may_ask(&p(t, "area/proj"), GrantAccess::Read)
        .unwrap();
    fs::rename(t.join("area/proj"), t.join("area/moved")).unwrap();
    symlink("other", t.join("area/proj")).unwrap();
    assert_eq!(kind(roots.grant(&about)), ErrorKind::NotFound);
    assert!(roots.grants().is_empty());
}

#[test]
fn a_change_grant_replaces_a_read_grant_of_the_same_thing() {
    let tmp = tree();
    let t = tmp.path();
    let roots = policy(t).build();
    let file = p(t, "area/proj/a.md");
    for target in [p(t, "area/proj/a.md"), p(t, "area/proj")] {
        let read = grant(&roots, &target, GrantAccess::Read);
        assert_eq!(grant(&roots, &target, GrantAccess::Read), read);
        let mut held = roots.load().open(&file).unwrap();
        assert_eq!(
            kind(roots.load().write_atomic(&file, b"x")),
            ErrorKind::ReadOnly
        );
        let change = grant(&roots, &target, GrantAccess::Change);
        assert_ne!(change, read);
        assert_eq!(roots.grants().len(), 1);
        roots.load().write_atomic(&file, b"changed").unwrap();
        // A read asked again is covered by the change grant.
        assert_eq!(grant(&roots, &target, GrantAccess::Read), change);
        // The file opened under the read grant is kept.
        let mut text = String::new();
        held.read_to_string(&mut text).unwrap();
        roots.end_grant(change);
    }
    // For one call too: a change grant over a session read grant.
    grant(&roots, &file, GrantAccess::Read);
    let snapshot = roots.load();
    let about = snapshot.may_ask(&file, GrantAccess::Change).unwrap();
    let call = snapshot.with_grant(&about).unwrap();
    call.write_atomic(&file, b"by the call").unwrap();
    assert_eq!(
        kind(roots.load().write_atomic(&file, b"x")),
        ErrorKind::ReadOnly
    );
}
