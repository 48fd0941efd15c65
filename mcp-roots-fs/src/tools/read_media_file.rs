//! `read_media_file`: the file base64-encoded, as an `image` or `audio`
//! block with its MIME type, any other type as an embedded resource. The
//! original's own table decides first (so its answers stay the same); other
//! extensions are looked up in `mime_guess`'s table.

use base64::Engine;
use mcp_roots::Snapshot;
use mcp_roots_rmcp::Stop;
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

use crate::original::paths::{read_refusal, target};
use crate::tools::args::PathOnly;
use crate::tools::bounded::{Instead, media_fits, read_whole, too_large};
use crate::tools::failed;

/// The original's table.
const KNOWN: [(&str, &str); 11] = [
    ("png", "image/png"),
    ("jpg", "image/jpeg"),
    ("jpeg", "image/jpeg"),
    ("gif", "image/gif"),
    ("webp", "image/webp"),
    ("bmp", "image/bmp"),
    ("svg", "image/svg+xml"),
    ("mp3", "audio/mpeg"),
    ("wav", "audio/wav"),
    ("ogg", "audio/ogg"),
    ("flac", "audio/flac"),
];

pub(crate) fn mime_type(name: &str) -> String {
    let Some((_, ext)) = name
        .rsplit_once('.')
        .filter(|(stem, _)| !stem.is_empty() && !stem.ends_with('/'))
    else {
        return "application/octet-stream".to_owned();
    };
    let ext = ext.to_ascii_lowercase();
    if let Some((_, mime)) = KNOWN.iter().find(|(e, _)| *e == ext) {
        return (*mime).to_owned();
    }
    mime_guess::from_ext(&ext)
        .first_raw()
        .unwrap_or("application/octet-stream")
        .to_owned()
}

/// The file at `args.path` as one base64 block: the tool's body over one
/// snapshot of the roots, callable without a tool call.
pub(crate) fn read(
    snap: &Snapshot<'_>,
    max_answer: u64,
    args: &PathOnly,
) -> Result<CallToolResult, Stop> {
    let spelled = target(snap, &args.path);
    let refusal = |err| read_refusal(err, &spelled);
    let scoped = snap.resolve(spelled.as_str()).map_err(refusal)?;
    let bytes = read_whole(
        snap.open(&scoped).map_err(refusal)?,
        max_answer,
        &args.path,
        Instead::SmallerFile,
    )?;
    if !media_fits(bytes.len() as u64, max_answer) {
        return Err(too_large(&args.path, max_answer, Instead::SmallerFile));
    }
    let mime = mime_type(scoped.rel());
    let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
    let block: Value = if mime.starts_with("image/") {
        json!({ "type": "image", "data": data, "mimeType": mime })
    } else if mime.starts_with("audio/") {
        json!({ "type": "audio", "data": data, "mimeType": mime })
    } else {
        json!({ "type": "resource", "resource": { "uri": scoped.to_uri(), "mimeType": mime, "blob": data } })
    };
    let content =
        serde_json::from_value(json!([block.clone()])).map_err(|e| failed(e.to_string()))?;
    let mut result = CallToolResult::success(content);
    result.structured_content = Some(json!({ "content": [block] }));
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::mime_type;

    #[test]
    fn the_originals_table_first_then_the_crates() {
        for (name, want) in [
            ("a.png", "image/png"),
            ("a.JPG", "image/jpeg"),
            ("a.svg", "image/svg+xml"),
            ("a.mp3", "audio/mpeg"),
            ("a.flac", "audio/flac"),
            ("a.pdf", "application/pdf"),
            ("a.tiff", "image/tiff"),
            ("noext", "application/octet-stream"),
            (".png", "application/octet-stream"),
            ("d/.png", "application/octet-stream"),
            ("a.zzz", "application/octet-stream"),
        ] {
            assert_eq!(mime_type(name), want, "{name}");
        }
    }
}
