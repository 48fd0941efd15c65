//! A refusal of a two-path operation names the path it is about: an
//! existing destination names the destination, a missing source the
//! source (never the other end).

#![cfg(unix)]

use mcp_roots::{ErrorKind, RootSet};
use testkit::Fixture;

#[test]
fn a_rename_refusal_names_the_end_it_is_about() {
    let fx = Fixture::new().expect("fixture");
    for dir in ["r/full", "r/empty"] {
        std::fs::create_dir_all(fx.path(dir)).expect("mkdir");
    }
    for file in ["r/a.txt", "r/b.txt", "r/full/f.txt"] {
        std::fs::write(fx.path(file), file).expect("write");
    }
    let set = RootSet::from_uris([fx.subst("{T}/r")]);
    let p = |rel: &str| fx.subst(&format!("{{T}}/r/{rel}"));
    let u = |rel: &str| fx.subst(&format!("file://{{T}}/r/{rel}"));
    // (from, to, kind, which end the error names)
    let rows: [(String, String, ErrorKind, bool); 6] = [
        (p("a.txt"), p("b.txt"), ErrorKind::AlreadyExists, true),
        (u("a.txt"), u("%62.txt"), ErrorKind::AlreadyExists, true),
        (p("empty"), p("full"), ErrorKind::AlreadyExists, true),
        (p("missing.txt"), p("c.txt"), ErrorKind::NotFound, false),
        (p("full/../missing"), p("d.txt"), ErrorKind::NotFound, false),
        (p("a.txt"), p("nodir/c.txt"), ErrorKind::NotFound, true),
    ];
    for (from, to, kind, names_destination) in rows {
        let err = set
            .rename_with(from.as_str(), to.as_str(), mcp_roots::Overwrite::Refuse)
            .expect_err(&format!("{from} -> {to}"));
        // An existing non-empty directory may be reported either way by the
        // kernel (EEXIST or ENOTEMPTY); both are the destination's.
        if kind == ErrorKind::AlreadyExists && err.kind() != ErrorKind::AlreadyExists {
            assert_eq!(err.kind(), ErrorKind::Io, "{from} -> {to}: {err}");
        } else {
            assert_eq!(err.kind(), kind, "{from} -> {to}: {err}");
        }
        let want = if names_destination { &to } else { &from };
        assert_eq!(err.input(), want.as_str(), "{from} -> {to}: {err}");
    }
}
