//! The glue (mcp-roots-rmcp) against the scripted rmcp client, in process
//! over a duplex pipe: roots sync (first answer, gating, timeouts, policy,
//! re-lists, coalescing and ordering, revocation), `tool_error`, and
//! `Elicitor`; the protocol frontier (URL mode, `-32042`, 2026-07-28 input
//! requests) in `glue/frontier.rs`. Here rather than in mcp-roots-rmcp's own
//! tests, which may not depend on this unpublished crate.

#[path = "glue/harness.rs"]
mod harness;

#[path = "glue/frontier.rs"]
mod frontier;

use std::path::Path;
use std::time::{Duration, Instant};

use harness::{call, connect, wait_generation};
use mcp_roots::{EmptyRoots, Error, ErrorKind, Roots, RootsBuilder};
use mcp_roots_rmcp::{ElicitError, Form, SessionRoots};
use mcp_script::{Client, ScriptedClient, text_of};
use rmcp::model::{CallToolResult, ElicitResult, ElicitationAction};
use rmcp::serde_json::{Value, json};
use tempfile::TempDir;

/// Folders `a`, `b`, `c`, each with `x.md` containing its own name.
fn tree() -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a", "b", "c"] {
        std::fs::create_dir(dir.path().join(name)).unwrap();
        std::fs::write(dir.path().join(name).join("x.md"), name).unwrap();
    }
    dir
}

fn uri(dir: &Path, name: &str) -> String {
    format!("file://{}/{name}", dir.display())
}

fn file(dir: &Path, name: &str) -> String {
    format!("{}/{name}/x.md", dir.display())
}

fn session(first_answer_wait: Duration) -> SessionRoots {
    SessionRoots::new(RootsBuilder::default())
        .with_timeouts(first_answer_wait, Duration::from_secs(10))
}

/// The reason of a refusal, or the text of a success.
fn read_outcome(result: &CallToolResult) -> String {
    let structured = result
        .structured_content
        .as_ref()
        .expect("structured content");
    match result.is_error {
        Some(true) => format!("refused:{}", structured["reason"].as_str().unwrap()),
        _ => structured["text"].as_str().unwrap().to_owned(),
    }
}

async fn read(client: &Client, dir: &Path, name: &str) -> String {
    read_outcome(&call(client, "read", json!({ "path": file(dir, name) })).await)
}

/// A fresh tree and a session on the default policy whose client declares
/// roots and shares `folders` of it, once that first answer is installed.
async fn sharing(folders: &[&str]) -> (TempDir, ScriptedClient, SessionRoots, Client) {
    let dir = tree();
    let client = ScriptedClient::new(true, false);
    let uris: Vec<String> = folders.iter().map(|f| uri(dir.path(), f)).collect();
    client.set_roots(uris.iter().map(|u| (u.as_str(), None)));
    let script = client.clone();
    let roots = session(Duration::from_secs(5));
    let c = connect(roots.clone(), client).await;
    wait_generation(&roots, 1).await;
    (dir, script, roots, c)
}

#[tokio::test]
async fn the_first_answer_is_installed_and_refusals_are_tool_errors() {
    let dir = tree();
    let client = ScriptedClient::new(true, false);
    client.set_root_uris(&[&uri(dir.path(), "a")]);
    let script = client.clone();
    let roots = session(Duration::from_secs(5));
    let c = connect(roots.clone(), client).await;
    assert_eq!(read(&c, dir.path(), "a").await, "a");
    assert_eq!(
        (script.roots_requests(), roots.roots().generation()),
        (1, 1)
    );

    let refused = call(&c, "read", json!({ "path": file(dir.path(), "b") })).await;
    assert_eq!(refused.is_error, Some(true));
    let structured = refused.structured_content.as_ref().unwrap();
    assert_eq!(structured["reason"], "outside_roots");
    assert_eq!(structured["input"], file(dir.path(), "b"));
    assert_eq!(structured["operation"], "open");
    let text = text_of(&refused);
    assert!(text.starts_with("Refused (outside_roots): "), "{text}");
    assert!(
        text.contains("ask the user to add the folder as a root"),
        "{text}"
    );
}

#[tokio::test]
async fn tool_calls_wait_for_the_first_answer() {
    let dir = tree();
    let client = ScriptedClient::new(true, false);
    client.set_root_uris(&[&uri(dir.path(), "a")]);
    client.delay_roots_answer(Duration::from_millis(300));
    let c = connect(session(Duration::from_secs(5)), client).await;
    let started = Instant::now();
    assert_eq!(read(&c, dir.path(), "a").await, "a");
    assert!(
        started.elapsed() >= Duration::from_millis(250),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_client_that_never_answers_gets_a_clear_tool_error_in_bounded_time() {
    let dir = tree();
    let client = ScriptedClient::new(true, false);
    client.set_root_uris(&[&uri(dir.path(), "a")]);
    client.delay_roots_answer(Duration::from_secs(60));
    let c = connect(session(Duration::from_millis(200)), client).await;
    let started = Instant::now();
    let refused = call(&c, "read", json!({ "path": file(dir.path(), "a") })).await;
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(190) && waited < Duration::from_secs(3),
        "{waited:?}"
    );
    assert_eq!(read_outcome(&refused), "refused:no_roots");
    assert!(
        text_of(&refused).contains("has not answered roots/list yet"),
        "{refused:?}"
    );
}

#[tokio::test]
async fn a_client_without_roots_gets_the_policy() {
    let dir = tree();
    // Deny-all: refused at once (no waiting for an answer that cannot come).
    let client = ScriptedClient::new(false, false);
    let script = client.clone();
    let c = connect(session(Duration::from_secs(5)), client).await;
    let started = Instant::now();
    assert_eq!(read(&c, dir.path(), "a").await, "refused:no_roots");
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(script.roots_requests(), 0);

    // The ceiling, when the operator grants it to clients without roots.
    let policy = Roots::builder()
        .ceiling([dir.path().join("a").to_str().unwrap()])
        .empty_roots(EmptyRoots::Ceiling);
    let c = connect(SessionRoots::new(policy), ScriptedClient::new(false, false)).await;
    assert_eq!(read(&c, dir.path(), "a").await, "a");
    assert_eq!(read(&c, dir.path(), "b").await, "refused:outside_roots");
}

#[tokio::test]
async fn a_client_that_declares_roots_and_removes_the_last_shares_nothing() {
    // Under the ceiling-without-roots policy, a client that declares roots
    // and lists none is not served the ceiling: a removal never grants more.
    let dir = tree();
    let policy = Roots::builder()
        .ceiling([dir.path().to_str().unwrap()])
        .empty_roots(EmptyRoots::Ceiling);
    let roots = SessionRoots::new(policy);
    let client = ScriptedClient::new(true, false);
    client.set_root_uris(&[&uri(dir.path(), "a")]);
    let script = client.clone();
    let c = connect(roots.clone(), client).await;
    wait_generation(&roots, 1).await;
    assert_eq!(read(&c, dir.path(), "a").await, "a");
    assert_eq!(read(&c, dir.path(), "b").await, "refused:outside_roots");
    script.set_root_uris(&[]);
    c.notify_roots_list_changed().await.unwrap();
    wait_generation(&roots, 2).await;
    assert_eq!(read(&c, dir.path(), "a").await, "refused:no_roots");
    assert_eq!(read(&c, dir.path(), "b").await, "refused:no_roots");
}

/// What a session serves after the client answered `answers` in turn (the
/// first after `initialize`, each next one after a `list_changed`), under
/// the ceiling-without-roots policy with the tree as ceiling: the read of
/// `a` and of `b`.
async fn served_after(answers: &[&[&str]]) -> [String; 2] {
    let dir = tree();
    let policy = Roots::builder()
        .ceiling([dir.path().to_str().unwrap()])
        .empty_roots(EmptyRoots::Ceiling);
    let roots = SessionRoots::new(policy);
    let client = ScriptedClient::new(true, false);
    let listed =
        |names: &[&str]| -> Vec<String> { names.iter().map(|n| uri(dir.path(), n)).collect() };
    let first = listed(answers[0]);
    client.set_roots(first.iter().map(|u| (u.as_str(), None)));
    let script = client.clone();
    let c = connect(roots.clone(), client).await;
    wait_generation(&roots, 1).await;
    for (i, answer) in answers.iter().enumerate().skip(1) {
        let next = listed(answer);
        script.set_roots(next.iter().map(|u| (u.as_str(), None)));
        c.notify_roots_list_changed().await.unwrap();
        wait_generation(&roots, i as u64 + 1).await;
    }
    [
        read(&c, dir.path(), "a").await,
        read(&c, dir.path(), "b").await,
    ]
}

#[tokio::test]
async fn an_empty_list_is_served_the_ceiling_only_until_the_client_shares() {
    let none = "refused:no_roots";
    // What happened, the answers in turn, what `a` and `b` read.
    type Row<'a> = (&'a str, &'a [&'a [&'a str]], [&'a str; 2]);
    let rows: &[Row<'_>] = &[
        // An editor with no folder open, an inspector with no roots.
        ("never shared: []", &[&[]], ["a", "b"]),
        ("never shared: [] then []", &[&[], &[]], ["a", "b"]),
        (
            "[] then shared",
            &[&[], &["a"]],
            ["a", "refused:outside_roots"],
        ),
        ("shared then []", &[&["a"], &[]], [none, none]),
        ("[], shared, then []", &[&[], &["a"], &[]], [none, none]),
        // The user meant that folder, not the ceiling.
        ("shared but rejected", &[&["missing"]], [none, none]),
        (
            "shared but rejected, then []",
            &[&["missing"], &[]],
            [none, none],
        ),
    ];
    for (what, answers, expected) in rows {
        let served = served_after(answers).await;
        assert_eq!(served, expected.map(str::to_owned), "{what}");
    }
}

#[tokio::test]
async fn list_changed_relists() {
    let (dir, script, roots, c) = sharing(&["a"]).await;
    script.set_root_uris(&[&uri(dir.path(), "b")]);
    c.notify_roots_list_changed().await.unwrap();
    wait_generation(&roots, 2).await;
    assert_eq!(read(&c, dir.path(), "b").await, "b");
    assert_eq!(read(&c, dir.path(), "a").await, "refused:outside_roots");
    assert_eq!(script.roots_requests(), 2);
}

#[tokio::test]
async fn a_burst_during_a_slow_list_is_coalesced_and_the_newest_list_wins() {
    let (dir, script, roots, c) = sharing(&["a"]).await;

    // A slow re-list of [b] is in flight...
    script.set_root_uris(&[&uri(dir.path(), "b")]);
    script.delay_roots_answer(Duration::from_millis(300));
    c.notify_roots_list_changed().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while script.roots_requests() < 2 {
        assert!(Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    // ...when the user changes the roots again, and the client says so often.
    script.set_root_uris(&[&uri(dir.path(), "c")]);
    for _ in 0..10 {
        c.notify_roots_list_changed().await.unwrap();
    }
    wait_generation(&roots, 3).await;
    tokio::time::sleep(Duration::from_millis(100)).await; // nothing else comes
    assert_eq!(
        script.roots_requests(),
        3,
        "the burst costs one more request"
    );
    assert_eq!(roots.roots().generation(), 3);
    assert_eq!(read(&c, dir.path(), "c").await, "c");
    assert_eq!(read(&c, dir.path(), "b").await, "refused:outside_roots");
}

#[tokio::test]
async fn a_delayed_first_answer_never_overwrites_a_newer_one() {
    let dir = tree();
    let client = ScriptedClient::new(true, false);
    client.set_root_uris(&[&uri(dir.path(), "a")]);
    client.delay_roots_answer(Duration::from_millis(300));
    let script = client.clone();
    let roots = session(Duration::from_secs(5));
    let c = connect(roots.clone(), client).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    script.set_root_uris(&[&uri(dir.path(), "b")]);
    c.notify_roots_list_changed().await.unwrap();
    wait_generation(&roots, 2).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        (script.roots_requests(), roots.roots().generation()),
        (2, 2)
    );
    assert_eq!(read(&c, dir.path(), "b").await, "b");
    assert_eq!(read(&c, dir.path(), "a").await, "refused:outside_roots");
}

#[tokio::test]
async fn a_handle_into_a_removed_root_is_revoked() {
    let (dir, script, roots, c) = sharing(&["a", "b"]).await;
    let mut held = roots.roots().load().open(&file(dir.path(), "a")).unwrap();
    script.set_root_uris(&[&uri(dir.path(), "b")]);
    c.notify_roots_list_changed().await.unwrap();
    wait_generation(&roots, 2).await;
    // The new set is visible before the replace has revoked the departed
    // files (it returns after both): wait for the replace to finish.
    for _ in 0..500 {
        if held.revoked().is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(held.revoked(), Some(ErrorKind::ScopeLost));
    let err = std::io::Read::read(&mut held, &mut [0; 4]).unwrap_err();
    assert_eq!(Error::from_io(&err).unwrap().kind(), ErrorKind::ScopeLost);
    assert_eq!(roots.roots().tracked(), 0);
}

fn accept(content: Value) -> ElicitResult {
    ElicitResult::new(ElicitationAction::Accept).with_content(content)
}

/// Calls `ask` with `questions` (and `budget`) after scripting `answers`;
/// returns the outcomes and how many forms the client was shown.
async fn ask(
    forms: bool,
    questions: &[&str],
    budget: Option<usize>,
    answers: Vec<ElicitResult>,
) -> (Vec<Value>, usize) {
    let client = ScriptedClient::new(false, forms);
    let script = client.clone();
    answers.into_iter().for_each(|a| script.answer(a));
    let c = connect(session(Duration::from_secs(5)), client).await;
    let result = call(
        &c,
        "ask",
        json!({ "questions": questions, "budget": budget }),
    )
    .await;
    let outcomes = result.structured_content.unwrap()["outcomes"]
        .as_array()
        .unwrap()
        .clone();
    (outcomes, script.asked().len())
}

#[tokio::test]
async fn elicitor_accepts_validated_answers() {
    let answers = vec![
        accept(json!({ "confirm": true })),
        accept(json!({ "choice": "1" })),
        accept(json!({ "name": "Ada" })),
    ];
    let (outcomes, forms) = ask(true, &["confirm", "choose", "name"], Some(3), answers).await;
    assert_eq!(forms, 3);
    let expected = [
        json!({ "accepted": null }),
        json!({ "accepted": 1 }),
        json!({ "accepted": { "name": "Ada" } }),
    ];
    assert_eq!(outcomes, expected);
}

#[tokio::test]
async fn elicitor_decline_cancel_and_an_accepted_no() {
    let decline = ElicitResult::new(ElicitationAction::Decline);
    let cancel = ElicitResult::new(ElicitationAction::Cancel);
    let no = accept(json!({ "confirm": false }));
    let (outcomes, _) = ask(true, &["confirm"; 3], Some(3), vec![decline, cancel, no]).await;
    assert_eq!(
        outcomes,
        [json!("declined"), json!("cancelled"), json!("declined")]
    );
}

#[tokio::test]
async fn elicitor_refuses_answers_that_do_not_match_the_form() {
    let cases = [
        ("choose", json!({ "choice": "7" })), // an option not offered
        ("choose", json!({ "choice": 1 })),   // wrong type
        ("choose", json!({ "choice": "0", "extra": 1 })), // a field not asked for
        ("confirm", json!({ "confirm": "yes" })),
        ("confirm", json!({})),            // required field missing
        ("name", json!({ "name": "Al" })), // below minLength
        (
            "name",
            json!({ "name": "Ada", "notify": { "nested": true } }),
        ),
    ];
    for (question, content) in cases {
        let (outcomes, _) = ask(true, &[question], None, vec![accept(content.clone())]).await;
        assert_eq!(
            outcomes[0]["error"], "elicitation_invalid_answer",
            "{question} {content}"
        );
        assert!(
            outcomes[0]["text"]
                .as_str()
                .unwrap()
                .ends_with("Nothing was changed.")
        );
    }
    let empty = ElicitResult::new(ElicitationAction::Accept); // accept without content
    let (outcomes, _) = ask(true, &["confirm"], None, vec![empty]).await;
    assert_eq!(outcomes[0]["error"], "elicitation_invalid_answer");
}

#[tokio::test]
async fn elicitor_sends_nothing_to_a_client_without_forms() {
    let (outcomes, forms) = ask(false, &["confirm", "choose"], Some(2), Vec::new()).await;
    assert_eq!(forms, 0);
    for outcome in &outcomes {
        assert_eq!(outcome["error"], "elicitation_unsupported");
        assert!(
            outcome["text"]
                .as_str()
                .unwrap()
                .contains("cannot show forms")
        );
    }
}

#[tokio::test]
async fn elicitor_asks_once_per_call_unless_allowed_more() {
    let yes = || accept(json!({ "confirm": true }));
    let (outcomes, forms) = ask(true, &["confirm", "confirm"], None, vec![yes(), yes()]).await;
    assert_eq!(forms, 1);
    assert_eq!(outcomes[0], json!({ "accepted": null }));
    assert_eq!(outcomes[1]["error"], "elicitation_exhausted");
    let (_, forms) = ask(true, &["confirm"], Some(0), vec![yes()]).await;
    assert_eq!(forms, 0);
}

#[test]
fn a_choice_needs_two_options() {
    assert!(matches!(
        Form::choose("Which?", &["only"]),
        Err(ElicitError::Schema(_))
    ));
    let form = Form::choose("Which?", &["a", "b"]).unwrap();
    let schema = rmcp::serde_json::to_value(form.schema()).unwrap();
    assert_eq!(
        schema["properties"]["choice"]["oneOf"][1],
        json!({ "const": "1", "title": "b" })
    );
    assert_eq!(schema["required"], json!(["choice"]));
}
