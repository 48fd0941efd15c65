//! Independent test oracle for `mcp-roots`.
//!
//! This crate deliberately shares no code with the library it checks. It
//! provides:
//!
//! - [`corpus`]: serde types for the escape-case corpus
//!   (`testkit/data/escape_corpus.json`) and loaders for it;
//! - [`parts_corpus`]: the corpus of escape cases for hide and read-only
//!   patterns (`testkit/data/parts_corpus.json`), in a file of its own;
//! - [`grants_corpus`]: the corpus where the area that may be asked
//!   about, grants, nesting and patterns meet (`testkit/data/grants_corpus.json`);
//! - [`fixture`]: a fresh temporary tree `{T}` built from a case's setup,
//!   with snapshots to prove that a denied write changed nothing;
//! - [`model`]: the reference model, [`model::judge`], which decides from
//!   the real disk what a conforming library must, may or must not do;
//! - [`generate`]: proptest strategies producing random adversarial
//!   scenarios in the corpus' `{T}` format (the module is not called `gen`,
//!   a reserved word in edition 2024);
//! - [`plan`]: sequences of steps on one live-roots session and the model
//!   of which tracked handles must be revoked;
//! - [`check`]: the check functions shared by the tests and the fuzz
//!   targets, which run the library against these oracles;
//! - [`windows`]: the Windows-form corpus (`testkit/data/windows_corpus.json`):
//!   drive letters, separators, URI spellings and Windows aliases, with the
//!   spellings of a temporary directory its rows are written in.
//!
//! On Windows only [`corpus`] and [`windows`] are built: the rest makes
//! Unix trees.
//!
//! Only [`check`] uses the library; everything else is independent of it.
//! The model follows the "Semantics" section of the crate's semantics page (`mcp_roots::semantics`),
//! written for obvious correctness rather than speed.
#![forbid(unsafe_code)]

// The fixtures, the model and the checks build Unix trees (symlinks,
// device and inode numbers); on Windows the kit is the corpus formats.
#[cfg(unix)]
pub mod check;
pub mod corpus;
#[cfg(unix)]
pub mod fixture;
#[cfg(unix)]
pub mod generate;
pub mod grants_corpus;
#[cfg(unix)]
pub mod model;
pub mod parts_corpus;
#[cfg(unix)]
pub mod plan;
pub mod windows;

pub use corpus::{Case, Expect, Op, SetupOp};
#[cfg(unix)]
pub use fixture::{Fixture, TreeSnapshot};
#[cfg(unix)]
pub use generate::{Scenario, Scene};
#[cfg(unix)]
pub use model::{Verdict, judge, judge_with, must_allow_across, must_allow_across_with};
