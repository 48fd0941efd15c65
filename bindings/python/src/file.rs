//! The file object's raw layer: reads, writes and seeks go through the
//! library's handle (a `TrackedFile` from live roots, so a revoked file
//! fails on its next use; a plain `File` from a fixed set). The pure-Python
//! `mcp_roots._file` adds text, buffering and the context manager.

use std::io::{Read, Seek, SeekFrom, Write};
use std::sync::Mutex;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::values::{PyScopedPath, PyStat};

/// The handle behind a file object.
pub(crate) enum Handle {
    Tracked(mcp_roots::TrackedFile),
    Plain(std::fs::File),
}

impl Handle {
    fn io(&mut self) -> &mut dyn ReadWriteSeek {
        match self {
            Self::Tracked(f) => f,
            Self::Plain(f) => f,
        }
    }
}

trait ReadWriteSeek: Read + Write + Seek {}
impl<T: Read + Write + Seek> ReadWriteSeek for T {}

/// Why a file call failed, held until the GIL is back.
enum Failure {
    Ours(mcp_roots::Error),
    Io(std::io::Error),
    Closed,
    Untracked,
}

impl Failure {
    fn into_py(self) -> PyErr {
        match self {
            Self::Ours(e) => crate::errors::to_py(e),
            Self::Io(e) => crate::errors::io_to_py(e),
            Self::Closed => PyValueError::new_err("I/O operation on closed file"),
            Self::Untracked => PyValueError::new_err(
                "a file of a fixed RootSet is not tracked: use RootSet.resolve",
            ),
        }
    }
}

impl From<mcp_roots::Error> for Failure {
    fn from(e: mcp_roots::Error) -> Self {
        Self::Ours(e)
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Self::Io(e)
    }
}

/// An open file beneath a root (the raw layer of `mcp_roots.open`).
#[pyclass(module = "mcp_roots._core", name = "RawFile", frozen)]
pub(crate) struct RawFile {
    handle: Mutex<Option<Handle>>,
    /// The input it was opened as.
    #[pyo3(get)]
    name: String,
}

impl RawFile {
    pub(crate) fn new(handle: Handle, name: String) -> Self {
        Self {
            handle: Mutex::new(Some(handle)),
            name,
        }
    }

    /// Runs `f` on the open handle without the GIL; its error becomes a
    /// Python exception after the GIL is back (never while the handle's
    /// lock is held: a thread holding the GIL may be waiting for it).
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Handle) -> Result<T, Failure> + Send,
    ) -> PyResult<T> {
        py.detach(|| {
            let mut guard = self.handle.lock().unwrap_or_else(|e| e.into_inner());
            match guard.as_mut() {
                Some(handle) => f(handle),
                None => Err(Failure::Closed),
            }
        })
        .map_err(Failure::into_py)
    }
}

#[pymethods]
impl RawFile {
    /// Reads up to `size` bytes (all that is left for a negative size).
    #[pyo3(signature = (size = -1))]
    fn read<'py>(&self, py: Python<'py>, size: isize) -> PyResult<Bound<'py, PyBytes>> {
        let data = self.with(py, |h| {
            let mut buf = Vec::new();
            if size < 0 {
                h.io().read_to_end(&mut buf)?;
            } else {
                buf.resize(size as usize, 0);
                let n = h.io().read(&mut buf)?;
                buf.truncate(n);
            }
            Ok(buf)
        })?;
        Ok(PyBytes::new(py, &data))
    }

    /// Writes all of `data`; returns its length.
    fn write(&self, py: Python<'_>, data: Vec<u8>) -> PyResult<usize> {
        self.with(py, |h| {
            h.io().write_all(&data)?;
            Ok(data.len())
        })
    }

    /// Moves the position (`whence` 0, 1 or 2, as `os.SEEK_*`).
    #[pyo3(signature = (offset, whence = 0))]
    fn seek(&self, py: Python<'_>, offset: i64, whence: u8) -> PyResult<u64> {
        let pos = match whence {
            0 => SeekFrom::Start(
                u64::try_from(offset)
                    .map_err(|_| PyValueError::new_err("negative seek position"))?,
            ),
            1 => SeekFrom::Current(offset),
            2 => SeekFrom::End(offset),
            _ => return Err(PyValueError::new_err("whence must be 0, 1 or 2")),
        };
        self.with(py, |h| Ok(h.io().seek(pos)?))
    }

    /// The current position.
    fn tell(&self, py: Python<'_>) -> PyResult<u64> {
        self.with(py, |h| Ok(h.io().stream_position()?))
    }

    /// Flushes and syncs nothing (the raw layer has no buffer); kept for the
    /// revocation check: it fails on a revoked handle.
    fn flush(&self, py: Python<'_>) -> PyResult<()> {
        self.with(py, |h| Ok(h.io().flush()?))
    }

    /// Fails with the revocation's reason if the handle was revoked.
    fn check(&self, py: Python<'_>) -> PyResult<()> {
        let name = self.name.clone();
        self.with(py, move |h| match h {
            Handle::Tracked(f) => match f.revoked() {
                Some(kind) => {
                    Err(mcp_roots::Error::new(kind, mcp_roots::Operation::Use, &name).into())
                }
                None => Ok(()),
            },
            Handle::Plain(_) => Ok(()),
        })
    }

    /// Metadata from the open descriptor.
    fn stat(&self, py: Python<'_>) -> PyResult<PyStat> {
        self.with(py, |h| match h {
            Handle::Tracked(f) => Ok(PyStat::new(&f.metadata()?)),
            Handle::Plain(f) => Ok(PyStat::new(&f.metadata()?)),
        })
    }

    /// Where the file is now, relative to its root (tracked files only).
    fn path(&self, py: Python<'_>) -> PyResult<PyScopedPath> {
        self.with(py, |h| match h {
            Handle::Tracked(f) => Ok(PyScopedPath::new(f.path()?)),
            Handle::Plain(_) => Err(Failure::Untracked),
        })
    }

    /// The revocation's reason, or None.
    #[getter]
    fn revoked(&self) -> Option<&'static str> {
        let guard = self.handle.lock().unwrap_or_else(|e| e.into_inner());
        match guard.as_ref() {
            Some(Handle::Tracked(f)) => f.revoked().map(|k| k.reason()),
            _ => None,
        }
    }

    /// Closes the descriptor (a tracked one leaves the registry).
    fn close(&self) {
        self.handle.lock().unwrap_or_else(|e| e.into_inner()).take();
    }

    #[getter]
    fn closed(&self) -> bool {
        self.handle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_none()
    }
}
