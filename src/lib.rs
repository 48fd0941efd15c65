//! Keep every file operation of an MCP server inside the roots the user
//! consented to.
//!
//! An MCP client declares *roots* (`file://` URIs). This crate parses them
//! and the client's inputs strictly, picks the root that contains an input
//! by path components, and opens beneath that root's directory handle with
//! `openat2(RESOLVE_BENEATH)`, so `..`, symlinks, encodings and races cannot
//! lead outside.
//!
//! ```
//! # fn main() -> Result<(), mcp_roots::Error> {
//! use mcp_roots::{ErrorKind, RootSet};
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::create_dir(dir.path().join("notes")).unwrap();
//! std::os::unix::fs::symlink("/etc", dir.path().join("notes/etc")).unwrap();
//! let root = format!("file://{}/notes", dir.path().display());
//! let set = RootSet::from_uris([root.as_str()]);
//!
//! set.create_new(&format!("{root}/new.md"))?;
//! let denied = set.open(&format!("{root}/etc/passwd")).unwrap_err();
//! assert_eq!(denied.kind(), ErrorKind::OutsideRoots);
//! assert_eq!(denied.reason(), "outside_roots");
//! # Ok(()) }
//! ```
//!
//! The policy ([the semantics](crate::semantics)) in short: inputs are `file:` URIs or
//! absolute paths; URIs are decoded once and their dot segments removed as
//! text; raw paths are taken literally and resolved by the kernel; the
//! outermost root whose path is a component prefix is chosen; symlinks are
//! followed only while they stay beneath it; only regular files and
//! directories are opened; every refusal is a typed [`Error`] with a stable
//! [`reason`](ErrorKind::reason).
//!
//! # Platform behavior
//!
//! Linux is the primary platform (`openat2`, `/proc/self/fd`); older kernels
//! and other Unix systems use the library's own component-by-component
//! resolution, with the same answers; Windows resolves through cap-std
//! beneath each root's handle, with Windows path forms and refusals
//! ([semantics 12](crate::semantics)). Where the volume folds names
//! (Windows; macOS volumes that say so), the root is chosen folded.
//!
//! # Features
//!
//! - `watch` (default): [`Roots::watch`] watches the disk (through
//!   `notify`, pinned to `=9.0.0-rc.7`, the first release whose watcher
//!   can ask the kernel for creations, removals and renames alone) and
//!   rescans when a root, a root's ancestor or a tracked file's directory
//!   is moved or removed. Without it the crate has no
//!   watcher thread and no `notify` dependency; rescans are the server's
//!   to call ([`Roots::rescan`]).
//!
//! The rmcp glue is the crate `mcp-roots-rmcp`, not a feature.
//!
//! # Logging
//!
//! The crate logs through [`tracing`]; it installs no subscriber. Every
//! value that came from a client (an input, a root URI, a path a handle was
//! opened as) is written escaped (`escape_debug`), so a name with a newline
//! or a terminal escape cannot forge a log line.
//!
//! | target | level | event | fields |
//! |---|---|---|---|
//! | `mcp_roots::denial` | `INFO` | `denied`: a boundary refusal or a malformed input | `input`, `reason`, `op` |
//! | `mcp_roots::denial` | `DEBUG` | `failed`: any other refusal (not found, exists, …) | `input`, `reason`, `op` |
//! | `mcp_roots::live::roots` | `INFO` | `roots replaced` | `generation`, `roots`, `rejected`, `revoked` |
//! | `mcp_roots::live::roots` | `INFO` | `roots rescanned` (only when something changed) | `generation`, `gone`, `back`, `revoked` |
//! | `mcp_roots::live::revocation` | `WARN` | `handle revoked: its file left the roots` | `root`, `path` |
//! | `mcp_roots::live::builder` | `WARN` | `ceiling directory grants nothing` | `dir`, `reason` |
//!
//! Filter on `mcp_roots::denial` to see every refusal. The glue
//! (`mcp-roots-rmcp`) runs each tool call in a `tool_call` span (tool,
//! request id, revision) that covers these events.

#![cfg_attr(docsrs, feature(doc_cfg))]

// The layers, bottom first: each imports only from its own and the ones
// below (tests/layers.rs checks it; ARCHITECTURE.md describes them).
mod error;
mod live;
mod ops;
mod options;
mod parse;
mod root;
pub mod semantics;
mod set;
mod sys;
#[cfg(feature = "watch")]
mod watch;

pub use error::{Error, ErrorKind, Operation};
pub use live::{RescanReport, Revoked, RootIdentity, Roots, RootsBuilder, Snapshot, TrackedFile};
pub use ops::{DirEntry, FileType, ReadDir, Walk, WalkEntry, WalkLimits};
pub use options::{Create, HardLinks, MountPoints, OpenOptions, Overwrite, Symlinks, Writes};
pub use parse::{parse_input, parse_input_as};
pub use root::{Root, RootId, ScopedPath};
pub use set::{EmptyRoots, RESERVED_DESCRIPTORS, Rejected, RootSet, RootSetBuilder, Target};
#[doc(hidden)]
pub use sys::PathStyle;
#[cfg(feature = "watch")]
#[cfg_attr(docsrs, doc(cfg(feature = "watch")))]
pub use watch::{ScopeEvent, WatchGuard};

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
