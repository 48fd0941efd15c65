//! `--confine`: the kernel keeps the ceiling too. Before the runtime and
//! its threads exist, the process gives up, for good, every file outside
//! the `--ceiling` directories ([`mcp_roots::confine_process`], Landlock
//! on Linux): a tool body or a dependency that used `std::fs` outside
//! them would be refused by the kernel.
//!
//! `--confine` is best effort: whatever the kernel supports, and the log
//! says what it did and did not enforce. `--confine=required` refuses to
//! start (exit code 1, with the reason on stderr) unless Landlock ABI 3 or
//! later confines the whole process.

use mcp_roots::{Confinement, ConfinementReport, RootsBuilder, confine_process};

/// Confines this process to the ceiling of `policy`, as `mode` says, and
/// logs the report.
///
/// # Errors
///
/// A sentence for the operator: the policy has no ceiling, or (required)
/// the kernel cannot confine the whole process.
pub fn process(policy: &RootsBuilder, mode: Confinement) -> Result<ConfinementReport, String> {
    let report = confine_process(&policy.clone().build(), mode).map_err(|err| {
        let why = std::error::Error::source(&err)
            .map(|source| format!(" ({source})"))
            .unwrap_or_default();
        format!("--confine: {err}{why}")
    })?;
    // The library logged it at info (warn if in part); this line is the
    // operator's, on stderr whatever RUST_LOG says.
    eprintln!("notes-server: {report}");
    Ok(report)
}
