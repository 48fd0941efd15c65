//! `notes_setup` and its page: URL mode accepted (the page submitted, the
//! completion notification received, the template applied, the roots
//! untouched), declined and cancelled, Cancel pressed on the page, a client
//! without URL mode, a protocol without it; the page on its own: wrong
//! tokens, a second submission, the Host check, malformed requests (raw
//! HTTP/1.1, what a browser would not send), the size limit as a browser
//! counts it, its timeout and what a late reload sees.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use common::{
    Client, at, call, configured, count, outcome, queue_submission, reason, reload, says_closed,
    statuses, the_one_url, the_template_serves, tree, uri, urls,
};
use mcp_roots::RootsBuilder;
use mcp_script::browser::{Step, Visit, browse};
use mcp_script::{self as client, Event, ScriptedClient, UrlAnswer};
use notes_server::NotesServer;
use notes_server::page::{PageEnd, SetupPage, Submission};
use notes_server::prefs::{MAX_TEMPLATE, Settings};
use rmcp::model::ProtocolVersion;
use serde_json::json;

/// A 2025-11-25 session sharing `Notes`, whose client is `script`.
async fn session(server: &NotesServer, script: &ScriptedClient, dir: &std::path::Path) -> Client {
    let notes = uri(dir, "Notes");
    script.set_roots([(notes.as_str(), Some("Notes"))]);
    let (running, client) = client::connect(server.clone(), script.clone())
        .await
        .unwrap();
    tokio::spawn(async move { running.waiting().await });
    client
}

#[tokio::test]
async fn url_mode_accepted_applies_the_template_and_completes() {
    let dir = tree();
    let server = NotesServer::new(RootsBuilder::default());
    let script = ScriptedClient::new(true, true).with_url_mode();
    let c = session(&server, &script, dir.path()).await;
    assert_eq!(
        call(&c, "notes_list", json!({})).await.is_error,
        Some(false)
    );
    let generation = server.session().roots().generation();
    script.take_events();
    queue_submission(&script, dir.path());
    let result = call(&c, "notes_setup", json!({})).await;
    script.browsed().await;
    let id = configured(&result);
    assert!(script.completed(&id, Duration::from_secs(5)).await);
    let events = script.take_events();
    let url = the_one_url(&events, &id);
    let token = url.split("token=").nth(1).unwrap();
    assert!(token.len() == 32 && token.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(statuses(&events), [200, 200]);
    // The fields that named folders changed nothing.
    assert_eq!(server.session().roots().generation(), generation);
    the_template_serves(&c, &server, dir.path()).await;
    // A late reload says the page is closed.
    assert!(says_closed(&url, Duration::from_secs(5)).await);
}

#[tokio::test]
async fn declined_or_cancelled_setup_changes_nothing_and_closes_the_page() {
    let dir = tree();
    let server = NotesServer::new(RootsBuilder::default());
    let script = ScriptedClient::new(true, true).with_url_mode();
    let c = session(&server, &script, dir.path()).await;
    for (answer, expected) in [
        (UrlAnswer::Decline, "declined"),
        (UrlAnswer::Cancel, "cancelled"),
    ] {
        script.answer_url(answer);
        let result = call(&c, "notes_setup", json!({})).await;
        assert_eq!(outcome(&result), Some(expected), "{result:?}");
        let asked = urls(&script.take_events());
        assert_eq!(asked.len(), 1);
        // Dropped unused: the page says it is closed.
        assert!(says_closed(&asked[0].0, Duration::from_secs(5)).await);
    }
    assert_eq!(server.preferences().get(), Settings::default());
    let new = at(dir.path(), "Notes/plain.md");
    call(
        &c,
        "notes_write",
        json!({ "path": new, "content": "# Plain\n" }),
    )
    .await;
    assert_eq!(
        std::fs::read_to_string(dir.path().join("Notes/plain.md")).unwrap(),
        "# Plain\n"
    );
}

#[tokio::test]
async fn clients_without_url_mode_get_the_guard_and_nothing_is_sent() {
    let dir = tree();
    for (script, why) in [
        (ScriptedClient::new(true, true), "did not declare URL-mode"),
        (ScriptedClient::new(true, false), "did not declare URL-mode"),
        // 2025-06-18 has no URL mode, whatever the client declares.
        (
            ScriptedClient::new(true, true)
                .with_url_mode()
                .speaking(ProtocolVersion::V_2025_06_18),
            "predates URL mode",
        ),
    ] {
        let server = NotesServer::new(RootsBuilder::default());
        script.answer_url(UrlAnswer::Accept(vec![Step::open()]));
        let c = session(&server, &script, dir.path()).await;
        let result = call(&c, "notes_setup", json!({})).await;
        assert_eq!(result.is_error, Some(true));
        assert_eq!(reason(&result), Some("url_elicitation_unsupported"));
        let text = client::text_of(&result);
        assert!(text.contains(why), "{text}");
        assert!(text.contains("Ask the user in the conversation"), "{text}");
        let events = script.take_events();
        assert_eq!(count(&events, |e| matches!(e, Event::Url { .. })), 0);
    }
}

#[tokio::test]
async fn an_accepted_page_that_is_never_submitted_times_out() {
    let dir = tree();
    let server =
        NotesServer::new(RootsBuilder::default()).with_setup_wait(Duration::from_millis(300));
    let script = ScriptedClient::new(true, true).with_url_mode();
    let c = session(&server, &script, dir.path()).await;
    script.answer_url(UrlAnswer::Accept(Vec::new())); // agrees, never opens it
    let started = Instant::now();
    let result = call(&c, "notes_setup", json!({})).await;
    assert_eq!(outcome(&result), Some("timed_out"), "{result:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(server.preferences().get(), Settings::default());
    let asked = urls(&script.take_events());
    assert!(says_closed(&asked[0].0, Duration::from_secs(5)).await);
}

#[tokio::test]
async fn cancel_on_the_page_declines_at_once() {
    let dir = tree();
    // The page would wait ten minutes: only Cancel can end the call.
    let server =
        NotesServer::new(RootsBuilder::default()).with_setup_wait(Duration::from_secs(600));
    let script = ScriptedClient::new(true, true).with_url_mode();
    let c = session(&server, &script, dir.path()).await;
    script.answer_url(UrlAnswer::Accept(vec![Step::open(), Step::cancel()]));
    let result = tokio::time::timeout(Duration::from_secs(60), call(&c, "notes_setup", json!({})))
        .await
        .expect("Cancel ends the call");
    script.browsed().await;
    assert_eq!(outcome(&result), Some("declined"), "{result:?}");
    let structured = result.structured_content.clone().unwrap();
    assert_eq!(structured["on"], "page");
    let id = structured["elicitationId"].as_str().unwrap().to_owned();
    assert!(client::text_of(&result).contains("cancelled setup on the page"));
    // The flow finished: the client is told, as after a submission.
    assert!(script.completed(&id, Duration::from_secs(5)).await);
    let events = script.take_events();
    assert_eq!(statuses(&events), [200, 200]);
    let cancelled = events.iter().find_map(|e| match e {
        Event::Http(visit) if visit.method == "POST" => Some(visit.heading.clone()),
        _ => None,
    });
    assert_eq!(cancelled.as_deref(), Some("Setup cancelled"));
    assert_eq!(server.preferences().get(), Settings::default());
    assert!(says_closed(&the_one_url(&events, &id), Duration::from_secs(5)).await);
}

/// Plays `steps` against `page`.
async fn play(page: &SetupPage, steps: Vec<Step>) -> Vec<Visit> {
    let mut visits = Vec::new();
    browse(page.url().as_str(), &steps, |v| visits.push(v)).await;
    visits
}

/// The submission a page ended with.
async fn submitted(page: &mut SetupPage) -> Submission {
    match page.submission().await {
        PageEnd::Submitted(submission) => submission,
        other => panic!("not submitted: {other:?}"),
    }
}

#[tokio::test]
async fn the_page_refuses_wrong_tokens_and_a_second_submission() {
    let current = Settings {
        template: Some("old <b>\"template\"</b>".into()),
    };
    let mut page = SetupPage::start(&current, Duration::from_secs(30))
        .await
        .unwrap();
    let visits = play(
        &page,
        vec![
            Step::open().with_wrong_token(),
            Step::submit(&[("template", "evil")]).with_wrong_token(),
            Step::submit(&[("not_template", "x")]), // no template: refused, not consumed
            Step::submit(&[("template", "x"), ("action", "delete")]), // no such button
            Step::open(),
            Step::submit(&[("template", "line 1\r\nline 2")]),
            Step::submit(&[("template", "second")]),
            Step::open(),
        ],
    )
    .await;
    let statuses: Vec<u16> = visits.iter().map(|v| v.status).collect();
    assert_eq!(
        statuses,
        [403, 403, 400, 400, 200, 200, 410, 410],
        "{visits:#?}"
    );
    assert_eq!(visits[4].fields, ["token", "template"]);
    assert_eq!(visits[4].buttons, ["Save", "Cancel"]);
    assert_eq!(visits[4].heading, "Set up new notes");
    assert_eq!(visits[0].heading, "This link is not valid");
    assert_eq!(visits[3].heading, "Unknown button");
    assert_eq!(visits[6].heading, "This setup page is closed");
    let submission = submitted(&mut page).await;
    assert_eq!(submission.template, "line 1\nline 2");
    assert!(submission.ignored.is_empty());
    // Still answering while held: a second submission stays refused.
    let again = play(&page, vec![Step::submit(&[("template", "third")])]).await;
    assert_eq!(again[0].status, 410);
}

/// One raw request to `addr` (what a browser would not send); the status
/// code of the answer's status line.
fn raw(addr: SocketAddr, request: &str) -> u16 {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut line = String::new();
    BufReader::new(stream).read_line(&mut line).unwrap();
    line.split(' ').nth(1).unwrap().parse().unwrap()
}

#[tokio::test]
async fn the_page_checks_the_host_and_the_request() {
    let page = SetupPage::start(&Settings::default(), Duration::from_secs(30))
        .await
        .unwrap();
    let addr = page.addr();
    let target = format!("{}?{}", page.url().path(), page.url().query().unwrap());
    let host = format!("127.0.0.1:{}", addr.port());
    let form = |body: &str, kind: &str| {
        format!(
            "POST /setup HTTP/1.1\r\nHost: {host}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    let token = page.url().query().unwrap().to_owned(); // "token=…"
    let cases = [
        (
            format!(
                "GET {target} HTTP/1.1\r\nHost: evil.example:{}\r\n\r\n",
                addr.port()
            ),
            421,
        ),
        (format!("GET {target} HTTP/1.1\r\n\r\n"), 421),
        (
            format!(
                "GET {target} HTTP/1.1\r\nHost: localhost:{}\r\n\r\n",
                addr.port()
            ),
            200,
        ),
        (format!("GET /other HTTP/1.1\r\nHost: {host}\r\n\r\n"), 404),
        (
            format!("PUT {target} HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\n\r\n"),
            405,
        ),
        (form(&format!("{token}&template=x"), "text/plain"), 415),
        (format!("POST /setup HTTP/1.1\r\nHost: {host}\r\n\r\n"), 411),
        (
            format!("POST /setup HTTP/1.1\r\nHost: {host}\r\nContent-Length: 999999\r\n\r\n"),
            413,
        ),
        (
            form(
                &format!("{token}&template={}", "x".repeat(20_000)),
                "application/x-www-form-urlencoded",
            ),
            413,
        ),
        ("nonsense\r\n\r\n".to_owned(), 400),
        (
            format!("GET {target} HTTP/1.1\r\nHost: {host}\r\nHost: {host}\r\n\r\n"),
            421,
        ),
    ];
    for (request, status) in cases {
        let got = tokio::task::spawn_blocking(move || raw(addr, &request))
            .await
            .unwrap();
        assert_eq!(got, status);
    }
    // None of these consumed the page.
    let ok = play(&page, vec![Step::submit(&[("template", "fine")])]).await;
    assert_eq!(ok[0].status, 200);
}

#[tokio::test]
async fn the_page_ends_after_its_timeout_and_then_says_it_is_closed() {
    let mut page = SetupPage::start(&Settings::default(), Duration::from_millis(200))
        .await
        .unwrap();
    let started = Instant::now();
    assert_eq!(page.submission().await, PageEnd::Expired);
    assert!(started.elapsed() < Duration::from_secs(5));
    let url = page.url().to_string();
    let late = play(
        &page,
        vec![Step::open(), Step::submit(&[("template", "t")])],
    )
    .await;
    assert_eq!([late[0].status, late[1].status], [410, 410], "{late:#?}");
    assert_eq!(late[0].heading, "This setup page is closed");
    assert!(late[0].said.contains("ask for setup again"), "{late:#?}");
    drop(page);
    assert!(says_closed(&url, Duration::from_secs(5)).await);
}

#[tokio::test]
async fn a_released_page_says_it_is_closed_to_a_late_reload() {
    let mut page = SetupPage::start(&Settings::default(), Duration::from_secs(60))
        .await
        .unwrap();
    let url = page.url().to_string();
    assert_eq!(
        play(&page, vec![Step::submit(&[("template", "t")])]).await[0].status,
        200
    );
    assert_eq!(submitted(&mut page).await.template, "t");
    drop(page);
    let late = reload(&url).await;
    assert_eq!(late.status, 410);
    assert_eq!(late.heading, "This setup page is closed");
    // A wrong token still learns nothing about the page.
    let mut wrong = Vec::new();
    browse(&url, &[Step::open().with_wrong_token()], |v| wrong.push(v)).await;
    assert_eq!(wrong[0].status, 403);
}

#[tokio::test]
async fn the_limit_counts_characters_as_the_browser_does() {
    // Each row on a fresh page: the template and the status.
    let emoji = "\u{1F600}"; // two UTF-16 code units, four UTF-8 bytes
    for (template, status) in [
        // At the limit in UTF-16 code units, twice the limit in bytes.
        ("é".repeat(MAX_TEMPLATE), 200),
        ("é".repeat(MAX_TEMPLATE + 1), 413),
        // Line breaks count once, as submitted (CR LF) or not.
        (format!("{}\r\n", "x".repeat(MAX_TEMPLATE - 1)), 200),
        (emoji.repeat(MAX_TEMPLATE / 2), 200),
        (format!("{}x", emoji.repeat(MAX_TEMPLATE / 2)), 413),
    ] {
        let mut page = SetupPage::start(&Settings::default(), Duration::from_secs(30))
            .await
            .unwrap();
        let visits = play(&page, vec![Step::submit(&[("template", &template)])]).await;
        assert_eq!(visits[0].status, status, "{:?}…", &template[..8]);
        if status == 200 {
            let saved = submitted(&mut page).await.template;
            assert_eq!(saved, template.replace("\r\n", "\n"));
        } else {
            assert_eq!(visits[0].heading, "The template is too long");
        }
    }
}
