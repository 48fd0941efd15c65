//! [`RootSetBuilder`]: turns the client's root list into an immutable
//! [`RootSet`], opening and pinning each root once.

use std::path::PathBuf;
use std::sync::Arc;

use cap_std::ambient_authority;
use cap_std::fs::Dir;

use crate::hardening::{HardLinks, Hardening, MountPoints, Symlinks};
use crate::lookup::clean_key;
use crate::root::{Root, RootId};
use crate::root_set::{Rejected, RootSet};
use crate::{Error, ErrorKind, Operation, input, sys};

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
#[derive(Clone, Debug, Default)]
pub struct RootSetBuilder {
    entries: Vec<(Option<String>, String)>,
    hardening: Hardening,
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

    /// Opens every root. Roots that are not existing directories are listed
    /// in [`RootSet::rejected`] and grant nothing; building never fails.
    ///
    /// Each accepted root holds one descriptor. When the roots would leave
    /// fewer than [`RESERVED_DESCRIPTORS`] descriptors under the soft
    /// `RLIMIT_NOFILE`, the roots beyond that budget are rejected (`io`, with
    /// the limit in the message) instead of failing later opens with
    /// `EMFILE`.
    pub fn build(self) -> RootSet {
        let mut roots = Vec::with_capacity(self.entries.len());
        let mut rejected = Vec::new();
        let budget = sys::descriptor_budget(RESERVED_DESCRIPTORS);
        for (position, (name, uri)) in self.entries.into_iter().enumerate() {
            if let Some((left, limit)) = budget.filter(|(left, _)| position as u64 >= *left) {
                let source = std::io::Error::other(format!(
                    "root {} of the list: {left} descriptors are left for roots under the soft RLIMIT_NOFILE of {limit}; raise it (ulimit -n)",
                    position + 1
                ));
                let error = Error::with_source(ErrorKind::Io, source, Operation::AddRoot, &uri)
                    .with_detail("too many roots for the descriptor limit");
                rejected.push(Rejected::new(name.as_deref(), error));
                continue;
            }
            match open_root(name.as_deref(), &uri, self.hardening) {
                Ok(root) => roots.push(Arc::new(root)),
                Err(error) => rejected.push(Rejected::new(name.as_deref(), error)),
            }
        }
        RootSet::assemble(roots, rejected)
    }
}

/// Opens one root and returns it with its lookup keys (as given, resolved).
fn open_root(name: Option<&str>, uri: &str, hardening: Hardening) -> Result<Root, Error> {
    let fail = |kind: ErrorKind, detail: &'static str| {
        Error::new(kind, Operation::AddRoot, uri).with_detail(detail)
    };
    let os_fail = |err| Error::from_os(err, Operation::AddRoot, uri);
    let path = input::absolute_path(uri).map_err(|(kind, detail)| fail(kind, detail))?;
    let dir = Dir::open_ambient_dir(&*path, ambient_authority()).map_err(os_fail)?;
    let id = RootId(sys::identity(&dir).map_err(os_fail)?);
    let resolved = resolved_path(&dir, &path, id).map_err(os_fail)?;
    let given_key = clean_key(&path);
    let display = given_key
        .clone()
        .unwrap_or_else(|| path_clean::clean(&*path).to_string_lossy().into_owned());
    let resolved_key = resolved.to_str().and_then(clean_key);
    Ok(Root {
        id,
        name: name.map(Into::into),
        uri: uri.into(),
        path: Arc::from(display),
        given: (*path).into(),
        resolved,
        dir,
        hardening,
        keys: [given_key.map(Into::into), resolved_key.map(Into::into)],
    })
}

/// The physical path of an open root directory.
#[cfg(target_os = "linux")]
fn resolved_path(dir: &Dir, _given: &str, _id: RootId) -> std::io::Result<PathBuf> {
    sys::fd_path(dir)
}

/// The physical path of an open root directory: `canonicalize`, then a check
/// that it names the directory that was opened.
#[cfg(not(target_os = "linux"))]
fn resolved_path(_dir: &Dir, given: &str, id: RootId) -> std::io::Result<PathBuf> {
    let resolved = std::fs::canonicalize(given)?;
    let again = Dir::open_ambient_dir(&resolved, ambient_authority())?;
    if sys::identity(&again)? != id.0 {
        return Err(std::io::Error::other(
            "root changed while it was being opened",
        ));
    }
    Ok(resolved)
}
