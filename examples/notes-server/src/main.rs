//! `notes-server`: the notes MCP server over stdio (one session per
//! process), or over Streamable HTTP on loopback (many sessions in one
//! process, each with a server of its own).
//!
//! ```text
//! notes-server [--ceiling DIR]... [--ask-within DIR]... [--ceiling-without-roots] [--read-only]
//!              [--roots-wait SECONDS] [--http IP:PORT [--session-idle SECONDS]]
//!              [--state redis://HOST:PORT] [--state-key-file PATH] [--url-wait SECONDS]
//!              [--setup-listen IP:PORT [--setup-url URL]]
//!              [--confine[=required]]
//! notes-server demo [--stdio [--confine[=required]] | --http]
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
//!
//! `main` is a plain function: it parses the command line, installs the
//! log, builds the policy and, with `--confine`, confines the process
//! ([`notes_server::confine`]) while it still has one thread; only then
//! does it build the tokio runtime, whose workers and blocking pool (where
//! the tool bodies run) are confined from birth. An attribute such as
//! `tokio::main` would have started them before any of this.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use mcp_roots::{Confinement, Roots, RootsBuilder};
use mcp_roots_rmcp::{DEFAULT_LIST_TIMEOUT, Rounds, SessionRoots};
use notes_server::cli::{Cli, Command, DemoArgs, ServeArgs};
use notes_server::prefs::Preferences;
use notes_server::{HttpServer, Launch, NotesServer, deployment, http, log, page};
use rmcp::ServiceExt;
use tracing_subscriber::filter::LevelFilter;

fn main() -> ExitCode {
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
    // Read before confinement: it looks at cgroup files outside the ceiling.
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let serving = match cli.command {
        Some(Command::Demo(demo)) => Serving::Demo(demo),
        None => {
            let policy = policy(&cli.serve);
            if let Some(mode) = cli.serve.confine
                && let Err(err) = notes_server::confine::process(&policy, mode)
            {
                eprintln!("notes-server: {err}");
                return ExitCode::FAILURE;
            }
            Serving::Serve(Box::new((cli.serve, policy)))
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build();
    let runtime = match runtime {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("notes-server: cannot start the runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        match serving {
            Serving::Demo(demo) => play(demo).await,
            Serving::Serve(serving) => {
                let (args, policy) = *serving;
                serve(args, policy).await
            }
        }
    })
}

/// What `main` runs once the runtime is up.
enum Serving {
    Demo(DemoArgs),
    Serve(Box<(ServeArgs, RootsBuilder)>),
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
            let confine = args.confine.map(|mode| match mode {
                Confinement::Required => "--confine=required",
                _ => "--confine",
            });
            Launch::binary(exe).with_args(confine)
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

/// The operator's policy, from the command line.
fn policy(args: &ServeArgs) -> RootsBuilder {
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
    if !args.ask_within.is_empty() {
        tracing::info!(area = ?args.ask_within, "the user may be asked for access beneath these folders");
        policy = policy.ask_within(args.ask_within.iter().cloned());
    }
    policy
}

/// Serves one session over stdio, or sessions over `--http`.
async fn serve(args: ServeArgs, policy: RootsBuilder) -> ExitCode {
    let wait = args.roots_wait;
    let rounds = match deployment::rounds(
        args.state.as_deref(),
        args.state_key_file.as_deref(),
        args.url_wait,
    )
    .await
    {
        Ok(rounds) => rounds,
        Err(err) => {
            eprintln!("notes-server: {err}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(addr) = args.http {
        let idle = args.session_idle.unwrap_or(http::DEFAULT_SESSION_IDLE);
        let page = match shared_page(&args, &rounds).await {
            Ok(page) => page,
            Err(err) => {
                eprintln!("notes-server: {err}");
                return ExitCode::FAILURE;
            }
        };
        return serve_http(addr, policy, rounds, page, wait, idle).await;
    }
    // Over stdio this process serves one client: it is the session, on
    // 2026-07-28 too (a first empty list is served as a client without
    // roots; un-sharing shares nothing; held notes are revoked).
    let session = SessionRoots::new(policy)
        .with_timeouts(wait, DEFAULT_LIST_TIMEOUT)
        .with_rounds(rounds)
        .with_process_session();
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
    rounds: Rounds,
    page: Option<SharedPage>,
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
    let page_url = page.as_ref().map(|page| page.url.clone());
    if let Some(page) = page {
        let prefs = request_prefs.clone();
        let public = page
            .url
            .host_str()
            .map(|host| match page.url.port_or_known_default() {
                Some(port) => format!("{host}:{port}"),
                None => host.to_owned(),
            });
        eprintln!(
            "notes-server: the setup page of every flow is served at {}",
            page.url
        );
        tokio::spawn(async move {
            if let Err(err) = page::serve_any(page.listener, page.rounds, prefs, public).await {
                tracing::error!(error = %err, "the shared setup page stopped");
            }
        });
    }
    let sessions = move || {
        let session = SessionRoots::new(policy.clone())
            .with_timeouts(wait, DEFAULT_LIST_TIMEOUT)
            .with_rounds(rounds.clone());
        let server =
            NotesServer::with_session(session).with_request_preferences(request_prefs.clone());
        match &page_url {
            Some(url) => server.with_shared_setup_page(url.clone()),
            None => server,
        }
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

/// The setup page every instance serves (`--setup-listen`), bound.
struct SharedPage {
    listener: tokio::net::TcpListener,
    url: url::Url,
    rounds: Rounds,
}

/// Binds `--setup-listen`, if given; the URL users are sent to is
/// `--setup-url` or the listener's own.
async fn shared_page(args: &ServeArgs, rounds: &Rounds) -> Result<Option<SharedPage>, String> {
    let Some(addr) = args.setup_listen else {
        return Ok(None);
    };
    let listener = http::bind(addr)
        .await
        .map_err(|err| format!("cannot listen on {addr} for the setup page: {err}"))?;
    let bound = listener.local_addr().map_err(|err| err.to_string())?;
    let url = match &args.setup_url {
        Some(url) => url.clone(),
        None => url::Url::parse(&format!("http://{bound}/setup")).map_err(|e| e.to_string())?,
    };
    Ok(Some(SharedPage {
        listener,
        url,
        rounds: rounds.clone(),
    }))
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
