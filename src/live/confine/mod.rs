//! [`confine_process`]: the kernel keeps the ceiling too (Landlock, on
//! Linux), for the whole process and for good.

mod error;
mod mode;
mod report;

use std::io;
use std::sync::Arc;

pub use error::{ConfinementError, ConfinementErrorKind};
pub use mode::ParseConfinementError;
pub use report::{ConfinedDirectory, ConfinementReport, Enforcement};

use crate::live::roots::Roots;
use crate::options::hardening::Writes;
use crate::root::Root;
use crate::sys::{self, Floor, Grant};

/// How hard [`confine_process`] insists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Confinement {
    /// Enforce what the kernel supports and say in the report what it does
    /// not (nothing at all off Linux or without Landlock, where only
    /// Linux's `PR_SET_NO_NEW_PRIVS` is set). Never fails for lack of
    /// support.
    #[default]
    BestEffort,
    /// Landlock ABI 3 or later (so that renames and links across
    /// directories and truncation are judged too) and a process with one
    /// thread, else an error and no change.
    Required,
}

/// **Confines the whole process, irreversibly, to the operator ceiling of
/// `roots`**: from this call on, the kernel itself refuses every file
/// opened, created, removed, renamed, linked or truncated outside the
/// ceiling directories, whoever asks: the library, a tool body that uses
/// `std::fs`, a dependency. Read and write stay possible beneath the
/// writable ceiling directories, read only beneath the read-only ones
/// (all of them under [`Writes::Refuse`]); nothing can be executed
/// anywhere. Outside the ceiling the process keeps exactly the
/// [allowances](ConfinementReport::allowances) the library needs itself.
///
/// The rules follow the directories the ceiling pinned when `roots` was
/// built (their handles), not whatever their paths name later. A ceiling
/// directory that was missing grants nothing.
///
/// The area the user may be asked about ([`RootsBuilder::ask_within`](crate::RootsBuilder::ask_within))
/// is in the rules from the start, as admitted (writable, or read-only
/// beneath a read-only ceiling directory): Landlock cannot widen later, so
/// a grant made after confinement is reachable. With `ask_within` and no
/// ceiling directory, the area alone is what the process may reach.
///
/// # When to call it
///
/// Once, early, from a plain `fn main`:
///
/// 1. **after** everything outside the ceiling that the process needs is
///    open or read: configuration, TLS certificates, listening sockets,
///    the log file, and values such as
///    [`std::thread::available_parallelism`] (which reads cgroup files);
/// 2. **before** any thread is started: Landlock confines the calling
///    thread and the threads it creates afterwards, never a thread that
///    already runs. `#[tokio::main]` starts the runtime's workers before
///    `main`'s body runs, and tool bodies run on them and on the blocking
///    pool; so build the runtime by hand after this call
///    (`tokio::runtime::Builder::new_multi_thread()`).
///
/// ```no_run
/// use mcp_roots::{Confinement, Roots, confine_process};
///
/// fn main() -> Result<(), Box<dyn std::error::Error>> {
///     let policy = Roots::builder().ceiling(["/srv/notes"]);
///     let workers = std::thread::available_parallelism()?.get();
///     let report = confine_process(&policy.clone().build(), Confinement::Required)?;
///     eprintln!("{report}");
///     // Only now the runtime, by hand, with `workers` worker threads (they
///     // are confined from birth); each session's `Roots` is built from
///     // `policy`.
///     # let _ = workers;
///     Ok(())
/// }
/// ```
///
/// What the kernel cannot hold (the policy's hide and read-only patterns,
/// hard links inside the ceiling, `stat` and existence outside it, the
/// network) stays the library's job: see the report's
/// [`not_enforced`](ConfinementReport::not_enforced) and SECURITY.md's
/// "The second wall".
///
/// # Errors
///
/// Nothing is changed when it fails (except `PR_SET_NO_NEW_PRIVS`, which
/// the kernel requires first and which may already be set):
///
/// - [`NoCeiling`](ConfinementErrorKind::NoCeiling): `roots` has no
///   operator ceiling, so there is nothing to confine to;
/// - under [`Confinement::Required`]: [`Unsupported`](ConfinementErrorKind::Unsupported)
///   without Landlock ABI 3 (other platforms, older kernels, Landlock
///   disabled, a seccomp filter), [`Threads`](ConfinementErrorKind::Threads)
///   when the process already has more than one thread (or their number
///   cannot be read);
/// - [`Kernel`](ConfinementErrorKind::Kernel): the kernel refused a rule or
///   the restriction.
///
/// # Platform behavior
///
/// Linux 5.13 or later with Landlock enabled, through the best ABI the
/// kernel offers (rights up to ABI 7, the newest this library was tested
/// with). Everywhere else the report says
/// [`Enforcement::Unsupported`] and nothing changes (best effort), or the
/// call fails (required).
pub fn confine_process(
    roots: &Roots,
    mode: Confinement,
) -> Result<ConfinementReport, ConfinementError> {
    let Some(ceiling) = roots.ceiling() else {
        return Err(ConfinementError::new(
            ConfinementErrorKind::NoCeiling,
            "the roots have no operator ceiling: there is nothing to confine the process to",
            None,
        ));
    };
    let threads = match sys::threads() {
        Ok(n) => Some(n),
        Err(err) if err.kind() == io::ErrorKind::Unsupported => None,
        Err(err) if mode == Confinement::Required => {
            return Err(ConfinementError::new(
                ConfinementErrorKind::Threads,
                "cannot tell whether the process has one thread",
                Some(err),
            ));
        }
        Err(_) => None,
    };
    if let (Some(n @ 2..), Confinement::Required) = (threads, mode) {
        return Err(ConfinementError::new(
            ConfinementErrorKind::Threads,
            format!(
                "the process has {n} threads: the {} started before confinement would stay \
                 free (confine before any thread or runtime starts)",
                n - 1
            ),
            None,
        ));
    }
    // The area the user may be asked about is the kernel's from the start
    // (Landlock cannot widen later): a grant there is reachable.
    let area = roots.ask_area().map_or(&[][..], |area| area.roots());
    let dirs: Vec<&Arc<Root>> = ceiling.roots().iter().chain(area).collect();
    let grants: Vec<Grant<'_>> = dirs
        .iter()
        .map(|root| Grant {
            dir: &root.dir,
            write: root.writes() == Writes::Allow,
        })
        .collect();
    let floor = match mode {
        Confinement::BestEffort => Floor::BestEffort,
        Confinement::Required => Floor::Abi3,
    };
    let restricted = sys::restrict(&grants, floor).map_err(|err| {
        let (kind, what) = match err.kind() {
            io::ErrorKind::Unsupported => (
                ConfinementErrorKind::Unsupported,
                "the kernel cannot confine the process as required (Landlock ABI 3 or later)",
            ),
            _ => (
                ConfinementErrorKind::Kernel,
                "the kernel refused the confinement",
            ),
        };
        ConfinementError::new(kind, what, Some(err))
    })?;
    let report = ConfinementReport::new(&dirs, restricted, threads, sys::ALLOWANCES);
    match report.enforcement() {
        Enforcement::Full => tracing::info!(%report, "process confined to the ceiling"),
        Enforcement::Partial => {
            tracing::warn!(%report, "process confined to the ceiling, in part")
        }
        Enforcement::Unsupported => {
            tracing::warn!(%report, "process not confined: the kernel cannot")
        }
    }
    Ok(report)
}
