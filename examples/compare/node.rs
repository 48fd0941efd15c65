//! The official TypeScript filesystem server's check, run by Node on the
//! same tree (only when `node` and `npm` are present).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const PACKAGE_JSON: &str = include_str!("node/package.json");
const BENCH: &str = include_str!("node/bench.mjs");

/// A scratch directory under the system's temporary directory, kept between
/// runs so that the package is installed once.
fn scratch() -> PathBuf {
    std::env::temp_dir().join("mcp-roots-compare-node")
}

fn node_version() -> Option<String> {
    let out = Command::new("node").arg("--version").output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// Installs the pinned package with npm if it is not there yet.
fn install(dir: &Path) -> Result<(), String> {
    let lib = dir.join("node_modules/@modelcontextprotocol/server-filesystem/dist/lib.js");
    fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let manifest = dir.join("package.json");
    let current = fs::read_to_string(&manifest).unwrap_or_default();
    if lib.exists() && current == PACKAGE_JSON {
        return Ok(());
    }
    fs::write(&manifest, PACKAGE_JSON).map_err(|e| e.to_string())?;
    eprintln!("compare: npm install into {} …", dir.display());
    let status = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--silent"])
        .current_dir(dir)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("npm: {e}"))?;
    if !status.success() || !lib.exists() {
        return Err(format!("npm install failed ({status})"));
    }
    Ok(())
}

/// Runs the Node comparison; its stdout (protocol lines), or why it was
/// skipped.
pub(crate) fn run(top: &Path, rounds: usize, batch_ms: f64) -> Result<(String, String), String> {
    let version = node_version().ok_or("node not found")?;
    let dir = scratch();
    install(&dir)?;
    let script = dir.join("bench.mjs");
    fs::write(&script, BENCH).map_err(|e| e.to_string())?;
    let out = Command::new("node")
        .arg(&script)
        .arg(&dir)
        .arg(top)
        .arg(rounds.to_string())
        .arg(batch_ms.to_string())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("node: {e}"))?;
    if !out.status.success() {
        return Err(format!("node bench failed ({})", out.status));
    }
    Ok((String::from_utf8_lossy(&out.stdout).into_owned(), version))
}
