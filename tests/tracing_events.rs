//! The `tracing` events a server can filter on: denials (target
//! `mcp_roots::denial`, with the input and reason), revocations and
//! replacements.

#![cfg(target_os = "linux")]

use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

use mcp_roots::{RootSet, Roots};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

/// Records each event as `LEVEL target: field=value ...`.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<String>>>);

struct Line<'a>(&'a mut String);

impl Visit for Line<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let _ = write!(self.0, " {}={value:?}", field.name());
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let meta = event.metadata();
        let mut line = format!("{} {}:", meta.level(), meta.target());
        event.record(&mut Line(&mut line));
        self.0.lock().expect("lines").push(line);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

#[test]
fn denials_revocations_and_replacements_are_traced() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().to_str().expect("utf-8").to_owned();
    std::fs::write(format!("{dir}/x.txt"), "x").expect("write");
    let capture = Capture::default();
    tracing::subscriber::with_default(capture.clone(), || {
        let roots = Roots::default();
        roots.replace(RootSet::from_uris([dir.clone()]));
        let _held = roots.load().open(&format!("{dir}/x.txt")).expect("open");
        let _ = roots.load().open(&format!("{dir}/../etc/passwd"));
        roots.replace(RootSet::from_uris(["/nonexistent-root"]));
    });
    let lines = capture.0.lock().expect("lines").clone();
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
                "reason=\"outside_roots\"",
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
