//! `move_with` between two file systems: a regular file is copied (mode and
//! times kept) and its name removed; anything else is refused and left
//! where it was; a copy whose source cannot be removed is taken back.
//!
//! The two file systems are the temporary directory's and `/dev/shm` (a
//! tmpfs on every Linux CI machine); where they are one file system the
//! test says so and checks nothing across.

#![cfg(target_os = "linux")]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

use mcp_roots::{ErrorKind, Overwrite, Patterns, RootSet, Writes};

struct Two {
    _a: tempfile::TempDir,
    _b: tempfile::TempDir,
    a: PathBuf,
    b: PathBuf,
    set: RootSet,
}

/// Two roots on two file systems, or `None` (said) where there is one.
fn two_file_systems() -> Option<Two> {
    let a_dir = tempfile::tempdir().expect("tempdir");
    let b_dir = match tempfile::tempdir_in("/dev/shm") {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("skipped: no /dev/shm to hold a second file system ({e})");
            return None;
        }
    };
    let a = a_dir.path().canonicalize().expect("canonical");
    let b = b_dir.path().canonicalize().expect("canonical");
    let dev = |p: &Path| std::fs::metadata(p).expect("stat").dev();
    if dev(&a) == dev(&b) {
        eprintln!("skipped: the temporary directory and /dev/shm are one file system here");
        return None;
    }
    let set = RootSet::from_uris([s(&a), s(&b)]);
    Some(Two {
        _a: a_dir,
        _b: b_dir,
        a,
        b,
        set,
    })
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8")
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().into_string().expect("utf-8"))
        .collect();
    names.sort();
    names
}

#[test]
fn a_regular_file_moves_both_ways_keeping_mode_and_times() {
    let Some(t) = two_file_systems() else { return };
    let past = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    for (i, (from_dir, to_dir, mode)) in [(&t.a, &t.b, 0o640), (&t.b, &t.a, 0o604)]
        .into_iter()
        .enumerate()
    {
        let from = from_dir.join(format!("f{i}.txt"));
        let to = to_dir.join(format!("moved{i}.txt"));
        let content = format!("content {i}\n").repeat(10_000);
        std::fs::write(&from, &content).expect("seed");
        std::fs::set_permissions(&from, std::fs::Permissions::from_mode(mode)).expect("chmod");
        let file = std::fs::File::options()
            .write(true)
            .open(&from)
            .expect("open");
        file.set_modified(past).expect("times");
        drop(file);
        t.set
            .move_with(s(&from), s(&to), Overwrite::Refuse)
            .expect("a regular file moves across file systems");
        assert!(!from.exists(), "the source's name is gone");
        assert_eq!(std::fs::read_to_string(&to).expect("read"), content);
        let meta = std::fs::metadata(&to).expect("stat");
        assert_eq!(meta.permissions().mode() & 0o7777, mode);
        assert_eq!(meta.modified().expect("mtime"), past);
        assert_eq!(
            names(to_dir),
            [format!("moved{i}.txt")],
            "no temporary file is left"
        );
    }
}

#[test]
fn rename_alone_still_refuses_to_cross() {
    let Some(t) = two_file_systems() else { return };
    let from = t.a.join("f.txt");
    std::fs::write(&from, "x").expect("seed");
    let err = t
        .set
        .rename(s(&from), s(&t.b.join("f.txt")))
        .expect_err("rename is one atomic step, never a copy");
    assert_eq!(err.kind(), ErrorKind::Io);
    assert!(from.exists());
    assert!(names(&t.b).is_empty());
}

#[test]
fn a_directory_a_link_and_a_fifo_stay_where_they_are() {
    let Some(t) = two_file_systems() else { return };
    std::fs::create_dir(t.a.join("dir")).expect("mkdir");
    std::fs::write(t.a.join("dir/inner.txt"), "x").expect("seed");
    std::fs::write(t.a.join("target.txt"), "x").expect("seed");
    std::os::unix::fs::symlink("target.txt", t.a.join("link")).expect("symlink");
    let fifo = Command::new("mkfifo").arg(t.a.join("fifo")).status();
    let mut cases = vec![("dir", "directory"), ("link", "regular file")];
    if fifo.is_ok_and(|s| s.success()) {
        cases.push(("fifo", "regular file"));
    }
    for (name, said) in cases {
        let err = t
            .set
            .move_with(s(&t.a.join(name)), s(&t.b.join(name)), Overwrite::Refuse)
            .expect_err("only a regular file crosses");
        assert_eq!(err.kind(), ErrorKind::Io, "{name}: {err}");
        assert!(
            err.detail().is_some_and(|d| d.contains(said)),
            "{name}: the detail says why: {err}"
        );
        assert!(
            std::fs::symlink_metadata(t.a.join(name)).is_ok(),
            "{name} stays"
        );
    }
    assert_eq!(names(&t.a.join("dir")), ["inner.txt"]);
    assert!(names(&t.b).is_empty(), "nothing was made on the other side");
}

#[test]
fn an_existing_destination_is_kept_unless_replacing_is_asked() {
    let Some(t) = two_file_systems() else { return };
    let (from, to) = (t.a.join("f.txt"), t.b.join("there.txt"));
    std::fs::write(&from, "new").expect("seed");
    std::fs::write(&to, "old").expect("seed");
    let err = t
        .set
        .move_with(s(&from), s(&to), Overwrite::Refuse)
        .expect_err("never replaces");
    assert_eq!(err.kind(), ErrorKind::AlreadyExists);
    assert_eq!(std::fs::read_to_string(&from).expect("read"), "new");
    assert_eq!(std::fs::read_to_string(&to).expect("read"), "old");
    assert_eq!(names(&t.b), ["there.txt"]);

    t.set
        .move_with(s(&from), s(&to), Overwrite::Replace)
        .expect("replaces when asked");
    assert!(!from.exists());
    assert_eq!(std::fs::read_to_string(&to).expect("read"), "new");
}

#[test]
fn a_read_only_or_hidden_end_refuses_before_anything_is_copied() {
    let Some(t) = two_file_systems() else { return };
    std::fs::write(t.a.join("f.txt"), "x").expect("seed");
    std::fs::write(t.a.join("kept.txt"), "k").expect("seed");
    std::fs::write(t.b.join("g.txt"), "y").expect("seed");
    let parts = RootSet::builder()
        .root(s(&t.a))
        .root(s(&t.b))
        .read_only(Patterns::parse(["kept.txt"]).expect("pattern"))
        .hide(Patterns::parse(["secret*"]).expect("pattern"))
        .build();
    let read_only = RootSet::builder()
        .root(s(&t.a))
        .root(s(&t.b))
        .writes(Writes::Refuse)
        .build();
    for (set, from, to, kind) in [
        (
            &parts,
            t.a.join("f.txt"),
            t.b.join("kept.txt"),
            ErrorKind::ReadOnly,
        ),
        (
            &parts,
            t.a.join("kept.txt"),
            t.b.join("k.txt"),
            ErrorKind::ReadOnly,
        ),
        (
            &parts,
            t.b.join("g.txt"),
            t.a.join("secret.txt"),
            ErrorKind::Hidden,
        ),
        (
            &read_only,
            t.a.join("f.txt"),
            t.b.join("f.txt"),
            ErrorKind::ReadOnly,
        ),
        (
            &read_only,
            t.b.join("g.txt"),
            t.a.join("g.txt"),
            ErrorKind::ReadOnly,
        ),
    ] {
        let err = set
            .move_with(s(&from), s(&to), Overwrite::Refuse)
            .expect_err("refused");
        assert_eq!(
            err.kind(),
            kind,
            "{} -> {}: {err}",
            from.display(),
            to.display()
        );
        assert_eq!(names(&t.a), ["f.txt", "kept.txt"]);
        assert_eq!(names(&t.b), ["g.txt"]);
    }
}

/// A source whose name cannot be removed (immutable, which stops even
/// root) leaves one file, where it was: the copy is taken back.
#[test]
fn a_source_that_cannot_be_removed_takes_its_copy_back() {
    let Some(t) = two_file_systems() else { return };
    let from = t.a.join("stuck.txt");
    std::fs::write(&from, "x").expect("seed");
    let chattr = |flag: &str| {
        Command::new("chattr")
            .arg(flag)
            .arg(&from)
            .status()
            .is_ok_and(|s| s.success())
    };
    if !chattr("+i") {
        eprintln!("skipped: chattr +i is not available on this file system");
        return;
    }
    let result = t
        .set
        .move_with(s(&from), s(&t.b.join("stuck.txt")), Overwrite::Refuse);
    assert!(chattr("-i"), "the flag is cleared again");
    let err = result.expect_err("the source could not be removed");
    assert_eq!(err.kind(), ErrorKind::PermissionDenied, "{err}");
    assert_eq!(std::fs::read_to_string(&from).expect("read"), "x");
    assert!(
        names(&t.b).is_empty(),
        "the copy was removed: {:?}",
        names(&t.b)
    );
}
