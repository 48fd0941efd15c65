//! Served directories inside other ones, as the model sees them
//! (semantics 5): the outermost root judges a path, with one more layer
//! per other served directory it physically contains, so the strictest
//! answer wins.
//!
//! [`judge_with`] already judges the patterns of every
//! root holding an object (each root's patterns anchored at its own
//! place). This module adds what it does not see:
//!
//! - **Read-only served directories** ([`judge_served`]): a change whose
//!   object lies at or beneath a directory served read-only is refused,
//!   whichever root the input named; a change whose path as given may
//!   pass through such a directory's place (a link out of it) may be
//!   refused.
//! - **Listings and walks through the outermost root**
//!   ([`entry_hidden_through`], [`walk_expected`]): when the input's root
//!   is the outermost holding an entry, the entry is left out iff some
//!   root holding it hides it. Otherwise (the directory reached through an
//!   inner root's own spelling, or through a link into another root) only
//!   what every holder agrees on is predicted.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};

use super::parts::{Part, Parts};
use super::{Root, Verdict, choose, entry_hidden, input, judge_with};
use crate::corpus::Op;

/// The accepted roots of a list.
fn accepted(roots: &[String]) -> Vec<Root> {
    roots.iter().filter_map(|r| Root::new(r).ok()).collect()
}

/// The root the input names (the outermost whose path is a component
/// prefix of its leading names).
fn chosen<'r>(roots: &'r [Root], untrusted: &str) -> Option<&'r Root> {
    let parsed = input::parse(untrusted).ok()?;
    choose(roots, &parsed.steps).map(|(root, _)| root)
}

/// What the patterns of `root` say of `path` (which it holds).
fn part_below(parts: &Parts, root: &Root, path: &Path) -> Option<Part> {
    let rel = path.strip_prefix(&root.resolved).ok()?;
    let names: Vec<String> = rel
        .iter()
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    Some(parts.judge(&names))
}

/// Whether `root` holds `path` and every other root holding it lies at
/// or beneath `root`: its judgement then carries theirs as layers.
fn outermost(roots: &[Root], root: &Root, path: &Path) -> bool {
    path.starts_with(&root.resolved)
        && roots
            .iter()
            .filter(|r| path.starts_with(&r.resolved))
            .all(|r| r.resolved.starts_with(&root.resolved))
}

/// [`judge_with`] for a set serving `roots` writable and `read_only`
/// directories read-only (both lists of URIs or paths, `{T}` substituted):
/// a create whose new name lies at or beneath a read-only directory is
/// refused (`read_only`); one whose root holds a read-only directory is
/// never a strict allow (its path as given may pass through that
/// directory's place, which a library may refuse). Reads and listings are
/// judged as [`judge_with`] on all the directories.
pub fn judge_served(
    roots: &[String],
    read_only: &[String],
    parts: &Parts,
    untrusted: &str,
    op: Op,
) -> Verdict {
    let all: Vec<String> = roots.iter().chain(read_only).cloned().collect();
    let verdict = judge_with(&all, parts, untrusted, op);
    if op != Op::WriteNew || read_only.is_empty() {
        return verdict;
    }
    let Verdict::Allow { target, strict } = verdict else {
        return verdict;
    };
    let protected = accepted(read_only);
    if let Some(dir) = protected.iter().find(|r| target.starts_with(&r.resolved)) {
        let (shown, dir) = (target.display(), dir.resolved.display());
        return Verdict::Deny {
            why: format!("read_only: {shown} lies in the read-only served directory {dir}"),
        };
    }
    let all = accepted(&all);
    let passes = chosen(&all, untrusted).is_some_and(|root| {
        protected
            .iter()
            .any(|r| r.resolved.starts_with(&root.resolved))
    });
    Verdict::Allow {
        target,
        strict: strict && !passes,
    }
}

/// Whether the entry `name` of `dir` (an absolute physical path inside
/// the roots), listed through `untrusted`, is left out: when the input's
/// root is the outermost holding the entry, `Some(true)` iff a root
/// holding it hides it (the strictest answer wins); otherwise as
/// [`entry_hidden`] (`None` when holders disagree).
pub fn entry_hidden_through(
    roots: &[String],
    parts: &Parts,
    untrusted: &str,
    dir: &Path,
    name: &OsStr,
) -> Option<bool> {
    let accepted = accepted(roots);
    let path = dir.join(name);
    match chosen(&accepted, untrusted) {
        Some(root) if !parts.is_empty() && outermost(&accepted, root, &path) => {
            let holders = accepted.iter().filter(|r| path.starts_with(&r.resolved));
            Some(
                holders
                    .filter_map(|r| part_below(parts, r, &path))
                    .any(|p| p == Part::Hidden),
            )
        }
        _ => entry_hidden(roots, parts, dir, name),
    }
}

/// One entry a walk of a directory meets on the disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkedEntry {
    /// Its path below the walk's start.
    pub below: PathBuf,
    /// Whether it must be left out (`Some(true)`), yielded
    /// (`Some(false)`), or may be either (`None`, nested roots disagree).
    pub hidden: Option<bool>,
}

/// Every entry a walk of `start` (the physical directory `untrusted`
/// lands on) meets down to `max_depth` levels, judged as
/// [`entry_hidden_through`]: a walk never follows a symlink and never
/// enters a directory it leaves out (one that may be left out is not
/// entered by this prediction either: what lies beneath it may or may not
/// be yielded, and is not listed here).
///
/// # Errors
///
/// A directory that cannot be read.
pub fn walk_expected(
    roots: &[String],
    parts: &Parts,
    untrusted: &str,
    start: &Path,
    max_depth: usize,
) -> Result<Vec<WalkedEntry>, String> {
    let mut out = Vec::new();
    let mut pending = vec![(PathBuf::new(), 1)];
    while let Some((below, depth)) = pending.pop() {
        let dir = start.join(&below);
        for entry in fs::read_dir(&dir).map_err(|e| format!("{dir:?}: {e}"))? {
            let entry = entry.map_err(|e| format!("{dir:?}: {e}"))?;
            let name = entry.file_name();
            let hidden = entry_hidden_through(roots, parts, untrusted, &dir, &name);
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            let path = below.join(&name);
            if is_dir && hidden == Some(false) && depth < max_depth {
                pending.push((path.clone(), depth + 1));
            }
            out.push(WalkedEntry {
                below: path,
                hidden,
            });
        }
    }
    Ok(out)
}

/// [`must_allow_across_with`](super::must_allow_across_with) for the set
/// of [`judge_served`]: `None` for a create that set may refuse (its root
/// holds a read-only directory, or its object lies in one).
pub fn must_allow_across_served(
    roots: &[String],
    read_only: &[String],
    parts: &Parts,
    untrusted: &str,
    op: Op,
) -> Option<PathBuf> {
    let all: Vec<String> = roots.iter().chain(read_only).cloned().collect();
    let across = super::must_allow_across_with(&all, parts, untrusted, op)?;
    if op != Op::WriteNew || read_only.is_empty() {
        return Some(across);
    }
    match judge_served(roots, read_only, parts, untrusted, op) {
        Verdict::Allow { strict: true, .. } => Some(across),
        _ => None,
    }
}

/// Why a change to the object at `path` (an absolute physical path inside
/// the directories) must be refused by the set of [`judge_served`]: it
/// lies in a read-only served directory, or every root holding it hides it
/// or keeps it read-only ([`change_refused`](super::change_refused)).
pub fn change_refused_served(
    roots: &[String],
    read_only: &[String],
    parts: &Parts,
    path: &Path,
) -> Option<String> {
    if let Some(dir) = accepted(read_only)
        .iter()
        .find(|r| path.starts_with(&r.resolved))
    {
        let (shown, dir) = (path.display(), dir.resolved.display());
        return Some(format!(
            "read_only: {shown} lies in the read-only served directory {dir}"
        ));
    }
    let all: Vec<String> = roots.iter().chain(read_only).cloned().collect();
    super::change_refused(&all, parts, path)
}
