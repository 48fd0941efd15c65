//! The grants corpus (`testkit/data/grants_corpus.json`): escape cases
//! where the area that may be asked about, grants of one file or one
//! directory, the operator's ceiling (read-only directories nested in it)
//! and hide and read-only patterns meet. Each row sets up a policy, makes
//! its grants (each must be allowed by the question's judgement and
//! granted), then either asks about its input (`ask_read`,
//! `ask_change`: may the user be asked?) or runs an operation through
//! the grants. A file of its own, so that the bindings that replay the
//! escape corpus never meet a row they cannot apply.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::corpus::{Expect, SetupOp};

/// One case of the grants corpus.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrantsCase {
    /// Unique name of the case.
    pub id: String,
    /// The way out it tries.
    pub class: String,
    /// File-system operations relative to `{T}`, applied in order.
    pub setup: Vec<SetupOp>,
    /// The client's root URIs (or paths), with `{T}`.
    #[serde(default)]
    pub roots: Vec<String>,
    /// The operator's ceiling directories (none: no ceiling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ceiling: Option<Vec<String>>,
    /// The operator's read-only ceiling directories.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub read_only_ceiling: Vec<String>,
    /// The area that may be asked about.
    pub ask_within: Vec<String>,
    /// The server's hide patterns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hide: Vec<String>,
    /// The server's read-only patterns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub read_only: Vec<String>,
    /// The grants made before the operation, in order.
    #[serde(default)]
    pub grants: Vec<GrantRow>,
    /// The operation attempted.
    pub op: GrantsOp,
    /// The path operated on or asked about, with `{T}`.
    pub input: String,
    /// The expected outcome.
    pub expect: Expect,
    /// On deny cases: the reason the refusal must give.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// On allow cases: the path, relative to the resolved `{T}`, touched
    /// (for a question, the physical path it names).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved: Option<String>,
    /// The reasoning behind the expectation.
    pub why: String,
}

/// One grant a case makes: the path asked about, the access, the scope.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrantRow {
    /// The path asked about, with `{T}`.
    pub path: String,
    /// `read` or `change`.
    pub access: GrantAccessRow,
    /// `session` or `call`.
    pub scope: ScopeRow,
}

/// The access of a grant row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrantAccessRow {
    /// Reading.
    Read,
    /// Changing too.
    Change,
}

/// The scope of a grant row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScopeRow {
    /// Installed for the session.
    Session,
    /// For the one operation of the row.
    Call,
}

/// The operations of the grants corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrantsOp {
    /// Open and read a regular file.
    Read,
    /// Create a new file; the name must not exist.
    WriteNew,
    /// Read a directory's entries.
    List,
    /// May the user be asked for reading it?
    AskRead,
    /// May the user be asked for changing it?
    AskChange,
}

/// Path of the grants corpus, `testkit/data/grants_corpus.json`.
pub fn path() -> PathBuf {
    crate::corpus::data_path("grants_corpus.json")
}

/// Loads the grants corpus (see [`path`]).
///
/// # Panics
///
/// If the file cannot be read or does not parse; the message names the
/// file and the serde error.
pub fn load() -> Vec<GrantsCase> {
    crate::corpus::load_rows(&path())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grants_corpus_loads_and_is_well_formed() {
        let cases = load();
        let rows: Vec<_> = cases
            .iter()
            .map(|c| (&*c.id, c.expect, c.resolved.is_some(), c.reason.is_some()))
            .collect();
        crate::corpus::check_rows(&rows, 30);
        for c in &cases {
            assert!(!c.ask_within.is_empty(), "{}", c.id);
            let asks = matches!(c.op, GrantsOp::AskRead | GrantsOp::AskChange);
            assert!(
                asks || !c.grants.is_empty() || !c.roots.is_empty(),
                "{}",
                c.id
            );
        }
    }
}
