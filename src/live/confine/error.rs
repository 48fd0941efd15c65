//! Why [`confine_process`](crate::confine_process) refused: an operator's
//! problem, reported before anything is served (not a tool result).

use std::fmt;
use std::io;

/// Why the process could not be confined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ConfinementErrorKind {
    /// The roots have no operator ceiling.
    NoCeiling,
    /// [`Required`](crate::Confinement::Required), and the kernel has no
    /// Landlock ABI 3 (or this is not Linux).
    Unsupported,
    /// [`Required`](crate::Confinement::Required), and the process has
    /// more than one thread (or their number cannot be read).
    Threads,
    /// The kernel refused a rule or the restriction.
    Kernel,
}

impl ConfinementErrorKind {
    /// A stable name: `no_ceiling`, `unsupported`, `threads` or `kernel`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NoCeiling => "no_ceiling",
            Self::Unsupported => "unsupported",
            Self::Threads => "threads",
            Self::Kernel => "kernel",
        }
    }
}

/// The process was not confined (and, but for `PR_SET_NO_NEW_PRIVS`,
/// nothing changed).
#[derive(Debug)]
pub struct ConfinementError {
    kind: ConfinementErrorKind,
    message: String,
    source: Option<io::Error>,
}

impl ConfinementError {
    pub(crate) fn new(
        kind: ConfinementErrorKind,
        message: impl Into<String>,
        source: Option<io::Error>,
    ) -> Self {
        Self {
            kind,
            message: message.into(),
            source,
        }
    }

    /// Why.
    pub fn kind(&self) -> ConfinementErrorKind {
        self.kind
    }
}

impl fmt::Display for ConfinementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConfinementError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_ref()
            .map(|err| err as &(dyn std::error::Error + 'static))
    }
}
