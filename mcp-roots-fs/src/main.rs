//! `mcp-roots-fs`: the MCP filesystem server, a drop-in replacement for
//! `@modelcontextprotocol/server-filesystem`, with every file operation kept
//! inside the directories the operator named and the client shared.
//!
//! `mcp-roots-fs DIR…` serves stdio; `--http 127.0.0.1:PORT` serves
//! Streamable HTTP. See the README for the options and the differences from
//! the original.
//!
//! `main` is a plain function: it parses the command line, installs the
//! log and, with `--confine`, confines the process while it still has one
//! thread; only then does it build the tokio runtime. An attribute such as
//! `tokio::main` would have started the runtime's threads before.

mod cli;
mod config;
mod confine;
mod context;
mod original;
mod resources;
mod server;
mod stdio;
mod sys;
mod threads;
mod tools;
mod walk;

use std::io::stderr;
use std::process::ExitCode;

use clap::Parser;
use mcp_roots_rmcp::{Deployment, Rounds};
use rmcp::ServiceExt;
use tracing_subscriber::{EnvFilter, filter::LevelFilter, fmt};

use crate::cli::Cli;
use crate::config::Config;
use crate::server::FsServer;

/// The key prefix of this server's records in a shared Redis.
const REDIS_PREFIX: &str = "mcp-roots-fs";

fn main() -> ExitCode {
    // The log on stderr (stdout is the protocol): RUST_LOG, default info.
    let filter = EnvFilter::builder().with_default_directive(LevelFilter::INFO.into());
    let _ = fmt()
        .with_env_filter(filter.from_env_lossy())
        .with_writer(stderr)
        .try_init();
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("mcp-roots-fs: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Everything after the command line, in the order confinement needs.
fn run(cli: Cli) -> Result<(), String> {
    let config = Config::from_cli(&cli)?;
    config.announce(if cli.http.is_some() { "http" } else { "stdio" });
    // Read before confinement: the cgroup files, and the key file, may lie
    // outside the directories.
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let deployment = Deployment::read(cli.state.as_deref(), cli.state_key_file.as_deref())
        .map_err(|e| e.to_string())?;
    // Before confinement, which would refuse `/proc/self/fd`.
    let pipes = cli.http.is_none().then(stdio::reopen).flatten();
    if let Some(mode) = cli.confine {
        confine::process(config.policy(), mode)?;
    }
    // Only now the runtime: its workers and blocking pool (where the tool
    // bodies run) are confined from birth.
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?
        .block_on(async move {
            let rounds = deployment
                .rounds(REDIS_PREFIX)
                .await
                .map_err(|e| e.to_string())?;
            match cli.http.as_deref() {
                Some(addr) => serve_http(addr, config, rounds).await,
                None => serve_stdio(config, rounds, pipes).await,
            }
        })
}

async fn serve_stdio(
    config: Config,
    rounds: Rounds,
    pipes: Option<stdio::Pipes>,
) -> Result<(), String> {
    let server = FsServer::new(&config, rounds).for_stdio();
    let running = server
        .serve(stdio::transport(pipes))
        .await
        .map_err(|e| e.to_string())?;
    running.waiting().await.map_err(|e| e.to_string())?;
    Ok(())
}

async fn serve_http(addr: &str, config: Config, rounds: Rounds) -> Result<(), String> {
    let addr = mcp_roots_rmcp::http::loopback(addr)?;
    let listener = mcp_roots_rmcp::http::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?;
    eprintln!(
        "mcp-roots-fs: listening on http://{bound}{}",
        mcp_roots_rmcp::http::PATH
    );
    let config = std::sync::Arc::new(config);
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    mcp_roots_rmcp::http::serve(
        listener,
        move || FsServer::new(&config, rounds.clone()),
        mcp_roots_rmcp::http::DEFAULT_SESSION_IDLE,
        shutdown,
    )
    .await
    .map_err(|e| e.to_string())
}
