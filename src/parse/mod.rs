//! Untrusted input to an absolute path, with no file-system access: the
//! strict `file:` URI parser ([`uri`]), the rules for raw paths and their
//! form limits ([`input`]), and lexical path work for lookups
//! ([`lexical`]). See [the semantics](crate::semantics), sections 1–3.

pub(crate) mod input;
pub(crate) mod lexical;
pub(crate) mod uri;

pub use input::parse_input;
