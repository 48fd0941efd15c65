//! `mcp_roots::Error` as a napi error: `code` is
//! `ERR_MCP_ROOTS_<REASON>`, the message a JSON object with the fields
//! (`message`, `reason`, `input`, `operation`, `detail`, `sentence`,
//! `pattern`) that
//! the JavaScript layer (`lib/errors.js`) turns into an `McpRootsError`.

use std::io;

/// The napi error of a library error.
pub(crate) fn to_napi(err: &mcp_roots::Error) -> napi::Error {
    napi::Error::new(napi::Status::GenericFailure, payload(err))
}

/// The JSON payload of a library error.
pub(crate) fn payload(err: &mcp_roots::Error) -> String {
    let fields = [
        ("message", Some(err.to_string())),
        ("reason", Some(err.reason().to_owned())),
        ("input", Some(err.input().to_owned())),
        (
            "operation",
            Some(format!("{:?}", err.operation()).to_lowercase()),
        ),
        ("detail", err.detail().map(str::to_owned)),
        ("sentence", Some(err.sentence())),
        ("pattern", err.pattern().map(str::to_owned)),
    ];
    object(PREFIX, &fields)
}

const PREFIX: &str = "MCP_ROOTS_ERROR";

/// `prefix` and a JSON object of string (or null) fields.
pub(crate) fn object(prefix: &str, fields: &[(&str, Option<String>)]) -> String {
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| match v {
            Some(v) => format!("\"{k}\":{}", json_string(v)),
            None => format!("\"{k}\":null"),
        })
        .collect();
    format!("{prefix}{{{}}}", body.join(","))
}

/// Parses gitignore-style patterns; a bad one is an `InvalidArg` error the
/// JavaScript layer turns into a `TypeError` with code
/// `ERR_MCP_ROOTS_INVALID_PATTERN` and the pattern.
pub(crate) fn patterns(text: Option<Vec<String>>) -> napi::Result<mcp_roots::Patterns> {
    mcp_roots::Patterns::parse(text.unwrap_or_default()).map_err(|err| {
        let fields = [
            ("message", Some(err.to_string())),
            ("pattern", Some(err.pattern().to_owned())),
            ("detail", Some(err.message().to_owned())),
        ];
        napi::Error::new(
            napi::Status::InvalidArg,
            object("MCP_ROOTS_PATTERN", &fields),
        )
    })
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An `io::Error` of a file handle: ours if it wraps our error (a revoked
/// handle), else a plain I/O failure.
pub(crate) fn io_to_napi(err: io::Error) -> napi::Error {
    match mcp_roots::Error::try_from_io(err) {
        Ok(ours) => to_napi(&ours),
        Err(plain) => napi::Error::from_reason(plain.to_string()),
    }
}

/// Converts the library's results.
pub(crate) trait IntoNapi<T> {
    fn napi(self) -> napi::Result<T>;
}

impl<T> IntoNapi<T> for Result<T, mcp_roots::Error> {
    fn napi(self) -> napi::Result<T> {
        self.map_err(|e| to_napi(&e))
    }
}

impl<T> IntoNapi<T> for Result<T, io::Error> {
    fn napi(self) -> napi::Result<T> {
        self.map_err(io_to_napi)
    }
}
