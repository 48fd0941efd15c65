//! Many sessions in one process: the built binary started with
//! `--http 127.0.0.1:0` (its port read from its stderr), spoken to by the
//! scripted rmcp client over Streamable HTTP and, for what a client library
//! would not send, by raw HTTP/1.1 requests. Fifty concurrent sessions with
//! disjoint roots never see each other's files; a roots change revokes only
//! its session's handles; forged, unknown and deleted session ids get 404; a
//! foreign `Host` or `Origin` gets 403; a 2026-07-28 request never sees the
//! roots of an earlier one; a deleted or idle session frees its roots, its
//! held notes and the question it was waiting on (the server's descriptors
//! under the tree, read from `/proc`, drop to none).
//!
//! Every wait is bounded: no test can hang, and none passes by sleeping.
#![cfg(target_os = "linux")]

mod common;

use std::future::Future;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{BINARY, at, call, listed, reason, uri};
use mcp_script::{self as client, ScriptedClient};
use notes_server::{HttpServer, Launch};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationCapability, FormElicitationCapability, Implementation,
    ProtocolVersion, RootsCapabilities,
};
use rmcp::service::RequestContext;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::{Value, json};
use tempfile::TempDir;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{Barrier, Notify};

/// No test may take longer than this.
const BOUND: Duration = Duration::from_secs(120);
/// How long a freed session may take to let its descriptors go.
const FREED_WITHIN: Duration = Duration::from_secs(10);

/// A `notes-server --http 127.0.0.1:0` process with `args`.
async fn server(args: &[&str]) -> HttpServer {
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    HttpServer::start(BINARY, &args).await.unwrap()
}

/// How many descriptors of process `pid` are open on `dir` or below it.
fn open_under(pid: u32, dir: &Path) -> usize {
    let dir = dir.canonicalize().unwrap();
    let Ok(entries) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| std::fs::read_link(entry.path()).ok())
        .filter(|target| target.starts_with(&dir))
        .count()
}

/// The resident set of process `pid`, in kB.
fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Whether `holds` becomes true within `within` (checked every 10 ms).
async fn eventually(within: Duration, mut holds: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + within;
    loop {
        if holds() {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Runs `test`, failing it if it takes longer than [`BOUND`].
async fn bounded<T>(test: impl Future<Output = T>) -> T {
    tokio::time::timeout(BOUND, test)
        .await
        .expect("the test ran too long")
}

/// Asserts that process `pid` lets go of every descriptor under `dir`
/// (within [`FREED_WITHIN`]).
async fn assert_freed(pid: u32, dir: &Path) {
    let freed = eventually(FREED_WITHIN, || open_under(pid, dir) == 0).await;
    let left = open_under(pid, dir);
    assert!(freed, "{left} descriptors left under {}", dir.display());
}

/// A temporary tree of `files` (path below it, text).
fn notes<P: AsRef<Path>, T: AsRef<str>>(files: impl IntoIterator<Item = (P, T)>) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text.as_ref()).unwrap();
    }
    dir
}

/// A client of `launch` that declares roots and forms and shares `roots`
/// (folders below `dir`).
async fn session(
    launch: &Launch,
    dir: &Path,
    roots: &[&str],
) -> (ScriptedClient, notes_server::Connection) {
    let script = ScriptedClient::new(true, true);
    let uris: Vec<String> = roots.iter().map(|r| uri(dir, r)).collect();
    script.set_roots(uris.iter().map(|u| (u.as_str(), None)));
    let connection = launch.connect(script.clone()).await.unwrap();
    (script, connection)
}

fn handle_of(result: &CallToolResult) -> u64 {
    let structured = result.structured_content.as_ref().expect("structured");
    structured["handle"]
        .as_u64()
        .unwrap_or_else(|| panic!("{result:?}"))
}

// ---------------------------------------------------------------------
// Fifty sessions at once.

const SESSIONS: usize = 50;
const ROUNDS: usize = 3;

/// What one session saw.
#[derive(Debug, Default)]
struct Tally {
    calls: usize,
    /// Results that showed another session's file: its secret, or (in a
    /// successful result) its path.
    cross_reads: usize,
    /// Reads and title lookups aimed at another session's notes.
    attempts: usize,
    failures: Vec<String>,
}

impl Tally {
    fn expect(&mut self, ok: bool, what: impl Fn() -> String) {
        if !ok {
            self.failures.push(what());
        }
    }

    /// Counts what `result` shows of sessions other than `own`.
    fn look(&mut self, own: usize, result: &CallToolResult) {
        self.calls += 1;
        let seen = format!(
            "{} {}",
            client::text_of(result),
            result.structured_content.clone().unwrap_or(Value::Null)
        );
        for other in (0..SESSIONS).filter(|&o| o != own) {
            let secret = seen.contains(&secret(other));
            // A refusal may repeat the path it was given; it must not show
            // what is in the file.
            let path =
                result.is_error != Some(true) && seen.contains(&format!("/{}/", folder(other)));
            if secret || path {
                self.cross_reads += 1;
            }
        }
    }
}

fn folder(i: usize) -> String {
    format!("s{i:02}")
}

fn secret(i: usize) -> String {
    format!("secret-{i:02}-")
}

/// One session's work, `ROUNDS` times: list, read its note by path and by
/// title, hold it open, try a neighbour's note by path and by title (both
/// refused), write a new note, read it back, list again.
async fn one_of_fifty(launch: Launch, dir: Arc<Path>, i: usize, barrier: Arc<Barrier>) -> Tally {
    let mut tally = Tally::default();
    let (_, s) = session(&launch, &dir, &[&folder(i)]).await;
    let c = &s.client;
    barrier.wait().await; // every session connected
    let own = folder(i);
    let neighbour = (i + 1) % SESSIONS;
    for round in 0..ROUNDS {
        let list = call(c, "notes_list", json!({})).await;
        tally.look(i, &list);
        let uris = listed(&list);
        tally.expect(uris.len() == 2 + round, || {
            format!("{own} round {round}: listed {uris:?}")
        });
        tally.expect(
            uris.iter()
                .all(|u| u.starts_with(&uri(&dir, &format!("{own}/")))),
            || format!("{own}: listed {uris:?}"),
        );
        let read = call(
            c,
            "notes_read",
            json!({ "path": at(&dir, &format!("{own}/note.md")) }),
        )
        .await;
        tally.look(i, &read);
        tally.expect(client::text_of(&read).contains(&secret(i)), || {
            format!("{own}: read {read:?}")
        });
        let by_title = call(c, "notes_read", json!({ "title": format!("Deep {i:02}") })).await;
        tally.look(i, &by_title);
        tally.expect(client::text_of(&by_title).contains(&secret(i)), || {
            format!("{own}: {by_title:?}")
        });
        if round == 0 {
            let held = call(c, "notes_open", json!({ "title": format!("Note {i:02}") })).await;
            tally.look(i, &held);
            tally.expect(held.is_error == Some(false), || {
                format!("{own}: open {held:?}")
            });
        }
        let theirs = at(&dir, &format!("{}/note.md", folder(neighbour)));
        let refused = call(c, "notes_read", json!({ "path": theirs })).await;
        tally.attempts += 1;
        tally.look(i, &refused);
        tally.expect(reason(&refused) == Some("outside_roots"), || {
            format!("{own}: {refused:?}")
        });
        let title = call(
            c,
            "notes_read",
            json!({ "title": format!("Note {neighbour:02}") }),
        )
        .await;
        tally.attempts += 1;
        tally.look(i, &title);
        tally.expect(reason(&title) == Some("no_match"), || {
            format!("{own}: {title:?}")
        });
        let path = at(&dir, &format!("{own}/w{round}.md"));
        let text = format!("# Written {i:02} {round}\n{}w{round}\n", secret(i));
        let written = call(c, "notes_write", json!({ "path": path, "content": text })).await;
        tally.look(i, &written);
        tally.expect(written.is_error == Some(false), || {
            format!("{own}: write {written:?}")
        });
        let back = call(c, "notes_read", json!({ "path": path })).await;
        tally.look(i, &back);
        tally.expect(client::text_of(&back) == text, || {
            format!("{own}: read back {back:?}")
        });
    }
    let last = call(c, "notes_list", json!({})).await;
    tally.look(i, &last);
    tally.expect(listed(&last).len() == 2 + ROUNDS, || {
        format!("{own}: {last:?}")
    });
    barrier.wait().await; // every session done, still open: measured
    barrier.wait().await; // measured
    tally.expect(s.close().await, || format!("{own}: closed uncleanly"));
    tally
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_concurrent_sessions_never_see_each_others_notes() {
    bounded(async {
        let files: Vec<(String, String)> = (0..SESSIONS)
            .flat_map(|i| {
                [
                    (
                        format!("{}/note.md", folder(i)),
                        format!("# Note {i:02}\n{}\n", secret(i)),
                    ),
                    (
                        format!("{}/sub/deep.md", folder(i)),
                        format!("# Deep {i:02}\n{}\n", secret(i)),
                    ),
                ]
            })
            .collect();
        let tmp = notes(files);
        let dir: Arc<Path> = Arc::from(tmp.path());
        let http = server(&[]).await;
        let pid = http.pid();
        let baseline = rss_kb(pid);
        let launch = Launch::Http(http.clone());
        let barrier = Arc::new(Barrier::new(SESSIONS + 1));
        let started = Instant::now();
        let tasks: Vec<_> = (0..SESSIONS)
            .map(|i| {
                tokio::spawn(one_of_fifty(
                    launch.clone(),
                    dir.clone(),
                    i,
                    barrier.clone(),
                ))
            })
            .collect();
        barrier.wait().await;
        let connected = started.elapsed();
        barrier.wait().await;
        let worked = started.elapsed();
        let peak = rss_kb(pid);
        let open = open_under(pid, &dir);
        barrier.wait().await;
        let mut total = Tally::default();
        for task in tasks {
            let tally = task.await.unwrap();
            total.calls += tally.calls;
            total.cross_reads += tally.cross_reads;
            total.attempts += tally.attempts;
            total.failures.extend(tally.failures);
        }
        eprintln!(
            "{SESSIONS} concurrent sessions in one process: {} tool calls, {} aimed at another \
             session's notes, {} cross-session reads; connected in {:.2} s, worked in {:.2} s; \
             server VmRSS {baseline} kB before, {peak} kB with {SESSIONS} sessions open; \
             {open} descriptors under the tree then",
            total.calls,
            total.attempts,
            total.cross_reads,
            connected.as_secs_f64(),
            (worked - connected).as_secs_f64(),
        );
        assert!(total.failures.is_empty(), "{:#?}", total.failures);
        assert_eq!(total.cross_reads, 0);
        assert_eq!(total.attempts, SESSIONS * ROUNDS * 2);
        assert_eq!(total.calls, SESSIONS * (ROUNDS * 7 + 2));
        // Each session holds its root and its held note open.
        assert!(
            open >= 2 * SESSIONS,
            "{open} descriptors with {SESSIONS} sessions open"
        );
        // Every session deleted: every root and held note closed.
        assert_freed(pid, &dir).await;
    })
    .await;
}

// ---------------------------------------------------------------------
// Roots changes, held notes, endings.

#[tokio::test]
async fn a_roots_change_revokes_only_that_sessions_handles() {
    bounded(async {
        let tmp = notes(
            ["a", "a2", "b", "c"]
                .map(|f| (format!("{f}/note.md"), format!("# Note {f}\nof {f}\n"))),
        );
        let dir = tmp.path();
        let http = server(&[]).await;
        let launch = Launch::Http(http.clone());
        let mut sessions = Vec::new();
        for folder in ["a", "b", "c"] {
            let (script, s) = session(&launch, dir, &[folder]).await;
            let opened = call(
                &s.client,
                "notes_open",
                json!({ "title": format!("Note {folder}") }),
            )
            .await;
            // Numbers are per session: each session's first note is 1.
            assert_eq!(handle_of(&opened), 1, "{opened:?}");
            sessions.push((folder, script, s));
        }
        for folder in ["a", "b", "c"] {
            assert!(
                open_under(http.pid(), &dir.join(folder)) >= 2,
                "{folder}: root and held note"
            );
        }
        // The client of a stops sharing a, shares a2, and says so.
        let (_, script, a) = &sessions[0];
        script.set_root_uris(&[&uri(dir, "a2")]);
        a.client.notify_roots_list_changed().await.unwrap();
        assert!(script.roots_answered(2, Duration::from_secs(10)).await);
        let lost = call(&a.client, "notes_read", json!({ "handle": 1 })).await;
        assert_eq!(reason(&lost), Some("scope_lost"), "{lost:?}");
        let new = call(&a.client, "notes_read", json!({ "title": "Note a2" })).await;
        assert_eq!(client::text_of(&new), "# Note a2\nof a2\n");
        for (folder, _, s) in &sessions[1..] {
            let kept = call(&s.client, "notes_read", json!({ "handle": 1 })).await;
            assert_eq!(
                client::text_of(&kept),
                format!("# Note {folder}\nof {folder}\n"),
                "{kept:?}"
            );
            assert!(
                open_under(http.pid(), &dir.join(folder)) >= 2,
                "{folder} still open"
            );
        }
        // a's root and held note are closed.
        assert_freed(http.pid(), &dir.join("a")).await;
        for (_, _, s) in sessions {
            assert!(s.close().await);
        }
        assert_freed(http.pid(), dir).await;
    })
    .await;
}

#[tokio::test]
async fn an_idle_session_ends_and_frees_what_it_held() {
    bounded(async {
        let tmp = notes([("Notes/a.md", "# A\n")]);
        let dir = tmp.path();
        let http = server(&["--session-idle", "0.5"]).await;
        let launch = Launch::Http(http.clone());
        let (_, s) = session(&launch, dir, &["Notes"]).await;
        let opened = call(&s.client, "notes_open", json!({ "title": "A" })).await;
        assert_eq!(opened.is_error, Some(false), "{opened:?}");
        assert!(open_under(http.pid(), dir) >= 2);
        // Nothing is sent: the session ends by itself, and with it the root
        // and the held note.
        assert_freed(http.pid(), dir).await;
        // The session is gone: the client's next call fails (the client does
        // not silently start a new session).
        let after = client::call(&s.client, "notes_list", json!({})).await;
        assert!(after.is_err(), "{after:?}");
    })
    .await;
}

/// A client that declares roots and forms, answers `roots/list` with one
/// root, and never answers a form (it says it was asked, then waits).
#[derive(Clone)]
struct Undecided {
    root: String,
    asked: Arc<Notify>,
}

impl ClientHandler for Undecided {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.roots = Some(RootsCapabilities::default());
        let form = FormElicitationCapability::new();
        capabilities.elicitation = Some(ElicitationCapability::new().with_form(form));
        ClientConfig::new(capabilities, Implementation::new("undecided", "0"))
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    #[allow(deprecated)] // roots are how 2025-11-25 shares folders
    async fn list_roots(
        &self,
        _cx: RequestContext<RoleClient>,
    ) -> Result<rmcp::model::ListRootsResult, ErrorData> {
        let root = rmcp::model::Root::new(self.root.clone());
        Ok(rmcp::model::ListRootsResult::new(vec![root]))
    }

    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _cx: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked.notify_one();
        std::future::pending().await
    }
}

#[tokio::test]
async fn a_deleted_session_drops_its_pending_question_and_closes_everything() {
    bounded(async {
        let tmp = notes(
            ["2023", "2024", "2025"]
                .map(|y| (format!("Notes/{y}/tps.md"), format!("# TPS report\n{y}\n"))),
        );
        let dir = tmp.path();
        let http = server(&[]).await;
        let asked = Arc::new(Notify::new());
        let handler = Undecided {
            root: uri(dir, "Notes"),
            asked: asked.clone(),
        };
        let mut config = StreamableHttpClientTransportConfig::with_uri(http.url());
        config.reinit_on_expired_session = false;
        let transport = StreamableHttpClientTransport::from_config(config);
        let c = handler.serve(transport).await.unwrap();
        let peer = c.peer().clone();
        // Three matches: the server asks which one, and waits.
        let pending = tokio::spawn(async move {
            let args = json!({ "title": "TPS report" });
            let params = CallToolRequestParams::new("notes_delete")
                .with_arguments(args.as_object().unwrap().clone());
            peer.call_tool(params).await
        });
        asked.notified().await;
        assert!(
            open_under(http.pid(), dir) >= 1,
            "the session's root is open"
        );
        // The client ends its session (DELETE) with the question unanswered.
        // The server's side of the session stops: rmcp lets the tool call
        // finish for up to 5 s, then cancels it, and the question goes with
        // it.
        let _ = c.cancel().await;
        let ended = pending.await.unwrap();
        assert!(ended.is_err(), "{ended:?}");
        // Nothing left: the question no longer holds the session.
        assert_freed(http.pid(), dir).await;

        for y in ["2023", "2024", "2025"] {
            assert!(
                dir.join(format!("Notes/{y}/tps.md")).exists(),
                "{y} deleted"
            );
        }
    })
    .await;
}

// ---------------------------------------------------------------------
// Session ids, Host and Origin, over raw HTTP/1.1.

/// A response's status and headers (names in lower case).
#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        let found = self.headers.iter().find(|(n, _)| n == name);
        found.map(|(_, value)| value.as_str())
    }
}

/// Sends one request to the server's MCP endpoint with `headers` (a
/// `Host` naming the server unless one is given) and `body`; its status
/// and headers (the body is not read).
async fn raw(addr: SocketAddr, method: &str, headers: &[(&str, &str)], body: &str) -> Reply {
    let mut request = format!("{method} /mcp HTTP/1.1\r\n");
    if !headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("host"))
    {
        request.push_str(&format!("Host: {addr}\r\n"));
    }
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("Content-Type: application/json\r\n");
    request.push_str("Accept: application/json, text/event-stream\r\n");
    request.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ));
    let exchange = async {
        let mut stream = tokio::net::TcpStream::connect(addr).await?;
        stream.write_all(request.as_bytes()).await?;
        let mut seen = Vec::new();
        let mut buffer = [0u8; 4096];
        while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = stream.read(&mut buffer).await?;
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buffer[..n]);
        }
        Ok::<_, std::io::Error>(seen)
    };
    let seen = tokio::time::timeout(Duration::from_secs(10), exchange)
        .await
        .expect("answered in time")
        .unwrap();
    let text = String::from_utf8_lossy(&seen);
    let head = text.split("\r\n\r\n").next().unwrap_or_default();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok());
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    Reply {
        status: status.unwrap_or_else(|| panic!("no status line in {text:?}")),
        headers,
    }
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const TOOLS_LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

/// A session opened by hand: its id.
async fn open_session(addr: SocketAddr) -> String {
    let reply = raw(addr, "POST", &[], INITIALIZE).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let id = reply
        .header("mcp-session-id")
        .expect("a session id")
        .to_owned();
    let session = [("Mcp-Session-Id", id.as_str())];
    let initialized = raw(addr, "POST", &session, INITIALIZED).await;
    assert_eq!(initialized.status, 202, "{initialized:?}");
    id
}

#[tokio::test]
async fn forged_unknown_and_deleted_session_ids_are_refused() {
    bounded(async {
        let http = server(&[]).await;
        let addr = http.addr();
        let id = open_session(addr).await;
        let other = open_session(addr).await;
        assert_ne!(id, other);
        let with = |id: &str| [("Mcp-Session-Id", id.to_owned())];
        let listed = |id: &str| {
            let headers = with(id);
            async move {
                let headers: Vec<(&str, &str)> =
                    headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
                raw(addr, "POST", &headers, TOOLS_LIST).await.status
            }
        };
        assert_eq!(listed(&id).await, 200);
        // Ids nobody was given.
        let mut forged = id.clone();
        let last = forged.pop().unwrap();
        forged.push(if last == '0' { '1' } else { '0' });
        for unknown in [
            forged.as_str(),
            "forged",
            "00000000-0000-0000-0000-000000000000",
        ] {
            assert_eq!(listed(unknown).await, 404, "{unknown}");
        }
        // Ended by its client: the id is refused from then on, on every method.
        let deleted = raw(addr, "DELETE", &[("Mcp-Session-Id", id.as_str())], "").await;
        // 200, not rmcp's 202 (which the Python SDK takes for a failure).
        assert_eq!(deleted.status, 200, "{deleted:?}");
        assert_eq!(listed(&id).await, 404);
        let get = raw(addr, "GET", &[("Mcp-Session-Id", id.as_str())], "").await;
        assert_eq!(get.status, 404, "{get:?}");
        let again = raw(addr, "DELETE", &[("Mcp-Session-Id", id.as_str())], "").await;
        assert_eq!(again.status, 404, "{again:?}");
        // The other session is untouched.
        assert_eq!(listed(&other).await, 200);
    })
    .await;
}

#[tokio::test]
async fn a_delete_of_an_unknown_or_ended_session_gets_404() {
    bounded(async {
        let http = server(&[]).await;
        let addr = http.addr();
        let delete = |headers: Vec<(&'static str, String)>| async move {
            let headers: Vec<(&str, &str)> =
                headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
            raw(addr, "DELETE", &headers, "").await.status
        };
        let id = open_session(addr).await;
        let other = open_session(addr).await;
        let mut forged = id.clone();
        let last = forged.pop().unwrap();
        forged.push(if last == '0' { '1' } else { '0' });
        // Ids nobody was given.
        for unknown in [
            forged.as_str(),
            "forged",
            "00000000-0000-0000-0000-000000000000",
        ] {
            let status = delete(vec![("Mcp-Session-Id", unknown.to_owned())]).await;
            assert_eq!(status, 404, "{unknown}");
        }
        // No id at all: the spec's 400 for a request that needs a session.
        assert_eq!(delete(vec![]).await, 400);
        // rmcp's own checks still come first: a foreign page gets 403, for
        // a session that exists or not alike.
        for which in [forged.as_str(), id.as_str()] {
            let headers = vec![
                ("Mcp-Session-Id", which.to_owned()),
                ("Origin", "http://evil.example".to_owned()),
            ];
            assert_eq!(delete(headers).await, 403, "{which}");
        }
        // A live session ends once: the id is unknown from then on.
        let status = delete(vec![("Mcp-Session-Id", id.clone())]).await;
        assert_eq!(status, 200, "{status}");
        for _ in 0..2 {
            assert_eq!(delete(vec![("Mcp-Session-Id", id.clone())]).await, 404);
        }
        let listed = raw(addr, "POST", &[("Mcp-Session-Id", id.as_str())], TOOLS_LIST).await;
        assert_eq!(listed.status, 404, "{listed:?}");
        // The other session was not ended by any of it.
        let listed = raw(
            addr,
            "POST",
            &[("Mcp-Session-Id", other.as_str())],
            TOOLS_LIST,
        )
        .await;
        assert_eq!(listed.status, 200, "{listed:?}");
        let status = delete(vec![("Mcp-Session-Id", other.clone())]).await;
        assert_eq!(status, 200, "{status}");
    })
    .await;
}

#[tokio::test]
async fn a_foreign_host_or_origin_is_forbidden() {
    bounded(async {
        let http = server(&[]).await;
        let addr = http.addr();
        let port = addr.port();
        let own = format!("127.0.0.1:{port}");
        let localhost = format!("localhost:{port}");
        let other_port = format!("127.0.0.1:{}", port.wrapping_add(1).max(1));
        let forbidden = 403;
        let cases = [
            // DNS rebinding: the browser sends the attacker's name as Host.
            ("Host", "evil.example".to_owned(), forbidden),
            ("Host", format!("evil.example:{port}"), forbidden),
            ("Host", other_port, forbidden),
            ("Host", "0.0.0.0".to_owned(), forbidden),
            ("Host", own, 200),
            ("Host", localhost, 200),
            // A page elsewhere: its Origin.
            ("Origin", "http://evil.example".to_owned(), forbidden),
            ("Origin", "https://evil.example:443".to_owned(), forbidden),
            ("Origin", "null".to_owned(), forbidden),
            (
                "Origin",
                "http://127.0.0.1.evil.example".to_owned(),
                forbidden,
            ),
            ("Origin", "http://localhost:5173".to_owned(), 200),
            ("Origin", "http://127.0.0.1".to_owned(), 200),
            ("Origin", "http://[::1]:8080".to_owned(), 200),
        ];
        for (header, value, status) in cases {
            let reply = raw(addr, "POST", &[(header, &value)], INITIALIZE).await;
            assert_eq!(reply.status, status, "{header}: {value}");
        }
        // The checks come before the session: a valid id does not help.
        let id = open_session(addr).await;
        let reply = raw(
            addr,
            "POST",
            &[("Mcp-Session-Id", &id), ("Origin", "http://evil.example")],
            TOOLS_LIST,
        )
        .await;
        assert_eq!(reply.status, 403);
    })
    .await;
}

// ---------------------------------------------------------------------
// 2026-07-28: every request stands alone.

#[tokio::test]
async fn a_2026_request_never_sees_the_roots_of_an_earlier_one() {
    bounded(async {
        let tmp = notes([("A/a.md", "# A\nof A\n"), ("B/b.md", "# B\nof B\n")]);
        let dir = tmp.path();
        let http = server(&[]).await;
        let launch = Launch::Http(http.clone());
        let script = ScriptedClient::new(true, true).speaking(ProtocolVersion::V_2026_07_28);
        let s = launch.connect_modern(script.clone()).await.unwrap();
        let c = &s.client;
        let read = |rel: &str| json!({ "path": at(dir, rel) });
        script.set_root_uris(&[&uri(dir, "A")]);
        let a = call(c, "notes_read", read("A/a.md")).await;
        assert_eq!(client::text_of(&a), "# A\nof A\n", "{a:?}");
        script.set_root_uris(&[&uri(dir, "B")]);
        let b = call(c, "notes_read", read("B/b.md")).await;
        assert_eq!(client::text_of(&b), "# B\nof B\n", "{b:?}");
        // The roots for A came with an earlier request: this one brought B's.
        let again = call(c, "notes_read", read("A/a.md")).await;
        assert_eq!(reason(&again), Some("outside_roots"), "{again:?}");
        assert!(!client::text_of(&again).contains("of A"));
        let listing = listed(&call(c, "notes_list", json!({})).await);
        assert_eq!(listing, [uri(dir, "B/b.md")]);
        // Nothing stays open between requests.
        let open = call(c, "notes_open", json!({ "title": "B" })).await;
        assert_eq!(reason(&open), Some("not_on_this_revision"));
        assert_freed(http.pid(), dir).await;
        assert!(s.close().await);
    })
    .await;
}

#[tokio::test]
async fn a_template_set_up_on_2026_serves_later_requests_not_sessions() {
    bounded(async {
        let dir = common::tree();
        let http = server(&[]).await;
        let launch = Launch::Http(http.clone());
        let script = ScriptedClient::new(true, true)
            .with_url_mode()
            .speaking(ProtocolVersion::V_2026_07_28);
        script.set_root_uris(&[&uri(dir.path(), "Notes")]);
        let s = launch.connect_modern(script.clone()).await.unwrap();
        common::queue_submission(&script, dir.path());
        let result = call(&s.client, "notes_setup", json!({})).await;
        script.browsed().await;
        common::configured(&result);
        // Every request has a server of its own; the template is the
        // process's for such requests, so a later one uses it. A session
        // keeps its own preferences: none were set there.
        let (_, legacy) = session(&launch, dir.path(), &["Notes"]).await;
        for (c, name, templated, text) in [
            (&s.client, "ideas", true, "---\nnote: ideas\n---\n# Ideas\n"),
            (&legacy.client, "plain", false, "# Plain\n"),
        ] {
            let path = at(dir.path(), &format!("Notes/{name}.md"));
            let content = text.rsplit("---\n").next().unwrap();
            let written = call(
                c,
                "notes_write",
                json!({ "path": path, "content": content }),
            )
            .await;
            assert_eq!(written.structured_content.unwrap()["template"], templated);
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        }
    })
    .await;
}
