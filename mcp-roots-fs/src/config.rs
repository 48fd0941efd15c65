//! [`Config`]: what the operator chose on the command line, resolved and
//! checked once per process, and the policy every session starts from.

use std::path::PathBuf;

use mcp_roots::{EmptyRoots, Patterns, Roots, Writes};

use crate::cli::{Cli, operator_dir};
use crate::context::Bounds;

/// What the operator chose on the command line.
#[derive(Debug)]
pub(crate) struct Config {
    /// The writable directories (the ceiling's writable part).
    pub(crate) dirs: Vec<PathBuf>,
    /// The read-only directories.
    pub(crate) read_only_dirs: Vec<PathBuf>,
    pub(crate) read_only: bool,
    /// The parts of every directory that are hidden (`--hide`).
    pub(crate) hide: Patterns,
    /// The parts of every directory that are read-only
    /// (`--read-only-pattern`).
    pub(crate) protect: Patterns,
    pub(crate) confirm: bool,
    pub(crate) bounds: Bounds,
    /// `--max-answer-bytes`.
    pub(crate) max_answer: u64,
}

impl Config {
    /// The configuration of `cli`: each directory resolved (`~`, relative)
    /// and checked to be a directory; one that is not is skipped with a
    /// warning, as the original does, and none at all is an error.
    pub(crate) fn from_cli(cli: &Cli) -> Result<Self, String> {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let cwd = std::env::current_dir().map_err(|e| format!("no working directory: {e}"))?;
        let resolve = |dirs: &[String]| -> Vec<PathBuf> {
            dirs.iter()
                .map(|d| operator_dir(d, home.as_deref(), &cwd))
                .filter(|d| match std::fs::metadata(d) {
                    Ok(meta) if meta.is_dir() => true,
                    Ok(_) => {
                        tracing::warn!(dir = %d.display(), "not a directory, skipping");
                        false
                    }
                    Err(e) => {
                        tracing::warn!(dir = %d.display(), error = %e, "cannot access directory, skipping");
                        false
                    }
                })
                .collect()
        };
        let dirs = resolve(&cli.dirs);
        let read_only_dirs = resolve(&cli.read_only_dirs);
        let given = cli.dirs.len() + cli.read_only_dirs.len();
        if given > 0 && dirs.is_empty() && read_only_dirs.is_empty() {
            return Err("none of the specified directories is accessible".to_owned());
        }
        Ok(Self {
            dirs,
            read_only_dirs,
            read_only: cli.read_only,
            hide: cli.hidden()?,
            protect: cli.protected()?,
            confirm: cli.confirm,
            max_answer: cli.max_answer_bytes,
            bounds: Bounds {
                max_entries: cli.max_entries,
                max_depth: cli.max_depth,
                deadline: cli.walk_timeout(),
            },
        })
    }

    /// Logs what the operator chose beyond the directories.
    pub(crate) fn log(&self) {
        if !self.hide.is_empty() || !self.protect.is_empty() {
            let hide: Vec<&str> = self.hide.iter().collect();
            let read_only: Vec<&str> = self.protect.iter().collect();
            tracing::info!(
                ?hide,
                ?read_only,
                "parts of every directory are hidden or read-only"
            );
        }
    }

    /// The policy of one session: the directories are the ceiling and what
    /// a client is served until it shares folders of its own.
    pub(crate) fn policy(&self) -> mcp_roots::RootsBuilder {
        let mut policy = Roots::builder().empty_roots(EmptyRoots::Ceiling);
        if !self.dirs.is_empty() {
            policy = policy.ceiling(self.dirs.iter().map(|d| d.to_string_lossy().into_owned()));
        }
        if !self.read_only_dirs.is_empty() {
            policy = policy.read_only_ceiling(
                self.read_only_dirs
                    .iter()
                    .map(|d| d.to_string_lossy().into_owned()),
            );
        }
        if self.read_only {
            policy = policy.writes(Writes::Refuse);
        }
        policy
            .hide(self.hide.clone())
            .read_only(self.protect.clone())
    }
}
