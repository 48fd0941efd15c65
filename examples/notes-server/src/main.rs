//! `notes-server`: the notes MCP server over stdio (one session per
//! process), or over Streamable HTTP on loopback (many sessions in one
//! process, each with a server of its own).
//!
//! ```text
//! notes-server [--ceiling DIR]... [--ceiling-without-roots] [--read-only]
//!              [--roots-wait SECONDS] [--http IP:PORT [--session-idle SECONDS]]
//! notes-server demo [--stdio | --http]
//! notes-server --help | --version
//! ```
//!
//! The options are [`notes_server::cli`]'s (`--help` prints them). A bad
//! argument is a usage error naming it (exit code 2): a `--ceiling` that is
//! not an absolute path to an existing directory, an `--http` address that
//! is not loopback, a malformed number of seconds. stdout carries the
//! protocol; the log goes to stderr, filtered by `RUST_LOG` (default
//! `info`: every denial, roots change and revocation, inside its tool
//! call's span). `demo` plays the scripted scenes against a server in this
//! process; `demo --stdio` against this binary started as a child per
//! session, over stdio; `demo --http` against this binary started with
//! `--http 127.0.0.1:0`, every session in that process.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use mcp_roots::{Roots, RootsBuilder};
use mcp_roots_rmcp::{DEFAULT_LIST_TIMEOUT, SessionRoots};
use notes_server::cli::{Cli, Command, DemoArgs, ServeArgs};
use notes_server::prefs::Preferences;
use notes_server::{HttpServer, Launch, NotesServer, http, log};
use rmcp::ServiceExt;
use tracing_subscriber::filter::LevelFilter;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    // The demo's transcript is its story: its log says only what went wrong.
    let level = match cli.command {
        Some(Command::Demo(_)) => LevelFilter::WARN,
        None => LevelFilter::INFO,
    };
    if let Err(err) = log::init(level) {
        eprintln!("notes-server: {err}");
        return ExitCode::from(2);
    }
    match cli.command {
        Some(Command::Demo(demo)) => play(demo).await,
        None => serve(cli.serve).await,
    }
}

/// Plays the demo where `args` says; success only if every check passed.
async fn play(args: DemoArgs) -> ExitCode {
    let launch = if args.stdio || args.http {
        let exe = match std::env::current_exe() {
            Ok(exe) => exe,
            Err(err) => {
                eprintln!("notes-server: cannot find its own executable: {err}");
                return ExitCode::FAILURE;
            }
        };
        if args.stdio {
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
    } else {
        Launch::InProcess
    };
    if notes_server::demo::run_with(launch).await {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Serves one session over stdio, or sessions over `--http`.
async fn serve(args: ServeArgs) -> ExitCode {
    let mut policy = Roots::builder()
        .empty_roots(args.empty_roots())
        .writes(args.writes());
    if args.read_only {
        tracing::info!("every client root is read-only");
    }
    if !args.hide.is_empty() || !args.read_only_pattern.is_empty() {
        tracing::info!(hide = ?args.hide, read_only = ?args.read_only_pattern, "parts of every root are hidden or read-only");
        policy = policy.hide(args.hidden()).read_only(args.protected());
    }
    if !args.ceiling.is_empty() {
        tracing::info!(ceiling = ?args.ceiling, "every client root is bounded by the ceiling");
        policy = policy.ceiling(args.ceiling.iter().cloned());
    }
    let wait = args.roots_wait;
    if let Some(addr) = args.http {
        let idle = args.session_idle.unwrap_or(http::DEFAULT_SESSION_IDLE);
        return serve_http(addr, policy, wait, idle).await;
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
            tracing::info!(?reason, "session ended");
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
