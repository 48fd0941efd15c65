//! [`RootsBuilder`]: the server's policy for one session's roots (ceiling,
//! read-only roots, hidden and read-only parts, hardening floor, what a client without roots is served,
//! identity).

use crate::error::Escaped;
use crate::live::roots::Roots;
use crate::options::hardening::{HardLinks, Hardening, MountPoints, Symlinks, Writes};
use crate::options::patterns::Patterns;
use crate::root::parts::Rules;
use crate::set::RootSet;
use crate::set::area::Area;
use crate::set::builder::RootSetBuilder;
use crate::set::ceiling;
use crate::set::policy::{EmptyRoots, Policy};
use crate::set::sharing::Sharing;

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
    hide: Patterns,
    read_only: Patterns,
    ask_within: Option<Vec<String>>,
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
    /// directory makes read-only the client roots at or beneath it, and
    /// everything beneath its place in a client root above it
    /// ([semantics 5](crate::semantics#5-containment-and-the-choice-of-root)).
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

    /// Hide the parts of every root that `patterns` match (gitignore
    /// syntax): they do not exist for the client. Nothing there is opened,
    /// created, removed, renamed or copied, to or from; listings and walks
    /// leave it out; a direct access is `hidden`, the same answer whether
    /// anything is there or not. Judged on the path of what an operation
    /// reaches (after symlinks, `..`, a walk across roots), every component
    /// counted, names folded as the root's volume folds them
    /// ([semantics 14](crate::semantics#14-parts-of-a-root)).
    ///
    /// An anchored pattern (`/secrets/`) is relative to the ceiling
    /// directory that holds the root (the operator does not know the
    /// client's root URIs), or to each root when there is no ceiling. A
    /// client root inside a hidden part is rejected (`hidden`). A policy,
    /// applied inside every `replace` and every request-scoped set; a set
    /// can add patterns of its own ([`RootSetBuilder::hide`]), never
    /// remove these. Adds to the patterns of earlier calls.
    ///
    /// ```
    /// use mcp_roots::{Patterns, Roots};
    /// let roots = Roots::builder()
    ///     .hide(Patterns::parse([".env", ".env.*", "**/.git/", "*.pem", "/secrets/"])?)
    ///     .read_only(Patterns::parse(["Cargo.lock", "/vendor/"])?)
    ///     .build();
    /// # Ok::<(), mcp_roots::PatternError>(())
    /// ```
    pub fn hide(mut self, patterns: Patterns) -> Self {
        self.hide = self.hide.concat(&patterns);
        self
    }

    /// Keep the parts of every root that `patterns` match read-only
    /// (gitignore syntax, anchored as for [`hide`](Self::hide)): they can
    /// be read and listed, never changed: every mutation, either end of a
    /// rename (a move out of a read-only part changes it) and the
    /// destination of a copy are `read_only`; a copy out of one is
    /// allowed. A hidden part stays hidden; a read-only root stays
    /// read-only. Adds to the patterns of earlier calls.
    pub fn read_only(mut self, patterns: Patterns) -> Self {
        self.read_only = self.read_only.concat(&patterns);
        self
    }

    /// Directories (URIs or absolute paths) beneath which the user may
    /// grant one file or one directory by answering a question
    /// ([semantics 15](crate::semantics#15-grants)): the *area*. Nothing
    /// in it is served until granted ([`Roots::grant`], or
    /// [`Snapshot::with_grant`](crate::Snapshot::with_grant) for one call);
    /// [`Snapshot::may_ask`](crate::Snapshot::may_ask) says whether a
    /// refused path may be asked about.
    ///
    /// The area never reaches past the operator's limit: each directory is
    /// admitted as a client root is (judged lexically, then opened beneath
    /// the ceiling directory holding it, with the policy's hardening and
    /// patterns), so under a [`ceiling`](Self::ceiling) that names a
    /// directory, an area directory outside it grants nothing (listed in
    /// [`Roots::ask_area`]'s `rejected()` as `outside_ceiling`, and logged),
    /// one above ceiling directories is clipped to them, and one at or
    /// beneath a read-only ceiling directory grants read-only only. A hidden
    /// area directory is rejected (`hidden`).
    ///
    /// With no ceiling directory at all (no [`ceiling`](Self::ceiling)
    /// call, or an empty one), the area is the operator's only limit and
    /// the client's own roots serve nothing: the ceiling is empty, every
    /// client root is `outside_ceiling`, so nothing at all is served until
    /// the user grants it. Replaces the directories of earlier calls.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use mcp_roots::{ErrorKind, GrantAccess, GrantKind, Roots};
    /// # let tmp = tempfile::tempdir()?;
    /// # let home = tmp.path().display();
    /// # std::fs::create_dir_all(format!("{home}/projects/app"))?;
    /// # std::fs::write(format!("{home}/projects/app/notes.md"), "n")?;
    /// // `home` is a directory of yours.
    /// let roots = Roots::builder().ask_within([format!("{home}/projects")]).build();
    /// roots.replace_uris([format!("file://{home}/projects/app")]);
    /// let notes = format!("{home}/projects/app/notes.md");
    /// // The client's root is outside the (empty) ceiling: nothing is served…
    /// assert_eq!(roots.load().rejected()[0].reason(), "outside_ceiling");
    /// assert_eq!(roots.load().read(&notes).unwrap_err().kind(), ErrorKind::NoRoots);
    /// // …but the file may be asked about, and once the user says yes, it is.
    /// let about = roots.load().may_ask(&notes, GrantAccess::Read)?;
    /// assert_eq!(about.kind(), GrantKind::File);
    /// let grant = roots.grant(&about)?;
    /// assert_eq!(roots.load().read(&notes)?, b"n");
    /// roots.end_grant(grant);
    /// assert_eq!(roots.load().read(&notes).unwrap_err().kind(), ErrorKind::NoRoots);
    /// # Ok(()) }
    /// ```
    pub fn ask_within<I>(mut self, dirs: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.ask_within = Some(dirs.into_iter().map(Into::into).collect());
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
        let rules = Rules::new(&self.hide, &self.read_only);
        let sharing = Sharing {
            own: None,
            policy: rules.as_ref(),
        };
        let read_only = Hardening {
            writes: Writes::Refuse,
            ..hardening
        };
        let ceiling = match (self.ceiling, self.read_only_ceiling) {
            (None, read_only_dirs) if read_only_dirs.is_empty() => None,
            (writable_dirs, read_only_dirs) => {
                Some(sharing.apply_to(ceiling::settle(RootSet::concat(
                    ceiling_set(writable_dirs.unwrap_or_default(), hardening),
                    ceiling_set(read_only_dirs, read_only),
                    hardening,
                ))))
            }
        };
        for rejected in ceiling.iter().flat_map(RootSet::rejected) {
            tracing::warn!(
                dir = %Escaped(rejected.uri()),
                reason = rejected.reason(),
                "ceiling directory grants nothing"
            );
        }
        let mut policy = Policy {
            ceiling,
            hardening,
            without_roots: self.empty,
            rules,
            area: None,
            per_request: false,
        };
        if let Some(dirs) = self.ask_within {
            policy.area = Some(Area::admitted(dirs, &mut policy));
        }
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
