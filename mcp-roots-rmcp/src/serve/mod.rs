//! The top layer: one tool body for every protocol revision. What a body
//! asks for and how each revision answers it (`ask`: `Ask`, the questions
//! asked in place or replayed across rounds), and the tool's entry points
//! (`tool`: `SessionRoots::serve`, `serve_blocking` and `serve_with`), a
//! resource read served as a tool is (`resource`:
//! `SessionRoots::serve_resource`), and the grants a call's declared paths
//! may need, asked once for all of them (`grant`: `Ask::need`,
//! `SessionRoots::serve_needing`).
//! Everything below serves it; nothing below imports it.

pub(crate) mod ask;
pub(crate) mod grant;
pub(crate) mod resource;
pub(crate) mod tool;
