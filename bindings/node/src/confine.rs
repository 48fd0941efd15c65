//! `confine(roots, { required })`: the Rust crate's `confine_process`, its
//! report as an object, its error with code
//! `ERR_MCP_ROOTS_CONFINEMENT_<KIND>`.

use napi_derive::napi;

use crate::errors::object;
use crate::roots::Roots;

/// How to confine.
#[napi(object)]
#[derive(Default)]
pub struct ConfineOptions {
    /// Fail (and change nothing) unless the kernel has Landlock ABI 3+ and
    /// the process one thread: always fails under Node, which starts its
    /// own threads before any script runs.
    pub required: Option<bool>,
}

/// A ceiling directory as the kernel now keeps it.
#[napi(object)]
pub struct ConfinedDirectory {
    pub path: String,
    pub writable: bool,
}

/// What the library keeps outside the ceiling for itself.
#[napi(object)]
pub struct ConfinementAllowance {
    pub path: String,
    pub access: String,
    pub why: String,
}

/// What `confine` did.
#[napi(object)]
pub struct ConfinementReport {
    /// `"full"`, `"partial"` or `"unsupported"`.
    pub enforcement: String,
    /// The Landlock ABI used, or null.
    pub abi: Option<u32>,
    /// The access rights the kernel now judges.
    pub handled: Vec<String>,
    pub directories: Vec<ConfinedDirectory>,
    pub allowances: Vec<ConfinementAllowance>,
    /// What the kernel does not hold (the library still does).
    pub not_enforced: Vec<String>,
    /// How many threads the process had when it was called (all but the
    /// caller stay free), or null.
    pub threads: Option<u32>,
    /// The report as one line for a log.
    pub text: String,
}

/// Confines the whole process, irreversibly, to the operator ceiling of
/// `roots` (Landlock): the calling thread and the threads it starts
/// afterwards.
#[napi]
pub fn confine(roots: &Roots, options: Option<ConfineOptions>) -> napi::Result<ConfinementReport> {
    let mode = match options.and_then(|o| o.required) {
        Some(true) => mcp_roots::Confinement::Required,
        _ => mcp_roots::Confinement::BestEffort,
    };
    let report = mcp_roots::confine_process(&roots.inner, mode).map_err(|err| {
        let fields = [
            ("message", Some(err.to_string())),
            ("kind", Some(err.kind().as_str().to_owned())),
        ];
        napi::Error::new(
            napi::Status::GenericFailure,
            object("MCP_ROOTS_CONFINEMENT", &fields),
        )
    })?;
    Ok(ConfinementReport {
        enforcement: report.enforcement().as_str().to_owned(),
        abi: report.abi(),
        handled: report.handled().iter().map(|h| (*h).to_owned()).collect(),
        directories: report
            .directories()
            .iter()
            .map(|d| ConfinedDirectory {
                path: d.path().to_string_lossy().into_owned(),
                writable: d.writes() == mcp_roots::Writes::Allow,
            })
            .collect(),
        allowances: report
            .allowances()
            .iter()
            .map(|a| ConfinementAllowance {
                path: a.path.to_owned(),
                access: a.access.to_owned(),
                why: a.why.to_owned(),
            })
            .collect(),
        not_enforced: report.not_enforced().to_vec(),
        threads: report
            .threads()
            .map(|n| u32::try_from(n).unwrap_or(u32::MAX)),
        text: report.to_string(),
    })
}
