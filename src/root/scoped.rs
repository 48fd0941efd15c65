//! [`ScopedPath`]: a location proven to lie beneath a root.

use std::fmt;
use std::sync::Arc;

use crate::parse::windows;
use crate::root::RootId;
use crate::sys::{self, PathStyle};

/// A root and a physical path below it, produced only by
/// [`RootSet::resolve`](crate::RootSet::resolve) (there is no way to build
/// one from a bare path):
///
/// ```compile_fail
/// let scoped = mcp_roots::ScopedPath::from("/etc/passwd");
/// ```
///
/// Its path has no `.`, `..` or symlink components as of resolution; it is
/// relative to the root, so showing it leaks nothing outside the roots.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ScopedPath {
    root: RootId,
    root_path: Arc<str>,
    rel: Box<str>,
}

impl ScopedPath {
    pub(crate) fn new(root: RootId, root_path: Arc<str>, rel: String) -> Self {
        Self {
            root,
            root_path,
            rel: rel.into(),
        }
    }

    /// The root this path lies beneath.
    pub fn root(&self) -> RootId {
        self.root
    }

    /// The path relative to the root; `.` for the root itself.
    pub fn rel(&self) -> &str {
        if self.rel.is_empty() { "." } else { &self.rel }
    }

    /// A `file://` URI for a tool result: the root's path as it is shown
    /// ([`Root::path`](crate::Root::path): as the client gave it, unless a
    /// `..` in it leads elsewhere than its cleaned form, then the physical
    /// path), followed by this path, each segment percent-encoded. It names
    /// the file that was resolved.
    ///
    /// ```
    /// # fn main() -> Result<(), mcp_roots::Error> {
    /// let dir = tempfile::tempdir().unwrap();
    /// std::fs::write(dir.path().join("a b.md"), "x").unwrap();
    /// let set = mcp_roots::RootSet::from_uris([dir.path().to_str().unwrap()]);
    /// let scoped = set.resolve(&format!("{}/a b.md", dir.path().display()))?;
    /// assert!(scoped.to_uri().ends_with("/a%20b.md"));
    /// assert_eq!(scoped.to_string(), "a b.md");
    /// # Ok(()) }
    /// ```
    ///
    /// On Windows the root's drive is the first segment
    /// (`file:///C:/Users/a/x.md`), and a UNC root's server is the host
    /// (`file://server/share/x.md`).
    pub fn to_uri(&self) -> String {
        let (host, root_path) = match sys::PATH_STYLE {
            PathStyle::Windows => windows::uri_parts(&self.root_path),
            _ => (None, &*self.root_path),
        };
        let mut url = url::Url::parse("file:///").expect("file:/// is a valid base URL");
        url.path_segments_mut()
            .expect("a file URL can be a base")
            .clear()
            .extend(root_path.split('/').filter(|s| !s.is_empty()))
            .extend(self.rel.split('/').filter(|s| !s.is_empty()));
        let uri: String = url.into();
        match host {
            // The server as the root named it (a plain server name: letters,
            // digits, `-`, `.`, `_`), before the encoded path.
            Some(host) => format!("file://{host}{}", &uri["file://".len()..]),
            None => uri,
        }
    }
}

impl fmt::Display for ScopedPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rel())
    }
}

impl fmt::Debug for ScopedPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScopedPath")
            .field("root", &self.root)
            .field("rel", &self.rel())
            .finish()
    }
}
