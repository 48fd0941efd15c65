//! Notes held open across tool calls: `notes_open` keeps the note's
//! [`TrackedFile`] under a number, `notes_read` with that `handle` reads it
//! again (the same file, wherever it moved beneath the roots), and
//! `notes_close` lets it go.
//!
//! They are tracked files of the session's roots: when the user removes the
//! folder a held note lies in, the library revokes the handle and the next
//! read says `scope_lost` instead of reading a file the user no longer
//! shares. A revoked handle is dropped from the table on that read.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use mcp_roots::TrackedFile;

use crate::failure::Problem;

/// How many notes one session may hold open (each is a descriptor).
pub const MAX_HELD: usize = 32;

/// A held note, locked while it is read (reads of one handle take turns).
pub(crate) type HeldFile = Arc<Mutex<TrackedFile>>;

/// The session's held notes; clones share them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Held {
    inner: Arc<Mutex<Table>>,
}

#[derive(Debug, Default)]
struct Table {
    /// The last number given out (numbers are never reused in a session).
    last: u32,
    files: BTreeMap<u32, HeldFile>,
}

impl Held {
    /// Keeps `file`; its number.
    ///
    /// # Errors
    ///
    /// `too_many_open` when [`MAX_HELD`] notes are already held.
    pub(crate) fn keep(&self, file: TrackedFile) -> Result<u32, Problem> {
        let mut table = lock(&self.inner);
        if table.files.len() >= MAX_HELD {
            let message = format!(
                "{MAX_HELD} notes are already open in this session; close one with notes_close first"
            );
            return Err(Problem::new("too_many_open", message));
        }
        table.last += 1;
        let id = table.last;
        table.files.insert(id, Arc::new(Mutex::new(file)));
        Ok(id)
    }

    /// The held note number `id`.
    ///
    /// # Errors
    ///
    /// `unknown_handle` if no note is held under `id`.
    pub(crate) fn get(&self, id: u32) -> Result<HeldFile, Problem> {
        lock(&self.inner)
            .files
            .get(&id)
            .cloned()
            .ok_or_else(|| unknown(id))
    }

    /// Lets the note number `id` go; whether it was held.
    pub(crate) fn close(&self, id: u32) -> bool {
        lock(&self.inner).files.remove(&id).is_some()
    }
}

/// The problem of a number that names no held note.
pub(crate) fn unknown(id: u32) -> Problem {
    Problem::new(
        "unknown_handle",
        format!(
            "No note is open under handle {id} in this session (never opened, closed, or revoked \
             when its folder stopped being shared). Open it again with notes_open."
        ),
    )
}

pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every lock of this server guards state changed by single insertions,
    // removals or assignments: a poisoned lock still holds a consistent
    // state. The server's one lock helper.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
