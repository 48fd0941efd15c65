//! What a grant is, as a caller names it: the access the user is asked
//! for ([`GrantAccess`]) and what the grant covers ([`GrantKind`]).
//! Plain values; the area a grant may come from and the grant itself are
//! the set's and the live roots' business.

/// The access a grant gives (and the question asks for): reading, or
/// changing too ([semantics 15](crate::semantics#15-grants)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GrantAccess {
    /// Read and list; every change is `read_only`.
    Read,
    /// Read and change: for a directory grant, create, write, remove and
    /// rename inside it (never the directory itself); for a file grant,
    /// write the file or replace its content (an atomic write onto its
    /// name), never remove or rename it.
    Change,
}

impl GrantAccess {
    /// The access as a reason-like word for a question or a log line:
    /// `"read"` or `"change"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Read => "read",
            Self::Change => "change",
        }
    }
}

/// What a grant covers: one file or one directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GrantKind {
    /// One file (existing, or a new name in an existing directory): its
    /// parent directory pinned, and that one name reachable in it.
    File,
    /// One directory and everything beneath it.
    Directory,
}

impl GrantKind {
    /// `"file"` or `"directory"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::File => "file",
            Self::Directory => "directory",
        }
    }
}
