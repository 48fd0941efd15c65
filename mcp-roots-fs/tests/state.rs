//! `--state redis://…` and `--state-key-file`: what several instances
//! share on 2026-07-28. A session's request states are kept in the Redis
//! named (under the server's prefix); a Redis that does not answer, a key
//! file that cannot be read or a URL that is not Redis's stops the server
//! at start, saying why.

#![cfg(unix)]

mod common;

use std::process::{Command, Stdio};

use mcp_script::{Connection, ScriptedClient, accept, modern_lifecycle, text_of};
use rmcp::model::ProtocolVersion;
use serde_json::json;

use common::redis::{Redis, free_port, key_file};
use common::{NoServer, binary, call};

/// The binary with `args`, stdin closed: its exit code and stderr.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(binary())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test]
async fn request_states_are_kept_in_the_shared_redis() {
    let Some(redis) = Redis::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();
    let root = base.join("root");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(root.join("a.txt"), "alpha\n").unwrap();
    let args = [
        root.to_str().unwrap().to_owned(),
        "--state".to_owned(),
        redis.url(),
        format!("--state-key-file={}", key_file(&base, "keys", 0xab)),
        "--confirm".to_owned(),
    ];
    // On 2026-07-28 a question travels in an input-required round whose
    // request state the server seals and, once the client's retry uses
    // it, records as consumed in the store.
    let script = ScriptedClient::new(true, true).speaking(ProtocolVersion::V_2026_07_28);
    let uri = format!("file://{}", root.display());
    script.set_root_uris(&[&uri]);
    let conn: Connection<NoServer> =
        Connection::spawn(binary(), &args, script.clone(), modern_lifecycle())
            .await
            .expect("the server starts");
    let path = root.join("a.txt");
    let read = call(
        &conn.client,
        "read_text_file",
        json!({ "path": path.to_str().unwrap() }),
    )
    .await;
    assert_eq!(text_of(&read), "alpha\n", "{read:?}");
    script.answer(accept(json!({ "confirm": true })));
    let written = call(
        &conn.client,
        "write_file",
        json!({ "path": path.to_str().unwrap(), "content": "new" }),
    )
    .await;
    assert!(
        text_of(&written).starts_with("Successfully wrote"),
        "{written:?}"
    );
    assert_eq!(script.asked().len(), 1);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
    let keys = redis.keys();
    assert!(
        !keys.is_empty() && keys.iter().all(|k| k.starts_with("mcp-roots-fs")),
        "{keys:?}"
    );
    assert!(conn.close().await);
}

#[test]
fn a_store_or_keys_that_cannot_be_used_stop_the_server_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let nobody = format!("redis://127.0.0.1:{}", free_port());
    let missing = dir.path().join("no-such-keys");
    let short = dir.path().join("short-keys");
    std::fs::write(&short, "seal = abcd\n").unwrap();
    for (args, code, says) in [
        (
            vec![root, "--state", &nobody],
            1,
            "--state redis://127.0.0.1:",
        ),
        (
            vec![root, "--state-key-file", missing.to_str().unwrap()],
            1,
            "--state-key-file",
        ),
        (
            vec![root, "--state-key-file", short.to_str().unwrap()],
            1,
            "--state-key-file",
        ),
        (
            vec![root, "--state", "http://127.0.0.1:6379"],
            2,
            "redis://HOST:PORT",
        ),
        (vec![root, "--state", "redis://"], 2, "redis://HOST:PORT"),
    ] {
        let (got, stderr) = run(&args);
        assert_eq!(got, Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("initialize"),
            "{args:?}: nothing was served: {stderr}"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn the_key_file_is_read_before_confinement() {
    // The file lies outside the one directory the process is confined to.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let keys = key_file(dir.path(), "keys", 0xab);
    let (_, stderr) = run(&[
        root.to_str().unwrap(),
        "--state-key-file",
        &keys,
        "--confine=required",
    ]);
    assert!(
        stderr.contains("mcp-roots-fs: confinement full"),
        "{stderr}"
    );
    assert!(!stderr.contains("--state-key-file"), "{stderr}");
    // It went on to serve (stdin closed: the initialize never came).
    assert!(stderr.contains("initialize"), "{stderr}");
}
