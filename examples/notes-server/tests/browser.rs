//! The setup flow in a real browser: headless Chromium, driven through
//! chromedriver (WebDriver, fantoccini). The scripted client accepts the
//! URL; Chromium opens it, the test checks what a person and a screen
//! reader get (heading, label, help text, focus, viewport, the stated
//! limit, which the browser enforces as the server counts it), types the
//! template, saves, and sees the tool call complete; a second tab that
//! opened the form before submits again and is refused; a reload says the
//! page is closed. A second test presses Cancel and sees the call end at
//! once, declined. A screenshot of the form is saved under `target/tmp/`
//! (the path is printed).
//!
//! Ignored by default: it needs Debian's `chromium` and `chromium-driver`
//! (`CHROMIUM` and `CHROMEDRIVER` may name other binaries). `.ci/run`
//! installs them and runs it with `--ignored`; run it alone with
//! `cargo test -p notes-server --test browser -- --ignored --nocapture`.
#![cfg(target_os = "linux")]

mod common;

use std::future::Future;
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{TEMPLATE, call, outcome, the_one_url, tree, uri, urls};
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use mcp_roots::RootsBuilder;
use mcp_script::{self as client, Event, ScriptedClient, UrlAnswer};
use notes_server::NotesServer;
use notes_server::prefs::MAX_TEMPLATE;
use serde_json::{Value, json};

/// No step may take longer than this; the whole test is bounded by it.
const BOUND: Duration = Duration::from_secs(120);
/// How long chromedriver may take to listen.
const DRIVER_WAIT: Duration = Duration::from_secs(30);

/// chromedriver on a free loopback port, killed on drop.
struct Driver {
    url: String,
    _child: tokio::process::Child,
}

impl Driver {
    async fn start() -> Self {
        let program = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .and_then(|l| l.local_addr())
            .unwrap()
            .port();
        let child = tokio::process::Command::new(&program)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|err| panic!("cannot start {program} (chromium-driver): {err}"));
        let deadline = Instant::now() + DRIVER_WAIT;
        while TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_err() {
            assert!(Instant::now() < deadline, "{program} did not listen");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Self {
            url: format!("http://127.0.0.1:{port}"),
            _child: child,
        }
    }

    /// A headless Chromium session with a fresh profile in `profile`.
    async fn chromium(&self, profile: &std::path::Path) -> Client {
        let mut options = json!({
            "args": [
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--window-size=900,760",
                format!("--user-data-dir={}", profile.display()),
            ],
        });
        if let Ok(binary) = std::env::var("CHROMIUM") {
            options["binary"] = json!(binary);
        }
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("goog:chromeOptions".into(), options);
        // chromedriver that listened may still refuse a moment (seen on a
        // loaded 2-core machine): a few tries, then the error.
        let mut tries = 0;
        loop {
            let session = ClientBuilder::new(HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&self.url)
                .await;
            match session {
                Ok(client) => return client,
                Err(err) if tries < 5 => {
                    tries += 1;
                    eprintln!("chromedriver session, try {tries}: {err}");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
                Err(err) => panic!("a Chromium session through chromedriver: {err:?}"),
            }
        }
    }
}

/// Runs `test` within [`BOUND`].
async fn bounded<F: Future<Output = ()>>(test: F) {
    tokio::time::timeout(BOUND, test)
        .await
        .expect("the browser test took too long");
}

/// A script's value as a string (JSON text for anything else).
async fn eval(browser: &Client, script: &str) -> Value {
    browser.execute(script, Vec::new()).await.unwrap()
}

/// Waits (bounded) until the page shown has the heading `expected` (a
/// click navigates asynchronously); panics with the page's source if it
/// never comes.
async fn expect_heading(browser: &Client, expected: &str) {
    let xpath = format!("//h1[normalize-space()='{expected}']");
    let found = browser
        .wait()
        .at_most(DRIVER_WAIT)
        .for_element(Locator::XPath(&xpath))
        .await;
    if found.is_err() {
        let source = browser.source().await.unwrap_or_default();
        panic!("no heading {expected:?} on the page: {source}");
    }
}

/// Waits (bounded) for the scripted client to be sent the setup URL; the
/// events so far.
async fn sent_url(script: &ScriptedClient) -> Vec<Event> {
    let mut events = Vec::new();
    let deadline = Instant::now() + BOUND;
    while urls(&events).is_empty() {
        assert!(Instant::now() < deadline, "no URL was sent");
        tokio::time::sleep(Duration::from_millis(20)).await;
        events.extend(script.take_events());
    }
    events
}

/// A 2025-11-25 session sharing `Notes` under `dir`, whose user consents
/// to the setup URL (the page is Chromium's from there on): the server, the
/// script, the client.
async fn session(dir: &std::path::Path) -> (NotesServer, ScriptedClient, common::Client) {
    let server = NotesServer::new(RootsBuilder::default());
    let script = ScriptedClient::new(true, true).with_url_mode();
    let notes = uri(dir, "Notes");
    script.set_roots([(notes.as_str(), Some("Notes"))]);
    let (running, c) = client::connect(server.clone(), script.clone())
        .await
        .unwrap();
    tokio::spawn(async move { running.waiting().await });
    script.answer_url(UrlAnswer::Accept(Vec::new()));
    (server, script, c)
}

/// Opens in `browser` the setup page the server sent `script`, once its
/// heading is there; its URL and the client's events so far.
async fn open_setup_page(script: &ScriptedClient, browser: &Client) -> (String, Vec<Event>) {
    let events = sent_url(script).await;
    let url = urls(&events)[0].0.clone();
    browser.goto(&url).await.unwrap();
    expect_heading(browser, "Set up new notes").await;
    (url, events)
}

/// Where the screenshot goes: `target/tmp/notes-server-setup.png`.
fn screenshot_path() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("notes-server-setup.png")
}

#[tokio::test]
#[ignore = "needs Debian's chromium and chromium-driver; .ci/run runs it with --ignored"]
async fn chromium_sets_the_template_and_a_second_submission_is_refused() {
    bounded(async {
        let dir = tree();
        let (server, script, c) = session(dir.path()).await;
        let driver = Driver::start().await;
        let profile = tempfile::tempdir().unwrap();
        let browser = driver.chromium(profile.path()).await;

        let user = async {
            let (url, events) = open_setup_page(&script, &browser).await;
            // What a person and a screen reader get.
            assert!(
                browser
                    .title()
                    .await
                    .unwrap()
                    .starts_with("Set up new notes")
            );
            let viewport = eval(
                &browser,
                "return document.querySelector('meta[name=viewport]').content",
            )
            .await;
            assert_eq!(viewport, "width=device-width, initial-scale=1");
            let focused = eval(&browser, "return document.activeElement.id").await;
            assert_eq!(focused, "template", "autofocus");
            let label = eval(
                &browser,
                "return document.querySelector('label[for=template]').textContent",
            )
            .await;
            assert_eq!(label, "Template for new notes");
            let help = eval(
                &browser,
                "const t = document.getElementById('template'); \
                 return document.getElementById(t.getAttribute('aria-describedby')).textContent",
            )
            .await;
            let help = help.as_str().unwrap_or_default().to_owned();
            assert!(
                help.contains(&format!("At most {MAX_TEMPLATE} characters")),
                "{help}"
            );
            let buttons = eval(
                &browser,
                "return [...document.querySelectorAll('form button')].map(b => b.textContent)",
            )
            .await;
            assert_eq!(buttons, json!(["Save", "Cancel"]));

            // The limit as the browser enforces it: one unit left, two
            // characters typed, one fits: `MAX_TEMPLATE` units, more bytes.
            let area = browser.find(Locator::Id("template")).await.unwrap();
            eval(
                &browser,
                &format!(
                    "document.getElementById('template').value = 'x'.repeat({})",
                    MAX_TEMPLATE - 1
                ),
            )
            .await;
            area.send_keys("éé").await.unwrap();
            let length = eval(
                &browser,
                "return document.getElementById('template').value.length",
            )
            .await;
            assert_eq!(
                length,
                json!(MAX_TEMPLATE),
                "the browser stops at the limit"
            );

            // A second tab opens the same form now, to submit it later.
            let first = browser.window().await.unwrap();
            let second = browser.new_window(true).await.unwrap().handle;
            browser.switch_to_window(second.clone()).await.unwrap();
            browser.goto(&url).await.unwrap();
            expect_heading(&browser, "Set up new notes").await;
            browser.switch_to_window(first).await.unwrap();

            // Fill in the template, as typed (Enter makes the line breaks).
            area.clear().await.unwrap();
            area.send_keys(TEMPLATE).await.unwrap();
            let png = browser.screenshot().await.unwrap();
            let path = screenshot_path();
            std::fs::write(&path, png).unwrap();
            println!("screenshot of the setup page: {}", path.display());
            let save = browser
                .find(Locator::Css("button[value=save]"))
                .await
                .unwrap();
            save.click().await.unwrap();
            expect_heading(&browser, "Template saved").await;

            // The other tab submits the form it still shows: refused.
            browser.switch_to_window(second).await.unwrap();
            let area = browser.find(Locator::Id("template")).await.unwrap();
            area.send_keys("# hijacked\n{content}").await.unwrap();
            let save = browser
                .find(Locator::Css("button[value=save]"))
                .await
                .unwrap();
            save.click().await.unwrap();
            expect_heading(&browser, "This setup page is closed").await;
            // A late reload says so too, instead of failing to connect.
            browser.goto(&url).await.unwrap();
            expect_heading(&browser, "This setup page is closed").await;
            events
        };
        let (result, mut events) = tokio::join!(call(&c, "notes_setup", json!({})), user);

        // The tool call completed with what Chromium typed.
        assert_eq!(outcome(&result), Some("configured"), "{result:?}");
        let structured = result.structured_content.clone().unwrap();
        assert_eq!(structured["template"], TEMPLATE);
        let id = structured["elicitationId"].as_str().unwrap().to_owned();
        assert!(script.completed(&id, Duration::from_secs(10)).await);
        events.extend(script.take_events());
        the_one_url(&events, &id);
        assert_eq!(
            server.preferences().get().template.as_deref(),
            Some(TEMPLATE)
        );
        browser.close().await.unwrap();
    })
    .await;
}

#[tokio::test]
#[ignore = "needs Debian's chromium and chromium-driver; .ci/run runs it with --ignored"]
async fn chromium_cancel_declines_at_once() {
    bounded(async {
        let dir = tree();
        let (server, script, c) = session(dir.path()).await;
        let driver = Driver::start().await;
        let profile = tempfile::tempdir().unwrap();
        let browser = driver.chromium(profile.path()).await;
        let user = async {
            let (url, _events) = open_setup_page(&script, &browser).await;
            let area = browser.find(Locator::Id("template")).await.unwrap();
            area.send_keys("typed, then thought better of it")
                .await
                .unwrap();
            let cancel = browser
                .find(Locator::Css("button[value=cancel]"))
                .await
                .unwrap();
            cancel.click().await.unwrap();
            expect_heading(&browser, "Setup cancelled").await;
            browser.goto(&url).await.unwrap();
            expect_heading(&browser, "This setup page is closed").await;
        };
        // The page would wait 15 minutes; Cancel ends the call (BOUND).
        let (result, ()) = tokio::join!(call(&c, "notes_setup", json!({})), user);
        assert_eq!(outcome(&result), Some("declined"), "{result:?}");
        assert_eq!(result.structured_content.unwrap()["on"], "page");
        assert_eq!(server.preferences().get().template, None);
        browser.close().await.unwrap();
    })
    .await;
}
