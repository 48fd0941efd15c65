//! The operations beneath one root's directory handle, once the root is
//! chosen ([`Selected`](crate::root::Selected)): opening, metadata and
//! resolving ([`open`]), the changes made through the parent directory
//! ([`mutate`]), whole-file writes and copies ([`atomic`]), listings
//! ([`read_dir`]) and walks ([`walk`]), a root's own relative
//! operations ([`relative`]), and the opens judged by the parts of a root
//! its policy hides or keeps read-only ([`shared`]), and the refusals
//! from the disk judged as if the path existed (`refusal`). Everything here acts relative to a directory
//! handle; nothing re-resolves a path after a check. This layer never
//! imports the sets above it.

pub(crate) mod atomic;
pub(crate) mod mutate;
pub(crate) mod open;
pub(crate) mod read_dir;
mod refusal;
mod relative;
pub(crate) mod shared;
pub(crate) mod walk;

pub use read_dir::{DirEntry, FileType, ReadDir};
pub use walk::{Walk, WalkEntry, WalkLimits, WalkRef};
