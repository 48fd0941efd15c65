//! The Windows-form corpus (`testkit/data/windows_corpus.json`): rows written
//! against the spellings of one temporary directory `{T}` on a drive
//! ([`Spellings`]), run whole on Windows (`conformance/tests/windows_corpus.rs`) and,
//! for the rows that parsing alone decides, on every platform.
//!
//! A row's `expect` is `"allow"` or the reason of the refusal. A refusal
//! marked `parse` must come from the parser (no root, no disk), and the
//! rows not so marked must parse. Setups make directories and files only.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::corpus::{Op, SetupOp};

/// One row of the Windows-form corpus.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WindowsCase {
    /// Unique name of the row.
    pub id: String,
    /// Directories and files to make, relative to `{T}`, with `/`: the
    /// file's shared tree, then the row's own additions.
    #[serde(default)]
    pub setup: Vec<SetupOp>,
    /// The client's roots, in the spellings of [`Spellings::subst`].
    pub roots: Vec<String>,
    /// The reasons of the roots the set must reject, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rejected: Vec<String>,
    /// The set's own hide patterns (gitignore syntax, relative to each
    /// root), applied with `RootSetBuilder::hide`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hide: Vec<String>,
    /// The set's own read-only patterns, applied with
    /// `RootSetBuilder::read_only`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub read_only: Vec<String>,
    /// What a tool call sends.
    pub input: String,
    /// The operation attempted.
    pub op: Op,
    /// `"allow"`, or the reason the operation must be refused with.
    pub expect: String,
    /// On a refusal: parsing alone decides it (checked on every platform).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub parse: bool,
    /// On an allow: the object touched, relative to `{T}`, with `/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved: Option<String>,
    /// Why the row expects what it does.
    pub why: String,
}

impl WindowsCase {
    /// Whether the operation must succeed.
    pub fn allowed(&self) -> bool {
        self.expect == "allow"
    }
}

/// The spellings of one directory `{T}` on a drive, for the templates:
///
/// | template | spelling of `C:\Users\u\t` |
/// |---|---|
/// | `{T}` | `C:\Users\u\t` |
/// | `{T/}` | `C:/Users/u/t` |
/// | `{t}` | `c:\uSERS\U\T` (every ASCII letter's case swapped) |
/// | `{URI}` | `file:///C:/Users/u/t` |
/// | `{VSCODE}` | `file:///c%3A/Users/u/t` (VS Code's form) |
/// | `{LOCALHOST}` | `file://localhost/C:/Users/u/t` |
/// | `{DRIVE}` | `C:` |
/// | `{TAIL}` | `\Users\u\t` (no drive) |
#[derive(Debug, Clone)]
pub struct Spellings {
    native: String,
}

/// A `{T}` for the rows run without a disk: never created or opened.
pub const PARSE_ONLY_T: &str = r"C:\Users\corpus\AppData\Local\Temp\t";

impl Spellings {
    /// The spellings of `native`, an absolute drive path (`X:\…`) without
    /// a trailing separator.
    ///
    /// # Panics
    ///
    /// If `native` does not start with a drive letter, a colon and `\`.
    pub fn new(native: &str) -> Self {
        let b = native.as_bytes();
        assert!(
            b.len() > 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && b[2] == b'\\',
            "{native:?} is not an absolute drive path"
        );
        Self {
            native: native.trim_end_matches('\\').to_owned(),
        }
    }

    /// `template` with every placeholder of the table replaced.
    pub fn subst(&self, template: &str) -> String {
        let native = &self.native;
        let slashed = native.replace('\\', "/");
        let swapped: String = native
            .chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect();
        let drive = &native[..2];
        let encoded_tail = encode(&slashed[2..]);
        let lower_drive = drive[..1].to_ascii_lowercase();
        template
            .replace("{T/}", &slashed)
            .replace("{T}", native)
            .replace("{t}", &swapped)
            .replace("{URI}", &format!("file:///{drive}{encoded_tail}"))
            .replace(
                "{VSCODE}",
                &format!("file:///{lower_drive}%3A{encoded_tail}"),
            )
            .replace(
                "{LOCALHOST}",
                &format!("file://localhost/{drive}{encoded_tail}"),
            )
            .replace("{DRIVE}", drive)
            .replace("{TAIL}", &native[2..])
    }

    /// The directory as a path (for the runner on Windows).
    pub fn path(&self) -> PathBuf {
        PathBuf::from(&self.native)
    }
}

/// `path` with every byte outside the URI path characters percent-encoded
/// (`/` kept).
fn encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=@".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The file: the tree every row starts from, and the rows (each may add
/// to the tree with its own `setup`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CorpusFile {
    tree: Vec<SetupOp>,
    cases: Vec<WindowsCase>,
}

/// Loads the Windows-form corpus from `path`: each row's setup is the
/// file's shared `tree`, then the row's own.
///
/// # Panics
///
/// If the file cannot be read or parsed, or a row uses a setup other than
/// directories and files.
pub fn load(path: impl AsRef<Path>) -> Vec<WindowsCase> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read corpus {}: {e}", path.display()));
    let file: CorpusFile = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("cannot parse corpus {}: {e}", path.display()));
    let mut cases = file.cases;
    for case in &mut cases {
        let own = std::mem::take(&mut case.setup);
        case.setup = file.tree.iter().cloned().chain(own).collect();
        for op in &case.setup {
            assert!(
                matches!(op, SetupOp::Mkdir { .. } | SetupOp::File { .. }),
                "{}: the Windows corpus makes directories and files only",
                case.id
            );
        }
    }
    cases
}

/// Path of `testkit/data/windows_corpus.json`.
pub fn shared_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/windows_corpus.json")
}

/// Loads `testkit/data/windows_corpus.json` (see [`load`]).
///
/// # Panics
///
/// As [`load`].
pub fn load_shared() -> Vec<WindowsCase> {
    load(shared_path())
}

/// The reasons a row may expect (the library's closed table).
pub const REASONS: &[&str] = &[
    "invalid_uri",
    "not_absolute",
    "outside_roots",
    "outside_ceiling",
    "not_a_directory",
    "not_a_regular_file",
    "not_found",
    "already_exists",
    "symlink_loop",
    "root_gone",
    "scope_lost",
    "no_roots",
    "read_only",
    "hidden",
    "invalid_path",
    "permission_denied",
    "io",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings() {
        let s = Spellings::new(r"C:\Users\u 1\t");
        assert_eq!(s.subst("{T}\\a"), r"C:\Users\u 1\t\a");
        assert_eq!(s.subst("{T/}/a"), "C:/Users/u 1/t/a");
        assert_eq!(s.subst("{t}"), r"c:\uSERS\U 1\T");
        assert_eq!(s.subst("{URI}/a"), "file:///C:/Users/u%201/t/a");
        assert_eq!(s.subst("{VSCODE}/a"), "file:///c%3A/Users/u%201/t/a");
        assert_eq!(s.subst("{LOCALHOST}"), "file://localhost/C:/Users/u%201/t");
        assert_eq!(s.subst("{DRIVE}x"), "C:x");
        assert_eq!(s.subst("{TAIL}"), r"\Users\u 1\t");
    }

    #[test]
    fn the_corpus_is_well_formed() {
        let cases = load_shared();
        assert!(cases.len() >= 40, "{} rows", cases.len());
        let mut ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), cases.len(), "row ids are unique");
        for case in &cases {
            let id = &case.id;
            assert!(
                case.allowed() || REASONS.contains(&case.expect.as_str()),
                "{id}"
            );
            assert_eq!(case.allowed(), case.resolved.is_some(), "{id}");
            assert!(!(case.parse && case.allowed()), "{id}");
            assert!(
                case.rejected.iter().all(|r| REASONS.contains(&r.as_str())),
                "{id}"
            );
        }
        let with_patterns = cases
            .iter()
            .filter(|c| !c.hide.is_empty() || !c.read_only.is_empty());
        assert!(
            with_patterns.clone().any(|c| c.expect == "hidden")
                && with_patterns.clone().any(|c| c.expect == "read_only")
                && with_patterns.clone().any(|c| c.allowed()),
            "rows with patterns refuse hidden and read-only parts and allow the rest"
        );
        for op in [Op::Read, Op::WriteNew, Op::List] {
            assert!(
                cases.iter().any(|c| c.op == op && c.allowed()),
                "{op} allowed"
            );
            assert!(
                cases.iter().any(|c| c.op == op && !c.allowed()),
                "{op} refused"
            );
        }
    }
}
