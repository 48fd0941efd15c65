//! The one error type: a stable [`ErrorKind`] (with its `reason()` string),
//! the input as given, the operation, and the underlying `source()`.

use std::fmt;
use std::io;

use crate::sys::{self, OsReason};

mod sentence;

/// Why an operation was refused or failed.
///
/// Each kind has one stable [`reason`](ErrorKind::reason) string that a
/// server can put in a tool result; the table is closed: a new kind is a new
/// reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A malformed URI (scheme, authority, escapes, an encoded `/`, `\` or
    /// NUL, bad UTF-8, control characters; on Windows, a name Windows would
    /// alias), or a raw path containing NUL.
    InvalidUri,
    /// A relative path, `~`, empty input, or a drive path on Unix; on
    /// Windows a drive-relative path (`C:x`) or one rooted without a drive
    /// (`\x`).
    NotAbsolute,
    /// No root contains the input, or the kernel reports that the path leads
    /// outside its root.
    OutsideRoots,
    /// A client root outside the operator ceiling.
    OutsideCeiling,
    /// A root or a listed path is not a directory, or a path component is not
    /// a directory during resolution.
    NotADirectory,
    /// A FIFO, socket, device, or a directory opened as a file.
    NotARegularFile,
    /// The target (or, for a create, its parent) does not exist.
    NotFound,
    /// `create_new` onto an existing name, including a dangling symlink.
    AlreadyExists,
    /// Too many levels of symbolic links, or a write open whose last
    /// component is a symbolic link.
    SymlinkLoop,
    /// The selected root no longer names its pinned directory.
    RootGone,
    /// A tracked handle was revoked.
    ScopeLost,
    /// No root set installed yet, or the set is empty under deny-all.
    NoRoots,
    /// A mutation (create, write, truncate, remove, rename, atomic write,
    /// copy to a destination) beneath a root the policy makes read-only.
    ReadOnly,
    /// The path reaches a part of a root that the policy hides: the user did
    /// not share it. The same answer whether anything is there or not;
    /// listings and walks leave hidden entries out.
    Hidden,
    /// A path refused for its form before anything touches the disk: longer
    /// than the platform's `PATH_MAX`, a component longer than `NAME_MAX`,
    /// or, on Windows, a verbatim or device path or a name the platform
    /// would alias or read as a device.
    InvalidPath,
    /// The operating system refused (mode bits).
    PermissionDenied,
    /// Any other I/O failure; see `source()`.
    Io,
}

impl ErrorKind {
    /// The stable machine-readable reason, e.g. `"outside_roots"`.
    pub const fn reason(self) -> &'static str {
        match self {
            Self::InvalidUri => "invalid_uri",
            Self::NotAbsolute => "not_absolute",
            Self::OutsideRoots => "outside_roots",
            Self::OutsideCeiling => "outside_ceiling",
            Self::NotADirectory => "not_a_directory",
            Self::NotARegularFile => "not_a_regular_file",
            Self::NotFound => "not_found",
            Self::AlreadyExists => "already_exists",
            Self::SymlinkLoop => "symlink_loop",
            Self::RootGone => "root_gone",
            Self::ScopeLost => "scope_lost",
            Self::NoRoots => "no_roots",
            Self::ReadOnly => "read_only",
            Self::Hidden => "hidden",
            Self::InvalidPath => "invalid_path",
            Self::PermissionDenied => "permission_denied",
            Self::Io => "io",
        }
    }

    /// Every kind, in table order (for documentation and tests).
    pub const ALL: [ErrorKind; 17] = [
        Self::InvalidUri,
        Self::NotAbsolute,
        Self::OutsideRoots,
        Self::OutsideCeiling,
        Self::NotADirectory,
        Self::NotARegularFile,
        Self::NotFound,
        Self::AlreadyExists,
        Self::SymlinkLoop,
        Self::RootGone,
        Self::ScopeLost,
        Self::NoRoots,
        Self::ReadOnly,
        Self::Hidden,
        Self::InvalidPath,
        Self::PermissionDenied,
        Self::Io,
    ];

    /// Whether this kind is a security outcome (the boundary held), as
    /// opposed to a caller mistake or a plain I/O condition.
    pub const fn is_boundary(self) -> bool {
        matches!(
            self,
            Self::OutsideRoots
                | Self::OutsideCeiling
                | Self::RootGone
                | Self::ScopeLost
                | Self::NoRoots
                | Self::ReadOnly
                | Self::Hidden
        )
    }

    /// The `io::ErrorKind` this converts to: `PermissionDenied` for the
    /// security reasons.
    fn io_kind(self) -> io::ErrorKind {
        match self {
            Self::InvalidUri | Self::NotAbsolute | Self::InvalidPath => io::ErrorKind::InvalidInput,
            Self::NotFound => io::ErrorKind::NotFound,
            Self::AlreadyExists => io::ErrorKind::AlreadyExists,
            Self::NotADirectory => io::ErrorKind::NotADirectory,
            Self::Io => io::ErrorKind::Other,
            _ => io::ErrorKind::PermissionDenied,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Self::InvalidUri => "malformed input",
            Self::NotAbsolute => "not an absolute path or file URI",
            Self::OutsideRoots => "outside the roots",
            Self::OutsideCeiling => "outside the operator ceiling",
            Self::NotADirectory => "not a directory",
            Self::NotARegularFile => "not a regular file",
            Self::NotFound => "not found",
            Self::AlreadyExists => "already exists",
            Self::SymlinkLoop => "too many or refused symbolic links",
            Self::RootGone => "root no longer names its directory",
            Self::ScopeLost => "handle revoked: its file left the roots",
            Self::NoRoots => "no roots available",
            Self::ReadOnly => "the root is read-only",
            Self::Hidden => "the user did not share this part of the folder",
            Self::InvalidPath => "path refused for its form",
            Self::PermissionDenied => "permission denied",
            Self::Io => "i/o error",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.reason())
    }
}

/// What was being done when an error happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Operation {
    /// Parsing a root or an input.
    Parse,
    /// Building a root set.
    AddRoot,
    /// Opening a file.
    Open,
    /// Creating a file.
    Create,
    /// Listing a directory.
    ReadDir,
    /// Reading metadata.
    Metadata,
    /// Resolving to a [`ScopedPath`](crate::ScopedPath).
    Resolve,
    /// Reading or writing through a tracked handle.
    Use,
    /// Creating a directory.
    CreateDir,
    /// Removing a file or directory.
    Remove,
    /// Renaming.
    Rename,
    /// Replacing a file's content atomically.
    WriteAtomic,
    /// Copying a file.
    Copy,
    /// Walking a directory tree.
    Walk,
    /// Watching the disk.
    Watch,
}

impl Operation {
    fn verb(self) -> &'static str {
        match self {
            Self::Parse => "parse",
            Self::AddRoot => "add root",
            Self::Open => "open",
            Self::Create => "create",
            Self::ReadDir => "list",
            Self::Metadata => "stat",
            Self::Resolve => "resolve",
            Self::Use => "use",
            Self::CreateDir => "create directory",
            Self::Remove => "remove",
            Self::Rename => "rename",
            Self::WriteAtomic => "write",
            Self::Copy => "copy",
            Self::Walk => "walk",
            Self::Watch => "watch",
        }
    }
}

/// A refusal or failure, with its stable reason, the input as given, the
/// operation and the underlying error.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    op: Operation,
    input: Box<str>,
    detail: Option<&'static str>,
    /// The policy's pattern that decided a `hidden` or `read_only` refusal.
    pattern: Option<Box<str>>,
    source: Option<io::Error>,
}

impl Error {
    /// A refusal of the crate's kinds, for a server that must refuse by the
    /// same table (for example a request that carries no roots).
    pub fn new(kind: ErrorKind, op: Operation, input: &str) -> Self {
        Self {
            kind,
            op,
            input: input.into(),
            detail: None,
            pattern: None,
            source: None,
        }
    }

    /// Builds an error from an I/O failure, classifying its reason.
    pub(crate) fn from_os(source: io::Error, op: Operation, input: &str) -> Self {
        Self {
            kind: classify(&source),
            source: Some(source),
            ..Self::new(ErrorKind::Io, op, input)
        }
    }

    /// Builds an error of a given kind that keeps an I/O failure as source.
    pub(crate) fn with_source(
        kind: ErrorKind,
        source: io::Error,
        op: Operation,
        input: &str,
    ) -> Self {
        Self {
            source: Some(source),
            ..Self::new(kind, op, input)
        }
    }

    /// Adds a short explanation beyond the reason.
    pub fn with_detail(mut self, detail: &'static str) -> Self {
        self.detail = Some(detail);
        self
    }

    /// Names the policy's pattern that decided the refusal.
    pub(crate) fn with_pattern(mut self, pattern: &str) -> Self {
        self.pattern = Some(pattern.into());
        self
    }

    /// The server's pattern that made the path `hidden` or `read_only`
    /// ([`RootsBuilder::hide`](crate::RootsBuilder::hide)), when a pattern
    /// decided it. It is the operator's text, never a name found on disk.
    pub fn pattern(&self) -> Option<&str> {
        self.pattern.as_deref()
    }

    /// The reason's kind.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The stable reason string (`self.kind().reason()`).
    pub fn reason(&self) -> &'static str {
        self.kind.reason()
    }

    /// The operation that failed.
    pub fn operation(&self) -> Operation {
        self.op
    }

    /// The input exactly as the caller gave it, control characters
    /// included: escape it before writing it to a text log (this error's
    /// `Display` does).
    pub fn input(&self) -> &str {
        &self.input
    }

    /// The input as given, escaped for a log line or a message: control
    /// characters (C0, DEL, C1), U+2028, U+2029 and bidirectional controls
    /// are written as `\u{..}` escapes, so an input cannot forge a line.
    ///
    /// ```
    /// use mcp_roots::{Error, ErrorKind, Operation};
    /// let err = Error::new(ErrorKind::OutsideRoots, Operation::Open, "/x\nforged");
    /// assert_eq!(err.escaped_input().to_string(), "/x\\nforged");
    /// ```
    pub fn escaped_input(&self) -> impl fmt::Display + '_ {
        Escaped(&self.input)
    }

    /// A short explanation beyond the reason, when there is one (for
    /// example "the client has not answered roots/list yet").
    pub fn detail(&self) -> Option<&'static str> {
        self.detail
    }

    /// Gets our error back out of an `io::Error` made by `From<Error>`
    /// (for example one returned by `Read` on a revoked handle).
    pub fn from_io(err: &io::Error) -> Option<&Error> {
        err.get_ref()?.downcast_ref::<Error>()
    }

    /// Like [`from_io`](Self::from_io), by value: our error, or the
    /// `io::Error` back if it does not hold one.
    ///
    /// # Errors
    ///
    /// The original `io::Error` when it does not wrap an [`Error`].
    pub fn try_from_io(err: io::Error) -> Result<Error, io::Error> {
        if Self::from_io(&err).is_none() {
            return Err(err);
        }
        let inner = err.into_inner().expect("checked: it wraps our error");
        Ok(*inner.downcast::<Error>().expect("checked: it is our error"))
    }
}

impl fmt::Display for Error {
    /// `cannot <operation> "<input>": <reason described>`, the input
    /// escaped (`\n`, `\u{85}`, `\"`, …) so that no control character,
    /// line separator or bidirectional control reaches a log raw.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot {} \"{}\": {}",
            self.op.verb(),
            Escaped(&self.input),
            self.kind.describe()
        )?;
        if let Some(detail) = self.detail {
            write!(f, " ({detail})")?;
        }
        if let Some(pattern) = &self.pattern {
            write!(f, " (pattern \"{}\")", Escaped(pattern))?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_ref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

impl From<Error> for io::Error {
    fn from(err: Error) -> Self {
        io::Error::new(err.kind.io_kind(), err)
    }
}

/// Runs an operation and emits a `tracing` event if it is refused: boundary
/// and malformed-input refusals at `INFO` (target `mcp_roots::denial`),
/// other failures at `DEBUG`.
#[inline(always)]
pub(crate) fn traced<T>(f: impl FnOnce() -> Result<T, Error>) -> Result<T, Error> {
    f().inspect_err(trace_denial)
}

/// Emits the `tracing` event for a refusal (see [`traced`]); out of the
/// way of the operations that succeed.
#[cold]
#[inline(never)]
pub(crate) fn trace_denial(err: &Error) {
    let notable = err.kind.is_boundary()
        || matches!(
            err.kind,
            ErrorKind::InvalidUri
                | ErrorKind::NotAbsolute
                | ErrorKind::InvalidPath
                | ErrorKind::SymlinkLoop
        );
    let input = Escaped(&err.input);
    if notable {
        tracing::info!(target: "mcp_roots::denial", input = %input, reason = err.reason(), op = ?err.op, "denied");
    } else {
        tracing::debug!(target: "mcp_roots::denial", input = %input, reason = err.reason(), op = ?err.op, "failed");
    }
}

/// Untrusted text as it may appear in a log line or an error message: a
/// `Display` wrapper that writes `\\` and `\"` for a backslash and a double
/// quote, `\t`, `\n`, `\r`, and `\u{..}` for every other control
/// character (C0, DEL, C1), the line and paragraph separators (U+2028,
/// U+2029) and the bidirectional formatting characters, so that an input
/// can neither start a forged line nor reorder one on display. Every input
/// the crate logs or puts in a message goes through it; [`Error::input`]
/// stays as given.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Escaped<'a>(pub(crate) &'a str);

impl Escaped<'_> {
    /// Whether `c` is written as an escape.
    fn escapes(c: char) -> bool {
        c.is_control()
            || matches!(
                c,
                '\\' | '"'
                    | '\u{2028}'
                    | '\u{2029}'
                    | '\u{200e}'
                    | '\u{200f}'
                    | '\u{202a}'..='\u{202e}'
                    | '\u{2066}'..='\u{2069}'
            )
    }
}

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(at) = rest.find(Self::escapes) {
            f.write_str(&rest[..at])?;
            let c = rest[at..].chars().next().expect("found at a char boundary");
            match c {
                '\\' => f.write_str("\\\\")?,
                '"' => f.write_str("\\\"")?,
                '\t' => f.write_str("\\t")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                c => write!(f, "\\u{{{:x}}}", u32::from(c))?,
            }
            rest = &rest[at + c.len_utf8()..];
        }
        f.write_str(rest)
    }
}

/// Maps an OS error to a reason. An escape reported by cap-std (the
/// resolution on Windows) is a `PermissionDenied` without an OS error code.
pub(crate) fn classify(err: &io::Error) -> ErrorKind {
    match err.raw_os_error() {
        Some(code) => match sys::os_reason(code) {
            OsReason::CrossDevice => ErrorKind::OutsideRoots,
            OsReason::Loop => ErrorKind::SymlinkLoop,
            OsReason::NotADirectory => ErrorKind::NotADirectory,
            OsReason::NotFound => ErrorKind::NotFound,
            OsReason::Exists => ErrorKind::AlreadyExists,
            OsReason::Denied => ErrorKind::PermissionDenied,
            OsReason::NotRegular => ErrorKind::NotARegularFile,
            OsReason::NameTooLong => ErrorKind::InvalidPath,
            OsReason::Other => ErrorKind::Io,
        },
        None if err.kind() == io::ErrorKind::PermissionDenied => ErrorKind::OutsideRoots,
        None => ErrorKind::Io,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_writes_no_control_character_raw() {
        for (raw, shown) in [
            ("/a/b.md", "/a/b.md"),
            ("/a\nb", "/a\\nb"),
            ("/a\rb\tc", "/a\\rb\\tc"),
            ("\u{1b}[31m", "\\u{1b}[31m"),
            ("a\u{7f}\u{85}\u{9f}b", "a\\u{7f}\\u{85}\\u{9f}b"),
            ("a\u{2028}b\u{2029}", "a\\u{2028}b\\u{2029}"),
            ("a\u{202e}b\u{2066}", "a\\u{202e}b\\u{2066}"),
            ("q\"b\\", "q\\\"b\\\\"),
            ("café ✓", "café ✓"),
        ] {
            assert_eq!(Escaped(raw).to_string(), shown, "{raw:?}");
        }
    }

    #[test]
    fn every_kind_has_its_own_reason() {
        let reasons: std::collections::HashSet<_> =
            ErrorKind::ALL.iter().map(|k| k.reason()).collect();
        assert_eq!(reasons.len(), ErrorKind::ALL.len());
        assert_eq!(ErrorKind::InvalidPath.reason(), "invalid_path");
        let io: io::Error = Error::new(ErrorKind::InvalidPath, Operation::Open, "/x").into();
        assert_eq!(io.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(ErrorKind::ReadOnly.reason(), "read_only");
        assert!(ErrorKind::ReadOnly.is_boundary());
        let io: io::Error = Error::new(ErrorKind::ReadOnly, Operation::Remove, "/x").into();
        assert_eq!(io.kind(), io::ErrorKind::PermissionDenied);
    }
}
