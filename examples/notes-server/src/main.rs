//! `notes-server`: the notes MCP server over stdio, one session per process.
//!
//! ```text
//! notes-server [--ceiling DIR]... [--ceiling-without-roots] [--roots-wait SECONDS]
//! notes-server demo [--stdio]
//! ```
//!
//! `--ceiling DIR` (repeatable) bounds what any client root can grant: a
//! root above DIR is clipped to it, one outside every DIR is rejected.
//! `--ceiling-without-roots` grants the ceiling to a client that does not
//! declare the roots capability; without it such a client gets nothing. An
//! empty list from a client that declares roots always shares nothing.
//! `demo` plays the scripted scenes against a server in this process;
//! `demo --stdio` plays them against this binary started as a child per
//! session, over stdio.
//! `--roots-wait SECONDS` bounds how long a tool call waits for the client's
//! first `roots/list` answer (default 5; then the call fails with `no_roots`).

use std::process::ExitCode;

use std::time::Duration;

use mcp_roots::{EmptyRoots, Roots};
use mcp_roots_rmcp::{DEFAULT_FIRST_ANSWER_WAIT, DEFAULT_LIST_TIMEOUT, SessionRoots};
use notes_server::Launch;
use notes_server::NotesServer;
use rmcp::ServiceExt;

const USAGE: &str = "usage: notes-server [--ceiling DIR]... [--ceiling-without-roots] \
    [--roots-wait SECONDS] | notes-server demo [--stdio]";

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("demo") {
        let launch = match args.get(1..).unwrap_or_default() {
            [] => Launch::InProcess,
            [flag] if flag == "--stdio" => match std::env::current_exe() {
                Ok(exe) => Launch::binary(exe),
                Err(err) => {
                    eprintln!("notes-server: cannot find its own executable: {err}");
                    return ExitCode::FAILURE;
                }
            },
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        };
        let ok = notes_server::demo::run_with(launch).await;
        return if ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    let mut ceiling = Vec::new();
    let mut empty = EmptyRoots::DenyAll;
    let mut wait = DEFAULT_FIRST_ANSWER_WAIT;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let valid = match arg.as_str() {
            "--ceiling" => args.next().map(|dir| ceiling.push(dir)).is_some(),
            "--ceiling-without-roots" => {
                empty = EmptyRoots::Ceiling;
                true
            }
            "--roots-wait" => match args.next().as_deref().map(seconds) {
                Some(Some(given)) => {
                    wait = given;
                    true
                }
                _ => false,
            },
            _ => false,
        };
        if !valid {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    }
    let mut policy = Roots::builder().empty_roots(empty);
    if !ceiling.is_empty() {
        eprintln!("notes-server: ceiling {ceiling:?}");
        policy = policy.ceiling(ceiling);
    }
    let session = SessionRoots::new(policy).with_timeouts(wait, DEFAULT_LIST_TIMEOUT);
    // stdout carries JSON-RPC: everything else goes to stderr.
    let server = match NotesServer::with_session(session)
        .serve(rmcp::transport::stdio())
        .await
    {
        Ok(server) => server,
        Err(err) => {
            eprintln!("notes-server: initialize failed: {err}");
            return ExitCode::FAILURE;
        }
    };
    match server.waiting().await {
        Ok(reason) => {
            eprintln!("notes-server: session ended ({reason:?})");
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("notes-server: {err}");
            ExitCode::FAILURE
        }
    }
}

/// A non-negative number of seconds, fractions allowed ("0.15").
fn seconds(text: &str) -> Option<Duration> {
    let value: f64 = text.parse().ok()?;
    Duration::try_from_secs_f64(value).ok()
}
