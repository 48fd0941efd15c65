//! The binary's log: a `tracing-subscriber` formatter on stderr (stdout
//! carries the protocol), filtered by `RUST_LOG` with a default level.
//!
//! At `info` it shows what the library and the glue log (see the
//! "Logging" section of [`mcp_roots`]): every denial
//! (`mcp_roots::denial`), every roots change (`roots replaced`, `roots
//! rescanned`) and every revocation (`handle revoked`), each inside the
//! glue's `tool_call` span (tool, request id, revision) when a tool call
//! caused it. The library escapes every value that came from a client, and
//! the formatter writes no colour codes, so a log line is plain text.

use tracing_subscriber::EnvFilter;
use tracing_subscriber::filter::LevelFilter;

/// The variable that chooses what is logged.
pub const FILTER_VARIABLE: &str = "RUST_LOG";

/// Installs the subscriber: `RUST_LOG` if set, else `default` for every
/// target.
///
/// # Errors
///
/// `RUST_LOG` is set but is not a valid filter (the error names it and
/// what is wrong), or a global subscriber was installed already.
pub fn init(default: LevelFilter) -> Result<(), String> {
    let filter = EnvFilter::builder()
        .with_default_directive(default.into())
        .with_env_var(FILTER_VARIABLE)
        .from_env()
        .map_err(|err| format!("{FILTER_VARIABLE} is not a valid filter: {err}"))?;
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(filter)
        .with_ansi(false)
        .try_init()
        .map_err(|err| format!("cannot install the log: {err}"))
}
