//! The conformance suites of `mcp-roots`: everything that checks the library
//! against the unpublished `testkit` oracle (the escape corpus, the
//! operations corpus, the reference model and session plans, the portable
//! resolution, the red-team, watch and tracing suites). They are in
//! `tests/`; this library is empty and only gives the package a target.
//!
//! Run them with `cargo test -p mcp-roots-conformance` (the workspace's test
//! command runs them too).
