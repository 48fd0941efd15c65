//! [`OpenOptions`]: how `open_with` opens a file beneath a root.

/// Whether an open may create the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Create {
    /// The file must exist.
    #[default]
    No,
    /// The file must not exist (`O_CREAT | O_EXCL`); a dangling symlink
    /// counts as existing.
    New,
    /// Create the file if it is missing, open it otherwise; never through a
    /// symlink in the last component.
    OrOpen,
}

/// Options for [`RootSet::open_with`](crate::RootSet::open_with), in the
/// manner of `std::fs::OpenOptions`.
///
/// Every write open refuses a symlink in the last component (`O_NOFOLLOW`),
/// and only regular files are opened.
///
/// ```
/// use mcp_roots::{Create, OpenOptions};
/// let append = OpenOptions::new().append(true).create(Create::OrOpen);
/// # let _ = append;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenOptions {
    pub(crate) read: bool,
    pub(crate) write: bool,
    pub(crate) append: bool,
    pub(crate) truncate: bool,
    pub(crate) create: Create,
}

impl OpenOptions {
    /// Read-only, must exist.
    pub fn new() -> Self {
        Self {
            read: true,
            ..Self::default()
        }
    }

    /// Read access.
    pub fn read(mut self, read: bool) -> Self {
        self.read = read;
        self
    }

    /// Write access.
    pub fn write(mut self, write: bool) -> Self {
        self.write = write;
        self
    }

    /// Append mode (implies write access).
    pub fn append(mut self, append: bool) -> Self {
        self.append = append;
        self
    }

    /// Truncate to zero length on open (implies write access).
    pub fn truncate(mut self, truncate: bool) -> Self {
        self.truncate = truncate;
        self
    }

    /// Whether the open may create the file (creating implies write
    /// access).
    pub fn create(mut self, create: Create) -> Self {
        self.create = create;
        self
    }
}
