//! Reads bounded by the size of the answer they make
//! (`--max-answer-bytes`): the tools that read a file whole
//! (`read_text_file` without `head` or `tail`, `read_media_file`,
//! `edit_file`), and `read_text_file`'s `head` and `tail` (whose lines may
//! be any length), never read more than the bound, and refuse, with a
//! reason the model can act on, an answer that would not fit it once
//! encoded.
//!
//! The bound is on the encoded answer, the JSON-RPC line a client reads:
//! a text travels twice in it (the text block and
//! `structuredContent.content`), each JSON-escaped (up to 6 bytes for one
//! control byte), and media travels twice as base64 (4 bytes for 3).
//! Clients drop longer lines (rmcp's client: 16 MiB), so the default
//! leaves room below that for the envelope.
//!
//! A resource read (`resources/read`) reads through the same check
//! ([`read_at_most`]) and carries its contents once ([`text_fits_once`],
//! [`media_fits_once`]).
//!
//! The file's size is checked first (`fstat` on the open file), and the
//! read is limited to the bound plus one byte, since the file can grow
//! between the two: a file larger than the bound is never read whole.

use mcp_roots::TrackedFile;
use mcp_roots_rmcp::Stop;

use crate::tools::{failed, read_up_to};

/// The default of `--max-answer-bytes`: 15 MiB, 1 MiB below the longest
/// line rmcp's client accepts (16 MiB), for the JSON-RPC envelope.
pub(crate) const DEFAULT_MAX_ANSWER: u64 = 15 * 1024 * 1024;

/// Room for what an answer carries beside its text or data (the envelope,
/// the block's type and MIME type, a resource's URI).
const ENVELOPE: u64 = 4096;

/// What a refusal tells the model to do instead.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Instead {
    /// Read a part of the file (`read_text_file`).
    HeadOrTail,
    /// Use a smaller file (`read_media_file`, `edit_file`).
    SmallerFile,
    /// Ask for fewer lines (`read_text_file` with `head` or `tail`, whose
    /// lines are too long together).
    FewerLines,
}

/// The refusal of an answer over `bound`, for the file `path`.
pub(crate) fn too_large(path: &str, bound: u64, instead: Instead) -> Stop {
    let (what, advice) = match instead {
        Instead::HeadOrTail => (
            "is too large to read whole",
            "read a part of it with head or tail",
        ),
        Instead::SmallerFile => ("is too large to read whole", "use a smaller file"),
        Instead::FewerLines => (
            "has lines too long to return",
            "ask for fewer lines with a smaller head or tail",
        ),
    };
    failed(format!(
        "{path} {what}: the answer would exceed {bound} bytes \
         (--max-answer-bytes); {advice}"
    ))
}

/// The rest of `file`, refused without reading when its size is over
/// `bound`, and refused when more than `bound` bytes come (it grew).
pub(crate) fn read_whole(
    file: TrackedFile,
    bound: u64,
    path: &str,
    instead: Instead,
) -> Result<Vec<u8>, Stop> {
    read_at_most(file, bound)?.ok_or_else(|| too_large(path, bound, instead))
}

/// The rest of `file` if it is at most `bound` bytes; `None`, without
/// reading, when its size is over `bound`, and when more than `bound`
/// bytes come (it grew): the check every whole-file answer shares (the
/// tools' and a resource read's).
pub(crate) fn read_at_most(file: TrackedFile, bound: u64) -> Result<Option<Vec<u8>>, Stop> {
    let size = file.metadata().map_err(|e| failed(e.to_string()))?.len();
    if size > bound {
        return Ok(None);
    }
    let bytes = read_up_to(file, bound.saturating_add(1)).map_err(|e| failed(e.to_string()))?;
    Ok((bytes.len() as u64 <= bound).then_some(bytes))
}

/// The bytes `text` takes as a JSON string (quotes included), escaped as
/// serde_json escapes it.
pub(crate) fn json_len(text: &str) -> u64 {
    let escaped: u64 = text
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0x00..=0x1f => 6,
            _ => 1,
        })
        .sum();
    escaped + 2
}

/// Whether an answer carrying `text` twice fits `bound`.
pub(crate) fn text_fits(text: &str, bound: u64) -> bool {
    json_len(text).saturating_mul(2).saturating_add(ENVELOPE) <= bound
}

/// Whether an answer carrying `len` bytes twice as base64 fits `bound`.
pub(crate) fn media_fits(len: u64, bound: u64) -> bool {
    base64_len(len).saturating_mul(2).saturating_add(ENVELOPE) <= bound
}

/// Whether an answer carrying `text` once fits `bound` (a resource's
/// contents carry it once).
pub(crate) fn text_fits_once(text: &str, bound: u64) -> bool {
    json_len(text).saturating_add(ENVELOPE) <= bound
}

/// Whether an answer carrying `len` bytes once as base64 fits `bound`.
pub(crate) fn media_fits_once(len: u64, bound: u64) -> bool {
    base64_len(len).saturating_add(ENVELOPE) <= bound
}

fn base64_len(len: u64) -> u64 {
    len.div_ceil(3).saturating_mul(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lengths_are_serde_json_s() {
        for text in [
            "",
            "plain",
            "a\"b\\c",
            "line\nline\r\n\t",
            "\u{0}\u{1}\u{1f}\u{7f}",
            "é€😀",
            "\u{8}\u{c}",
        ] {
            let encoded = serde_json::to_string(text).unwrap();
            assert_eq!(json_len(text), encoded.len() as u64, "{text:?}");
        }
    }

    #[test]
    fn fits_count_the_text_twice() {
        let bound = 10_000;
        let under = "x".repeat(((bound - ENVELOPE) / 2 - 2) as usize);
        assert!(text_fits(&under, bound));
        assert!(!text_fits(&format!("{under}x"), bound));
        // Control bytes escape to six bytes each.
        let controls = "\u{1}".repeat(under.len() / 6);
        assert!(text_fits(&controls, bound));
        assert!(!text_fits(&"\u{1}".repeat(under.len() / 6 + 1), bound));
        let media = (bound - ENVELOPE) / 8 * 3;
        assert!(media_fits(media, bound));
        assert!(!media_fits(media + 3, bound));
    }

    #[test]
    fn fits_once_count_the_text_once() {
        let bound = 10_000;
        let under = "x".repeat((bound - ENVELOPE - 2) as usize);
        assert!(text_fits_once(&under, bound));
        assert!(!text_fits_once(&format!("{under}x"), bound));
        assert!(!text_fits(&under, bound));
        let media = (bound - ENVELOPE) / 4 * 3;
        assert!(media_fits_once(media, bound));
        assert!(!media_fits_once(media + 3, bound));
        assert!(!media_fits(media, bound));
    }
}
