//! Red team, classes 2 and 3: `write_atomic` and `copy` publish a new file
//! made by the server's user: it keeps the permission bits only (never the
//! set-user-ID, set-group-ID or sticky bits), and its temporary name cannot
//! be guessed, so creating names in advance cannot make the call fail.

#![cfg(target_os = "linux")]

use std::os::unix::fs::{MetadataExt, PermissionsExt};

use mcp_roots::RootSet;
use testkit::Fixture;

fn tree() -> (Fixture, RootSet) {
    let fx = Fixture::new().expect("fixture");
    std::fs::create_dir(fx.path("root")).expect("mkdir");
    let set = RootSet::from_uris([fx.subst("{T}/root")]);
    assert_eq!(set.len(), 1);
    (fx, set)
}

fn mode_of(path: &std::path::Path) -> u32 {
    std::fs::metadata(path).expect("stat").mode() & 0o7777
}

#[test]
fn a_replaced_file_keeps_its_permission_bits_but_never_set_id_or_sticky() {
    let (fx, set) = tree();
    for (before, after) in [
        (0o6755, 0o755),
        (0o4755, 0o755),
        (0o2750, 0o750),
        (0o1777, 0o777),
        (0o7700, 0o700),
        (0o640, 0o640),
    ] {
        let path = fx.path("root/tool");
        std::fs::write(&path, "old").expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(before)).expect("chmod");
        assert_eq!(mode_of(&path), before, "set up {before:o}");
        set.write_atomic(&fx.subst("{T}/root/tool"), b"new")
            .expect("write_atomic");
        assert_eq!(std::fs::read(&path).expect("read"), b"new");
        assert_eq!(mode_of(&path), after, "replacing a {before:o} file");
    }
}

#[test]
fn replacing_another_users_set_id_file_yields_the_servers_file_without_the_bits() {
    let server = rustix::process::geteuid().as_raw();
    if server != 0 {
        eprintln!("skipped: needs root to give a file to another user");
        return;
    }
    let (fx, set) = tree();
    let path = fx.path("root/victim");
    std::fs::write(&path, "old").expect("write");
    let other = 4242;
    std::os::unix::fs::chown(&path, Some(other), Some(other)).expect("chown");
    // chown clears the set-id bits: set them afterwards.
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o6755)).expect("chmod");
    let meta = std::fs::metadata(&path).expect("stat");
    assert_eq!((meta.uid(), meta.mode() & 0o7777), (other, 0o6755));

    set.write_atomic(&fx.subst("{T}/root/victim"), b"new")
        .expect("write_atomic");
    let meta = std::fs::metadata(&path).expect("stat");
    assert_eq!(meta.uid(), server, "the new file belongs to the server");
    assert_eq!(
        meta.mode() & 0o7777,
        0o755,
        "no set-id bits with the new owner"
    );
}

#[test]
fn a_copy_does_not_carry_set_id_bits() {
    let (fx, set) = tree();
    let source = fx.path("root/suid");
    std::fs::write(&source, "s").expect("write");
    std::fs::set_permissions(&source, std::fs::Permissions::from_mode(0o6755)).expect("chmod");
    set.copy(&fx.subst("{T}/root/suid"), &fx.subst("{T}/root/copy"))
        .expect("copy");
    assert_eq!(mode_of(&fx.path("root/copy")) & 0o7000, 0);
}

/// Names of the old, predictable pattern `.mcp-roots.PID.N.tmp`, as files,
/// directories and links, for the first `count` values of the counter.
fn plant_old_names(fx: &Fixture, count: usize) {
    let pid = std::process::id();
    for n in 0..count {
        let path = fx.path(&format!("root/.mcp-roots.{pid}.{n}.tmp"));
        match n % 3 {
            0 => std::fs::write(&path, "planted").expect("write"),
            1 => std::fs::create_dir(&path).expect("mkdir"),
            _ => std::os::unix::fs::symlink("/etc/passwd", &path).expect("symlink"),
        }
    }
}

#[test]
fn names_created_in_advance_do_not_make_writes_or_copies_fail() {
    let (fx, set) = tree();
    std::fs::write(fx.path("root/note.md"), "old").expect("write");
    plant_old_names(&fx, 1000);
    let planted = fx.snapshot();
    for i in 0..50 {
        let text = format!("version {i}");
        set.write_atomic(&fx.subst("{T}/root/note.md"), text.as_bytes())
            .expect("write_atomic beside planted names");
        let copy = fx.subst(&format!("{{T}}/root/copy{i}.md"));
        assert_eq!(
            set.copy(&fx.subst("{T}/root/note.md"), &copy)
                .expect("copy beside planted names"),
            text.len() as u64
        );
    }
    let after = fx.snapshot();
    let changed: Vec<String> = planted
        .diff(&after)
        .into_iter()
        .filter(|d| d.contains(".mcp-roots."))
        .collect();
    assert_eq!(
        changed,
        Vec::<String>::new(),
        "the planted names are untouched"
    );
    // 1,000 planted names, the note and 50 copies: no temporary file left.
    assert_eq!(after.entries().len(), planted.entries().len() + 50);
    assert_eq!(
        std::fs::read(fx.path("root/note.md")).expect("read"),
        b"version 49"
    );
}
