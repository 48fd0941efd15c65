//! `roots.watch(callback?)`: the crate's watcher (`Roots::watch`) behind a
//! `Watcher` whose `close()` stops it. Events reach the callback through a
//! thread-safe function that is unreferenced (it never keeps the process
//! alive) and called without blocking (the watcher's thread never waits
//! for the event loop, so `close()` on the event loop, which joins that
//! thread, cannot deadlock, from inside the callback either).

use std::sync::Mutex;

use napi::bindgen_prelude::*;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;

use crate::errors::IntoNapi;

/// What the watcher noticed.
#[napi(object)]
pub struct ScopeEvent {
    /// `"root_gone"`, `"root_back"`, `"handle_revoked"`, `"overflow"` or
    /// `"degraded"`.
    pub kind: String,
    /// The root's URI as the client gave it (`root_gone`, `root_back`).
    pub uri: Option<String>,
    /// The path below its root a revoked handle was opened as
    /// (`handle_revoked`), or the directory that could not be watched
    /// (`degraded`).
    pub path: Option<String>,
    /// Why the handle was revoked (`handle_revoked`: `"scope_lost"`).
    pub reason: Option<String>,
    /// What failed (`degraded`).
    pub detail: Option<String>,
}

impl ScopeEvent {
    fn new(event: mcp_roots::ScopeEvent) -> Self {
        use mcp_roots::ScopeEvent as E;
        let mut out = Self {
            kind: "overflow".into(),
            uri: None,
            path: None,
            reason: None,
            detail: None,
        };
        match event {
            E::RootGone { uri, .. } => (out.kind, out.uri) = ("root_gone".into(), Some(uri)),
            E::RootBack { uri, .. } => (out.kind, out.uri) = ("root_back".into(), Some(uri)),
            E::HandleRevoked { path, reason, .. } => {
                out.kind = "handle_revoked".into();
                out.path = Some(path);
                out.reason = Some(reason.reason().into());
            }
            E::Degraded { dir, detail } => {
                out.kind = "degraded".into();
                out.path = Some(dir.to_string_lossy().into_owned());
                out.detail = Some(detail);
            }
            _ => {}
        }
        out
    }
}

/// The callback as the watcher's thread calls it: unreferenced, errors not
/// passed as a first argument.
type Callback = ThreadsafeFunction<ScopeEvent, (), ScopeEvent, Status, false, true>;

/// A running watcher; `close()` stops it (and so does its collection).
#[napi]
pub struct Watcher {
    guard: Mutex<Option<mcp_roots::WatchGuard>>,
}

impl Watcher {
    pub(crate) fn start(
        roots: &mcp_roots::Roots,
        callback: Option<Function<'_, ScopeEvent, ()>>,
    ) -> napi::Result<Self> {
        let callback: Option<Callback> = match callback {
            Some(f) => Some(
                f.build_threadsafe_function::<ScopeEvent>()
                    .callee_handled::<false>()
                    .weak::<true>()
                    .build()?,
            ),
            None => None,
        };
        let guard = roots
            .watch(move |event| {
                if let Some(callback) = &callback {
                    callback.call(
                        ScopeEvent::new(event),
                        ThreadsafeFunctionCallMode::NonBlocking,
                    );
                }
            })
            .napi()?;
        Ok(Self {
            guard: Mutex::new(Some(guard)),
        })
    }
}

#[napi]
impl Watcher {
    /// Stops the watcher: no event is queued for the callback after it
    /// returns (the JavaScript layer drops those already queued). Closing
    /// twice does nothing.
    #[napi]
    pub fn close(&self) {
        let guard = self.guard.lock().unwrap_or_else(|e| e.into_inner()).take();
        drop(guard);
    }

    /// Whether `close()` was called.
    #[napi(getter)]
    pub fn closed(&self) -> bool {
        self.guard
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_none()
    }
}
