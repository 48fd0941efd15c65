//! `--confine`: the kernel keeps the directories too. Before the runtime
//! and its threads exist, the process gives up, for good, every file
//! outside the directories ([`mcp_roots::confine_process`], Landlock on
//! Linux; read-only where the directory is): a tool body or a dependency
//! that used `std::fs` outside them would be refused by the kernel.
//!
//! `--confine` is best effort: whatever the kernel supports, and the log
//! says what it did and did not enforce. `--confine=required` refuses to
//! start (exit code 1, the reason on stderr) unless Landlock ABI 3 or
//! later confines the whole process.

use mcp_roots::{Confinement, ConfinementReport, confine_process};

use crate::server::Config;

/// A `--confine` value: `best-effort` (what `--confine` alone means) or
/// `required`.
pub(crate) fn mode(text: &str) -> Result<Confinement, String> {
    match text {
        "best-effort" => Ok(Confinement::BestEffort),
        "required" => Ok(Confinement::Required),
        _ => Err("best-effort (the default) or required".to_owned()),
    }
}

/// Confines this process to the directories of `config`, as `mode` says,
/// and prints the report on stderr (whatever `RUST_LOG` says: it is the
/// operator's line).
pub(crate) fn process(config: &Config, mode: Confinement) -> Result<ConfinementReport, String> {
    let report = confine_process(&config.policy().build(), mode).map_err(|err| {
        let why = std::error::Error::source(&err)
            .map(|source| format!(" ({source})"))
            .unwrap_or_default();
        format!("--confine: {err}{why}")
    })?;
    eprintln!("mcp-roots-fs: {report}");
    Ok(report)
}
