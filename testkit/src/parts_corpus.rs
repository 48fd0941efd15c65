//! The parts corpus (`testkit/data/parts_corpus.json`): escape cases for
//! hide and read-only patterns, each a way around a match on the string
//! (a link inside, `..`, an encoded dot, a directory pattern, a negation,
//! a rename target, a `create_dir_all` component, a landing in another
//! root). The format is the escape corpus' plus the patterns, more
//! operations and the reason a deny must give (`testkit/data/README.md`).
//! A file of its own, so that the bindings that replay the escape corpus
//! never meet a row they cannot apply.

use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::corpus::{Expect, Op, SetupOp};

/// One case of the parts corpus.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartsCase {
    /// Unique name of the case.
    pub id: String,
    /// The way around a string match it tries.
    pub class: String,
    /// File-system operations relative to `{T}`, applied in order.
    pub setup: Vec<SetupOp>,
    /// Root URIs (or paths), with `{T}`.
    pub roots: Vec<String>,
    /// Hide patterns, relative to each root (a set's own).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hide: Vec<String>,
    /// Read-only patterns, relative to each root (a set's own).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub read_only: Vec<String>,
    /// The operation attempted.
    pub op: PartsOp,
    /// The path operated on (for `rename`, the destination), with `{T}`.
    pub input: String,
    /// For `rename` only: the source, with `{T}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The expected outcome.
    pub expect: Expect,
    /// On deny cases: the reason the refusal must give (`hidden`,
    /// `read_only`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// On allow cases: the path, relative to the resolved `{T}`, touched
    /// (for `rename`, the destination).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved: Option<String>,
    /// On `list` allow cases: the names the listing holds, sorted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listed: Option<Vec<String>>,
    /// The reasoning behind the expectation.
    pub why: String,
}

/// The operations of the parts corpus: the escape corpus' and two
/// changes whose every component is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartsOp {
    /// Open and read a regular file.
    Read,
    /// Create a new file; the name must not exist.
    WriteNew,
    /// Read a directory's entries.
    List,
    /// Create a directory and its missing parents.
    CreateDirAll,
    /// Rename `from` to the input (which must not exist).
    Rename,
}

impl PartsOp {
    /// The escape corpus' operation, where there is one (the model judges
    /// only those).
    pub fn as_op(self) -> Option<Op> {
        match self {
            Self::Read => Some(Op::Read),
            Self::WriteNew => Some(Op::WriteNew),
            Self::List => Some(Op::List),
            Self::CreateDirAll | Self::Rename => None,
        }
    }
}

impl fmt::Display for PartsOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Read => "read",
            Self::WriteNew => "write_new",
            Self::List => "list",
            Self::CreateDirAll => "create_dir_all",
            Self::Rename => "rename",
        })
    }
}

/// Path of the parts corpus, `testkit/data/parts_corpus.json`.
pub fn path() -> PathBuf {
    crate::corpus::data_path("parts_corpus.json")
}

/// Loads the parts corpus (see [`path`]).
///
/// # Panics
///
/// If the file cannot be read or does not parse; the message names the
/// file and the serde error.
pub fn load() -> Vec<PartsCase> {
    crate::corpus::load_rows(&path())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_corpus_loads_and_is_well_formed() {
        let cases = load();
        let rows: Vec<_> = cases
            .iter()
            .map(|c| (&*c.id, c.expect, c.resolved.is_some(), c.reason.is_some()))
            .collect();
        crate::corpus::check_rows(&rows, 20);
        for c in &cases {
            assert_eq!(c.op == PartsOp::Rename, c.from.is_some(), "{}", c.id);
            assert!(
                c.listed.is_none() || (c.expect == Expect::Allow && c.op == PartsOp::List),
                "{}",
                c.id
            );
            assert!(!c.hide.is_empty() || !c.read_only.is_empty(), "{}", c.id);
        }
    }
}
