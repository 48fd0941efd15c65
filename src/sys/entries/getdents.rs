//! Linux: a directory read with `getdents64` (rustix's `RawDir`) from the
//! descriptor the caller opened, into buffers the reader keeps from one
//! directory to the next.

use std::ffi::OsStr;
use std::io;
use std::mem::MaybeUninit;
use std::os::unix::ffi::OsStrExt;

use cap_std::fs::Dir;
use rustix::fs::{AtFlags, FileType, RawDir};

use super::{Entry, EntryKind};

/// Bytes asked of each `getdents64`: some hundreds of entries with short
/// names, and room for the longest record (a 255-byte name) many times
/// over.
const BUFFER: usize = 16 * 1024;

/// Reads one directory at a time ([`start`](Self::start)), reusing its
/// buffers for the next.
#[derive(Default)]
pub(crate) struct Entries {
    /// The directory read; `None` when closed.
    dir: Option<Dir>,
    /// What `getdents64` fills (allocated on first use).
    raw: Vec<MaybeUninit<u8>>,
    /// The entries of the last `getdents64`, without `.` and `..`: each its
    /// type code ([`code`]), its name's length (two bytes, little-endian: a
    /// kernel record's own length is 16 bits) and its name.
    batch: Vec<u8>,
    /// Where the next entry of `batch` begins.
    cursor: usize,
    /// The directory has no entries left, or failed: nothing more is read.
    done: bool,
    /// Takes every entry's type as `DT_UNKNOWN` (for the tests of the
    /// fallback; a real file system chooses this itself).
    #[cfg(test)]
    pub(super) unknown_types: bool,
}

impl Entries {
    /// Begins reading `dir` (a descriptor opened for reading, at its
    /// start), closing the directory read before.
    pub(crate) fn start(&mut self, dir: Dir) -> io::Result<()> {
        self.dir = Some(dir);
        self.batch.clear();
        self.cursor = 0;
        self.done = false;
        if self.raw.is_empty() {
            self.raw.resize(BUFFER, MaybeUninit::uninit());
        }
        Ok(())
    }

    /// Closes the directory; the buffers stay for the next
    /// [`start`](Self::start).
    pub(crate) fn close(&mut self) {
        self.dir = None;
        self.batch.clear();
        self.cursor = 0;
        self.done = true;
    }

    /// The next entry, `None` once the directory is exhausted, closed, or
    /// failed to read (the error is returned once). An entry whose type
    /// the directory does not record and that cannot be asked of
    /// (`fstatat` failed: it was removed meanwhile) is an error of its own,
    /// and the reading goes on.
    pub(crate) fn next(&mut self) -> Option<io::Result<Entry<'_>>> {
        let dir = self.dir.as_ref()?;
        while self.cursor == self.batch.len() {
            if self.done {
                return None;
            }
            self.cursor = 0;
            match fill(dir, &mut self.raw, &mut self.batch) {
                Ok(more) => self.done = !more,
                Err(e) => {
                    self.done = true;
                    self.batch.clear();
                    return Some(Err(e));
                }
            }
        }
        let at = self.cursor;
        let len = usize::from(u16::from_le_bytes([self.batch[at + 1], self.batch[at + 2]]));
        let name = OsStr::from_bytes(&self.batch[at + 3..at + 3 + len]);
        self.cursor = at + 3 + len;
        let recorded = kind(self.batch[at]);
        #[cfg(test)]
        let recorded = recorded.filter(|_| !self.unknown_types);
        let kind = match recorded {
            Some(kind) => kind,
            None => match kind_at(dir, name) {
                Ok(kind) => kind,
                Err(e) => return Some(Err(e)),
            },
        };
        Some(Ok(Entry { name, kind, dir }))
    }
}

/// Reads one `getdents64` worth of `dir`'s entries into `batch` (replacing
/// what it held); `false` once the directory has none left.
fn fill(dir: &Dir, raw: &mut [MaybeUninit<u8>], batch: &mut Vec<u8>) -> io::Result<bool> {
    batch.clear();
    let mut reader = RawDir::new(dir, raw);
    loop {
        let Some(entry) = reader.next() else {
            return Ok(false);
        };
        let entry = entry?;
        let name = entry.file_name().to_bytes();
        if name != b"." && name != b".." {
            let len = u16::try_from(name.len()).map_err(|_| {
                io::Error::new(io::ErrorKind::InvalidData, "a name longer than its record")
            })?;
            batch.push(code(entry.file_type()));
            batch.extend_from_slice(&len.to_le_bytes());
            batch.extend_from_slice(name);
        }
        // Stop before `RawDir` would call `getdents64` again into the buffer
        // `batch` was copied from: the next call is the next `fill`'s.
        if reader.is_buffer_empty() {
            return Ok(true);
        }
    }
}

/// What `name` in `dir` is, asked of the inode beneath the same handle
/// (`fstatat` with `AT_SYMLINK_NOFOLLOW`, so a symlink is one): for the
/// file systems whose directories record no types (`DT_UNKNOWN`). The name
/// is one component read from `dir` itself, so it cannot lead elsewhere.
pub(super) fn kind_at(dir: &Dir, name: &OsStr) -> io::Result<EntryKind> {
    let stat = rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)?;
    Ok(kind(code(FileType::from_raw_mode(stat.st_mode))).unwrap_or(EntryKind::Other))
}

/// The byte `batch` records an entry's type as: 0 when the directory does
/// not say (`DT_UNKNOWN`).
fn code(file_type: FileType) -> u8 {
    match file_type {
        FileType::Unknown => 0,
        FileType::RegularFile => 1,
        FileType::Directory => 2,
        FileType::Symlink => 3,
        _ => 4,
    }
}

/// The kind a [`code`] stands for; `None` when unknown.
fn kind(code: u8) -> Option<EntryKind> {
    match code {
        0 => None,
        1 => Some(EntryKind::File),
        2 => Some(EntryKind::Dir),
        3 => Some(EntryKind::Symlink),
        _ => Some(EntryKind::Other),
    }
}
