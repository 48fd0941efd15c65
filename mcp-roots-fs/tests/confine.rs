//! `--confine`: the server confined by the kernel to its directories
//! still serves them; `--confine=required` refuses to start where the
//! kernel has no Landlock (simulated by the `no-openat2 --no-landlock`
//! launcher), and best effort starts there and says it confined nothing.

#![cfg(target_os = "linux")]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use mcp_script::{ScriptedClient, text_of};
use serde_json::json;

use common::{binary, call, failed, start};

/// Two directories side by side: `root` (served) and `other` (not).
fn tree() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();
    for (rel, text) in [("root/a.txt", "alpha\n"), ("other/secret.txt", "secret")] {
        let path = base.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    (dir, base)
}

fn at(base: &Path, rel: &str) -> String {
    base.join(rel).to_str().unwrap().to_owned()
}

/// The binary with `args`, stdin closed (it serves nothing and ends):
/// its exit code and stderr, run through `launcher` if given.
fn run(launcher: Option<&Path>, args: &[&str]) -> (Option<i32>, String) {
    let mut command = match launcher {
        Some(launcher) => {
            let mut command = Command::new(launcher);
            command.arg("--no-landlock").arg(binary());
            command
        }
        None => Command::new(binary()),
    };
    let out = command
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run the server");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test]
async fn a_confined_server_serves_its_directories() {
    let (_dir, base) = tree();
    let (_, stderr) = run(None, &[&at(&base, "root"), "--confine=required"]);
    assert!(
        stderr.contains("mcp-roots-fs: confinement full"),
        "{stderr}"
    );
    let script = ScriptedClient::new(false, false);
    let args = [at(&base, "root"), "--confine=required".to_owned()];
    let conn = start(&args, &script).await;
    let c = &conn.client;
    let read = call(
        c,
        "read_text_file",
        json!({ "path": at(&base, "root/a.txt") }),
    )
    .await;
    assert_eq!(text_of(&read), "alpha\n");
    let wrote = call(
        c,
        "write_file",
        json!({ "path": at(&base, "root/b.txt"), "content": "bee" }),
    )
    .await;
    assert!(!failed(&wrote), "{wrote:?}");
    assert_eq!(
        std::fs::read_to_string(base.join("root/b.txt")).unwrap(),
        "bee"
    );
    let listing = call(c, "list_directory", json!({ "path": at(&base, "root") })).await;
    assert_eq!(text_of(&listing).lines().count(), 2, "{listing:?}");
    let outside = call(
        c,
        "read_text_file",
        json!({ "path": at(&base, "other/secret.txt") }),
    )
    .await;
    assert!(failed(&outside), "{outside:?}");
    assert!(conn.close().await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confined_http_server_serves_its_directories() {
    let (_dir, base) = tree();
    let server = common::HttpServer::start(&[
        "--http".to_owned(),
        "127.0.0.1:0".to_owned(),
        "--confine=required".to_owned(),
        at(&base, "root"),
    ]);
    assert!(
        server
            .before
            .iter()
            .any(|l| l.starts_with("mcp-roots-fs: confinement full")),
        "{:?}",
        server.before
    );
    let script = ScriptedClient::new(false, false);
    let conn: mcp_script::Connection<common::NoServer> =
        mcp_script::Connection::http(&server.url, script, rmcp::ClientLifecycleMode::Initialize)
            .await
            .unwrap();
    let read = call(
        &conn.client,
        "read_text_file",
        json!({ "path": at(&base, "root/a.txt") }),
    )
    .await;
    assert_eq!(text_of(&read), "alpha\n");
    let outside = call(
        &conn.client,
        "read_text_file",
        json!({ "path": at(&base, "other/secret.txt") }),
    )
    .await;
    assert!(failed(&outside), "{outside:?}");
    assert!(conn.close().await);
}

#[test]
fn a_read_only_confined_server_starts() {
    let (_dir, base) = tree();
    let (_, stderr) = run(
        None,
        &[&at(&base, "root"), "--read-only", "--confine=required"],
    );
    assert!(
        stderr.contains("mcp-roots-fs: confinement full"),
        "{stderr}"
    );
}

/// The launcher, built beside the server by a workspace build.
fn launcher() -> Option<PathBuf> {
    let path = binary().with_file_name("no-openat2");
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

#[test]
fn required_fails_at_start_without_landlock() {
    let Some(launcher) = launcher() else {
        return;
    };
    let (_dir, base) = tree();
    let (code, stderr) = run(Some(&launcher), &[&at(&base, "root"), "--confine=required"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr
            .contains("mcp-roots-fs: --confine: the kernel cannot confine the process as required"),
        "{stderr}"
    );
}

#[test]
fn best_effort_starts_without_landlock_and_says_so() {
    let Some(launcher) = launcher() else {
        return;
    };
    let (_dir, base) = tree();
    let (_, stderr) = run(Some(&launcher), &[&at(&base, "root"), "--confine"]);
    // It went on to serve (stdin closed: the initialize never came).
    assert!(!stderr.contains("--confine:"), "{stderr}");
    assert!(stderr.contains("initialize"), "{stderr}");
    assert!(stderr.contains("confinement unsupported"), "{stderr}");
    assert!(stderr.contains("nothing is enforced"), "{stderr}");
}

#[test]
fn confine_needs_directories_and_a_known_mode() {
    let (_dir, base) = tree();
    let (code, stderr) = run(None, &["--confine"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("--confine"), "{stderr}");
    let (code, stderr) = run(None, &[&at(&base, "root"), "--confine=always"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("required"), "{stderr}");
}

/// `--ask-within` with `--confine`: the area is in the kernel's rules from
/// the start (Landlock cannot widen later), so a file the user grants
/// after confinement is read; one past the area is not.
#[tokio::test]
async fn a_confined_server_serves_what_the_user_grants_in_the_area() {
    let (_dir, base) = tree();
    let script = ScriptedClient::new(false, true);
    let args = [
        "--ask-within".to_owned(),
        at(&base, "other"),
        "--confine=required".to_owned(),
    ];
    let conn = start(&args, &script).await;
    let c = &conn.client;
    script.pick("grant", "this call");
    let granted = call(
        c,
        "read_text_file",
        json!({ "path": at(&base, "other/secret.txt") }),
    )
    .await;
    assert_eq!(text_of(&granted), "secret", "{granted:?}");
    let past = call(
        c,
        "read_text_file",
        json!({ "path": at(&base, "root/a.txt") }),
    )
    .await;
    assert!(failed(&past), "{past:?}");
    assert_eq!(script.asked().len(), 1, "only the area was asked about");
    assert!(conn.close().await);
}
