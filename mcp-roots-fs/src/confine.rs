//! `--confine`: the kernel keeps the directories too. Before the runtime
//! and its threads exist, the process gives up, for good, every file
//! outside the directories ([`mcp_roots::confine_process`], Landlock on
//! Linux; read-only where the directory is): a tool body or a dependency
//! that used `std::fs` outside them would be refused by the kernel. The
//! `--ask-within` area is in the policy, so it is in the kernel's rules
//! from the start: a grant made later is reachable (Landlock cannot widen).
//!
//! `--confine` is best effort: whatever the kernel supports, and the log
//! says what it did and did not enforce. `--confine=required` refuses to
//! start (exit code 1, the reason on stderr) unless Landlock ABI 3 or
//! later confines the whole process.

use mcp_roots::{Confinement, RootsBuilder, confine_process};

/// Confines this process to the directories of `policy` (the command
/// line's, with its `--ask-within` area), as `mode` says, and prints the report on stderr (whatever
/// `RUST_LOG` says: it is the operator's line).
pub(crate) fn process(policy: RootsBuilder, mode: Confinement) -> Result<(), String> {
    match confine_process(&policy.build(), mode) {
        Ok(report) => {
            eprintln!("mcp-roots-fs: {report}");
            Ok(())
        }
        Err(err) => Err(match std::error::Error::source(&err) {
            Some(source) => format!("--confine: {err} ({source})"),
            None => format!("--confine: {err}"),
        }),
    }
}
