//! `Roots.watch`: the crate's watcher (`Roots::watch`) behind a guard that
//! is a context manager. The callback runs on the watcher's thread, which
//! takes the GIL for it; the guard's drop joins that thread, so it is
//! never dropped while holding the GIL (`close` releases it first), never
//! on the watcher's own thread (a `close` from inside the callback hands it
//! to a thread of its own), and never in a deallocation (which holds the
//! GIL: the guard goes to a thread of its own).

use std::sync::{Arc, Mutex, OnceLock};
use std::thread::ThreadId;

use pyo3::prelude::*;

use crate::errors::IntoPy;

/// What the watcher noticed: `kind` is `"root_gone"`, `"root_back"`,
/// `"handle_revoked"`, `"overflow"` or `"degraded"`.
#[pyclass(module = "mcp_roots._core", name = "ScopeEvent", frozen, get_all)]
pub(crate) struct PyScopeEvent {
    kind: &'static str,
    /// The root's URI as the client gave it (`root_gone`, `root_back`).
    uri: Option<String>,
    /// The path below its root a revoked handle was opened as
    /// (`handle_revoked`), or the directory that could not be watched
    /// (`degraded`).
    path: Option<String>,
    /// Why the handle was revoked (`handle_revoked`: `"scope_lost"`).
    reason: Option<&'static str>,
    /// What failed (`degraded`).
    detail: Option<String>,
}

impl PyScopeEvent {
    fn new(event: mcp_roots::ScopeEvent) -> Self {
        use mcp_roots::ScopeEvent as E;
        let mut out = Self {
            kind: "overflow",
            uri: None,
            path: None,
            reason: None,
            detail: None,
        };
        match event {
            E::RootGone { uri, .. } => (out.kind, out.uri) = ("root_gone", Some(uri)),
            E::RootBack { uri, .. } => (out.kind, out.uri) = ("root_back", Some(uri)),
            E::HandleRevoked { path, reason, .. } => {
                (out.kind, out.path, out.reason) =
                    ("handle_revoked", Some(path), Some(reason.reason()))
            }
            E::Degraded { dir, detail } => {
                out.kind = "degraded";
                out.path = Some(dir.to_string_lossy().into_owned());
                out.detail = Some(detail);
            }
            _ => {}
        }
        out
    }
}

#[pymethods]
impl PyScopeEvent {
    fn __repr__(&self) -> String {
        let what = self.uri.as_deref().or(self.path.as_deref()).unwrap_or("");
        format!("ScopeEvent({:?}, {what:?})", self.kind)
    }
}

/// A running watcher; `close()` (or leaving the `with` block) stops it.
#[pyclass(module = "mcp_roots._core", name = "WatchGuard", frozen)]
pub(crate) struct PyWatchGuard {
    guard: Mutex<Option<mcp_roots::WatchGuard>>,
    /// The watcher's thread, known from its first callback.
    thread: Arc<OnceLock<ThreadId>>,
}

impl PyWatchGuard {
    /// Starts the watcher of `roots`; `callback(event)` for each event.
    pub(crate) fn start(
        py: Python<'_>,
        roots: &mcp_roots::Roots,
        callback: Option<Py<PyAny>>,
    ) -> PyResult<Self> {
        let thread = Arc::new(OnceLock::new());
        let seen = thread.clone();
        let on_event = move |event: mcp_roots::ScopeEvent| {
            let _ = seen.set(std::thread::current().id());
            if let Some(callback) = &callback {
                Python::attach(|py| {
                    let event = Py::new(py, PyScopeEvent::new(event));
                    if let Err(err) = event.and_then(|e| callback.call1(py, (e,))) {
                        err.write_unraisable(py, Some(callback.bind(py)));
                    }
                });
            }
        };
        let guard = py.detach(|| roots.watch(on_event)).py()?;
        Ok(Self {
            guard: Mutex::new(Some(guard)),
            thread,
        })
    }

    fn take(&self) -> Option<mcp_roots::WatchGuard> {
        self.guard.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// Drops a guard on a thread of its own (it joins the watcher's thread,
/// which may be waiting for the GIL or be the current thread).
fn drop_elsewhere(guard: mcp_roots::WatchGuard) {
    let _ = std::thread::Builder::new()
        .name("mcp-roots-unwatch".into())
        .spawn(move || drop(guard));
}

#[pymethods]
impl PyWatchGuard {
    /// Stops the watcher; when it returns (outside the callback) no
    /// callback runs any more. From inside the callback, the watcher stops
    /// once the callback returns. Closing twice does nothing.
    fn close(&self, py: Python<'_>) {
        let Some(guard) = self.take() else { return };
        if self.thread.get() == Some(&std::thread::current().id()) {
            drop_elsewhere(guard);
        } else {
            py.detach(move || drop(guard));
        }
    }

    /// Whether `close()` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.guard
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_none()
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&self, py: Python<'_>, _exc: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.close(py);
        false
    }

    fn __repr__(&self) -> String {
        format!("<mcp_roots.WatchGuard closed={}>", self.closed())
    }
}

impl Drop for PyWatchGuard {
    fn drop(&mut self) {
        if let Some(guard) = self.take() {
            drop_elsewhere(guard);
        }
    }
}
