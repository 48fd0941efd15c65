//! Where the server of a scripted session runs: a [`NotesServer`] in this
//! process over an in-memory pipe, the built `notes-server` binary as a
//! child process spoken to over its stdin and stdout (the transport a
//! desktop client uses), or one `notes-server --http` process serving
//! every session over Streamable HTTP ([`HttpServer`]). The demo's scenes
//! and the tests take a [`Launch`] and run the same way on all three.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_roots::RootsBuilder;
use mcp_script::{ScriptedClient, modern_lifecycle};
use rmcp::ClientLifecycleMode;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Child;

use crate::NotesServer;
use crate::held::lock;
use crate::http::LISTENING;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// One session's scripted client, and the notes server it talks to.
pub type Connection = mcp_script::Connection<NotesServer>;

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
    /// One `notes-server --http` process, already listening: each session
    /// is a new Streamable HTTP session of it (a server of its own inside
    /// that process). Each connection keeps the process alive.
    Http(HttpServer),
    /// A new [`NotesServer`] in this process with this policy, over an
    /// in-memory pipe (what [`asking_within`](Self::asking_within) makes
    /// of [`InProcess`](Self::InProcess)).
    InProcessWith(Box<RootsBuilder>),
}

impl Launch {
    /// The binary at `program`, without arguments.
    pub fn binary(program: impl Into<PathBuf>) -> Self {
        Self::Binary {
            program: program.into(),
            args: Vec::new(),
        }
    }

    /// The same launch with `args` added to a binary's command line (in
    /// process there is no command line, and an HTTP server has started
    /// already: the arguments are ignored; start the [`HttpServer`] with them).
    pub fn with_args<'a>(&self, args: impl IntoIterator<Item = &'a str>) -> Self {
        match self {
            Self::InProcess => Self::InProcess,
            Self::InProcessWith(policy) => Self::InProcessWith(policy.clone()),
            Self::Http(server) => Self::Http(server.clone()),
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

    /// The same launch with a server whose operator lets the user grant
    /// what lies beneath `area` by answering a question, under the ceiling
    /// `ceiling` (`--ceiling CEILING --ask-within AREA`): in process, that
    /// policy; a binary, the arguments added; over HTTP, a second
    /// `notes-server --http` process started with them.
    ///
    /// # Errors
    ///
    /// The second HTTP server does not start.
    pub async fn asking_within(&self, ceiling: &str, area: &str) -> Result<Self, BoxError> {
        Ok(match self {
            Self::InProcess | Self::InProcessWith(_) => {
                let policy = RootsBuilder::default()
                    .ceiling([ceiling])
                    .ask_within([area]);
                Self::InProcessWith(Box::new(policy))
            }
            Self::Binary { .. } => self.with_args(["--ask-within", area]),
            Self::Http(server) => {
                let args = ["--ceiling", ceiling, "--ask-within", area].map(str::to_owned);
                Self::Http(HttpServer::start(&server.inner.program, &args).await?)
            }
        })
    }

    /// What a transcript calls it.
    pub fn describe(&self) -> &'static str {
        match self {
            Self::InProcess | Self::InProcessWith(_) => "in one process (an in-memory pipe)",
            Self::Binary { .. } => "the notes-server binary as a child process, over stdio",
            Self::Http(_) => {
                "one notes-server --http process, over Streamable HTTP (a session per client)"
            }
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
            Self::InProcess => Connection::in_process(server(), script).await,
            Self::InProcessWith(policy) => {
                let server = NotesServer::new((**policy).clone());
                Connection::in_process(server, script).await
            }
            Self::Binary { program, args } => {
                Connection::spawn(program, args, script, ClientLifecycleMode::Initialize).await
            }
            Self::Http(server) => {
                let lifecycle = ClientLifecycleMode::Initialize;
                let connection = Connection::http(server.url(), script, lifecycle).await?;
                Ok(connection.keeping(server.clone()))
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
            Self::InProcess => Connection::in_process_modern(server(), script).await,
            Self::InProcessWith(policy) => {
                let server = NotesServer::new((**policy).clone());
                Connection::in_process_modern(server, script).await
            }
            Self::Binary { program, args } => {
                Connection::spawn(program, args, script, modern_lifecycle()).await
            }
            Self::Http(server) => {
                let connection = Connection::http(server.url(), script, modern_lifecycle()).await?;
                Ok(connection.keeping(server.clone()))
            }
        }
    }
}

/// A server for one in-process session, with the default policy.
fn server() -> NotesServer {
    NotesServer::new(RootsBuilder::default())
}

/// How long a `notes-server --http` child may take to say where it listens.
const LISTEN_WAIT: Duration = Duration::from_secs(20);

/// A `notes-server --http 127.0.0.1:0` child process, once it listens
/// (its URL read from its stderr). Clones share the process; it is killed
/// when the last clone is dropped. Its stderr is kept ([`log`](Self::log))
/// and also shown if `MCP_SCRIPT_STDERR` is set.
#[derive(Clone, Debug)]
pub struct HttpServer {
    inner: Arc<Running>,
}

#[derive(Debug)]
struct Running {
    program: PathBuf,
    url: String,
    addr: SocketAddr,
    pid: u32,
    log: Arc<Mutex<Vec<String>>>,
    // Killed on drop.
    _child: Child,
}

impl HttpServer {
    /// Starts `program --http 127.0.0.1:0 ARGS…` and waits (bounded) for
    /// the line that says where it listens.
    ///
    /// # Errors
    ///
    /// It cannot start, exits, or says nothing usable within 20 seconds
    /// (the error carries what it printed).
    pub async fn start(program: impl AsRef<Path>, args: &[String]) -> Result<Self, BoxError> {
        Self::start_with_env(program, args, &[]).await
    }

    /// As [`start`](Self::start), with `env` added to the child's
    /// environment (e.g. `RUST_LOG`).
    ///
    /// # Errors
    ///
    /// As [`start`](Self::start).
    pub async fn start_with_env(
        program: impl AsRef<Path>,
        args: &[String],
        env: &[(&str, &str)],
    ) -> Result<Self, BoxError> {
        let program = program.as_ref();
        let mut child = tokio::process::Command::new(program)
            .args(["--http", "127.0.0.1:0"])
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|err| format!("cannot start {}: {err}", program.display()))?;
        let pid = child.id().ok_or("the server exited at once")?;
        let stderr = child.stderr.take().ok_or("the server has no stderr")?;
        let mut lines = BufReader::new(stderr).lines();
        let log: Arc<Mutex<Vec<String>>> = Arc::default();
        let echo = std::env::var_os("MCP_SCRIPT_STDERR").is_some();
        let keep = |line: String| {
            if echo {
                eprintln!("{line}");
            }
            lock(&log).push(line);
        };
        let listening = tokio::time::timeout(LISTEN_WAIT, async {
            while let Some(line) = lines.next_line().await? {
                let url = line.strip_prefix(LISTENING).map(str::to_owned);
                keep(line);
                if let Some(url) = url {
                    return Ok(Some(url));
                }
            }
            Ok::<_, std::io::Error>(None)
        })
        .await;
        let said = || lock(&log).join("\n");
        let url = match listening {
            Ok(Ok(Some(url))) => url,
            Ok(Ok(None)) => return Err(format!("the server exited: {}", said()).into()),
            Ok(Err(err)) => return Err(format!("reading the server's stderr: {err}").into()),
            Err(_) => return Err(format!("the server did not listen in time: {}", said()).into()),
        };
        let addr = url
            .strip_prefix("http://")
            .and_then(|rest| rest.split('/').next())
            .and_then(|authority| authority.parse().ok())
            .ok_or_else(|| format!("not a listening URL: {url}"))?;
        let kept = log.clone();
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                if echo {
                    eprintln!("{line}");
                }
                lock(&kept).push(line);
            }
        });
        Ok(Self {
            inner: Arc::new(Running {
                program: program.to_path_buf(),
                url,
                addr,
                pid,
                log,
                _child: child,
            }),
        })
    }

    /// The MCP endpoint, `http://127.0.0.1:PORT/mcp`.
    pub fn url(&self) -> &str {
        &self.inner.url
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.inner.addr
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.inner.pid
    }

    /// What it printed on stderr so far, line by line.
    pub fn log(&self) -> Vec<String> {
        lock(&self.inner.log).clone()
    }
}
