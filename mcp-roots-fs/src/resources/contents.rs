//! A file's bytes as one resource's contents, as the original decides:
//! text with its MIME type when the type is textual (`text/*`, JSON, XML,
//! YAML, SVG) or unknown and the bytes are UTF-8 without a NUL
//! (`text/plain` when unknown); otherwise a base64 `blob` with its MIME
//! type (`application/octet-stream` when unknown).

use base64::Engine;
use rmcp::model::ResourceContents;

/// The original's table: MIME types by lower-case extension (29 of them);
/// any other extension is unknown and the bytes decide.
const TYPES: [(&str, &str); 29] = [
    ("txt", "text/plain"),
    ("md", "text/markdown"),
    ("csv", "text/csv"),
    ("html", "text/html"),
    ("htm", "text/html"),
    ("css", "text/css"),
    ("js", "text/javascript"),
    ("mjs", "text/javascript"),
    ("ts", "text/typescript"),
    ("json", "application/json"),
    ("xml", "application/xml"),
    ("yaml", "application/yaml"),
    ("yml", "application/yaml"),
    ("svg", "image/svg+xml"),
    ("png", "image/png"),
    ("jpg", "image/jpeg"),
    ("jpeg", "image/jpeg"),
    ("gif", "image/gif"),
    ("webp", "image/webp"),
    ("bmp", "image/bmp"),
    ("ico", "image/x-icon"),
    ("mp3", "audio/mpeg"),
    ("wav", "audio/wav"),
    ("ogg", "audio/ogg"),
    ("flac", "audio/flac"),
    ("mp4", "video/mp4"),
    ("pdf", "application/pdf"),
    ("zip", "application/zip"),
    ("gz", "application/gzip"),
];

/// Types outside `text/*` whose contents are text.
const TEXTUAL: [&str; 4] = [
    "application/json",
    "application/xml",
    "application/yaml",
    "image/svg+xml",
];

/// What a resource's contents will be, before they are encoded.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Contents {
    /// Text with its MIME type.
    Text { mime: &'static str, text: String },
    /// Bytes (base64 on the wire) with their MIME type.
    Blob { mime: &'static str, bytes: Vec<u8> },
}

impl Contents {
    /// The contents of the file named `name` (its last component decides
    /// the type) holding `bytes`.
    pub(crate) fn of(name: &str, bytes: Vec<u8>) -> Self {
        let known = mime_type(name);
        if known.is_none_or(is_textual) {
            match text(bytes) {
                Ok(text) => {
                    return Self::Text {
                        mime: known.unwrap_or("text/plain"),
                        text,
                    };
                }
                Err(bytes) => {
                    return Self::Blob {
                        mime: known.unwrap_or("application/octet-stream"),
                        bytes,
                    };
                }
            }
        }
        Self::Blob {
            mime: known.unwrap_or("application/octet-stream"),
            bytes,
        }
    }

    /// The contents as rmcp's value, for `uri`.
    pub(crate) fn into_resource(self, uri: &str) -> ResourceContents {
        match self {
            Self::Text { mime, text } => ResourceContents::text(text, uri).with_mime_type(mime),
            Self::Blob { mime, bytes } => {
                let blob = base64::engine::general_purpose::STANDARD.encode(bytes);
                ResourceContents::blob(blob, uri).with_mime_type(mime)
            }
        }
    }
}

/// The table's type for `name`'s extension (as Node's `path.extname`
/// finds it: after the last dot of the last component, unless that dot
/// begins the name).
fn mime_type(name: &str) -> Option<&'static str> {
    let last = name.rsplit('/').next().unwrap_or(name);
    let (stem, ext) = last.rsplit_once('.')?;
    if stem.is_empty() {
        return None;
    }
    let ext = ext.to_ascii_lowercase();
    TYPES.iter().find(|(e, _)| *e == ext).map(|(_, mime)| *mime)
}

fn is_textual(mime: &str) -> bool {
    mime.starts_with("text/") || TEXTUAL.contains(&mime)
}

/// The bytes as text: UTF-8 without a NUL (a NUL is valid UTF-8 but marks
/// binary contents); else the bytes back.
fn text(bytes: Vec<u8>) -> Result<String, Vec<u8>> {
    if bytes.contains(&0) {
        return Err(bytes);
    }
    String::from_utf8(bytes).map_err(|e| e.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(name: &str, bytes: &[u8]) -> Contents {
        Contents::of(name, bytes.to_vec())
    }

    #[test]
    fn text_types_and_unknown_utf8_are_text() {
        for (name, bytes, want) in [
            ("a.md", &b"# hi\n"[..], "text/markdown"),
            ("d/a.JSON", b"{}", "application/json"),
            ("a.svg", b"<svg/>", "image/svg+xml"),
            ("noext", b"plain", "text/plain"),
            ("a.rs", "fn é()".as_bytes(), "text/plain"),
            (".md", b"hidden-like name, no extension", "text/plain"),
            ("empty.txt", b"", "text/plain"),
        ] {
            match of(name, bytes) {
                Contents::Text { mime, text } => {
                    assert_eq!(mime, want, "{name}");
                    assert_eq!(text.as_bytes(), bytes, "{name}");
                }
                other => panic!("{name}: {other:?}"),
            }
        }
    }

    #[test]
    fn binary_types_nul_and_bad_utf8_are_blobs() {
        for (name, bytes, want) in [
            ("a.png", &b"plain ascii"[..], "image/png"),
            ("a.pdf", b"%PDF", "application/pdf"),
            ("a.txt", b"a\0b", "text/plain"),
            ("a.json", b"\xff\xfe", "application/json"),
            ("noext", b"\x00\x01", "application/octet-stream"),
            ("a.bin", b"\xc3\x28", "application/octet-stream"),
        ] {
            match of(name, bytes) {
                Contents::Blob { mime, bytes: got } => {
                    assert_eq!(mime, want, "{name}");
                    assert_eq!(got, bytes, "{name}");
                }
                other => panic!("{name}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_blob_is_base64_on_the_wire() {
        let wire = serde_json::to_value(of("a.png", b"\x89PNG").into_resource("file:///a.png"))
            .expect("serialises");
        assert_eq!(wire["blob"], "iVBORw==");
        assert_eq!(wire["mimeType"], "image/png");
        assert_eq!(wire["uri"], "file:///a.png");
        assert!(wire.get("text").is_none());
    }
}
