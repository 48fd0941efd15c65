//! What a grant covers, as its root carries it
//! ([semantics 15](crate::semantics#15-grants)): a directory grant is a
//! root like any other; a file grant is its parent directory, pinned, of
//! which one name alone is reachable. Its keys in a set's index are the
//! file's path (parent and name), so the grant is chosen for that path
//! and nothing else in the directory; its parts hide every other name
//! ([`Parts::only`](crate::root::parts::Parts)), so a link or a `..`
//! that lands elsewhere in the directory reaches nothing either.

use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, ErrorKind, Operation};
use crate::options::grant::GrantKind;
use crate::root::Root;

/// What a grant root covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Granted {
    pub(crate) kind: GrantKind,
    /// For a file grant, the file's name in the root's directory.
    pub(crate) file: Option<Box<str>>,
}

/// A number no other file grant of the process bears (never 0, the
/// number of every directory root).
pub(crate) fn next_number() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl Root {
    /// For a grant, what it covers.
    pub fn grant(&self) -> Option<crate::options::grant::GrantKind> {
        self.grant.as_ref().map(|g| g.kind)
    }

    /// For a file grant, the granted file's name in the root's directory.
    pub(crate) fn granted_file(&self) -> Option<&str> {
        self.grant.as_ref().and_then(|g| g.file.as_deref())
    }

    /// `key` (one of the root's keys) as a set's index holds it: the file's
    /// path for a file grant, the key itself otherwise.
    pub(crate) fn index_key<'k>(&self, key: &'k str) -> Cow<'k, str> {
        match self.granted_file() {
            None => Cow::Borrowed(key),
            Some(name) if key == "/" => Cow::Owned(format!("/{name}")),
            Some(name) => Cow::Owned(format!("{key}/{name}")),
        }
    }

    /// Refuses `op` on the granted file of a file grant when it would
    /// remove it, rename it, or put a directory at its name: a file grant
    /// may change the file's content, never where it is.
    ///
    /// # Errors
    ///
    /// `read_only` for those operations under a file grant.
    pub(crate) fn check_grant_change(&self, op: Operation, input: &str) -> Result<(), Error> {
        if self.granted_file().is_none() {
            return Ok(());
        }
        match op {
            Operation::Remove | Operation::Rename | Operation::CreateDir => {
                Err(Error::new(ErrorKind::ReadOnly, op, input).with_detail(
                    "a granted file may be written, not removed, renamed or made a folder",
                ))
            }
            _ => Ok(()),
        }
    }
}
