//! A refusal from the disk, judged as if the path existed
//! ([semantics 14](crate::semantics#14-parts-of-a-root)): when an open
//! that went through a symlink or a `..` is refused (`not_found`,
//! `not_a_directory`, `symlink_loop`, …), the deepest existing ancestor is
//! opened as the path reached it, and its physical path joined with the
//! remaining names as given is judged: a hidden one answers `hidden`, so
//! the answer never tells whether anything is there in a hidden part.
//! Judging the ancestor alone would still tell whether the hidden
//! directory itself exists.
//!
//! A refusal of a path with no `..` whose existing part has no symlink is
//! answered as it is: the lexical judgement of the path as given already
//! covered it.

use crate::error::{Error, ErrorKind, Operation};
use crate::ops::open::{open_landed, physical_rel};
use crate::ops::shared::join;
use crate::options::hardening::{Hardening, Symlinks};
use crate::parse::lexical::pieces;
use crate::root::Selected;
use crate::root::shared::{Intent, judge};
use crate::sys;
use crate::sys::How;

/// `refused` (the refusal of an open of `rel` beneath the selected root),
/// or `hidden` when the path it names is hidden, judged as if it existed.
pub(crate) fn judged_refusal(sel: &Selected, rel: &str, op: Operation, refused: Error) -> Error {
    let from_disk = matches!(
        refused.kind(),
        ErrorKind::NotFound
            | ErrorKind::NotADirectory
            | ErrorKind::SymlinkLoop
            | ErrorKind::NotARegularFile
            | ErrorKind::PermissionDenied
            | ErrorKind::Io
    );
    let applies = sel.root.parts.is_some() || sel.set().is_some_and(|set| set.has_parts());
    if !from_disk || !applies {
        return refused;
    }
    match hidden_as_if_it_existed(sel, rel, op) {
        Some(hidden) => hidden,
        None => refused,
    }
}

/// The `hidden` refusal of `rel` when the deepest existing ancestor's
/// physical path, joined with the names after it as given, is hidden.
fn hidden_as_if_it_existed(sel: &Selected, rel: &str, op: Operation) -> Option<Error> {
    let location = How::location(true, Hardening::default());
    let mut cut = rel.len();
    loop {
        let (ancestor, rest) = (&rel[..cut], &rel[cut..]);
        let ancestor_rel = if ancestor.trim_matches('/').is_empty() {
            "."
        } else {
            ancestor
        };
        if let Ok(opened) = open_landed(sel, ancestor_rel, location, op) {
            if std::ptr::eq(opened.root, sel.root) && plain(sel, ancestor_rel, rest) {
                return None;
            }
            let physical = physical_rel(opened.root, &opened.file, op, sel.input).ok()?;
            let names: Vec<&str> = pieces(rest).filter(|c| !c.is_empty()).collect();
            let full = join(&physical, &names.join("/"));
            return judge(opened.root, &full, Intent::Read, op, sel.input).err();
        }
        if cut == 0 {
            return None;
        }
        // The next shorter prefix, at a component boundary.
        cut = rel[..cut].trim_end_matches('/').rfind('/').unwrap_or(0);
    }
}

/// Whether the path as given is the physical one: no `..` anywhere, and
/// the existing part opens with no symlink in any component.
fn plain(sel: &Selected, ancestor: &str, rest: &str) -> bool {
    if pieces(ancestor).chain(pieces(rest)).any(|c| c == "..") {
        return false;
    }
    let how = How::location(
        true,
        Hardening {
            symlinks: Symlinks::Refuse,
            ..sel.root.hardening
        },
    );
    sys::open_beneath(&sel.root.dir, ancestor, &how).is_ok()
}
