//! A `redis-server` of the test's own, for the suites of `--state`, and
//! the key files instances share.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `redis-server` of the test's own on a free loopback port, without
/// persistence, stopped when dropped.
#[derive(Debug)]
pub(crate) struct Redis {
    port: u16,
    child: Option<Child>,
    dir: tempfile::TempDir,
}

impl Redis {
    /// Starts one; `None` (the test is skipped, saying why) where there is
    /// no `redis-server` binary, except in CI (`CI` set), which installs it:
    /// there a missing binary fails the test.
    pub(crate) fn start() -> Option<Self> {
        let found = Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .is_ok();
        if !found {
            assert!(
                std::env::var_os("CI").is_none(),
                "no redis-server binary (CI installs it)"
            );
            eprintln!("skipped: no redis-server binary (apt-get install redis-server)");
            return None;
        }
        let port = free_port();
        let dir = tempfile::tempdir().unwrap();
        let child = serve(port, dir.path());
        Some(Self {
            port,
            child: Some(child),
            dir,
        })
    }

    /// Stops it (a Redis that went away: every record it held is lost).
    pub(crate) fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it again on the same port, empty.
    pub(crate) fn restart(&mut self) {
        self.stop();
        self.child = Some(serve(self.port, self.dir.path()));
    }

    /// Its `redis://127.0.0.1:PORT`.
    pub(crate) fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// The keys Redis holds now.
    pub(crate) fn keys(&self) -> Vec<String> {
        self.cli(&["KEYS", "*"])
    }

    /// How long `key` has left, in milliseconds (`-1`: no expiry).
    pub(crate) fn pttl(&self, key: &str) -> i64 {
        let said = self.cli(&["PTTL", key]);
        said.first().and_then(|n| n.parse().ok()).unwrap()
    }

    /// The lines `redis-cli` answers `command` with.
    fn cli(&self, command: &[&str]) -> Vec<String> {
        let out = Command::new("redis-cli")
            .args(["-p", &self.port.to_string(), "--raw"])
            .args(command)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|line| !line.is_empty())
            .map(str::to_owned)
            .collect()
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A `redis-server` on `port` keeping its files in `dir`, once it answers.
fn serve(port: u16, dir: &Path) -> Child {
    let child = Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no"])
        .arg("--dir")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "redis-server did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

/// A loopback port nothing listens on now.
pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port()
}

/// A key file `name` in `dir` that seals with 32 bytes of `byte`: its path.
pub(crate) fn key_file(dir: &Path, name: &str, byte: u8) -> String {
    key_ring_file(dir, name, byte, &[])
}

/// A key file `name` in `dir` that seals with 32 bytes of `seal` and also
/// accepts 32 bytes of each of `accept`: its path.
pub(crate) fn key_ring_file(dir: &Path, name: &str, seal: u8, accept: &[u8]) -> String {
    let key = |byte: u8| format!("{byte:02x}").repeat(32);
    let mut text = format!("seal = {}\n", key(seal));
    for byte in accept {
        text.push_str(&format!("accept = {}\n", key(*byte)));
    }
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}
