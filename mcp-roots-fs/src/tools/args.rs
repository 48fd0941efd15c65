//! The tools' arguments: the original's names, types and defaults, as a
//! call is read. What the tools advertise is written out apart
//! ([`original::schemas`](crate::original::schemas)): these types accept
//! at least what those schemas allow (`head` and `tail` as any number or
//! `null`), and their derived schemas are not sent.

use mcp_roots_rmcp::Needs;
use schemars::JsonSchema;
use serde::Deserialize;

/// What a tool's arguments declare before its work: each path it uses and
/// whether it reads or changes it (the glue asks the user about one
/// outside the roots, beneath `--ask-within`, once for all of them).
pub(crate) trait Declares {
    fn needs(&self) -> Needs;
}

impl Declares for ReadTextFile {
    fn needs(&self) -> Needs {
        Needs::new().read(&self.path)
    }
}

/// A tool with one path reads it (`read_media_file`, the listings,
/// `get_file_info`); `create_directory` changes it
/// ([`PathOnly::changed`]).
impl Declares for PathOnly {
    fn needs(&self) -> Needs {
        Needs::new().read(&self.path)
    }
}

impl PathOnly {
    /// A directory the tool creates (`create_directory`): asked about as
    /// the folder it is made in while it does not exist.
    pub(crate) fn changed(&self) -> Needs {
        Needs::new().create_dir(&self.path)
    }
}

impl Declares for ReadMultipleFiles {
    fn needs(&self) -> Needs {
        self.paths
            .iter()
            .fold(Needs::new(), |needs, path| needs.read(path))
    }
}

impl Declares for WriteFile {
    fn needs(&self) -> Needs {
        Needs::new().change(&self.path)
    }
}

impl Declares for AppendFile {
    fn needs(&self) -> Needs {
        Needs::new().change(&self.path)
    }
}

impl Declares for EditFile {
    fn needs(&self) -> Needs {
        Needs::new().change(&self.path)
    }
}

impl Declares for ListWithSizes {
    fn needs(&self) -> Needs {
        Needs::new().read(&self.path)
    }
}

impl Declares for DirectoryTree {
    fn needs(&self) -> Needs {
        Needs::new().read(&self.path)
    }
}

impl Declares for MoveFile {
    fn needs(&self) -> Needs {
        Needs::new().change(&self.source).change(&self.destination)
    }
}

impl Declares for CopyFile {
    fn needs(&self) -> Needs {
        Needs::new().read(&self.source).change(&self.destination)
    }
}

impl Declares for SearchFiles {
    fn needs(&self) -> Needs {
        Needs::new().read(&self.path)
    }
}

/// `read_text_file` and `read_file`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct ReadTextFile {
    pub(crate) path: String,
    /// If provided, returns only the last N lines of the file
    pub(crate) tail: Option<f64>,
    /// If provided, returns only the first N lines of the file
    pub(crate) head: Option<f64>,
}

/// A tool with one path.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct PathOnly {
    pub(crate) path: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct ReadMultipleFiles {
    /// Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories.
    #[schemars(length(min = 1))]
    pub(crate) paths: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct WriteFile {
    pub(crate) path: String,
    pub(crate) content: String,
}

/// `append_file`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct AppendFile {
    pub(crate) path: String,
    pub(crate) content: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct Edit {
    /// Text to search for - must match exactly
    #[serde(rename = "oldText")]
    #[schemars(rename = "oldText")]
    pub(crate) old_text: String,
    /// Text to replace with
    #[serde(rename = "newText")]
    #[schemars(rename = "newText")]
    pub(crate) new_text: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct EditFile {
    pub(crate) path: String,
    pub(crate) edits: Vec<Edit>,
    /// Preview changes using git-style diff format
    #[serde(rename = "dryRun", default)]
    #[schemars(rename = "dryRun")]
    pub(crate) dry_run: bool,
}

/// `list_directory_with_sizes`' order.
#[derive(Clone, Copy, Debug, Default, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum SortBy {
    #[default]
    Name,
    Size,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct ListWithSizes {
    pub(crate) path: String,
    /// Sort entries by name or size
    #[serde(rename = "sortBy", default)]
    #[schemars(rename = "sortBy")]
    pub(crate) sort_by: SortBy,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct DirectoryTree {
    pub(crate) path: String,
    #[serde(rename = "excludePatterns", default)]
    #[schemars(rename = "excludePatterns")]
    pub(crate) exclude_patterns: Vec<String>,
    /// How many levels to descend (2.3.0): 1 lists only the entries
    /// directly in `path`; the directories at the last level are not read.
    /// 0, a negative or a fractional number is refused as invalid params.
    #[serde(default)]
    pub(crate) depth: Option<std::num::NonZeroU64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct MoveFile {
    pub(crate) source: String,
    pub(crate) destination: String,
}

/// `copy_file`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct CopyFile {
    pub(crate) source: String,
    pub(crate) destination: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct SearchFiles {
    pub(crate) path: String,
    pub(crate) pattern: String,
    #[serde(rename = "excludePatterns", default)]
    #[schemars(rename = "excludePatterns")]
    pub(crate) exclude_patterns: Vec<String>,
}
