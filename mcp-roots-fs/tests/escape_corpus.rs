//! The shared escape corpus through the server's tools: `read_text_file`
//! and `move_file` for the read cases, `append_file` and `write_file` for
//! the create cases,
//! `list_directory` and `search_files` for the listing cases. The client
//! shares each case's roots (no command-line directory: no ceiling). A
//! deny case must be a tool error that changes nothing (0 escapes); an
//! allow case must succeed (0 false denies) unless the corpus marks it
//! `deny_acceptable` in a class the library refuses by design. Beside
//! ours, the original server's verdicts on the same calls are printed (not
//! gated) when its npm package is installed (`tests/differential/run.sh`
//! installs it under the target directory; `ORIGINAL_DIST` names another
//! `dist/index.js`) and `node` runs.

#![cfg(unix)]

mod common;

use std::path::PathBuf;
use std::time::Duration;

use mcp_script::{Connection, ScriptedClient, text_of};
use rmcp::ClientLifecycleMode;
use serde_json::json;
use testkit::{Expect, Fixture, Op, corpus};

use common::{NoServer, binary, call, failed, start};

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
            // append_file first: it creates the file, which write_file
            // then replaces with the same text.
            Op::WriteNew => vec![
                ("append_file", json!({ "path": input, "content": MARKER })),
                ("write_file", json!({ "path": input, "content": MARKER })),
            ],
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
    original_verdicts(&cases).await;
    assert!(escapes.is_empty(), "escapes:\n{}", escapes.join("\n"));
    assert!(
        false_denies.is_empty(),
        "false denies:\n{}",
        false_denies.join("\n")
    );
}

/// The original's `dist/index.js`: `ORIGINAL_DIST`, or the differential
/// test's install beside the binary.
fn original_dist() -> Option<PathBuf> {
    if let Some(dist) = std::env::var_os("ORIGINAL_DIST") {
        return Some(PathBuf::from(dist));
    }
    let target = binary().parent()?.parent()?;
    let dist = target.join(
        "node-server-filesystem-2026.8.31/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
    );
    dist.exists().then_some(dist)
}

/// The original's verdicts on the corpus's calls, printed beside ours (not
/// gated): a deny case it answers without an error, or with a change on
/// disk, is an escape; an allow case it refuses, a false deny.
async fn original_verdicts(cases: &[testkit::Case]) {
    let Some(dist) = original_dist() else {
        eprintln!(
            "the original's verdicts: skipped (no installed @modelcontextprotocol/server-filesystem: run tests/differential/run.sh once, or set ORIGINAL_DIST)"
        );
        return;
    };
    let node = std::path::Path::new("node");
    let mut escapes = Vec::new();
    let mut false_denies = Vec::new();
    let mut checked = 0;
    for case in cases {
        let fx = Fixture::with_setup(&case.setup).expect("fixture");
        let roots: Vec<String> = case.roots.iter().map(|r| fx.subst(r)).collect();
        let input = fx.subst(&case.input);
        let script = ScriptedClient::new(true, false);
        script.set_root_uris(&roots.iter().map(String::as_str).collect::<Vec<_>>());
        let args = [dist.to_string_lossy().into_owned()];
        let conn: Connection<NoServer> =
            match Connection::spawn(node, &args, script.clone(), ClientLifecycleMode::Initialize)
                .await
            {
                Ok(conn) => conn,
                Err(err) => {
                    eprintln!("the original's verdicts: skipped (it did not start: {err})");
                    return;
                }
            };
        // It asks for the roots once initialized, and installs them after.
        let _ = script.roots_answered(1, Duration::from_secs(10)).await;
        tokio::time::sleep(Duration::from_millis(50)).await;
        let before = fx.snapshot();
        let mut calls: Vec<(&'static str, serde_json::Value)> = match case.op {
            Op::Read => vec![("read_text_file", json!({ "path": input }))],
            Op::WriteNew => vec![("write_file", json!({ "path": input, "content": MARKER }))],
            Op::List => vec![
                ("list_directory", json!({ "path": input })),
                ("search_files", json!({ "path": input, "pattern": "**" })),
            ],
        };
        if case.expect == Expect::Deny && case.op == Op::Read {
            let root = roots[0].trim_start_matches("file://");
            let destination = format!("{}/moved-by-the-corpus", root.trim_end_matches('/'));
            calls.push((
                "move_file",
                json!({ "source": input, "destination": destination }),
            ));
        }
        for (tool, args) in calls {
            checked += 1;
            let id = format!("{} via {tool}", case.id);
            let Ok(result) = mcp_script::call(&conn.client, tool, args).await else {
                continue;
            };
            match case.expect {
                Expect::Deny => {
                    let changed = !before.diff(&fx.snapshot()).is_empty();
                    // A moved link is the original moving its target: a change.
                    if !failed(&result) || changed {
                        escapes.push(id);
                    }
                }
                Expect::Allow if failed(&result) => false_denies.push(id),
                Expect::Allow => {}
            }
        }
        conn.close().await;
    }
    eprintln!(
        "the original ({}): {checked} tool calls: {} escapes, {} false denies (it takes a file:// input for a relative path, and the corpus's deny cases include `..` after a missing component)",
        dist.display(),
        escapes.len(),
        false_denies.len()
    );
    eprintln!("the original's escapes:\n{}", escapes.join("\n"));
    eprintln!("the original's false denies:\n{}", false_denies.join("\n"));
}
