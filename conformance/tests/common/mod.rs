//! Helpers shared by the integration tests: run one corpus-style operation
//! through the library and check what it touched.

#![allow(dead_code)] // each test binary uses a different subset

pub(crate) mod capture;
#[cfg(target_os = "linux")]
pub(crate) mod mounts;

use std::ffi::OsString;
use std::io::{Read, Write};
#[cfg(unix)]
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use mcp_roots::{Error, RootSet};
use testkit::Op;

/// What an allowed operation produced.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Touched {
    /// A file was read: its content and identity.
    Read {
        content: Vec<u8>,
        dev: u64,
        ino: u64,
    },
    /// A file was created and the marker written into it.
    Created,
    /// A directory was listed: the sorted names.
    Listed(Vec<OsString>),
}

/// The bytes written into files created by tests.
pub(crate) const MARKER: &[u8] = b"created by mcp-roots tests";

/// Runs `op` on `input` through `set`.
pub(crate) fn run(set: &RootSet, op: Op, input: &str) -> Result<Touched, Error> {
    match op {
        Op::Read => {
            let mut file = set.open(input)?;
            let meta = file.metadata().expect("fstat of an opened file");
            let mut content = Vec::new();
            file.read_to_end(&mut content).expect("read an opened file");
            let (dev, ino) = identity(&meta);
            Ok(Touched::Read { content, dev, ino })
        }
        Op::WriteNew => {
            let mut file = set.create_new(input)?;
            file.write_all(MARKER).expect("write a created file");
            Ok(Touched::Created)
        }
        Op::List => {
            let mut names = set
                .read_dir(input)?
                .map(|e| e.map(|e| e.name().to_owned()))
                .collect::<Result<Vec<_>, _>>()?;
            names.sort();
            Ok(Touched::Listed(names))
        }
    }
}

/// Device and inode where the standard library tells them (Unix); on
/// Windows they are unstable in std, so `(0, 0)` and the content alone is
/// compared.
fn identity(meta: &std::fs::Metadata) -> (u64, u64) {
    #[cfg(unix)]
    return (meta.dev(), meta.ino());
    #[cfg(not(unix))]
    return {
        let _ = meta;
        (0, 0)
    };
}

/// Checks that `touched` is the object at the absolute path `expected`;
/// returns a description of the mismatch, if any.
/// The names `dir` holds on the disk, after checking that every one of
/// `names` (a listing's) is among them.
pub(crate) fn listed_from_disk(
    dir: &Path,
    names: &[std::ffi::OsString],
) -> Result<Vec<std::ffi::OsString>, String> {
    let on_disk = std::fs::read_dir(dir)
        .map_err(|e| format!("{dir:?}: {e}"))?
        .map(|e| e.map(|e| e.file_name()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    for name in names {
        if !on_disk.contains(name) {
            return Err(format!("listed {name:?}, which {dir:?} does not hold"));
        }
    }
    Ok(on_disk)
}

pub(crate) fn check_target(touched: &Touched, expected: &Path) -> Result<(), String> {
    match touched {
        Touched::Read { content, dev, ino } => {
            let meta = std::fs::metadata(expected).map_err(|e| format!("{expected:?}: {e}"))?;
            if identity(&meta) != (*dev, *ino) {
                return Err(format!("read a different file than {expected:?}"));
            }
            let want = std::fs::read(expected).map_err(|e| format!("{expected:?}: {e}"))?;
            if &want != content {
                return Err(format!("content differs from {expected:?}"));
            }
        }
        Touched::Created => {
            let got =
                std::fs::read(expected).map_err(|e| format!("{expected:?} not created: {e}"))?;
            if got != MARKER {
                return Err(format!("{expected:?} exists but was not written by us"));
            }
        }
        Touched::Listed(names) => {
            let mut want = std::fs::read_dir(expected)
                .map_err(|e| format!("{expected:?}: {e}"))?
                .map(|e| e.map(|e| e.file_name()))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())?;
            want.sort();
            if &want != names {
                return Err(format!("listing differs from {expected:?}"));
            }
        }
    }
    Ok(())
}

/// A temporary directory `T` with some directories and files, named by
/// paths relative to it.
pub(crate) struct TempTree {
    _tmp: tempfile::TempDir,
    /// `T`, absolute, without a trailing slash.
    pub(crate) t: String,
}

impl TempTree {
    /// `T` with `dirs` (parents created) and `files` (relative path, content).
    pub(crate) fn build(dirs: &[&str], files: &[(&str, &str)]) -> Self {
        Self::build_in(&std::env::temp_dir(), dirs, files)
    }

    /// [`build`](Self::build), with `T` created in `base`.
    pub(crate) fn build_in(base: &Path, dirs: &[&str], files: &[(&str, &str)]) -> Self {
        let tmp = tempfile::tempdir_in(base).expect("tempdir");
        let t = tmp.path().to_str().expect("utf-8").to_owned();
        for dir in dirs {
            std::fs::create_dir_all(format!("{t}/{dir}")).expect("mkdir");
        }
        for (file, content) in files {
            std::fs::write(format!("{t}/{file}"), content).expect("write");
        }
        Self { _tmp: tmp, t }
    }

    /// `T/rel`.
    pub(crate) fn p(&self, rel: &str) -> String {
        format!("{}/{rel}", self.t)
    }
}

/// Starts watching `roots`; the events it reports arrive on the receiver.
#[cfg(feature = "watch")]
pub(crate) fn watch(
    roots: &mcp_roots::Roots,
) -> (
    std::sync::mpsc::Receiver<mcp_roots::ScopeEvent>,
    mcp_roots::WatchGuard,
) {
    let (tx, events) = std::sync::mpsc::channel();
    let guard = roots
        .watch(move |event| {
            let _ = tx.send(event);
        })
        .expect("watch");
    (events, guard)
}

/// The failures of one corpus row whose operation gave `outcome`: a deny
/// must be refused with `reason` and change nothing (`changes`: the tree's
/// differences from before), an allow must succeed on what was expected.
pub(crate) fn verdict(
    id: &str,
    expect: testkit::Expect,
    reason: Option<&str>,
    outcome: Result<Result<(), String>, Error>,
    changes: impl FnOnce() -> Vec<String>,
) -> Vec<String> {
    use testkit::Expect;
    let mut failures = Vec::new();
    match (expect, outcome) {
        (Expect::Deny, Ok(_)) => failures.push(format!("{id}: ESCAPE, allowed")),
        (Expect::Deny, Err(err)) => {
            let want = reason.expect("deny cases name a reason");
            if err.reason() != want {
                failures.push(format!(
                    "{id}: refused with {}, not {want}: {err}",
                    err.reason()
                ));
            }
            let changes = changes();
            if !changes.is_empty() {
                failures.push(format!("{id}: denied but changed the tree: {changes:?}"));
            }
        }
        (Expect::Allow, Ok(Ok(()))) => {}
        (Expect::Allow, Ok(Err(why))) => failures.push(format!("{id}: allowed, but {why}")),
        (Expect::Allow, Err(err)) => {
            failures.push(format!("{id}: wrongly refused: {err} [{}]", err.reason()));
        }
    }
    failures
}

/// The number of scenes a model proptest runs: `MCP_ROOTS_PROPTEST_SCENES`
/// when set (long runs), else `default`.
pub(crate) fn scenes(default: u32) -> u32 {
    std::env::var("MCP_ROOTS_PROPTEST_SCENES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
