//! Red team, class 1, in the notes server: `notes_write` of a name ending
//! in `/` creates nothing and refuses with the library's reason.

use mcp_roots::{ErrorKind, RootSet, Roots};
use notes_server::failure::Failure;
use notes_server::notes;
use notes_server::prefs::Settings;

#[test]
fn notes_write_refuses_a_note_name_ending_in_a_slash() {
    let dir = tempfile::tempdir().unwrap();
    let notes_dir = dir.path().join("Notes");
    std::fs::create_dir(&notes_dir).unwrap();
    std::fs::write(notes_dir.join("old.md"), "# Old\n").unwrap();
    let base = notes_dir.to_str().unwrap();
    let roots = Roots::default();
    roots.replace(RootSet::from_uris([base]));
    let templated = Settings {
        template: Some("# {title}\n{content}".into()),
    };
    for settings in [Settings::default(), templated] {
        for (input, reason) in [
            (format!("{base}/new.md/"), ErrorKind::NotADirectory),
            (format!("{base}/new.md//"), ErrorKind::NotADirectory),
            (format!("file://{base}/new.md/"), ErrorKind::NotADirectory),
            (
                format!("file://{base}/new.md/%2E"),
                ErrorKind::NotADirectory,
            ),
            (format!("{base}/old.md/"), ErrorKind::NotADirectory),
            (format!("file://{base}/old.md/"), ErrorKind::NotADirectory),
            // `new.md/.` names a directory `new.md` that must exist: the
            // library's resolve refuses it first.
            (format!("{base}/new.md/."), ErrorKind::NotFound),
        ] {
            let snap = roots.load();
            let refused = notes::write(&snap, &input, "# New\n", &settings);
            let kind = match refused {
                Err(Failure::Refused(err)) => err.kind(),
                other => panic!("{input}: expected the library's refusal, got {other:?}"),
            };
            assert_eq!(kind, reason, "{input}");
            assert!(!notes_dir.join("new.md").exists(), "{input}");
            assert_eq!(
                std::fs::read_to_string(notes_dir.join("old.md")).unwrap(),
                "# Old\n",
                "{input}"
            );
            let names: Vec<_> = std::fs::read_dir(&notes_dir).unwrap().collect();
            assert_eq!(names.len(), 1, "{input}: {names:?}");
        }
    }
    // The same name without the slash is a note.
    let snap = roots.load();
    let written = notes::write(
        &snap,
        &format!("{base}/new.md"),
        "# New\n",
        &Settings::default(),
    );
    assert!(written.expect("a note").created);
}
