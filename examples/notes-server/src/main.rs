//! `notes-server`: the notes MCP server over stdio (one session per
//! process), or over Streamable HTTP on loopback (many sessions in one
//! process, each with a server of its own).
//!
//! ```text
//! notes-server [--ceiling DIR]... [--ceiling-without-roots] [--read-only]
//!              [--roots-wait SECONDS] [--http IP:PORT [--session-idle SECONDS]]
//! notes-server demo [--stdio | --http]
//! ```
//!
//! `--ceiling DIR` (repeatable) bounds what any client root can grant: a
//! root above DIR is clipped to it, one outside every DIR is rejected.
//! `--ceiling-without-roots` grants the ceiling to a client that does not
//! declare the roots capability; without it such a client gets nothing. An
//! empty list from a client that declares roots always shares nothing.
//! `--read-only` makes every client root read-only: `notes_write`,
//! `notes_delete` and `notes_archive` refuse with `read_only` (and say in
//! their annotations that they change nothing); listing and reading work.
//! `demo` plays the scripted scenes against a server in this process;
//! `demo --stdio` plays them against this binary started as a child per
//! session, over stdio.
//! `--roots-wait SECONDS` bounds how long a tool call waits for the client's
//! first `roots/list` answer (default 5; then the call fails with `no_roots`).
//! `--http IP:PORT` (or `--http=IP:PORT`) serves Streamable HTTP at
//! `http://IP:PORT/mcp` instead of stdio; the address must be loopback
//! (`127.0.0.0/8`, `[::1]`; anything else exits with code 2), port 0 picks a
//! free port, and the URL is printed on stderr once the server listens.
//! `--session-idle SECONDS` ends an HTTP session after that long without a
//! message (default 1800). `demo --http` plays the scenes against this
//! binary started with `--http 127.0.0.1:0`, every session in that process.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use mcp_roots::{EmptyRoots, Roots, RootsBuilder, Writes};
use mcp_roots_rmcp::{DEFAULT_FIRST_ANSWER_WAIT, DEFAULT_LIST_TIMEOUT, SessionRoots};
use notes_server::prefs::Preferences;
use notes_server::{HttpServer, Launch, NotesServer, http};
use rmcp::ServiceExt;

const USAGE: &str = "usage: notes-server [--ceiling DIR]... [--ceiling-without-roots] \
    [--read-only] [--roots-wait SECONDS] [--http IP:PORT [--session-idle SECONDS]] \
    | notes-server demo [--stdio | --http]";

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("demo") {
        let launch = match args.get(1..).unwrap_or_default() {
            [] => Launch::InProcess,
            [flag] if flag == "--stdio" || flag == "--http" => {
                let exe = match std::env::current_exe() {
                    Ok(exe) => exe,
                    Err(err) => {
                        eprintln!("notes-server: cannot find its own executable: {err}");
                        return ExitCode::FAILURE;
                    }
                };
                if flag == "--stdio" {
                    Launch::binary(exe)
                } else {
                    match HttpServer::start(exe, &[]).await {
                        Ok(server) => Launch::Http(server),
                        Err(err) => {
                            eprintln!("notes-server: the HTTP server did not start: {err}");
                            return ExitCode::FAILURE;
                        }
                    }
                }
            }
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
    let mut writes = Writes::Allow;
    let mut wait = DEFAULT_FIRST_ANSWER_WAIT;
    let mut listen: Option<SocketAddr> = None;
    let mut idle: Option<Duration> = None;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let address = match arg.strip_prefix("--http=") {
            Some(address) => Some(address.to_owned()),
            None if arg == "--http" => args.next(),
            None => None,
        };
        if arg == "--http" || address.is_some() {
            match address.as_deref().map(http::loopback) {
                Some(Ok(addr)) => listen = Some(addr),
                Some(Err(refusal)) => {
                    eprintln!("notes-server: {refusal}");
                    return ExitCode::from(2);
                }
                None => {
                    eprintln!("{USAGE}");
                    return ExitCode::from(2);
                }
            }
            continue;
        }
        let valid = match arg.as_str() {
            "--ceiling" => args.next().map(|dir| ceiling.push(dir)).is_some(),
            "--ceiling-without-roots" => {
                empty = EmptyRoots::Ceiling;
                true
            }
            "--read-only" => {
                writes = Writes::Refuse;
                true
            }
            "--roots-wait" => match args.next().as_deref().map(seconds) {
                Some(Some(given)) => {
                    wait = given;
                    true
                }
                _ => false,
            },
            "--session-idle" => match args.next().as_deref().map(seconds) {
                Some(Some(given)) if !given.is_zero() => {
                    idle = Some(given);
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
    if idle.is_some() && listen.is_none() {
        eprintln!("notes-server: --session-idle applies to --http only");
        return ExitCode::from(2);
    }
    let mut policy = Roots::builder().empty_roots(empty).writes(writes);
    if !ceiling.is_empty() {
        eprintln!("notes-server: ceiling {ceiling:?}");
        policy = policy.ceiling(ceiling);
    }
    if let Some(addr) = listen {
        return serve_http(
            addr,
            policy,
            wait,
            idle.unwrap_or(http::DEFAULT_SESSION_IDLE),
        )
        .await;
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

/// Serves Streamable HTTP at `addr` until SIGINT or SIGTERM: a server of
/// its own, built from `policy`, for each session and stateless request.
async fn serve_http(
    addr: SocketAddr,
    policy: RootsBuilder,
    wait: Duration,
    idle: Duration,
) -> ExitCode {
    let listener = match http::bind(addr).await {
        Ok(listener) => listener,
        Err(err) => {
            eprintln!("notes-server: cannot listen on {addr}: {err}");
            return ExitCode::FAILURE;
        }
    };
    let bound = match listener.local_addr() {
        Ok(bound) => bound,
        Err(err) => {
            eprintln!("notes-server: {err}");
            return ExitCode::FAILURE;
        }
    };
    // Requests without a session (2026-07-28) share the server's
    // preferences; each session has its own.
    let request_prefs = Preferences::default();
    let sessions = move || {
        let session = SessionRoots::new(policy.clone()).with_timeouts(wait, DEFAULT_LIST_TIMEOUT);
        NotesServer::with_session(session).with_request_preferences(request_prefs.clone())
    };
    eprintln!("{}http://{bound}{}", http::LISTENING, http::PATH);
    eprintln!(
        "notes-server: a session ends on DELETE or after {} s without a message",
        idle.as_secs_f64()
    );
    match http::serve(listener, sessions, idle, stopped()).await {
        Ok(()) => {
            eprintln!("notes-server: stopped");
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("notes-server: {err}");
            ExitCode::FAILURE
        }
    }
}

/// Ends on SIGINT (Ctrl-C) or SIGTERM.
async fn stopped() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = interrupt => {}
                    _ = terminate.recv() => {}
                }
            }
            Err(_) => interrupt.await,
        }
    }
    #[cfg(not(unix))]
    interrupt.await;
}

/// A non-negative number of seconds, fractions allowed ("0.15").
fn seconds(text: &str) -> Option<Duration> {
    let value: f64 = text.parse().ok()?;
    Duration::try_from_secs_f64(value).ok()
}
