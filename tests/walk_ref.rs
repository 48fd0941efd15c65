//! `Walk::next_ref`, the borrowing step: it takes exactly the steps the
//! walk's `Iterator` takes (entries, errors, limits, `skip_entered`), lends
//! each entry's path as `ScopedPath::rel` gives it, and survives
//! directories that change under it.

use std::fs;

use mcp_roots::{FileType, RootSet, WalkEntry, WalkLimits};

/// What one step gave: the owned entry (or that it was an error), and
/// for a lent entry its name.
#[derive(Debug, PartialEq)]
enum Step {
    Entry(WalkEntry, String),
    Error,
}

/// `src/{lib.rs, ops/{a.rs, b.rs}, sys/linux.rs}`, `docs/{x.md}`, `empty/`,
/// 300 files in `many/` (every third with a 255-byte name), `top.md`, and a
/// symlink `link -> src` where symlinks work.
fn tree() -> (tempfile::TempDir, RootSet, String) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let base = tmp.path();
    for rel in [
        "src/lib.rs",
        "src/ops/a.rs",
        "src/ops/b.rs",
        "src/sys/linux.rs",
        "docs/x.md",
        "top.md",
    ] {
        let path = base.join(rel);
        fs::create_dir_all(path.parent().unwrap()).expect("mkdir");
        fs::write(path, "").expect("write");
    }
    fs::create_dir(base.join("empty")).expect("mkdir");
    fs::create_dir(base.join("many")).expect("mkdir");
    for i in 0..300 {
        let name = if i % 3 == 0 {
            format!("{i:03}{}", "x".repeat(252))
        } else {
            format!("f{i}")
        };
        fs::write(base.join("many").join(name), "").expect("write");
    }
    #[cfg(unix)]
    std::os::unix::fs::symlink("src", base.join("link")).expect("symlink");
    let root = base.to_str().expect("utf-8").to_owned();
    (tmp, RootSet::from_uris([root.as_str()]), root)
}

/// The steps of a walk of `start` through `next_ref` (`lent`) or the
/// iterator, skipping the directories named in `skip`; and whether it was
/// truncated.
fn steps(
    set: &RootSet,
    start: &str,
    limits: WalkLimits,
    skip: &[&str],
    lent: bool,
) -> (Vec<Step>, bool) {
    let mut walk = set.walk(start, limits).expect("walk");
    let mut steps = Vec::new();
    loop {
        let step = if lent {
            match walk.next_ref() {
                None => break,
                Some(Err(_)) => Step::Error,
                Some(Ok(entry)) => {
                    assert_eq!(entry.rel(), entry.to_entry().path().rel());
                    assert_eq!(entry.root(), entry.to_entry().path().root());
                    let last = entry.rel().rsplit('/').next().unwrap();
                    assert_eq!(entry.name(), last, "{}", entry.rel());
                    Step::Entry(entry.to_entry(), entry.name().to_owned())
                }
            }
        } else {
            match walk.next() {
                None => break,
                Some(Err(_)) => Step::Error,
                Some(Ok(entry)) => {
                    let name = entry.path().rel().rsplit('/').next().unwrap().to_owned();
                    Step::Entry(entry, name)
                }
            }
        };
        if let Step::Entry(entry, _) = &step
            && skip.contains(&entry.path().rel())
        {
            walk.skip_entered();
        }
        steps.push(step);
    }
    (steps, walk.is_truncated())
}

#[test]
fn next_ref_takes_the_iterators_steps() {
    let (_tmp, set, root) = tree();
    let src = format!("{root}/src");
    let link = format!("{root}/link"); // followed to `src` as a start
    #[rustfmt::skip]
    let rows: [(&str, WalkLimits, &[&str]); 9] = [
        (&root, WalkLimits::new(8, 10_000), &[]),
        (&root, WalkLimits::new(1, 10_000), &[]),
        (&root, WalkLimits::new(2, 10_000), &[]),
        (&root, WalkLimits::new(8, 0), &[]),
        (&root, WalkLimits::new(8, 7), &[]),
        (&root, WalkLimits::new(8, 150), &[]),
        (&root, WalkLimits::new(8, 10_000), &["src", "many", "top.md"]),
        (&src, WalkLimits::new(8, 10_000), &["src/ops"]),
        (&link, WalkLimits::new(8, 10_000), &[]),
    ];
    for (start, limits, skip) in rows {
        if start == link && !cfg!(unix) {
            continue;
        }
        let (lent, lent_truncated) = steps(&set, start, limits, skip, true);
        let (owned, owned_truncated) = steps(&set, start, limits, skip, false);
        assert_eq!(lent, owned, "{start} {limits:?} skipping {skip:?}");
        assert_eq!(lent_truncated, owned_truncated);
        // Every entry of the tree, the link included where there is one.
        let total = 312 + usize::from(cfg!(unix));
        if skip.is_empty() && limits.max_depth == 8 {
            if start == root {
                assert_eq!(lent.len(), limits.max_entries.min(total), "{limits:?}");
                assert_eq!(lent_truncated, limits.max_entries < total);
            } else {
                // From `src` (or the link to it), relative to the root.
                let rels: Vec<_> = lent
                    .iter()
                    .map(|step| match step {
                        Step::Entry(entry, _) => entry.path().rel(),
                        Step::Error => panic!("an error"),
                    })
                    .collect();
                assert_eq!(rels.len(), 6);
                assert!(rels.iter().all(|rel| rel.starts_with("src/")), "{rels:?}");
            }
        }
    }
}

#[test]
fn lent_entries_have_their_types_depths_and_physical_paths() {
    let (_tmp, set, root) = tree();
    let mut walk = set.walk(&root, WalkLimits::new(8, 10_000)).expect("walk");
    let mut seen = Vec::new();
    while let Some(entry) = walk.next_ref() {
        let entry = entry.expect("entry");
        if !entry.rel().starts_with("many/") {
            seen.push((entry.rel().to_owned(), entry.file_type(), entry.depth()));
        }
    }
    seen.sort_by(|a, b| a.0.cmp(&b.0));
    let mut want = vec![
        ("docs".to_owned(), FileType::Dir, 1),
        ("docs/x.md".to_owned(), FileType::File, 2),
        ("empty".to_owned(), FileType::Dir, 1),
        ("many".to_owned(), FileType::Dir, 1),
        ("src".to_owned(), FileType::Dir, 1),
        ("src/lib.rs".to_owned(), FileType::File, 2),
        ("src/ops".to_owned(), FileType::Dir, 2),
        ("src/ops/a.rs".to_owned(), FileType::File, 3),
        ("src/ops/b.rs".to_owned(), FileType::File, 3),
        ("src/sys".to_owned(), FileType::Dir, 2),
        ("src/sys/linux.rs".to_owned(), FileType::File, 3),
        ("top.md".to_owned(), FileType::File, 1),
    ];
    if cfg!(unix) {
        want.insert(3, ("link".to_owned(), FileType::Symlink, 1));
    }
    assert_eq!(seen, want);
}

#[cfg(target_os = "linux")]
#[test]
fn names_that_are_not_utf8_are_skipped_and_counted() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().expect("tempdir");
    let odd = tmp.path().join("odd");
    fs::create_dir(&odd).unwrap();
    for i in 0..200u8 {
        let name = [b"\xff".as_slice(), i.to_string().as_bytes()].concat();
        fs::write(odd.join(std::ffi::OsStr::from_bytes(&name)), "").unwrap();
    }
    for name in ["a", "b", "c"] {
        fs::write(odd.join(name), "").unwrap();
    }
    let root = tmp.path().to_str().unwrap();
    let set = RootSet::from_uris([root]);
    // 204 entries examined in all (`odd` and what it holds).
    // (max_entries, entries yielded, truncated)
    for (max, yielded, truncated) in [
        (204, 4..=4, false),
        (1000, 4..=4, false),
        (203, 1..=4, true),
        (1, 1..=1, true),
        (0, 0..=0, true),
    ] {
        let limits = WalkLimits::new(8, max);
        let (lent, lent_truncated) = steps(&set, root, limits, &[], true);
        let (owned, _) = steps(&set, root, limits, &[], false);
        assert_eq!(lent, owned, "max_entries {max}");
        assert!(
            yielded.contains(&lent.len()),
            "max_entries {max}: {}",
            lent.len()
        );
        assert_eq!(lent_truncated, truncated, "max_entries {max}");
        assert!(lent.iter().all(|step| matches!(step, Step::Entry(..))));
    }
}

/// Directories that change under the walk (Windows refuses to remove or
/// rename a directory open for reading: these changes cannot happen there).
#[cfg(unix)]
mod changes {
    use std::fs;
    use std::path::Path;

    use mcp_roots::{RootSet, WalkLimits};

    /// Walks `root` through `next_ref`, calling `change` once, when the walk
    /// has just entered `a`; returns the paths yielded and the errors.
    fn walk_changing(set: &RootSet, root: &str, change: impl FnOnce()) -> (Vec<String>, usize) {
        let mut change = Some(change);
        let mut walk = set.walk(root, WalkLimits::new(8, 100_000)).expect("walk");
        let (mut seen, mut errors) = (Vec::new(), 0);
        while let Some(entry) = walk.next_ref() {
            match entry {
                Ok(entry) => {
                    seen.push(entry.rel().to_owned());
                    if entry.rel() == "a" {
                        change.take().expect("`a` once")();
                    }
                }
                Err(_) => errors += 1,
            }
            assert!(seen.len() + errors < 10_000, "no end");
        }
        assert!(change.is_none(), "`a` walked");
        (seen, errors)
    }

    /// `a/` with 2,000 files, `b/{1,2}`, `z`.
    fn changing_tree(base: &Path) {
        fs::create_dir_all(base.join("a")).unwrap();
        for i in 0..2000 {
            fs::write(base.join(format!("a/{i}")), "").unwrap();
        }
        fs::create_dir_all(base.join("b")).unwrap();
        fs::write(base.join("b/1"), "").unwrap();
        fs::write(base.join("b/2"), "").unwrap();
        fs::write(base.join("z"), "").unwrap();
    }

    #[test]
    fn a_directory_removed_mid_walk_ends_its_listing_and_the_walk_goes_on() {
        let tmp = tempfile::tempdir().expect("tempdir");
        changing_tree(tmp.path());
        let root = tmp.path().to_str().unwrap();
        let set = RootSet::from_uris([root]);
        let a = tmp.path().join("a");
        let (seen, errors) = walk_changing(&set, root, || fs::remove_dir_all(&a).unwrap());
        // Nothing of `a` could be read once it was gone (at most an error
        // saying so); the rest is walked whole.
        assert!(errors <= 1, "{errors}");
        let rest: Vec<_> = seen.iter().filter(|rel| !rel.starts_with("a/")).collect();
        let mut rest = rest.into_iter().cloned().collect::<Vec<_>>();
        rest.sort();
        assert_eq!(rest, ["a", "b", "b/1", "b/2", "z"]);
        assert!(seen.len() - rest.len() <= 2000);
    }

    #[test]
    fn a_directory_replaced_mid_walk_is_read_through_the_handle_the_walk_opened() {
        let tmp = tempfile::tempdir().expect("tempdir");
        changing_tree(tmp.path());
        let root = tmp.path().to_str().unwrap();
        let set = RootSet::from_uris([root]);
        let (a, moved) = (tmp.path().join("a"), tmp.path().join("b/moved"));
        let (seen, errors) = walk_changing(&set, root, || {
            fs::rename(&a, &moved).unwrap();
            fs::create_dir(&a).unwrap();
            fs::write(a.join("new"), "").unwrap();
        });
        assert_eq!(errors, 0);
        // The 2,000 files come from the directory the walk opened, wherever it
        // went; the new `a` is not read.
        let under_a = seen.iter().filter(|rel| rel.starts_with("a/")).count();
        assert_eq!(under_a, 2000);
        assert!(!seen.iter().any(|rel| rel == "a/new"));
    }
}
