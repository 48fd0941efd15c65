//! What one session costs a server that holds many: the memory and the
//! descriptors of `session-server` (rmcp's Streamable HTTP server, one
//! `SessionRoots` per session) with 1 and with 100 sessions, each with 10
//! roots and 100 tracked handles, against the same server with sessions
//! that declare no roots and hold nothing (what rmcp's session costs
//! without the library). Linux only (it reads `/proc`).
//!
//! ```text
//! cargo build --release -p bench-toolcall
//! target/release/session-memory [--sessions N]
//! ```
//!
//! 100 sessions of 110 descriptors need 11,000 descriptors: the program
//! raises its soft `RLIMIT_NOFILE` to the hard limit (the server inherits
//! it) and says so when the hard limit is too low.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use bench_toolcall::flag;
use mcp_script::{Connection, ScriptedClient};
use rmcp::ClientLifecycleMode;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Child;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The server's type on the client's side: it runs in another process.
#[derive(Clone, Debug)]
struct Remote;

impl rmcp::ServerHandler for Remote {}

const ROOTS: usize = 10;
const FILES_PER_ROOT: usize = 10;

/// Resident memory (KiB) and open descriptors of process `pid`.
fn usage(pid: u32) -> Result<(u64, usize), BoxError> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let rss = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .ok_or("no VmRSS in /proc/PID/status")?;
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))?.count();
    Ok((rss, fds))
}

/// `session-server`, started; its pid and URL.
async fn start(program: &Path) -> Result<(Child, String), BoxError> {
    let mut child = tokio::process::Command::new(program)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
    let mut lines = BufReader::new(child.stderr.take().ok_or("no stderr")?).lines();
    let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
        .await
        .map_err(|_| "session-server did not start within 10 s")??
        .ok_or("session-server exited")?;
    let addr = line
        .strip_prefix("listening on ")
        .ok_or_else(|| format!("unexpected first line {line:?}"))?;
    Ok((child, format!("http://{addr}/mcp")))
}

/// One session: with `roots`, its ten roots declared and 100 files held.
async fn session(url: &str, dir: Option<&Path>) -> Result<Connection<Remote>, BoxError> {
    let script = ScriptedClient::new(dir.is_some(), false);
    let uris: Vec<String> = match dir {
        Some(dir) => (0..ROOTS)
            .map(|r| format!("file://{}/r{r}", dir.display()))
            .collect(),
        None => Vec::new(),
    };
    let uri_refs: Vec<&str> = uris.iter().map(String::as_str).collect();
    script.set_root_uris(&uri_refs);
    let connection = Connection::http(url, script.clone(), ClientLifecycleMode::Initialize).await?;
    let Some(dir) = dir else {
        return Ok(connection);
    };
    if !script.roots_answered(1, Duration::from_secs(10)).await {
        return Err("the server did not list the roots within 10 s".into());
    }
    for r in 0..ROOTS {
        for f in 0..FILES_PER_ROOT {
            let path = dir.join(format!("r{r}/f{f}.txt"));
            let path = path.to_str().ok_or("a UTF-8 temporary path")?;
            let done =
                mcp_script::call(&connection.client, "hold", json!({ "path": path })).await?;
            if done.is_error == Some(true) {
                return Err(format!("hold {path} failed: {}", mcp_script::text_of(&done)).into());
            }
        }
    }
    Ok(connection)
}

/// What `sessions` sessions cost the server, against none.
struct Cost {
    rss_kib: f64,
    fds: f64,
}

/// Starts a server, measures it idle, then with one session and with
/// `sessions` sessions (each with roots and files when `tree` is given).
async fn measure(
    program: &Path,
    tree: Option<&Path>,
    sessions: usize,
) -> Result<(Cost, Cost), BoxError> {
    let (child, url) = start(program).await?;
    let pid = child.id().ok_or("session-server exited")?;
    // One session first and closed: rmcp's and the allocator's one-time
    // costs are not counted against the sessions.
    let warm = session(&url, tree.map(|t| t.join("warm")).as_deref()).await?;
    warm.close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let idle = usage(pid)?;
    let mut open = Vec::new();
    let mut one = None;
    for s in 0..sessions {
        open.push(session(&url, tree.map(|t| t.join(format!("s{s}"))).as_deref()).await?);
        if s == 0 {
            one = Some(usage(pid)?);
        }
    }
    let all = usage(pid)?;
    let one = one.ok_or("no session")?;
    let per = |(rss, fds): (u64, usize), n: usize| Cost {
        rss_kib: (rss as f64 - idle.0 as f64) / n as f64,
        fds: (fds as f64 - idle.1 as f64) / n as f64,
    };
    let result = (per(one, 1), per(all, sessions));
    for connection in open {
        connection.close().await;
    }
    drop(child);
    Ok(result)
}

/// Ten roots of ten 2 KiB files for each session (and the warm-up's).
fn build_tree(top: &Path, sessions: usize) -> std::io::Result<()> {
    let names = (0..sessions)
        .map(|s| format!("s{s}"))
        .chain(["warm".to_owned()]);
    for name in names {
        for r in 0..ROOTS {
            let dir = top.join(&name).join(format!("r{r}"));
            std::fs::create_dir_all(&dir)?;
            for f in 0..FILES_PER_ROOT {
                std::fs::write(dir.join(format!("f{f}.txt")), "x".repeat(2048))?;
            }
        }
    }
    Ok(())
}

/// Raises the soft descriptor limit to the hard one; both.
fn raise_nofile() -> (u64, u64) {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    limit.current = limit.maximum;
    let _ = setrlimit(Resource::Nofile, limit);
    let now = getrlimit(Resource::Nofile);
    (
        now.current.unwrap_or(u64::MAX),
        now.maximum.unwrap_or(u64::MAX),
    )
}

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let args: Vec<String> = std::env::args().collect();
    let sessions = flag(&args, "--sessions", 100).max(1);
    let program: PathBuf = std::env::current_exe()?.with_file_name("session-server");
    if !program.exists() {
        return Err(format!(
            "{} is missing: cargo build --release -p bench-toolcall",
            program.display()
        )
        .into());
    }
    let (soft, hard) = raise_nofile();
    let needed = (sessions * (ROOTS + ROOTS * FILES_PER_ROOT) + 256) as u64;
    if soft < needed {
        return Err(format!(
            "{sessions} sessions need about {needed} descriptors; RLIMIT_NOFILE is {soft} (hard {hard})"
        )
        .into());
    }
    let tree = tempfile::tempdir()?;
    build_tree(tree.path(), sessions)?;
    let (bare_one, bare_all) = measure(&program, None, sessions).await?;
    let (full_one, full_all) = measure(&program, Some(tree.path()), sessions).await?;
    println!(
        "Per-session cost of session-server over Streamable HTTP (release), RLIMIT_NOFILE {soft}.\n"
    );
    println!("| sessions | what each holds | memory per session | descriptors per session |");
    println!("|---:|---|---:|---:|");
    let row = |n: usize, what: &str, cost: &Cost| {
        println!(
            "| {n} | {what} | {:.0} KiB | {:.1} |",
            cost.rss_kib, cost.fds
        );
    };
    let nothing = "no roots, no handles (rmcp's session and an empty SessionRoots)";
    let full = "10 roots, 100 tracked handles";
    row(1, nothing, &bare_one);
    row(sessions, nothing, &bare_all);
    row(1, full, &full_one);
    row(sessions, full, &full_all);
    println!(
        "\nThe library's share per session ({ROOTS} roots, {} handles): {:.0} KiB and {:.1} descriptors ({sessions} sessions).",
        ROOTS * FILES_PER_ROOT,
        full_all.rss_kib - bare_all.rss_kib,
        full_all.fds - bare_all.fds
    );
    Ok(())
}
