//! [`Overwrite`]: whether a rename may replace its destination.

/// Whether a rename may replace an existing destination.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Overwrite {
    /// Refuse an existing destination, atomically (`RENAME_NOREPLACE`):
    /// `already_exists`. The default.
    #[default]
    Refuse,
    /// Replace an existing destination.
    Replace,
}
