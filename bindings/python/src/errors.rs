//! `mcp_roots::Error` as the Python exception of its reason: the classes
//! live in the pure-Python `mcp_roots._errors` (each has two bases, which a
//! Rust-defined class cannot), and this module only hands over the fields.

use std::io;

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// Our error as a Python exception (`McpRootsError` subclass by reason).
pub(crate) fn to_py(err: mcp_roots::Error) -> PyErr {
    Python::attach(|py| match build(py, &err) {
        Ok(exc) => PyErr::from_value(exc),
        Err(e) => e,
    })
}

/// An `io::Error` from a file object: ours if it wraps our error (a revoked
/// handle), else Python's own `OSError` mapping.
pub(crate) fn io_to_py(err: io::Error) -> PyErr {
    match mcp_roots::Error::try_from_io(err) {
        Ok(ours) => to_py(ours),
        Err(plain) => plain.into(),
    }
}

fn build<'py>(py: Python<'py>, err: &mcp_roots::Error) -> PyResult<Bound<'py, PyAny>> {
    static FROM_CORE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let from_core = FROM_CORE.get_or_try_init(py, || {
        Ok::<_, PyErr>(
            py.import("mcp_roots._errors")?
                .getattr("_from_core")?
                .unbind(),
        )
    })?;
    from_core.bind(py).call1((
        err.reason(),
        err.to_string(),
        err.input(),
        operation(err.operation()),
        err.detail(),
        err.sentence(),
        err.pattern(),
    ))
}

/// Parses gitignore-style patterns; a bad one raises
/// `mcp_roots.PatternError` (a `ValueError`) naming it.
pub(crate) fn patterns(text: Vec<String>) -> PyResult<mcp_roots::Patterns> {
    mcp_roots::Patterns::parse(text).map_err(|err| {
        Python::attach(|py| {
            let class = py.import("mcp_roots._errors")?.getattr("PatternError")?;
            let exc = class.call1((err.to_string(), err.pattern(), err.message()))?;
            Ok::<_, PyErr>(PyErr::from_value(exc))
        })
        .unwrap_or_else(|e| e)
    })
}

/// The operation's name as the tool results and the Rust glue write it.
pub(crate) fn operation(op: mcp_roots::Operation) -> String {
    format!("{op:?}").to_lowercase()
}

/// Runs a library call, converting its error.
pub(crate) trait IntoPy<T> {
    fn py(self) -> PyResult<T>;
}

impl<T> IntoPy<T> for Result<T, mcp_roots::Error> {
    fn py(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}

impl<T> IntoPy<T> for Result<T, io::Error> {
    fn py(self) -> PyResult<T> {
        self.map_err(io_to_py)
    }
}
