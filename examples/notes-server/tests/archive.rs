//! `notes_archive`'s file work ([`notes::archive`]): a refusal changes
//! nothing. Each row archives a note under a policy and compares the whole
//! tree before and after: a refused archive leaves it as it was (no
//! `archive/` folder made before the refusal), an allowed one moves the
//! note and nothing else. The last table runs the tool itself, in the
//! binary, with the policy on its command line, the user confirming.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{binary, call, reason, spawn, tree};
use mcp_roots::{ErrorKind, Patterns, Roots, RootsBuilder, Writes};
use mcp_script::accept;
use notes_server::notes::{self, Note};
use serde_json::json;

/// Every path under `dir`, relative, directories with a trailing `/`.
fn tree_of(dir: &Path) -> BTreeSet<String> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(base)
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned();
            if path.is_dir() {
                out.insert(format!("{rel}/"));
                walk(base, &path, out);
            } else {
                out.insert(rel);
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(dir, dir, &mut out);
    out
}

/// A root `Notes/` holding `plan.md` (and `other.md`), shared under `policy`.
fn fixture(policy: RootsBuilder) -> (tempfile::TempDir, Roots) {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("Notes");
    std::fs::create_dir(&notes).unwrap();
    std::fs::write(notes.join("plan.md"), "# Project plan\n").unwrap();
    std::fs::write(notes.join("other.md"), "# Other\n").unwrap();
    let roots = policy.build();
    roots.replace_uris([notes.to_str().unwrap()]);
    (dir, roots)
}

fn found(roots: &Roots, title: &str) -> Note {
    let snap = roots.load();
    let mut found = notes::matching(&snap, title).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    found.remove(0)
}

fn patterns(p: &[&str]) -> Patterns {
    Patterns::parse(p).unwrap()
}

/// What happens to the tree before the archive runs.
#[derive(Clone, Copy, Debug)]
enum Before {
    Nothing,
    /// The note is removed after it was found (a missing source).
    RemoveNote,
    /// `archive/` exists already.
    ArchiveExists,
}

#[test]
fn a_refused_archive_changes_nothing() {
    let rows: [(&str, RootsBuilder, Before, ErrorKind); 8] = [
        (
            "read-only pattern on the note",
            Roots::builder().read_only(patterns(&["plan.md"])),
            Before::Nothing,
            ErrorKind::ReadOnly,
        ),
        (
            "read-only pattern on every note",
            Roots::builder().read_only(patterns(&["*.md"])),
            Before::Nothing,
            ErrorKind::ReadOnly,
        ),
        (
            "read-only pattern on the archive's content",
            Roots::builder().read_only(patterns(&["/archive/**"])),
            Before::Nothing,
            ErrorKind::ReadOnly,
        ),
        (
            "read-only pattern on the archive folder",
            Roots::builder().read_only(patterns(&["/archive/"])),
            Before::Nothing,
            ErrorKind::ReadOnly,
        ),
        (
            "read-only root",
            Roots::builder().writes(Writes::Refuse),
            Before::Nothing,
            ErrorKind::ReadOnly,
        ),
        (
            "read-only root, archive/ already there",
            Roots::builder().writes(Writes::Refuse),
            Before::ArchiveExists,
            ErrorKind::ReadOnly,
        ),
        (
            "hidden archive folder",
            Roots::builder().hide(patterns(&["/archive/"])),
            Before::Nothing,
            ErrorKind::Hidden,
        ),
        (
            "missing source",
            Roots::builder(),
            Before::RemoveNote,
            ErrorKind::NotFound,
        ),
    ];
    for (name, policy, before, kind) in rows {
        let (dir, roots) = fixture(policy);
        let note = found(&roots, "Project plan");
        match before {
            Before::Nothing => {}
            Before::RemoveNote => std::fs::remove_file(dir.path().join("Notes/plan.md")).unwrap(),
            Before::ArchiveExists => std::fs::create_dir(dir.path().join("Notes/archive")).unwrap(),
        }
        let tree = tree_of(dir.path());
        let err = notes::archive(&roots.load(), &note).unwrap_err();
        assert_eq!(err.kind(), kind, "{name}: {err}");
        assert_eq!(
            tree_of(dir.path()),
            tree,
            "{name}: the refusal changed the tree"
        );
    }
}

#[test]
fn a_note_the_set_hides_is_refused_and_nothing_changes() {
    // Found under a set that shows it, archived under one that hides it.
    let (dir, shown) = fixture(Roots::builder());
    let note = found(&shown, "Project plan");
    let hiding = Roots::builder().hide(patterns(&["plan.md"])).build();
    hiding.replace_uris([dir.path().join("Notes").to_str().unwrap()]);
    let tree = tree_of(dir.path());
    assert!(notes::archive(&hiding.load(), &note).is_err());
    assert_eq!(tree_of(dir.path()), tree);
}

#[test]
fn an_allowed_archive_moves_the_note_and_nothing_else() {
    let rows: [(&str, RootsBuilder, Before, &str); 3] = [
        (
            "no archive yet",
            Roots::builder(),
            Before::Nothing,
            "plan.md",
        ),
        (
            "archive/ already there",
            Roots::builder(),
            Before::ArchiveExists,
            "plan.md",
        ),
        (
            "another note read-only",
            Roots::builder().read_only(patterns(&["other.md"])),
            Before::Nothing,
            "plan.md",
        ),
    ];
    for (name, policy, before, moved) in rows {
        let (dir, roots) = fixture(policy);
        if let Before::ArchiveExists = before {
            std::fs::create_dir(dir.path().join("Notes/archive")).unwrap();
        }
        let note = found(&roots, "Project plan");
        let mut expected = tree_of(dir.path());
        expected.remove("Notes/plan.md");
        expected.insert("Notes/archive/".into());
        expected.insert(format!("Notes/archive/{moved}"));
        let archived = notes::archive(&roots.load(), &note).unwrap();
        assert_eq!(archived.rel(), format!("archive/{moved}"), "{name}");
        assert_eq!(tree_of(dir.path()), expected, "{name}");
    }
}

#[tokio::test]
async fn the_tool_refuses_and_the_tree_stays_as_it_was() {
    for (args, expected) in [
        (&["--read-only-pattern", "plan.md"][..], "read_only"),
        (&["--read-only-pattern", "/archive/"][..], "read_only"),
        (&["--read-only-pattern", "/archive/**"][..], "read_only"),
        (&["--hide", "/archive/"][..], "hidden"),
        (&["--read-only"][..], "read_only"),
    ] {
        let dir = tree();
        let launch = binary().with_args(args.iter().copied());
        let (script, s) = spawn(&launch, dir.path(), &["Work"], true, true).await;
        script.answer(accept(json!({ "confirm": true })));
        let before = tree_of(dir.path());
        let result = call(
            &s.client,
            "notes_archive",
            json!({ "title": "Project plan" }),
        )
        .await;
        assert_eq!(reason(&result), Some(expected), "{args:?}: {result:?}");
        assert_eq!(
            tree_of(dir.path()),
            before,
            "{args:?}: the refusal changed the tree"
        );
        assert!(s.close().await);
    }
}
