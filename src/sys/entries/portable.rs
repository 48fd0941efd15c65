//! Elsewhere (other Unix, Windows): cap-std's listing of the handle.

use std::ffi::OsString;
use std::io;

use cap_std::fs::Dir;

use super::{Entry, EntryKind};

/// Reads one directory at a time ([`start`](Self::start)).
#[derive(Default)]
pub(crate) struct Entries {
    /// The directory read; `None` when closed.
    dir: Option<Dir>,
    entries: Option<cap_std::fs::ReadDir>,
    /// The name of the entry last read (the entry borrows it).
    name: OsString,
    /// The listing failed: nothing more is read.
    done: bool,
}

impl Entries {
    /// Begins reading `dir`, closing the directory read before.
    pub(crate) fn start(&mut self, dir: Dir) -> io::Result<()> {
        self.close();
        self.entries = Some(dir.entries()?);
        self.dir = Some(dir);
        self.done = false;
        Ok(())
    }

    /// Closes the directory.
    pub(crate) fn close(&mut self) {
        self.entries = None;
        self.dir = None;
    }

    /// The next entry, `None` once the directory is exhausted, closed, or
    /// failed to read (the error is returned once); an entry whose type
    /// cannot be told is an error of its own, and the reading goes on.
    pub(crate) fn next(&mut self) -> Option<io::Result<Entry<'_>>> {
        if self.done {
            return None;
        }
        let dir = self.dir.as_ref()?;
        let entry = match self.entries.as_mut()?.next()? {
            Ok(entry) => entry,
            Err(e) => {
                self.done = true;
                return Some(Err(e));
            }
        };
        let kind = match entry.file_type() {
            Ok(t) if t.is_file() => EntryKind::File,
            Ok(t) if t.is_dir() => EntryKind::Dir,
            Ok(t) if t.is_symlink() => EntryKind::Symlink,
            Ok(_) => EntryKind::Other,
            Err(e) => return Some(Err(e)),
        };
        self.name = entry.file_name();
        Some(Ok(Entry {
            name: &self.name,
            kind,
            dir,
        }))
    }
}
