//! `confine(roots, required=False)`: the Rust crate's `confine_process`,
//! its report as a dict, its error as `mcp_roots.ConfinementError`.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::roots::PyRoots;

/// Confines the whole process, irreversibly, to the operator ceiling of
/// `roots` (Landlock): best effort, or `required` (Landlock ABI 3+ and a
/// process with one thread, else `ConfinementError` and no change).
#[pyfunction]
#[pyo3(signature = (roots, *, required = false))]
pub(crate) fn confine<'py>(
    py: Python<'py>,
    roots: &PyRoots,
    required: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let mode = if required {
        mcp_roots::Confinement::Required
    } else {
        mcp_roots::Confinement::BestEffort
    };
    let report = match mcp_roots::confine_process(&roots.inner, mode) {
        Ok(report) => report,
        Err(err) => {
            let class = py
                .import("mcp_roots._errors")?
                .getattr("ConfinementError")?;
            return Err(PyErr::from_value(
                class.call1((err.to_string(), err.kind().as_str()))?,
            ));
        }
    };
    let dict = PyDict::new(py);
    dict.set_item("enforcement", report.enforcement().as_str())?;
    dict.set_item("abi", report.abi())?;
    dict.set_item("handled", report.handled().to_vec())?;
    let dirs: Vec<(std::ffi::OsString, bool)> = report
        .directories()
        .iter()
        .map(|d| {
            (
                d.path().as_os_str().to_owned(),
                d.writes() == mcp_roots::Writes::Allow,
            )
        })
        .collect();
    dict.set_item("directories", dirs)?;
    let kept: Vec<(&str, &str, &str)> = report
        .allowances()
        .iter()
        .map(|a| (a.path, a.access, a.why))
        .collect();
    dict.set_item("allowances", kept)?;
    dict.set_item("not_enforced", report.not_enforced().to_vec())?;
    dict.set_item("threads", report.threads())?;
    dict.set_item("text", report.to_string())?;
    Ok(dict)
}
