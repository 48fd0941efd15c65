//! The library's outcome for every row of the shared escape corpus, kept in
//! `testkit/data/escape_corpus_outcomes.json` (`"allow"` or the refusal's
//! reason, by case id), so that every language binding can check that it
//! answers each row exactly as the Rust crate does. This test fails when
//! the file and the crate disagree; `MCP_ROOTS_BLESS=1` rewrites the file.

#![cfg(unix)]

mod common;

use std::path::PathBuf;

use mcp_roots::RootSet;
use testkit::{Fixture, corpus};

fn outcomes_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testkit/data/escape_corpus_outcomes.json")
}

/// The file's text for the crate's outcomes: one `"id": "outcome"` line
/// per case, in corpus order.
fn render(rows: &[(String, &'static str)]) -> String {
    let lines: Vec<String> = rows
        .iter()
        .map(|(id, outcome)| format!("  \"{id}\": \"{outcome}\""))
        .collect();
    format!("{{\n{}\n}}\n", lines.join(",\n"))
}

#[test]
fn the_outcomes_file_is_the_crates() {
    let mut rows = Vec::new();
    for case in corpus::load_shared() {
        assert!(
            case.id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)),
            "{}: an id the file writes unescaped",
            case.id
        );
        let fx = Fixture::with_setup(&case.setup).expect("fixture");
        let roots: Vec<String> = case.roots.iter().map(|r| fx.subst(r)).collect();
        let set = RootSet::from_uris(roots);
        let outcome = match common::run(&set, case.op, &fx.subst(&case.input)) {
            Ok(_) => "allow",
            Err(err) => err.reason(),
        };
        rows.push((case.id, outcome));
    }
    let want = render(&rows);
    let path = outcomes_path();
    if std::env::var_os("MCP_ROOTS_BLESS").is_some() {
        std::fs::write(&path, &want).expect("write the outcomes file");
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    if have != want {
        let differ: Vec<&str> = want
            .lines()
            .filter(|line| !have.lines().any(|h| h == *line))
            .collect();
        panic!(
            "{} is stale (rerun with MCP_ROOTS_BLESS=1); the crate now answers:\n{}",
            path.display(),
            differ.join("\n")
        );
    }
}
