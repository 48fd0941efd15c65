//! The one judgement of a path beneath a root by the parts its policy
//! hides or keeps read-only ([`judge`]), and the lexical judgement of a
//! selection before anything touches the disk
//! ([`Selected::judge_lexically`]): a lexical check may refuse early,
//! never allow. What an operation reaches is judged again on its physical
//! path (`ops::shared`).

use crate::error::{Error, ErrorKind, Operation};
use crate::root::parts::Verdict;
use crate::root::writable::read_only;
use crate::root::{Root, Selected};

/// What an operation does to the path it is judged on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Intent {
    /// Reads or lists it: refused when hidden.
    Read,
    /// Changes it (creates, writes, truncates, removes, renames either
    /// end, copies to it): refused when hidden or read-only.
    Change,
}

/// Refuses `rel`, a `/`-separated path below `root` (`..` going back,
/// every component counted), when `root`'s patterns hide it or, for a
/// change, keep it read-only. Hidden wins over read-only.
///
/// # Errors
///
/// `hidden` or `read_only`, naming the pattern.
pub(crate) fn judge(
    root: &Root,
    rel: &str,
    intent: Intent,
    op: Operation,
    input: &str,
) -> Result<(), Error> {
    let Some(parts) = &root.parts else {
        return Ok(());
    };
    match parts.judge(rel) {
        Verdict::Shared => Ok(()),
        Verdict::Hidden(pattern) => Err(hidden(op, input, pattern)),
        Verdict::ReadOnly(pattern) if intent == Intent::Change => Err(read_only(op, input)
            .with_detail("the server's policy keeps this part of the folder read-only")
            .with_pattern(pattern)),
        Verdict::ReadOnlyDir if intent == Intent::Change => Err(read_only(op, input)
            .with_detail("the server serves this folder read-only, inside a root it may change")),
        Verdict::ReadOnly(_) | Verdict::ReadOnlyDir => Ok(()),
    }
}

/// Refuses a rename's end `rel` (below `root`) that would carry along
/// something beneath it that a path pattern hides or keeps read-only
/// (renaming `config` under `config/secret.json`): judged on the patterns
/// alone, so the answer is the same whatever is on disk.
///
/// # Errors
///
/// `hidden` or `read_only`, naming the pattern.
pub(crate) fn judge_move(root: &Root, rel: &str, op: Operation, input: &str) -> Result<(), Error> {
    let Some(parts) = &root.parts else {
        return Ok(());
    };
    match parts.beneath(rel) {
        Verdict::Shared => Ok(()),
        Verdict::Hidden(pattern) => Err(Error::new(ErrorKind::Hidden, op, input)
            .with_detail("a move of this would carry a part of the folder the server's policy hides")
            .with_pattern(pattern)),
        Verdict::ReadOnly(pattern) => Err(read_only(op, input)
            .with_detail("a move of this would carry a part of the folder the server's policy keeps read-only")
            .with_pattern(pattern)),
        Verdict::ReadOnlyDir => Err(read_only(op, input)
            .with_detail("a move of this would carry a folder the server serves read-only")),
    }
}

/// The `hidden` refusal of `input` under `op`, by `pattern`: it says which
/// pattern matched, never whether anything is there.
pub(crate) fn hidden(op: Operation, input: &str, pattern: &str) -> Error {
    Error::new(ErrorKind::Hidden, op, input)
        .with_detail("the server's policy hides this part of the folder")
        .with_pattern(pattern)
}

impl Selected<'_> {
    /// Refuses the selection before the disk when its path, as given,
    /// names a hidden part of the selected root in any component (before
    /// a `..` is resolved: `secrets/../a` included), or, for a change, a
    /// read-only one: the answer is the same whether anything is there.
    ///
    /// # Errors
    ///
    /// As [`judge`].
    pub(crate) fn judge_lexically(&self, intent: Intent, op: Operation) -> Result<(), Error> {
        judge(self.root, self.rel(), intent, op, self.input)
    }
}
