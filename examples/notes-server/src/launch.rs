//! Where the server of a scripted session runs: a [`NotesServer`] in this
//! process over an in-memory pipe, or the built `notes-server` binary, a
//! child process spoken to over its stdin and stdout (the transport a
//! desktop client uses). The demo's scenes and the tests take a [`Launch`]
//! and run the same way on both.

use std::path::PathBuf;

use mcp_roots::RootsBuilder;
use mcp_script::{ScriptedClient, modern_lifecycle};
use rmcp::ClientLifecycleMode;

use crate::NotesServer;

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
            Self::InProcess => Connection::in_process(server(), script).await,
            Self::Binary { program, args } => {
                Connection::spawn(program, args, script, ClientLifecycleMode::Initialize).await
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
            Self::Binary { program, args } => {
                Connection::spawn(program, args, script, modern_lifecycle()).await
            }
        }
    }
}

/// A server for one in-process session, with the default policy.
fn server() -> NotesServer {
    NotesServer::new(RootsBuilder::default())
}
