//! Every Unicode control (`Cc`: C0, DEL, C1) and the line and paragraph
//! separators (U+2028, U+2029) are refused raw in a URI (`invalid_uri`),
//! wherever they stand; percent-encoded they are names like any other, and
//! a raw path takes them literally. Messages never carry them raw.

#![cfg(unix)]

use mcp_roots::{ErrorKind, RootSet};

/// The characters refused raw in a URI beyond ASCII's controls, and their
/// percent-encoded UTF-8.
const REFUSED: [(char, &str); 7] = [
    ('\u{80}', "%C2%80"),
    ('\u{85}', "%C2%85"),
    ('\u{9b}', "%C2%9B"),
    ('\u{9f}', "%C2%9F"),
    ('\u{2028}', "%E2%80%A8"),
    ('\u{2029}', "%E2%80%A9"),
    ('\u{1b}', "%1B"),
];

fn raw(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'))
}

#[test]
fn raw_controls_and_separators_are_refused_in_uris_only() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let top = tmp.path().to_str().expect("utf-8").to_owned();
    let set = RootSet::from_uris([format!("file://{top}")]);
    for (c, encoded) in REFUSED {
        std::fs::write(format!("{top}/n{c}l"), "x").expect("write");
        for uri in [
            format!("file://{top}/n{c}l"),
            format!("file://{top}/n{encoded}l?{c}"),
            format!("file://{top}/n{encoded}l#{c}"),
            format!("file://{top}/caf\u{e9}{c}/n{encoded}l"),
        ] {
            let err = set.open(&uri).expect_err("refused");
            assert_eq!(err.kind(), ErrorKind::InvalidUri, "{uri:?}");
            assert!(!raw(&err.to_string()), "{err}");
            let err = set.create_new(&uri).expect_err("refused");
            assert_eq!(err.kind(), ErrorKind::InvalidUri, "{uri:?}");
        }
        for named in [format!("file://{top}/n{encoded}l"), format!("{top}/n{c}l")] {
            assert_eq!(
                set.read_to_string(&named).as_deref().ok(),
                Some("x"),
                "{named:?}"
            );
        }
        // A root URI with one is rejected, with the same reason.
        let rejected = RootSet::from_uris([format!("file://{top}/n{c}l")]);
        assert_eq!(
            rejected.rejected()[0].kind(),
            ErrorKind::InvalidUri,
            "{c:?}"
        );
    }
    // Characters sharing those lead bytes are names.
    for c in ['\u{a0}', '\u{e9}', '\u{2027}', '\u{202f}', '\u{20ac}'] {
        std::fs::write(format!("{top}/n{c}l"), "y").expect("write");
        let uri = format!("file://{top}/n{c}l");
        assert_eq!(
            set.read_to_string(&uri).as_deref().ok(),
            Some("y"),
            "{uri:?}"
        );
    }
}
