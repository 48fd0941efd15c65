//! [`Walk`]: a bounded recursive listing through directory handles. Each
//! directory is opened beneath its parent's handle with `O_NOFOLLOW`, so the
//! walk never re-resolves a path and never follows a symlink, and is read
//! from that same descriptor ([`sys::Entries`]). A step
//! ([`Walk::next_ref`]) borrows its entry from the walk: the path of the
//! entry is built in one buffer the walk keeps, the reader of a directory
//! left (with its buffers) reads a directory entered later, and nothing is
//! allocated per entry (on Linux).

use std::fmt;
use std::sync::Arc;

use cap_std::fs::Dir;

use crate::error::{Error, Operation};
use crate::ops::read_dir::FileType;
use crate::options::hardening::Hardening;
use crate::root::ScopedPath;
use crate::root::parts::Parts;
use crate::root::{Root, RootId};
use crate::sys;
use crate::sys::{Entries, EntryKind, How};

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

/// One entry found by a walk, borrowed from it until its next step
/// ([`Walk::next_ref`]); [`to_entry`](Self::to_entry) makes it a
/// [`WalkEntry`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkRef<'a> {
    root: RootId,
    root_path: &'a Arc<str>,
    rel: &'a str,
    /// Where the entry's own name begins in `rel`.
    name: usize,
    file_type: FileType,
    depth: usize,
}

impl<'a> WalkRef<'a> {
    /// The entry's path relative to its root, `/`-separated, as
    /// [`ScopedPath::rel`] gives it.
    pub fn rel(&self) -> &'a str {
        self.rel
    }

    /// The entry's name within its directory (the last component of
    /// [`rel`](Self::rel)).
    pub fn name(&self) -> &'a str {
        &self.rel[self.name..]
    }

    /// The root the entry lies beneath.
    pub fn root(&self) -> RootId {
        self.root
    }

    /// The entry's type (symlinks are reported, not followed).
    pub fn file_type(&self) -> FileType {
        self.file_type
    }

    /// 1 for the start's own entries, 2 for theirs, and so on.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The same entry, owned: what the walk's [`Iterator`] yields.
    pub fn to_entry(&self) -> WalkEntry {
        WalkEntry {
            path: ScopedPath::new(self.root, self.root_path.clone(), self.rel.to_owned()),
            file_type: self.file_type,
            depth: self.depth,
        }
    }
}

/// A depth-first walk; yields entries and per-directory errors.
///
/// As an [`Iterator`] it yields owned [`WalkEntry`]s;
/// [`next_ref`](Self::next_ref) takes the same steps and lends each entry
/// instead, allocating nothing per entry.
pub struct Walk {
    root: RootId,
    root_path: Arc<str>,
    hardening: Hardening,
    /// The parts of the root the policy hides: left out, never entered.
    parts: Option<Arc<Parts>>,
    limits: WalkLimits,
    /// The directories being read, the start's first.
    stack: Vec<Level>,
    /// Readers of directories left, whose buffers the next ones reuse.
    spare: Vec<Entries>,
    /// The path below the root of the entry last yielded; each level's
    /// directory path is a prefix of it.
    rel: String,
    /// Entries examined so far (yielded, skipped or failed).
    examined: usize,
    truncated: bool,
    /// Whether the last entry yielded was a directory the walk entered
    /// (its level is on top of the stack).
    entered: bool,
}

struct Level {
    entries: Entries,
    /// The length of the directory's own path at the start of `rel`.
    prefix: usize,
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
            spare: Vec::new(),
            rel: prefix,
            examined: 0,
            truncated: false,
            entered: false,
        };
        walk.push(start, walk.rel.len(), 1)
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
            self.pop();
        }
    }

    /// The next entry, lent until the next step: the step the walk's
    /// [`Iterator`] takes, without making the entry's [`ScopedPath`]. The
    /// walk allocates nothing per entry this way (on Linux; elsewhere the
    /// platform's listing allocates each name).
    ///
    /// ```
    /// # fn main() -> Result<(), mcp_roots::Error> {
    /// use mcp_roots::{FileType, RootSet, WalkLimits};
    ///
    /// let dir = tempfile::tempdir().unwrap();
    /// std::fs::create_dir(dir.path().join("src")).unwrap();
    /// std::fs::write(dir.path().join("src/lib.rs"), "").unwrap();
    /// let root = dir.path().to_str().unwrap();
    /// let set = RootSet::from_uris([root]);
    ///
    /// let mut walk = set.walk(root, WalkLimits::new(8, 1000))?;
    /// let mut files = Vec::new();
    /// while let Some(entry) = walk.next_ref() {
    ///     let entry = entry?;
    ///     if entry.file_type() == FileType::File {
    ///         files.push(format!("{} ({})", entry.rel(), entry.name()));
    ///     }
    /// }
    /// assert_eq!(files, ["src/lib.rs (lib.rs)"]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// As the [`Iterator`]: a directory that cannot be read or entered
    /// yields an error, and the walk goes on with the rest.
    #[allow(clippy::should_implement_trait)] // a lending step: no trait has it
    pub fn next_ref(&mut self) -> Option<Result<WalkRef<'_>, Error>> {
        self.entered = false;
        loop {
            let level = self.stack.last_mut()?;
            let Some(entry) = level.entries.next() else {
                self.pop();
                continue;
            };
            if self.examined == self.limits.max_entries {
                self.truncated = true;
                while !self.stack.is_empty() {
                    self.pop();
                }
                return None;
            }
            self.examined += 1;
            let (depth, prefix) = (level.depth, level.prefix);
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    let dir = &self.rel[..prefix];
                    return Some(Err(Error::from_os(e, Operation::Walk, dir)));
                }
            };
            let Some(name) = entry.name.to_str() else {
                continue; // a name that cannot be reported as UTF-8 is skipped
            };
            if let Some(parts) = &self.parts
                && parts.hides_entry(&self.rel[..prefix], name)
            {
                continue; // counted as examined, never yielded or entered
            }
            self.rel.truncate(prefix);
            if prefix > 0 {
                self.rel.push('/');
            }
            let name_at = self.rel.len();
            self.rel.push_str(name);
            let file_type = match entry.kind {
                EntryKind::File => FileType::File,
                EntryKind::Dir => FileType::Dir,
                EntryKind::Symlink => FileType::Symlink,
                EntryKind::Other => FileType::Other,
            };
            if file_type == FileType::Dir && depth < self.limits.max_depth {
                let how = How {
                    directory: true,
                    nofollow: true,
                    hardening: self.hardening,
                    ..How::default()
                };
                let opened = sys::open_beneath(entry.dir, name, &how).and_then(|file| {
                    self.push(Dir::from_std_file(file), self.rel.len(), depth + 1)
                });
                if let Err(e) = opened {
                    return Some(Err(Error::from_os(e, Operation::Walk, &self.rel)));
                }
                self.entered = true;
            }
            return Some(Ok(WalkRef {
                root: self.root,
                root_path: &self.root_path,
                rel: &self.rel,
                name: name_at,
                file_type,
                depth,
            }));
        }
    }

    /// Reads `dir` next, at `depth`; its path is the first `prefix` bytes
    /// of `rel`.
    fn push(&mut self, dir: Dir, prefix: usize, depth: usize) -> std::io::Result<()> {
        let mut entries = self.spare.pop().unwrap_or_default();
        if let Err(e) = entries.start(dir) {
            self.spare.push(entries);
            return Err(e);
        }
        self.stack.push(Level {
            entries,
            prefix,
            depth,
        });
        Ok(())
    }

    /// Leaves the directory read last: its descriptor is closed, its
    /// reader kept for the next.
    fn pop(&mut self) {
        if let Some(mut level) = self.stack.pop() {
            level.entries.close();
            self.spare.push(level.entries);
        }
    }
}

impl Iterator for Walk {
    type Item = Result<WalkEntry, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(self.next_ref()?.map(|entry| entry.to_entry()))
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
