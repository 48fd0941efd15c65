//! The stdio transport. When standard input and output are pipes (as
//! Python's and Rust's MCP clients launch a server) or Unix sockets (as
//! Node's `child_process` does, so every Electron or Node client), they are
//! driven by the runtime's event loop; otherwise (a terminal, a file)
//! through tokio's `stdin` and `stdout`, whose every read and write is a
//! hop to the blocking pool and back: two thread hand-offs per message,
//! most of a small call's CPU.
//!
//! The event loop needs non-blocking descriptors. Pipes are reopened
//! through `/proc/self/fd` (Linux), so that the flag is set on descriptions
//! of this process's own, never on the standard streams it may share with
//! a log that writes to the same pipe. A socket cannot be reopened: its
//! own description is made non-blocking, which only this process uses
//! (the client holds the socket's other end), unless standard error is the
//! same socket (the log would then lose lines, and the blocking handles
//! serve). [`reopen`] runs before `--confine` (the confinement would refuse
//! `/proc`); [`transport`] hands the descriptors to the event loop once the
//! runtime runs.

#[cfg(target_os = "linux")]
use std::os::fd::OwnedFd;

use tokio::io::{AsyncRead, AsyncWrite};

mod answer;
mod lines;
mod read;
mod splice;

pub(crate) use lines::Lines;
use lines::stream::Target;

/// The transport's reading half.
pub(crate) type Reader = Box<dyn AsyncRead + Send + Unpin>;
/// The transport's writing half.
pub(crate) type Writer = Box<dyn AsyncWrite + Send + Unpin>;

/// Standard input and output for the event loop.
#[cfg(target_os = "linux")]
#[derive(Debug)]
pub(crate) enum Pipes {
    /// Both pipes, reopened on descriptions of their own.
    Fifos { input: OwnedFd, output: OwnedFd },
    /// Both Unix stream sockets (copies of the descriptors).
    Sockets { input: OwnedFd, output: OwnedFd },
}

/// Elsewhere, never: no `/proc/self/fd` to reopen them through.
#[cfg(not(target_os = "linux"))]
#[derive(Debug)]
pub(crate) enum Pipes {}

/// Standard input and output for the event loop, when both are pipes the
/// system can reopen or both Unix sockets (standard error another stream);
/// `None` otherwise (the transport then uses tokio's blocking handles).
pub(crate) fn reopen() -> Option<Pipes> {
    #[cfg(target_os = "linux")]
    {
        if let Some(input) = reopen_fifo("/proc/self/fd/0", false) {
            let output = reopen_fifo("/proc/self/fd/1", true)?;
            return Some(Pipes::Fifos { input, output });
        }
        use std::os::fd::AsFd;
        let input = unix_socket(std::io::stdin().as_fd())?;
        let output = unix_socket(std::io::stdout().as_fd())?;
        if same_file(&output, std::io::stderr().as_fd()) {
            return None;
        }
        Some(Pipes::Sockets { input, output })
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

#[cfg(target_os = "linux")]
fn reopen_fifo(path: &str, write: bool) -> Option<OwnedFd> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};

    // Checked before the open, which would open anything else too.
    if !std::fs::metadata(path).ok()?.file_type().is_fifo() {
        return None;
    }
    // Non-blocking: opening a named FIFO waits for its other end
    // otherwise, for ever if there is none (a write end without a reader
    // is then refused, and the blocking handles serve).
    let file = std::fs::OpenOptions::new()
        .read(!write)
        .write(write)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    file.metadata()
        .ok()
        .filter(|meta| meta.file_type().is_fifo())?;
    Some(file.into())
}

/// A copy of `fd` if it is a Unix stream socket.
#[cfg(target_os = "linux")]
fn unix_socket(fd: std::os::fd::BorrowedFd<'_>) -> Option<OwnedFd> {
    use std::os::unix::fs::FileTypeExt;

    let copy = fd.try_clone_to_owned().ok()?;
    let file = std::fs::File::from(copy);
    if !file.metadata().ok()?.file_type().is_socket() {
        return None;
    }
    // A Unix socket has a Unix address (an unnamed one for a socketpair);
    // any other family does not.
    let socket = std::os::unix::net::UnixStream::from(OwnedFd::from(file));
    socket.local_addr().ok()?;
    Some(socket.into())
}

/// Whether `a` and `b` are the same open file (the same socket).
#[cfg(target_os = "linux")]
fn same_file(a: &OwnedFd, b: std::os::fd::BorrowedFd<'_>) -> bool {
    use std::os::unix::fs::MetadataExt;

    let id = |fd: std::os::fd::BorrowedFd<'_>| {
        let file = std::fs::File::from(fd.try_clone_to_owned().ok()?);
        file.metadata().ok().map(|m| (m.dev(), m.ino()))
    };
    use std::os::fd::AsFd;
    match (id(a.as_fd()), id(b)) {
        (Some(a), Some(b)) => a == b,
        // Unknown: the safe answer.
        _ => true,
    }
}

/// The transport: the reopened `pipes` on the event loop (a large answer
/// streamed into the output descriptor, see [`lines`]), or tokio's `stdin`
/// and `stdout`. Call it within the runtime.
pub(crate) fn transport(pipes: Option<Pipes>) -> Lines {
    let (reader, writer, stream) = halves(pipes);
    Lines::new(reader, read::MAX_LINE, writer, stream)
}

fn halves(pipes: Option<Pipes>) -> (Reader, Writer, Option<Target>) {
    #[cfg(target_os = "linux")]
    if let Some(pipes) = pipes {
        match on_event_loop(pipes) {
            Ok((reader, writer, fd)) => return (reader, writer, Some(Target::new(fd))),
            Err(e) => tracing::debug!(error = %e, "stdio: the standard streams stay blocking"),
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = pipes;
    (
        Box::new(tokio::io::stdin()),
        Box::new(tokio::io::stdout()),
        None,
    )
}

/// Both halves on the event loop, and a copy of the output descriptor (the
/// same non-blocking description) for lines streamed into it.
#[cfg(target_os = "linux")]
fn on_event_loop(pipes: Pipes) -> std::io::Result<(Reader, Writer, OwnedFd)> {
    use tokio::net::unix::pipe::{Receiver, Sender};

    Ok(match pipes {
        Pipes::Fifos { input, output } => {
            let copy = output.try_clone()?;
            (
                Box::new(Receiver::from_owned_fd(input)?),
                Box::new(Sender::from_owned_fd(output)?),
                copy,
            )
        }
        Pipes::Sockets { input, output } => {
            let stream = |fd: OwnedFd| {
                let socket = std::os::unix::net::UnixStream::from(fd);
                socket.set_nonblocking(true)?;
                tokio::net::UnixStream::from_std(socket)
            };
            let copy = output.try_clone()?;
            (Box::new(stream(input)?), Box::new(stream(output)?), copy)
        }
    })
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
        let (mut reader, mut writer, _) = halves(Some(Pipes::Fifos { input, output }));
        writer.write_all(b"{\"jsonrpc\":\"2.0\"}\n").await.unwrap();
        writer.flush().await.unwrap();
        let mut got = vec![0; 18];
        reader.read_exact(&mut got).await.unwrap();
        assert_eq!(got, b"{\"jsonrpc\":\"2.0\"}\n");
    }

    #[test]
    fn a_fifo_without_its_other_end_is_not_waited_for() {
        // An anonymous pipe whose other ends are closed opens at once
        // either way (its reads then find the end, its writes `EPIPE`).
        let (sender, receiver) = std::io::pipe().unwrap();
        let read_end: OwnedFd = receiver.into();
        drop(sender);
        assert!(reopen_fifo(&fd_path(&read_end), false).is_some());
        let (sender, receiver) = std::io::pipe().unwrap();
        let write_end: OwnedFd = sender.into();
        drop(receiver);
        assert!(reopen_fifo(&fd_path(&write_end), true).is_some());
        // A named FIFO with no reader: a blocking open for writing would
        // wait for one for ever; this one is refused at once.
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|status| status.success()) {
            eprintln!("skipped the named FIFO: no mkfifo");
            return;
        }
        let fifo = fifo.to_str().unwrap();
        assert!(reopen_fifo(fifo, true).is_none());
        // Reading does not wait for a writer either.
        assert!(reopen_fifo(fifo, false).is_some());
    }

    #[tokio::test]
    async fn unix_sockets_carry_lines_both_ways() {
        use std::os::fd::AsFd;
        use tokio::io::{AsyncReadExt, AsyncWriteExt};

        let (ours, theirs) = std::os::unix::net::UnixStream::pair().unwrap();
        let input = unix_socket(ours.as_fd()).unwrap();
        let output = unix_socket(ours.as_fd()).unwrap();
        assert!(same_file(&output, ours.as_fd()));
        assert!(!same_file(&output, theirs.as_fd()));
        let (mut reader, mut writer, _) = halves(Some(Pipes::Sockets { input, output }));
        writer.write_all(b"out\n").await.unwrap();
        writer.flush().await.unwrap();
        let mut theirs = tokio::net::UnixStream::from_std({
            theirs.set_nonblocking(true).unwrap();
            theirs
        })
        .unwrap();
        let mut got = [0; 4];
        theirs.read_exact(&mut got).await.unwrap();
        assert_eq!(&got, b"out\n");
        theirs.write_all(b"in\n").await.unwrap();
        let mut got = [0; 3];
        reader.read_exact(&mut got).await.unwrap();
        assert_eq!(&got, b"in\n");
        // Not a socket: a file.
        let file = tempfile::tempfile().unwrap();
        assert!(unix_socket(file.as_fd()).is_none());
    }

    fn fd_path(fd: &OwnedFd) -> String {
        use std::os::fd::AsRawFd;
        format!("/proc/self/fd/{}", fd.as_raw_fd())
    }
}
