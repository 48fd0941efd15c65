//! The native addon of the Node package `mcp-roots` (napi-rs).
//! Conversions only: every decision is the Rust crate's.

pub mod confine;
mod errors;
mod file;
mod grants;
mod roots;
mod scope;
mod task;
mod values;
mod watch;

use napi_derive::napi;

/// The stable reasons, in the crate's table order.
#[napi]
pub fn reasons() -> Vec<&'static str> {
    mcp_roots::ErrorKind::ALL
        .iter()
        .map(|k| k.reason())
        .collect()
}

/// Throws the library's refusal of a path that cannot be UTF-8 (the
/// JavaScript layer calls it for a string with a lone surrogate, which napi
/// would otherwise turn into U+FFFD, naming another file): `invalid_uri`,
/// as the core classifies bytes that are not UTF-8 (and as the Python
/// binding does).
#[napi]
pub fn not_utf8(input: String) -> napi::Result<()> {
    let err = mcp_roots::Error::new(
        mcp_roots::ErrorKind::InvalidUri,
        mcp_roots::Operation::Parse,
        &input,
    )
    .with_detail("the path is not valid UTF-8");
    Err(errors::to_napi(&err))
}
