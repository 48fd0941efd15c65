//! Check functions shared by the tests and the fuzz targets: each runs the
//! library (`mcp_roots`) on one input and compares it with an oracle
//! (the reference [`model`](crate::model), the `url` crate, or the session
//! model of [`plan`](crate::plan)), returning a description of the first
//! disagreement.
//!
//! - [`parse`]: `parse_input` against the model's parser and `url`.
//! - [`resolution`]: one input, one operation, one fixture tree against
//!   [`judge`](crate::judge); [`ResolveCase`] is its byte format for
//!   fuzzing, in the tree of [`fixed_tree`].
//! - [`plan`]: a [`Plan`](crate::plan::Plan) of steps on a `Roots` session
//!   against the revocation model.
//!
//! Unlike the rest of `testkit`, this module uses the library.

mod case;
mod parse;
mod plan;
mod resolution;

use std::fmt;

pub use case::{
    FIXED_ROOTS, HIDE_ALPHABET, MAX_PATTERNS, MAX_ROOTS, READ_ONLY_ALPHABET, ResolveCase,
    fixed_tree, parts_of,
};
pub use parse::{ParseOutcome, parse};
pub use plan::{PlanOutcome, plan, plan_case, plan_with};
pub use resolution::{Outcome, resolution, resolution_served, resolution_with};

/// A library operation that [`resolution`] checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operation {
    /// `RootSet::open` (read-only).
    Open,
    /// `RootSet::create_new`.
    CreateNew,
    /// `RootSet::read_dir`.
    ReadDir,
    /// `RootSet::metadata`.
    Metadata,
    /// `RootSet::resolve`.
    Resolve,
    /// `RootSet::walk`.
    Walk,
    /// `RootSet::create_dir`.
    CreateDir,
    /// `RootSet::create_dir_all`.
    CreateDirAll,
    /// `RootSet::remove_file`.
    RemoveFile,
    /// `RootSet::remove_dir`.
    RemoveDir,
    /// `RootSet::rename` from the input to a fresh name in the first root.
    RenameFrom,
    /// `RootSet::rename` of a fresh file in the first root to the input.
    RenameTo,
    /// `RootSet::write_atomic`.
    WriteAtomic,
    /// `RootSet::copy` from the input to a fresh name in the first root.
    CopyFrom,
    /// `RootSet::copy` of a fresh file in the first root to the input.
    CopyTo,
}

impl Operation {
    /// Every operation.
    pub const ALL: [Self; 15] = [
        Self::Open,
        Self::CreateNew,
        Self::ReadDir,
        Self::Metadata,
        Self::Resolve,
        Self::Walk,
        Self::CreateDir,
        Self::CreateDirAll,
        Self::RemoveFile,
        Self::RemoveDir,
        Self::RenameFrom,
        Self::RenameTo,
        Self::WriteAtomic,
        Self::CopyFrom,
        Self::CopyTo,
    ];

    /// The snake-case name used in [`ResolveCase`] files.
    pub fn name(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::CreateNew => "create_new",
            Self::ReadDir => "read_dir",
            Self::Metadata => "metadata",
            Self::Resolve => "resolve",
            Self::Walk => "walk",
            Self::CreateDir => "create_dir",
            Self::CreateDirAll => "create_dir_all",
            Self::RemoveFile => "remove_file",
            Self::RemoveDir => "remove_dir",
            Self::RenameFrom => "rename_from",
            Self::RenameTo => "rename_to",
            Self::WriteAtomic => "write_atomic",
            Self::CopyFrom => "copy_from",
            Self::CopyTo => "copy_to",
        }
    }

    /// The operation named `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|op| op.name() == name)
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
