//! The directory reader: whole listings across many `getdents64` buffers,
//! the reuse of one reader for several directories, the type fallback,
//! and directories that change or vanish while read.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs;
use std::path::Path;

use cap_std::fs::Dir;

use super::{Entries, EntryKind};

/// `path` opened for reading, as the walk opens each directory (cap-std's
/// own opening of a directory is a location handle on Linux, which cannot
/// be read).
#[cfg(unix)]
fn open(path: &Path) -> Dir {
    Dir::from_std_file(fs::File::open(path).expect("open dir"))
}

#[cfg(windows)]
fn open(path: &Path) -> Dir {
    Dir::open_ambient_dir(path, cap_std::ambient_authority()).expect("open dir")
}

/// Every entry `entries` reads, by name, and the errors among them.
fn drain(entries: &mut Entries) -> (BTreeMap<OsString, EntryKind>, usize) {
    let (mut seen, mut errors) = (BTreeMap::new(), 0);
    while let Some(entry) = entries.next() {
        match entry {
            Ok(entry) => {
                let earlier = seen.insert(entry.name.to_owned(), entry.kind);
                assert!(earlier.is_none(), "{:?} read twice", entry.name);
            }
            Err(_) => errors += 1,
        }
    }
    (seen, errors)
}

/// 5,000 files (every 7th with a 255-byte name), 40 directories and, on
/// Unix, a symlink to one of them: many times what one buffer holds.
fn big(base: &Path) -> BTreeMap<OsString, EntryKind> {
    let mut want = BTreeMap::new();
    for i in 0..5000 {
        let name = if i % 7 == 0 {
            format!("{i:05}{}", "n".repeat(250))
        } else {
            format!("f{i}")
        };
        fs::write(base.join(&name), "").expect("write");
        want.insert(name.into(), EntryKind::File);
    }
    for i in 0..40 {
        fs::create_dir(base.join(format!("d{i}"))).expect("mkdir");
        want.insert(format!("d{i}").into(), EntryKind::Dir);
    }
    if crate::sys::symlinks_work() {
        crate::sys::symlink_dir(Path::new("d0"), &base.join("link")).expect("symlink");
        want.insert("link".into(), EntryKind::Symlink);
    }
    want
}

#[test]
fn a_directory_larger_than_the_buffer_is_read_whole_once() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let want = big(tmp.path());
    assert_eq!(want.keys().filter(|n| n.len() == 255).count(), 715);
    let mut entries = Entries::default();
    entries.start(open(tmp.path())).expect("start");
    assert_eq!(drain(&mut entries), (want, 0));
    // Exhausted: it stays so.
    assert!(entries.next().is_none());
}

#[test]
fn one_reader_reads_one_directory_after_another() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (a, b, empty) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("e"),
    );
    fs::create_dir(&a).unwrap();
    let want_a = big(&a);
    fs::create_dir_all(b.join("sub")).unwrap();
    fs::write(b.join("x"), "").unwrap();
    fs::create_dir(&empty).unwrap();
    let want_b = BTreeMap::from([
        ("sub".into(), EntryKind::Dir),
        ("x".into(), EntryKind::File),
    ]);
    let mut entries = Entries::default();
    // `a` left half read, then `b`, the empty one, `a` again from its start.
    entries.start(open(&a)).unwrap();
    for _ in 0..2500 {
        entries.next().expect("an entry").expect("read");
    }
    entries.start(open(&b)).unwrap();
    assert_eq!(drain(&mut entries), (want_b, 0));
    entries.start(open(&empty)).unwrap();
    assert_eq!(drain(&mut entries), (BTreeMap::new(), 0));
    entries.start(open(&a)).unwrap();
    assert_eq!(drain(&mut entries), (want_a, 0));
    // Closed: nothing, even in the middle of a directory.
    entries.start(open(&b)).unwrap();
    assert!(entries.next().is_some());
    entries.close();
    assert!(entries.next().is_none());
    assert!(Entries::default().next().is_none());
}

// Windows refuses to remove or rename a directory open for reading.
#[cfg(unix)]
#[test]
fn a_directory_removed_while_read_ends_without_a_panic() {
    for removed_after in [0, 1, 2000] {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("d");
        fs::create_dir(&dir).unwrap();
        let want = big(&dir);
        let mut entries = Entries::default();
        entries.start(open(&dir)).unwrap();
        let mut seen = 0;
        for _ in 0..removed_after {
            entries.next().expect("an entry").expect("read");
            seen += 1;
        }
        fs::remove_dir_all(&dir).unwrap();
        // What was read before the removal comes out; then the directory
        // ends, with at most one error, within as many steps as it had.
        let mut errors = 0;
        while let Some(entry) = entries.next() {
            match entry {
                Ok(_) => seen += 1,
                Err(_) => errors += 1,
            }
            assert!(seen + errors <= want.len() + 1, "no end");
        }
        assert!(errors <= 1, "{errors} errors after {removed_after}");
        assert!(seen >= removed_after);
    }
}

// Windows refuses to remove or rename a directory open for reading.
#[cfg(unix)]
#[test]
fn a_directory_replaced_while_read_is_read_as_it_was_opened() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (dir, moved) = (tmp.path().join("d"), tmp.path().join("moved"));
    fs::create_dir(&dir).unwrap();
    let want = big(&dir);
    let mut entries = Entries::default();
    entries.start(open(&dir)).unwrap();
    let first = entries
        .next()
        .expect("an entry")
        .expect("read")
        .name
        .to_owned();
    fs::rename(&dir, &moved).unwrap();
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("new"), "").unwrap();
    let (mut seen, errors) = drain(&mut entries);
    let kind = want[&first];
    seen.insert(first, kind);
    assert_eq!((seen, errors), (want, 0));
}

#[cfg(unix)]
#[test]
fn a_name_that_is_not_utf8_is_read_as_it_is() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().expect("tempdir");
    let odd = std::ffi::OsStr::from_bytes(b"bad\xff\xfename");
    if fs::write(tmp.path().join(odd), "").is_err() {
        return; // a file system that refuses such names (macOS APFS)
    }
    fs::write(tmp.path().join("good"), "").unwrap();
    let mut entries = Entries::default();
    entries.start(open(tmp.path())).unwrap();
    let (seen, errors) = drain(&mut entries);
    assert_eq!(errors, 0);
    let want = [odd.to_owned(), OsString::from("good")];
    assert_eq!(seen.into_keys().collect::<Vec<_>>(), want);
}

#[cfg(target_os = "linux")]
mod unknown_types {
    use super::*;
    use crate::sys::entries::getdents::kind_at;

    #[test]
    fn without_recorded_types_each_entry_is_asked_beneath_the_handle() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut want = big(tmp.path());
        rustix::fs::mknodat(
            open(tmp.path()),
            "fifo",
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .expect("mkfifo");
        want.insert("fifo".into(), EntryKind::Other);
        let mut entries = Entries::default();
        entries.unknown_types = true;
        entries.start(open(tmp.path())).unwrap();
        assert_eq!(drain(&mut entries), (want, 0));
    }

    #[test]
    fn an_entry_gone_before_its_type_is_asked_is_an_error_of_its_own() {
        let tmp = tempfile::tempdir().expect("tempdir");
        for name in ["a", "b", "c"] {
            fs::write(tmp.path().join(name), "").unwrap();
        }
        let mut entries = Entries::default();
        entries.unknown_types = true;
        entries.start(open(tmp.path())).unwrap();
        // The first step reads the whole (small) directory; then every
        // other entry goes.
        let first = entries.next().unwrap().unwrap().name.to_owned();
        for name in ["a", "b", "c"] {
            if *name != *first {
                fs::remove_file(tmp.path().join(name)).unwrap();
            }
        }
        let (seen, errors) = drain(&mut entries);
        assert_eq!((seen.len(), errors), (0, 2));
        assert!(entries.next().is_none());
    }

    #[test]
    fn the_fallback_reports_a_symlink_and_never_follows_it() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let base = tmp.path();
        fs::create_dir(base.join("dir")).unwrap();
        fs::write(base.join("file"), "").unwrap();
        std::os::unix::fs::symlink("dir", base.join("to_dir")).unwrap();
        std::os::unix::fs::symlink("/", base.join("to_root")).unwrap();
        std::os::unix::fs::symlink("missing", base.join("dangling")).unwrap();
        let dir = open(base);
        for (name, want) in [
            ("dir", EntryKind::Dir),
            ("file", EntryKind::File),
            ("to_dir", EntryKind::Symlink),
            ("to_root", EntryKind::Symlink),
            ("dangling", EntryKind::Symlink),
        ] {
            assert_eq!(kind_at(&dir, name.as_ref()).unwrap(), want, "{name}");
        }
        let gone = kind_at(&dir, "missing".as_ref()).unwrap_err();
        assert_eq!(gone.kind(), std::io::ErrorKind::NotFound);
    }
}
