//! `notes-server`: the notes MCP server over stdio, one session per process.
//!
//! ```text
//! notes-server [--ceiling DIR]... [--ceiling-without-roots]
//! notes-server demo
//! ```
//!
//! `--ceiling DIR` (repeatable) bounds what any client root can grant: a
//! root above DIR is clipped to it, one outside every DIR is rejected.
//! `--ceiling-without-roots` grants the ceiling to a client that declares no
//! roots (or answers an empty list); without it such a client gets nothing.

use std::process::ExitCode;

use mcp_roots::{EmptyRoots, Roots};
use notes_server::NotesServer;
use rmcp::ServiceExt;

const USAGE: &str =
    "usage: notes-server [--ceiling DIR]... [--ceiling-without-roots] | notes-server demo";

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("demo") {
        let ok = notes_server::demo::run().await;
        return if ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    let mut ceiling = Vec::new();
    let mut empty = EmptyRoots::DenyAll;
    let mut args = args.into_iter().peekable();
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next_if(|_| arg == "--ceiling")) {
            ("--ceiling", Some(dir)) => ceiling.push(dir),
            ("--ceiling-without-roots", None) => empty = EmptyRoots::Ceiling,
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let mut policy = Roots::builder().empty_roots(empty);
    if !ceiling.is_empty() {
        eprintln!("notes-server: ceiling {ceiling:?}");
        policy = policy.ceiling(ceiling);
    }
    // stdout carries JSON-RPC: everything else goes to stderr.
    let server = match NotesServer::new(policy)
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
