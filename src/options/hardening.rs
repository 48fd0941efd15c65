//! Opt-in hardening, read-only roots included: stricter than the default
//! policy, never weaker. A
//! server sets it as policy on [`RootsBuilder`](crate::RootsBuilder) (every
//! set [`Roots`](crate::Roots) hands out carries at least that), and a root
//! set may ask for more on [`RootSetBuilder`](crate::RootSetBuilder); the
//! two combine option by option, the stricter winning. See SECURITY.md for
//! what each one buys.

/// Whether symlinks are followed during resolution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Symlinks {
    /// Follow a symlink while it stays inside the roots: beneath its root,
    /// or into another root of the set (the default).
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

/// Whether anything beneath a root may be changed.
///
/// Under [`Refuse`](Self::Refuse) the root is read-only: every operation
/// that would create, write, truncate, remove or rename something beneath
/// it is refused with `read_only` before any system call acts, and files
/// are opened for reading only. Reads, listings, metadata, resolving and
/// walks work as before.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Writes {
    /// Mutations are allowed (the default).
    #[default]
    Allow,
    /// The root is read-only: every mutation is `read_only`.
    Refuse,
}

/// The hardening settings of a root set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Hardening {
    pub(crate) symlinks: Symlinks,
    pub(crate) mount_points: MountPoints,
    pub(crate) hard_links: HardLinks,
    pub(crate) writes: Writes,
}

impl Hardening {
    /// Each option at the stricter of `self` and `other`: combining a
    /// policy with a client set can only tighten it.
    pub(crate) fn stricter(self, other: Self) -> Self {
        Self {
            symlinks: match (self.symlinks, other.symlinks) {
                (Symlinks::FollowBeneath, Symlinks::FollowBeneath) => Symlinks::FollowBeneath,
                _ => Symlinks::Refuse,
            },
            mount_points: match (self.mount_points, other.mount_points) {
                (MountPoints::Cross, MountPoints::Cross) => MountPoints::Cross,
                _ => MountPoints::Refuse,
            },
            hard_links: match (self.hard_links, other.hard_links) {
                (HardLinks::Allow, HardLinks::Allow) => HardLinks::Allow,
                _ => HardLinks::RefuseWrites,
            },
            writes: match (self.writes, other.writes) {
                (Writes::Allow, Writes::Allow) => Writes::Allow,
                _ => Writes::Refuse,
            },
        }
    }

    /// Whether every option of `self` is at least as strict as `floor`'s.
    pub(crate) fn at_least(self, floor: Self) -> bool {
        self.stricter(floor) == self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stricter_takes_the_stricter_option_of_each() {
        let links = Hardening {
            symlinks: Symlinks::Refuse,
            ..Hardening::default()
        };
        let mounts = Hardening {
            mount_points: MountPoints::Refuse,
            hard_links: HardLinks::RefuseWrites,
            writes: Writes::Refuse,
            ..Hardening::default()
        };
        let both = links.stricter(mounts);
        assert_eq!(both.symlinks, Symlinks::Refuse);
        assert_eq!(both.mount_points, MountPoints::Refuse);
        assert_eq!(both.hard_links, HardLinks::RefuseWrites);
        assert_eq!(both.writes, Writes::Refuse);
        assert_eq!(mounts.stricter(links), both);
        assert_eq!(
            Hardening::default().stricter(Hardening::default()),
            Hardening::default()
        );
        assert!(both.at_least(links) && both.at_least(mounts));
        assert!(!links.at_least(mounts) && !mounts.at_least(links));
    }

    #[test]
    fn read_only_is_never_loosened_by_a_combination() {
        let read_only = Hardening {
            writes: Writes::Refuse,
            ..Hardening::default()
        };
        let others = [
            Hardening::default(),
            Hardening {
                symlinks: Symlinks::Refuse,
                ..Hardening::default()
            },
            Hardening {
                hard_links: HardLinks::RefuseWrites,
                mount_points: MountPoints::Refuse,
                ..Hardening::default()
            },
        ];
        for other in others {
            assert_eq!(read_only.stricter(other).writes, Writes::Refuse);
            assert_eq!(other.stricter(read_only).writes, Writes::Refuse);
            assert!(!other.at_least(read_only), "{other:?}");
            assert!(other.stricter(read_only).at_least(read_only));
        }
    }
}
