//! [`RootSetBuilder`]: turns the client's root list into an immutable
//! [`RootSet`], opening and pinning each root once.

use std::collections::HashMap;
use std::sync::Arc;

use cap_std::ambient_authority;
use cap_std::fs::Dir;

use crate::error::{Error, ErrorKind, Operation};
use crate::options::hardening::{HardLinks, Hardening, MountPoints, Symlinks, Writes};
use crate::options::patterns::Patterns;
use crate::parse::input;
use crate::parse::lexical::clean_key;
use crate::root::parts::Rules;
use crate::root::{Anchor, Keys, Root, RootId};
use crate::set::index::FastState;
use crate::set::root_set::{Rejected, RootSet};
use crate::set::sharing::Sharing;
use crate::sys;

/// Descriptors kept free for the server's own files when roots are opened.
pub const RESERVED_DESCRIPTORS: u64 = 64;

/// Builds a [`RootSet`] from root URIs (or absolute paths), optionally named.
///
/// ```
/// # fn main() -> Result<(), mcp_roots::Error> {
/// let dir = tempfile::tempdir().unwrap();
/// let uri = format!("file://{}", dir.path().display());
/// let set = mcp_roots::RootSet::builder().named_root("notes", &uri).build();
/// assert_eq!(set.root_named("notes")?.uri(), uri);
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RootSetBuilder {
    entries: Vec<(Option<String>, String)>,
    hardening: Hardening,
    hide: Patterns,
    read_only: Patterns,
}

impl RootSetBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a root without a name.
    pub fn root(mut self, client_uri: impl Into<String>) -> Self {
        self.entries.push((None, client_uri.into()));
        self
    }

    /// Adds a root with the name the client gave it.
    pub fn named_root(mut self, name: impl Into<String>, client_uri: impl Into<String>) -> Self {
        self.entries.push((Some(name.into()), client_uri.into()));
        self
    }

    /// Refuse every symlink during resolution, or follow those that stay
    /// beneath the root (the default).
    pub fn symlinks(mut self, symlinks: Symlinks) -> Self {
        self.hardening.symlinks = symlinks;
        self
    }

    /// Refuse crossing a mount point below a root, or cross (the default).
    pub fn mount_points(mut self, mount_points: MountPoints) -> Self {
        self.hardening.mount_points = mount_points;
        self
    }

    /// Refuse writing to files with more than one hard link, or allow (the
    /// default).
    pub fn hard_links(mut self, hard_links: HardLinks) -> Self {
        self.hardening.hard_links = hard_links;
        self
    }

    /// Make every root of the set read-only ([`Writes::Refuse`]): each
    /// mutation beneath it is refused with `read_only`; or allow writes (the
    /// default). A set may only be stricter than the server's policy: under
    /// a read-only policy, `Writes::Allow` here changes nothing.
    pub fn writes(mut self, writes: Writes) -> Self {
        self.hardening.writes = writes;
        self
    }

    /// Hide the parts of every root that `patterns` match (gitignore
    /// syntax, relative to each root): they do not exist for the client.
    /// Nothing there is opened, created, removed, renamed or copied, to or
    /// from; listings and walks leave it out; a direct access is `hidden`,
    /// the same whether anything is there or not. Judged on the path of
    /// what an operation reaches, every component counted
    /// ([semantics 14](crate::semantics#14-parts-of-a-root)). Adds to
    /// the patterns of earlier calls and to the server's
    /// ([`RootsBuilder::hide`](crate::RootsBuilder::hide)).
    pub fn hide(mut self, patterns: Patterns) -> Self {
        self.hide = self.hide.concat(&patterns);
        self
    }

    /// Keep the parts of every root that `patterns` match read-only
    /// (gitignore syntax, relative to each root): they can be read and
    /// listed, and every change to them (either end of a rename, the
    /// destination of a copy) is `read_only`. A hidden part stays hidden.
    /// Adds to the patterns of earlier calls and to the server's.
    pub fn read_only(mut self, patterns: Patterns) -> Self {
        self.read_only = self.read_only.concat(&patterns);
        self
    }

    /// Opens every root. Roots that are not existing directories are listed
    /// in [`RootSet::rejected`] and grant nothing; building never fails.
    ///
    /// Each accepted root holds one descriptor. When the roots would leave
    /// fewer than [`RESERVED_DESCRIPTORS`] descriptors under the soft
    /// `RLIMIT_NOFILE`, the roots beyond that budget are rejected (`io`, with
    /// the limit in the message) instead of failing later opens with
    /// `EMFILE`. (The open descriptors are counted only for lists longer
    /// than an eighth of the limit; a shorter list that still runs out gets
    /// the same error from the `EMFILE` itself.)
    pub fn build(self) -> RootSet {
        self.build_from(None)
    }

    /// Builds like [`build`](Self::build), but takes over the open handle
    /// of every root of `current` that has the same URI (byte for byte) and
    /// the same hardening, instead of opening its directory again: for a
    /// new root list that mostly repeats the installed one (see
    /// [`Roots::replace_uris`](crate::Roots::replace_uris)).
    ///
    /// A handle is taken over only if the root's path still names the
    /// directory pinned in `current` (checked now, as
    /// [`Roots::replace`](crate::Roots::replace) does); otherwise the root
    /// is opened afresh, so the result is the set `build` would give,
    /// except that a root whose directory moved while its path still names
    /// it keeps its identity.
    pub fn build_reusing(self, current: &RootSet) -> RootSet {
        self.build_from(Some(current))
    }

    fn build_from(self, current: Option<&RootSet>) -> RootSet {
        self.build_admitted(current, Hardening::default(), &ByPath, None)
    }

    /// Builds with `admission` deciding how each listed root is opened, the
    /// hardening of every root raised to at least `floor`, and the roots of
    /// `current` with the same URI and the same effective hardening taken
    /// over (identity checked again); every root carries the set's own
    /// patterns and the server's `policy` ones (see `sharing`).
    pub(crate) fn build_admitted(
        self,
        current: Option<&RootSet>,
        floor: Hardening,
        admission: &dyn Admission,
        policy: Option<&Arc<Rules>>,
    ) -> RootSet {
        let own = Rules::new(&self.hide, &self.read_only);
        let sharing = Sharing {
            own: own.as_ref(),
            policy,
        };
        let hardening = self.hardening.stricter(floor);
        let mut reusable: HashMap<&str, &Arc<Root>, FastState> = HashMap::default();
        for root in current.map_or(&[][..], RootSet::roots) {
            // A grant is never taken over as a client root (it covers what
            // the user granted, judged by its own rules).
            if root.grant.is_none() && root.hardening == admission.hardening_of(root, hardening) {
                reusable.entry(root.uri()).or_insert(root);
            }
        }
        let mut roots = Vec::with_capacity(self.entries.len());
        let mut rejected = Vec::new();
        let budget = Budget::new(self.entries.len());
        let mut opened = 0;
        for (position, (name, uri)) in self.entries.into_iter().enumerate() {
            let name = name.as_deref();
            if let Some(root) = reusable.get(uri.as_str()).and_then(|r| reuse(r, name)) {
                match sharing.apply(&root) {
                    Ok(root) => roots.push(root),
                    Err(error) => rejected.push(Rejected::new(name, error)),
                }
                continue;
            }
            let result = match budget.refuse(opened, position, &uri) {
                Some(why) => Err(why),
                None => input::absolute_path(&uri)
                    .map_err(|(kind, detail)| {
                        Error::new(kind, Operation::AddRoot, &uri).with_detail(detail)
                    })
                    .and_then(|path| admission.admit(name, &uri, &path, hardening)),
            };
            match result {
                Ok(admitted) => {
                    opened += admitted.len() as u64;
                    for mut root in admitted {
                        match sharing.parts_of(&root) {
                            Ok(parts) => {
                                root.parts = parts;
                                roots.push(Arc::new(root));
                            }
                            Err(error) => rejected.push(Rejected::new(name, error)),
                        }
                    }
                }
                Err(error) => rejected.push(Rejected::new(name, budget.explain(error, position))),
            }
        }
        RootSet::assemble(roots, rejected, hardening)
    }

    /// Adds a root, named or not.
    pub(crate) fn entry(mut self, name: Option<&str>, client_uri: &str) -> Self {
        self.entries.push((name.map(Into::into), client_uri.into()));
        self
    }

    /// Whether the list names no root at all.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The same list with `hardening`.
    pub(crate) fn with_hardening(mut self, hardening: Hardening) -> Self {
        self.hardening = hardening;
        self
    }

    /// The same list with the set's own patterns of `rules`.
    pub(crate) fn with_rules(mut self, rules: Option<&Rules>) -> Self {
        if let Some(rules) = rules {
            self.hide = rules.hide().clone();
            self.read_only = rules.read_only().clone();
        }
        self
    }
}

/// How the roots of a list are opened: by their own paths, or beneath an
/// operator ceiling (see `ceiling`).
pub(crate) trait Admission {
    /// Opens the client root `uri` (named `name`, naming the absolute path
    /// `path`) with `hardening`: the root itself, or the roots it is clipped
    /// to; or why it grants nothing.
    fn admit(
        &self,
        name: Option<&str>,
        uri: &str,
        path: &str,
        hardening: Hardening,
    ) -> Result<Vec<Root>, Error>;

    /// The hardening `root` gets when admitted with `asked`: `asked`, or
    /// stricter where the admission adds its own (a read-only ceiling
    /// directory). A root of the current set is taken over only when it
    /// has exactly that.
    fn hardening_of(&self, _root: &Root, asked: Hardening) -> Hardening {
        asked
    }
}

/// Each root opened at its own path: a set without a ceiling.
pub(crate) struct ByPath;

impl Admission for ByPath {
    fn admit(
        &self,
        name: Option<&str>,
        uri: &str,
        path: &str,
        hardening: Hardening,
    ) -> Result<Vec<Root>, Error> {
        let dir = Dir::open_ambient_dir(&*input::native(path), ambient_authority())
            .map_err(|err| Error::from_os(err, Operation::AddRoot, uri))?;
        let root = root_at(name, uri, path, dir, hardening, None)?;
        Ok(vec![root])
    }
}

/// An open root of another set, checked and named for this one.
fn reuse(root: &Arc<Root>, name: Option<&str>) -> Option<Arc<Root>> {
    let now = root.verify()?;
    if now.name() == name {
        return Some(now);
    }
    now.duplicate(name, now.hardening).ok().map(Arc::new)
}

/// How many roots may be opened under the soft `RLIMIT_NOFILE`.
struct Budget {
    limit: Option<u64>,
    /// Descriptors left for roots, when they were counted.
    left: Option<u64>,
}

impl Budget {
    /// Counts the open descriptors only when `roots` is large next to the
    /// limit (listing `/proc/self/fd` costs about a microsecond per open
    /// descriptor).
    fn new(roots: usize) -> Self {
        let limit = sys::nofile_limit();
        let left = limit
            .filter(|limit| roots as u64 * 8 > *limit)
            .map(|limit| {
                limit
                    .saturating_sub(sys::open_descriptors())
                    .saturating_sub(RESERVED_DESCRIPTORS)
            });
        Self { limit, left }
    }

    /// The error for the root at `position` if it would exceed the
    /// budget, `opened` roots having been opened.
    fn refuse(&self, opened: u64, position: usize, uri: &str) -> Option<Error> {
        let left = self.left.filter(|left| opened >= *left)?;
        let limit = self.limit.unwrap_or(0);
        Some(too_many(
            position,
            uri,
            &format!(
                "{left} descriptors are left for roots under the soft RLIMIT_NOFILE of {limit}"
            ),
        ))
    }

    /// `error` (opening the root at `position`), naming the limit when it
    /// is `EMFILE`.
    fn explain(&self, error: Error, position: usize) -> Error {
        let emfile = std::error::Error::source(&error)
            .and_then(|e| e.downcast_ref::<std::io::Error>())
            .is_some_and(sys::out_of_descriptors);
        if !emfile {
            return error;
        }
        let limit = self.limit.unwrap_or(0);
        let message = format!("no descriptor is left under the soft RLIMIT_NOFILE of {limit}");
        too_many(position, error.input(), &message)
    }
}

fn too_many(position: usize, uri: &str, message: &str) -> Error {
    let source = std::io::Error::other(format!(
        "root {} of the list: {message}; raise it (ulimit -n)",
        position + 1
    ));
    Error::with_source(ErrorKind::Io, source, Operation::AddRoot, uri).with_detail(TOO_MANY)
}

const TOO_MANY: &str = "too many roots for the descriptor limit";

/// The root at the absolute path `path` (as the client gave it in `uri`, in
/// slash form), whose directory `dir` is open: its identity, physical path,
/// lookup keys (as given, resolved) and how its volume compares names.
pub(crate) fn root_at(
    name: Option<&str>,
    uri: &str,
    path: &str,
    dir: Dir,
    hardening: Hardening,
    anchor: Option<Anchor>,
) -> Result<Root, Error> {
    let os_fail = |err| Error::from_os(err, Operation::AddRoot, uri);
    let id = RootId::of(sys::identity(&dir).map_err(os_fail)?);
    let given = input::native(path);
    let resolved = sys::resolved_path(&dir, &given).map_err(os_fail)?;
    let keys = Keys {
        given: clean_key(path).map(Into::into),
        resolved: input::physical_key(&resolved).map(Into::into),
    };
    let shown =
        crate::root::shown(path, &keys, id.0, anchor.as_ref(), hardening).ok_or_else(|| {
            Error::new(ErrorKind::InvalidPath, Operation::AddRoot, uri).with_detail(UNSHOWN)
        })?;
    let folding = sys::folding(&dir);
    Ok(Root {
        id,
        name: name.map(Into::into),
        uri: uri.into(),
        slash: shown.slash,
        path: shown.path,
        given: given.into(),
        resolved,
        dir,
        hardening,
        folding,
        keys,
        anchor,
        parts: None,
        grant: None,
    })
}

const UNSHOWN: &str = "its `..` leads elsewhere than its path cleaned, and its physical path is not UTF-8: no URI below it would name the file opened";

/// Building a set: the entry points on [`RootSet`] itself.
impl RootSet {
    /// A builder, for named roots.
    pub fn builder() -> RootSetBuilder {
        RootSetBuilder::new()
    }

    /// Builds a set from root URIs (or absolute paths); never fails: roots
    /// that grant nothing are in [`rejected`](Self::rejected).
    pub fn from_uris<I>(client_uris: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        client_uris
            .into_iter()
            .fold(RootSetBuilder::new(), RootSetBuilder::root)
            .build()
    }
}
