//! Where the server of a scripted session runs: in this process over an
//! in-memory pipe, or as the built `notes-server` binary, a child process
//! spoken to over its stdin and stdout (the transport a desktop client
//! uses). The demo's scenes and the tests take a [`Launch`] and run the same
//! way on both.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use mcp_roots::RootsBuilder;
use rmcp::model::ProtocolVersion;
use rmcp::service::{ClientServiceExt, RunningService};
use rmcp::{ClientLifecycleMode, RoleClient, RoleServer, ServiceExt};
use tokio::process::Child;
use tokio::task::JoinHandle;

use super::{ScriptedClient, connect, connect_modern};
use crate::NotesServer;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// How long a child may take to exit once its stdin is closed.
const EXIT_WAIT: Duration = Duration::from_secs(5);

/// Where each new session's server runs.
#[derive(Clone, Debug)]
pub enum Launch {
    /// A new [`NotesServer`] in this process (default policy: a client
    /// without roots gets nothing), over an in-memory pipe.
    InProcess,
    /// The binary at `program`, started once per session with `args`
    /// (e.g. `--ceiling DIR`), over stdio.
    Binary {
        /// The `notes-server` executable.
        program: PathBuf,
        /// Its command-line arguments.
        args: Vec<String>,
    },
}

/// One session's client, and the server it talks to.
#[derive(Debug)]
pub struct Connection {
    /// The client's side: call tools and send notifications through it.
    pub client: RunningService<RoleClient, ScriptedClient>,
    server: Serving,
}

#[derive(Debug)]
enum Serving {
    InProcess(RunningService<RoleServer, NotesServer>),
    /// rmcp's 2026-07-28 `serve` returns only after the first request
    /// other than `server/discover`.
    Starting(JoinHandle<Result<RunningService<RoleServer, NotesServer>, BoxError>>),
    Child(Child),
}

impl Launch {
    /// The binary at `program`, without arguments.
    pub fn binary(program: impl Into<PathBuf>) -> Self {
        Self::Binary {
            program: program.into(),
            args: Vec::new(),
        }
    }

    /// The same launch with `args` added to a binary's command line
    /// (in process there is no command line: the arguments are ignored).
    pub fn with_args<'a>(&self, args: impl IntoIterator<Item = &'a str>) -> Self {
        match self {
            Self::InProcess => Self::InProcess,
            Self::Binary { program, args: own } => Self::Binary {
                program: program.clone(),
                args: own
                    .iter()
                    .cloned()
                    .chain(args.into_iter().map(str::to_owned))
                    .collect(),
            },
        }
    }

    /// What a transcript calls it.
    pub fn describe(&self) -> &'static str {
        match self {
            Self::InProcess => "in one process (an in-memory pipe)",
            Self::Binary { .. } => "the notes-server binary as a child process, over stdio",
        }
    }

    /// A new session on 2025-11-25 (or what `script` speaks): `initialize`,
    /// then the server lists the client's roots.
    ///
    /// # Errors
    ///
    /// The child cannot start, or either side fails to initialise.
    pub async fn connect(&self, script: ScriptedClient) -> Result<Connection, BoxError> {
        match self {
            Self::InProcess => {
                let server = NotesServer::new(RootsBuilder::default());
                let (server, client) = connect(server, script).await?;
                Ok(Connection {
                    client,
                    server: Serving::InProcess(server),
                })
            }
            Self::Binary { .. } => {
                let (child, io) = self.spawn()?;
                let client = script.serve(io).await?;
                Ok(Connection {
                    client,
                    server: Serving::Child(child),
                })
            }
        }
    }

    /// A new session on the 2026-07-28 lifecycle (`server/discover`, no
    /// `initialize`); `script` should speak 2026-07-28.
    ///
    /// # Errors
    ///
    /// As [`connect`](Self::connect), or discovery fails.
    pub async fn connect_modern(&self, script: ScriptedClient) -> Result<Connection, BoxError> {
        match self {
            Self::InProcess => {
                let server = NotesServer::new(RootsBuilder::default());
                let (pending, client) = connect_modern(server, script).await?;
                let pending = tokio::spawn(async move { pending.await?.map_err(BoxError::from) });
                Ok(Connection {
                    client,
                    server: Serving::Starting(pending),
                })
            }
            Self::Binary { .. } => {
                let (child, io) = self.spawn()?;
                let lifecycle = ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                };
                let client = script.serve_with_lifecycle(io, lifecycle).await?;
                Ok(Connection {
                    client,
                    server: Serving::Child(child),
                })
            }
        }
    }

    /// Starts the binary with piped stdin and stdout; its stderr is
    /// dropped unless `NOTES_SERVER_STDERR` is set.
    fn spawn(
        &self,
    ) -> Result<
        (
            Child,
            (tokio::process::ChildStdout, tokio::process::ChildStdin),
        ),
        BoxError,
    > {
        let Self::Binary { program, args } = self else {
            return Err("not a binary launch".into());
        };
        let stderr = match std::env::var_os("NOTES_SERVER_STDERR") {
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
}

impl Connection {
    /// Ends the session: the client closes its side, then the server stops
    /// (a child sees the end of its stdin and exits). Whether the server
    /// ended cleanly (a child: exit status 0 within five seconds).
    pub async fn close(self) -> bool {
        let _ = self.client.cancel().await;
        match self.server {
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
