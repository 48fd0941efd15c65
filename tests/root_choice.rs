//! Which root judges an input when a root is reached through a symlink (as
//! `/tmp` is `/private/tmp` on macOS): the root's path as given and its
//! resolved path are both keys, a third spelling is not, and the part
//! below the root is resolved by the kernel whichever key chose it
//! (semantics 5).

#![cfg(unix)]

use std::io::Read;
use std::os::unix::fs::symlink;
use std::path::Path;

use mcp_roots::{ErrorKind, RootSet};

fn read(set: &RootSet, input: &str) -> Result<String, ErrorKind> {
    let mut text = String::new();
    let mut file = set.open(input).map_err(|e| e.kind())?;
    file.read_to_string(&mut text).expect("read");
    Ok(text)
}

/// `T/real/root` holding `x.txt`, `T/alias -> real`, and a sibling
/// `T/real/root2` that no root grants.
fn tree() -> tempfile::TempDir {
    let t = tempfile::tempdir().expect("tempdir");
    let real = t.path().join("real");
    std::fs::create_dir_all(real.join("root/sub")).unwrap();
    std::fs::create_dir_all(real.join("root2")).unwrap();
    std::fs::write(real.join("root/x.txt"), "inside").unwrap();
    std::fs::write(real.join("root/sub/y.txt"), "deeper").unwrap();
    std::fs::write(real.join("root2/x.txt"), "sibling").unwrap();
    symlink("real", t.path().join("alias")).unwrap();
    t
}

fn s(path: &Path) -> String {
    path.to_str().expect("UTF-8 temp dir").to_owned()
}

#[test]
fn a_root_given_through_a_symlink_is_found_by_both_paths() {
    let t = tree();
    // The temp dir itself may sit behind a symlink (macOS): resolve it.
    let t_real = t.path().canonicalize().unwrap();
    let given = s(&t.path().join("alias/root"));
    let set = RootSet::from_uris([format!("file://{given}")]);
    assert!(set.rejected().is_empty(), "{:?}", set.rejected());
    let root = set.root(0).unwrap();
    assert_eq!(root.resolved_path(), t_real.join("real/root"));

    for input in [
        format!("{given}/x.txt"),
        format!("file://{given}/x.txt"),
        s(&t_real.join("real/root/x.txt")),
        format!("file://{}", s(&t_real.join("real/root/x.txt"))),
    ] {
        assert_eq!(read(&set, &input).as_deref(), Ok("inside"), "{input}");
    }
    assert_eq!(
        read(&set, &format!("{given}/sub/../sub/y.txt")).as_deref(),
        Ok("deeper")
    );
    // A sibling of either form is outside, and so is a `..` before the root.
    for input in [
        s(&t.path().join("alias/root2/x.txt")),
        s(&t_real.join("real/root2/x.txt")),
        format!("{given}/../root2/x.txt"),
        s(&t.path().join("alias/../real/root/x.txt")),
    ] {
        assert_eq!(read(&set, &input), Err(ErrorKind::OutsideRoots), "{input}");
    }
}

#[test]
fn a_third_alias_finds_no_root() {
    let t = tree();
    symlink("real", t.path().join("other")).unwrap();
    let set = RootSet::from_uris([s(&t.path().join("alias/root"))]);
    // `other/root` is the same directory, through a link the client never
    // named: an allowed refusal (semantics 9), never a guess.
    let input = s(&t.path().join("other/root/x.txt"));
    assert_eq!(read(&set, &input), Err(ErrorKind::OutsideRoots));
}

#[cfg(target_os = "linux")]
#[test]
fn linux_matches_names_byte_for_byte() {
    let t = tree();
    let given = s(&t.path().join("alias/root"));
    let set = RootSet::from_uris([given.as_str()]);
    assert_eq!(
        read(&set, &format!("{given}/x.txt")).as_deref(),
        Ok("inside")
    );
    // Another case is another name on Linux: no root, whatever exists.
    std::fs::create_dir(t.path().join("real/ROOT")).unwrap();
    std::fs::write(t.path().join("real/ROOT/x.txt"), "other").unwrap();
    for input in [
        s(&t.path().join("alias/ROOT/x.txt")),
        s(&t.path().join("ALIAS/root/x.txt")),
    ] {
        assert_eq!(read(&set, &input), Err(ErrorKind::OutsideRoots), "{input}");
    }
}
