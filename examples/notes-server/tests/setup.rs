//! `notes_setup` and its page: URL mode accepted (the page submitted, the
//! completion notification received, the template applied, the roots
//! untouched), declined and cancelled, a client without URL mode, a
//! protocol without it; the page on its own: wrong tokens, a second
//! submission, the Host check, malformed posts, its timeout and its close
//! after use.

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use common::{
    Client, addr_of, at, call, closes, configured, count, outcome, queue_submission, reason,
    statuses, the_one_url, the_template_serves, tree, uri, urls,
};
use mcp_roots::RootsBuilder;
use mcp_script::browser::{Step, Visit, browse};
use mcp_script::{self as client, Event, ScriptedClient, UrlAnswer};
use notes_server::NotesServer;
use notes_server::page::{LINGER, SetupPage};
use notes_server::prefs::Settings;
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
    // The page is gone shortly after.
    assert!(closes(addr_of(&url), LINGER * 3).await);
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
        // Dropped unused: the port closes at once (no linger).
        assert!(closes(addr_of(&asked[0].0), Duration::from_secs(1)).await);
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
    assert!(closes(addr_of(&asked[0].0), Duration::from_millis(100)).await);
}

/// Plays `steps` against `page` on the blocking pool.
async fn play(page: &SetupPage, steps: Vec<Step>) -> Vec<Visit> {
    let url = page.url().to_string();
    tokio::task::spawn_blocking(move || {
        let mut visits = Vec::new();
        browse(&url, &steps, |v| visits.push(v));
        visits
    })
    .await
    .unwrap()
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
            Step::open(),
            Step::submit(&[("template", "line 1\r\nline 2")]),
            Step::submit(&[("template", "second")]),
            Step::open(),
        ],
    )
    .await;
    let statuses: Vec<u16> = visits.iter().map(|v| v.status).collect();
    assert_eq!(statuses, [403, 403, 400, 200, 200, 410, 410], "{visits:#?}");
    assert_eq!(visits[3].fields, ["token", "template"]);
    let submission = page.submission().await.unwrap();
    assert_eq!(submission.template, "line 1\nline 2");
    assert!(submission.ignored.is_empty());
    // Still answering while held: a second submission stays refused.
    let again = play(&page, vec![Step::submit(&[("template", "third")])]).await;
    assert_eq!(again[0].status, 410);
}

/// One raw request to `addr`; the status code.
fn raw(addr: SocketAddr, request: &str) -> u16 {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer.split(' ').nth(1).unwrap().parse().unwrap()
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
async fn the_page_stops_after_its_timeout() {
    let mut page = SetupPage::start(&Settings::default(), Duration::from_millis(200))
        .await
        .unwrap();
    let addr = page.addr();
    assert!(TcpStream::connect(addr).is_ok());
    let started = Instant::now();
    assert_eq!(page.submission().await, None);
    assert!(started.elapsed() < Duration::from_secs(2));
    // The port is closed before `None` is returned.
    assert!(TcpStream::connect(addr).is_err());
    let late = play(&page, vec![Step::open()]).await;
    assert_eq!(late[0].status, 0);
}

#[tokio::test]
async fn a_used_page_closes_after_it_is_released() {
    let mut page = SetupPage::start(&Settings::default(), Duration::from_secs(60))
        .await
        .unwrap();
    let url = page.url().to_string();
    let addr = page.addr();
    assert_eq!(
        play(&page, vec![Step::submit(&[("template", "t")])]).await[0].status,
        200
    );
    assert_eq!(page.submission().await.unwrap().template, "t");
    drop(page);
    let again = tokio::task::spawn_blocking(move || {
        let mut visits = Vec::new();
        browse(&url, &[Step::submit(&[("template", "u")])], |v| {
            visits.push(v)
        });
        visits
    })
    .await
    .unwrap();
    assert_eq!(again[0].status, 410);
    assert!(closes(addr, LINGER * 3).await);
}
