//! The native addon of the Node package `mcp-roots` (napi-rs).
//! Conversions only: every decision is the Rust crate's.

pub mod confine;
mod errors;
mod file;
mod roots;
mod scope;
mod task;
mod values;

use napi_derive::napi;

/// The stable reasons, in the crate's table order.
#[napi]
pub fn reasons() -> Vec<&'static str> {
    mcp_roots::ErrorKind::ALL
        .iter()
        .map(|k| k.reason())
        .collect()
}
