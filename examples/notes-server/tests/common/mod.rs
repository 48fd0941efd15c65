//! Helpers shared by the end-to-end tests: the notes tree, paths, and
//! reading tool results.
#![allow(dead_code)] // each test crate uses its own part

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

pub(crate) use mcp_script::Client;
use mcp_script::browser::{Step, Visit, browse};
use mcp_script::{self as client, Event, ScriptedClient, UrlAnswer};
use notes_server::{Connection, HttpServer, Launch, NotesServer, SETUP_MESSAGE};
use rmcp::model::{CallToolResult, ElicitationAction};
use serde_json::{Value, json};

/// Notes/{2023,2024,2025}/tps.md titled "TPS report", Notes/meeting.md,
/// Work/plan.md, Journal/today.md, Secret/passwords.md and a symlink
/// Notes/passwords.md pointing at it.
pub(crate) fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in [
        ("Notes/2023/tps.md", "# TPS report\n2023\n"),
        ("Notes/2024/tps.md", "# TPS report\n2024\n"),
        ("Notes/2025/tps.md", "# TPS report\n2025\n"),
        ("Notes/meeting.md", "# Meeting notes\nMonday\n"),
        ("Work/plan.md", "# Project plan\n"),
        ("Journal/today.md", "no heading\n"),
        ("Secret/passwords.md", "hunter2\n"),
    ] {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let secret = dir.path().join("Secret/passwords.md");
    std::os::unix::fs::symlink(secret, dir.path().join("Notes/passwords.md")).unwrap();
    dir
}

/// The built server binary.
pub(crate) const BINARY: &str = env!("CARGO_BIN_EXE_notes-server");

/// The built server binary, started once per session, over stdio.
pub(crate) fn binary() -> Launch {
    Launch::binary(BINARY)
}

/// How the end-to-end tests reach the built binary.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Transport {
    /// A child process per session, over stdio.
    Stdio,
    /// One `notes-server --http 127.0.0.1:0` process, a session per client.
    Http,
}

impl Transport {
    /// Where the sessions of a server started with `args` run (over HTTP
    /// the server starts now, and stops when the last clone is dropped).
    pub(crate) async fn launch(self, args: &[&str]) -> Launch {
        match self {
            Self::Stdio => binary().with_args(args.iter().copied()),
            Self::Http => {
                let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
                Launch::Http(HttpServer::start(BINARY, &args).await.unwrap())
            }
        }
    }
}

/// A session of `launch`: its client declares roots (the given subfolders
/// of `dir`) if `declare_roots`, and form elicitation if `forms`.
pub(crate) async fn spawn(
    launch: &Launch,
    dir: &Path,
    roots: &[&str],
    declare_roots: bool,
    forms: bool,
) -> (ScriptedClient, Connection) {
    let script = ScriptedClient::new(declare_roots, forms);
    let uris: Vec<String> = roots.iter().map(|r| uri(dir, r)).collect();
    script.set_roots(uris.iter().map(|u| (u.as_str(), None)));
    let session = launch.connect(script.clone()).await.unwrap();
    (script, session)
}

/// The absolute path of `rel` in the tree.
pub(crate) fn at(dir: &Path, rel: &str) -> String {
    format!("{}/{rel}", dir.display())
}

/// The `file://` URI of `rel` in the tree.
pub(crate) fn uri(dir: &Path, rel: &str) -> String {
    format!("file://{}", at(dir, rel))
}

/// Calls `tool`; transport failures panic.
pub(crate) async fn call(client: &Client, tool: &'static str, args: Value) -> CallToolResult {
    client::call(client, tool, args).await.unwrap()
}

pub(crate) fn reason(result: &CallToolResult) -> Option<&str> {
    result.structured_content.as_ref()?["reason"].as_str()
}

pub(crate) fn outcome(result: &CallToolResult) -> Option<&str> {
    result.structured_content.as_ref()?["outcome"].as_str()
}

/// How many forms the client was shown since the last look.
pub(crate) fn forms(script: &ScriptedClient) -> usize {
    count(&script.take_events(), |e| matches!(e, Event::Form { .. }))
}

pub(crate) fn count(events: &[Event], what: impl Fn(&Event) -> bool) -> usize {
    events.iter().filter(|e| what(e)).count()
}

/// The URIs of a `notes_list` result.
pub(crate) fn listed(result: &CallToolResult) -> Vec<String> {
    let notes = result
        .structured_content
        .as_ref()
        .map(|s| s["notes"].clone());
    notes
        .and_then(|n| n.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|n| n["uri"].as_str().map(str::to_owned))
        .collect()
}

/// The template the setup tests type into the page.
pub(crate) const TEMPLATE: &str = "---\nnote: {title}\n---\n{content}";

/// The URL elicitations among `events`: (url, id, action).
pub(crate) fn urls(events: &[Event]) -> Vec<(String, String, ElicitationAction)> {
    let urls = events.iter().filter_map(|e| match e {
        Event::Url {
            url,
            elicitation_id,
            action,
            ..
        } => Some((url.clone(), elicitation_id.clone(), action.clone())),
        _ => None,
    });
    urls.collect()
}

pub(crate) fn statuses(events: &[Event]) -> Vec<u16> {
    let visits = events.iter().filter_map(|e| match e {
        Event::Http(visit) => Some(visit.status),
        _ => None,
    });
    visits.collect()
}

/// What the page at `url` answers a reload with.
pub(crate) async fn reload(url: &str) -> Visit {
    let mut visits = Vec::new();
    browse(url, &[Step::open()], |v| visits.push(v)).await;
    visits.pop().expect("one visit")
}

/// Whether the page at `url` says, within `within`, that it is closed
/// (`410`, a heading that says so), as a late reload sees it.
pub(crate) async fn says_closed(url: &str, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    loop {
        let visit = reload(url).await;
        if visit.status == 410 && visit.heading == "This setup page is closed" {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

pub(crate) fn addr_of(url: &str) -> SocketAddr {
    let url = url::Url::parse(url).unwrap();
    format!("127.0.0.1:{}", url.port().unwrap())
        .parse()
        .unwrap()
}

/// Queues the scripted user's visit to the setup page: open it, submit
/// [`TEMPLATE`] with fields that name folders (the page must ignore them).
pub(crate) fn queue_submission(script: &ScriptedClient, dir: &Path) {
    script.answer_url(UrlAnswer::Accept(vec![
        Step::open(),
        Step::submit(&[
            ("template", TEMPLATE),
            ("roots", &uri(dir, "")),
            ("ceiling", "/"),
        ]),
    ]));
}

/// Checks that `notes_setup` set [`TEMPLATE`] and ignored the folder
/// fields; its `elicitationId`.
pub(crate) fn configured(result: &CallToolResult) -> String {
    let structured = result.structured_content.clone().unwrap();
    assert_eq!(outcome(result), Some("configured"), "{result:?}");
    assert_eq!(structured["template"], TEMPLATE);
    assert_eq!(structured["ignored"], json!(["ceiling", "roots"]));
    structured["elicitationId"].as_str().unwrap().to_owned()
}

/// The one URL elicitation among `events`: for `id`, to the setup page on
/// 127.0.0.1, with the setup message. Its URL.
pub(crate) fn the_one_url(events: &[Event], id: &str) -> String {
    let asked = urls(events);
    assert_eq!(asked.len(), 1, "{events:?}");
    let (url, asked_id, _) = &asked[0];
    assert_eq!(asked_id, id);
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Url { message, .. } if message == SETUP_MESSAGE))
    );
    url.clone()
}

/// After setup: [`TEMPLATE`] is the preference, the client's folders are
/// still the only ones (Work is not shared), and a new note gets the
/// template.
pub(crate) async fn the_template_serves(client: &Client, server: &NotesServer, dir: &Path) {
    assert_eq!(
        server.preferences().get().template.as_deref(),
        Some(TEMPLATE)
    );
    let plan = json!({ "path": at(dir, "Work/plan.md") });
    assert_eq!(
        reason(&call(client, "notes_read", plan).await),
        Some("outside_roots")
    );
    let new = json!({ "path": at(dir, "Notes/ideas.md"), "content": "# Ideas\n" });
    let written = call(client, "notes_write", new).await;
    assert_eq!(written.structured_content.unwrap()["template"], true);
    assert_eq!(
        std::fs::read_to_string(dir.join("Notes/ideas.md")).unwrap(),
        "---\nnote: ideas\n---\n# Ideas\n"
    );
}
