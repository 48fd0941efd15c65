//! `read_text_file` (and `read_file`, its deprecated alias): the whole file,
//! its first `head` lines, or its last `tail` lines. `head` and `tail` read
//! only what they need, so `head: 10` on a 1 GB file reads its head, and
//! never more than `--max-answer-bytes` (a line may be gigabytes long); the
//! whole file is read only when its answer fits the bound
//! (see [`bounded`](crate::tools::bounded)).

use std::io::{Read, Seek, SeekFrom};

use mcp_roots::Snapshot;
use mcp_roots_rmcp::Stop;
use rmcp::model::CallToolResult;

use crate::original::paths::{read_refusal, target};
use crate::original::reply;
use crate::tools::args::ReadTextFile;
use crate::tools::bounded::{Instead, read_whole, text_fits, too_large};
use crate::tools::failed;

/// The read size of `head` and `tail`.
const CHUNK: usize = 64 * 1024;

/// The text of the file at `args.path` (or its head or tail): the tool's
/// body over one snapshot of the roots, callable without a tool call.
///
/// As 2.3.0: `head` and `tail` together are refused (also when one is 0),
/// and `0` is no lines. A part is read up to `max_answer` bytes at most
/// (one line may be gigabytes long): a part that would not fit the answer
/// is refused, telling the model to ask for fewer lines.
pub(crate) fn read(
    snap: &Snapshot<'_>,
    max_answer: u64,
    args: &ReadTextFile,
) -> Result<CallToolResult, Stop> {
    if args.head.is_some() && args.tail.is_some() {
        return Err(failed(
            "Cannot specify both head and tail parameters simultaneously",
        ));
    }
    let path = target(snap, &args.path);
    let mut file = snap
        .open(path.as_str())
        .map_err(|err| read_refusal(err, &path))?;
    let part = |text: Option<String>| match text {
        Some(text) if text_fits(&text, max_answer) => Ok(text),
        _ => Err(too_large(&args.path, max_answer, Instead::FewerLines)),
    };
    let text = match (args.head, args.tail) {
        (Some(n), _) => part(head_lines(&mut file, n.ceil(), max_answer)?)?,
        (_, Some(n)) => part(tail_lines(&mut file, n.trunc(), max_answer)?)?,
        _ => {
            let bytes = read_whole(file, max_answer, &args.path, Instead::HeadOrTail)?;
            let text = String::from_utf8_lossy(&bytes).into_owned();
            if !text_fits(&text, max_answer) {
                return Err(too_large(&args.path, max_answer, Instead::HeadOrTail));
            }
            text
        }
    };
    Ok(reply::text(text))
}

fn io(err: std::io::Error) -> Stop {
    failed(err.to_string())
}

/// The first `n` lines, joined by `\n`, each without its line end (`\n` or
/// `\r\n`); a last line without a newline counts, as 2.3.0 cuts them.
/// `None` when the lines take more than `bound` bytes: no more than
/// `bound` bytes and one are read.
fn head_lines(file: &mut impl Read, n: f64, bound: u64) -> Result<Option<String>, Stop> {
    if n.is_nan() || n <= 0.0 {
        return Ok(Some(String::new()));
    }
    let wanted = n as usize;
    let mut lines: Vec<Vec<u8>> = Vec::new();
    let mut pending: Vec<u8> = Vec::new();
    let mut taken: u64 = 0;
    let mut chunk = vec![0; CHUNK];
    while lines.len() < wanted {
        let room = bound.saturating_add(1).saturating_sub(taken);
        if room == 0 {
            return Ok(None);
        }
        let len = (CHUNK as u64).min(room) as usize;
        let read = file.read(&mut chunk[..len]).map_err(io)?;
        if read == 0 {
            break;
        }
        taken += read as u64;
        let mut rest = &chunk[..read];
        while let Some(at) = rest.iter().position(|b| *b == b'\n') {
            pending.extend_from_slice(&rest[..at]);
            rest = &rest[at + 1..];
            if pending.last() == Some(&b'\r') {
                pending.pop();
            }
            lines.push(std::mem::take(&mut pending));
            if lines.len() == wanted {
                break;
            }
        }
        if lines.len() < wanted {
            pending.extend_from_slice(rest);
        }
    }
    if !pending.is_empty() && lines.len() < wanted {
        lines.push(pending);
    }
    Ok(Some(
        String::from_utf8_lossy(&lines.join(&b'\n')).into_owned(),
    ))
}

/// The last `n` lines (CRLF made LF), as 2.3.0 cuts them: a final newline
/// ends the last line rather than starting an empty one, and the text is
/// returned without it. Read backwards until the lines are in; `None` when
/// they take more than `bound` bytes: no more than `bound` bytes and one
/// are read.
fn tail_lines<F: Read + Seek>(file: &mut F, n: f64, bound: u64) -> Result<Option<String>, Stop> {
    if n.is_nan() || n <= 0.0 {
        return Ok(Some(String::new()));
    }
    let wanted = n as usize;
    let size = file.seek(SeekFrom::End(0)).map_err(io)?;
    let mut position = size;
    let mut bytes: Vec<u8> = Vec::new();
    let mut newlines = 0;
    let mut needed = wanted;
    let mut chunk = vec![0; CHUNK];
    while position > 0 && newlines < needed {
        let room = bound.saturating_add(1).saturating_sub(size - position);
        if room == 0 {
            return Ok(None);
        }
        let len = (CHUNK as u64).min(position).min(room) as usize;
        let at_end = position == size;
        position -= len as u64;
        file.seek(SeekFrom::Start(position)).map_err(io)?;
        file.read_exact(&mut chunk[..len]).map_err(io)?;
        if at_end && chunk[len - 1] == b'\n' {
            needed += 1;
        }
        newlines += chunk[..len].iter().filter(|b| **b == b'\n').count();
        let mut joined = chunk[..len].to_vec();
        joined.extend_from_slice(&bytes);
        bytes = joined;
    }
    let text = String::from_utf8_lossy(&bytes).replace("\r\n", "\n");
    let text = text.strip_suffix('\n').unwrap_or(&text);
    let pieces: Vec<&str> = text.split('\n').collect();
    let from = pieces.len().saturating_sub(wanted);
    Ok(Some(pieces[from..].join("\n")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    const BIG: u64 = 1 << 30;

    fn head(text: &str, n: f64, bound: u64) -> Option<String> {
        head_lines(&mut Cursor::new(text.as_bytes()), n, bound)
            .ok()
            .unwrap()
    }

    fn tail(text: &str, n: f64, bound: u64) -> Option<String> {
        tail_lines(&mut Cursor::new(text.as_bytes()), n, bound)
            .ok()
            .unwrap()
    }

    #[test]
    fn heads_as_2_3_0_cuts_them() {
        for (text, n, want) in [
            ("a\nb\nc\n", 2.0, "a\nb"),
            ("a\nb\nc\n", 5.0, "a\nb\nc"),
            ("a\nb", 5.0, "a\nb"),
            ("a\n\n", 5.0, "a\n"),
            ("a\r\nb\r\n", 1.0, "a"),
            ("one\r\ntwo\r\nthree", 2.0, "one\ntwo"),
            ("x\r", 1.0, "x\r"),
            ("", 3.0, ""),
            ("a\nb", 0.0, ""),
            ("a\nb", -1.0, ""),
            ("x", 1.0, "x"),
        ] {
            assert_eq!(head(text, n, BIG).as_deref(), Some(want), "{text:?} {n}");
        }
        // A CRLF pair split across two chunks.
        let split = "a".repeat(CHUNK - 1) + "\r\nb\n";
        assert_eq!(head(&split, 1.0, BIG), Some("a".repeat(CHUNK - 1)));
    }

    #[test]
    fn tails_as_2_3_0_cuts_them() {
        for (text, n, want) in [
            ("alpha\nbeta\ngamma\n", 2.0, "beta\ngamma"),
            ("a\nb\nc", 2.0, "b\nc"),
            ("a\r\nb\r\nc\r\n", 2.0, "b\nc"),
            ("a\nb", 9.0, "a\nb"),
            ("a\n\n", 1.0, ""),
            ("a\n\n", 2.0, "a\n"),
            ("", 2.0, ""),
            ("a\nb", 0.0, ""),
            ("a\nb", -2.0, ""),
        ] {
            assert_eq!(tail(text, n, BIG).as_deref(), Some(want), "{text:?} {n}");
        }
        let many: String = (1..=2000).map(|i| format!("line {i}\n")).collect();
        assert_eq!(
            tail(&many, 3.0, BIG).as_deref(),
            Some("line 1998\nline 1999\nline 2000")
        );
        // Across chunks: only the end is read.
        let big = "line\n".repeat(50_000) + "last";
        assert_eq!(tail(&big, 2.0, BIG).as_deref(), Some("line\nlast"));
    }

    /// A reader that counts the bytes it hands out.
    struct Counted<R> {
        inner: R,
        read: u64,
    }

    impl<R: Read> Read for Counted<R> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.inner.read(buf)?;
            self.read += n as u64;
            Ok(n)
        }
    }

    impl<R: Seek> Seek for Counted<R> {
        fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
            self.inner.seek(pos)
        }
    }

    #[test]
    fn long_lines_are_refused_after_reading_the_bound_at_most() {
        for (bound, line_len) in [(1000_u64, 5000_usize), (100_000, 300_000), (4096, 4097)] {
            let text = format!("{}\nshort\n", "x".repeat(line_len));
            let mut file = Counted {
                inner: Cursor::new(text.as_bytes()),
                read: 0,
            };
            let got = head_lines(&mut file, 1.0, bound).ok().unwrap();
            assert_eq!(got, None, "{bound} {line_len}");
            assert!(file.read <= bound + 1, "head read {} of {bound}", file.read);

            let text = format!("short\n{}\n", "y".repeat(line_len));
            let mut file = Counted {
                inner: Cursor::new(text.as_bytes()),
                read: 0,
            };
            let got = tail_lines(&mut file, 1.0, bound).ok().unwrap();
            assert_eq!(got, None, "{bound} {line_len}");
            assert!(file.read <= bound + 1, "tail read {} of {bound}", file.read);
        }
        // Lines within the bound are returned whatever the file's size.
        let text = format!("first\n{}\nlast\n", "z".repeat(10_000));
        assert_eq!(head(&text, 1.0, 100).as_deref(), Some("first"));
        assert_eq!(tail(&text, 1.0, 100).as_deref(), Some("last"));
    }
}
