//! `Walk::skip_entered`: the contents of a directory just yielded are not
//! walked, do not count against `max_entries`, and its descriptor is
//! closed; after anything else it does nothing.

use mcp_roots::{FileType, RootSet, WalkLimits};

/// `a/{1..3}`, `b/c/x`, `b/y`, `z`: (rel, type) in walk order.
fn tree() -> (tempfile::TempDir, RootSet, String) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let base = tmp.path();
    for rel in ["a/1", "a/2", "a/3", "b/c/x", "b/y", "z"] {
        let path = base.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).expect("mkdir");
        std::fs::write(path, "").expect("write");
    }
    let root = base.to_str().expect("utf-8").to_owned();
    (tmp, RootSet::from_uris([root.as_str()]), root)
}

/// The walk's entries, skipping the directories named in `skip`.
fn walked(set: &RootSet, start: &str, skip: &[&str], limits: WalkLimits) -> (Vec<String>, bool) {
    let mut walk = set.walk(start, limits).expect("walk");
    let mut seen = Vec::new();
    while let Some(entry) = walk.next() {
        let entry = entry.expect("entry");
        let rel = entry.path().rel().to_owned();
        if skip.contains(&rel.as_str()) {
            walk.skip_entered();
        }
        seen.push(rel);
    }
    seen.sort();
    (seen, walk.is_truncated())
}

#[test]
fn a_skipped_directory_is_listed_but_not_entered() {
    let (_tmp, set, root) = tree();
    let all = WalkLimits::new(8, 100);
    let (every, _) = walked(&set, &root, &[], all);
    assert_eq!(
        every,
        ["a", "a/1", "a/2", "a/3", "b", "b/c", "b/c/x", "b/y", "z"]
    );
    // (skipped, what remains)
    #[rustfmt::skip]
    let rows: [(&[&str], &[&str]); 5] = [
        (&["a"], &["a", "b", "b/c", "b/c/x", "b/y", "z"]),
        (&["b"], &["a", "a/1", "a/2", "a/3", "b", "z"]),
        (&["b/c"], &["a", "a/1", "a/2", "a/3", "b", "b/c", "b/y", "z"]),
        (&["a", "b"], &["a", "b", "z"]),
        // After a file: nothing happens.
        (&["z", "a/1"], &["a", "a/1", "a/2", "a/3", "b", "b/c", "b/c/x", "b/y", "z"]),
    ];
    for (skip, want) in rows {
        assert_eq!(walked(&set, &root, skip, all).0, want, "skipping {skip:?}");
    }
}

#[test]
fn skipped_contents_do_not_count_against_max_entries() {
    let (_tmp, set, root) = tree();
    // 9 entries in all; skipping `a` leaves 6 examined: a limit of 6 is
    // enough, 5 is not.
    let (seen, truncated) = walked(&set, &root, &["a"], WalkLimits::new(8, 6));
    assert_eq!((seen.len(), truncated), (6, false));
    let (_, truncated) = walked(&set, &root, &["a"], WalkLimits::new(8, 5));
    assert!(truncated);
}

#[test]
fn a_directory_at_max_depth_is_not_entered_so_there_is_nothing_to_skip() {
    let (_tmp, set, root) = tree();
    let mut walk = set
        .walk(root.as_str(), WalkLimits::new(1, 100))
        .expect("walk");
    let mut names = Vec::new();
    while let Some(entry) = walk.next() {
        let entry = entry.expect("entry");
        if entry.file_type() == FileType::Dir {
            walk.skip_entered(); // not entered at depth 1: a no-op
        }
        names.push(entry.path().rel().to_owned());
    }
    names.sort();
    assert_eq!(names, ["a", "b", "z"]);
}
