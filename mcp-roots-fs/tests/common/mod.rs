//! Helpers shared by the integration tests: the binary as a child, spoken
//! to by the scripted client (rmcp's own), and tool calls.

#![allow(dead_code)] // each test binary uses a different subset

pub(crate) mod redis;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use mcp_script::{Client, Connection, ScriptedClient};
use rmcp::ClientLifecycleMode;
use rmcp::model::CallToolResult;
use serde_json::Value;

/// `Connection`'s type of an in-process server: none, the server is a child.
#[derive(Debug)]
pub(crate) struct NoServer;

impl rmcp::ServerHandler for NoServer {}

pub(crate) fn binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_mcp-roots-fs"))
}

/// The binary with `args`, spoken to on 2025-11-25 by `script`.
pub(crate) async fn start(args: &[String], script: &ScriptedClient) -> Connection<NoServer> {
    Connection::spawn(
        binary(),
        args,
        script.clone(),
        ClientLifecycleMode::Initialize,
    )
    .await
    .expect("the server starts")
}

pub(crate) async fn call(client: &Client, tool: &'static str, args: Value) -> CallToolResult {
    mcp_script::call(client, tool, args)
        .await
        .expect("a tool result")
}

/// The entries of a `directory_tree` text's nodes, counted.
pub(crate) fn tree_entries(nodes: &Value) -> usize {
    nodes
        .as_array()
        .expect("an array of nodes")
        .iter()
        .map(|node| 1 + node.get("children").map_or(0, tree_entries))
        .sum()
}

pub(crate) fn failed(result: &CallToolResult) -> bool {
    result.is_error == Some(true)
}

/// The binary serving Streamable HTTP (`args` name the address, e.g.
/// `--http 127.0.0.1:0`), killed when dropped.
#[derive(Debug)]
pub(crate) struct HttpServer {
    child: Child,
    /// Its `/mcp` URL, from the listening line.
    pub(crate) url: String,
    /// What it said on stderr before it listened.
    pub(crate) before: Vec<String>,
}

impl HttpServer {
    /// Starts the binary with `args` (`RUST_LOG=warn`) and waits for the
    /// line that names its URL.
    ///
    /// # Panics
    ///
    /// If it exits before it listens.
    pub(crate) fn start(args: &[String]) -> Self {
        let mut child = Command::new(binary())
            .args(args)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let mut before = Vec::new();
        let url = loop {
            let Some(Ok(line)) = lines.next() else {
                panic!("the server exited before it listened: {before:?}");
            };
            if let Some(url) = line.split("listening on ").nth(1) {
                break url.trim().to_owned();
            }
            before.push(line);
        };
        // Keep draining stderr so the server never blocks on it.
        std::thread::spawn(move || for _ in lines {});
        Self { child, url, before }
    }

    /// Its `HOST:PORT`.
    pub(crate) fn addr(&self) -> &str {
        self.url
            .trim_start_matches("http://")
            .trim_end_matches("/mcp")
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
