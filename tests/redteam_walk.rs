//! Red team, class 3: every walk limit bounds the work done. `max_entries`
//! counts the entries examined, skipped ones (names that are not UTF-8)
//! included, so a directory full of skipped names cannot make a bounded
//! walk read it all.

#![cfg(target_os = "linux")]

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use mcp_roots::{RootSet, WalkLimits};

const SKIPPED: usize = 1000;
const GOOD: usize = 5;

/// A root whose directory `many/` holds `SKIPPED` non-UTF-8 names and
/// `GOOD` plain ones.
fn tree() -> (tempfile::TempDir, RootSet, String) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let many = tmp.path().join("many");
    std::fs::create_dir(&many).expect("mkdir");
    for n in 0..SKIPPED {
        let name = [b"\xff".as_slice(), n.to_string().as_bytes()].concat();
        std::fs::write(many.join(OsStr::from_bytes(&name)), "").expect("write");
    }
    for n in 0..GOOD {
        std::fs::write(many.join(format!("good{n}.md")), "").expect("write");
    }
    let root = tmp.path().to_str().expect("utf-8").to_owned();
    let set = RootSet::from_uris([root.as_str()]);
    let start = format!("{root}/many");
    (tmp, set, start)
}

/// What a walk with `max_entries` yields, and whether it was truncated.
fn walk(set: &RootSet, start: &str, max_entries: usize) -> (usize, bool) {
    let limits = WalkLimits::new(4, max_entries);
    let mut walk = set.walk(start, limits).expect("walk");
    let yielded = walk.by_ref().filter(Result::is_ok).count();
    (yielded, walk.is_truncated())
}

#[test]
fn skipped_names_count_against_max_entries() {
    let (_tmp, set, start) = tree();
    let all = SKIPPED + GOOD;
    // Enough for every entry: all good names, not truncated.
    assert_eq!(walk(&set, &start, all), (GOOD, false));
    assert_eq!(walk(&set, &start, all + 100), (GOOD, false));
    // One fewer than the entries examined: truncated, though fewer good
    // names than the limit were yielded.
    let (yielded, truncated) = walk(&set, &start, all - 1);
    assert!(truncated, "stops after {} examined entries", all - 1);
    assert!(yielded <= GOOD);
    // A small limit stops after that many entries of any kind.
    for max in [0, 1, 3, 10, 100] {
        let (yielded, truncated) = walk(&set, &start, max);
        assert!(truncated, "max_entries {max}");
        assert!(yielded <= max.min(GOOD), "max_entries {max}: {yielded}");
    }
}
