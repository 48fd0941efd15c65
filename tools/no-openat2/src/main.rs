//! `no-openat2 [--no-landlock] COMMAND [ARGS...]`: runs `COMMAND` with
//! `openat2` removed, the way a kernel before 5.6 (or a container's seccomp
//! profile) removes it; with `--no-landlock`, Landlock's three system calls
//! are removed too, the way a kernel without Landlock (before 5.13, or
//! built or booted without it) answers them.
//!
//! It installs a seccomp filter that answers `ENOSYS` to `openat2` and lets
//! every other system call through, then `exec`s the command, which inherits
//! the filter (and so does everything it starts). `PR_SET_NO_NEW_PRIVS` is
//! set first, as the kernel demands of an unprivileged filter; it also means
//! that set-user-id programs run under the launcher gain no privileges.
//!
//! The command runs with `MCP_ROOTS_NO_OPENAT2=1` in its environment (and
//! `MCP_ROOTS_NO_LANDLOCK=1` with `--no-landlock`), so a test can tell that
//! it is meant to see `ENOSYS` and check that it does.
//!
//! Used as cargo's test runner, every test binary runs through it:
//!
//! ```text
//! CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=target/debug/no-openat2 \
//!     cargo test --workspace --all-features
//! ```
//!
//! Doctests are not run through a runner, so they keep `openat2`.
//!
//! # Platform behavior
//!
//! Linux on x86_64 and aarch64 (where `openat2` is system call 437); on any
//! other architecture or system the launcher refuses to run (exit status 2)
//! rather than run the command with `openat2` still present.

use std::process::ExitCode;

/// The variable the launcher sets for the command it runs.
const MARKER: &str = "MCP_ROOTS_NO_OPENAT2";

/// The variable it also sets with `--no-landlock`.
const LANDLOCK_MARKER: &str = "MCP_ROOTS_NO_LANDLOCK";

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1).peekable();
    let no_landlock = args.next_if(|a| a == "--no-landlock").is_some();
    let Some(program) = args.next() else {
        eprintln!("usage: no-openat2 [--no-landlock] COMMAND [ARGS...]");
        return ExitCode::from(2);
    };
    if let Err(e) = filter::remove(no_landlock) {
        eprintln!("no-openat2: cannot remove the system calls: {e}");
        return ExitCode::from(2);
    }
    let mut command = std::process::Command::new(&program);
    command.args(args).env(MARKER, "1");
    if no_landlock {
        command.env(LANDLOCK_MARKER, "1");
    }
    let error = exec(&mut command);
    eprintln!(
        "no-openat2: cannot run {}: {error}",
        program.to_string_lossy()
    );
    ExitCode::from(127)
}

#[cfg(unix)]
fn exec(command: &mut std::process::Command) -> std::io::Error {
    use std::os::unix::process::CommandExt;
    command.exec()
}

#[cfg(not(unix))]
fn exec(_command: &mut std::process::Command) -> std::io::Error {
    std::io::Error::from(std::io::ErrorKind::Unsupported)
}

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod filter {
    use std::collections::BTreeMap;

    use seccompiler::{BpfProgram, SeccompAction, SeccompFilter, TargetArch};

    /// `openat2`'s number; the same on x86_64 and aarch64 (the number was
    /// allocated across architectures in Linux 5.6).
    const SYS_OPENAT2: i64 = 437;

    /// `landlock_create_ruleset`, `landlock_add_rule` and
    /// `landlock_restrict_self` (Linux 5.13), the same on both
    /// architectures.
    const SYS_LANDLOCK: [i64; 3] = [444, 445, 446];

    /// `ENOSYS`, the answer of a kernel that lacks the call.
    const ENOSYS: u32 = 38;

    #[cfg(target_arch = "x86_64")]
    const ARCH: TargetArch = TargetArch::x86_64;
    #[cfg(target_arch = "aarch64")]
    const ARCH: TargetArch = TargetArch::aarch64;

    /// Sets `PR_SET_NO_NEW_PRIVS` and installs the filter (`openat2`, and
    /// Landlock's calls when `landlock`) on this thread
    /// (the launcher has no other), which `exec` passes on. A system call
    /// of another architecture (32-bit compat) kills the process (the
    /// filter's architecture check) rather than pass unfiltered; x32 calls,
    /// which share x86_64's architecture tag, are not filtered (nothing
    /// this launcher runs uses them).
    pub(super) fn remove(landlock: bool) -> Result<(), Box<dyn std::error::Error>> {
        let mut rules = BTreeMap::from([(SYS_OPENAT2, Vec::new())]);
        if landlock {
            rules.extend(SYS_LANDLOCK.map(|call| (call, Vec::new())));
        }
        let filter = SeccompFilter::new(
            rules,
            SeccompAction::Allow,
            SeccompAction::Errno(ENOSYS),
            ARCH,
        )?;
        let program: BpfProgram = filter.try_into()?;
        seccompiler::apply_filter(&program)?;
        Ok(())
    }
}

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
mod filter {
    /// Refuses: running the command with `openat2` present would pass off
    /// the `openat2` path as the portable one.
    pub(super) fn remove(_landlock: bool) -> Result<(), Box<dyn std::error::Error>> {
        Err("only Linux on x86_64 and aarch64 is supported".into())
    }
}
