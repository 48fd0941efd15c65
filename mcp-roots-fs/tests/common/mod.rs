//! Helpers shared by the integration tests: the binary as a child, spoken
//! to by the scripted client (rmcp's own), and tool calls.

#![allow(dead_code)] // each test binary uses a different subset

use std::path::Path;

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

pub(crate) fn failed(result: &CallToolResult) -> bool {
    result.is_error == Some(true)
}
