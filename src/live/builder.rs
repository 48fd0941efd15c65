//! [`RootsBuilder`]: the server's policy for one session's roots (ceiling,
//! read-only roots, hardening floor, what a client without roots is served,
//! identity).

use crate::error::Escaped;
use crate::live::roots::Roots;
use crate::options::hardening::{HardLinks, Hardening, MountPoints, Symlinks, Writes};
use crate::set::RootSet;
use crate::set::builder::RootSetBuilder;
use crate::set::ceiling;
use crate::set::policy::{EmptyRoots, Policy};

/// What a root is, over time ([semantics 10](crate::semantics#10-root-identity)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RootIdentity {
    /// The directory (device and inode) its path named when the set was
    /// built. If the path stops naming it, the root is gone until the same
    /// directory is at the path again (checked on every `replace` and
    /// `rescan`).
    #[default]
    Pinned,
}

/// Builds [`Roots`] with the server's policy.
#[derive(Clone, Debug, Default)]
pub struct RootsBuilder {
    ceiling: Option<Vec<String>>,
    read_only_ceiling: Vec<String>,
    empty: EmptyRoots,
    identity: RootIdentity,
    hardening: Hardening,
}

impl RootsBuilder {
    /// Directories (URIs or absolute paths) that client roots can only
    /// narrow: a client root above one is clipped to it, one outside all of
    /// them is rejected (`outside_ceiling`). Ceiling directories that do not
    /// exist grant nothing (see [`Roots::ceiling`]).
    ///
    /// A client root is compared with the ceiling *as spelled* (lexically,
    /// a URI decoded and its dot segments removed), before anything at its
    /// path is opened, so that the answer never depends on what exists
    /// outside the ceiling. Give the ceiling the way clients spell their
    /// folders, and do not canonicalise it: a ceiling given as
    /// `/private/tmp` (what `/tmp` resolves to on macOS) or as the target
    /// of a symlinked project folder refuses a client root spelled through
    /// the link (`/tmp/notes`) as `outside_ceiling`. List both spellings if
    /// clients use both.
    pub fn ceiling<I>(mut self, dirs: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.ceiling = Some(dirs.into_iter().map(Into::into).collect());
        self
    }

    /// Read-only ceiling directories (URIs or absolute paths), beside those
    /// of [`ceiling`](Self::ceiling): they bound client roots the same way,
    /// and every client root at or beneath one of them (as given or
    /// physically), or clipped to one, is read-only: each mutation beneath
    /// it is `read_only`. A read-only directory inside a writable ceiling
    /// directory makes read-only the client roots at or beneath it, not a
    /// client root above it, which the writable directory admits whole.
    pub fn read_only_ceiling<I>(mut self, dirs: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.read_only_ceiling = dirs.into_iter().map(Into::into).collect();
        self
    }

    /// Make every root of every set read-only ([`Writes::Refuse`]), or allow
    /// writes (the default). A policy, as [`symlinks`](Self::symlinks): a
    /// client set can only make it stricter
    /// ([`RootSetBuilder::writes`]).
    pub fn writes(mut self, writes: Writes) -> Self {
        self.hardening.writes = writes;
        self
    }

    /// What a client that shares no folder, and has never shared one in
    /// this session, is served: one that does not declare the roots
    /// capability, or answers only with empty lists so far
    /// ([`Roots::replace_undeclared`]). An empty list after a list that
    /// named a root shares nothing, and so does an empty request-scoped
    /// list ([`Roots::for_request`]), whatever this says.
    pub fn empty_roots(mut self, empty: EmptyRoots) -> Self {
        self.empty = empty;
        self
    }

    /// Refuse every symlink below every root (and between a ceiling
    /// directory and a client root inside it), or follow those that stay
    /// beneath the root (the default). A policy: every set installed or
    /// scoped has at least this; a client set can only make it stricter.
    pub fn symlinks(mut self, symlinks: Symlinks) -> Self {
        self.hardening.symlinks = symlinks;
        self
    }

    /// Refuse crossing a mount point below a root, or cross (the default).
    /// A policy, as [`symlinks`](Self::symlinks).
    pub fn mount_points(mut self, mount_points: MountPoints) -> Self {
        self.hardening.mount_points = mount_points;
        self
    }

    /// Refuse writing to files with more than one hard link, or allow (the
    /// default). A policy, as [`symlinks`](Self::symlinks).
    pub fn hard_links(mut self, hard_links: HardLinks) -> Self {
        self.hardening.hard_links = hard_links;
        self
    }

    /// How root identity is judged.
    pub fn identity(mut self, identity: RootIdentity) -> Self {
        self.identity = identity;
        self
    }

    /// The session's roots, with no set installed yet: every operation
    /// fails with `no_roots` until the first [`Roots::replace`].
    pub fn build(self) -> Roots {
        let hardening = self.hardening;
        let read_only = Hardening {
            writes: Writes::Refuse,
            ..hardening
        };
        let ceiling = match (self.ceiling, self.read_only_ceiling) {
            (None, read_only_dirs) if read_only_dirs.is_empty() => None,
            (writable_dirs, read_only_dirs) => Some(ceiling::settle(RootSet::concat(
                ceiling_set(writable_dirs.unwrap_or_default(), hardening),
                ceiling_set(read_only_dirs, read_only),
                hardening,
            ))),
        };
        for rejected in ceiling.iter().flat_map(RootSet::rejected) {
            tracing::warn!(
                dir = %Escaped(rejected.uri()),
                reason = rejected.reason(),
                "ceiling directory grants nothing"
            );
        }
        let policy = Policy {
            ceiling,
            hardening,
            without_roots: self.empty,
        };
        Roots::with_policy(policy, self.identity)
    }
}

/// The ceiling directories `dirs`, opened with `hardening`.
fn ceiling_set(dirs: Vec<String>, hardening: Hardening) -> RootSet {
    let list = dirs
        .into_iter()
        .fold(RootSet::builder(), RootSetBuilder::root);
    list.with_hardening(hardening).build()
}
