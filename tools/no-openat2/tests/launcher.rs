//! The launcher itself: a command run through it sees `openat2` answer
//! `ENOSYS` while other calls work, gets the marker variable, and its exit
//! status comes back unchanged. The probe is this test binary run again,
//! as the launcher's child.

#![cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]

use std::process::Command;

use rustix::fs::{Mode, OFlags, ResolveFlags};
use rustix::io::Errno;

const LAUNCHER: &str = env!("CARGO_BIN_EXE_no-openat2");
const MARKER: &str = "MCP_ROOTS_NO_OPENAT2";

fn openat2_here() -> Result<(), Errno> {
    let flags = OFlags::PATH | OFlags::CLOEXEC;
    rustix::fs::openat2(
        rustix::fs::CWD,
        ".",
        flags,
        Mode::empty(),
        ResolveFlags::BENEATH,
    )
    .map(drop)
}

/// The launcher's child: only meaningful with the marker set.
#[test]
fn probe() {
    if std::env::var_os(MARKER).is_none() {
        return;
    }
    assert_eq!(openat2_here(), Err(Errno::NOSYS));
    let flags = OFlags::RDONLY | OFlags::CLOEXEC;
    rustix::fs::openat(rustix::fs::CWD, "/proc/self/status", flags, Mode::empty())
        .expect("openat is let through");
}

#[test]
fn under_the_launcher_openat2_answers_enosys() {
    let this = std::env::current_exe().expect("this test binary");
    let out = Command::new(LAUNCHER)
        .arg(this)
        .args(["--exact", "probe", "--test-threads=1"])
        .output()
        .expect("run the launcher");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("1 passed"), "the probe ran: {stdout}");
    // This process keeps openat2 unless it runs under a launcher itself.
    if std::env::var_os(MARKER).is_none() {
        assert_ne!(openat2_here(), Err(Errno::NOSYS), "needs Linux 5.6+");
    }
}

#[test]
fn the_command_runs_as_given() {
    let status = |args: &[&str]| {
        Command::new(LAUNCHER)
            .args(args)
            .output()
            .expect("run the launcher")
    };
    let out = status(&["sh", "-c", "printf %s \"$MCP_ROOTS_NO_OPENAT2\"; exit 3"]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(out.stdout, b"1");
    assert_eq!(status(&[]).status.code(), Some(2), "no command: usage");
    let missing = status(&["/nonexistent/command"]);
    assert_eq!(missing.status.code(), Some(127));
}

/// The launcher's child with `--no-landlock`: Landlock answers `ENOSYS`
/// as well (only meaningful with the marker set).
#[test]
fn probe_landlock() {
    if std::env::var_os("MCP_ROOTS_NO_LANDLOCK").is_none() {
        return;
    }
    assert_eq!(openat2_here(), Err(Errno::NOSYS));
    // rustix has no Landlock calls (and this crate no `unsafe`): that they
    // answer ENOSYS is checked by mcp-roots' tests/confine.rs, run under
    // this option (its cases then expect no confinement at all).
    assert_eq!(std::env::var("MCP_ROOTS_NO_OPENAT2").as_deref(), Ok("1"));
}

#[test]
fn no_landlock_removes_openat2_too_and_says_so() {
    let this = std::env::current_exe().expect("this test binary");
    let out = Command::new(LAUNCHER)
        .arg("--no-landlock")
        .arg(this)
        .args(["--exact", "probe_landlock", "--test-threads=1"])
        .output()
        .expect("run the launcher");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("1 passed"), "the probe ran: {stdout}");
    let plain = Command::new(LAUNCHER)
        .args(["sh", "-c", "printf %s \"${MCP_ROOTS_NO_LANDLOCK:-unset}\""])
        .output()
        .expect("run the launcher");
    assert_eq!(plain.stdout, b"unset", "without the option Landlock stays");
}
