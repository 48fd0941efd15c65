//! `--confine`: the notes server confined by the kernel to its ceiling.
//! The demo plays whole against confined servers (stdio, a process per
//! session; HTTP, every session in one process); `--confine=required`
//! refuses to start where the kernel has no Landlock (simulated by the
//! `no-openat2 --no-landlock` launcher), and best effort starts and says
//! it confined nothing.

mod common;

use std::path::PathBuf;
use std::process::{Command, Stdio};

use common::{BINARY, Transport, binary, call, spawn, tree};
use notes_server::{Launch, demo};
use serde_json::json;

#[tokio::test]
async fn the_demo_passes_against_confined_servers_over_stdio() {
    assert!(demo::run_with(binary().with_args(["--confine=required"])).await);
}

#[tokio::test]
async fn a_confined_http_server_serves_its_ceiling() {
    let dir = tree();
    let ceiling = dir.path().to_str().unwrap();
    let args = ["--ceiling", ceiling, "--confine=required"];
    let launch = Transport::Http.launch(&args).await;
    let (_script, connection) = spawn(&launch, dir.path(), &["Notes"], true, false).await;
    let read = call(
        &connection.client,
        "notes_read",
        json!({ "path": format!("{ceiling}/Notes/meeting.md") }),
    )
    .await;
    assert_ne!(read.is_error, Some(true), "{read:?}");
    let Launch::Http(server) = &launch else {
        unreachable!()
    };
    let log = server.log().join("\n");
    assert!(log.contains("confinement full"), "{log}");
}

/// The launcher, built beside the server by a workspace build.
fn launcher() -> Option<PathBuf> {
    let path = PathBuf::from(BINARY).with_file_name("no-openat2");
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{} is missing: `cargo build -p no-openat2` (CI builds the workspace)",
        path.display()
    );
    eprintln!("skipped: no {} (cargo build -p no-openat2)", path.display());
    None
}

/// The server started without Landlock with `args`, stdin closed: its exit
/// code and stderr.
fn without_landlock(args: &[&str]) -> Option<(Option<i32>, String)> {
    let out = Command::new(launcher()?)
        .arg("--no-landlock")
        .arg(BINARY)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run the launcher");
    Some((
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

#[test]
fn required_fails_at_start_without_landlock() {
    let dir = tree();
    let ceiling = dir.path().to_str().unwrap();
    let Some((code, stderr)) = without_landlock(&["--ceiling", ceiling, "--confine=required"])
    else {
        return;
    };
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("--confine: the kernel cannot confine the process as required"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("initialize"),
        "nothing was served: {stderr}"
    );
}

#[test]
fn best_effort_starts_without_landlock_and_says_so() {
    let dir = tree();
    let ceiling = dir.path().to_str().unwrap();
    let Some((_, stderr)) = without_landlock(&["--ceiling", ceiling, "--confine"]) else {
        return;
    };
    assert!(stderr.contains("confinement unsupported"), "{stderr}");
    assert!(stderr.contains("nothing is enforced"), "{stderr}");
}

#[test]
fn confine_needs_a_ceiling_and_a_known_mode() {
    for (args, says) in [
        (vec!["--confine"], "--ceiling"),
        (vec!["--ceiling", "/", "--confine=always"], "required"),
        (vec!["demo", "--confine"], "--stdio"),
    ] {
        let out = Command::new(BINARY)
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}
