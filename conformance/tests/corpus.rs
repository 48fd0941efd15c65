//! Every case of the shared escape corpus (`testkit/data/escape_corpus.json`)
//! through the public API: denies are typed refusals that change nothing,
//! allows touch exactly the expected object, and the only refused allows are
//! those the corpus marks `deny_acceptable` in the classes refused by design
//! (links and `..` across roots are followed).

#![cfg(unix)]

mod common;

use mcp_roots::{ErrorKind, RootSet};
use testkit::{Expect, Fixture, Op, corpus};

/// The classes of allow cases that stay refused by design: an encoded
/// backslash in a URI (a separator on Windows) and a create through a
/// dangling symlink (a link is a name, never a free one).
const REFUSED_BY_DESIGN: &[&str] = &["backslash", "dangling_symlink_write"];

#[test]
fn shared_corpus() {
    let cases = corpus::load_shared();
    let mut failures = Vec::new();
    let mut refused_acceptable = Vec::new();
    for case in &cases {
        let fx = Fixture::with_setup(&case.setup).expect("fixture");
        let roots: Vec<String> = case.roots.iter().map(|r| fx.subst(r)).collect();
        let input = fx.subst(&case.input);
        let set = RootSet::from_uris(roots);
        let before = fx.snapshot();
        let outcome = common::run(&set, case.op, &input);
        let id = &case.id;
        match (case.expect, outcome) {
            (Expect::Deny, Ok(touched)) => {
                failures.push(format!("{id}: ESCAPE, allowed {touched:?}"));
            }
            (Expect::Deny, Err(err)) => {
                if err.kind() == ErrorKind::Io {
                    failures.push(format!("{id}: denied, but with an untyped error: {err}"));
                }
                let changes = before.diff(&fx.snapshot());
                if !changes.is_empty() {
                    failures.push(format!("{id}: denied but changed the tree: {changes:?}"));
                }
            }
            (Expect::Allow, Ok(touched)) => {
                let resolved = case
                    .resolved
                    .as_deref()
                    .expect("allow cases name `resolved`");
                if let Err(why) = common::check_target(&touched, &fx.resolved(resolved)) {
                    failures.push(format!("{id}: allowed, but {why}"));
                }
            }
            (Expect::Allow, Err(err)) if case.deny_acceptable => {
                refused_acceptable.push(format!("{id} ({})", err.reason()));
                // Links and `..` that lead out of a root and back into one
                // of the set are followed across roots: only the classes
                // refused by design may still be refused.
                if !REFUSED_BY_DESIGN.contains(&case.class.as_str()) {
                    failures.push(format!(
                        "{id}: refused ({}), but its class {} is followed across roots",
                        err.reason(),
                        case.class
                    ));
                }
            }
            (Expect::Allow, Err(err)) => {
                failures.push(format!("{id}: wrongly refused: {err} [{}]", err.reason()));
            }
        }
    }
    eprintln!(
        "{} cases; {} deny_acceptable allows refused: {}",
        cases.len(),
        refused_acceptable.len(),
        refused_acceptable.join(", ")
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        cases.iter().any(|c| c.op == Op::List),
        "the corpus exercises listing"
    );
}
