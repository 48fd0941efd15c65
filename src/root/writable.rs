//! Write access: whether the policy of a root lets an operation change what
//! lies beneath it. [`Writable`] is the only way to a mutation: every
//! operation that creates, writes, truncates, removes or renames takes one,
//! and only [`Selected::writable`] makes one, after [`check_write`]. A new
//! mutating operation cannot skip the check: it would not compile.

use std::ops::Deref;

use crate::error::{Error, ErrorKind, Operation};
use crate::options::hardening::{Hardening, Writes};
use crate::root::shared::Intent;
use crate::root::{Root, Selected};

/// A selection that may be changed: its root's policy allows writes.
#[derive(Debug)]
pub(crate) struct Writable<'a, 's> {
    sel: &'a Selected<'s>,
}

impl<'s> Selected<'s> {
    /// This selection, for a mutation `op`: refused (`read_only`) before
    /// anything touches the disk when its root is read-only, and (`hidden`
    /// or `read_only`) when its path as given names a part of the root the
    /// policy hides or keeps read-only.
    pub(crate) fn writable(&self, op: Operation) -> Result<Writable<'_, 's>, Error> {
        self.judge_lexically(Intent::Change, op)?;
        check_write(self.root, op, self.input)?;
        self.root.check_grant_change(op, self.input)?;
        Ok(Writable { sel: self })
    }
}

impl<'s> Deref for Writable<'_, 's> {
    type Target = Selected<'s>;

    fn deref(&self) -> &Selected<'s> {
        self.sel
    }
}

/// The one write check: `Ok` when `root` (the root a resolution lands in,
/// which judges the mutation) may be changed; `read_only` for `input`
/// under `op` otherwise.
///
/// # Errors
///
/// `read_only` when the root's policy refuses writes.
pub(crate) fn check_write(root: &Root, op: Operation, input: &str) -> Result<(), Error> {
    check_writes(root.hardening, op, input)
}

/// [`check_write`] for the hardening a resolution ended with: after a walk
/// across roots, the stricter of every root it went through.
///
/// # Errors
///
/// `read_only` when that hardening refuses writes.
pub(crate) fn check_writes(hardening: Hardening, op: Operation, input: &str) -> Result<(), Error> {
    match hardening.writes {
        Writes::Allow => Ok(()),
        Writes::Refuse => Err(read_only(op, input)),
    }
}

/// The `read_only` refusal of `input` under `op`.
pub(crate) fn read_only(op: Operation, input: &str) -> Error {
    Error::new(ErrorKind::ReadOnly, op, input)
        .with_detail("the server's policy makes this root read-only")
}
