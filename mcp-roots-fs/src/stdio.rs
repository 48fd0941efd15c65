//! The stdio transport. When standard input and output are pipes (FIFOs,
//! as most MCP clients launch a server), they are driven by the runtime's
//! event loop; otherwise (a terminal, a file, a socket) through tokio's
//! `stdin` and `stdout`, whose every read and write is a hop to the
//! blocking pool and back: two thread hand-offs per message, most of a
//! small call's CPU.
//!
//! The pipes are reopened through `/proc/self/fd` (Linux), so that the
//! non-blocking flag the event loop needs is set on descriptions of this
//! process's own, never on the standard streams it shares with its parent
//! or with a log that writes to the same pipe. They are reopened by
//! [`reopen`] before `--confine` (the confinement would refuse `/proc`),
//! and handed to the event loop by [`transport`] once the runtime runs.

#[cfg(target_os = "linux")]
use std::os::fd::OwnedFd;

use tokio::io::{AsyncRead, AsyncWrite};

/// The transport's reading half.
pub(crate) type Reader = Box<dyn AsyncRead + Send + Unpin>;
/// The transport's writing half.
pub(crate) type Writer = Box<dyn AsyncWrite + Send + Unpin>;

/// Standard input and output reopened on descriptions of their own, when
/// both are pipes.
#[cfg(target_os = "linux")]
#[derive(Debug)]
pub(crate) struct Pipes {
    input: OwnedFd,
    output: OwnedFd,
}

/// Elsewhere, never: no `/proc/self/fd` to reopen them through.
#[cfg(not(target_os = "linux"))]
#[derive(Debug)]
pub(crate) enum Pipes {}

/// Standard input and output reopened, when both are pipes and the system
/// can reopen them; `None` otherwise (the transport then uses tokio's
/// blocking handles).
pub(crate) fn reopen() -> Option<Pipes> {
    #[cfg(target_os = "linux")]
    {
        let input = reopen_fifo("/proc/self/fd/0", false)?;
        let output = reopen_fifo("/proc/self/fd/1", true)?;
        Some(Pipes { input, output })
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

#[cfg(target_os = "linux")]
fn reopen_fifo(path: &str, write: bool) -> Option<OwnedFd> {
    use std::os::unix::fs::FileTypeExt;

    // Checked before the open: opening a FIFO that is not a pipe (a named
    // one with no other end) could wait for a writer.
    if !std::fs::metadata(path).ok()?.file_type().is_fifo() {
        return None;
    }
    let file = std::fs::OpenOptions::new()
        .read(!write)
        .write(write)
        .open(path)
        .ok()?;
    file.metadata()
        .ok()
        .filter(|meta| meta.file_type().is_fifo())?;
    Some(file.into())
}

/// The transport: the reopened `pipes` on the event loop, or tokio's
/// `stdin` and `stdout`. Call it within the runtime.
pub(crate) fn transport(pipes: Option<Pipes>) -> (Reader, Writer) {
    #[cfg(target_os = "linux")]
    if let Some(Pipes { input, output }) = pipes {
        use tokio::net::unix::pipe::{Receiver, Sender};

        match (
            Receiver::from_owned_fd(input),
            Sender::from_owned_fd(output),
        ) {
            (Ok(input), Ok(output)) => return (Box::new(input), Box::new(output)),
            (Err(e), _) | (_, Err(e)) => {
                tracing::debug!(error = %e, "stdio: the pipes stay blocking");
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = pipes;
    (Box::new(tokio::io::stdin()), Box::new(tokio::io::stdout()))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn only_fifos_are_reopened() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plain");
        std::fs::write(&file, "x").unwrap();
        assert!(reopen_fifo(file.to_str().unwrap(), false).is_none());
        assert!(reopen_fifo(dir.path().to_str().unwrap(), false).is_none());
        assert!(reopen_fifo("/dev/null", true).is_none());
        assert!(reopen_fifo("/nonexistent/x", false).is_none());
    }

    #[tokio::test]
    async fn a_reopened_pipe_carries_lines_both_ways() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};

        let (sender, receiver) = tokio::net::unix::pipe::pipe().unwrap();
        let read_end = receiver.into_blocking_fd().unwrap();
        let write_end = sender.into_blocking_fd().unwrap();
        let input = reopen_fifo(&fd_path(&read_end), false).unwrap();
        let output = reopen_fifo(&fd_path(&write_end), true).unwrap();
        let (mut reader, mut writer) = transport(Some(Pipes { input, output }));
        writer.write_all(b"{\"jsonrpc\":\"2.0\"}\n").await.unwrap();
        writer.flush().await.unwrap();
        let mut got = vec![0; 18];
        reader.read_exact(&mut got).await.unwrap();
        assert_eq!(got, b"{\"jsonrpc\":\"2.0\"}\n");
    }

    fn fd_path(fd: &OwnedFd) -> String {
        use std::os::fd::AsRawFd;
        format!("/proc/self/fd/{}", fd.as_raw_fd())
    }
}
