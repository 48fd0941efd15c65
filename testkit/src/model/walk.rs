//! Physical path resolution by hand, the way the Linux kernel walks a path.
//!
//! The walker keeps a queue of pending [`Step`]s and the physical directory
//! it is in (always a canonical path built from real directory names). A
//! symlink met on the way is read and its body's steps are put in front of
//! the queue: a relative body continues from the link's directory, an
//! absolute one from `/`. `..` is applied to the physical directory. At most
//! [`MAX_LINKS`] symlinks are expanded per walk. A [`Step::Dot`] demands that
//! the object before it is a directory, which is how a trailing slash is
//! expressed.
//!
//! In [`Mode::Beneath`] the walk behaves like `openat2(RESOLVE_BENEATH)`: it
//! fails as soon as `..` would leave the start directory or a symlink body
//! is absolute.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// The kernel's limit on symlink expansions in one lookup (`MAXSYMLINKS`).
pub const MAX_LINKS: usize = 40;

/// One component of a path to walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `.`: stay, but what came before must be a directory.
    Dot,
    /// `..`: the physical parent.
    DotDot,
    /// A name to look up in the current directory.
    Name(OsString),
}

impl Step {
    /// Splits a path body into steps: empty components are dropped, and a
    /// trailing `/` becomes a final [`Step::Dot`].
    pub fn split(body: &[u8]) -> Vec<Step> {
        let mut steps: Vec<Step> = body
            .split(|&b| b == b'/')
            .filter(|part| !part.is_empty())
            .map(|part| match part {
                b"." => Step::Dot,
                b".." => Step::DotDot,
                name => Step::Name(OsStr::from_bytes(name).to_owned()),
            })
            .collect();
        if body.len() > 1 && body.ends_with(b"/") {
            steps.push(Step::Dot);
        }
        steps
    }
}

/// How the walk may move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Anywhere, like a plain `open` of an absolute path.
    Physical,
    /// Never above the start directory, no absolute symlink bodies.
    Beneath,
}

/// What the walk found at its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Landing {
    /// An existing object; a symlink only when the last one was not followed.
    Found {
        /// Its physical path.
        path: PathBuf,
        /// Its type (from `lstat`).
        kind: Kind,
    },
    /// The last name does not exist; its directory does.
    Missing {
        /// Physical path of the existing directory.
        parent: PathBuf,
        /// The missing name.
        name: OsString,
    },
}

/// The type of a found object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A directory.
    Dir,
    /// A regular file.
    File,
    /// A symlink (only as an unfollowed last component).
    Symlink,
    /// A FIFO, socket or device.
    Other,
}

impl Kind {
    /// The kind of an object from its `lstat` metadata.
    pub fn of(meta: &std::fs::Metadata) -> Self {
        if meta.is_symlink() {
            Kind::Symlink
        } else if meta.is_dir() {
            Kind::Dir
        } else if meta.is_file() {
            Kind::File
        } else {
            Kind::Other
        }
    }
}

/// Why a walk failed, with the errno the kernel would give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WalkError {
    /// `ENOENT`: a component before the last is missing.
    NotFound(PathBuf),
    /// `ENOTDIR`: a component before the last (or before a `.`) is not a
    /// directory.
    NotADirectory(PathBuf),
    /// `ELOOP`: more than [`MAX_LINKS`] symlinks.
    Loop,
    /// `EXDEV` from `RESOLVE_BENEATH`: the walk would leave the start.
    Escape(String),
    /// Any other I/O error.
    Io(String),
}

impl WalkError {
    /// The semantics reason name closest to this failure.
    pub fn reason(&self) -> &'static str {
        match self {
            Self::NotFound(_) => "not_found",
            Self::NotADirectory(_) => "not_a_directory",
            Self::Loop => "symlink_loop",
            Self::Escape(_) => "outside_roots",
            Self::Io(_) => "io",
        }
    }
}

impl fmt::Display for WalkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFound(p) => write!(f, "{} does not exist", p.display()),
            Self::NotADirectory(p) => write!(f, "{} is not a directory", p.display()),
            Self::Loop => write!(f, "more than {MAX_LINKS} symlinks"),
            Self::Escape(what) => write!(f, "{what} leaves the start directory"),
            Self::Io(e) => f.write_str(e),
        }
    }
}

/// Walks `steps` from the physical directory `start`.
///
/// `follow_last` says whether a symlink as the very last component is
/// followed (`open` without `O_NOFOLLOW`) or reported as
/// [`Kind::Symlink`]. A walk with no steps lands on `start`.
///
/// # Errors
///
/// As the kernel would fail the lookup; see [`WalkError`].
pub fn walk(
    start: &Path,
    steps: &[Step],
    mode: Mode,
    follow_last: bool,
) -> Result<Landing, WalkError> {
    let mut cur = start.to_path_buf();
    let mut pending: VecDeque<Step> = steps.iter().cloned().collect();
    let mut links = 0;
    while let Some(step) = pending.pop_front() {
        let last = pending.is_empty();
        let name = match step {
            Step::Dot => continue,
            Step::DotDot if mode == Mode::Beneath && cur == start => {
                return Err(WalkError::Escape(format!("'..' at {}", cur.display())));
            }
            Step::DotDot => {
                cur.pop();
                continue;
            }
            Step::Name(name) => name,
        };
        let path = cur.join(&name);
        let meta = match fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound && last => {
                return Ok(Landing::Missing { parent: cur, name });
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(WalkError::NotFound(path));
            }
            Err(e) => return Err(WalkError::Io(format!("{}: {e}", path.display()))),
        };
        let kind = Kind::of(&meta);
        match kind {
            Kind::Symlink if last && !follow_last => return Ok(Landing::Found { path, kind }),
            Kind::Symlink => {
                links += 1;
                if links > MAX_LINKS {
                    return Err(WalkError::Loop);
                }
                let body = fs::read_link(&path)
                    .map_err(|e| WalkError::Io(format!("{}: {e}", path.display())))?;
                let body = body.as_os_str().as_bytes();
                if body.starts_with(b"/") {
                    if mode == Mode::Beneath {
                        let at = path.display();
                        return Err(WalkError::Escape(format!("absolute link at {at}")));
                    }
                    cur = PathBuf::from("/");
                }
                for step in Step::split(body).into_iter().rev() {
                    pending.push_front(step);
                }
            }
            Kind::Dir => cur = path,
            _ if last => return Ok(Landing::Found { path, kind }),
            _ => return Err(WalkError::NotADirectory(path)),
        }
    }
    Ok(Landing::Found {
        path: cur,
        kind: Kind::Dir,
    })
}
