//! The 2026-07-28 revision end to end: `server/discover` instead of
//! `initialize`, roots that arrive with each call (request-scoped: two calls
//! with different answers see different sets, the ceiling applies, nothing
//! is installed in the session), confirmations and choices through
//! `inputResponses`, an untrusted `requestState`, files that change between
//! the question and the answer, `notes_setup` through a URL input request,
//! and the stdio binary.

mod common;

use std::time::Duration;

use common::{
    Client, TEMPLATE, at, call, configured, count, forms, listed, outcome, queue_submission,
    reason, says_closed, statuses, the_one_url, the_template_serves, tree, uri, urls,
};
use mcp_roots::{EmptyRoots, Roots, RootsBuilder};
use mcp_roots_rmcp::{ROOTS_INPUT, Rounds, SessionRoots};
use mcp_script::browser::{Step, browse};
use mcp_script::{self as client, Event, ScriptedClient, UrlAnswer, accept, decline};
use notes_server::NotesServer;
use notes_server::prefs::Settings;
use rmcp::ClientLifecycleMode;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, InputRequiredResult, InputResponses, ProtocolVersion,
};
use rmcp::service::ClientServiceExt;
use serde_json::{Value, json};

/// A 2026-07-28 session with `server`; the client declares roots (or not)
/// and forms, and shares nothing yet.
async fn modern(server: &NotesServer, roots: bool, forms: bool) -> (ScriptedClient, Client) {
    let script = ScriptedClient::new(roots, forms);
    (script.clone(), modern_with(server, script).await)
}

/// A 2026-07-28 session with `server` whose client is `script`.
async fn modern_with(server: &NotesServer, script: ScriptedClient) -> Client {
    let script = script.speaking(ProtocolVersion::V_2026_07_28);
    let (pending, client) = client::connect_modern(server.clone(), script.clone())
        .await
        .unwrap();
    tokio::spawn(async move {
        if let Ok(running) = pending.await.unwrap() {
            let _ = running.waiting().await;
        }
    });
    client
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

/// One `tools/call` round by hand: `inputs` (an object, or null for
/// none) and the `requestState` of the previous round.
async fn round(
    c: &Client,
    tool: &'static str,
    args: &Value,
    inputs: Value,
    state: Option<&str>,
) -> CallToolResponse {
    let Value::Object(args) = args.clone() else {
        unreachable!()
    };
    let mut params = CallToolRequestParams::new(tool).with_arguments(args);
    if !inputs.is_null() {
        let inputs: InputResponses = serde_json::from_value(inputs).unwrap();
        params = params.with_input_responses(inputs);
    }
    if let Some(state) = state {
        params = params.with_request_state(state);
    }
    c.call_tool_once(params).await.unwrap()
}

fn complete(response: CallToolResponse) -> rmcp::model::CallToolResult {
    match response {
        CallToolResponse::Complete(result) => result,
        other => panic!("not complete: {other:?}"),
    }
}

fn input_required(response: CallToolResponse) -> InputRequiredResult {
    match response {
        CallToolResponse::InputRequired(result) => result,
        other => panic!("not input-required: {other:?}"),
    }
}

/// A round that asks: its `requestState`, and its one question other than
/// the roots as `(key, elicitation/create params as JSON)`, if any.
fn asking(response: CallToolResponse) -> (Option<String>, Option<(String, Value)>) {
    let result = input_required(response);
    let state = result.request_state;
    let requests = result.input_requests.unwrap_or_default();
    let mut questions = requests.into_iter().filter(|(key, _)| key != ROOTS_INPUT);
    let question = questions.next().map(|(key, request)| {
        let request = serde_json::to_value(request).unwrap();
        (key, request["params"].clone())
    });
    assert!(questions.next().is_none(), "one question per round");
    (state, question)
}

/// The roots answer sharing `folders` of `dir`.
fn roots_answer(dir: &std::path::Path, folders: &[&str]) -> Value {
    let roots: Vec<Value> = folders
        .iter()
        .map(|f| json!({ "uri": uri(dir, f) }))
        .collect();
    json!({ "roots": roots })
}

/// The inputs of a retry: the roots, and `answer` under `key`.
fn answering(roots: &Value, key: &str, answer: Value) -> Value {
    json!({ ROOTS_INPUT: roots, key: answer })
}

/// The accepted answer to a "which note" form: the option whose title
/// contains `text`.
fn pick(form: &Value, text: &str) -> Value {
    let options = form["requestedSchema"]["properties"]["choice"]["oneOf"]
        .as_array()
        .unwrap();
    let option = options
        .iter()
        .find(|o| o["title"].as_str().unwrap().contains(text))
        .unwrap();
    json!({ "action": "accept", "content": { "choice": option["const"] } })
}

fn yes() -> Value {
    json!({ "action": "accept", "content": { "confirm": true } })
}

/// A question a round asked, and the states so far.
struct Asked {
    /// The state to answer the question with.
    state: String,
    key: String,
    /// The `elicitation/create` params, as JSON.
    form: Value,
}

/// Rounds 1 (the roots asked) and 2 (`roots` given) of `tool`: the
/// question round 2 asked.
async fn first_question(c: &Client, tool: &'static str, args: &Value, roots: &Value) -> Asked {
    // Round 1 asks for the roots alone and carries no state.
    let (first, _) = asking(round(c, tool, args, Value::Null, None).await);
    assert_eq!(first, None, "round 1 has nothing to carry");
    let inputs = json!({ ROOTS_INPUT: roots });
    let (state, question) = asking(round(c, tool, args, inputs, None).await);
    let (key, form) = question.expect("a question");
    Asked {
        state: state.expect("a question round carries its state"),
        key,
        form,
    }
}

/// The round that brings `answer` to `asked` (with `roots`); its result.
async fn answer(
    c: &Client,
    tool: &'static str,
    args: &Value,
    roots: &Value,
    asked: &Asked,
    answer: Value,
) -> rmcp::model::CallToolResult {
    let inputs = answering(roots, &asked.key, answer);
    complete(round(c, tool, args, inputs, Some(&asked.state)).await)
}

fn says(form: &Value, text: &str) -> bool {
    form["message"].as_str().unwrap().contains(text)
}

#[tokio::test]
async fn the_request_state_is_not_trusted() {
    let dir = tree();
    let server = NotesServer::new(RootsBuilder::default());
    let (_, c) = modern(&server, true, true).await;
    let notes = roots_answer(dir.path(), &["Notes"]);
    let args = json!({ "title": "Meeting notes" });
    let just_roots = json!({ ROOTS_INPUT: notes });
    // A state the server never sealed (among them one in the form this
    // server once used).
    for state in [
        "garbage",
        r#"{"tool":"notes_archive","title":"Meeting notes","step":"confirm"}"#,
    ] {
        let result =
            complete(round(&c, "notes_archive", &args, just_roots.clone(), Some(state)).await);
        assert_eq!(reason(&result), Some("invalid_request_state"), "{result:?}");
    }
    let asked = first_question(&c, "notes_archive", &args, &notes).await;
    // Sealed for this call only: not for another tool, nor other arguments.
    for (tool, other) in [
        ("notes_delete", args.clone()),
        ("notes_archive", json!({ "title": "TPS report" })),
    ] {
        let result = answer(&c, tool, &other, &notes, &asked, yes()).await;
        assert_eq!(reason(&result), Some("invalid_request_state"), "{tool}");
    }
    // An answer that does not match the form is refused.
    let bad = json!({ "action": "accept", "content": { "confirm": "yes" } });
    let result = answer(&c, "notes_archive", &args, &notes, &asked, bad).await;
    assert_eq!(
        reason(&result),
        Some("elicitation_invalid_answer"),
        "{result:?}"
    );
    // Accepted once: the same state again, now with a good answer, is refused.
    let replayed = answer(&c, "notes_archive", &args, &notes, &asked, yes()).await;
    assert_eq!(reason(&replayed), Some("invalid_request_state"));
    assert!(dir.path().join("Notes/meeting.md").exists());
    assert!(!dir.path().join("Notes/archive").exists());
    assert!(dir.path().join("Secret/passwords.md").exists());
}

#[tokio::test]
async fn the_final_round_finds_the_note_again_under_its_own_roots() {
    let dir = tree();
    let server = NotesServer::new(RootsBuilder::default());
    let (_, c) = modern(&server, true, true).await;
    let args = json!({ "title": "Meeting notes" });
    let notes = roots_answer(dir.path(), &["Notes"]);
    let asked = first_question(&c, "notes_archive", &args, &notes).await;
    assert!(says(&asked.form, "Notes: meeting.md)"), "{}", asked.form);
    // While the user reads the form: the note's text changes (its title
    // stays), another note appears, and the client now shares Work too.
    std::fs::write(
        dir.path().join("Notes/meeting.md"),
        "# Meeting notes\nTuesday\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("Notes/other.md"), "# Other\n").unwrap();
    let both = roots_answer(dir.path(), &["Notes", "Work"]);
    let archived = answer(&c, "notes_archive", &args, &both, &asked, yes()).await;
    assert_eq!(outcome(&archived), Some("archived"), "{archived:?}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("Notes/archive/meeting.md")).unwrap(),
        "# Meeting notes\nTuesday\n"
    );
    assert!(dir.path().join("Notes/other.md").exists());
    assert!(dir.path().join("Work/plan.md").exists());
    assert_eq!(server.session().roots().generation(), 0);
}

#[tokio::test]
async fn a_question_that_would_now_differ_changes_nothing() {
    let dir = tree();
    let server = NotesServer::new(RootsBuilder::default());
    let (_, c) = modern(&server, true, true).await;
    let notes = roots_answer(dir.path(), &["Notes"]);
    let tool = "notes_archive";

    // One match, confirmation asked; then the note moves: the confirmation
    // would name another path.
    let args = json!({ "title": "Meeting notes" });
    let asked = first_question(&c, tool, &args, &notes).await;
    std::fs::rename(
        dir.path().join("Notes/meeting.md"),
        dir.path().join("Notes/2023/meeting.md"),
    )
    .unwrap();
    let moved = answer(&c, tool, &args, &notes, &asked, yes()).await;
    assert_eq!(reason(&moved), Some("question_changed"), "{moved:?}");
    assert!(dir.path().join("Notes/2023/meeting.md").exists());

    // Three matches, the pick asked; then a fourth appears: the pick would
    // list other notes.
    let args = json!({ "title": "TPS report" });
    let asked = first_question(&c, tool, &args, &notes).await;
    std::fs::create_dir(dir.path().join("Notes/2026")).unwrap();
    std::fs::write(dir.path().join("Notes/2026/tps.md"), "# TPS report\n").unwrap();
    let chosen = pick(&asked.form, "2024");
    let picked = answer(&c, tool, &args, &notes, &asked, chosen).await;
    assert_eq!(reason(&picked), Some("question_changed"), "{picked:?}");

    // Picked, confirmation asked; then another of the candidates goes: the
    // pick, replayed first, no longer matches what the user chose from.
    let asked = first_question(&c, tool, &args, &notes).await;
    let inputs = answering(&notes, &asked.key, pick(&asked.form, "2024"));
    let (state, question) = asking(round(&c, tool, &args, inputs, Some(&asked.state)).await);
    let (key, form) = question.unwrap();
    assert!(says(&form, "Notes: 2024/tps.md)"), "{form}");
    std::fs::remove_file(dir.path().join("Notes/2026/tps.md")).unwrap();
    let confirm = Asked {
        state: state.expect("a question round carries its state"),
        key,
        form,
    };
    let confirmed = answer(&c, tool, &args, &notes, &confirm, yes()).await;
    assert_eq!(
        reason(&confirmed),
        Some("question_changed"),
        "{confirmed:?}"
    );

    let left =
        ["2023", "2024", "2025"].map(|y| dir.path().join(format!("Notes/{y}/tps.md")).exists());
    assert_eq!(left, [true, true, true]);
    assert!(!dir.path().join("Notes/archive").exists());
}

#[tokio::test]
async fn notes_setup_on_2026_07_28_gets_the_guard() {
    let server = NotesServer::new(RootsBuilder::default());
    let (script, c) = modern(&server, true, true).await;
    let result = call(&c, "notes_setup", json!({})).await;
    assert_eq!(reason(&result), Some("url_elicitation_unsupported"));
    assert!(
        client::text_of(&result).contains("did not declare URL-mode"),
        "{result:?}"
    );
    assert!(script.take_events().is_empty());
}

#[tokio::test]
async fn notes_setup_on_2026_07_28_sends_the_url_as_an_input_request() {
    let dir = tree();
    let server = NotesServer::new(RootsBuilder::default());
    let script = ScriptedClient::new(true, true).with_url_mode();
    share(&script, dir.path(), &["Notes"]);
    let c = modern_with(&server, script.clone()).await;
    queue_submission(&script, dir.path());
    let result = call(&c, "notes_setup", json!({})).await;
    script.browsed().await;
    let id = configured(&result);
    let events = script.take_events();
    let url = the_one_url(&events, &id);
    assert_eq!(statuses(&events), [200, 200]);
    // No server-to-client notification on this revision: the result is
    // the completion.
    assert!(!events.iter().any(|e| matches!(e, Event::Completed(_))));
    // The posted folders changed nothing; nothing was installed.
    assert_eq!(server.session().roots().generation(), 0);
    the_template_serves(&c, &server, dir.path()).await;
    assert!(says_closed(&url, Duration::from_secs(5)).await);
}

#[tokio::test]
async fn notes_setup_on_2026_07_28_declined_cancelled_or_timed_out_changes_nothing() {
    let server =
        NotesServer::new(RootsBuilder::default()).with_setup_wait(Duration::from_millis(300));
    let script = ScriptedClient::new(false, true).with_url_mode();
    let c = modern_with(&server, script.clone()).await;
    for (answer, expected) in [
        (UrlAnswer::Decline, "declined"),
        (UrlAnswer::Cancel, "cancelled"),
        (UrlAnswer::Accept(Vec::new()), "timed_out"), // agrees, never opens it
    ] {
        script.answer_url(answer);
        let result = call(&c, "notes_setup", json!({})).await;
        assert_eq!(outcome(&result), Some(expected), "{result:?}");
        let asked = urls(&script.take_events());
        assert_eq!(asked.len(), 1);
        if expected == "timed_out" {
            assert_eq!(
                result.structured_content.unwrap()["elicitationId"],
                json!(asked[0].1)
            );
        }
        // The flow is dropped with its page: a late reload says it is closed.
        assert!(says_closed(&asked[0].0, Duration::from_secs(5)).await);
    }
    assert_eq!(server.preferences().get(), Settings::default());
}

#[tokio::test]
async fn notes_setup_on_2026_07_28_waits_for_the_page_across_rounds() {
    // Rounds that wait 20 ms for the page before answering "still waiting".
    let rounds = Rounds::new().with_url_wait(Duration::from_millis(20), 8);
    let session = SessionRoots::new(RootsBuilder::default()).with_rounds(rounds);
    let server = NotesServer::with_session(session);
    let script = ScriptedClient::new(false, true).with_url_mode();
    let c = modern_with(&server, script).await;
    let args = json!({});
    let (first, question) = asking(round(&c, "notes_setup", &args, Value::Null, None).await);
    let first = first.expect("the URL round carries its state");
    let (key, params) = question.expect("the URL");
    assert_eq!(params["mode"], "url");
    let url = params["url"].as_str().unwrap().to_owned();
    let id = params["elicitationId"].as_str().unwrap().to_owned();
    // The user agreed, and has not submitted the page yet.
    let consent = json!({ key.as_str(): { "action": "accept" } });
    let waiting = input_required(round(&c, "notes_setup", &args, consent, Some(&first)).await);
    assert!(waiting.input_requests.is_none_or(|r| r.is_empty()));
    let state = waiting.request_state.expect("still waiting");
    assert_eq!(server.preferences().get(), Settings::default());
    let page = url.clone();
    browse(&page, &[Step::submit(&[("template", TEMPLATE)])], |v| {
        assert_eq!(v.status, 200)
    })
    .await;
    // State-only rounds until the flow's end reaches one (the first, unless
    // the machine is slow).
    let mut state = state;
    let mut rounds = 0;
    let result = loop {
        match round(&c, "notes_setup", &args, Value::Null, Some(&state)).await {
            CallToolResponse::Complete(result) => break result,
            other => {
                let waiting = input_required(other);
                assert!(waiting.input_requests.is_none_or(|r| r.is_empty()));
                state = waiting.request_state.expect("still waiting");
                rounds += 1;
                assert!(rounds < 8, "the flow's end never came");
            }
        }
    };
    assert_eq!(outcome(&result), Some("configured"), "{result:?}");
    assert_eq!(
        result.structured_content.unwrap()["elicitationId"],
        json!(id)
    );
    assert_eq!(
        server.preferences().get().template.as_deref(),
        Some(TEMPLATE)
    );
}

#[tokio::test]
async fn the_binary_serves_2026_07_28_over_stdio() {
    let dir = tree();
    let script = ScriptedClient::new(true, true).speaking(ProtocolVersion::V_2026_07_28);
    share(&script, dir.path(), &["Work"]);
    let (child, c) = binary_over_stdio(&[], &script).await;
    let result = call(&c, "notes_list", json!({})).await;
    assert_eq!(listed(&result), [uri(dir.path(), "Work/plan.md")]);
    assert_eq!(script.roots_requests(), 1);
    ends_cleanly(child, c).await;
}

/// The binary started with `args`, a 2026-07-28 client `script` on its stdio.
async fn binary_over_stdio(
    args: &[&str],
    script: &ScriptedClient,
) -> (tokio::process::Child, Client) {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_notes-server"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let io = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let c = script
        .clone()
        .serve_with_lifecycle(io, lifecycle)
        .await
        .unwrap();
    (child, c)
}

/// The client leaves; the binary exits with success.
async fn ends_cleanly(mut child: tokio::process::Child, c: Client) {
    c.cancel().await.unwrap();
    let status = tokio::time::timeout(Duration::from_secs(5), child.wait()).await;
    assert!(status.unwrap().unwrap().success());
}

// Over stdio the process is the session (`with_process_session`): each
// request still judged under its own roots, with the process's memory of
// its one client.

/// A server whose process is its client's session, with `policy`.
fn process_server(policy: RootsBuilder) -> NotesServer {
    NotesServer::with_session(SessionRoots::new(policy).with_process_session())
}

#[tokio::test]
async fn a_first_empty_list_is_served_the_ceiling_where_the_process_is_the_session() {
    let dir = tree();
    let policy = || {
        Roots::builder()
            .ceiling([at(dir.path(), "Work")])
            .empty_roots(EmptyRoots::Ceiling)
    };
    let work = [uri(dir.path(), "Work/plan.md")];
    let remembering = process_server(policy());
    let (script, c) = modern(&remembering, true, true).await;
    share(&script, dir.path(), &[]);
    for _ in 0..2 {
        let served = call(&c, "notes_list", json!({})).await;
        assert_eq!(listed(&served), work, "{served:?}");
    }
    // Without the memory (a request over HTTP): an empty list shares nothing.
    let forgetful = NotesServer::new(policy());
    let (script, c) = modern(&forgetful, true, true).await;
    share(&script, dir.path(), &[]);
    let refused = call(&c, "notes_list", json!({})).await;
    assert_eq!(reason(&refused), Some("no_roots"));
    // Under DenyAll the memory grants nothing either.
    let denying = process_server(Roots::builder().ceiling([at(dir.path(), "Work")]));
    let (script, c) = modern(&denying, true, true).await;
    share(&script, dir.path(), &[]);
    let refused = call(&c, "notes_list", json!({})).await;
    assert_eq!(reason(&refused), Some("no_roots"));
}

#[tokio::test]
async fn sharing_then_unsharing_shares_nothing_where_the_process_is_the_session() {
    let dir = tree();
    let policy = Roots::builder()
        .ceiling([at(dir.path(), "")])
        .empty_roots(EmptyRoots::Ceiling);
    let server = process_server(policy);
    let (script, c) = modern(&server, true, true).await;
    share(&script, dir.path(), &["Work"]);
    let work = call(&c, "notes_list", json!({})).await;
    assert_eq!(listed(&work), [uri(dir.path(), "Work/plan.md")]);
    share(&script, dir.path(), &[]);
    for tool in ["notes_list", "notes_read"] {
        let args = json!({ "title": "Project plan" });
        let args = if tool == "notes_list" {
            json!({})
        } else {
            args
        };
        let refused = call(&c, tool, args).await;
        assert_eq!(reason(&refused), Some("no_roots"), "{tool}: {refused:?}");
        assert!(
            client::text_of(&refused).contains("no longer shares"),
            "{refused:?}"
        );
    }
    // Nothing is installed as the process's set.
    assert_eq!(server.session().roots().generation(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_in_flight_at_once_are_each_judged_under_their_own_roots() {
    let dir = tree();
    let server = process_server(RootsBuilder::default());
    let (_, c) = modern(&server, true, true).await;
    let notes = roots_answer(dir.path(), &["Notes"]);
    let work = roots_answer(dir.path(), &["Work"]);
    let mut calls = tokio::task::JoinSet::new();
    for i in 0..24 {
        let (roots, expected) = match i % 2 {
            0 => (notes.clone(), 4),
            _ => (work.clone(), 1),
        };
        let peer = c.peer().clone();
        let folder = if i % 2 == 0 { "Notes/" } else { "Work/" };
        let prefix = uri(dir.path(), folder);
        calls.spawn(async move {
            let inputs: InputResponses =
                serde_json::from_value(json!({ ROOTS_INPUT: roots })).unwrap();
            let params = CallToolRequestParams::new("notes_list").with_input_responses(inputs);
            let result = complete(peer.call_tool_once(params).await.unwrap());
            let uris = listed(&result);
            assert_eq!(uris.len(), expected, "{uris:?}");
            assert!(uris.iter().all(|u| u.starts_with(&prefix)), "{uris:?}");
        });
    }
    while let Some(done) = calls.join_next().await {
        done.unwrap();
    }
}

#[tokio::test]
async fn the_binary_serves_a_first_empty_list_the_ceiling_over_stdio() {
    let dir = tree();
    let script = ScriptedClient::new(true, true).speaking(ProtocolVersion::V_2026_07_28);
    share(&script, dir.path(), &[]);
    let ceiling = at(dir.path(), "Work");
    let args = ["--ceiling", ceiling.as_str(), "--ceiling-without-roots"];
    let (child, c) = binary_over_stdio(&args, &script).await;
    let served = call(&c, "notes_list", json!({})).await;
    assert_eq!(listed(&served), [uri(dir.path(), "Work/plan.md")]);
    // Shared, then un-shared: nothing.
    share(&script, dir.path(), &["Work"]);
    call(&c, "notes_list", json!({})).await;
    share(&script, dir.path(), &[]);
    let refused = call(&c, "notes_list", json!({})).await;
    assert_eq!(reason(&refused), Some("no_roots"), "{refused:?}");
    ends_cleanly(child, c).await;
}
