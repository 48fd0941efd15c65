//! The notes server end to end over a real transport: every session here is
//! the built `notes-server` binary, spoken to by the scripted rmcp client
//! either as a child process over stdio or, in the `http::` variants, as a
//! session of one `notes-server --http` process. The demo's scenes (in
//! process, stdio, HTTP), argument errors, policies, held notes, sessions
//! and timing.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{
    Client, Transport, at, binary, call, forms, listed, outcome, reason, spawn, tree, uri,
};
use mcp_script::{self as client, Event, ScriptedClient, accept, cancel, decline};
use notes_server::{Connection, Launch, MAX_HELD, demo};
use rmcp::model::{CallToolResult, ProtocolVersion};
use serde_json::json;

/// A session with the default policy whose client declares roots (the
/// given subfolders) and, if `forms`, elicitation.
async fn session(
    transport: Transport,
    dir: &Path,
    roots: &[&str],
    forms: bool,
) -> (ScriptedClient, Connection) {
    spawn(&transport.launch(&[]).await, dir, roots, true, forms).await
}

/// A session of a server with the default policy whose client is `script`.
async fn connected(transport: Transport, script: ScriptedClient) -> Connection {
    let launch = transport.launch(&[]).await;
    launch.connect(script).await.unwrap()
}

async fn read_at(client: &Client, dir: &Path, rel: &str) -> CallToolResult {
    call(client, "notes_read", json!({ "path": at(dir, rel) })).await
}

fn exists(dir: &Path, rel: &str) -> bool {
    dir.join(rel).exists()
}

#[tokio::test]
async fn the_demo_passes_in_process() {
    assert!(demo::run_with(Launch::InProcess).await);
}

#[tokio::test]
async fn the_demo_passes_over_stdio() {
    assert!(demo::run_with(binary()).await);
}

#[tokio::test]
async fn the_demo_passes_over_http() {
    assert!(demo::run_with(Transport::Http.launch(&[]).await).await);
}

/// Each test below runs twice: `stdio::NAME` (a child process per
/// session) and `http::NAME` (one `--http` process per test, its sessions
/// inside it).
macro_rules! over_stdio_and_http {
    ($($name:ident),* $(,)?) => {
        over_stdio_and_http!(@module stdio Stdio $($name),*);
        over_stdio_and_http!(@module http Http $($name),*);
    };
    (@module $module:ident $transport:ident $($name:ident),*) => {
        mod $module {
            use super::Transport;
            $(#[tokio::test]
            async fn $name() {
                super::$name(Transport::$transport).await
            })*
        }
    };
}

over_stdio_and_http!(
    happy_path_lists_reads_and_deletes_one_match,
    three_matches_one_form_deletes_exactly_the_chosen_one,
    three_matches_archive_asks_which_then_confirms_exactly_that_one,
    writes_create_then_replace_and_stay_inside,
    a_removed_root_revokes_held_notes_and_refuses_paths,
    a_held_note_follows_its_file_and_the_table_is_bounded,
    without_elicitation_nothing_is_asked_and_nothing_changes,
    decline_and_cancel_change_nothing_then_archive_under_a_free_name,
    malformed_arguments_are_tool_errors,
    a_client_without_roots_gets_the_policy,
    two_sessions_with_disjoint_roots_stay_apart,
    tool_calls_wait_for_a_late_first_answer_and_time_out_without_one,
    a_delayed_first_answer_is_overtaken_by_a_newer_one,
    notes_stay_open_only_where_roots_live_in_the_session,
    read_only_refuses_every_change_asks_nothing_and_says_so,
);

async fn happy_path_lists_reads_and_deletes_one_match(transport: Transport) {
    let dir = tree();
    let (script, s) = session(transport, dir.path(), &["Notes", "Work"], true).await;
    let c = &s.client;
    let notes = listed(&call(c, "notes_list", json!({})).await);
    assert_eq!(notes.len(), 5, "{notes:?}"); // the symlink is not a note
    let read = call(c, "notes_read", json!({ "title": "MEETING NOTES" })).await;
    assert_eq!(client::text_of(&read), "# Meeting notes\nMonday\n");
    let by_path = read_at(c, dir.path(), "Work/plan.md").await;
    assert_eq!(
        by_path.structured_content.unwrap()["note"]["title"],
        "Project plan"
    );
    let several = call(c, "notes_read", json!({ "title": "TPS report" })).await;
    assert_eq!(reason(&several), Some("ambiguous"));
    assert_eq!(client::text_of(&several).matches("file://").count(), 3);
    let deleted = call(c, "notes_delete", json!({ "title": "Meeting notes" })).await;
    assert_eq!(outcome(&deleted), Some("deleted"), "{deleted:?}");
    assert_eq!(forms(&script), 0, "one match: nothing to ask");
    assert!(!exists(dir.path(), "Notes/meeting.md"));
    let none = call(c, "notes_delete", json!({ "title": "Meeting notes" })).await;
    assert_eq!(reason(&none), Some("no_match"));
    assert!(s.close().await);
}

async fn three_matches_one_form_deletes_exactly_the_chosen_one(transport: Transport) {
    let dir = tree();
    let (script, s) = session(transport, dir.path(), &["Notes"], true).await;
    script.pick("choice", "2024");
    let result = call(&s.client, "notes_delete", json!({ "title": "tps REPORT" })).await;
    assert_eq!(outcome(&result), Some("deleted"), "{result:?}");
    assert_eq!(forms(&script), 1);
    let left = ["2023", "2024", "2025"].map(|y| exists(dir.path(), &format!("Notes/{y}/tps.md")));
    assert_eq!(left, [true, false, true]);
    // Declined or closed: nothing deleted.
    for answer in [decline(), cancel()] {
        script.answer(answer);
        let kept = call(&s.client, "notes_delete", json!({ "title": "TPS report" })).await;
        assert!(matches!(outcome(&kept), Some("declined" | "cancelled")));
    }
    assert!(exists(dir.path(), "Notes/2023/tps.md") && exists(dir.path(), "Notes/2025/tps.md"));
}

async fn three_matches_archive_asks_which_then_confirms_exactly_that_one(transport: Transport) {
    let dir = tree();
    let (script, s) = session(transport, dir.path(), &["Notes"], true).await;
    script.pick("choice", "2024");
    script.answer(accept(json!({ "confirm": true })));
    let result = call(&s.client, "notes_archive", json!({ "title": "TPS report" })).await;
    assert_eq!(outcome(&result), Some("archived"), "{result:?}");
    let events = script.take_events();
    let messages: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Form { message, .. } => Some(message.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(messages.len(), 2, "{events:?}");
    assert!(
        messages[1].contains("Notes: 2024/tps.md)"),
        "{}",
        messages[1]
    );
    assert!(exists(dir.path(), "Notes/archive/tps.md"));
    let left = ["2023", "2024", "2025"].map(|y| exists(dir.path(), &format!("Notes/{y}/tps.md")));
    assert_eq!(left, [true, false, true]);
}

async fn writes_create_then_replace_and_stay_inside(transport: Transport) {
    let dir = tree();
    let (_, s) = session(transport, dir.path(), &["Notes"], true).await;
    let c = &s.client;
    let new = at(dir.path(), "Notes/ideas.md");
    let created = call(
        c,
        "notes_write",
        json!({ "path": new, "content": "# Ideas\n" }),
    )
    .await;
    assert_eq!(outcome(&created), Some("created"), "{created:?}");
    let replaced = call(
        c,
        "notes_write",
        json!({ "path": new, "content": "# Ideas\n2\n" }),
    )
    .await;
    assert_eq!(outcome(&replaced), Some("replaced"), "{replaced:?}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("Notes/ideas.md")).unwrap(),
        "# Ideas\n2\n"
    );
    for path in [
        at(dir.path(), "Secret/leak.md"),
        uri(dir.path(), "Notes/../Secret/leak.md"),
        at(dir.path(), "Notesx/leak.md"),     // a prefix sibling
        at(dir.path(), "Notes/passwords.md"), // the planted symlink
    ] {
        let refused = call(c, "notes_write", json!({ "path": path, "content": "x" })).await;
        assert_eq!(refused.is_error, Some(true));
        assert_eq!(reason(&refused), Some("outside_roots"), "{path}");
        assert!(client::text_of(&refused).starts_with("Refused (outside_roots)"));
    }
    assert!(!exists(dir.path(), "Secret/leak.md"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("Secret/passwords.md")).unwrap(),
        "hunter2\n"
    );
    let link = read_at(c, dir.path(), "Notes/passwords.md").await;
    assert_eq!(reason(&link), Some("outside_roots"));
    let txt = call(
        c,
        "notes_write",
        json!({ "path": at(dir.path(), "Notes/a.txt"), "content": "" }),
    )
    .await;
    assert_eq!(reason(&txt), Some("not_a_note"));
    assert!(!exists(dir.path(), "Notes/a.txt"));
}

async fn a_removed_root_revokes_held_notes_and_refuses_paths(transport: Transport) {
    let dir = tree();
    let (script, s) = session(transport, dir.path(), &["Notes", "Work"], true).await;
    let c = &s.client;
    let plan = call(
        c,
        "notes_open",
        json!({ "path": at(dir.path(), "Work/plan.md") }),
    )
    .await;
    let plan = plan.structured_content.unwrap()["handle"].as_u64().unwrap();
    let meeting = call(c, "notes_open", json!({ "title": "meeting notes" })).await;
    let meeting = meeting.structured_content.unwrap()["handle"]
        .as_u64()
        .unwrap();
    let journal = uri(dir.path(), "Journal");
    let notes = uri(dir.path(), "Notes");
    script.set_roots([(notes.as_str(), None), (journal.as_str(), None)]);
    c.notify_roots_list_changed().await.unwrap();
    assert!(script.roots_answered(2, Duration::from_secs(5)).await);
    let revoked = call(c, "notes_read", json!({ "handle": plan })).await;
    assert_eq!(reason(&revoked), Some("scope_lost"), "{revoked:?}");
    let kept = call(c, "notes_read", json!({ "handle": meeting })).await;
    assert_eq!(client::text_of(&kept), "# Meeting notes\nMonday\n");
    let refused = read_at(c, dir.path(), "Work/plan.md").await;
    assert_eq!(reason(&refused), Some("outside_roots"));
    let read = call(c, "notes_read", json!({ "title": "today" })).await; // no heading: file name
    assert_eq!(client::text_of(&read), "no heading\n");
}

async fn a_held_note_follows_its_file_and_the_table_is_bounded(transport: Transport) {
    let dir = tree();
    let (_, s) = session(transport, dir.path(), &["Notes"], true).await;
    let c = &s.client;
    let opened = call(c, "notes_open", json!({ "title": "Meeting notes" })).await;
    let handle = opened.structured_content.unwrap()["handle"]
        .as_u64()
        .unwrap();
    std::fs::rename(
        dir.path().join("Notes/meeting.md"),
        dir.path().join("Notes/2023/moved.md"),
    )
    .unwrap();
    let again = call(c, "notes_read", json!({ "handle": handle })).await;
    let note = &again.structured_content.unwrap()["note"];
    assert_eq!(note["path"], "2023/moved.md");
    let closed = call(c, "notes_close", json!({ "handle": handle })).await;
    assert_eq!(closed.is_error, Some(false));
    let gone = call(c, "notes_read", json!({ "handle": handle })).await;
    assert_eq!(reason(&gone), Some("unknown_handle"));
    let path = at(dir.path(), "Notes/2024/tps.md");
    for _ in 0..MAX_HELD {
        let held = call(c, "notes_open", json!({ "path": path })).await;
        assert_eq!(held.is_error, Some(false), "{held:?}");
    }
    let full = call(c, "notes_open", json!({ "path": path })).await;
    assert_eq!(reason(&full), Some("too_many_open"));
}

async fn without_elicitation_nothing_is_asked_and_nothing_changes(transport: Transport) {
    let dir = tree();
    let (script, s) = session(transport, dir.path(), &["Notes"], false).await;
    for (tool, title) in [
        ("notes_archive", "Meeting notes"),
        ("notes_delete", "TPS report"), // three matches: needs a pick
    ] {
        let result = call(&s.client, tool, json!({ "title": title })).await;
        assert_eq!(reason(&result), Some("elicitation_unsupported"), "{tool}");
        assert!(client::text_of(&result).contains("cannot show forms"));
    }
    assert_eq!(forms(&script), 0);
    assert!(exists(dir.path(), "Notes/meeting.md"));
    assert!(exists(dir.path(), "Notes/2023/tps.md"));
}

async fn decline_and_cancel_change_nothing_then_archive_under_a_free_name(transport: Transport) {
    let dir = tree();
    std::fs::create_dir(dir.path().join("Notes/archive")).unwrap();
    std::fs::write(dir.path().join("Notes/archive/meeting.md"), "older").unwrap();
    let (script, s) = session(transport, dir.path(), &["Notes"], true).await;
    let c = &s.client;
    let archive = json!({ "title": "Meeting notes" });
    for (answer, expected) in [
        (decline(), "declined"),
        (cancel(), "cancelled"),
        (accept(json!({ "confirm": false })), "declined"),
    ] {
        script.answer(answer);
        let result = call(c, "notes_archive", archive.clone()).await;
        assert_eq!(outcome(&result), Some(expected));
    }
    assert_eq!(forms(&script), 3);
    assert!(exists(dir.path(), "Notes/meeting.md"));
    script.answer(accept(json!({ "confirm": true })));
    let archived = call(c, "notes_archive", archive).await;
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
    let again = call(c, "notes_archive", json!({ "title": "Meeting notes" })).await;
    assert_eq!(reason(&again), Some("no_match"));
}

async fn malformed_arguments_are_tool_errors(transport: Transport) {
    let dir = tree();
    let (_, s) = session(transport, dir.path(), &["Notes"], true).await;
    let c = &s.client;
    let missing = call(
        c,
        "notes_write",
        json!({ "path": at(dir.path(), "Notes/x.md") }),
    )
    .await;
    assert_eq!(missing.is_error, Some(true));
    assert!(client::text_of(&missing).contains("content"), "{missing:?}");
    let wrong_type = call(c, "notes_read", json!({ "handle": "one" })).await;
    assert_eq!(wrong_type.is_error, Some(true), "{wrong_type:?}");
    for args in [
        json!({ "path": "/x.md", "title": "x" }),
        json!({ "title": "x", "handle": 1 }),
        json!({}),
    ] {
        let result = call(c, "notes_read", args.clone()).await;
        assert_eq!(reason(&result), Some("invalid_arguments"), "{args}");
    }
    let relative = call(c, "notes_read", json!({ "path": "Notes/meeting.md" })).await;
    assert_eq!(reason(&relative), Some("not_absolute"));
    let bad_uri = call(c, "notes_read", json!({ "path": "file:///a%2Fb.md" })).await;
    assert_eq!(reason(&bad_uri), Some("invalid_uri"));
    let unknown = call(c, "notes_close", json!({ "handle": 7 })).await;
    assert_eq!(reason(&unknown), Some("unknown_handle"));
    assert!(exists(dir.path(), "Notes/meeting.md"));
}

async fn a_client_without_roots_gets_the_policy(transport: Transport) {
    let dir = tree();
    let launch = transport.launch(&[]).await;
    let (script, s) = spawn(&launch, dir.path(), &["Notes"], false, true).await;
    let none = call(&s.client, "notes_list", json!({})).await;
    assert_eq!(reason(&none), Some("no_roots"));
    assert_eq!(script.roots_requests(), 0);
    let work = at(dir.path(), "Work");
    let args = ["--ceiling", work.as_str(), "--ceiling-without-roots"];
    let launch = transport.launch(&args).await;
    let (_, s) = spawn(&launch, dir.path(), &[], false, true).await;
    let notes = listed(&call(&s.client, "notes_list", json!({})).await);
    assert_eq!(notes, [uri(dir.path(), "Work/plan.md")]);
    let outside = read_at(&s.client, dir.path(), "Notes/meeting.md").await;
    assert_eq!(reason(&outside), Some("outside_roots"));
    // A client that declares roots and has none configured (the MCP
    // Inspector with no roots, an editor with no folder open) answers []:
    // it has never shared a folder, so it is served the ceiling too.
    let (script, s) = spawn(&launch, dir.path(), &[], true, true).await;
    let notes = listed(&call(&s.client, "notes_list", json!({})).await);
    assert_eq!(notes, [uri(dir.path(), "Work/plan.md")]);
    assert!(script.roots_requests() >= 1);
    let outside = read_at(&s.client, dir.path(), "Notes/meeting.md").await;
    assert_eq!(reason(&outside), Some("outside_roots"));
}

async fn two_sessions_with_disjoint_roots_stay_apart(transport: Transport) {
    let dir = tree();
    // Over HTTP: two sessions of one process.
    let launch = transport.launch(&[]).await;
    let (_, a) = spawn(&launch, dir.path(), &["Notes"], true, true).await;
    let (_, b) = spawn(&launch, dir.path(), &["Work"], true, true).await;
    let plan = json!({ "path": at(dir.path(), "Work/plan.md") });
    let refused = call(&a.client, "notes_read", plan.clone()).await;
    assert_eq!(reason(&refused), Some("outside_roots"));
    assert_eq!(
        call(&b.client, "notes_read", plan).await.is_error,
        Some(false)
    );
    let meeting = json!({ "path": at(dir.path(), "Notes/meeting.md") });
    let refused = call(&b.client, "notes_read", meeting).await;
    assert_eq!(reason(&refused), Some("outside_roots"));
    assert!(a.close().await && b.close().await);
}

async fn tool_calls_wait_for_a_late_first_answer_and_time_out_without_one(transport: Transport) {
    let dir = tree();
    let script = ScriptedClient::new(true, true);
    script.delay_roots_answer(Duration::from_secs(3)); // longer than the wait
    let notes = uri(dir.path(), "Notes");
    script.set_roots([(notes.as_str(), None)]);
    let quick = transport.launch(&["--roots-wait", "0.15"]).await;
    let s = quick.connect(script).await.unwrap();
    let started = Instant::now();
    let result = call(&s.client, "notes_list", json!({})).await;
    assert_eq!(reason(&result), Some("no_roots"));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );

    let late = ScriptedClient::new(true, true);
    late.delay_roots_answer(Duration::from_millis(300));
    late.set_roots([(notes.as_str(), None)]);
    let s = connected(transport, late.clone()).await;
    let listed = call(&s.client, "notes_list", json!({})).await;
    assert_eq!(listed.is_error, Some(false), "{listed:?}");
    assert_eq!(late.roots_requests(), 1);
}

async fn a_delayed_first_answer_is_overtaken_by_a_newer_one(transport: Transport) {
    let dir = tree();
    let script = ScriptedClient::new(true, true);
    script.delay_roots_answer(Duration::from_millis(800));
    let (notes, work) = (uri(dir.path(), "Notes"), uri(dir.path(), "Work"));
    script.set_roots([(notes.as_str(), None)]);
    let s = connected(transport, script.clone()).await;
    // The first roots/list has arrived (it will answer Notes, late); the
    // user now shares Work instead and says so while that answer is out.
    let deadline = Instant::now() + Duration::from_secs(5);
    while script.roots_requests() < 1 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    script.set_roots([(work.as_str(), None)]);
    s.client.notify_roots_list_changed().await.unwrap();
    // A call made now must not be served by the late answer: it waits for
    // the re-list that the notification started.
    let now = listed(&call(&s.client, "notes_list", json!({})).await);
    assert_eq!(now, [uri(dir.path(), "Work/plan.md")]);
    assert_eq!(script.roots_requests(), 2);
    // The late answer (Notes) came first and the newer one (Work) after it;
    // nothing later brings Notes back.
    let answers: Vec<Vec<String>> = script
        .take_events()
        .into_iter()
        .filter_map(|e| match e {
            Event::RootsListed(uris) => Some(uris),
            _ => None,
        })
        .collect();
    assert_eq!(answers, [vec![notes.clone()], vec![work.clone()]]);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let later = listed(&call(&s.client, "notes_list", json!({})).await);
    assert_eq!(later, [uri(dir.path(), "Work/plan.md")]);
}

async fn notes_stay_open_only_where_roots_live_in_the_session(transport: Transport) {
    let dir = tree();
    let script = ScriptedClient::new(true, true).speaking(ProtocolVersion::V_2026_07_28);
    let notes = uri(dir.path(), "Notes");
    script.set_roots([(notes.as_str(), None)]);
    let s = transport.launch(&[]).await;
    let s = s.connect_modern(script.clone()).await.unwrap();
    let open = call(&s.client, "notes_open", json!({ "title": "Meeting notes" })).await;
    if let Transport::Stdio = transport {
        // Over stdio the process is the session: the note is held in the
        // roots of the request that opened it.
        let handle = open.structured_content.as_ref().unwrap()["handle"].clone();
        let read = call(&s.client, "notes_read", json!({ "handle": handle })).await;
        assert_eq!(client::text_of(&read), "# Meeting notes\nMonday\n");
        // A later request that still lists Notes keeps it; one that drops
        // Notes revokes it.
        let work = uri(dir.path(), "Work");
        script.set_roots([(notes.as_str(), None), (work.as_str(), None)]);
        call(&s.client, "notes_list", json!({})).await;
        let kept = call(&s.client, "notes_read", json!({ "handle": handle })).await;
        assert_eq!(client::text_of(&kept), "# Meeting notes\nMonday\n");
        script.set_roots([(work.as_str(), None)]);
        let listed_now = listed(&call(&s.client, "notes_list", json!({})).await);
        assert_eq!(listed_now, [uri(dir.path(), "Work/plan.md")]);
        let lost = call(&s.client, "notes_read", json!({ "handle": handle })).await;
        assert_eq!(reason(&lost), Some("scope_lost"), "{lost:?}");
        return;
    }
    // Over HTTP a request's roots are its own, with no memory after it.
    assert_eq!(reason(&open), Some("not_on_this_revision"));
    // Nothing can be held there, so a handle is unknown, as on any revision.
    let close = call(&s.client, "notes_close", json!({ "handle": 1 })).await;
    assert_eq!(reason(&close), Some("unknown_handle"));
    let read = call(&s.client, "notes_read", json!({ "handle": 1 })).await;
    assert_eq!(reason(&read), Some("unknown_handle"));
    let read = call(&s.client, "notes_read", json!({ "title": "Meeting notes" })).await;
    assert_eq!(client::text_of(&read), "# Meeting notes\nMonday\n");
}

#[test]
fn the_binary_refuses_bad_arguments() {
    for args in [
        &["--bogus"][..],
        &["--roots-wait", "soon"],
        &["--ceiling"],
        &["demo", "x"],
        &["demo", "--stdio", "--http"],
        // --http: loopback only, an address, an idle time above zero.
        &["--http", "0.0.0.0:0"],
        &["--http=[::]:0"],
        &["--http", "192.0.2.1:8080"],
        &["--http", "localhost"],
        &["--http"],
        &["--session-idle", "5"],
        &["--http", "127.0.0.1:0", "--session-idle", "0"],
    ] {
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_notes-server"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(2), "{args:?}");
    }
}

/// The `readOnlyHint` of each changing tool, by name.
async fn write_hints(client: &Client) -> Vec<(String, Option<bool>)> {
    let tools = client.list_all_tools().await.unwrap();
    let mut hints: Vec<_> = tools
        .into_iter()
        .filter(|t| notes_server::hints::CHANGING_TOOLS.contains(&t.name.as_ref()))
        .map(|t| {
            (
                t.name.to_string(),
                t.annotations.and_then(|a| a.read_only_hint),
            )
        })
        .collect();
    hints.sort();
    hints
}

async fn read_only_refuses_every_change_asks_nothing_and_says_so(transport: Transport) {
    let dir = tree();
    let writable = transport.launch(&[]).await;
    let (_, w) = spawn(&writable, dir.path(), &["Notes"], true, true).await;
    let hints = write_hints(&w.client).await;
    assert_eq!(hints.len(), 3, "{hints:?}");
    assert!(
        hints.iter().all(|(_, hint)| *hint == Some(false)),
        "{hints:?}"
    );

    let read_only = transport.launch(&["--read-only"]).await;
    let (script, s) = spawn(&read_only, dir.path(), &["Notes", "Work"], true, true).await;
    let c = &s.client;
    let hints = write_hints(c).await;
    assert_eq!(hints.len(), 3, "{hints:?}");
    assert!(
        hints.iter().all(|(_, hint)| *hint == Some(true)),
        "{hints:?}"
    );
    let before = snapshot(dir.path());
    let calls = [
        (
            "notes_write",
            json!({ "path": at(dir.path(), "Notes/new.md"), "content": "# New" }),
        ),
        (
            "notes_write",
            json!({ "path": at(dir.path(), "Work/plan.md"), "content": "# Plan" }),
        ),
        ("notes_delete", json!({ "title": "Meeting notes" })),
        ("notes_delete", json!({ "title": "TPS report" })),
        ("notes_archive", json!({ "title": "Project plan" })),
        ("notes_archive", json!({ "title": "TPS report" })),
    ];
    for (tool, args) in calls {
        let result = call(c, tool, args.clone()).await;
        assert_eq!(
            reason(&result),
            Some("read_only"),
            "{tool} {args}: {result:?}"
        );
        assert!(client::text_of(&result).contains("read"), "{result:?}");
    }
    assert_eq!(
        forms(&script),
        0,
        "nothing is asked when nothing can change"
    );
    assert_eq!(
        before,
        snapshot(dir.path()),
        "a read-only server changed the tree"
    );
    let notes = listed(&call(c, "notes_list", json!({})).await);
    assert_eq!(notes.len(), 5, "{notes:?}");
    let read = call(c, "notes_read", json!({ "title": "MEETING NOTES" })).await;
    assert_eq!(client::text_of(&read), "# Meeting notes\nMonday\n");
    assert!(s.close().await);
}

/// Every file below `dir` with its content, sorted.
fn snapshot(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                pending.push(path.clone());
            }
            out.push((path.clone(), std::fs::read(&path).unwrap_or_default()));
        }
    }
    out.sort();
    out
}
