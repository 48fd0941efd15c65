//! One session's client and the server it talks to: a server in this
//! process over an in-memory pipe, a server binary started as a child
//! process and spoken to over its stdin and stdout (the transport a desktop
//! client uses), or a server already listening on Streamable HTTP (one
//! session of the many it may serve). Scripts take a [`Connection`] and run
//! the same way on all three.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use rmcp::service::{ClientServiceExt, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientLifecycleMode, RoleServer, ServerHandler};
use tokio::process::{Child, ChildStdin, ChildStdout};
use tokio::task::JoinHandle;

use crate::ScriptedClient;
use crate::session::{BoxError, Client, connect, connect_modern};

/// How long a child may take to exit once its stdin is closed.
const EXIT_WAIT: Duration = Duration::from_secs(5);

/// One session's client, and the server (of type `S` when in process) it
/// talks to.
#[derive(Debug)]
pub struct Connection<S: ServerHandler> {
    /// The client's side: call tools and send notifications through it.
    pub client: Client,
    server: Serving<S>,
    kept: Kept,
}

/// What a connection keeps alive (see [`Connection::keeping`]).
#[derive(Default)]
struct Kept(Vec<Box<dyn std::any::Any + Send + Sync>>);

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Kept({})", self.0.len())
    }
}

#[derive(Debug)]
enum Serving<S: ServerHandler> {
    InProcess(RunningService<RoleServer, S>),
    /// rmcp's 2026-07-28 `serve` returns only after the first request
    /// other than `server/discover`.
    Starting(JoinHandle<Result<RunningService<RoleServer, S>, BoxError>>),
    Child(Child),
    /// A server elsewhere, over Streamable HTTP: only the client is here.
    Http,
}

impl<S: ServerHandler> Connection<S> {
    /// `server` in this process, on the 2025-11-25 lifecycle (or what
    /// `script` speaks): `initialize`, then the server may list the roots.
    ///
    /// # Errors
    ///
    /// Either side fails to initialise.
    pub async fn in_process(server: S, script: ScriptedClient) -> Result<Self, BoxError> {
        let (server, client) = connect(server, script).await?;
        Ok(Self {
            client,
            server: Serving::InProcess(server),
            kept: Kept::default(),
        })
    }

    /// `server` in this process, on the 2026-07-28 lifecycle
    /// (`server/discover`, no `initialize`); `script` should speak 2026-07-28.
    ///
    /// # Errors
    ///
    /// Discovery fails.
    pub async fn in_process_modern(server: S, script: ScriptedClient) -> Result<Self, BoxError> {
        let (pending, client) = connect_modern(server, script).await?;
        let pending = tokio::spawn(async move { pending.await?.map_err(BoxError::from) });
        Ok(Self {
            client,
            server: Serving::Starting(pending),
            kept: Kept::default(),
        })
    }

    /// The server binary `program`, started with `args` as a child and
    /// spoken to over stdio, on `lifecycle` (`Initialize`, or
    /// [`modern_lifecycle`](crate::modern_lifecycle) for 2026-07-28).
    ///
    /// # Errors
    ///
    /// The child cannot start, or the session fails to initialise.
    pub async fn spawn(
        program: &Path,
        args: &[String],
        script: ScriptedClient,
        lifecycle: ClientLifecycleMode,
    ) -> Result<Self, BoxError> {
        let (child, io) = child(program, args)?;
        let client = script.serve_with_lifecycle(io, lifecycle).await?;
        Ok(Self {
            client,
            server: Serving::Child(child),
            kept: Kept::default(),
        })
    }

    /// A session with the server listening at `url` (e.g.
    /// `http://127.0.0.1:PORT/mcp`), over Streamable HTTP with rmcp's
    /// client (reqwest, plain `http://` only), on `lifecycle`.
    /// `Initialize` opens an `Mcp-Session-Id` session (2024-11-05 to
    /// 2025-11-25); [`modern_lifecycle`](crate::modern_lifecycle) speaks
    /// 2026-07-28, where every request stands alone. The client never
    /// opens a new session by itself: a session the server ended (deleted,
    /// idle) makes the next call fail instead of silently starting over
    /// with other roots.
    ///
    /// # Errors
    ///
    /// The server cannot be reached, or the session fails to initialise.
    pub async fn http(
        url: &str,
        script: ScriptedClient,
        lifecycle: ClientLifecycleMode,
    ) -> Result<Self, BoxError> {
        let mut config = StreamableHttpClientTransportConfig::with_uri(url);
        config.reinit_on_expired_session = false;
        let transport = StreamableHttpClientTransport::from_config(config);
        let client = script.serve_with_lifecycle(transport, lifecycle).await?;
        Ok(Self {
            client,
            server: Serving::Http,
            kept: Kept::default(),
        })
    }

    /// The same connection, keeping `guard` alive as long as it lives (e.g.
    /// the handle of the HTTP server process it talks to).
    pub fn keeping(mut self, guard: impl Send + Sync + 'static) -> Self {
        self.kept.0.push(Box::new(guard));
        self
    }

    /// Ends the session: the client closes its side, then the server stops
    /// (a child sees the end of its stdin and exits; over HTTP the client
    /// deletes its session). Whether the server ended cleanly (a child:
    /// exit status 0 within five seconds; over HTTP: the client's side
    /// closed without error).
    pub async fn close(self) -> bool {
        let closed = self.client.cancel().await.is_ok();
        let _kept = self.kept;
        match self.server {
            Serving::Http => closed,
            Serving::InProcess(server) => server.cancel().await.is_ok(),
            Serving::Starting(pending) => match pending.await {
                Ok(Ok(server)) => server.cancel().await.is_ok(),
                _ => false,
            },
            Serving::Child(mut child) => {
                match tokio::time::timeout(EXIT_WAIT, child.wait()).await {
                    Ok(Ok(status)) => status.success(),
                    _ => {
                        let _ = child.kill().await;
                        false
                    }
                }
            }
        }
    }
}

/// Starts `program` with piped stdin and stdout; its stderr is dropped
/// unless `MCP_SCRIPT_STDERR` is set.
fn child(program: &Path, args: &[String]) -> Result<(Child, (ChildStdout, ChildStdin)), BoxError> {
    let stderr = match std::env::var_os("MCP_SCRIPT_STDERR") {
        Some(_) => Stdio::inherit(),
        None => Stdio::null(),
    };
    let mut child = tokio::process::Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .kill_on_drop(true)
        .spawn()
        .map_err(|err| format!("cannot start {}: {err}", program.display()))?;
    let stdout = child.stdout.take().ok_or("the child has no stdout")?;
    let stdin = child.stdin.take().ok_or("the child has no stdin")?;
    Ok((child, (stdout, stdin)))
}
