//! Grants in the model (semantics 15): a directory grant is a root at its
//! physical path (its only spelling); a file grant is one physical file,
//! chosen like a root whose key is the file's path, that reaches that
//! file and nothing else. Links never land in a file grant, and a path
//! that goes on past the granted name reaches nothing.
//!
//! Grants carry the server's patterns, anchored at the area. The model
//! takes patterns that mean the same wherever they are anchored (a name,
//! or a path under `**/`: see [`anywhere`]) and judges a directory grant
//! by them as it judges a root; a file grant is its one name, which the
//! question already judged (a hidden or read-only name is never granted
//! for a change). Patterns anchored at the area itself are covered by the
//! grants corpus, row by row.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::{Root, Verdict, choose, input, judge_with, parts::Parts, walk};
use crate::corpus::Op;
use walk::{Landing, Step};

/// The grants in force: physical paths, as the question named them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Granted {
    /// Directory grants.
    pub dirs: Vec<PathBuf>,
    /// File grants (existing files, or new names in existing directories).
    pub files: Vec<PathBuf>,
}

impl Granted {
    /// Whether nothing is granted.
    pub fn is_empty(&self) -> bool {
        self.dirs.is_empty() && self.files.is_empty()
    }
}

fn as_root(path: &Path) -> Root {
    let names: Vec<OsString> = path.iter().skip(1).map(|n| n.to_owned()).collect();
    Root {
        as_given: Some(names),
        resolved: path.to_owned(),
    }
}

/// The patterns of `parts` that match the same paths wherever they are
/// anchored: those without a `/` but at their end, and those under `**/`.
/// Beneath a directory grant they say what they say beneath the area
/// (a component above the grant that one of them matched would have kept
/// the grant from being made).
pub fn anywhere(parts: &Parts) -> Parts {
    let keep = |patterns: &[String]| -> Vec<String> {
        patterns
            .iter()
            .filter(|text| {
                let body = text.strip_prefix('!').unwrap_or(text).trim_end_matches('/');
                !body.contains('/') || (body.starts_with("**/") && !body[3..].contains('/'))
            })
            .cloned()
            .collect()
    };
    Parts {
        hide: keep(&parts.hide),
        read_only: keep(&parts.read_only),
    }
}

/// Judges `op` on `untrusted` when only `granted` is served (a session of
/// grants, no client root) under `parts` (from [`anywhere`]).
pub fn judge_granted(granted: &Granted, parts: &Parts, untrusted: &str, op: Op) -> Verdict {
    let deny = |why: &str| Verdict::Deny { why: why.into() };
    let parsed = match input::parse(untrusted) {
        Ok(parsed) => parsed,
        Err(why) => return Verdict::Deny { why },
    };
    if granted.is_empty() {
        return deny("no_roots: nothing is granted");
    }
    let dirs: Vec<Root> = granted.dirs.iter().map(|d| as_root(d)).collect();
    let files: Vec<Root> = granted.files.iter().map(|f| as_root(f)).collect();
    let all: Vec<Root> = dirs.iter().chain(&files).cloned().collect();
    let chosen = choose(&all, &parsed.steps);
    let Some((root, rest)) = chosen.filter(|(root, _)| files.contains(root)) else {
        // A directory grant (or nothing): a root like any other.
        let dirs: Vec<String> = granted
            .dirs
            .iter()
            .map(|d| d.to_string_lossy().into_owned())
            .collect();
        if dirs.is_empty() {
            return deny("outside_roots: no grant is a component prefix of the input");
        }
        return judge_with(&dirs, parts, untrusted, op);
    };
    // A file grant: its one name, and nothing past it.
    if !rest.is_empty() {
        return deny("hidden: a path past a granted file's name");
    }
    let file = &root.resolved;
    let (Some(parent), Some(name)) = (file.parent(), file.file_name()) else {
        return deny("outside_roots: a file grant names a file");
    };
    let landing = walk::walk(
        parent,
        &[Step::Name(name.to_owned())],
        walk::Mode::Physical,
        false,
    );
    let strict = parsed.lenient.is_none();
    match (op, landing) {
        (
            Op::Read,
            Ok(Landing::Found {
                path,
                kind: walk::Kind::File,
            }),
        ) if path == *file => Verdict::Allow {
            target: path,
            strict,
        },
        (Op::WriteNew, Ok(Landing::Missing { .. })) => Verdict::Allow {
            target: file.clone(),
            strict,
        },
        (Op::WriteNew, _) => deny("already_exists: the granted file exists"),
        (Op::List, _) => deny("not_a_directory: a file grant lists nothing"),
        _ => deny("not_found: the granted name is not a regular file now"),
    }
}
