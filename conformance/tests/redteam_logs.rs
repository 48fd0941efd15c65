//! Red team, class 4: no input reaches a log line or an error message raw.
//! Control characters (C0, DEL, C1), U+2028 and U+2029 in an input are
//! escaped in denial events, in `Error`'s `Display` (so in `Rejected`
//! roots' messages) and in the tool error's sentence; `Error::input()`
//! keeps the input as given.

#![cfg(target_os = "linux")]

mod common;

use common::capture::Capture;
use mcp_roots::{Error, RootSet};

/// The characters that must never reach a log or a message raw, and how
/// each is written instead.
const FORGERS: [(char, &str); 7] = [
    ('\n', "\\n"),
    ('\r', "\\r"),
    ('\t', "\\t"),
    ('\u{1b}', "\\u{1b}"),
    ('\u{85}', "\\u{85}"),
    ('\u{2028}', "\\u{2028}"),
    ('\u{2029}', "\\u{2029}"),
];

/// The tests of this file emit tracing events on several threads, one with
/// a thread-local subscriber: tracing caches each call site's interest
/// process-wide, so a call site first hit where no subscriber listens can be
/// skipped later. They run one at a time, and the capture rebuilds the
/// cache once its subscriber is in place.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn raw_forger(text: &str) -> Option<char> {
    text.chars()
        .find(|&c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'))
}

/// An input that would forge a second log line if written raw.
fn forged(base: &str, c: char) -> String {
    format!("{base}/x{c}INFO mcp_roots::denial: input=/ok reason=\"allowed\"")
}

#[test]
fn denial_events_escape_the_input() {
    let _serial = serial();
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().to_str().expect("utf-8").to_owned();
    let capture = Capture::default();
    let inputs: Vec<(String, &str)> = FORGERS
        .iter()
        .flat_map(|&(c, escaped)| {
            [
                // Outside every root: an INFO denial.
                (forged("/elsewhere", c), escaped),
                // Inside the root, missing: a DEBUG failure.
                (forged(&dir, c), escaped),
            ]
        })
        .collect();
    tracing::subscriber::with_default(capture.clone(), || {
        tracing::callsite::rebuild_interest_cache();
        let set = RootSet::from_uris([dir.as_str()]);
        for (input, _) in &inputs {
            let err = set.open(input).expect_err("refused");
            assert_eq!(err.input(), input, "the input is kept as given");
        }
    });
    let lines = capture.lines();
    let denials: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("mcp_roots::denial"))
        .collect();
    assert_eq!(denials.len(), inputs.len(), "{lines:#?}");
    for ((input, escaped), line) in inputs.iter().zip(&denials) {
        assert_eq!(raw_forger(line), None, "{line:?}");
        assert!(
            line.contains(&format!("x{escaped}INFO")),
            "{input:?}: {line:?}"
        );
        assert!(
            line.ends_with("reason=outside_roots op=Open")
                || line.ends_with("reason=not_found op=Open"),
            "{line:?}"
        );
    }
}

#[test]
fn error_messages_escape_the_input_but_input_keeps_it() {
    let _serial = serial();
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().to_str().expect("utf-8").to_owned();
    let set = RootSet::from_uris([dir.as_str()]);
    for (c, escaped) in FORGERS {
        for input in [forged("/elsewhere", c), forged(&dir, c)] {
            let err: Error = set.open(&input).expect_err("refused");
            let message = err.to_string();
            assert_eq!(raw_forger(&message), None, "{message:?}");
            assert!(message.contains(&format!("x{escaped}INFO")), "{message:?}");
            assert_eq!(err.input(), input);
            let io: std::io::Error = err.into();
            assert_eq!(raw_forger(&io.to_string()), None);
        }
        // A rejected root's message.
        let root = format!("/nonexistent{c}root");
        let rejected = RootSet::from_uris([root.as_str()]);
        let rejected = &rejected.rejected()[0];
        assert_eq!(rejected.uri(), root);
        let message = rejected.error().to_string();
        assert_eq!(raw_forger(&message), None, "{message:?}");
        assert!(
            message.contains(&format!("nonexistent{escaped}root")),
            "{message:?}"
        );
    }
}

#[test]
fn quotes_and_backslashes_cannot_fake_the_end_of_the_input() {
    let _serial = serial();
    let set = RootSet::from_uris(["/nonexistent-root"]);
    let err = RootSet::from_uris(["/nonexistent-root"]).rejected()[0]
        .error()
        .to_string();
    assert!(
        err.starts_with("cannot add root \"/nonexistent-root\""),
        "{err}"
    );
    assert!(set.is_empty());
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().to_str().expect("utf-8");
    let set = RootSet::from_uris([dir]);
    let input = format!("{dir}/a\": allowed\\");
    let message = set.open(&input).expect_err("missing").to_string();
    assert!(
        message.contains("/a\\\": allowed\\\\\": not found"),
        "{message}"
    );
}
