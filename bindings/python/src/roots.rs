//! `Roots` (a session's live roots with the server's policy) and `RootSet`
//! (a fixed set), with the report of a replace.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::{IntoPy, patterns};
use crate::file::Handle;
use crate::ops::operations;
use crate::values::PyRejected;

/// The client's roots: an iterable of URIs (or absolute paths, each a
/// `str` or an `os.PathLike`), or of `(uri, name)` pairs (`name` a `str`
/// or `None`); a `TypeError` in Python's terms otherwise, and a URI that
/// cannot be UTF-8 is `InvalidUriError`, as a path is.
pub(crate) fn builder(roots: &Bound<'_, PyAny>) -> PyResult<mcp_roots::RootSetBuilder> {
    use pyo3::types::{PyString, PyTuple};
    let refuse = |what: &Bound<'_, PyAny>| -> PyErr {
        let kind = what
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        pyo3::exceptions::PyTypeError::new_err(format!(
            "roots must be an iterable of str, os.PathLike or (uri, name) tuples, not {kind}"
        ))
    };
    if roots.is_instance_of::<PyString>() || roots.is_instance_of::<pyo3::types::PyBytes>() {
        return Err(refuse(roots));
    }
    let mut b = mcp_roots::RootSet::builder();
    for root in roots.try_iter().map_err(|_| refuse(roots))? {
        let root = root?;
        b = match root.cast::<PyTuple>() {
            Ok(pair) if pair.len() == 2 => {
                let uri = crate::ops::text_arg("uri", &pair.get_item(0)?)?;
                let name = pair.get_item(1)?;
                if name.is_none() {
                    b.root(uri)
                } else if let Ok(name) = name.cast::<PyString>() {
                    b.named_root(name.to_str()?.to_owned(), uri)
                } else {
                    return Err(refuse(&root));
                }
            }
            Ok(_) => return Err(refuse(&root)),
            Err(_) => b.root(crate::ops::text_arg("root", &root)?),
        };
    }
    Ok(b)
}

fn choice<T: Copy>(what: &str, value: &str, table: &[(&str, T)]) -> PyResult<T> {
    table
        .iter()
        .find(|(name, _)| *name == value)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<_> = table.iter().map(|(n, _)| format!("{n:?}")).collect();
            PyValueError::new_err(format!(
                "{what} must be one of {}, not {value:?}",
                names.join(", ")
            ))
        })
}

/// A revoked file: the path below its root it was opened as, and why.
#[pyclass(module = "mcp_roots._core", name = "Revoked", frozen, get_all)]
pub(crate) struct PyRevoked {
    path: String,
    reason: &'static str,
}

#[pymethods]
impl PyRevoked {
    fn __repr__(&self) -> String {
        format!("Revoked({:?}, {:?})", self.path, self.reason)
    }
}

/// What a replace or rescan did: the roots refused, the files revoked.
#[pyclass(module = "mcp_roots._core", name = "Report", frozen, get_all)]
pub(crate) struct PyReport {
    generation: u64,
    rejected: Vec<Py<PyRejected>>,
    revoked: Vec<Py<PyRevoked>>,
    kept: usize,
}

impl PyReport {
    pub(crate) fn new(
        py: Python<'_>,
        roots: &mcp_roots::Roots,
        report: &mcp_roots::RescanReport,
    ) -> PyResult<Self> {
        let rejected = roots
            .load()
            .rejected()
            .iter()
            .map(|r| Py::new(py, PyRejected::new(py, r)))
            .collect::<PyResult<_>>()?;
        let revoked = report
            .revoked()
            .iter()
            .map(|r| {
                Py::new(
                    py,
                    PyRevoked {
                        path: r.path.clone(),
                        reason: r.reason.reason(),
                    },
                )
            })
            .collect::<PyResult<_>>()?;
        Ok(Self {
            generation: report.generation(),
            rejected,
            revoked,
            kept: report.kept(),
        })
    }
}

#[pymethods]
impl PyReport {
    fn __repr__(&self) -> String {
        format!(
            "Report(generation={}, {} rejected, {} revoked)",
            self.generation,
            self.rejected.len(),
            self.revoked.len()
        )
    }
}

/// A root as installed: its URI and name, whether it is read-only, and the
/// patterns of what the policy hides and keeps read-only in it.
#[pyclass(module = "mcp_roots._core", name = "RootInfo", frozen, get_all)]
pub(crate) struct PyRootInfo {
    uri: String,
    name: Option<String>,
    read_only: bool,
    hides: Vec<String>,
    protects: Vec<String>,
    /// For a grant: `"file"` or `"directory"`.
    grant: Option<&'static str>,
}

impl PyRootInfo {
    fn new(root: &std::sync::Arc<mcp_roots::Root>) -> Self {
        let owned = |v: Vec<&str>| v.into_iter().map(str::to_owned).collect();
        Self {
            uri: root.uri().to_owned(),
            name: root.name().map(str::to_owned),
            read_only: root.writes() == mcp_roots::Writes::Refuse,
            hides: owned(root.hides()),
            protects: owned(root.protects()),
            grant: root.grant().map(mcp_roots::GrantKind::as_str),
        }
    }
}

#[pymethods]
impl PyRootInfo {
    fn __repr__(&self) -> String {
        format!(
            "RootInfo({:?}, hides={:?}, protects={:?})",
            self.uri, self.hides, self.protects
        )
    }
}

/// One session's roots under the server's policy.
#[pyclass(module = "mcp_roots._core", name = "Roots", frozen)]
pub(crate) struct PyRoots {
    pub(crate) inner: mcp_roots::Roots,
}

#[pymethods]
impl PyRoots {
    #[new]
    #[pyo3(signature = (
        *, ceiling = None, read_only_ceiling = Vec::new(), writes = "allow",
        empty_roots = "deny_all", symlinks = "follow_beneath", mount_points = "cross",
        hard_links = "allow", hide = Vec::new(), read_only_patterns = Vec::new(),
        ask_within = None,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        ceiling: Option<Vec<String>>,
        read_only_ceiling: Vec<String>,
        writes: &str,
        empty_roots: &str,
        symlinks: &str,
        mount_points: &str,
        hard_links: &str,
        hide: Vec<String>,
        read_only_patterns: Vec<String>,
        ask_within: Option<Vec<String>>,
    ) -> PyResult<Self> {
        use mcp_roots::{EmptyRoots, HardLinks, MountPoints, Symlinks, Writes};
        let mut b = mcp_roots::Roots::builder()
            .hide(patterns(hide)?)
            .read_only(patterns(read_only_patterns)?)
            .read_only_ceiling(read_only_ceiling)
            .writes(choice(
                "writes",
                writes,
                &[("allow", Writes::Allow), ("refuse", Writes::Refuse)],
            )?)
            .empty_roots(choice(
                "empty_roots",
                empty_roots,
                &[
                    ("deny_all", EmptyRoots::DenyAll),
                    ("ceiling", EmptyRoots::Ceiling),
                ],
            )?)
            .symlinks(choice(
                "symlinks",
                symlinks,
                &[
                    ("follow_beneath", Symlinks::FollowBeneath),
                    ("refuse", Symlinks::Refuse),
                ],
            )?)
            .mount_points(choice(
                "mount_points",
                mount_points,
                &[
                    ("cross", MountPoints::Cross),
                    ("refuse", MountPoints::Refuse),
                ],
            )?)
            .hard_links(choice(
                "hard_links",
                hard_links,
                &[
                    ("allow", HardLinks::Allow),
                    ("refuse_writes", HardLinks::RefuseWrites),
                ],
            )?);
        if let Some(ceiling) = ceiling {
            b = b.ceiling(ceiling);
        }
        if let Some(area) = ask_within {
            b = b.ask_within(area);
        }
        Ok(Self { inner: b.build() })
    }

    /// Installs the client's root list (URIs, or `(uri, name)` pairs);
    /// revokes the files that left it.
    fn replace(&self, py: Python<'_>, roots: &Bound<'_, PyAny>) -> PyResult<PyReport> {
        let roots = builder(roots)?;
        let report = py.detach(|| self.inner.replace_list(roots));
        PyReport::new(py, &self.inner, &report)
    }

    /// Installs what a client without the roots capability is served (the
    /// `empty_roots` policy).
    fn replace_undeclared(&self, py: Python<'_>) -> PyResult<PyReport> {
        let report = py.detach(|| self.inner.replace_undeclared());
        PyReport::new(py, &self.inner, &report)
    }

    /// Checks every root and tracked file against the disk.
    fn rescan(&self, py: Python<'_>) -> PyResult<PyReport> {
        let report = py.detach(|| self.inner.rescan());
        PyReport::new(py, &self.inner, &report)
    }

    /// Watches the disk: a root or a tracked file's directory moved or
    /// removed is acted on (a rescan) within about 50 ms; `callback(event)`
    /// is called on the watcher's thread for each `ScopeEvent`. Returns the
    /// guard that keeps it running (a context manager; `close()`).
    #[pyo3(signature = (callback = None))]
    fn watch(
        &self,
        py: Python<'_>,
        callback: Option<Bound<'_, PyAny>>,
    ) -> PyResult<crate::watch::PyWatchGuard> {
        if let Some(c) = &callback
            && !c.is_callable()
        {
            let kind = c.get_type().name()?;
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "callback must be callable or None, not {kind}"
            )));
        }
        crate::watch::PyWatchGuard::start(py, &self.inner, callback.map(Bound::unbind))
    }

    /// One request's roots (the 2026-07-28 revision): the list it carries,
    /// or `None` for a client without the roots capability; nothing is
    /// installed in `self`.
    #[pyo3(signature = (roots))]
    fn for_request(&self, py: Python<'_>, roots: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let roots = roots.map(builder).transpose()?;
        let inner = py.detach(|| self.inner.for_request(roots));
        Ok(Self { inner })
    }

    /// The installed set's generation (0 before the first replace).
    #[getter]
    fn generation(&self) -> u64 {
        self.inner.generation()
    }

    /// How many files are tracked.
    #[getter]
    fn tracked(&self) -> usize {
        self.inner.tracked()
    }

    /// The roots refused when the installed set was built.
    #[getter]
    fn rejected(&self, py: Python<'_>) -> PyResult<Vec<PyRejected>> {
        Ok(self
            .inner
            .load()
            .rejected()
            .iter()
            .map(|r| PyRejected::new(py, r))
            .collect())
    }

    /// The installed roots' URIs, as the client gave them.
    #[getter]
    fn uris(&self) -> Vec<String> {
        self.inner
            .load()
            .roots()
            .iter()
            .map(|r| r.uri().to_owned())
            .collect()
    }

    /// Whether every root is read-only by policy.
    #[getter]
    fn read_only(&self) -> bool {
        self.inner.writes() == mcp_roots::Writes::Refuse
    }

    /// The installed roots with what the policy hides and protects in each.
    #[getter]
    fn roots(&self) -> Vec<PyRootInfo> {
        self.inner
            .load()
            .roots()
            .iter()
            .map(PyRootInfo::new)
            .collect()
    }
}

operations!(PyRoots, |this| this.inner.load(), Handle::Tracked);

/// A fixed set of roots (no policy, no revocation).
#[pyclass(module = "mcp_roots._core", name = "RootSet", frozen)]
pub(crate) struct PyRootSet {
    inner: mcp_roots::RootSet,
}

#[pymethods]
impl PyRootSet {
    /// The set of the client's roots (URIs, or `(uri, name)` pairs); the
    /// refused ones are in `rejected`. `hide` and `read_only_patterns` are
    /// gitignore-style patterns relative to each root.
    #[new]
    #[pyo3(signature = (roots, *, hide = Vec::new(), read_only_patterns = Vec::new()))]
    fn new(
        py: Python<'_>,
        roots: &Bound<'_, PyAny>,
        hide: Vec<String>,
        read_only_patterns: Vec<String>,
    ) -> PyResult<Self> {
        let b = builder(roots)?
            .hide(patterns(hide)?)
            .read_only(patterns(read_only_patterns)?);
        let inner = py.detach(|| b.build());
        Ok(Self { inner })
    }

    /// The roots with what the policy hides and protects in each.
    #[getter]
    fn roots(&self) -> Vec<PyRootInfo> {
        self.inner.roots().iter().map(PyRootInfo::new).collect()
    }

    #[getter]
    fn rejected(&self, py: Python<'_>) -> Vec<PyRejected> {
        self.inner
            .rejected()
            .iter()
            .map(|r| PyRejected::new(py, r))
            .collect()
    }

    #[getter]
    fn uris(&self) -> Vec<String> {
        self.inner
            .roots()
            .iter()
            .map(|r| r.uri().to_owned())
            .collect()
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }
}

operations!(PyRootSet, |this| &this.inner, Handle::Plain);
