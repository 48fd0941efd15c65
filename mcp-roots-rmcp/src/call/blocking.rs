//! File work on tokio's blocking pool: the one place where a task that did
//! not finish becomes an [`Error`].

use mcp_roots::{Error, ErrorKind, Operation, Roots, Snapshot};

/// Runs blocking `work` on tokio's blocking pool.
///
/// # Errors
///
/// `io` if `work` panicked (the panic is logged; the tool call still gets
/// an answer) or if the runtime is shutting down.
pub(crate) async fn blocking<T, F>(work: F) -> Result<T, Error>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    // The caller's span (the tool call's) goes along, so that what the
    // work logs, the library's denials included, names the call.
    let span = tracing::Span::current();
    let work = move || span.in_scope(work);
    tokio::task::spawn_blocking(work).await.map_err(|join| {
        let detail = if join.is_panic() {
            tracing::error!(error = %join, "file work panicked");
            "the server's file work failed"
        } else {
            "the runtime is shutting down"
        };
        Error::new(ErrorKind::Io, Operation::Use, "").with_detail(detail)
    })
}

/// Runs short blocking `work` (microseconds: an open, a read of a small
/// file) where it is, on the async thread, as `std::fs` in an async fn
/// would: no thread hop. A panic becomes an error, as on the pool.
///
/// # Errors
///
/// `io` if `work` panicked (logged).
pub(crate) fn inline<T>(work: impl FnOnce() -> T) -> Result<T, Error> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).map_err(|_| {
        tracing::error!("file work panicked");
        Error::new(ErrorKind::Io, Operation::Use, "").with_detail("the server's file work failed")
    })
}

/// Runs blocking file work against the current set of `roots` (one
/// [`Roots::load`] for the whole of `work`), on tokio's blocking pool. For
/// roots that are not a session's, such as the request-scoped ones of
/// [`SessionRoots::request_roots`](crate::SessionRoots::request_roots);
/// a session's go through [`SessionRoots::run`](crate::SessionRoots::run),
/// which also waits for the client's first answer.
///
/// # Errors
///
/// `io` if `work` panicked (logged) or the runtime is shutting down;
/// whatever `work` returns.
pub async fn run_blocking<T, F>(roots: &Roots, work: F) -> Result<T, Error>
where
    T: Send + 'static,
    F: FnOnce(&Snapshot<'_>) -> Result<T, Error> + Send + 'static,
{
    let roots = roots.clone();
    blocking(move || work(&roots.load())).await?
}
