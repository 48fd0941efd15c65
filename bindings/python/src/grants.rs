//! Grants (the crate's semantics 15): the area given to `Roots(...,
//! ask_within=...)`, `Roots.may_ask` before a question, and a session
//! grant made and ended. Conversions only.

use pyo3::prelude::*;

use crate::errors::to_py;
use crate::ops::input;
use crate::roots::{PyReport, PyRoots};

/// What a grant of a refused path would be (`Roots.may_ask`): the
/// physical path, `"file"` or `"directory"`, the access, and whether the
/// file exists. Equal answers for two spellings of one file.
#[pyclass(module = "mcp_roots._core", name = "AskAbout", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct PyAskAbout {
    pub(crate) inner: mcp_roots::AskAbout,
}

#[pymethods]
impl PyAskAbout {
    #[getter]
    fn path(&self) -> String {
        self.inner.path().to_string_lossy().into_owned()
    }

    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind().as_str()
    }

    #[getter]
    fn access(&self) -> &'static str {
        self.inner.access().as_str()
    }

    #[getter]
    fn exists(&self) -> bool {
        self.inner.exists()
    }

    fn __repr__(&self) -> String {
        format!(
            "AskAbout({:?}, kind={:?}, access={:?})",
            self.path(),
            self.kind(),
            self.access()
        )
    }
}

/// A session grant (`Roots.grant`): what `Roots.end_grant` ends.
#[pyclass(module = "mcp_roots._core", name = "Grant", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct PyGrant {
    inner: mcp_roots::GrantId,
    about: PyAskAbout,
}

#[pymethods]
impl PyGrant {
    /// The grant's number, unique in the process.
    #[getter]
    fn id(&self) -> u64 {
        self.inner.get()
    }

    /// What it covers.
    #[getter]
    fn about(&self) -> PyAskAbout {
        self.about.clone()
    }

    fn __repr__(&self) -> String {
        format!("Grant({}, {})", self.id(), self.about.__repr__())
    }
}

fn access(access: &str) -> PyResult<mcp_roots::GrantAccess> {
    match access {
        "read" => Ok(mcp_roots::GrantAccess::Read),
        "change" => Ok(mcp_roots::GrantAccess::Change),
        other => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "access must be 'read' or 'change', not {other:?}"
        ))),
    }
}

#[pymethods]
impl PyRoots {
    /// Whether `path` (refused as outside the roots) may be asked about for
    /// `access` (`"read"` or `"change"`), judged before any question.
    #[pyo3(signature = (path, access = "read"))]
    fn may_ask(
        &self,
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
        access: &str,
    ) -> PyResult<PyAskAbout> {
        let (path, access) = (input(path)?, self::access(access)?);
        let about = py.detach(|| self.inner.load().may_ask(&path, access));
        Ok(PyAskAbout {
            inner: about.map_err(to_py)?,
        })
    }

    /// Grants what `about` names for the session (the user said yes).
    fn grant(&self, py: Python<'_>, about: &PyAskAbout) -> PyResult<PyGrant> {
        let id = py
            .detach(|| self.inner.grant(&about.inner))
            .map_err(to_py)?;
        Ok(PyGrant {
            inner: id,
            about: about.clone(),
        })
    }

    /// Ends a session grant; its files are revoked.
    fn end_grant(&self, py: Python<'_>, grant: &PyGrant) -> PyResult<PyReport> {
        let report = py.detach(|| self.inner.end_grant(grant.inner));
        PyReport::new(py, &self.inner, &report)
    }

    /// The session's grants, in the order they were made.
    #[getter]
    fn grants(&self) -> Vec<PyGrant> {
        let grants = self.inner.grants().into_iter();
        grants
            .map(|(inner, about)| PyGrant {
                inner,
                about: PyAskAbout { inner: about },
            })
            .collect()
    }
}
