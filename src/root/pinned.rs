//! One accepted root: its forms, its identity and its directory handle.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cap_std::fs::Dir;

use crate::options::hardening::{Hardening, Writes};
use crate::parse::input;
use crate::root::granted::Granted;
use crate::root::parts::Parts;
use crate::sys::{Folding, How, Identity};

/// The identity of a root: the directory (device and inode) its path named
/// when the set was built. Two roots naming the same directory share it, and
/// a [`ScopedPath`](crate::ScopedPath) stays valid in any later set that
/// still has that directory as a root.
///
/// A file grant ([semantics 15](crate::semantics#15-grants)) pins its
/// parent directory but is a root of its own: its identity is that
/// directory's and a number no other root of the process bears, so that
/// two file grants in one directory, or a file grant in a directory that is
/// also a root, are told apart (their files are revoked with their grant).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RootId(pub(crate) Identity, pub(crate) u64);

impl RootId {
    /// The identity of the directory root whose directory is `id`.
    pub(crate) fn of(id: Identity) -> Self {
        Self(id, 0)
    }
}

impl fmt::Debug for RootId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            0 => write!(f, "RootId({}:{})", self.0.dev, self.0.ino),
            n => write!(f, "RootId({}:{}#{n})", self.0.dev, self.0.ino),
        }
    }
}

/// A root the set accepted: an existing directory, held open.
///
/// Its operations take paths *relative to the root* and resolve them beneath
/// its directory handle; an absolute path or a `..` that leaves the root is
/// refused (`outside_roots`).
///
/// A root reached through a [`Snapshot`](crate::Snapshot) (`root(i)`,
/// `root_named`, `roots`, `root_by_id`) keeps plain-set rules: its
/// operations, its `create_new` and `open_with` included, act with the
/// policy it had when its set was built and are not judged against a set
/// installed since. For changes that must follow the user's current
/// policy, use the snapshot's own operations.
pub struct Root {
    pub(crate) id: RootId,
    pub(crate) name: Option<Box<str>>,
    pub(crate) uri: Box<str>,
    /// The path as given, cleaned, in slash form (the lexical layers' form;
    /// on Windows `/C:/a`, see `parse::windows`).
    pub(crate) slash: Arc<str>,
    /// [`slash`](Self::slash) as the platform spells it, for display.
    pub(crate) path: Arc<str>,
    /// The absolute path the client's URI named, before symlinks, as the
    /// platform takes it.
    pub(crate) given: Box<str>,
    pub(crate) resolved: PathBuf,
    pub(crate) dir: Dir,
    pub(crate) hardening: Hardening,
    /// How the root's volume compares names: how its keys are matched.
    pub(crate) folding: Folding,
    /// The paths a lookup finds the root by.
    pub(crate) keys: Keys,
    /// For a root opened beneath an operator ceiling directory: that
    /// directory and the path below it, so that every later check of the
    /// root's path happens beneath the ceiling too.
    pub(crate) anchor: Option<Anchor>,
    /// The parts of the root its policy hides or keeps read-only (`None`:
    /// no pattern applies).
    pub(crate) parts: Option<Arc<Parts>>,
    /// For a grant: what it covers (see `granted`).
    pub(crate) grant: Option<Granted>,
}

/// The cleaned paths a root is looked up by (see `set::index`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Keys {
    /// The path as the client gave it, unless it has a `..` (which only
    /// the disk can resolve).
    pub(crate) given: Option<Box<str>>,
    /// The physical path, when it is UTF-8.
    pub(crate) resolved: Option<Box<str>>,
}

impl Keys {
    /// Both keys that exist.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &str> {
        [self.given.as_deref(), self.resolved.as_deref()]
            .into_iter()
            .flatten()
    }
}

/// Where a root inside an operator ceiling hangs: the ceiling directory's
/// root and the path below it, as the client gave it.
#[derive(Clone, Debug)]
pub(crate) struct Anchor {
    pub(crate) ceiling: Arc<Root>,
    pub(crate) rel: Box<str>,
}

impl Root {
    /// The root's identity.
    pub fn id(&self) -> RootId {
        self.id
    }

    /// The name the client gave the root, if any.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The URI (or path) exactly as it was given: as the client gave it
    /// for a root the client listed, and for a client root clipped to a
    /// ceiling directory (the client named a folder above it) the ceiling
    /// directory as the operator gave it (a URI or a path), since that
    /// directory is what the root grants. [`path`](Self::path) is the
    /// root's path for display; [`resolve(".")`](Self::resolve) gives the
    /// root itself as a [`ScopedPath`](crate::ScopedPath), whose
    /// [`to_uri`](crate::ScopedPath::to_uri) is a `file://` URI.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The root's path for display, as the platform spells it
    /// (`C:\Users\a` on Windows): as given, cleaned of `.` and repeated
    /// separators. A path given with a `..` is shown cleaned only when the
    /// cleaned path names the root's directory too, as the kernel resolves
    /// it (`T/a/../b` with `T/a` a directory is `T/b`); when a symlink
    /// before the `..` leads elsewhere (`T/l/../b` with `T/l -> x/y` is
    /// `T/x/b`), the root is shown by its physical path. Every URI built
    /// below the root ([`ScopedPath::to_uri`](crate::ScopedPath::to_uri))
    /// starts with this path, so it names the file that was opened. A URI
    /// root has no such case: its dot segments are removed as text when it
    /// is parsed, so its path has no `..` left for the disk.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The root's physical path when the set was built (symlinks resolved).
    pub fn resolved_path(&self) -> &Path {
        &self.resolved
    }

    /// Whether anything beneath the root may be changed: [`Writes::Refuse`]
    /// when the server's policy, a read-only ceiling directory or the set
    /// itself makes the root read-only (every mutation is then
    /// `read_only`). A server can use it to refuse a change before asking
    /// the user about it, or to describe its tools.
    pub fn writes(&self) -> Writes {
        self.hardening.writes
    }

    /// The patterns of the parts of the root that the policy hides (the
    /// server's, then the set's own, as given), for a server to tell the
    /// client what it does not share. See
    /// [`RootsBuilder::hide`](crate::RootsBuilder::hide).
    pub fn hides(&self) -> Vec<&str> {
        self.layers().flat_map(|l| l.rules.hide().iter()).collect()
    }

    /// The patterns of the parts of the root that the policy keeps
    /// read-only (see [`RootsBuilder::read_only`](crate::RootsBuilder::read_only)).
    /// Beside them, [`writes`](Self::writes) says whether the whole root
    /// is read-only.
    pub fn protects(&self) -> Vec<&str> {
        self.layers()
            .flat_map(|l| l.rules.read_only().iter())
            .collect()
    }

    /// The directories served read-only inside this root, beneath which
    /// every change is `read_only` although the root itself is writable
    /// ([semantics 5](crate::semantics#5-containment-and-the-choice-of-root)),
    /// as resolved paths: for a server to tell the client what is
    /// enforced.
    pub fn read_only_inside(&self) -> Vec<&std::path::Path> {
        let nested = self.parts.iter().flat_map(|p| p.nested.iter());
        nested.filter_map(|n| n.read_only_path()).collect()
    }

    fn layers(&self) -> impl Iterator<Item = &crate::root::parts::Layer> {
        self.parts.iter().flat_map(|p| p.layers.iter())
    }

    /// This root with `parts` (itself when it already has the same).
    pub(crate) fn with_parts(
        self: &Arc<Self>,
        parts: Option<Arc<Parts>>,
    ) -> std::io::Result<Arc<Self>> {
        let same = match (&self.parts, &parts) {
            (None, None) => true,
            (Some(a), Some(b)) => a.same_as(b),
            _ => false,
        };
        if same {
            return Ok(self.clone());
        }
        let mut root = self.duplicate(self.name(), self.hardening)?;
        root.parts = parts;
        Ok(Arc::new(root))
    }

    /// Whether the root's path (as the client gave it) still names the
    /// directory pinned when the set was built. For a root inside a ceiling
    /// the path is resolved beneath the ceiling directory (with the root's
    /// hardening), so a link planted at it that leads out never counts.
    pub(crate) fn names_pinned_dir(&self) -> bool {
        let now = match &self.anchor {
            None => crate::sys::identity_of_path(&self.given),
            Some(anchor) => {
                let how = How::location(true, self.hardening);
                crate::sys::open_beneath(&anchor.ceiling.dir, &anchor.rel, &how)
                    .and_then(|dir| crate::sys::identity(&dir))
            }
        };
        now.is_ok_and(|id| id == self.id.0)
    }

    /// Whether the root's path still names the directory pinned when the
    /// set was built, and where that directory is now. `None`: the root is
    /// gone. A root whose directory moved while its path still names it
    /// (say, through a symlink left at the old place) comes back relocated:
    /// same identity, new physical path, which must still lie inside the
    /// ceiling directory the root was opened beneath (else it is gone).
    ///
    /// A root given with a `..` has its shown form checked again too (see
    /// `root::shown`): the cleaned path may have stopped naming the
    /// directory, or the physical path it is shown by may have moved.
    /// `None` as well when neither form names it any more.
    pub(crate) fn verify(self: &Arc<Self>) -> Option<Arc<Self>> {
        if !self.names_pinned_dir() {
            return None;
        }
        let now = self.located()?;
        if now.keys.given.is_some() {
            return Some(now);
        }
        let path = input::absolute_path(&now.uri).ok()?;
        let shown = super::shown(
            &path,
            &now.keys,
            now.id.0,
            now.anchor.as_ref(),
            now.hardening,
        )?;
        if shown.slash == now.slash {
            return Some(now);
        }
        let mut reshown = now.duplicate(now.name(), now.hardening).ok()?;
        reshown.slash = shown.slash;
        reshown.path = shown.path;
        Some(Arc::new(reshown))
    }

    /// This root where its directory is now (see [`verify`](Self::verify)).
    fn located(self: &Arc<Self>) -> Option<Arc<Self>> {
        match crate::sys::fd_path(&self.dir) {
            Ok(now) if now != self.resolved => {
                if let Some(anchor) = &self.anchor
                    && !now.starts_with(&anchor.ceiling.resolved)
                {
                    return None;
                }
                match self.relocated(now) {
                    Ok(moved) => Some(Arc::new(moved)),
                    Err(_) => Some(self.clone()),
                }
            }
            _ => Some(self.clone()),
        }
    }

    /// This root at a new physical path.
    fn relocated(&self, resolved: PathBuf) -> std::io::Result<Self> {
        let resolved_key = input::physical_key(&resolved);
        let mut moved = self.duplicate(self.name(), self.hardening)?;
        moved.keys.resolved = resolved_key.map(Into::into);
        moved.resolved = resolved;
        Ok(moved)
    }

    /// This root under another name and with `hardening` (for a client root
    /// clipped to a ceiling directory, or raised to the server's policy):
    /// shares nothing mutable, duplicates the handle.
    pub(crate) fn duplicate(
        &self,
        name: Option<&str>,
        hardening: Hardening,
    ) -> std::io::Result<Self> {
        Ok(Self {
            name: name.map(Into::into),
            dir: self.dir.try_clone()?,
            uri: self.uri.clone(),
            slash: self.slash.clone(),
            path: self.path.clone(),
            given: self.given.clone(),
            resolved: self.resolved.clone(),
            keys: self.keys.clone(),
            anchor: self.anchor.clone(),
            parts: self.parts.clone(),
            grant: self.grant.clone(),
            hardening,
            ..*self
        })
    }

    /// The root as a walk across the roots of a set sees it.
    pub(crate) fn walk_ref(&self) -> crate::sys::RootRef<'_> {
        crate::sys::RootRef {
            dir: &self.dir,
            resolved: self.keys.resolved.as_deref(),
            id: self.id.0,
            hardening: self.hardening,
        }
    }

    /// This root with at least `floor`'s hardening (itself when it already
    /// has it).
    pub(crate) fn at_least(self: &Arc<Self>, floor: Hardening) -> std::io::Result<Arc<Self>> {
        if self.hardening.at_least(floor) {
            return Ok(self.clone());
        }
        let hardening = self.hardening.stricter(floor);
        self.duplicate(self.name(), hardening).map(Arc::new)
    }
}

impl fmt::Debug for Root {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Root")
            .field("id", &self.id)
            .field("name", &self.name)
            .field("uri", &self.uri)
            .field("resolved", &self.resolved)
            .finish_non_exhaustive()
    }
}
