//! [`Input`]: standard input cut into lines, each at most [`MAX_LINE`]
//! bytes. The buffer never grows past the limit: a longer line is reported
//! as [`Read::Oversized`] once, with the part of it that fits, and the
//! rest of it is skipped as it arrives, never held.
//!
//! Reading is safe to cancel. The service polls `receive` beside its other
//! work and drops it whenever something else is ready first; the bytes of
//! a line read so far live in [`Input`], not in the dropped future, and
//! the next read goes on from them. Nothing is taken from the reader
//! without being copied (or skipped) in the same synchronous step.

use std::io;

use tokio::io::{AsyncBufReadExt, BufReader};

use super::Reader;

/// The longest line read, its newline not counted: 16 MiB, the most a
/// message may hold in rmcp's own stdio reader and in its HTTP client.
pub(crate) const MAX_LINE: usize = 16 * 1024 * 1024;

/// Standard input, a line at a time.
pub(crate) struct Input {
    read: BufReader<Reader>,
    /// The line under way, its newline included once it is whole.
    line: Vec<u8>,
    /// The longest line kept, its newline not counted.
    limit: usize,
    /// Skipping the rest of a line already reported as too long.
    skipping: bool,
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Input")
            .field("buffered", &self.line.len())
            .field("limit", &self.limit)
            .field("skipping", &self.skipping)
            .finish_non_exhaustive()
    }
}

/// What one call to [`Input::next`] found.
#[derive(Debug)]
pub(crate) enum Read {
    /// A whole line is in [`Input::line`].
    Line,
    /// A line longer than the limit: its first `limit` bytes are in
    /// [`Input::line`]; the rest is skipped by the next reads.
    Oversized,
    /// The end of the input (a last line without a newline is no message).
    End,
    /// Reading failed.
    Failed(io::Error),
}

impl Input {
    /// Lines of `read`, at most `limit` bytes each.
    pub(crate) fn new(read: Reader, limit: usize) -> Self {
        Self {
            read: BufReader::new(read),
            line: Vec::new(),
            limit,
            skipping: false,
        }
    }

    /// The longest line kept.
    pub(crate) fn limit(&self) -> usize {
        self.limit
    }

    /// The line [`next`](Self::next) found, its newline and a carriage
    /// return before it taken off.
    pub(crate) fn line(&self) -> &[u8] {
        let line = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
        line.strip_suffix(b"\r").unwrap_or(line)
    }

    /// Forgets the line found, keeping the buffer's capacity (call it
    /// before waiting on anything else).
    pub(crate) fn clear(&mut self) {
        self.line.clear();
    }

    /// Reads on until a whole line, a line over the limit, or the end.
    /// Call [`clear`](Self::clear) after each `Line` or `Oversized`.
    pub(crate) async fn next(&mut self) -> Read {
        // With the newline, a line that fits holds `limit + 1` bytes.
        let most = self.limit.saturating_add(1);
        loop {
            let available = match self.read.fill_buf().await {
                Ok(available) => available,
                Err(e) => return Read::Failed(e),
            };
            if available.is_empty() {
                return Read::End;
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let take = newline.map_or(available.len(), |at| at + 1);
            let found = if self.skipping {
                self.skipping = newline.is_none();
                None
            } else if self.line.len() + take > most {
                // Keep what fits of it (the id is read from there).
                let room = self.limit - self.line.len().min(self.limit);
                self.line.extend_from_slice(&available[..room.min(take)]);
                self.skipping = newline.is_none();
                Some(Read::Oversized)
            } else {
                self.line.extend_from_slice(&available[..take]);
                newline.map(|_| Read::Line)
            };
            self.read.consume(take);
            if let Some(found) = found {
                return found;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Waker};
    use tokio::io::AsyncWriteExt;

    fn input(limit: usize) -> (tokio::io::DuplexStream, Input) {
        let (client, server) = tokio::io::duplex(64);
        (client, Input::new(Box::new(server), limit))
    }

    async fn line(input: &mut Input) -> Vec<u8> {
        let read = input.next().await;
        assert!(matches!(read, Read::Line), "{read:?}");
        let line = input.line().to_vec();
        input.clear();
        line
    }

    #[tokio::test]
    async fn a_read_dropped_mid_line_loses_no_byte() {
        let (mut client, mut input) = input(1024);
        client.write_all(b"{\"jsonrpc\":").await.unwrap();
        // The read takes the start of the line, then waits for the rest,
        // and is dropped there (as the service drops `receive`).
        {
            let mut read = pin!(input.next());
            let mut cx = Context::from_waker(Waker::noop());
            assert!(read.as_mut().poll(&mut cx).is_pending());
        }
        assert_eq!(input.line, b"{\"jsonrpc\":");
        client.write_all(b"\"2.0\"}\r\nnext\n").await.unwrap();
        assert_eq!(line(&mut input).await, b"{\"jsonrpc\":\"2.0\"}");
        assert_eq!(line(&mut input).await, b"next");
        drop(client);
        assert!(matches!(input.next().await, Read::End));
    }

    #[tokio::test]
    async fn a_line_over_the_limit_is_reported_once_and_skipped() {
        let (mut client, mut input) = input(10);
        let writer = tokio::spawn(async move {
            // Exactly the limit, then one byte more (longer than the
            // duplex's buffer: it arrives in several reads), then a line.
            client.write_all(b"0123456789\n").await.unwrap();
            client.write_all(&[b'x'; 200]).await.unwrap();
            client.write_all(b"\n\nok\n").await.unwrap();
            client.write_all(b"01234567890\nlast").await.unwrap();
        });
        assert_eq!(line(&mut input).await, b"0123456789");
        assert!(matches!(input.next().await, Read::Oversized));
        assert_eq!(input.line(), [b'x'; 10]);
        input.clear();
        assert_eq!(line(&mut input).await, b"");
        assert_eq!(line(&mut input).await, b"ok");
        assert!(matches!(input.next().await, Read::Oversized));
        assert_eq!(input.line(), b"0123456789");
        input.clear();
        writer.await.unwrap();
        // A last line without its newline is no line.
        assert!(matches!(input.next().await, Read::End));
    }
}
