//! Sets of roots: the immutable [`RootSet`] and its operations, its
//! builder with the descriptor budget ([`builder`]), the path index that
//! chooses the outermost root ([`index`]), the operator ceiling
//! ([`ceiling`]), the server's policy ([`policy`]), the parts of each root
//! a set shares ([`sharing`]), the served directories inside
//! other ones (`nesting`), and what an operation
//! may be aimed at ([`Target`]), and the area the user may be asked
//! about, whence grants come ([`area`]). A set never changes once built; `live`
//! above replaces it whole.

pub(crate) mod area;
pub(crate) mod builder;
pub(crate) mod ceiling;
mod crossing;
pub(crate) mod index;
mod nesting;
pub(crate) mod policy;
pub(crate) mod root_set;
pub(crate) mod sharing;
mod target;

pub use area::AskAbout;
pub use builder::{RESERVED_DESCRIPTORS, RootSetBuilder};
pub use policy::EmptyRoots;
pub use root_set::{Rejected, RootSet};
pub use target::Target;
