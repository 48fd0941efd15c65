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
//! use std::io::{Read, Write};
//! use mcp_roots::{ErrorKind, RootSet};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let tmp = tempfile::tempdir()?;
//! # let home = tmp.path().display();
//! # std::fs::create_dir_all(format!("{home}/notes"))?;
//! # std::fs::write(format!("{home}/notes/todo.md"), "- write docs")?;
//! # std::os::unix::fs::symlink("/etc", format!("{home}/notes/etc"))?;
//! // `home` is a directory of yours; the client's roots/list answer:
//! let set = RootSet::from_uris([format!("file://{home}/notes"), format!("file://{home}/gone")]);
//! assert_eq!(set.rejected()[0].reason(), "not_found");
//!
//! // A tool call reads a note (URI or absolute path)…
//! let mut text = String::new();
//! set.open(&format!("file://{home}/notes/todo.md"))?.read_to_string(&mut text)?;
//!
//! // …creates one (never through a symlink, never over an existing name)…
//! set.create_new(&format!("{home}/notes/new.md"))?.write_all(b"# new")?;
//!
//! // …and is refused, with a reason a model can act on, when it strays.
//! for escape in [
//!     format!("{home}/notes/../secret"),
//!     format!("file://{home}/notes/%2e%2e/secret"),
//!     format!("{home}/notes_evil/x"),
//!     format!("{home}/notes/etc/passwd"),
//! ] {
//!     assert_eq!(set.open(&escape).unwrap_err().kind(), ErrorKind::OutsideRoots);
//! }
//!
//! // Tool results name files by URI, built from the root as the client gave it.
//! let scoped = set.resolve(&format!("{home}/notes/new.md"))?;
//! assert_eq!(scoped.to_uri(), format!("file://{home}/notes/new.md"));
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
//! # Live roots
//!
//! A [`Roots`] holds a session's current set and swaps it when the client's
//! list changes; the files it handed out ([`TrackedFile`]) are revoked when
//! they leave the roots.
//!
//! ```
//! use std::io::Read;
//! use mcp_roots::{ErrorKind, RootSet, Roots};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let tmp = tempfile::tempdir()?;
//! # let t = tmp.path().display();
//! # for d in ["notes", "scratch"] { std::fs::create_dir_all(format!("{t}/{d}"))?; }
//! # std::fs::write(format!("{t}/notes/x.md"), "x")?;
//! // `t` is a directory of yours, shared as two roots.
//! let roots = Roots::builder().ceiling([format!("{t}")]).build(); // one per session
//! roots.replace(RootSet::from_uris([format!("file://{t}/notes"), format!("file://{t}/scratch")]));
//!
//! let mut file = roots.load().open(&format!("file://{t}/notes/x.md"))?; // a TrackedFile
//!
//! // The user removes the notes root: the handle is revoked and closed.
//! let report = roots.replace(RootSet::from_uris([format!("file://{t}/scratch")]));
//! assert_eq!(report.revoked().len(), 1);
//! let err = file.read(&mut [0; 8]).unwrap_err();
//! assert_eq!(mcp_roots::Error::from_io(&err).unwrap().kind(), ErrorKind::ScopeLost);
//! # Ok(()) }
//! ```
//!
//! # Grants
//!
//! Beneath an area the operator names ([`RootsBuilder::ask_within`]), the
//! user may grant one file or one directory by answering a question:
//! [`Snapshot::may_ask`] judges a refused path before anything is asked,
//! [`Roots::grant`] installs the answer for the session (ended by
//! [`Roots::end_grant`], which revokes its files) and
//! [`Snapshot::with_grant`] for one call; a grant is judged as strictly as
//! any root ([semantics 15](crate::semantics#15-grants)).
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
//! On Linux, [`confine_process`] has the kernel (Landlock) keep the
//! operator ceiling as well, for the whole process: the second wall, for
//! code that does not go through the library. Elsewhere it reports
//! [`Enforcement::Unsupported`] and changes nothing.
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
//! | `mcp_roots::live::roots` | `DEBUG` | `request roots replaced`: the same for one request's roots ([`Roots::for_request`], 2026-07-28), one per call | `generation`, `roots`, `rejected`, `revoked` |
//! | `mcp_roots::live::roots` | `INFO` | `roots rescanned` (only when something changed) | `generation`, `gone`, `back`, `revoked` |
//! | `mcp_roots::live::revocation` | `WARN` | `handle revoked: its file left the roots` | `root`, `path` |
//! | `mcp_roots::live::builder` | `WARN` | `ceiling directory grants nothing` | `dir`, `reason` |
//! | `mcp_roots::set::area` | `WARN` | `ask-within directory grants nothing` | `dir`, `reason` |
//! | `mcp_roots::live::grants` | `INFO` | `grant made for the session`, `grant made for one call` | `grant` (session), `path`, `kind`, `access` |
//! | `mcp_roots::live::grants` | `INFO` | `grant ended` | `grant`, `revoked` |
//! | `mcp_roots::live::confine` | `INFO` | `process confined to the ceiling` (`WARN`: `…, in part`, or `process not confined: the kernel cannot`) | `report` |
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
pub use live::{
    ConfinedDirectory, Confinement, ConfinementError, ConfinementErrorKind, ConfinementReport,
    Enforcement, GrantId, ParseConfinementError, RescanReport, Revoked, RootIdentity, Roots,
    RootsBuilder, Snapshot, TrackedFile, confine_process,
};
pub use ops::{DirEntry, FileType, ReadDir, Walk, WalkEntry, WalkLimits, WalkRef};
pub use options::{
    Create, GrantAccess, GrantKind, HardLinks, MountPoints, OpenOptions, Overwrite, PatternError,
    Patterns, Symlinks, Writes,
};
pub use parse::{parse_input, parse_input_as};
pub use root::{Root, RootId, ScopedPath};
pub use set::{
    AskAbout, EmptyRoots, RESERVED_DESCRIPTORS, Rejected, RootSet, RootSetBuilder, Target,
};
pub use sys::Allowance;
#[doc(hidden)]
pub use sys::PathStyle;
#[cfg(feature = "watch")]
#[cfg_attr(docsrs, doc(cfg(feature = "watch")))]
pub use watch::{ScopeEvent, WatchGuard};
