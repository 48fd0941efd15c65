//! The values a caller chooses: how a file is opened ([`OpenOptions`],
//! [`Create`]), whether a rename replaces ([`Overwrite`]), and the opt-in
//! hardening ([`Symlinks`], [`MountPoints`], [`HardLinks`], and read-only
//! roots, [`Writes`]), and the parts of a root the policy hides or keeps
//! read-only ([`Patterns`]), and what a grant gives ([`GrantAccess`],
//! [`GrantKind`]). Plain data:
//! this layer imports nothing from the crate.

pub(crate) mod grant;
pub(crate) mod hardening;
mod open;
mod overwrite;
pub(crate) mod patterns;

pub use grant::{GrantAccess, GrantKind};
pub use hardening::{HardLinks, MountPoints, Symlinks, Writes};
pub use open::{Create, OpenOptions};
pub use overwrite::Overwrite;
pub use patterns::{PatternError, Patterns};
