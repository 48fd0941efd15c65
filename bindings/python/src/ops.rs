//! The operations, the same on live `Roots` (through one snapshot per call,
//! files tracked) and on a fixed `RootSet` (files untracked): one macro
//! writes both method tables, each call a conversion around one library
//! call made without the GIL.

use pyo3::prelude::*;

/// A path argument (`str` or `os.PathLike[str]`) as the library's input
/// string. Bytes are refused (`TypeError`): the library takes text. A `str`
/// that is not valid Unicode (a lone surrogate, or a surrogate escape of a
/// byte that is not UTF-8) cannot be UTF-8 either: the library's
/// `invalid_uri`, as the core classifies bytes that are not UTF-8.
pub(crate) fn input(path: &Bound<'_, PyAny>) -> PyResult<String> {
    text_arg("path", path)
}

/// [`input`] for the argument `what` (a path, a root).
pub(crate) fn text_arg(what: &str, path: &Bound<'_, PyAny>) -> PyResult<String> {
    use pyo3::types::{PyString, PyStringMethods};
    let text = match path.cast::<PyString>() {
        Ok(text) => text.clone(),
        Err(_) => {
            let fspath = path.py().import("os")?.getattr("fspath")?.call1((path,));
            match fspath.as_ref().map(|p| p.cast::<PyString>()) {
                Ok(Ok(text)) => text.clone(),
                _ => {
                    let kind = path.get_type().name()?;
                    return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                        "{what} must be a str or an os.PathLike returning str, not {kind}"
                    )));
                }
            }
        }
    };
    match text.to_str() {
        Ok(text) => Ok(text.to_owned()),
        Err(_) => Err(crate::errors::to_py(
            mcp_roots::Error::new(
                mcp_roots::ErrorKind::InvalidUri,
                mcp_roots::Operation::Parse,
                &text.to_string_lossy(),
            )
            .with_detail("the path is not valid UTF-8"),
        )),
    }
}

/// The open options of the raw layer's flags (the pure-Python `open`
/// parses the mode string into them).
pub(crate) fn open_options(
    read: bool,
    write: bool,
    append: bool,
    truncate: bool,
    create: &str,
) -> PyResult<mcp_roots::OpenOptions> {
    let create = match create {
        "no" => mcp_roots::Create::No,
        "new" => mcp_roots::Create::New,
        "or_open" => mcp_roots::Create::OrOpen,
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "create must be 'no', 'new' or 'or_open', not {other:?}"
            )));
        }
    };
    Ok(mcp_roots::OpenOptions::new()
        .read(read)
        .write(write)
        .append(append)
        .truncate(truncate)
        .create(create))
}

/// UTF-8 bytes as `str`, or Python's own `UnicodeDecodeError`.
pub(crate) fn decode(py: Python<'_>, bytes: Vec<u8>) -> PyResult<Bound<'_, PyAny>> {
    match String::from_utf8(bytes) {
        Ok(text) => Ok(pyo3::types::PyString::new(py, &text).into_any()),
        Err(e) => pyo3::types::PyBytes::new(py, e.as_bytes()).call_method1("decode", ("utf-8",)),
    }
}

/// Writes the operations' `#[pymethods]` for `$ty`, whose `$scope(self)`
/// gives what the operations run on and whose `$file` wraps an opened file.
macro_rules! operations {
    ($ty:ty, |$this:ident| $scope:expr, $file:path) => {
        #[pymethods]
        impl $ty {
            // The methods' bodies use `crate::errors::IntoPy`.
            /// Opens a file beneath a root: `mode` as the built-in `open`
            /// (`r`, `w`, `x`, `a`, `+`, `b`, `t`); text is UTF-8 unless
            /// `encoding` says otherwise.
            #[pyo3(signature = (path, mode = "r", encoding = None, errors = None, newline = None))]
            fn open<'py>(
                slf: &Bound<'py, Self>,
                path: &Bound<'py, PyAny>,
                mode: &str,
                encoding: Option<&str>,
                errors: Option<&str>,
                newline: Option<&str>,
            ) -> PyResult<Bound<'py, PyAny>> {
                slf.py()
                    .import("mcp_roots._file")?
                    .call_method1("open_file", (slf, path, mode, encoding, errors, newline))
            }

            /// The raw layer of `open`: the flags parsed from its mode
            /// (read, write, append, truncate, create).
            fn _open(
                &self,
                py: Python<'_>,
                path: &Bound<'_, PyAny>,
                flags: (bool, bool, bool, bool, String),
            ) -> PyResult<crate::file::RawFile> {
                let path = crate::ops::input(path)?;
                let (read, write, append, truncate, create) = flags;
                let options = crate::ops::open_options(read, write, append, truncate, &create)?;
                let $this = self;
                let scope = $scope;
                let file = py.detach(|| scope.open_with(path.as_str(), options)).py()?;
                Ok(crate::file::RawFile::new($file(file), path))
            }

            /// The file's content as bytes.
            fn read_bytes<'py>(
                &self,
                py: Python<'py>,
                path: &Bound<'_, PyAny>,
            ) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
                let path = crate::ops::input(path)?;
                let $this = self;
                let scope = $scope;
                let data = py.detach(|| scope.read(path.as_str())).py()?;
                Ok(pyo3::types::PyBytes::new(py, &data))
            }

            /// The file's content as UTF-8 text.
            fn read_text<'py>(
                &self,
                py: Python<'py>,
                path: &Bound<'_, PyAny>,
            ) -> PyResult<Bound<'py, PyAny>> {
                let path = crate::ops::input(path)?;
                let $this = self;
                let scope = $scope;
                let data = py.detach(|| scope.read(path.as_str())).py()?;
                crate::ops::decode(py, data)
            }

            /// Replaces (or creates) the file with `data`, atomically.
            fn write_bytes(
                &self,
                py: Python<'_>,
                path: &Bound<'_, PyAny>,
                data: Vec<u8>,
            ) -> PyResult<()> {
                let path = crate::ops::input(path)?;
                let $this = self;
                let scope = $scope;
                py.detach(|| scope.write_atomic(path.as_str(), &data)).py()
            }

            /// Replaces (or creates) the file with `text` as UTF-8, atomically.
            fn write_text(
                &self,
                py: Python<'_>,
                path: &Bound<'_, PyAny>,
                text: &str,
            ) -> PyResult<()> {
                let path = crate::ops::input(path)?;
                let $this = self;
                let scope = $scope;
                let data = text.as_bytes();
                py.detach(|| scope.write_atomic(path.as_str(), data)).py()
            }

            /// The directory's entries (unsorted, as the system lists them).
            fn list_dir(
                &self,
                py: Python<'_>,
                path: &Bound<'_, PyAny>,
            ) -> PyResult<Vec<crate::values::PyDirEntry>> {
                let path = crate::ops::input(path)?;
                let $this = self;
                let scope = $scope;
                py.detach(|| {
                    scope
                        .read_dir(path.as_str())?
                        .map(|e| e.map(|e| crate::values::PyDirEntry::new(&e)))
                        .collect::<Result<Vec<_>, mcp_roots::Error>>()
                })
                .py()
            }

            /// A depth-first walk of the directory within the limits.
            #[pyo3(signature = (path, max_depth, max_entries))]
            fn walk(
                &self,
                py: Python<'_>,
                path: &Bound<'_, PyAny>,
                max_depth: usize,
                max_entries: usize,
            ) -> PyResult<crate::values::PyWalk> {
                let path = crate::ops::input(path)?;
                let limits = mcp_roots::WalkLimits::new(max_depth, max_entries);
                let $this = self;
                let scope = $scope;
                let collected = py
                    .detach(|| {
                        scope
                            .walk(path.as_str(), limits)
                            .map(crate::values::PyWalk::collect)
                    })
                    .py()?;
                collected.into_py(py)
            }

            /// Metadata of the file or directory (symlinks followed beneath the root).
            fn stat(
                &self,
                py: Python<'_>,
                path: &Bound<'_, PyAny>,
            ) -> PyResult<crate::values::PyStat> {
                let path = crate::ops::input(path)?;
                let $this = self;
                let scope = $scope;
                py.detach(|| scope.metadata(path.as_str()))
                    .py()
                    .map(|m| crate::values::PyStat::new(&m))
            }

            /// Creates a directory (with its missing parents if `parents`).
            #[pyo3(signature = (path, parents = false))]
            fn mkdir(
                &self,
                py: Python<'_>,
                path: &Bound<'_, PyAny>,
                parents: bool,
            ) -> PyResult<()> {
                let path = crate::ops::input(path)?;
                let $this = self;
                let scope = $scope;
                py.detach(|| {
                    if parents {
                        scope.create_dir_all(path.as_str())
                    } else {
                        scope.create_dir(path.as_str())
                    }
                })
                .py()
            }

            /// Removes a file (`dir=True`: an empty directory).
            #[pyo3(signature = (path, dir = false))]
            fn remove(&self, py: Python<'_>, path: &Bound<'_, PyAny>, dir: bool) -> PyResult<()> {
                let path = crate::ops::input(path)?;
                let $this = self;
                let scope = $scope;
                py.detach(|| {
                    if dir {
                        scope.remove_dir(path.as_str())
                    } else {
                        scope.remove_file(path.as_str())
                    }
                })
                .py()
            }

            /// Renames `src` to `dst`, never over an existing `dst` unless
            /// `replace`.
            #[pyo3(signature = (src, dst, replace = false))]
            fn rename(
                &self,
                py: Python<'_>,
                src: &Bound<'_, PyAny>,
                dst: &Bound<'_, PyAny>,
                replace: bool,
            ) -> PyResult<()> {
                let (src, dst) = (crate::ops::input(src)?, crate::ops::input(dst)?);
                let overwrite = if replace {
                    mcp_roots::Overwrite::Replace
                } else {
                    mcp_roots::Overwrite::Refuse
                };
                let $this = self;
                let scope = $scope;
                py.detach(|| scope.rename_with(src.as_str(), dst.as_str(), overwrite))
                    .py()
            }

            /// Copies the regular file `src` to the new name `dst`; returns
            /// the bytes copied.
            fn copy(
                &self,
                py: Python<'_>,
                src: &Bound<'_, PyAny>,
                dst: &Bound<'_, PyAny>,
            ) -> PyResult<u64> {
                let (src, dst) = (crate::ops::input(src)?, crate::ops::input(dst)?);
                let $this = self;
                let scope = $scope;
                py.detach(|| scope.copy(src.as_str(), dst.as_str())).py()
            }

            /// The path resolved beneath its root (`.to_uri()` names it).
            fn resolve(
                &self,
                py: Python<'_>,
                path: &Bound<'_, PyAny>,
            ) -> PyResult<crate::values::PyScopedPath> {
                let path = crate::ops::input(path)?;
                let $this = self;
                let scope = $scope;
                py.detach(|| scope.resolve(path.as_str()))
                    .py()
                    .map(crate::values::PyScopedPath::new)
            }
        }
    };
}

pub(crate) use operations;
