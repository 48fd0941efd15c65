//! [`Walk`]: a bounded recursive listing through directory handles. Each
//! directory is opened beneath its parent's handle with `O_NOFOLLOW`, so the
//! walk never re-resolves a path and never follows a symlink.

use std::fmt;
use std::sync::Arc;

use cap_std::fs::Dir;

use crate::error::{Error, Operation};
use crate::ops::read_dir::{DirEntry, FileType};
use crate::options::hardening::Hardening;
use crate::root::ScopedPath;
use crate::root::parts::Parts;
use crate::root::{Root, RootId};
use crate::sys;
use crate::sys::How;

/// Limits for [`RootSet::walk`](crate::RootSet::walk). Each bounds the
/// work a walk does, not only what it yields: `max_entries` counts every
/// entry examined, those it skips (a name that is not UTF-8) and those that
/// yield an error included, so a directory of skipped names cannot make a
/// walk run unbounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct WalkLimits {
    /// Directories below the start are entered down to this depth: 1 lists
    /// the start's entries only.
    pub max_depth: usize,
    /// The walk stops after examining this many entries (yielded, skipped
    /// or failed); [`Walk::is_truncated`] then tells whether any were left.
    pub max_entries: usize,
}

impl WalkLimits {
    /// Limits of `max_depth` directory levels and `max_entries` entries
    /// examined.
    pub const fn new(max_depth: usize, max_entries: usize) -> Self {
        Self {
            max_depth,
            max_entries,
        }
    }
}

/// One entry found by a walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkEntry {
    path: ScopedPath,
    file_type: FileType,
    depth: usize,
}

impl WalkEntry {
    /// The entry's location, relative to its root.
    pub fn path(&self) -> &ScopedPath {
        &self.path
    }

    /// The entry's type (symlinks are reported, not followed).
    pub fn file_type(&self) -> FileType {
        self.file_type
    }

    /// 1 for the start's own entries, 2 for theirs, and so on.
    pub fn depth(&self) -> usize {
        self.depth
    }
}

/// A depth-first walk; yields entries and per-directory errors.
pub struct Walk {
    root: RootId,
    root_path: Arc<str>,
    hardening: Hardening,
    /// The parts of the root the policy hides: left out, never entered.
    parts: Option<Arc<Parts>>,
    limits: WalkLimits,
    stack: Vec<Level>,
    /// Entries examined so far (yielded, skipped or failed).
    examined: usize,
    truncated: bool,
    /// Whether the last entry yielded was a directory the walk entered
    /// (its level is on top of the stack).
    entered: bool,
}

struct Level {
    dir: Dir,
    entries: cap_std::fs::ReadDir,
    prefix: String,
    depth: usize,
}

impl Walk {
    pub(crate) fn new(
        root: &Root,
        start: Dir,
        prefix: String,
        limits: WalkLimits,
    ) -> Result<Self, Error> {
        let mut walk = Self {
            root: root.id,
            root_path: root.slash.clone(),
            hardening: root.hardening,
            parts: root.parts.clone(),
            limits,
            stack: Vec::new(),
            examined: 0,
            truncated: false,
            entered: false,
        };
        walk.push(start, prefix, 1)
            .map_err(|e| Error::from_os(e, Operation::Walk, "<start>"))?;
        Ok(walk)
    }

    /// Whether the walk stopped at `max_entries` with entries left unseen.
    /// It may yield fewer entries than `max_entries`: skipped ones count.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    /// Skips the contents of the directory just yielded: the walk does not
    /// descend into it (its descriptor is closed at once) and its entries do
    /// not count against `max_entries`. Does nothing after an entry that is
    /// not a directory the walk entered (a file, a symlink, a directory at
    /// `max_depth`).
    pub fn skip_entered(&mut self) {
        if std::mem::take(&mut self.entered) {
            self.stack.pop();
        }
    }

    fn push(&mut self, dir: Dir, prefix: String, depth: usize) -> std::io::Result<()> {
        let entries = dir.entries()?;
        self.stack.push(Level {
            dir,
            entries,
            prefix,
            depth,
        });
        Ok(())
    }

    fn join(prefix: &str, name: &str) -> String {
        if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}/{name}")
        }
    }
}

impl Iterator for Walk {
    type Item = Result<WalkEntry, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        self.entered = false;
        loop {
            let level = self.stack.last_mut()?;
            let Some(entry) = level.entries.next() else {
                self.stack.pop();
                continue;
            };
            if self.examined == self.limits.max_entries {
                self.truncated = true;
                self.stack.clear();
                return None;
            }
            self.examined += 1;
            let depth = level.depth;
            let entry = match entry.and_then(DirEntry::from_cap) {
                Ok(entry) => entry,
                Err(e) => return Some(Err(Error::from_os(e, Operation::Walk, &level.prefix))),
            };
            let Some(name) = entry.name().to_str() else {
                continue; // a name that cannot be reported as UTF-8 is skipped
            };
            if let Some(parts) = &self.parts
                && parts.hides_entry(&level.prefix, name)
            {
                continue; // counted as examined, never yielded or entered
            }
            let rel = Self::join(&level.prefix, name);
            if entry.file_type() == FileType::Dir && depth < self.limits.max_depth {
                let how = How {
                    directory: true,
                    nofollow: true,
                    hardening: self.hardening,
                    ..How::default()
                };
                match sys::open_beneath(&level.dir, name, &how) {
                    Ok(file) => {
                        if let Err(e) = self.push(Dir::from_std_file(file), rel.clone(), depth + 1)
                        {
                            return Some(Err(Error::from_os(e, Operation::Walk, &rel)));
                        }
                        self.entered = true;
                    }
                    Err(e) => return Some(Err(Error::from_os(e, Operation::Walk, &rel))),
                }
            }
            let path = ScopedPath::new(self.root, self.root_path.clone(), rel);
            return Some(Ok(WalkEntry {
                path,
                file_type: entry.file_type(),
                depth,
            }));
        }
    }
}

impl fmt::Debug for Walk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Walk")
            .field("root", &self.root)
            .field("limits", &self.limits)
            .field("examined", &self.examined)
            .finish_non_exhaustive()
    }
}
