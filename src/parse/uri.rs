//! The strict `file:` URI parser ([semantics 2](crate::semantics#2-uris)).
//!
//! It borrows the input and allocates only when an escape must be decoded or
//! a dot segment removed. It refuses, rather than repairs, everything a
//! lenient parser would normalise away: raw `\`, raw control characters
//! (every Unicode `Cc`: C0, DEL and C1) and raw line and paragraph
//! separators (U+2028, U+2029), malformed escapes, escapes that decode to `/`, `\` or NUL, non-UTF-8
//! bytes, hosts other than `localhost`, userinfo and ports.

use std::borrow::Cow;

/// The absolute path a `file:` URI names, with dot segments removed as text
/// (RFC 3986 5.2.4). `uri` must start with a `file:` scheme in any case.
/// The authority must be empty or `localhost` (the Unix reading; Windows
/// takes a server name too, see [`file_uri`]).
///
/// The error is a short description for the error message.
pub(crate) fn file_uri_path(uri: &str) -> Result<Cow<'_, str>, &'static str> {
    match file_uri(uri)? {
        FileUri { host: None, path } => Ok(path),
        FileUri { host: Some(_), .. } => Err("host other than localhost"),
    }
}

/// What a `file:` URI names: a host other than `localhost` (a server name:
/// letters, digits, `-`, `.`, `_`), and the path, dot segments removed.
#[derive(Debug)]
pub(crate) struct FileUri<'u> {
    /// `None` for an empty authority or `localhost` (in any case).
    pub(crate) host: Option<&'u str>,
    /// The decoded path, starting with `/`.
    pub(crate) path: Cow<'u, str>,
}

/// Reads a `file:` URI strictly: [`file_uri_path`] without the Unix rule on
/// the host. A userinfo, a port or any other character in the authority is
/// refused.
pub(crate) fn file_uri(uri: &str) -> Result<FileUri<'_>, &'static str> {
    debug_assert!(uri.len() >= 5 && uri[..5].eq_ignore_ascii_case("file:"));
    let rest = &uri[5..];
    let Scan { end, rewrite } = scan(rest.as_bytes())?;
    let hier = &rest[..end];
    let (host, path) = match hier.strip_prefix("//") {
        Some(after) => {
            let slash = after.bytes().position(|b| b == b'/');
            let (authority, path) = after.split_at(slash.unwrap_or(after.len()));
            if authority.is_empty() || authority.eq_ignore_ascii_case("localhost") {
                (None, path)
            } else if authority
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'))
            {
                (Some(authority), path)
            } else {
                return Err("a host that is not a plain server name (userinfo, port, escapes)");
            }
        }
        None => (None, hier),
    };
    if path.is_empty() {
        return Err("no path");
    }
    if !path.starts_with('/') {
        return Err("relative file URI");
    }
    if !rewrite {
        return Ok(FileUri {
            host,
            path: Cow::Borrowed(path),
        });
    }
    decode(path).map(|path| FileUri {
        host,
        path: Cow::Owned(path),
    })
}

/// What the one pass over a URI (after `file:`) found.
struct Scan {
    /// Where the query or fragment starts (or the length).
    end: usize,
    /// Whether the part before `end` has an escape or a dot segment.
    rewrite: bool,
}

const PLAIN: u8 = 0;
const REFUSED: u8 = 1;
const QUERY: u8 = 2;
const ESCAPE: u8 = 3;
const DOT: u8 = 4;
/// The lead byte of a two- or three-byte character that may be refused:
/// `0xC2` (C1 controls, U+0080–U+009F) and `0xE2` (U+2028, U+2029).
const LEAD: u8 = 5;

/// The class of each byte for [`scan`].
static CLASS: [u8; 256] = {
    let mut table = [PLAIN; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = REFUSED;
        b += 1;
    }
    table[0x7f] = REFUSED;
    table[b'\\' as usize] = REFUSED;
    table[b'?' as usize] = QUERY;
    table[b'#' as usize] = QUERY;
    table[b'%' as usize] = ESCAPE;
    table[b'.' as usize] = DOT;
    table[0xC2] = LEAD;
    table[0xE2] = LEAD;
    table
};

/// One pass: refuses raw control characters (C0, DEL, C1), raw U+2028 and
/// U+2029, and backslashes anywhere,
/// finds where the query or fragment starts, and whether the part before it
/// needs decoding (an escape or a dot segment).
fn scan(bytes: &[u8]) -> Result<Scan, &'static str> {
    let mut end = None;
    let mut rewrite = false;
    let mut i = 0;
    loop {
        // The common case: runs of plain bytes, eight at a time.
        while let Some(word) = bytes.get(i..i + 8) {
            if !plain_word(u64::from_le_bytes(word.try_into().unwrap())) {
                break;
            }
            i += 8;
        }
        while i < bytes.len() && CLASS[usize::from(bytes[i])] == PLAIN {
            i += 1;
        }
        let Some(&b) = bytes.get(i) else { break };
        match CLASS[usize::from(b)] {
            REFUSED => return Err("raw control character or backslash"),
            LEAD if refused_char(&bytes[i..]) => {
                return Err("raw control character or line or paragraph separator");
            }
            LEAD => {}
            QUERY => {
                end.get_or_insert(i);
            }
            ESCAPE => {
                // Escapes are checked in the whole URI, the dropped query
                // and fragment included: a malformed URI is refused.
                let hex = bytes.get(i + 1..i + 3);
                if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                    return Err("'%' not followed by two hex digits");
                }
                rewrite |= end.is_none();
            }
            _ => rewrite |= end.is_none() && dot_segment(bytes, i),
        }
        i += 1;
    }
    Ok(Scan {
        end: end.unwrap_or(bytes.len()),
        rewrite,
    })
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;
const LOWS: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// Nonzero (in the high bits) iff some byte of `x` is zero: exact as a
/// yes/no, though not as a byte mask. Masks of several words can be ORed
/// and tested once.
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x
}

/// [`zero_bytes`] of `x` with every byte equal to `b` zeroed.
#[inline(always)]
fn bytes_equal(x: u64, b: u8) -> u64 {
    zero_bytes(x ^ (ONES * u64::from(b)))
}

/// Whether `bytes`, starting at a [`LEAD`] byte of a UTF-8 string, start
/// with a C1 control (`C2 80`–`C2 9F`), U+2028 (`E2 80 A8`) or U+2029
/// (`E2 80 A9`).
fn refused_char(bytes: &[u8]) -> bool {
    matches!(
        bytes,
        [0xC2, 0x80..=0x9F, ..] | [0xE2, 0x80, 0xA8 | 0xA9, ..]
    )
}

/// Whether no byte of `x` is special for [`scan`] (all are [`PLAIN`] ASCII;
/// a word with a non-ASCII byte is scanned byte by byte, so that the
/// [`LEAD`] bytes are seen). One test for the whole word: the masks are
/// ORed, then their high bits tested.
#[inline(always)]
fn plain_word(x: u64) -> bool {
    // Below 0x20 (a subtraction that borrows, where the byte had no high
    // bit); 0x7f and every byte from 0x80 (exact, no carry between bytes).
    let controls = x.wrapping_sub(ONES * 0x20) & !x;
    let high = ((x & LOWS).wrapping_add(ONES)) | x;
    let special = bytes_equal(x, b'\\')
        | bytes_equal(x, b'?')
        | bytes_equal(x, b'#')
        | bytes_equal(x, b'%')
        | bytes_equal(x, b'.');
    (controls | high | special) & HIGHS == 0
}

/// Whether the `.` at `i` starts a `.` or `..` segment (ended by `/`, the
/// query, the fragment or the end).
fn dot_segment(bytes: &[u8], i: usize) -> bool {
    let ends = |j: usize| bytes.get(j).is_none_or(|b| matches!(b, b'/' | b'?' | b'#'));
    i > 0
        && bytes[i - 1] == b'/'
        && (ends(i + 1) || (bytes.get(i + 1) == Some(&b'.') && ends(i + 2)))
}

/// Whether the path has an escape or a dot segment (the test's name for
/// [`scan`]'s answer).
#[cfg(test)]
fn needs_rewrite(path: &str) -> bool {
    scan(path.as_bytes()).is_ok_and(|s| s.rewrite)
}

/// Decodes each segment once and removes dot segments.
fn decode(path: &str) -> Result<String, &'static str> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut trailing_slash = false;
    // `path` starts with '/': the first split item is empty.
    for raw in path.split('/').skip(1) {
        let segment = decode_segment(raw)?;
        trailing_slash = true;
        match segment.as_slice() {
            b"." => {}
            b".." => {
                out.pop();
            }
            _ => {
                trailing_slash = segment.is_empty();
                out.push(segment);
            }
        }
    }
    if trailing_slash && out.last().is_some_and(|s| s.is_empty()) {
        out.pop();
    }
    let mut joined = Vec::with_capacity(path.len());
    for segment in &out {
        joined.push(b'/');
        joined.extend_from_slice(segment);
    }
    if trailing_slash || joined.is_empty() {
        joined.push(b'/');
    }
    String::from_utf8(joined).map_err(|_| "escapes decode to invalid UTF-8")
}

/// Decodes one raw segment, refusing bad escapes and decoded separators.
fn decode_segment(raw: &str) -> Result<Vec<u8>, &'static str> {
    let bytes = raw.as_bytes();
    for (i, _) in raw.match_indices('%') {
        let well_formed = bytes.len() > i + 2
            && bytes[i + 1].is_ascii_hexdigit()
            && bytes[i + 2].is_ascii_hexdigit();
        if !well_formed {
            return Err("'%' not followed by two hex digits");
        }
    }
    let decoded: Vec<u8> = percent_encoding::percent_decode(bytes).collect();
    if decoded.iter().any(|&b| matches!(b, b'/' | b'\\' | 0)) {
        return Err("escape decodes to '/', '\\' or NUL");
    }
    // Each segment on its own: a later `..` must not hide a malformed one.
    if std::str::from_utf8(&decoded).is_err() {
        return Err("escapes decode to invalid UTF-8");
    }
    Ok(decoded)
}

#[cfg(test)]
mod tests {
    use super::file_uri_path;

    fn ok(uri: &str) -> String {
        file_uri_path(uri)
            .unwrap_or_else(|e| panic!("{uri}: {e}"))
            .into_owned()
    }

    #[test]
    fn plain_paths_are_borrowed() {
        let uri = "file:///home/a/x.md";
        assert!(matches!(
            file_uri_path(uri),
            Ok(std::borrow::Cow::Borrowed("/home/a/x.md"))
        ));
        assert_eq!(ok("FILE://LocalHost/a"), "/a");
        assert_eq!(ok("file:/a/b"), "/a/b");
        assert_eq!(ok("file:///a/x?y=/../z#f"), "/a/x");
    }

    #[test]
    fn dot_segments_are_removed_as_text() {
        assert_eq!(ok("file:///a/./b/../c"), "/a/c");
        assert_eq!(ok("file:///a/b/.."), "/a/");
        assert_eq!(ok("file:///a/b/%2E"), "/a/b/");
        assert_eq!(ok("file:///a/%2e%2E/%2e%2e/../x"), "/x");
        assert_eq!(ok("file:///a//../b"), "/a/b");
        assert_eq!(ok("file:///.."), "/");
        assert_eq!(ok("file:///a/b/"), "/a/b/");
    }

    #[test]
    fn escapes_decode_exactly_once() {
        assert_eq!(ok("file:///a/100%25.txt"), "/a/100%.txt");
        assert_eq!(ok("file:///a/%252e%252e"), "/a/%2e%2e");
        assert_eq!(ok("file:///a/caf%C3%A9"), "/a/café");
    }

    #[test]
    fn the_fast_check_matches_the_definition() {
        let slow = |p: &str| p.contains('%') || p.split('/').any(|s| s == "." || s == "..");
        for path in [
            "/a/b",
            "/a/.",
            "/a/..",
            "/a/./b",
            "/a/../b",
            "/.hidden",
            "/a/..b",
            "/a/b.",
            "/a/.../b",
            "/a/%41",
            "/",
            "/./",
            "//..",
            "/a/b/c.txt",
        ] {
            assert_eq!(super::needs_rewrite(path), slow(path), "{path}");
        }
    }

    #[test]
    fn the_word_test_agrees_with_the_byte_table() {
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut word = [b'a'; 8];
                word[at] = b;
                let plain = super::CLASS[usize::from(b)] == super::PLAIN && b < 0x80;
                assert_eq!(
                    super::plain_word(u64::from_le_bytes(word)),
                    plain,
                    "{b:#x} at {at}"
                );
                // And next to every other byte value.
                for other in [0u8, 0x1f, 0x20, 0x2e, 0x7e, 0x7f, 0x80, 0xff] {
                    word[(at + 1) % 8] = other;
                    let both =
                        plain && super::CLASS[usize::from(other)] == super::PLAIN && other < 0x80;
                    assert_eq!(
                        super::plain_word(u64::from_le_bytes(word)),
                        both,
                        "{b:#x}, {other:#x}"
                    );
                    word[(at + 1) % 8] = b'a';
                }
            }
        }
    }

    #[test]
    fn other_characters_with_the_lead_bytes_are_names() {
        // U+00A0–U+00BF share C1's lead byte, U+2000–U+2FFF U+2028's.
        for name in [
            "\u{a0}",
            "\u{a9}",
            "\u{bf}",
            "\u{2027}",
            "\u{202a}",
            "\u{2030}",
            "\u{20ac}",
            "\u{2fff}",
            "caf\u{e9}",
            "\u{4e2d}\u{6587}",
        ] {
            assert_eq!(
                ok(&format!("file:///a/{name}")),
                format!("/a/{name}"),
                "{name:?}"
            );
        }
        // Percent-encoded, the refused characters are names like any other.
        assert_eq!(ok("file:///a/n%C2%85l"), "/a/n\u{85}l");
        assert_eq!(ok("file:///a/%E2%80%A8"), "/a/\u{2028}");
        assert_eq!(ok("file:///a/%E2%80%A9"), "/a/\u{2029}");
    }

    #[test]
    fn the_byte_scan_refuses_exactly_the_controls_and_separators() {
        // Every character at every position of an eight-byte word: the
        // scan refuses it raw exactly when it is a control (`Cc`) or
        // U+2028/U+2029, or one of the ASCII bytes refused for themselves.
        let refused = |c: char| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\\');
        let chars = (0u32..0x300)
            .chain(0x2000..0x2100)
            .filter_map(char::from_u32);
        for c in chars {
            for pad in 0..9 {
                let uri = format!("file:///{}{c}", "a".repeat(pad));
                let rejected = super::file_uri(&uri).is_err();
                let special = matches!(c, '%' | '?' | '#' | '.' | '/');
                if !special {
                    assert_eq!(rejected, refused(c), "{c:?} after {pad}");
                }
            }
        }
    }

    #[test]
    fn malformed_input_is_refused() {
        for bad in [
            "file://host/a",
            "file://user@localhost/a",
            "file://localhost:80/a",
            "file://localhost",
            "file:",
            "file:a/b",
            "file:///a/%2F",
            "file:///a/%5c",
            "file:///a/%00",
            "file:///a/%2",
            "file:///a/%zz",
            "file:///a/%",
            "file:///a/%c0%ae",
            "file:///a/%ed%a0%80",
            "file:///a/%ed%a0%80/..",
            "file:///a/%ff/../b",
            "file:///a/.\t./b",
            "file:///a\\b",
            "file:///a/b\n",
            // Every Unicode control raw (C1 included), and the line and
            // paragraph separators, anywhere: path, query, fragment.
            "file:///a/n\u{85}l",
            "file:///a/\u{80}",
            "file:///a/\u{9f}x",
            "file:///\u{9b}31m",
            "file:///a/b\u{2028}c",
            "file:///a/b\u{2029}",
            "file:///a/b?\u{85}",
            "file:///a/b#\u{2028}",
            "file:///a/caf\u{e9}/\u{85}",
            "file:///a/\u{4e2d}\u{6587}\u{85}.txt",
        ] {
            assert!(file_uri_path(bad).is_err(), "{bad:?} accepted");
        }
    }
}
