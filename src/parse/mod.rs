//! Untrusted input to an absolute path, with no file-system access: the
//! strict `file:` URI parser ([`uri`]), the rules for raw paths and their
//! form limits ([`input`]), Windows paths and their slash form
//! ([`windows`], pure, read on every platform), and lexical path work for
//! lookups ([`lexical`]). See [the semantics](crate::semantics), sections
//! 1–3 and 12.

pub(crate) mod input;
pub(crate) mod lexical;
pub(crate) mod uri;
pub(crate) mod windows;

pub use input::{parse_input, parse_input_as};
