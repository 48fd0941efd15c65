//! Serde types for the escape-case corpus and functions to load it.
//!
//! The format is described in `testkit/data/README.md`: an array of
//! [`Case`]s, each with a file-system `setup` relative to a fresh temporary
//! directory `{T}`, the client's `roots`, an `input`, an [`Op`] and the
//! expected outcome.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// One escape case of the corpus.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Unique name of the case.
    pub id: String,
    /// Escape class (`dotdot`, `symlink_escape`, `prefix_sibling`, …).
    pub class: String,
    /// File-system operations relative to `{T}`, applied in order.
    pub setup: Vec<SetupOp>,
    /// Root URIs (or paths), with `{T}` standing for the temp dir.
    pub roots: Vec<String>,
    /// What the client or a tool call sends, with `{T}`.
    pub input: String,
    /// The operation attempted.
    pub op: Op,
    /// The expected outcome.
    pub expect: Expect,
    /// On an allow case: a design that opens beneath one root may refuse it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub deny_acceptable: bool,
    /// On allow cases: the path, relative to the resolved `{T}`, touched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved: Option<String>,
    /// The reasoning behind the expectation.
    pub why: String,
    /// An optional remark (which designs refuse an acceptable-deny case).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One file-system operation of a case's setup, paths relative to `{T}`.
///
/// JSON shapes: `{"mkdir": "a/b"}`, `{"file": "a/x.txt", "content": "…"}`,
/// `{"symlink": "a/l", "target": "../x"}`,
/// `{"hardlink": "a/h", "target": "outside/secret.txt"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawSetupOp", into = "RawSetupOp")]
pub enum SetupOp {
    /// Create a directory (and its parents).
    Mkdir {
        /// Directory path relative to `{T}`.
        path: String,
    },
    /// Create a regular file; its content is `content` or else `path`.
    File {
        /// File path relative to `{T}`.
        path: String,
        /// Content; `None` means the file's own relative path.
        content: Option<String>,
    },
    /// Create a symbolic link whose body is `target` (after `{T}`
    /// substitution), verbatim.
    Symlink {
        /// Link path relative to `{T}`.
        path: String,
        /// Link body, may be relative or absolute and mention `{T}`.
        target: String,
    },
    /// Create a hard link at `path` to the existing file `target`, both
    /// relative to `{T}`.
    Hardlink {
        /// New name relative to `{T}`.
        path: String,
        /// Existing file relative to `{T}`.
        target: String,
    },
}

impl SetupOp {
    /// The path (relative to `{T}`) that this operation creates.
    pub fn path(&self) -> &str {
        match self {
            Self::Mkdir { path }
            | Self::File { path, .. }
            | Self::Symlink { path, .. }
            | Self::Hardlink { path, .. } => path,
        }
    }
}

/// The JSON shape of a [`SetupOp`]: exactly one of the kind keys is set.
#[derive(Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSetupOp {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mkdir: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    symlink: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hardlink: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    target: Option<String>,
}

impl TryFrom<RawSetupOp> for SetupOp {
    type Error = String;

    fn try_from(raw: RawSetupOp) -> Result<Self, String> {
        let RawSetupOp {
            mkdir,
            file,
            symlink,
            hardlink,
            content,
            target,
        } = raw;
        let no_content = content.is_none();
        match (mkdir, file, symlink, hardlink, target) {
            (Some(path), None, None, None, None) if no_content => Ok(Self::Mkdir { path }),
            (None, Some(path), None, None, None) => Ok(Self::File { path, content }),
            (None, None, Some(path), None, Some(target)) if no_content => {
                Ok(Self::Symlink { path, target })
            }
            (None, None, None, Some(path), Some(target)) if no_content => {
                Ok(Self::Hardlink { path, target })
            }
            _ => Err("expected exactly one of mkdir, file, symlink, hardlink; \
                 `content` only with file, `target` exactly with the links"
                .into()),
        }
    }
}

impl From<SetupOp> for RawSetupOp {
    fn from(op: SetupOp) -> Self {
        let mut raw = RawSetupOp::default();
        match op {
            SetupOp::Mkdir { path } => raw.mkdir = Some(path),
            SetupOp::File { path, content } => (raw.file, raw.content) = (Some(path), content),
            SetupOp::Symlink { path, target } => {
                (raw.symlink, raw.target) = (Some(path), Some(target))
            }
            SetupOp::Hardlink { path, target } => {
                (raw.hardlink, raw.target) = (Some(path), Some(target));
            }
        }
        raw
    }
}

/// The operation a case attempts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// Open and read a regular file.
    Read,
    /// Create a new file (`O_CREAT|O_EXCL`); the name must not exist.
    WriteNew,
    /// Read a directory's entries.
    List,
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Read => "read",
            Self::WriteNew => "write_new",
            Self::List => "list",
        })
    }
}

/// The expected outcome of a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expect {
    /// The operation must succeed on `resolved`.
    Allow,
    /// The operation must fail, and change nothing.
    Deny,
}

/// Loads a corpus file.
///
/// # Panics
///
/// If the file cannot be read or does not parse as a corpus; the message
/// names the file and the serde error.
pub fn load(path: impl AsRef<Path>) -> Vec<Case> {
    load_rows(path.as_ref())
}

/// Loads a corpus file of any row type.
///
/// # Panics
///
/// As [`load`].
pub(crate) fn load_rows<T: serde::de::DeserializeOwned>(path: &Path) -> Vec<T> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read corpus {}: {e}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("cannot parse corpus {}: {e}", path.display()))
}

/// Path of the corpus file `name` in `testkit/data/`.
pub(crate) fn data_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// Checks what every corpus with reasons shares: at least `min` rows,
/// unique ids, a `resolved` path exactly on allow rows and a `reason`
/// exactly on deny rows. Each row: (id, expect, has resolved, has reason).
#[cfg(test)]
pub(crate) fn check_rows(rows: &[(&str, Expect, bool, bool)], min: usize) {
    assert!(rows.len() >= min, "{}", rows.len());
    let mut ids: Vec<_> = rows.iter().map(|r| r.0).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), rows.len(), "case ids are unique");
    for &(id, expect, resolved, reason) in rows {
        let allow = expect == Expect::Allow;
        assert_eq!(allow, resolved, "{id}");
        assert_eq!(!allow, reason, "{id}");
    }
}

/// Path of the workspace's shared corpus, `testkit/data/escape_corpus.json`.
pub fn shared_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/escape_corpus.json")
}

/// Loads the workspace's shared corpus (see [`shared_path`]).
///
/// # Panics
///
/// As [`load`].
pub fn load_shared() -> Vec<Case> {
    load(shared_path())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_ops_round_trip() {
        let json = r#"[{"mkdir":"a/b"},{"file":"a/x.txt"},{"file":"f","content":"hi"},
            {"symlink":"a/l","target":"../x"},{"hardlink":"a/h","target":"o/s.txt"}]"#;
        let ops: Vec<SetupOp> = serde_json::from_str(json).unwrap();
        assert_eq!(
            ops[2],
            SetupOp::File {
                path: "f".into(),
                content: Some("hi".into())
            }
        );
        let back = serde_json::to_string(&ops).unwrap();
        assert_eq!(serde_json::from_str::<Vec<SetupOp>>(&back).unwrap(), ops);
    }

    #[test]
    fn malformed_setup_ops_are_refused() {
        for bad in [
            r#"{"mkdir":"a","file":"b"}"#,
            r#"{"symlink":"a"}"#,
            r#"{"mkdir":"a","content":"x"}"#,
            r#"{"file":"a","target":"x"}"#,
            r#"{"chmod":"a"}"#,
        ] {
            assert!(serde_json::from_str::<SetupOp>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shared_corpus_loads() {
        let cases = load_shared();
        assert_eq!(cases.len(), 147);
        let mut ids: Vec<_> = cases.iter().map(|c| &c.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), cases.len(), "case ids are unique");
        for c in &cases {
            assert_eq!(c.expect == Expect::Allow, c.resolved.is_some(), "{}", c.id);
            assert!(!c.deny_acceptable || c.expect == Expect::Allow, "{}", c.id);
        }
    }
}
