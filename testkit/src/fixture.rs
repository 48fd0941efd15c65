//! A fresh temporary tree `{T}` built from a case's setup.
//!
//! [`Fixture`] owns a new directory under `/tmp` whose path is short and
//! URI-safe, so that `{T}` can be pasted into `file://` URIs unencoded.
//! [`Fixture::apply`] builds a setup; [`Fixture::snapshot`] records every
//! entry (without following links) so a test can assert that a denied
//! write changed nothing.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt;
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use tempfile::TempDir;

use crate::corpus::SetupOp;

/// A fresh temporary directory `{T}`, removed on drop.
#[derive(Debug)]
pub struct Fixture {
    dir: TempDir,
    t: String,
    resolved: PathBuf,
}

impl Fixture {
    /// Creates an empty fixture under `/tmp`.
    ///
    /// # Errors
    ///
    /// If the directory cannot be created, or its path is not made of
    /// URI-safe characters.
    pub fn new() -> io::Result<Self> {
        let dir = tempfile::Builder::new().prefix("mr").tempdir_in("/tmp")?;
        let t = dir.path().to_str().map(str::to_owned).unwrap_or_default();
        let uri_safe = t
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/-._".contains(&b));
        if !t.starts_with('/') || t.ends_with('/') || !uri_safe {
            return Err(io::Error::other(format!("temp dir {t:?} is not URI-safe")));
        }
        let resolved = fs::canonicalize(dir.path())?;
        Ok(Self { dir, t, resolved })
    }

    /// Creates a fixture and applies `ops` to it.
    ///
    /// # Errors
    ///
    /// As [`Fixture::new`] and [`Fixture::apply`].
    pub fn with_setup(ops: &[SetupOp]) -> io::Result<Self> {
        let fixture = Self::new()?;
        fixture.apply(ops)?;
        Ok(fixture)
    }

    /// The directory `{T}` as created (absolute, no trailing slash).
    pub fn t(&self) -> &Path {
        self.dir.path()
    }

    /// `{T}` as a string, exactly what [`Fixture::subst`] pastes.
    pub fn t_str(&self) -> &str {
        &self.t
    }

    /// The physical (canonical) path of `{T}`; corpus `resolved` paths are
    /// relative to it.
    pub fn t_resolved(&self) -> &Path {
        &self.resolved
    }

    /// Replaces every `{T}` in `s` with the temp dir's path.
    pub fn subst(&self, s: &str) -> String {
        s.replace("{T}", &self.t)
    }

    /// `{T}/rel` (lexically; `rel` is not checked).
    pub fn path(&self, rel: &str) -> PathBuf {
        self.t().join(rel)
    }

    /// The resolved `{T}` joined with `rel`: where a corpus `resolved` is.
    pub fn resolved(&self, rel: &str) -> PathBuf {
        self.resolved.join(rel)
    }

    /// Applies setup operations in order, creating missing parents.
    ///
    /// A file's content is its `content`, else its own relative path; a
    /// symlink's body is its `target` after `{T}` substitution, verbatim; a
    /// hard link's target is relative to `{T}`.
    ///
    /// # Errors
    ///
    /// On any I/O error, and (to keep a fixture from writing outside `{T}`)
    /// when a path is not a plain relative path, or when one of its parents
    /// is a symlink.
    pub fn apply(&self, ops: &[SetupOp]) -> io::Result<()> {
        for op in ops {
            let path = self.checked(op.path())?;
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent)?;
            }
            match op {
                SetupOp::Mkdir { .. } => fs::create_dir_all(&path)?,
                SetupOp::File { path: rel, content } => {
                    fs::write(&path, content.as_deref().unwrap_or(rel))?;
                }
                SetupOp::Symlink { target, .. } => {
                    std::os::unix::fs::symlink(self.subst(target), &path)?;
                }
                SetupOp::Hardlink { target, .. } => fs::hard_link(self.checked(target)?, &path)?,
            }
        }
        Ok(())
    }

    /// `{T}/rel` after checking that `rel` is made of plain names and that
    /// no existing entry on the way (the last included) is a symlink.
    fn checked(&self, rel: &str) -> io::Result<PathBuf> {
        let mut at = self.t().to_path_buf();
        for name in rel.split('/') {
            if matches!(name, "" | "." | "..") {
                return Err(io::Error::other(format!("setup path {rel:?} is not plain")));
            }
            at.push(name);
            if fs::symlink_metadata(&at).is_ok_and(|m| m.is_symlink()) {
                return Err(io::Error::other(format!(
                    "setup path {rel:?} goes through a link"
                )));
            }
        }
        Ok(at)
    }

    /// Records every entry below `{T}` without following symlinks.
    ///
    /// # Panics
    ///
    /// On an I/O error while walking the tree.
    pub fn snapshot(&self) -> TreeSnapshot {
        let mut entries = BTreeMap::new();
        walk(self.t(), Path::new(""), &mut entries)
            .unwrap_or_else(|e| panic!("cannot snapshot {}: {e}", self.t));
        TreeSnapshot { entries }
    }

    /// Reads the file `{T}/rel`.
    ///
    /// # Errors
    ///
    /// As [`std::fs::read`].
    pub fn read_rel(&self, rel: &str) -> io::Result<Vec<u8>> {
        fs::read(self.path(rel))
    }

    /// Sorted entry names of the directory `{T}/rel` (following links).
    ///
    /// # Errors
    ///
    /// As [`std::fs::read_dir`].
    pub fn list_rel(&self, rel: &str) -> io::Result<Vec<OsString>> {
        let mut names = fs::read_dir(self.path(rel))?
            .map(|e| e.map(|e| e.file_name()))
            .collect::<io::Result<Vec<_>>>()?;
        names.sort();
        Ok(names)
    }
}

fn walk(dir: &Path, rel: &Path, out: &mut BTreeMap<PathBuf, Entry>) -> io::Result<()> {
    let mut names = fs::read_dir(dir)?
        .map(|e| e.map(|e| e.file_name()))
        .collect::<io::Result<Vec<_>>>()?;
    names.sort();
    for name in names {
        let (path, rel) = (dir.join(&name), rel.join(&name));
        let meta = fs::symlink_metadata(&path)?;
        let entry = if meta.is_symlink() {
            Entry::Symlink(fs::read_link(&path)?)
        } else if meta.is_dir() {
            walk(&path, &rel, out)?;
            Entry::Dir
        } else if meta.is_file() {
            Entry::File(fs::read(&path)?)
        } else {
            Entry::Other
        };
        out.insert(rel, entry);
    }
    Ok(())
}

/// One entry of a [`TreeSnapshot`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A directory.
    Dir,
    /// A regular file and its content.
    File(Vec<u8>),
    /// A symbolic link and its body.
    Symlink(PathBuf),
    /// A FIFO, socket or device.
    Other,
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Dir => f.write_str("dir"),
            Self::File(bytes) => write!(f, "file {:?}", String::from_utf8_lossy(bytes)),
            Self::Symlink(body) => write!(f, "symlink -> {:?}", body.as_os_str().as_bytes()),
            Self::Other => f.write_str("special"),
        }
    }
}

/// Every entry below `{T}`: relative path → kind and content, sorted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeSnapshot {
    entries: BTreeMap<PathBuf, Entry>,
}

impl TreeSnapshot {
    /// The entries, keyed by path relative to `{T}`.
    pub fn entries(&self) -> &BTreeMap<PathBuf, Entry> {
        &self.entries
    }

    /// The entry at `rel`, if any.
    pub fn get(&self, rel: impl AsRef<Path>) -> Option<&Entry> {
        self.entries.get(rel.as_ref())
    }

    /// Human-readable differences from `self` to `after` (empty if equal).
    pub fn diff(&self, after: &Self) -> Vec<String> {
        let mut out = Vec::new();
        for (path, entry) in &self.entries {
            match after.entries.get(path) {
                None => out.push(format!("removed {}: {entry}", path.display())),
                Some(now) if now != entry => {
                    out.push(format!("changed {}: {entry} => {now}", path.display()));
                }
                Some(_) => {}
            }
        }
        for (path, entry) in &after.entries {
            if !self.entries.contains_key(path) {
                out.push(format!("added {}: {entry}", path.display()));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_and_snapshots_a_tree() {
        let ops: Vec<SetupOp> = serde_json::from_str(
            r#"[{"file":"a/x.txt"},{"file":"a/c.txt","content":"C"},{"mkdir":"a/e"},
                {"symlink":"a/l","target":"{T}/a/x.txt"},{"hardlink":"h","target":"a/x.txt"}]"#,
        )
        .unwrap();
        let fx = Fixture::with_setup(&ops).unwrap();
        assert!(fx.t_str().starts_with("/tmp/mr") && !fx.t_str().ends_with('/'));
        assert_eq!(fx.read_rel("a/x.txt").unwrap(), b"a/x.txt");
        assert_eq!(fx.read_rel("a/c.txt").unwrap(), b"C");
        assert_eq!(fx.read_rel("h").unwrap(), b"a/x.txt");
        assert_eq!(fx.list_rel("a").unwrap(), ["c.txt", "e", "l", "x.txt"]);
        let before = fx.snapshot();
        let body = PathBuf::from(format!("{}/a/x.txt", fx.t_str()));
        assert_eq!(before.get("a/l"), Some(&Entry::Symlink(body)));
        assert_eq!(before.entries().len(), 6);
        fs::write(fx.path("a/new.txt"), "n").unwrap();
        assert_eq!(before.diff(&fx.snapshot()), ["added a/new.txt: file \"n\""]);
    }

    #[test]
    fn refuses_paths_that_could_leave_t() {
        let fx = Fixture::new().unwrap();
        let link = SetupOp::Symlink {
            path: "up".into(),
            target: "..".into(),
        };
        fx.apply(&[link]).unwrap();
        for bad in ["up/x", "up", "../x", "/x", "a/./b", "a//b", "a/", ""] {
            let op = SetupOp::File {
                path: bad.into(),
                content: None,
            };
            assert!(fx.apply(&[op]).is_err(), "{bad}");
        }
        let op = SetupOp::Hardlink {
            path: "h".into(),
            target: "../etc/passwd".into(),
        };
        assert!(fx.apply(&[op]).is_err());
    }
}
