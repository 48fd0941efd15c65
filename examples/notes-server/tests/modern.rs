//! The 2026-07-28 revision end to end: `server/discover` instead of
//! `initialize`, roots that arrive with each call (request-scoped: two calls
//! with different answers see different sets, the ceiling applies, nothing
//! is installed in the session), confirmations and choices through
//! `inputResponses`, an untrusted `requestState`, and the stdio binary.

mod common;

use std::time::Duration;

use common::{Client, at, call, count, forms, listed, outcome, reason, tree, uri};
use mcp_roots::{EmptyRoots, Roots, RootsBuilder};
use mcp_roots_rmcp::ROOTS_INPUT;
use mcp_script::{self as client, Event, ScriptedClient, accept, decline};
use notes_server::NotesServer;
use notes_server::modern::CONFIRM_INPUT;
use rmcp::ClientLifecycleMode;
use rmcp::model::{CallToolRequestParams, CallToolResponse, InputResponses, ProtocolVersion};
use rmcp::service::ClientServiceExt;
use serde_json::{Value, json};

/// A 2026-07-28 session with `server`; the client declares roots (or not)
/// and forms, and shares nothing yet.
async fn modern(server: &NotesServer, roots: bool, forms: bool) -> (ScriptedClient, Client) {
    let script = ScriptedClient::new(roots, forms).speaking(ProtocolVersion::V_2026_07_28);
    let (pending, client) = client::connect_modern(server.clone(), script.clone())
        .await
        .unwrap();
    tokio::spawn(async move {
        if let Ok(running) = pending.await.unwrap() {
            let _ = running.waiting().await;
        }
    });
    (script, client)
}

fn share(script: &ScriptedClient, dir: &std::path::Path, folders: &[&str]) {
    let uris: Vec<String> = folders.iter().map(|f| uri(dir, f)).collect();
    script.set_roots(uris.iter().map(|u| (u.as_str(), None)));
}

fn roots_answers(events: &[Event]) -> usize {
    count(events, |e| matches!(e, Event::RootsListed(_)))
}

#[tokio::test]
async fn roots_are_per_request_and_never_installed() {
    let dir = tree();
    let server = NotesServer::new(RootsBuilder::default());
    let (script, c) = modern(&server, true, true).await;
    assert_eq!(
        script.roots_requests(),
        0,
        "no roots/list without a tool call"
    );
    share(&script, dir.path(), &["Notes"]);
    let notes = call(&c, "notes_list", json!({})).await;
    assert_eq!(listed(&notes).len(), 4, "{notes:?}");
    assert!(
        listed(&notes)
            .iter()
            .all(|u| u.starts_with(&uri(dir.path(), "Notes/")))
    );
    share(&script, dir.path(), &["Work"]);
    let work = call(&c, "notes_list", json!({})).await;
    assert_eq!(listed(&work), [uri(dir.path(), "Work/plan.md")]);
    let meeting = json!({ "path": at(dir.path(), "Notes/meeting.md") });
    let refused = call(&c, "notes_read", meeting.clone()).await;
    assert_eq!(reason(&refused), Some("outside_roots"));
    share(&script, dir.path(), &["Notes"]);
    let read = call(&c, "notes_read", meeting).await;
    assert_eq!(client::text_of(&read), "# Meeting notes\nMonday\n");
    // One roots answer per call, none of them kept by the session.
    assert_eq!(script.roots_requests(), 4);
    assert_eq!(server.session().roots().generation(), 0);
    assert!(server.session().roots().load().is_empty());
    // list_changed means nothing on this revision (and is harmless).
    c.notify_roots_list_changed().await.unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(server.session().roots().generation(), 0);
}

#[tokio::test]
async fn the_ceiling_applies_to_request_roots() {
    let dir = tree();
    let policy = Roots::builder().ceiling([at(dir.path(), "Notes")]);
    let server = NotesServer::new(policy);
    let (script, c) = modern(&server, true, true).await;
    share(&script, dir.path(), &[""]); // the whole tree: clipped to Notes
    let clipped = call(&c, "notes_list", json!({})).await;
    assert_eq!(listed(&clipped).len(), 4, "{clipped:?}");
    let write = json!({ "path": at(dir.path(), "Work/new.md"), "content": "x" });
    assert_eq!(
        reason(&call(&c, "notes_write", write).await),
        Some("outside_roots")
    );
    share(&script, dir.path(), &["Work"]); // outside the ceiling: grants nothing
    let outside = call(&c, "notes_list", json!({})).await;
    assert_eq!(reason(&outside), Some("no_roots"));
    assert!(
        client::text_of(&outside).contains("outside_ceiling"),
        "{outside:?}"
    );
    assert!(!dir.path().join("Work/new.md").exists());
}

#[tokio::test]
async fn a_client_without_roots_gets_the_policy() {
    let dir = tree();
    let policy = Roots::builder()
        .ceiling([at(dir.path(), "Work")])
        .empty_roots(EmptyRoots::Ceiling);
    let server = NotesServer::new(policy);
    let (script, c) = modern(&server, false, true).await;
    let result = call(&c, "notes_list", json!({})).await;
    assert_eq!(listed(&result), [uri(dir.path(), "Work/plan.md")]);
    // A confirmation comes alone: no roots request to a client without roots.
    script.answer(accept(json!({ "confirm": true })));
    let archived = call(&c, "notes_archive", json!({ "title": "Project plan" })).await;
    assert_eq!(outcome(&archived), Some("archived"), "{archived:?}");
    assert_eq!(forms(&script), 1);
    assert_eq!(script.roots_requests(), 0, "not asked: no roots declared");
    assert!(dir.path().join("Work/archive/plan.md").exists());
}

#[tokio::test]
async fn archive_confirms_through_input_responses() {
    let dir = tree();
    let server = NotesServer::new(RootsBuilder::default());
    let (script, c) = modern(&server, true, true).await;
    share(&script, dir.path(), &["Notes"]);
    let meeting = json!({ "title": "Meeting notes" });
    for (answer, expected) in [
        (decline(), "declined"),
        (accept(json!({ "confirm": false })), "declined"),
    ] {
        script.answer(answer);
        let kept = call(&c, "notes_archive", meeting.clone()).await;
        assert_eq!(outcome(&kept), Some(expected), "{kept:?}");
        assert!(dir.path().join("Notes/meeting.md").exists());
    }
    script.take_events();
    script.answer(accept(json!({ "confirm": true })));
    let archived = call(&c, "notes_archive", meeting).await;
    assert_eq!(outcome(&archived), Some("archived"), "{archived:?}");
    assert!(dir.path().join("Notes/archive/meeting.md").exists());
    let events = script.take_events();
    // Round 1: roots; round 2: roots + the confirmation naming the note.
    assert_eq!(roots_answers(&events), 2);
    let Some(Event::Form { message, .. }) = events.iter().find(|e| matches!(e, Event::Form { .. }))
    else {
        panic!("no form: {events:?}")
    };
    assert!(message.contains("Notes: meeting.md)"), "{message}");
    assert_eq!(server.session().roots().generation(), 0);
}

#[tokio::test]
async fn delete_takes_one_match_at_once_and_one_pick_among_several() {
    let dir = tree();
    let server = NotesServer::new(RootsBuilder::default());
    let (script, c) = modern(&server, true, true).await;
    share(&script, dir.path(), &["Notes"]);
    let deleted = call(&c, "notes_delete", json!({ "title": "Meeting notes" })).await;
    assert_eq!(outcome(&deleted), Some("deleted"), "{deleted:?}");
    let events = script.take_events();
    assert_eq!(
        (
            roots_answers(&events),
            count(&events, |e| matches!(e, Event::Form { .. }))
        ),
        (1, 0)
    );
    assert!(!dir.path().join("Notes/meeting.md").exists());
    script.pick("choice", "2025");
    let picked = call(&c, "notes_delete", json!({ "title": "TPS report" })).await;
    assert_eq!(outcome(&picked), Some("deleted"), "{picked:?}");
    let events = script.take_events();
    // Round 1: roots; round 2: roots + which one; then deleted.
    assert_eq!(
        (
            roots_answers(&events),
            count(&events, |e| matches!(e, Event::Form { .. }))
        ),
        (2, 1)
    );
    let left =
        ["2023", "2024", "2025"].map(|y| dir.path().join(format!("Notes/{y}/tps.md")).exists());
    assert_eq!(left, [true, true, false]);
}

#[tokio::test]
async fn several_matches_choose_then_confirm_then_exactly_that_one_goes() {
    let dir = tree();
    let server = NotesServer::new(RootsBuilder::default());
    let (script, c) = modern(&server, true, true).await;
    share(&script, dir.path(), &["Notes"]);
    script.pick("choice", "2024");
    script.answer(accept(json!({ "confirm": true })));
    let result = call(&c, "notes_archive", json!({ "title": "tps report" })).await;
    assert_eq!(outcome(&result), Some("archived"), "{result:?}");
    let events = script.take_events();
    assert_eq!(
        (
            roots_answers(&events),
            count(&events, |e| matches!(e, Event::Form { .. }))
        ),
        (3, 2)
    );
    assert!(dir.path().join("Notes/archive/tps.md").exists());
    let left: Vec<bool> = ["2023", "2024", "2025"]
        .map(|y| dir.path().join(format!("Notes/{y}/tps.md")).exists())
        .to_vec();
    assert_eq!(left, [true, false, true]);
}

#[tokio::test]
async fn without_forms_nothing_is_asked_and_nothing_changes() {
    let dir = tree();
    let server = NotesServer::new(RootsBuilder::default());
    let (script, c) = modern(&server, true, false).await;
    share(&script, dir.path(), &["Notes"]);
    for (tool, title) in [
        ("notes_delete", "TPS report"), // three matches: needs a pick
        ("notes_archive", "Meeting notes"),
    ] {
        let result = call(&c, tool, json!({ "title": title })).await;
        assert_eq!(reason(&result), Some("elicitation_unsupported"), "{tool}");
    }
    assert_eq!(forms(&script), 0);
    assert!(dir.path().join("Notes/meeting.md").exists());
}

/// One `tools/call` round by hand.
async fn round(
    c: &Client,
    tool: &'static str,
    args: Value,
    inputs: Value,
    state: &str,
) -> CallToolResponse {
    let Value::Object(args) = args else {
        unreachable!()
    };
    let inputs: InputResponses = serde_json::from_value(inputs).unwrap();
    let params = CallToolRequestParams::new(tool)
        .with_arguments(args)
        .with_input_responses(inputs)
        .with_request_state(state);
    c.call_tool_once(params).await.unwrap()
}

fn complete(response: CallToolResponse) -> rmcp::model::CallToolResult {
    match response {
        CallToolResponse::Complete(result) => result,
        other => panic!("not complete: {other:?}"),
    }
}

#[tokio::test]
async fn the_request_state_is_not_trusted() {
    let dir = tree();
    let server = NotesServer::new(RootsBuilder::default());
    let (_, c) = modern(&server, true, true).await;
    let roots = json!({ "roots": [{ "uri": uri(dir.path(), "Notes") }] });
    let yes = json!({ ROOTS_INPUT: roots, CONFIRM_INPUT: { "action": "accept", "content": { "confirm": true } } });
    let args = json!({ "title": "Meeting notes" });
    // A state from another call, or not ours at all.
    for state in [
        "garbage",
        r#"{"tool":"notes_archive","title":"Meeting notes","step":"confirm"}"#,
    ] {
        let result = complete(round(&c, "notes_delete", args.clone(), yes.clone(), state).await);
        assert_eq!(reason(&result), Some("invalid_request_state"), "{result:?}");
    }
    // A state naming a file outside this request's roots: found again
    // under the roots, it is not there.
    let forged = json!({
        "tool": "notes_delete", "title": "Meeting notes", "step": "confirm",
        "note": { "uri": uri(dir.path(), "Secret/passwords.md"), "title": "Meeting notes", "root": "Notes", "path": "meeting.md" },
    });
    let result = complete(
        round(
            &c,
            "notes_delete",
            args.clone(),
            yes.clone(),
            &forged.to_string(),
        )
        .await,
    );
    assert_eq!(reason(&result), Some("note_changed"), "{result:?}");
    assert!(dir.path().join("Secret/passwords.md").exists());
    // An answer that does not match the form is refused.
    let bad = json!({ ROOTS_INPUT: roots, CONFIRM_INPUT: { "action": "accept", "content": { "confirm": "yes" } } });
    let mut honest = forged;
    honest["note"]["uri"] = json!(uri(dir.path(), "Notes/meeting.md"));
    let result = complete(round(&c, "notes_delete", args, bad, &honest.to_string()).await);
    assert_eq!(
        reason(&result),
        Some("elicitation_invalid_answer"),
        "{result:?}"
    );
    assert!(dir.path().join("Notes/meeting.md").exists());
}

#[tokio::test]
async fn notes_setup_on_2026_07_28_gets_the_guard() {
    let server = NotesServer::new(RootsBuilder::default());
    let (script, c) = modern(&server, true, true).await;
    let result = call(&c, "notes_setup", json!({})).await;
    assert_eq!(reason(&result), Some("url_elicitation_unsupported"));
    assert!(
        client::text_of(&result).contains("input-required"),
        "{result:?}"
    );
    assert!(script.take_events().is_empty());
}

#[tokio::test]
async fn the_binary_serves_2026_07_28_over_stdio() {
    let dir = tree();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_notes-server"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let io = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    let script = ScriptedClient::new(true, true).speaking(ProtocolVersion::V_2026_07_28);
    share(&script, dir.path(), &["Work"]);
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let c = script
        .clone()
        .serve_with_lifecycle(io, lifecycle)
        .await
        .unwrap();
    let result = call(&c, "notes_list", json!({})).await;
    assert_eq!(listed(&result), [uri(dir.path(), "Work/plan.md")]);
    assert_eq!(script.roots_requests(), 1);
    c.cancel().await.unwrap();
    let status = tokio::time::timeout(Duration::from_secs(5), child.wait()).await;
    assert!(status.unwrap().unwrap().success());
}
