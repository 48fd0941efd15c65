//! `mcp_roots._core`: the extension module of the Python package
//! `mcp_roots`. Conversions only: every decision is the Rust crate's.

mod confine;
mod errors;
mod file;
mod grants;
mod ops;
mod roots;
mod values;
mod watch;

use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<roots::PyRoots>()?;
    m.add_class::<roots::PyRootSet>()?;
    m.add_class::<roots::PyReport>()?;
    m.add_class::<roots::PyRevoked>()?;
    m.add_class::<roots::PyRootInfo>()?;
    m.add_class::<grants::PyAskAbout>()?;
    m.add_class::<grants::PyGrant>()?;
    m.add_class::<values::PyRejected>()?;
    m.add_class::<values::PyScopedPath>()?;
    m.add_class::<values::PyDirEntry>()?;
    m.add_class::<values::PyWalkEntry>()?;
    m.add_class::<values::PyWalk>()?;
    m.add_class::<values::PyStat>()?;
    m.add_class::<file::RawFile>()?;
    m.add_class::<watch::PyWatchGuard>()?;
    m.add_class::<watch::PyScopeEvent>()?;
    m.add_function(wrap_pyfunction!(confine::confine, m)?)?;
    let reasons: Vec<&str> = mcp_roots::ErrorKind::ALL
        .iter()
        .map(|k| k.reason())
        .collect();
    m.add("REASONS", reasons)?;
    Ok(())
}
