//! The top layer: one tool body for every protocol revision. What a body
//! asks for and how each revision answers it (`ask`: `Ask`, the questions
//! asked in place or replayed across rounds), and the tool's entry points
//! (`tool`: `SessionRoots::serve`, `serve_blocking` and `serve_with`), and a
//! resource read served as a tool is (`resource`:
//! `SessionRoots::serve_resource`).
//! Everything below serves it; nothing below imports it.

pub(crate) mod ask;
pub(crate) mod resource;
pub(crate) mod tool;
