//! The `tracing` events a server can filter on: denials (target
//! `mcp_roots::denial`, with the input and reason), revocations and
//! replacements.

#![cfg(target_os = "linux")]

mod common;

use common::capture::Capture;
use mcp_roots::{RootSet, Roots};
use tracing::Level;

#[test]
fn denials_revocations_and_replacements_are_traced() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().to_str().expect("utf-8").to_owned();
    std::fs::write(format!("{dir}/x.txt"), "x").expect("write");
    let capture = Capture::default();
    tracing::subscriber::with_default(capture.clone(), || {
        tracing::callsite::rebuild_interest_cache();
        let roots = Roots::default();
        roots.replace(RootSet::from_uris([dir.clone()]));
        let _held = roots.load().open(&format!("{dir}/x.txt")).expect("open");
        let _ = roots.load().open(&format!("{dir}/../etc/passwd"));
        roots.replace(RootSet::from_uris(["/nonexistent-root"]));
    });
    let lines = capture.lines();
    let has = |level: Level, needles: &[&str]| {
        lines
            .iter()
            .any(|l| l.starts_with(level.as_str()) && needles.iter().all(|n| l.contains(n)))
    };
    assert!(
        has(
            Level::INFO,
            &[
                "mcp_roots::denial",
                "reason=outside_roots",
                "/../etc/passwd"
            ]
        ),
        "{lines:#?}"
    );
    assert!(has(Level::WARN, &["revoked", "path=x.txt"]), "{lines:#?}");
    assert!(
        has(
            Level::INFO,
            &["roots replaced", "generation=2", "revoked=1"]
        ),
        "{lines:#?}"
    );
}

#[test]
fn read_only_denials_are_traced_like_boundary_denials() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().to_str().expect("utf-8").to_owned();
    std::fs::write(format!("{dir}/x.txt"), "x").expect("write");
    let capture = Capture::default();
    tracing::subscriber::with_default(capture.clone(), || {
        tracing::callsite::rebuild_interest_cache();
        let roots = Roots::builder().writes(mcp_roots::Writes::Refuse).build();
        roots.replace(RootSet::from_uris([dir.clone()]));
        let snapshot = roots.load();
        let write = mcp_roots::OpenOptions::new().write(true);
        let _ = snapshot.open_with(&format!("{dir}/x.txt"), write);
        let _ = snapshot.remove_file(&format!("{dir}/x.txt"));
        let _ = snapshot.rename(&format!("{dir}/x.txt"), &format!("{dir}/y.txt"));
        let _ = snapshot.set().create_new(&format!("{dir}/new.txt"));
    });
    let lines = capture.lines();
    for (op, input) in [
        ("op=Open", "x.txt"),
        ("op=Remove", "x.txt"),
        ("op=Rename", "x.txt"),
        ("op=Create", "new.txt"),
    ] {
        let found = lines.iter().any(|l| {
            l.starts_with(Level::INFO.as_str())
                && l.contains("mcp_roots::denial")
                && l.contains("reason=read_only")
                && l.contains(op)
                && l.contains(input)
        });
        assert!(found, "{op} {input}: {lines:#?}");
    }
}

#[test]
fn grants_are_traced_with_path_kind_access_and_scope_never_contents() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().to_str().expect("utf-8").to_owned();
    std::fs::write(format!("{dir}/x\ny.txt"), "secret content").expect("write");
    let capture = Capture::default();
    tracing::subscriber::with_default(capture.clone(), || {
        tracing::callsite::rebuild_interest_cache();
        let roots = Roots::builder().ask_within([dir.clone()]).build();
        let snapshot = roots.load();
        let about = snapshot
            .may_ask(&format!("{dir}/x\ny.txt"), mcp_roots::GrantAccess::Read)
            .expect("may ask");
        let _call = snapshot.with_grant(&about).expect("call grant");
        let id = roots.grant(&about).expect("grant");
        let _ = roots.load().read(&format!("{dir}/x\ny.txt")).expect("read");
        roots.end_grant(id);
    });
    let lines = capture.lines();
    let has = |needles: &[&str]| lines.iter().any(|l| needles.iter().all(|n| l.contains(n)));
    let session = [
        "grant made for the session",
        "kind=file",
        "access=read",
        "x\\ny.txt",
    ];
    assert!(has(&session), "{lines:#?}");
    assert!(has(&["grant made for one call", "kind=file"]), "{lines:#?}");
    assert!(has(&["grant ended", "revoked=0"]), "{lines:#?}");
    assert!(!has(&["secret content"]), "{lines:#?}");
    assert!(
        !lines.iter().any(|l| l.contains("x\ny")),
        "a raw newline: {lines:#?}"
    );
}
