//! `write_atomic` never shows a partial file to a concurrent reader.

#![cfg(target_os = "linux")]

use std::sync::atomic::{AtomicBool, Ordering};

use mcp_roots::RootSet;

#[test]
fn readers_see_old_or_new_content_never_a_mix() {
    const SIZE: usize = 256 * 1024;
    const WRITES: usize = 300;
    let tmp = tempfile::tempdir().expect("tempdir");
    let path = tmp.path().join("note.md");
    let (a, b) = (vec![b'a'; SIZE], vec![b'b'; SIZE + 4096]);
    std::fs::write(&path, &a).expect("seed");
    let set = RootSet::from_uris([tmp.path().to_str().expect("utf-8")]);
    let input = path.to_str().expect("utf-8");
    let done = AtomicBool::new(false);
    let (reads, torn) = std::thread::scope(|scope| {
        let reader = scope.spawn(|| {
            let (mut reads, mut torn) = (0usize, 0usize);
            while !done.load(Ordering::Relaxed) {
                let content = std::fs::read(&path).expect("the name always exists");
                reads += 1;
                if content != a && content != b {
                    torn += 1;
                }
            }
            (reads, torn)
        });
        for i in 0..WRITES {
            set.write_atomic(input, if i % 2 == 0 { &b } else { &a })
                .expect("write_atomic");
        }
        done.store(true, Ordering::Relaxed);
        reader.join().expect("reader")
    });
    eprintln!("{WRITES} atomic writes, {reads} concurrent reads, {torn} torn");
    assert!(reads > 0, "the reader ran");
    assert_eq!(torn, 0);
}

/// `copy` keeps the source's permission bits (never the set-id bits) and
/// its times, never replaces anything at the destination (a file, a
/// dangling link, a directory), refuses a directory as its source, and
/// leaves no temporary file behind.
#[test]
fn copy_keeps_mode_and_times_and_never_replaces() {
    use std::os::unix::fs::PermissionsExt;
    use std::time::{Duration, SystemTime};

    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().canonicalize().expect("canonical");
    let set = RootSet::from_uris([dir.to_str().expect("utf-8")]);
    let at = |name: &str| dir.join(name).to_str().expect("utf-8").to_owned();
    let past = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    for (name, mode, kept) in [
        ("private", 0o600, 0o600),
        ("shared", 0o644, 0o644),
        ("script", 0o750, 0o750),
        ("frozen", 0o444, 0o444),
        ("setuid", 0o4755, 0o755),
    ] {
        let source = dir.join(name);
        std::fs::write(&source, name.repeat(1000)).expect("seed");
        std::fs::set_permissions(&source, std::fs::Permissions::from_mode(mode)).expect("chmod");
        let file = std::fs::File::options()
            .read(true)
            .open(&source)
            .expect("open");
        file.set_times(
            std::fs::FileTimes::new()
                .set_modified(past)
                .set_accessed(past),
        )
        .expect("times");
        drop(file);
        let copy = format!("{name}.copy");
        assert_eq!(
            set.copy(&at(name), &at(&copy)).expect("copy"),
            name.len() as u64 * 1000
        );
        let meta = std::fs::metadata(dir.join(&copy)).expect("the copy");
        assert_eq!(meta.permissions().mode() & 0o7777, kept, "{name}");
        assert_eq!(meta.modified().expect("mtime"), past, "{name}");
        assert_eq!(
            std::fs::read(dir.join(&copy)).expect("read"),
            name.repeat(1000).as_bytes()
        );
    }
    std::fs::write(dir.join("taken"), "kept").expect("seed");
    std::os::unix::fs::symlink(dir.join("nowhere"), dir.join("dangling")).expect("link");
    std::fs::create_dir(dir.join("sub")).expect("dir");
    for taken in ["taken", "dangling", "sub"] {
        let err = set.copy(&at("shared"), &at(taken)).expect_err(taken);
        assert_eq!(
            err.kind(),
            mcp_roots::ErrorKind::AlreadyExists,
            "{taken}: {err}"
        );
    }
    assert_eq!(std::fs::read(dir.join("taken")).expect("read"), b"kept");
    assert!(
        std::fs::symlink_metadata(dir.join("dangling"))
            .expect("link")
            .is_symlink()
    );
    assert!(!dir.join("nowhere").exists());
    let err = set
        .copy(&at("sub"), &at("sub.copy"))
        .expect_err("a directory");
    assert!(!dir.join("sub.copy").exists(), "{err}");
    let temps: Vec<_> = std::fs::read_dir(&dir)
        .expect("list")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(temps.is_empty(), "{temps:?}");
}
