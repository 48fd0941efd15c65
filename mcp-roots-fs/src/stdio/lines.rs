//! [`Lines`]: the stdio transport's messages, one JSON line each.
//! Reading is [`Input`]'s (a line at most [`MAX_LINE`](super::read::MAX_LINE)
//! bytes) and [`answer`]'s: every line but an empty one or another
//! protocol's notification reaches the service or is answered with an
//! error here, written like every other line. Writing is this module's: a
//! message is serialized into a buffer kept from one message to the next
//! and written at once, as rmcp does, unless it outgrows [`IN_MEMORY`]. A
//! larger one (a `directory_tree` of 100,000 entries is a 19 MB line) is
//! serialized again on the blocking pool straight into the output
//! descriptor, a block at a time: the client reads the start of the line
//! while the rest is being written, and the line is never held whole in
//! memory (rmcp would build it in a buffer that grows by copying, then
//! write it).

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::AsyncWriteExt;
use tokio::sync::Mutex;
use tokio::task::JoinHandle;

use super::answer::{self, Line};
use super::read::{Input, Read};
use super::{Reader, Writer};

/// A message up to this long is serialized in memory and written at once.
pub(crate) const IN_MEMORY: usize = 256 * 1024;

/// The transport: [`Input`]'s lines, this module's writer.
pub(crate) struct Lines {
    input: Input,
    /// The error answer being written, waited for before the next line is
    /// read (so a flood of bad lines is answered at the client's pace, one
    /// answer held at a time). Its own task: a `receive` dropped meanwhile
    /// neither loses it nor leaves half a line written.
    answering: Option<JoinHandle<()>>,
    out: Arc<Mutex<Out>>,
    closed: Arc<AtomicBool>,
}

impl std::fmt::Debug for Lines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lines").finish_non_exhaustive()
    }
}

/// The writing half, behind one lock so that lines never interleave.
struct Out {
    writer: Option<Writer>,
    /// The serialized message, its capacity kept up to [`IN_MEMORY`].
    buf: Vec<u8>,
    /// The output descriptor (a copy), for lines written as they are
    /// serialized; `None` where the writer is not a descriptor of ours.
    stream: Option<stream::Target>,
}

impl Lines {
    /// Messages read from `reader` (lines of at most `limit` bytes),
    /// written to `writer` (or, when large, to `stream`, the same output
    /// as a descriptor).
    pub(crate) fn new(
        reader: Reader,
        limit: usize,
        writer: Writer,
        stream: Option<stream::Target>,
    ) -> Self {
        let out = Arc::new(Mutex::new(Out {
            writer: Some(writer),
            buf: Vec::new(),
            stream,
        }));
        Self {
            input: Input::new(reader, limit),
            answering: None,
            out,
            closed: Arc::new(AtomicBool::new(false)),
        }
    }
}

impl Drop for Lines {
    fn drop(&mut self) {
        // A line still streaming gives up at its next wait for the reader.
        self.closed.store(true, Ordering::Release);
    }
}

impl Transport<RoleServer> for Lines {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let out = self.out.clone();
        let closed = self.closed.clone();
        async move { send(out, closed, item).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if let Some(answering) = self.answering.as_mut() {
                // A write that failed is logged by its task; the output is
                // then gone, and the service ends on its next send.
                let _ = answering.await;
                self.answering = None;
            }
            let judged = match self.input.next().await {
                Read::Line => answer::line(self.input.line()),
                Read::Oversized => {
                    tracing::warn!(
                        limit = self.input.limit(),
                        "stdio: a message over the line limit was skipped"
                    );
                    answer::oversized(self.input.line(), self.input.limit())
                }
                Read::End => return None,
                Read::Failed(e) => {
                    tracing::error!(error = %e, "stdio: reading the input failed");
                    return None;
                }
            };
            self.input.clear();
            match judged {
                Line::Message(message) => return Some(*message),
                Line::Ignored => {}
                Line::Answer(line) => {
                    let out = self.out.clone();
                    self.answering = Some(tokio::spawn(async move {
                        if let Err(e) = write_line(&out, &line).await {
                            tracing::debug!(error = %e, "stdio: an error answer was not written");
                        }
                    }));
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.closed.store(true, Ordering::Release);
        let mut out = self.out.lock().await;
        if let Some(mut writer) = out.writer.take() {
            writer.shutdown().await?;
        }
        Ok(())
    }
}

fn not_connected() -> io::Error {
    io::Error::new(io::ErrorKind::NotConnected, "the transport is closed")
}

async fn send(
    out: Arc<Mutex<Out>>,
    closed: Arc<AtomicBool>,
    item: TxJsonRpcMessage<RoleServer>,
) -> io::Result<()> {
    let mut guard = out.lock_owned().await;
    let Out {
        writer,
        buf,
        stream,
    } = &mut *guard;
    let Some(writer) = writer.as_mut() else {
        return Err(not_connected());
    };
    buf.clear();
    let mut capped = Capped { buf, over: false };
    match serde_json::to_writer(&mut capped, &item) {
        Ok(()) => buf.push(b'\n'),
        Err(_) if capped.over => {
            if let Some(target) = stream.as_ref() {
                let target = target.clone_for_line()?;
                // The lock goes with the line: nothing else is written
                // until it ends, even if this send is dropped meanwhile.
                return tokio::task::spawn_blocking(move || {
                    let _line = guard;
                    stream::write_line(&target, item, &closed)
                })
                .await
                .map_err(io::Error::other)?;
            }
            // No descriptor to stream into: the line is built here.
            buf.clear();
            super::splice::write_line(item, &mut *buf)?;
        }
        Err(e) => return Err(io::Error::other(e)),
    }
    let written = async {
        writer.write_all(buf).await?;
        writer.flush().await
    }
    .await;
    if buf.capacity() > IN_MEMORY {
        *buf = Vec::new();
    }
    written
}

/// A writer into `buf` that refuses to grow it past [`IN_MEMORY`].
struct Capped<'a> {
    buf: &'a mut Vec<u8>,
    over: bool,
}

impl Write for Capped<'_> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if self.buf.len() + data.len() > IN_MEMORY {
            self.over = true;
            return Err(io::Error::other(
                "the line is larger than is kept in memory",
            ));
        }
        self.buf.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes `line` (a whole line, its newline included) under the lock.
async fn write_line(out: &Mutex<Out>, line: &[u8]) -> io::Result<()> {
    let mut out = out.lock().await;
    let writer = out.writer.as_mut().ok_or_else(not_connected)?;
    writer.write_all(line).await?;
    writer.flush().await
}

/// Lines written straight into the output descriptor.
pub(crate) mod stream {
    use super::*;

    #[cfg(target_os = "linux")]
    use std::os::fd::OwnedFd;

    /// The output, as a descriptor of its own (a copy of the transport's).
    #[cfg(target_os = "linux")]
    #[derive(Debug)]
    pub(crate) struct Target {
        fd: OwnedFd,
    }

    /// Elsewhere, never: large lines are built in memory.
    #[cfg(not(target_os = "linux"))]
    #[derive(Debug)]
    pub(crate) enum Target {}

    impl Target {
        /// `fd`, for lines written as they are serialized.
        #[cfg(target_os = "linux")]
        /// A pipe's buffer is raised to 1 MiB (the default most an
        /// unprivileged process may ask), from 64 KiB: a 19 MB line then
        /// crosses in 19 turns of writer and reader, not 300, which took
        /// 0.069-0.079 s against 0.058-0.059 s for a 100,000-entry tree. The
        /// kernel takes the pages only as they are filled; where it refuses
        /// (a socket, a user over the pipe quota) the buffer stays as it is.
        pub(crate) fn new(fd: OwnedFd) -> Self {
            let _ = rustix::pipe::fcntl_setpipe_size(&fd, 1 << 20);
            Self { fd }
        }

        /// A copy for one line: the line's thread then owns what it writes to.
        pub(crate) fn clone_for_line(&self) -> io::Result<Self> {
            #[cfg(target_os = "linux")]
            {
                Ok(Self {
                    fd: self.fd.try_clone()?,
                })
            }
            #[cfg(not(target_os = "linux"))]
            {
                match *self {}
            }
        }
    }

    /// Serializes `item` into `target` a block at a time, its long
    /// strings escaped once (see [`splice`](super::super::splice)), then a
    /// newline. The descriptor is non-blocking: a full pipe is waited for,
    /// in turns of `WAIT`, until `closed` is set.
    pub(crate) fn write_line(
        target: &Target,
        item: TxJsonRpcMessage<RoleServer>,
        closed: &AtomicBool,
    ) -> io::Result<()> {
        let mut out = io::BufWriter::with_capacity(IN_MEMORY, Raw { target, closed });
        crate::stdio::splice::write_line(item, &mut out)?;
        out.flush()
    }

    /// How long one wait for the reader lasts before `closed` is looked at.
    #[cfg(target_os = "linux")]
    const WAIT: std::time::Duration = std::time::Duration::from_millis(500);

    struct Raw<'a> {
        target: &'a Target,
        closed: &'a AtomicBool,
    }

    impl Write for Raw<'_> {
        #[cfg(target_os = "linux")]
        fn write(&mut self, data: &[u8]) -> io::Result<usize> {
            use rustix::event::{PollFd, PollFlags, Timespec, poll};
            loop {
                match rustix::io::write(&self.target.fd, data) {
                    Ok(n) => return Ok(n),
                    Err(rustix::io::Errno::INTR) => continue,
                    Err(rustix::io::Errno::AGAIN) => {
                        if self.closed.load(Ordering::Acquire) {
                            return Err(not_connected());
                        }
                        let mut fds = [PollFd::new(&self.target.fd, PollFlags::OUT)];
                        let wait = Timespec {
                            tv_sec: 0,
                            tv_nsec: WAIT.as_nanos() as _,
                        };
                        match poll(&mut fds, Some(&wait)) {
                            Ok(_) | Err(rustix::io::Errno::INTR) => continue,
                            Err(e) => return Err(e.into()),
                        }
                    }
                    Err(e) => return Err(e.into()),
                }
            }
        }

        #[cfg(not(target_os = "linux"))]
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            let _ = self.closed;
            match *self.target {}
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
}
