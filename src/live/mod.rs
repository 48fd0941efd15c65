//! The live boundary of one session: [`Roots`] (the installed set behind
//! an `ArcSwap`, the policy applied inside every replace), the request's
//! [`Snapshot`], the [`TrackedFile`]s it hands out and their [`registry`],
//! the counter of changes a late open checks against ([`changes`]), the
//! one module that decides what happens to open files when the roots
//! change ([`revocation`]), what a change reports ([`report`]), the
//! session's grants and a call's ([`grants`]), and
//! [`confine`], which hands the ceiling to the kernel as well.

pub(crate) mod builder;
pub(crate) mod changes;
pub(crate) mod confine;
pub(crate) mod grants;
mod lock;
pub(crate) mod registry;
pub(crate) mod report;
pub(crate) mod revocation;
pub(crate) mod roots;
pub(crate) mod snapshot;
pub(crate) mod tracked;

pub use builder::{RootIdentity, RootsBuilder};
pub use confine::{
    ConfinedDirectory, Confinement, ConfinementError, ConfinementErrorKind, ConfinementReport,
    Enforcement, ParseConfinementError, confine_process,
};
pub use grants::GrantId;
pub use report::{RescanReport, Revoked};
pub use roots::Roots;
pub use snapshot::Snapshot;
pub use tracked::TrackedFile;
