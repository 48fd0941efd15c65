//! The shared escape corpus through the server's tools: `read_text_file`
//! and `move_file` for the read cases, `write_file` for the create cases,
//! `list_directory` and `search_files` for the listing cases. The client
//! shares each case's roots (no command-line directory: no ceiling). A
//! deny case must be a tool error that changes nothing (0 escapes); an
//! allow case must succeed (0 false denies) unless the corpus marks it
//! `deny_acceptable` in a class the library refuses by design. The
//! original server's verdicts are not computed here; the differential
//! test (`tests/differential/`) compares the two on its own tree.

#![cfg(unix)]

mod common;

use mcp_script::{ScriptedClient, text_of};
use serde_json::json;
use testkit::{Expect, Fixture, Op, corpus};

use common::{call, failed, start};

/// The allow classes the library refuses by design (an encoded backslash;
/// a create through a dangling link).
const REFUSED_BY_DESIGN: &[&str] = &["backslash", "dangling_symlink_write"];

const MARKER: &str = "written by the corpus through write_file";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_escape_corpus_through_the_tools() {
    let cases = corpus::load_shared();
    let mut escapes = Vec::new();
    let mut false_denies = Vec::new();
    let mut checked = 0;
    let mut links_moved = 0;
    for case in &cases {
        let fx = Fixture::with_setup(&case.setup).expect("fixture");
        let roots: Vec<String> = case.roots.iter().map(|r| fx.subst(r)).collect();
        let input = fx.subst(&case.input);
        let script = ScriptedClient::new(true, false);
        script.set_root_uris(&roots.iter().map(String::as_str).collect::<Vec<_>>());
        let conn = start(&[], &script).await;
        let client = &conn.client;
        let before = fx.snapshot();
        // (tool, arguments) the case runs through.
        let calls: Vec<(&'static str, serde_json::Value)> = match case.op {
            Op::Read => vec![("read_text_file", json!({ "path": input }))],
            Op::WriteNew => vec![("write_file", json!({ "path": input, "content": MARKER }))],
            Op::List => vec![
                ("list_directory", json!({ "path": input })),
                ("search_files", json!({ "path": input, "pattern": "**" })),
            ],
        };
        for (tool, args) in calls {
            checked += 1;
            let result = call(client, tool, args).await;
            let id = format!("{} via {tool}", case.id);
            match case.expect {
                Expect::Deny => {
                    let changes = before.diff(&fx.snapshot());
                    if !failed(&result) || !changes.is_empty() {
                        escapes.push(format!("{id}: {} {changes:?}", text_of(&result)));
                    }
                }
                Expect::Allow if failed(&result) => {
                    let by_design =
                        case.deny_acceptable && REFUSED_BY_DESIGN.contains(&case.class.as_str());
                    if !by_design {
                        false_denies.push(format!("{id}: {}", text_of(&result)));
                    }
                }
                Expect::Allow => {
                    if case.op == Op::WriteNew {
                        let resolved = case
                            .resolved
                            .as_deref()
                            .expect("allow cases name `resolved`");
                        let written =
                            std::fs::read_to_string(fx.resolved(resolved)).unwrap_or_default();
                        if written != MARKER {
                            escapes.push(format!("{id}: wrote elsewhere than {resolved}"));
                        }
                    }
                }
            }
        }
        // move_file: moving the input of a deny case to a new name inside
        // the first root must be refused, or (a link whose target is out)
        // move the link itself, within the root: nothing outside changes.
        if case.expect == Expect::Deny && case.op == Op::Read {
            let root = roots[0].trim_start_matches("file://");
            let destination = format!("{}/moved-by-the-corpus", root.trim_end_matches('/'));
            checked += 1;
            let result = call(
                client,
                "move_file",
                json!({ "source": input, "destination": destination }),
            )
            .await;
            let rels: Vec<String> = roots
                .iter()
                .map(|r| {
                    r.trim_start_matches("file://")
                        .trim_start_matches(fx.t_str())
                        .trim_matches('/')
                        .to_owned()
                })
                .collect();
            let outside: Vec<String> = before
                .diff(&fx.snapshot())
                .into_iter()
                .filter(|change| {
                    !rels.iter().any(|rel| {
                        change
                            .split_whitespace()
                            .nth(1)
                            .is_some_and(|p| p.starts_with(&format!("{rel}/")))
                    })
                })
                .collect();
            if !outside.is_empty() {
                escapes.push(format!(
                    "{} via move_file: {} {outside:?}",
                    case.id,
                    text_of(&result)
                ));
            } else if !failed(&result) {
                links_moved += 1;
            }
        }
        conn.close().await;
    }
    eprintln!(
        "{} cases, {checked} tool calls: {} escapes, {} false denies; move_file moved {links_moved} links that lead out (the link itself, inside its root)",
        cases.len(),
        escapes.len(),
        false_denies.len()
    );
    eprintln!("false denies:\n{}", false_denies.join("\n"));
    assert!(escapes.is_empty(), "escapes:\n{}", escapes.join("\n"));
    assert!(
        false_denies.is_empty(),
        "false denies:\n{}",
        false_denies.join("\n")
    );
}
