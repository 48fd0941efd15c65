//! Proptest strategies for random adversarial scenarios (placeholder).

use crate::corpus::{Op, SetupOp};

/// A random scenario in the corpus' `{T}` format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    /// Setup operations relative to `{T}`.
    pub setup: Vec<SetupOp>,
    /// Root URIs with `{T}`.
    pub roots: Vec<String>,
    /// The input with `{T}`.
    pub input: String,
    /// The operation.
    pub op: Op,
}
