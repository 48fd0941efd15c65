//! Plain values handed to Python: the parts of a report, directory and walk
//! entries, metadata, scoped paths.

use pyo3::prelude::*;

use crate::errors::to_py;

/// A file type as a string: `"file"`, `"dir"`, `"symlink"` or `"other"`.
pub(crate) fn file_type(t: mcp_roots::FileType) -> &'static str {
    match t {
        mcp_roots::FileType::File => "file",
        mcp_roots::FileType::Dir => "dir",
        mcp_roots::FileType::Symlink => "symlink",
        _ => "other",
    }
}

fn meta_type(m: &std::fs::Metadata) -> &'static str {
    let t = m.file_type();
    if t.is_file() {
        "file"
    } else if t.is_dir() {
        "dir"
    } else if t.is_symlink() {
        "symlink"
    } else {
        "other"
    }
}

/// A root path the library resolved: its root and its path relative to it.
#[pyclass(module = "mcp_roots._core", name = "ScopedPath", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct PyScopedPath {
    inner: mcp_roots::ScopedPath,
}

impl PyScopedPath {
    pub(crate) fn new(inner: mcp_roots::ScopedPath) -> Self {
        Self { inner }
    }
}

#[pymethods]
impl PyScopedPath {
    /// The path relative to the root, `/`-separated (`""` for the root).
    #[getter]
    fn rel(&self) -> &str {
        self.inner.rel()
    }

    /// A `file://` URI built from the root as the client gave it.
    fn to_uri(&self) -> String {
        self.inner.to_uri()
    }

    fn __str__(&self) -> String {
        self.inner.to_uri()
    }

    fn __repr__(&self) -> String {
        format!("ScopedPath({:?})", self.inner.to_uri())
    }
}

/// A directory entry: its name and type.
#[pyclass(module = "mcp_roots._core", name = "DirEntry", frozen, get_all)]
pub(crate) struct PyDirEntry {
    /// The entry's name (undecodable bytes as surrogate escapes, as `os.listdir`).
    name: std::ffi::OsString,
    /// `"file"`, `"dir"`, `"symlink"` or `"other"`.
    file_type: &'static str,
}

impl PyDirEntry {
    pub(crate) fn new(entry: &mcp_roots::DirEntry) -> Self {
        Self {
            name: entry.name().to_owned(),
            file_type: file_type(entry.file_type()),
        }
    }
}

#[pymethods]
impl PyDirEntry {
    fn is_dir(&self) -> bool {
        self.file_type == "dir"
    }

    fn is_file(&self) -> bool {
        self.file_type == "file"
    }

    fn __repr__(&self) -> String {
        format!("DirEntry({:?}, {:?})", self.name, self.file_type)
    }
}

/// One entry of a walk.
#[pyclass(module = "mcp_roots._core", name = "WalkEntry", frozen, get_all)]
pub(crate) struct PyWalkEntry {
    /// Where the entry is, relative to its root.
    path: PyScopedPath,
    /// `"file"`, `"dir"`, `"symlink"` or `"other"`.
    file_type: &'static str,
    /// 1 for the start's entries, 2 below them, …
    depth: usize,
}

#[pymethods]
impl PyWalkEntry {
    fn __repr__(&self) -> String {
        format!(
            "WalkEntry({:?}, {:?}, depth={})",
            self.path.inner.rel(),
            self.file_type,
            self.depth
        )
    }
}

/// A bounded walk's result: the entries, the errors met on the way (one per
/// directory that could not be entered) and whether the limit cut it short.
#[pyclass(module = "mcp_roots._core", name = "Walk", frozen, get_all)]
pub(crate) struct PyWalk {
    entries: Vec<Py<PyWalkEntry>>,
    errors: Vec<Py<PyAny>>,
    truncated: bool,
}

impl PyWalk {
    /// Collects a walk (the caller has released the GIL for it).
    pub(crate) fn collect(walk: mcp_roots::Walk) -> Collected {
        let mut walk = walk;
        let mut entries = Vec::new();
        let mut errors = Vec::new();
        for item in walk.by_ref() {
            match item {
                Ok(entry) => entries.push(entry),
                Err(err) => errors.push(err),
            }
        }
        Collected {
            truncated: walk.is_truncated(),
            entries,
            errors,
        }
    }
}

/// A walk collected without the GIL, to be turned into a [`PyWalk`].
pub(crate) struct Collected {
    entries: Vec<mcp_roots::WalkEntry>,
    errors: Vec<mcp_roots::Error>,
    truncated: bool,
}

impl Collected {
    pub(crate) fn into_py(self, py: Python<'_>) -> PyResult<PyWalk> {
        let entries = self
            .entries
            .into_iter()
            .map(|e| {
                Py::new(
                    py,
                    PyWalkEntry {
                        path: PyScopedPath::new(e.path().clone()),
                        file_type: file_type(e.file_type()),
                        depth: e.depth(),
                    },
                )
            })
            .collect::<PyResult<_>>()?;
        let errors = self
            .errors
            .into_iter()
            .map(|e| to_py(e).into_value(py).into_any())
            .collect();
        Ok(PyWalk {
            entries,
            errors,
            truncated: self.truncated,
        })
    }
}

#[pymethods]
impl PyWalk {
    fn __len__(&self) -> usize {
        self.entries.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Walk({} entries, {} errors, truncated={})",
            self.entries.len(),
            self.errors.len(),
            self.truncated
        )
    }
}

/// Metadata of a file or directory.
#[pyclass(module = "mcp_roots._core", name = "Stat", frozen, get_all)]
pub(crate) struct PyStat {
    /// `"file"`, `"dir"` or `"other"`.
    file_type: &'static str,
    /// Size in bytes.
    size: u64,
    /// Last modification, seconds since the Unix epoch (None where unknown).
    modified: Option<f64>,
    /// Whether the permission bits forbid writing.
    readonly: bool,
}

impl PyStat {
    pub(crate) fn new(m: &std::fs::Metadata) -> Self {
        let modified = m
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_secs_f64());
        Self {
            file_type: meta_type(m),
            size: m.len(),
            modified,
            readonly: m.permissions().readonly(),
        }
    }
}

#[pymethods]
impl PyStat {
    fn is_dir(&self) -> bool {
        self.file_type == "dir"
    }

    fn is_file(&self) -> bool {
        self.file_type == "file"
    }

    fn __repr__(&self) -> String {
        format!("Stat({:?}, size={})", self.file_type, self.size)
    }
}

/// A client root the policy refused.
#[pyclass(module = "mcp_roots._core", name = "Rejected", frozen, get_all)]
pub(crate) struct PyRejected {
    uri: String,
    name: Option<String>,
    reason: &'static str,
    /// The refusal as an exception (its `.reason`, message and sentence).
    error: Py<PyAny>,
}

impl PyRejected {
    pub(crate) fn new(py: Python<'_>, r: &mcp_roots::Rejected) -> Self {
        let error = mcp_roots::Error::new(r.kind(), r.error().operation(), r.uri());
        let error = match r.error().detail() {
            Some(d) => error.with_detail(d),
            None => error,
        };
        Self {
            uri: r.uri().to_owned(),
            name: r.name().map(Into::into),
            reason: r.reason(),
            error: to_py(error).into_value(py).into_any(),
        }
    }
}

#[pymethods]
impl PyRejected {
    fn __repr__(&self) -> String {
        format!("Rejected({:?}, {:?})", self.uri, self.reason)
    }
}
