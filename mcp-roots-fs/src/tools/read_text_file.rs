//! `read_text_file` (and `read_file`, its deprecated alias): the whole file,
//! its first `head` lines, or its last `tail` lines. `head` and `tail` read
//! only what they need, so `head: 10` on a 1 GB file reads its head; the
//! whole file is read only when its answer fits `--max-answer-bytes`
//! (see [`bounded`](crate::tools::bounded)).

use std::io::{Read, Seek, SeekFrom};

use mcp_roots::Snapshot;
use mcp_roots_rmcp::Stop;
use rmcp::model::CallToolResult;

use crate::original::paths::target;
use crate::original::reply;
use crate::tools::args::ReadTextFile;
use crate::tools::bounded::{Instead, read_whole, text_fits, too_large};
use crate::tools::failed;

/// The read size of `head` and `tail`.
const CHUNK: usize = 64 * 1024;

/// The text of the file at `args.path` (or its head or tail): the tool's
/// body over one snapshot of the roots, callable without a tool call.
pub(crate) fn read(
    snap: &Snapshot<'_>,
    max_answer: u64,
    args: &ReadTextFile,
) -> Result<CallToolResult, Stop> {
    // The original treats 0 as absent (a JavaScript truthiness test).
    let head = args.head.filter(|n| *n != 0.0);
    let tail = args.tail.filter(|n| *n != 0.0);
    let path = target(snap, &args.path);
    if head.is_some() && tail.is_some() {
        return Err(failed(
            "Cannot specify both head and tail parameters simultaneously",
        ));
    }
    let mut file = snap.open(path.as_str())?;
    let text = match (head, tail) {
        (Some(n), _) => head_lines(&mut file, n.ceil())?,
        (_, Some(n)) => tail_lines(&mut file, n.trunc())?,
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

/// The first `n` lines, joined by `\n` (a last line without its newline
/// counts; line ends other than `\n` are kept, as the original keeps them).
fn head_lines(file: &mut impl Read, n: f64) -> Result<String, Stop> {
    if n < 0.0 {
        return Ok(String::new());
    }
    let wanted = n as usize;
    let mut bytes = Vec::new();
    let mut newlines = 0;
    let mut chunk = vec![0; CHUNK];
    loop {
        let read = file.read(&mut chunk).map_err(io)?;
        if read == 0 {
            break;
        }
        for (i, byte) in chunk[..read].iter().enumerate() {
            if *byte == b'\n' {
                newlines += 1;
                if newlines == wanted {
                    bytes.extend_from_slice(&chunk[..i]);
                    return Ok(String::from_utf8_lossy(&bytes).into_owned());
                }
            }
        }
        bytes.extend_from_slice(&chunk[..read]);
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The last `n` pieces of the text split at `\n` (CRLF made LF), as the
/// original cuts them: reading backwards until `n` newlines are in.
fn tail_lines<F: Read + Seek>(file: &mut F, n: f64) -> Result<String, Stop> {
    if n < 0.0 {
        return Ok(String::new());
    }
    let wanted = n as usize;
    let size = file.seek(SeekFrom::End(0)).map_err(io)?;
    let mut position = size;
    let mut bytes: Vec<u8> = Vec::new();
    let mut newlines = 0;
    let mut chunk = vec![0; CHUNK];
    while position > 0 && newlines < wanted {
        let len = (CHUNK as u64).min(position) as usize;
        position -= len as u64;
        file.seek(SeekFrom::Start(position)).map_err(io)?;
        file.read_exact(&mut chunk[..len]).map_err(io)?;
        newlines += chunk[..len].iter().filter(|b| **b == b'\n').count();
        let mut joined = chunk[..len].to_vec();
        joined.extend_from_slice(&bytes);
        bytes = joined;
    }
    let text = String::from_utf8_lossy(&bytes).replace("\r\n", "\n");
    let pieces: Vec<&str> = text.split('\n').collect();
    let from = pieces.len().saturating_sub(wanted);
    Ok(pieces[from..].join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn heads_as_the_original_cuts_them() {
        for (text, n, want) in [
            ("a\nb\nc\n", 2.0, "a\nb"),
            ("a\nb\nc\n", 5.0, "a\nb\nc"),
            ("a\nb", 5.0, "a\nb"),
            ("a\n\n", 5.0, "a\n"),
            ("a\r\nb\r\n", 1.0, "a\r"),
            ("", 3.0, ""),
            ("a\nb", -1.0, ""),
            ("x", 1.0, "x"),
        ] {
            let got = head_lines(&mut Cursor::new(text.as_bytes()), n)
                .ok()
                .unwrap();
            assert_eq!(got, want, "{text:?} {n}");
        }
    }

    #[test]
    fn tails_as_the_original_cuts_them() {
        for (text, n, want) in [
            ("a\nb\nc\n", 2.0, "c\n"),
            ("a\nb\nc", 2.0, "b\nc"),
            ("a\r\nb\r\nc", 2.0, "b\nc"),
            ("a\nb", 9.0, "a\nb"),
            ("", 2.0, ""),
            ("a\nb", -2.0, ""),
        ] {
            let got = tail_lines(&mut Cursor::new(text.as_bytes()), n)
                .ok()
                .unwrap();
            assert_eq!(got, want, "{text:?} {n}");
        }
        // Across chunks: only the end is read.
        let big = "line\n".repeat(50_000) + "last";
        let got = tail_lines(&mut Cursor::new(big.as_bytes()), 2.0)
            .ok()
            .unwrap();
        assert_eq!(got, "line\nlast");
    }
}
