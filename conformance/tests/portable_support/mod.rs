//! Helpers for the `portable_*` tests: which resolution path this process
//! takes, operations bounded in time, and small fixture trees.

#![allow(dead_code)] // each test binary uses a different subset

use std::sync::mpsc;
use std::time::Duration;

use mcp_roots::Error;

/// The variable the `no-openat2` launcher sets for the command it runs.
pub(crate) const LAUNCHER_MARKER: &str = "MCP_ROOTS_NO_OPENAT2";

/// Whether this process runs under the `no-openat2` launcher.
pub(crate) fn under_launcher() -> bool {
    std::env::var_os(LAUNCHER_MARKER).is_some()
}

/// Whether the kernel answers `openat2` (false before Linux 5.6, or under a
/// seccomp filter such as the launcher's).
pub(crate) fn openat2_available() -> bool {
    use rustix::fs::{Mode, OFlags, ResolveFlags};
    let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
    rustix::fs::openat2(
        rustix::fs::CWD,
        ".",
        flags,
        Mode::empty(),
        ResolveFlags::BENEATH,
    )
    .map_or_else(|e| e != rustix::io::Errno::NOSYS, |_| true)
}

/// Which resolution path the library takes in this process, for messages.
pub(crate) fn path_name() -> &'static str {
    if openat2_available() {
        "openat2"
    } else {
        "portable"
    }
}

/// How long one operation may take before it counts as blocked.
const PATIENCE: Duration = Duration::from_secs(10);

/// Runs `op` on another thread and fails the test if it has not returned
/// within [`PATIENCE`], instead of hanging the suite. The FIFOs named in
/// `fifos` are then opened for reading and writing (which releases an
/// open blocked on them), so the stuck thread can finish.
pub(crate) fn bounded<T: Send + 'static>(
    what: &str,
    fifos: &[String],
    op: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(op());
    });
    match receive.recv_timeout(PATIENCE) {
        Ok(value) => value,
        Err(_) => {
            for fifo in fifos {
                let _ = std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open(fifo);
            }
            panic!(
                "{what} blocked for {PATIENCE:?} on the {} path",
                path_name()
            );
        }
    }
}

/// The reason of a result: `"ok"` or the error's reason.
pub(crate) fn reason<T>(result: &Result<T, Error>) -> &'static str {
    match result {
        Ok(_) => "ok",
        Err(e) => e.reason(),
    }
}

/// Makes a FIFO at `path`.
pub(crate) fn mkfifo(path: &str) {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .expect("mkfifo");
}
