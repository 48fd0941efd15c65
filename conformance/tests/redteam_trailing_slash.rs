//! Red team, class 1: a trailing `/` (or `/.`, or `%2E` in a URI) demands a
//! directory for every operation. An operation on a file named that way is
//! `not_a_directory` and changes nothing; directory operations accept it;
//! a rename with a trailing `/` on either end needs a directory source.

#![cfg(target_os = "linux")]

use std::path::Path;

use mcp_roots::{Create, Error, ErrorKind, OpenOptions, Overwrite, RootSet, Roots};
use testkit::Fixture;

/// `{T}/root` (the root) with `x.txt`, `sub/` (empty), `full/y.txt`, a
/// link `lx` to `x.txt` and a link `ld` to `sub`.
fn tree() -> (Fixture, RootSet) {
    let fx = Fixture::new().expect("fixture");
    std::fs::create_dir_all(fx.path("root/sub")).expect("mkdir");
    std::fs::create_dir_all(fx.path("root/full")).expect("mkdir");
    std::fs::write(fx.path("root/x.txt"), "x").expect("write");
    std::fs::write(fx.path("root/full/y.txt"), "y").expect("write");
    std::os::unix::fs::symlink("x.txt", fx.path("root/lx")).expect("symlink");
    std::os::unix::fs::symlink("sub", fx.path("root/ld")).expect("symlink");
    let set = RootSet::from_uris([fx.subst("{T}/root")]);
    assert_eq!(set.len(), 1);
    (fx, set)
}

/// The spellings of `rel` followed by something that demands a directory.
fn demanding(fx: &Fixture, rel: &str) -> Vec<String> {
    vec![
        fx.subst(&format!("{{T}}/root/{rel}/")),
        fx.subst(&format!("{{T}}/root/{rel}//")),
        fx.subst(&format!("{{T}}/root/{rel}/.")),
        fx.subst(&format!("{{T}}/root/{rel}/./")),
        fx.subst(&format!("file://{{T}}/root/{rel}/")),
        fx.subst(&format!("file://{{T}}/root/{rel}/%2E")),
        fx.subst(&format!("file://{{T}}/root/{rel}/.")),
    ]
}

/// A file operation aimed at one input (the other end, if any, is fixed).
#[derive(Clone, Copy, Debug)]
enum FileOp {
    RemoveFile,
    WriteAtomic,
    CreateNew,
    CreateOrOpen,
    Open,
    OpenTruncate,
    CopyFrom,
    CopyTo,
    RenameFrom,
    RenameTo,
    RenameToReplacing,
}

const ALL: [FileOp; 11] = [
    FileOp::RemoveFile,
    FileOp::WriteAtomic,
    FileOp::CreateNew,
    FileOp::CreateOrOpen,
    FileOp::Open,
    FileOp::OpenTruncate,
    FileOp::CopyFrom,
    FileOp::CopyTo,
    FileOp::RenameFrom,
    FileOp::RenameTo,
    FileOp::RenameToReplacing,
];

fn run(set: &RootSet, fx: &Fixture, op: FileOp, input: &str) -> Result<(), Error> {
    let x = fx.subst("{T}/root/x.txt");
    let fresh = fx.subst("{T}/root/fresh.txt");
    match op {
        FileOp::RemoveFile => set.remove_file(input),
        FileOp::WriteAtomic => set.write_atomic(input, b"replaced"),
        FileOp::CreateNew => set.create_new(input).map(drop),
        FileOp::CreateOrOpen => set
            .open_with(input, OpenOptions::new().write(true).create(Create::OrOpen))
            .map(drop),
        FileOp::Open => set.open(input).map(drop),
        FileOp::OpenTruncate => set
            .open_with(input, OpenOptions::new().write(true).truncate(true))
            .map(drop),
        FileOp::CopyFrom => set.copy(input, &fresh).map(drop),
        FileOp::CopyTo => set.copy(&x, input).map(drop),
        FileOp::RenameFrom => set.rename(input, &fresh),
        FileOp::RenameTo => set.rename(&x, input),
        FileOp::RenameToReplacing => set.rename_with(&x, input, Overwrite::Replace),
    }
}

/// Runs `op` on `input`, expects `want`, and checks that the tree did not
/// change.
fn refused(set: &RootSet, fx: &Fixture, op: FileOp, input: &str, want: ErrorKind) {
    let before = fx.snapshot();
    let result = run(set, fx, op, input);
    let after = fx.snapshot();
    match result {
        Ok(()) => panic!(
            "{op:?} {input:?} was allowed; changes: {:?}",
            before.diff(&after)
        ),
        Err(err) => assert_eq!(err.kind(), want, "{op:?} {input:?}: {err}"),
    }
    assert_eq!(
        before.diff(&after),
        Vec::<String>::new(),
        "{op:?} {input:?}"
    );
}

#[test]
fn every_file_operation_on_an_existing_file_with_a_trailing_slash_is_not_a_directory() {
    let (fx, set) = tree();
    for input in demanding(&fx, "x.txt") {
        for op in ALL {
            refused(&set, &fx, op, &input, ErrorKind::NotADirectory);
        }
    }
    // A link to a file, followed because of the slash, is no directory.
    for input in demanding(&fx, "lx") {
        for op in [FileOp::RemoveFile, FileOp::WriteAtomic, FileOp::RenameFrom] {
            refused(&set, &fx, op, &input, ErrorKind::NotADirectory);
        }
    }
}

#[test]
fn no_file_is_created_at_a_new_name_with_a_trailing_slash() {
    let (fx, set) = tree();
    let creating = [
        FileOp::WriteAtomic,
        FileOp::CreateNew,
        FileOp::CreateOrOpen,
        FileOp::CopyTo,
    ];
    for input in demanding(&fx, "new.txt") {
        // A raw path ending in `/.` names the directory `new.txt`, which is
        // missing: the kernel's `not_found`, as for `missing/..`. (In a URI
        // the dot segment is removed as text and leaves a trailing `/`.)
        let want = match input.starts_with('/') && input.ends_with("/.") {
            true => ErrorKind::NotFound,
            false => ErrorKind::NotADirectory,
        };
        for op in creating {
            refused(&set, &fx, op, &input, want);
        }
        // Such a path names no file, whether or not one is there.
        for op in [FileOp::RemoveFile, FileOp::Open, FileOp::CopyFrom] {
            refused(&set, &fx, op, &input, want);
        }
        // A rename has nothing to move.
        refused(&set, &fx, FileOp::RenameFrom, &input, ErrorKind::NotFound);
        assert!(!Path::new(&fx.path("root/new.txt")).exists());
    }
    // The same through a root's own relative operations and a live set.
    let root = set.root(0).expect("a root");
    let relative = root.create_new("new.txt/").expect_err("relative create");
    assert_eq!(relative.kind(), ErrorKind::NotADirectory);
    let roots = Roots::default();
    roots.replace(RootSet::from_uris([fx.subst("{T}/root")]));
    let live = roots.load().create_new(&fx.subst("{T}/root/new.txt/"));
    assert_eq!(
        live.expect_err("live create").kind(),
        ErrorKind::NotADirectory
    );
    assert!(!Path::new(&fx.path("root/new.txt")).exists());
}

#[test]
fn a_directory_named_with_a_slash_is_refused_by_file_operations_as_without_it() {
    let (fx, set) = tree();
    let sub = fx.subst("{T}/root/sub/");
    refused(
        &set,
        &fx,
        FileOp::RemoveFile,
        &sub,
        ErrorKind::NotARegularFile,
    );
    refused(
        &set,
        &fx,
        FileOp::WriteAtomic,
        &sub,
        ErrorKind::NotARegularFile,
    );
    refused(&set, &fx, FileOp::Open, &sub, ErrorKind::NotARegularFile);
    refused(&set, &fx, FileOp::CreateNew, &sub, ErrorKind::AlreadyExists);
    refused(&set, &fx, FileOp::CopyTo, &sub, ErrorKind::AlreadyExists);
    // A file source and a `/` destination: the kernel's rule, whatever is
    // at the destination.
    refused(
        &set,
        &fx,
        FileOp::RenameToReplacing,
        &sub,
        ErrorKind::NotADirectory,
    );
}

#[test]
fn directory_operations_accept_a_trailing_slash() {
    let (fx, set) = tree();
    set.create_dir(&fx.subst("{T}/root/made/"))
        .expect("create_dir");
    assert!(fx.path("root/made").is_dir());
    set.create_dir_all(&fx.subst("file://{T}/root/deep/er/%2E"))
        .expect("create_dir_all");
    assert!(fx.path("root/deep/er").is_dir());
    assert_eq!(
        set.read_dir(&fx.subst("{T}/root/full/"))
            .expect("list")
            .count(),
        1
    );
    assert!(
        set.metadata(&fx.subst("{T}/root/sub/"))
            .expect("stat")
            .is_dir()
    );
    set.remove_dir(&fx.subst("{T}/root/made/"))
        .expect("remove_dir");
    assert!(!fx.path("root/made").exists());
    set.rename(&fx.subst("{T}/root/full/"), &fx.subst("{T}/root/moved"))
        .expect("rename dir/ to name");
    set.rename(&fx.subst("{T}/root/moved"), &fx.subst("{T}/root/again/"))
        .expect("rename dir to name/");
    set.rename(&fx.subst("{T}/root/again/"), &fx.subst("{T}/root/full//"))
        .expect("rename dir/ to name//");
    assert_eq!(
        std::fs::read(fx.path("root/full/y.txt")).expect("read"),
        b"y"
    );
}

#[test]
fn a_link_to_a_directory_with_a_slash_is_not_removed_or_renamed_as_the_link() {
    let (fx, set) = tree();
    // The kernel acts on the link itself, which is no directory.
    let ld = fx.subst("{T}/root/ld/");
    let before = fx.snapshot();
    assert!(set.remove_dir(&ld).is_err());
    assert!(set.rename(&ld, &fx.subst("{T}/root/renamed")).is_err());
    assert_eq!(before.diff(&fx.snapshot()), Vec::<String>::new());
}
