//! The model of a library that follows links and `..` across roots: what it
//! must allow beyond a library that opens beneath one root.
//!
//! The walk is [`walk::walk`](super::walk::walk)'s physical walk with one
//! limit: it never looks at the disk outside every root. Inside a root it
//! walks as the kernel does. When `..` or an absolute symlink puts it
//! outside every root, it goes on by text: a name is taken only if the
//! path it makes is a root (as given or resolved: the walk goes on in that
//! root's resolved directory) or an ancestor of one (of a resolved path: a
//! real directory, so `..` from it is its parent; of a path as given only:
//! then a `..` cannot be told and is refused). Anything else outside, and a
//! walk that ends outside, is refused. A symlink outside every root is never
//! read, so a chain through one is refused.

use std::collections::VecDeque;
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::walk::{Kind, Landing, MAX_LINKS, Step};

/// One root as the walk sees it: its names as given (`None` when the root
/// was given with `..`) and its resolved directory.
#[derive(Debug, Clone)]
pub struct RootPaths {
    /// The cleaned path as given.
    pub as_given: Option<PathBuf>,
    /// The physical directory.
    pub resolved: PathBuf,
}

/// Where the walk stands.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Position {
    /// A physical directory: inside a root, or an ancestor of a root's
    /// resolved directory.
    Physical(PathBuf),
    /// A path known only as text: an ancestor of a root's path as given.
    Lexical(PathBuf),
}

/// Walks `steps` from `start` (a root's resolved directory) across
/// `roots`; `Err(reason)` when a library following links across roots
/// refuses it.
///
/// # Errors
///
/// `outside_roots` when the walk would stand outside every root in a way
/// it cannot follow by text, or ends there; `not_found`,
/// `not_a_directory`, `symlink_loop` as the kernel's walk.
pub fn walk_across(
    start: &Path,
    steps: &[Step],
    roots: &[RootPaths],
    follow_last: bool,
) -> Result<Landing, &'static str> {
    let inside = |p: &Path| roots.iter().any(|r| p.starts_with(&r.resolved));
    let above = |p: &Path, key: &Path| key.starts_with(p) && key != p;
    let mut at = Position::Physical(start.to_path_buf());
    let mut pending: VecDeque<Step> = steps.iter().cloned().collect();
    let mut links = 0;
    while let Some(step) = pending.pop_front() {
        let last = pending.is_empty();
        let cur = match &at {
            Position::Physical(cur) if inside(cur) => cur.clone(),
            // Outside every root: by text.
            Position::Physical(path) | Position::Lexical(path) => {
                let canonical = matches!(at, Position::Physical(_));
                let mut next = path.clone();
                match step {
                    Step::Dot => continue,
                    Step::DotDot if canonical => {
                        next.pop();
                    }
                    Step::DotDot => return Err("outside_roots"),
                    Step::Name(name) => next.push(name),
                }
                // The outermost root the path names, as given or resolved.
                let named = roots
                    .iter()
                    .find(|r| r.resolved == next || r.as_given.as_deref() == Some(next.as_path()));
                at = if let Some(root) = named {
                    Position::Physical(root.resolved.clone())
                } else if inside(&next) || roots.iter().any(|r| above(&next, &r.resolved)) {
                    Position::Physical(next)
                } else if roots
                    .iter()
                    .filter_map(|r| r.as_given.as_deref())
                    .any(|given| above(&next, given))
                {
                    Position::Lexical(next)
                } else {
                    return Err("outside_roots");
                };
                continue;
            }
        };
        let name = match step {
            Step::Dot => continue,
            Step::DotDot => {
                let mut up = cur;
                up.pop();
                at = Position::Physical(up);
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
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err("not_found"),
            Err(_) => return Err("io"),
        };
        let kind = Kind::of(&meta);
        match kind {
            Kind::Symlink if last && !follow_last => return Ok(Landing::Found { path, kind }),
            Kind::Symlink => {
                links += 1;
                if links > MAX_LINKS {
                    return Err("symlink_loop");
                }
                let body = fs::read_link(&path).map_err(|_| "io")?;
                let body = body.as_os_str().as_bytes();
                if body.starts_with(b"/") {
                    at = Position::Physical(PathBuf::from("/"));
                }
                for step in Step::split(body).into_iter().rev() {
                    pending.push_front(step);
                }
            }
            Kind::Dir => at = Position::Physical(path),
            _ if last => return Ok(Landing::Found { path, kind }),
            _ => return Err("not_a_directory"),
        }
    }
    match at {
        Position::Physical(path) if inside(&path) => Ok(Landing::Found {
            path,
            kind: Kind::Dir,
        }),
        _ => Err("outside_roots"),
    }
}
