//! Opens judged by the parts of a root its policy hides or keeps
//! read-only, on the path of what the open reaches:
//!
//! - the input's path as given is judged first, before the disk
//!   ([`Selected::judge_lexically`]);
//! - a read whose path has no `..` is first opened with no symlink allowed
//!   in any component: when that succeeds, the path as given *is* the
//!   object's path and the lexical judgement stands; otherwise (a symlink
//!   on the way, a `..`, a walk across roots) the object is opened as
//!   usual and judged on its descriptor's path beneath the root it lies in
//!   (`/proc/self/fd`, `F_GETPATH`, `GetFinalPathNameByHandleW`), closed
//!   when that is hidden;
//! - a change is judged before its system call: the parent is opened (and
//!   judged), then the parent's physical path plus the plain last name,
//!   and only then is the name opened, created or truncated beneath the
//!   parent's handle (a write open never follows a symlink in its last
//!   component, so this is the same open).
//!
//! Nothing here costs anything when no root of the set has patterns.

use std::borrow::Cow;

use crate::error::{Error, Operation};
use crate::ops::open::{Opened, open_landed, physical_rel};
use crate::ops::refusal::judged_refusal;
use crate::options::hardening::{Hardening, Symlinks};
use crate::parse::lexical::pieces;
use crate::root::Selected;
use crate::root::shared::{Intent, judge, judge_move};
use crate::root::writable::check_writes;
use crate::sys;
use crate::sys::How;

/// An open, and the physical path below the root it lies in when that
/// root has patterns (the path the open was judged on).
#[derive(Debug)]
pub(crate) struct Judged<'s, 'r> {
    pub(crate) opened: Opened<'s>,
    pub(crate) path: Option<Cow<'r, str>>,
}

/// Opens `rel` beneath the selected root for reading or as a location,
/// refusing (`hidden`) what the policy hides, on the lexical path and on
/// the path of what the open reached.
pub(crate) fn open_judged<'s, 'r>(
    sel: &Selected<'s>,
    rel: &'r str,
    how: How,
    op: Operation,
) -> Result<Judged<'s, 'r>, Error> {
    let root = sel.root;
    let lexical = root.parts.is_some() && !has_dot_dot(rel);
    if root.parts.is_some() {
        crate::root::shared::judge(root, rel, Intent::Read, op, sel.input)?;
        if lexical {
            let plain = How {
                hardening: Hardening {
                    symlinks: Symlinks::Refuse,
                    ..root.hardening
                },
                ..how
            };
            // A failure (a symlink on the way, or anything else) is
            // answered by the usual open below.
            if let Ok(file) = sys::open_beneath(&root.dir, rel, &plain) {
                let opened = Opened {
                    file,
                    root,
                    hardening: root.hardening,
                    truncate_pending: false,
                };
                return Ok(Judged {
                    opened,
                    path: Some(Cow::Borrowed(rel)),
                });
            }
        }
    }
    let opened =
        open_landed(sel, rel, how, op).map_err(|refused| judged_refusal(sel, rel, op, refused))?;
    let landed = opened.root;
    if landed.parts.is_none() {
        return Ok(Judged { opened, path: None });
    }
    if lexical && std::ptr::eq(landed, root) && root.hardening.symlinks == Symlinks::Refuse {
        return Ok(Judged {
            opened,
            path: Some(Cow::Borrowed(rel)),
        });
    }
    let physical = physical_rel(landed, &opened.file, op, sel.input)?;
    judge(landed, &physical, Intent::Read, op, sel.input)?;
    Ok(Judged {
        opened,
        path: Some(Cow::Owned(physical)),
    })
}

/// Opens the file `sel` names as `how` says (a change: write, append,
/// truncate or create), judged before the open when any root of the set
/// has patterns: the parent is opened and judged, then its physical path
/// plus the last name, and the name is opened beneath the parent's handle.
/// Otherwise the usual open.
pub(crate) fn open_changing<'s>(
    sel: &Selected<'s>,
    how: How,
    op: Operation,
) -> Result<Opened<'s>, Error> {
    let rel = sel.rel();
    let applies = sel.root.parts.is_some() || sel.set().is_some_and(|set| set.has_parts());
    if !applies {
        return open_landed(sel, rel, how, op);
    }
    let trimmed = rel.trim_end_matches('/');
    let (parent, name) = trimmed.rsplit_once('/').unwrap_or((".", trimmed));
    let parent = if parent.is_empty() { "." } else { parent };
    if trimmed.len() != rel.len() || matches!(name, "" | "." | "..") {
        // Refused by the caller before it gets here; the usual open
        // answers as the kernel does.
        return open_landed(sel, rel, how, op);
    }
    let location = How::location(true, Hardening::default());
    let dir = open_judged(sel, parent, location, op)?;
    check_writes(dir.opened.hardening, op, sel.input)?;
    let parent_dir = cap_std::fs::Dir::from_std_file(dir.opened.file);
    if let Some(path) = &dir.path {
        judge_change(dir.opened.root, path, &parent_dir, name, op, sel.input)?;
    }
    let leaf_how = How {
        hardening: dir.opened.hardening,
        ..how
    };
    let file = sys::open_beneath(&parent_dir, name, &leaf_how)
        .map_err(|e| Error::from_os(e, op, sel.input))?;
    Ok(Opened {
        file,
        root: dir.opened.root,
        hardening: dir.opened.hardening,
        truncate_pending: false,
    })
}

/// Judges a change to the entry `name` of the directory `parent`, whose
/// physical path below `root` is `parent_path`, before anything changes:
/// the path is the parent's plus the name the entry has on disk, which is
/// the name as given unless that is another spelling no folding knows (an
/// 8.3 short name on Windows, see [`sys::name_on_disk`]). A rename's end is
/// also judged for what it would carry along ([`judge_move`]).
pub(crate) fn judge_change(
    root: &crate::root::Root,
    parent_path: &str,
    parent: &cap_std::fs::Dir,
    name: &str,
    op: Operation,
    input: &str,
) -> Result<(), Error> {
    let on_disk = sys::name_on_disk(parent, name).map_err(|e| Error::from_os(e, op, input))?;
    let full = join(parent_path, on_disk.as_deref().unwrap_or(name));
    judge(root, &full, Intent::Change, op, input)?;
    if op == Operation::Rename {
        // A rename also moves what lies beneath the name.
        judge_move(root, &full, op, input)?;
    }
    Ok(())
}

/// `parent/name` (`name` alone below the root itself).
pub(crate) fn join(parent: &str, name: &str) -> String {
    match parent {
        "" | "." => name.to_owned(),
        _ => format!("{parent}/{name}"),
    }
}

fn has_dot_dot(rel: &str) -> bool {
    pieces(rel).any(|c| c == "..")
}
