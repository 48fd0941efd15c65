//! The notes server end to end: in-process sessions over a duplex pipe (the
//! demo's scenes as assertions, plus argument errors, policies, sessions and
//! timing), and the real binary over stdio.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{Client, at, call, forms, outcome, reason, tree};
use mcp_roots::mcp::SessionRoots;
use mcp_roots::{EmptyRoots, ErrorKind, Roots, RootsBuilder};
use notes_server::NotesServer;
use notes_server::client::{self, ScriptedClient, accept, cancel, decline};
use rmcp::ServiceExt;
use rmcp::model::CallToolResult;
use serde_json::json;

/// A session whose client declares roots (the given subfolders) and, if
/// `forms`, elicitation.
async fn session(dir: &Path, roots: &[&str], forms: bool) -> (NotesServer, ScriptedClient, Client) {
    session_with(
        NotesServer::new(RootsBuilder::default()),
        dir,
        roots,
        true,
        forms,
    )
    .await
}

async fn session_with(
    server: NotesServer,
    dir: &Path,
    roots: &[&str],
    declare_roots: bool,
    forms: bool,
) -> (NotesServer, ScriptedClient, Client) {
    let script = ScriptedClient::new(declare_roots, forms);
    let uris: Vec<String> = roots
        .iter()
        .map(|r| format!("file://{}", at(dir, r)))
        .collect();
    script.set_roots(uris.iter().map(|u| (u.as_str(), None)));
    let (running, client) = client::connect(server.clone(), script.clone())
        .await
        .unwrap();
    // The server side lives as long as the client keeps the pipe open.
    tokio::spawn(async move { running.waiting().await });
    (server, script, client)
}

async fn read_at(client: &Client, dir: &Path, rel: &str) -> CallToolResult {
    call(client, "notes_read", json!({ "path": at(dir, rel) })).await
}

#[tokio::test]
async fn the_demo_passes() {
    assert!(notes_server::demo::run().await);
}

#[tokio::test]
async fn happy_path_lists_and_reads() {
    let dir = tree();
    let (_, _, c) = session(dir.path(), &["Notes", "Work"], true).await;
    let listed = call(&c, "notes_list", json!({})).await;
    let notes = listed.structured_content.unwrap()["notes"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(notes.len(), 5, "{notes:?}"); // the symlink is not a note
    let read = call(&c, "notes_read", json!({ "title": "MEETING NOTES" })).await;
    assert_eq!(client::text_of(&read), "# Meeting notes\nMonday\n");
    let by_path = read_at(&c, dir.path(), "Work/plan.md").await;
    assert_eq!(
        by_path.structured_content.unwrap()["note"]["title"],
        "Project plan"
    );
    let several = call(&c, "notes_read", json!({ "title": "TPS report" })).await;
    assert_eq!(reason(&several), Some("ambiguous"));
    assert_eq!(client::text_of(&several).matches("file://").count(), 3);
}

#[tokio::test]
async fn three_matches_pick_then_confirm_deletes_exactly_that_one() {
    let dir = tree();
    let (_, script, c) = session(dir.path(), &["Notes"], true).await;
    script.pick("choice", "2024");
    script.answer(accept(json!({ "confirm": true })));
    let result = call(&c, "notes_delete", json!({ "title": "tps REPORT" })).await;
    assert_eq!(outcome(&result), Some("deleted"), "{result:?}");
    assert_eq!(forms(&script), 2);
    let left: Vec<bool> = ["2023", "2024", "2025"]
        .map(|y| dir.path().join(format!("Notes/{y}/tps.md")).exists())
        .to_vec();
    assert_eq!(left, [true, false, true]);
}

#[tokio::test]
async fn one_match_asks_one_question() {
    let dir = tree();
    let (_, script, c) = session(dir.path(), &["Notes"], true).await;
    script.answer(accept(json!({ "confirm": true })));
    let result = call(&c, "notes_delete", json!({ "title": "Meeting notes" })).await;
    assert_eq!(outcome(&result), Some("deleted"));
    assert_eq!(forms(&script), 1);
    assert!(!dir.path().join("Notes/meeting.md").exists());
    let none = call(&c, "notes_delete", json!({ "title": "Meeting notes" })).await;
    assert_eq!(reason(&none), Some("no_match"));
}

#[tokio::test]
async fn writes_stay_inside_and_never_replace() {
    let dir = tree();
    let (_, _, c) = session(dir.path(), &["Notes"], true).await;
    let new = at(dir.path(), "Notes/ideas.md");
    let created = call(
        &c,
        "notes_write",
        json!({ "path": new, "content": "# Ideas\n" }),
    )
    .await;
    assert_eq!(created.is_error, Some(false), "{created:?}");
    let again = call(&c, "notes_write", json!({ "path": new, "content": "x" })).await;
    assert_eq!(reason(&again), Some("already_exists"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("Notes/ideas.md")).unwrap(),
        "# Ideas\n"
    );
    for path in [
        at(dir.path(), "Secret/leak.md"),
        format!("file://{}", at(dir.path(), "Notes/../Secret/leak.md")),
        at(dir.path(), "Notesx/leak.md"), // a prefix sibling
    ] {
        let refused = call(&c, "notes_write", json!({ "path": path, "content": "x" })).await;
        assert_eq!(refused.is_error, Some(true));
        assert_eq!(reason(&refused), Some("outside_roots"), "{path}");
        assert!(client::text_of(&refused).starts_with("Refused (outside_roots)"));
    }
    assert!(!dir.path().join("Secret/leak.md").exists());
    let link = read_at(&c, dir.path(), "Notes/passwords.md").await;
    assert_eq!(reason(&link), Some("outside_roots"));
    let txt = call(
        &c,
        "notes_write",
        json!({ "path": at(dir.path(), "Notes/a.txt"), "content": "" }),
    )
    .await;
    assert_eq!(reason(&txt), Some("not_a_note"));
    assert!(!dir.path().join("Notes/a.txt").exists());
}

#[tokio::test]
async fn a_removed_root_revokes_handles_and_refuses_paths() {
    let dir = tree();
    let (server, script, c) = session(dir.path(), &["Notes", "Work"], true).await;
    call(&c, "notes_list", json!({})).await; // the first answer is in
    let roots: Roots = server.session().roots().clone();
    let held = roots.load().open(&at(dir.path(), "Work/plan.md")).unwrap();
    let journal = format!("file://{}", at(dir.path(), "Journal"));
    script.set_roots([(journal.as_str(), Some("Journal"))]);
    let generation = roots.generation();
    c.notify_roots_list_changed().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while roots.generation() == generation && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    assert_eq!(held.revoked(), Some(ErrorKind::ScopeLost));
    let refused = read_at(&c, dir.path(), "Work/plan.md").await;
    assert_eq!(reason(&refused), Some("outside_roots"));
    let read = call(&c, "notes_read", json!({ "title": "today" })).await; // no heading: file name
    assert_eq!(client::text_of(&read), "no heading\n");
}

#[tokio::test]
async fn without_elicitation_nothing_is_asked_and_nothing_changes() {
    let dir = tree();
    let (_, script, c) = session(dir.path(), &["Notes"], false).await;
    for (tool, title) in [
        ("notes_archive", "Meeting notes"),
        ("notes_delete", "TPS report"),
    ] {
        let result = call(&c, tool, json!({ "title": title })).await;
        assert_eq!(reason(&result), Some("elicitation_unsupported"), "{tool}");
        assert!(client::text_of(&result).contains("cannot show forms"));
    }
    assert_eq!(forms(&script), 0);
    assert!(dir.path().join("Notes/meeting.md").exists());
    assert!(dir.path().join("Notes/2023/tps.md").exists());
}

#[tokio::test]
async fn decline_and_cancel_change_nothing_then_archive_under_a_free_name() {
    let dir = tree();
    std::fs::create_dir(dir.path().join("Notes/archive")).unwrap();
    std::fs::write(dir.path().join("Notes/archive/meeting.md"), "older").unwrap();
    let (_, script, c) = session(dir.path(), &["Notes"], true).await;
    let archive = json!({ "title": "Meeting notes" });
    for (answer, expected) in [(decline(), "declined"), (cancel(), "cancelled")] {
        script.answer(answer);
        assert_eq!(
            outcome(&call(&c, "notes_archive", archive.clone()).await),
            Some(expected)
        );
    }
    script.answer(cancel()); // at the choice among three
    let cancelled = call(&c, "notes_delete", json!({ "title": "TPS report" })).await;
    assert_eq!(outcome(&cancelled), Some("cancelled"));
    assert_eq!(forms(&script), 3);
    assert!(dir.path().join("Notes/meeting.md").exists());
    assert!(dir.path().join("Notes/2023/tps.md").exists());
    script.answer(accept(json!({ "confirm": true })));
    let archived = call(&c, "notes_archive", archive).await;
    assert_eq!(outcome(&archived), Some("archived"), "{archived:?}");
    let moved = dir.path().join("Notes/archive/meeting (2).md");
    assert_eq!(
        std::fs::read_to_string(moved).unwrap(),
        "# Meeting notes\nMonday\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("Notes/archive/meeting.md")).unwrap(),
        "older"
    );
    // Archived notes no longer match.
    let again = call(&c, "notes_archive", json!({ "title": "Meeting notes" })).await;
    assert_eq!(reason(&again), Some("no_match"));
}

#[tokio::test]
async fn malformed_arguments_are_tool_errors() {
    let dir = tree();
    let (_, _, c) = session(dir.path(), &["Notes"], true).await;
    let missing = call(
        &c,
        "notes_write",
        json!({ "path": at(dir.path(), "Notes/x.md") }),
    )
    .await;
    assert_eq!(missing.is_error, Some(true));
    assert!(client::text_of(&missing).contains("content"), "{missing:?}");
    let both = call(&c, "notes_read", json!({ "path": "/x.md", "title": "x" })).await;
    assert_eq!(reason(&both), Some("invalid_arguments"));
    let relative = call(&c, "notes_read", json!({ "path": "Notes/meeting.md" })).await;
    assert_eq!(reason(&relative), Some("not_absolute"));
    let bad_uri = call(&c, "notes_read", json!({ "path": "file:///a%2Fb.md" })).await;
    assert_eq!(reason(&bad_uri), Some("invalid_uri"));
}

#[tokio::test]
async fn a_client_without_roots_gets_the_policy() {
    let dir = tree();
    let deny = NotesServer::new(RootsBuilder::default());
    let (_, script, c) = session_with(deny, dir.path(), &["Notes"], false, true).await;
    assert_eq!(
        reason(&call(&c, "notes_list", json!({})).await),
        Some("no_roots")
    );
    assert_eq!(script.roots_requests(), 0);
    let policy = Roots::builder()
        .ceiling([at(dir.path(), "Work")])
        .empty_roots(EmptyRoots::Ceiling);
    let (_, _, c) = session_with(NotesServer::new(policy), dir.path(), &[], false, true).await;
    let listed = call(&c, "notes_list", json!({})).await;
    assert!(
        client::text_of(&listed).starts_with("1 notes:"),
        "{listed:?}"
    );
    let outside = read_at(&c, dir.path(), "Notes/meeting.md").await;
    assert_eq!(reason(&outside), Some("outside_roots"));
}

#[tokio::test]
async fn two_sessions_with_disjoint_roots_stay_apart() {
    let dir = tree();
    let (_, _, a) = session(dir.path(), &["Notes"], true).await;
    let (_, _, b) = session(dir.path(), &["Work"], true).await;
    let plan = json!({ "path": at(dir.path(), "Work/plan.md") });
    assert_eq!(
        reason(&call(&a, "notes_read", plan.clone()).await),
        Some("outside_roots")
    );
    assert_eq!(call(&b, "notes_read", plan).await.is_error, Some(false));
    let meeting = json!({ "path": at(dir.path(), "Notes/meeting.md") });
    assert_eq!(
        reason(&call(&b, "notes_read", meeting).await),
        Some("outside_roots")
    );
}

#[tokio::test]
async fn tool_calls_wait_for_a_late_first_answer_and_time_out_without_one() {
    let dir = tree();
    let quick = SessionRoots::new(RootsBuilder::default())
        .with_timeouts(Duration::from_millis(150), Duration::from_secs(10));
    let server = NotesServer::with_session(quick);
    let script = ScriptedClient::new(true, true);
    script.delay_roots_answer(Duration::from_secs(3)); // longer than the wait
    let uri = format!("file://{}", at(dir.path(), "Notes"));
    script.set_roots([(uri.as_str(), None)]);
    let (_s, c) = client::connect(server, script).await.unwrap();
    let started = Instant::now();
    let result = call(&c, "notes_list", json!({})).await;
    assert_eq!(reason(&result), Some("no_roots"));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );

    let late = ScriptedClient::new(true, true);
    late.delay_roots_answer(Duration::from_millis(200));
    late.set_roots([(uri.as_str(), None)]);
    let server = NotesServer::new(RootsBuilder::default());
    let (_s, c) = client::connect(server, late.clone()).await.unwrap();
    let listed = call(&c, "notes_list", json!({})).await;
    assert_eq!(listed.is_error, Some(false), "{listed:?}");
    assert_eq!(late.roots_requests(), 1);
}

#[tokio::test]
async fn the_binary_serves_stdio() {
    let dir = tree();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_notes-server"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let io = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    let script = ScriptedClient::new(true, true);
    let uri = format!("file://{}", at(dir.path(), "Notes"));
    script.set_roots([(uri.as_str(), Some("Notes"))]);
    let c = script.clone().serve(io).await.unwrap();
    let listed = call(&c, "notes_list", json!({})).await;
    assert!(
        client::text_of(&listed).starts_with("4 notes:"),
        "{listed:?}"
    );
    assert_eq!(script.roots_requests(), 1);
    c.cancel().await.unwrap();
    let status = tokio::time::timeout(Duration::from_secs(5), child.wait()).await;
    assert!(status.unwrap().unwrap().success());
}
