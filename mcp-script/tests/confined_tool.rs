//! A tool body that bypasses the library: it reads a file with `std::fs`,
//! once on a tokio worker and once on the blocking pool. In a server
//! confined by `mcp_roots::confine_process` (before its runtime was
//! built), the kernel refuses the file outside the ceiling on both, and
//! reads one inside; unconfined, the same body reads `/etc/hostname`.
//!
//! The server is this test binary, run again with `CONFINED_TOOL_SERVER`
//! set (its own `main`: confinement needs a process with one thread, which
//! libtest's would not be).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mcp_roots::{Confinement, Roots, confine_process};
use mcp_script::{Connection, ScriptedClient, call, text_of};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::serde_json::json;
use rmcp::{ClientLifecycleMode, ServerHandler, ServiceExt, tool, tool_handler, tool_router};

/// The argument that makes this binary the server: `--CONFINED_TOOL_SERVER=free`
/// or `--CONFINED_TOOL_SERVER=confined CEILING`.
const SERVER: &str = "CONFINED_TOOL_SERVER";

#[derive(Debug, rmcp::serde::Deserialize, rmcp::schemars::JsonSchema)]
#[serde(crate = "rmcp::serde")]
#[schemars(crate = "rmcp::schemars")]
struct PathArgs {
    path: String,
}

#[derive(Clone)]
struct Careless {
    tool_router: ToolRouter<Self>,
}

/// What a tool says of a read: the text, or the error's kind.
fn outcome(read: std::io::Result<String>) -> CallToolResult {
    match read {
        Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
        Err(err) => CallToolResult::error(vec![ContentBlock::text(format!("{:?}", err.kind()))]),
    }
}

#[tool_router]
impl Careless {
    #[tool(description = "Reads a file with std::fs, on the runtime's worker")]
    async fn read_on_worker(
        &self,
        Parameters(PathArgs { path }): Parameters<PathArgs>,
    ) -> CallToolResult {
        outcome(std::fs::read_to_string(path))
    }

    #[tool(description = "Reads a file with std::fs, on the blocking pool")]
    async fn read_on_blocking_pool(
        &self,
        Parameters(PathArgs { path }): Parameters<PathArgs>,
    ) -> CallToolResult {
        let read = tokio::task::spawn_blocking(move || std::fs::read_to_string(path));
        outcome(read.await.expect("the blocking task ran"))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Careless {}

/// The server: confined first (if asked), then the runtime, then stdio.
fn serve(mode: &str) -> ExitCode {
    if let Some(ceiling) = mode.strip_prefix("confined ") {
        let roots = Roots::builder().ceiling([ceiling]).build();
        match confine_process(&roots, Confinement::Required) {
            Ok(report) => eprintln!("{report}"),
            Err(err) => {
                eprintln!("not confined: {err}");
                return ExitCode::FAILURE;
            }
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let server = Careless {
            tool_router: Careless::tool_router(),
        };
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .expect("initialize");
        let _ = running.waiting().await;
    });
    ExitCode::SUCCESS
}

/// What each tool returns for `path` from a server in `mode`: (is_error,
/// text) on the worker, then on the blocking pool.
async fn reads(mode: &str, path: &Path) -> [(bool, String); 2] {
    let this = std::env::current_exe().expect("this test binary");
    let script = ScriptedClient::new(false, false);
    let connection = spawn(&this, mode, script).await;
    let mut out = [(false, String::new()), (false, String::new())];
    for (i, tool) in ["read_on_worker", "read_on_blocking_pool"]
        .into_iter()
        .enumerate()
    {
        let result = call(&connection.client, tool, json!({ "path": path }))
            .await
            .expect("the call is answered");
        out[i] = (result.is_error == Some(true), text_of(&result));
    }
    out
}

async fn spawn(this: &Path, mode: &str, script: ScriptedClient) -> Connection<Careless> {
    // `Connection::spawn` passes arguments, not variables: the child reads
    // its mode from this one.
    let args = vec![format!("--{SERVER}={mode}")];
    Connection::spawn(this, &args, script, ClientLifecycleMode::Initialize)
        .await
        .expect("the server starts")
}

fn main() -> ExitCode {
    let marker = format!("--{SERVER}=");
    if let Some(mode) = std::env::args().find_map(|a| a.strip_prefix(&marker).map(str::to_owned)) {
        return serve(&mode);
    }
    let outside = PathBuf::from("/etc/hostname");
    assert!(outside.exists(), "this test reads /etc/hostname");
    let ceiling = tempfile::tempdir().expect("a ceiling");
    let inside = ceiling.path().join("inside.txt");
    std::fs::write(&inside, "inside").expect("a file inside");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut failed = Vec::new();
    let mut check = |name: &str, ok: bool, what: String| {
        println!("test {name} ... {}", if ok { "ok" } else { "FAILED" });
        if !ok {
            failed.push(format!("{name}: {what}"));
        }
    };
    let hostname = std::fs::read_to_string(&outside).expect("readable unconfined");
    let free = runtime.block_on(reads("free", &outside));
    check(
        "unconfined_the_tool_reads_outside",
        free.iter().all(|(err, text)| !err && *text == hostname),
        format!("{free:?}"),
    );
    let mode = format!("confined {}", ceiling.path().display());
    let confined = runtime.block_on(reads(&mode, &outside));
    check(
        "confined_the_kernel_refuses_outside_on_worker_and_blocking_pool",
        confined
            .iter()
            .all(|(err, text)| *err && text == "PermissionDenied"),
        format!("{confined:?}"),
    );
    let confined_inside = runtime.block_on(reads(&mode, &inside));
    check(
        "confined_the_tool_reads_inside",
        confined_inside
            .iter()
            .all(|(err, text)| !err && text == "inside"),
        format!("{confined_inside:?}"),
    );
    for failure in &failed {
        println!("{failure}");
    }
    println!("\n{} passed, {} failed", 3 - failed.len(), failed.len());
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
