//! [`Needs`]: the paths a tool call will use and the access it needs to
//! each, declared before its work, so that the glue can ask the user once
//! for all of them ([`SessionRoots::serve_needing`](crate::SessionRoots::serve_needing)).

use mcp_roots::GrantAccess;

/// The paths a tool call uses, each with the access it needs, as the
/// model spelled them (a path or a `file:` URI). Declared before the work:
/// a path refused `outside_roots` that the server may ask about is asked
/// about, with the call's other such paths, in one question.
///
/// ```
/// use mcp_roots_rmcp::Needs;
///
/// // move_file: read the source, change both ends.
/// let needs = Needs::new().change("/home/alice/inbox/a.md").change("/home/alice/notes/a.md");
/// assert_eq!(needs.len(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    paths: Vec<(String, GrantAccess)>,
    /// The indices in `paths` of directories the call creates.
    creates: Vec<usize>,
}

impl Needs {
    /// No path.
    pub fn new() -> Self {
        Self::default()
    }

    /// The call reads or lists `path` (a file, or a directory it lists or
    /// walks).
    #[must_use]
    pub fn read(self, path: impl Into<String>) -> Self {
        self.with(path, GrantAccess::Read)
    }

    /// The call changes `path`: writes, creates, removes or renames it, or
    /// something inside it (a directory).
    #[must_use]
    pub fn change(self, path: impl Into<String>) -> Self {
        self.with(path, GrantAccess::Change)
    }

    /// The call creates the directory `path` (and its missing parents).
    /// Where it does not exist yet, what is asked about is changing the
    /// existing directory it is made in (a grant names something that
    /// exists: a new name would be a file's); where it exists, changing it.
    #[must_use]
    pub fn create_dir(mut self, path: impl Into<String>) -> Self {
        self.creates.push(self.paths.len());
        self.change(path)
    }

    /// The call needs `access` to `path`.
    #[must_use]
    pub fn with(mut self, path: impl Into<String>, access: GrantAccess) -> Self {
        self.paths.push((path.into(), access));
        self
    }

    /// Each path and its access, in the order declared.
    pub fn paths(&self) -> impl Iterator<Item = (&str, GrantAccess)> {
        self.paths.iter().map(|(p, a)| (p.as_str(), *a))
    }

    /// Each path, its access, and whether it is a directory the call
    /// creates ([`create_dir`](Self::create_dir)).
    pub(crate) fn entries(&self) -> impl Iterator<Item = (&str, GrantAccess, bool)> {
        self.paths
            .iter()
            .enumerate()
            .map(|(i, (p, a))| (p.as_str(), *a, self.creates.contains(&i)))
    }

    /// How many paths.
    pub fn len(&self) -> usize {
        self.paths.len()
    }

    /// Whether no path is declared.
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }
}
