//! Opt-in hardening an operator can set on a root set: stricter than the
//! default policy, never weaker. See SECURITY.md for what each one buys.

/// Whether symlinks are followed during resolution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Symlinks {
    /// Follow a symlink while it stays beneath the root (the default).
    #[default]
    FollowBeneath,
    /// Refuse every symlink in every component (`RESOLVE_NO_SYMLINKS`):
    /// `symlink_loop`.
    Refuse,
}

/// Whether resolution may cross a mount point below a root.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MountPoints {
    /// Cross mount points below a root (the default).
    #[default]
    Cross,
    /// Refuse to cross a mount point (`RESOLVE_NO_XDEV`): `outside_roots`.
    Refuse,
}

/// Whether a file with more than one hard link may be written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HardLinks {
    /// Write any regular file (the default).
    #[default]
    Allow,
    /// Refuse to open for writing a file whose link count is above one (its
    /// other name may lie outside the roots): `outside_roots`. Truncation
    /// happens only after the check.
    RefuseWrites,
}

/// The hardening settings of a root set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Hardening {
    pub(crate) symlinks: Symlinks,
    pub(crate) mount_points: MountPoints,
    pub(crate) hard_links: HardLinks,
}
