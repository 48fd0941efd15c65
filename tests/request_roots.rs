//! `Roots::for_request`: the roots of one request, the policy applied,
//! nothing installed in the session, and the handles of the previous
//! request's roots taken over only while their paths still name the same
//! directories.

#![cfg(unix)]

use mcp_roots::{ErrorKind, RootSet, Roots};

fn list(uris: &[String]) -> mcp_roots::RootSetBuilder {
    uris.iter()
        .fold(RootSet::builder(), |b, u| b.root(u.clone()))
}

#[test]
fn a_request_set_is_the_policy_applied_and_never_the_sessions() {
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().to_str().unwrap().to_owned();
    for d in ["in/a", "out"] {
        std::fs::create_dir_all(format!("{top}/{d}")).unwrap();
    }
    std::fs::write(format!("{top}/in/a/x"), "x").unwrap();
    std::fs::write(format!("{top}/out/y"), "y").unwrap();
    let session = Roots::builder().ceiling([format!("{top}/in")]).build();
    let request = session.for_request(Some(list(&[format!("{top}/in/a"), format!("{top}/out")])));
    let snap = request.load();
    assert_eq!(snap.read_to_string(&format!("{top}/in/a/x")).unwrap(), "x");
    assert_eq!(snap.set().rejected()[0].kind(), ErrorKind::OutsideCeiling);
    // The session itself still has nothing installed.
    assert_eq!(session.generation(), 0);
    let none = session.load().open(&format!("{top}/in/a/x")).unwrap_err();
    assert_eq!(none.kind(), ErrorKind::NoRoots);
    // A client without the roots capability: the policy alone (here: nothing).
    assert!(session.for_request(None).load().set().is_empty());
}

#[test]
fn repeated_roots_take_over_handles_only_while_the_path_names_the_same_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().to_str().unwrap().to_owned();
    std::fs::create_dir(format!("{top}/r")).unwrap();
    std::fs::write(format!("{top}/r/f"), "first").unwrap();
    let session = Roots::default();
    let roots = [format!("{top}/r")];
    let first = session.for_request(Some(list(&roots)));
    let id = first.load().set().roots()[0].id();
    drop(first);
    let second = session.for_request(Some(list(&roots)));
    assert_eq!(
        second.load().set().roots()[0].id(),
        id,
        "the handle is taken over"
    );
    drop(second);
    // The directory at the path is replaced: the next request opens the new one.
    std::fs::rename(format!("{top}/r"), format!("{top}/old")).unwrap();
    std::fs::create_dir(format!("{top}/r")).unwrap();
    std::fs::write(format!("{top}/r/f"), "second").unwrap();
    let third = session.for_request(Some(list(&roots)));
    assert_ne!(third.load().set().roots()[0].id(), id);
    assert_eq!(
        third.load().read_to_string(&format!("{top}/r/f")).unwrap(),
        "second"
    );
}

#[test]
fn a_refusal_is_judged_again_on_the_next_request() {
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().to_str().unwrap().to_owned();
    let session = Roots::default();
    let roots = [format!("{top}/later")];
    let first = session.for_request(Some(list(&roots)));
    assert_eq!(first.load().set().rejected()[0].kind(), ErrorKind::NotFound);
    std::fs::create_dir(format!("{top}/later")).unwrap();
    std::fs::write(format!("{top}/later/f"), "here").unwrap();
    let second = session.for_request(Some(list(&roots)));
    assert_eq!(
        second
            .load()
            .read_to_string(&format!("{top}/later/f"))
            .unwrap(),
        "here"
    );
    // The first request's roots are its own: still refusing.
    assert!(first.load().read(&format!("{top}/later/f")).is_err());
}
