//! [`Config`]: what the operator chose on the command line, resolved and
//! checked once per process, and the policy every session starts from.

use std::path::PathBuf;

use mcp_roots::{EmptyRoots, Patterns, Roots, Writes};

use crate::cli::{Cli, operator_dir};
use crate::context::Bounds;

/// The warning of a start without directories.
pub(crate) const NO_DIRECTORIES: &str = "Warning: no directory given: nothing bounds the \
client's roots. Every folder a client shares is served (file:/// included), and nothing to a \
client that shares none. Give at least one DIR to bound what clients can reach.";

/// What a start with `--ask-within` and no directory serves.
pub(crate) const ONLY_GRANTS: &str = "No directory given, --ask-within set: nothing is served \
until the user grants it, by answering a question, beneath the --ask-within directories \
(the client's roots serve nothing).";

/// The refusal of a `--read-only-dir` that is not an existing directory
/// (2.3.0's sentence).
fn read_only_dir_missing(given: &str, why: &str) -> String {
    format!(
        "--read-only-dir {given} is not an existing directory ({why}); \
         a read-only directory must exist when the server starts"
    )
}

/// 2.3.0's lines of the directories in force after a replacement of the
/// session's roots (`from_client`: from the client's list, always within
/// the command-line directories; else the command line's, for a client
/// without roots), printed on stderr on every change over stdio. `asks`:
/// whether the user may be asked for access (`--ask-within`), which the
/// line of an empty set says.
pub(crate) fn effective_after_change(
    set: &mcp_roots::RootSet,
    from_client: bool,
    asks: bool,
) -> String {
    let dirs: Vec<String> = (0..set.len())
        .filter_map(|i| set.root(i))
        .map(|root| format!("  {}", root.path()))
        .collect();
    if dirs.is_empty() {
        return if asks {
            "Effective allowed directories: none. Nothing is shared: every path is refused \
             until the user grants access by answering a question (--ask-within)"
        } else if from_client {
            "Effective allowed directories: none. The client's Roots name no valid directory \
             within the command-line directories, so every path is refused until it exposes \
             one again"
        } else {
            "Effective allowed directories: none. No command-line directories and no valid \
             client Roots, so every path is refused"
        }
        .to_owned();
    }
    let origin = if from_client {
        "from the client's Roots, confined to the command-line directories"
    } else {
        "from the command line"
    };
    format!(
        "Effective allowed directories ({origin}):\n{}",
        dirs.join("\n")
    )
}

/// What the operator chose on the command line.
#[derive(Debug)]
pub(crate) struct Config {
    /// The writable directories (the ceiling's writable part).
    pub(crate) dirs: Vec<PathBuf>,
    /// The read-only directories.
    pub(crate) read_only_dirs: Vec<PathBuf>,
    /// The area the user may be asked about (`--ask-within`), resolved as
    /// the directories are; the core judges it against them.
    pub(crate) ask_within: Vec<PathBuf>,
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
    /// and checked to be a directory. A `DIR` that is not is skipped with a
    /// warning, as the original does, and none at all is an error; a
    /// `--read-only-dir` that is not stops the start, as 2.3.0 does (a
    /// directory the operator meant to protect must not silently vanish).
    pub(crate) fn from_cli(cli: &Cli) -> Result<Self, String> {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let cwd = std::env::current_dir().map_err(|e| format!("no working directory: {e}"))?;
        let resolve = |d: &String| operator_dir(d, home.as_deref(), &cwd);
        let dirs = cli
            .dirs
            .iter()
            .map(resolve)
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
            .collect::<Vec<_>>();
        let read_only_dirs = cli
            .read_only_dirs
            .iter()
            .map(|given| {
                let dir = resolve(given);
                match std::fs::metadata(&dir) {
                    Ok(meta) if meta.is_dir() => Ok(dir),
                    Ok(_) => Err(read_only_dir_missing(given, "not a directory")),
                    Err(e) => Err(read_only_dir_missing(given, &e.to_string())),
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        let given = cli.dirs.len() + cli.read_only_dirs.len();
        if given > 0 && dirs.is_empty() && read_only_dirs.is_empty() {
            return Err("none of the specified directories is accessible".to_owned());
        }
        let ask_within = cli.ask_within.iter().map(resolve).collect();
        Ok(Self {
            dirs,
            read_only_dirs,
            ask_within,
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

    /// Says on stderr what the process serves: 2.3.0's lines of the
    /// effective directories (an operator's scripts may read them), a
    /// warning when no directory bounds the client's roots, and the start
    /// line of the log (version, directories, options).
    pub(crate) fn announce(&self, transport: &str) {
        eprintln!("{}", self.effective_lines());
        if self.dirs.is_empty() && self.read_only_dirs.is_empty() {
            if self.ask_within.is_empty() {
                eprintln!("{NO_DIRECTORIES}");
            } else {
                eprintln!("{ONLY_GRANTS}");
            }
        }
        if !self.ask_within.is_empty() {
            eprintln!("The user may be asked for access beneath:");
            for dir in &self.ask_within {
                eprintln!("  {}", dir.display());
            }
        }
        let dirs: Vec<_> = self.dirs.iter().map(|d| d.display().to_string()).collect();
        let read_only_dirs: Vec<_> = self
            .read_only_dirs
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        let hide: Vec<&str> = self.hide.iter().collect();
        let read_only_patterns: Vec<&str> = self.protect.iter().collect();
        let ask_within: Vec<_> = self
            .ask_within
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        tracing::info!(
            version = env!("CARGO_PKG_VERSION"),
            transport,
            ?dirs,
            ?read_only_dirs,
            ?ask_within,
            read_only = self.read_only,
            ?hide,
            ?read_only_patterns,
            confirm = self.confirm,
            max_entries = self.bounds.max_entries,
            max_depth = self.bounds.max_depth,
            walk_timeout_s = self.bounds.deadline.as_secs_f64(),
            max_answer_bytes = self.max_answer,
            "mcp-roots-fs started"
        );
    }

    /// 2.3.0's lines of the directories in force at start: `Effective
    /// allowed directories (from the command line):` and one indented line
    /// each (a path may hold a comma), then the read-only ones, or the line
    /// that says there are none.
    pub(crate) fn effective_lines(&self) -> String {
        let all: Vec<String> = self
            .dirs
            .iter()
            .chain(&self.read_only_dirs)
            .map(|d| format!("  {}", d.display()))
            .collect();
        let mut lines = Vec::new();
        if all.is_empty() && !self.ask_within.is_empty() {
            lines.push(
                "Effective allowed directories: none. No command-line directories: \
                 nothing is served until the user grants it (--ask-within)"
                    .to_owned(),
            );
        } else if all.is_empty() {
            lines.push(
                "Effective allowed directories: none. No command-line directories: \
                 the client's roots are served as shared"
                    .to_owned(),
            );
        } else {
            lines.push("Effective allowed directories (from the command line):".to_owned());
            lines.extend(all);
        }
        if self.read_only {
            lines.push("Read-only mode: every change is refused".to_owned());
        }
        if !self.read_only_dirs.is_empty() {
            lines.push(
                "Read-only directories (writes refused, whatever the allowed directories in force):"
                    .to_owned(),
            );
            lines.extend(
                self.read_only_dirs
                    .iter()
                    .map(|d| format!("  {}", d.display())),
            );
        }
        lines.join("\n")
    }

    /// The policy of one session: the directories are the ceiling and what
    /// a client is served until it shares folders of its own; the
    /// `--ask-within` directories are the area the user may be asked about
    /// (with no directory, the ceiling is empty: only grants are served).
    /// `--confine` is given this policy, so the area is in the kernel's
    /// rules from the start.
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
        if !self.ask_within.is_empty() {
            policy = policy.ask_within(
                self.ask_within
                    .iter()
                    .map(|d| d.to_string_lossy().into_owned()),
            );
        }
        policy
            .hide(self.hide.clone())
            .read_only(self.protect.clone())
    }
}
