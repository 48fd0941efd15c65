//! [`ReadDir`]: a directory listing that yields names and types, never
//! absolute paths.

use std::ffi::OsString;
use std::fmt;
use std::fs::File;
use std::io;

use std::sync::Arc;

use crate::error::{Error, Operation};
use crate::root::parts::Parts;

/// The type of a directory entry, as the directory reports it (a symlink is
/// a symlink: listings do not follow links).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FileType {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link.
    Symlink,
    /// A FIFO, socket or device.
    Other,
}

/// One entry of a [`ReadDir`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    name: OsString,
    file_type: FileType,
}

impl DirEntry {
    pub(crate) fn from_cap(entry: cap_std::fs::DirEntry) -> io::Result<Self> {
        let file_type = entry.file_type()?;
        let file_type = if file_type.is_file() {
            FileType::File
        } else if file_type.is_dir() {
            FileType::Dir
        } else if file_type.is_symlink() {
            FileType::Symlink
        } else {
            FileType::Other
        };
        Ok(Self {
            name: entry.file_name(),
            file_type,
        })
    }

    /// The entry's name within its directory.
    pub fn name(&self) -> &std::ffi::OsStr {
        &self.name
    }

    /// The entry's type.
    pub fn file_type(&self) -> FileType {
        self.file_type
    }
}

/// The entries of a directory beneath a root (without `.` and `..`).
pub struct ReadDir {
    inner: cap_std::fs::ReadDir,
    /// The parts of the root the policy hides, and the directory's physical
    /// path below the root: hidden entries are left out.
    hiding: Option<(Arc<Parts>, String)>,
}

impl ReadDir {
    /// The entries of `dir`, leaving out those `hiding` hides (the root's
    /// parts and the directory's physical path below the root).
    pub(crate) fn new(dir: File, hiding: Option<(Option<Arc<Parts>>, String)>) -> io::Result<Self> {
        let inner = cap_std::fs::Dir::from_std_file(dir).entries()?;
        let hiding = hiding.and_then(|(parts, path)| Some((parts?, path)));
        Ok(Self { inner, hiding })
    }
}

impl Iterator for ReadDir {
    type Item = Result<DirEntry, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let entry = self
                .inner
                .next()?
                .and_then(DirEntry::from_cap)
                .map_err(|e| Error::from_os(e, Operation::ReadDir, "<entry>"));
            if let (Ok(entry), Some((parts, dir))) = (&entry, &self.hiding)
                && parts.hides_entry(dir, &entry.name.to_string_lossy())
            {
                continue;
            }
            return Some(entry);
        }
    }
}

impl fmt::Debug for ReadDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReadDir").finish_non_exhaustive()
    }
}
