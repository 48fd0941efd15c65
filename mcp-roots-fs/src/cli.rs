//! The command line: the original's `DIR…`, and the options beyond it.

use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use clap::Parser;
use mcp_roots::{Confinement, Patterns};
use mcp_roots_rmcp::Deployment;

use crate::tools::bounded::DEFAULT_MAX_ANSWER;

/// The MCP filesystem server on the mcp-roots boundary: a drop-in
/// replacement for `@modelcontextprotocol/server-filesystem`.
///
/// Options may come anywhere among the directories; `--` ends them (what
/// follows is a directory, even `--read-only`).
#[derive(Debug, Parser)]
#[command(name = "mcp-roots-fs", version)]
pub(crate) struct Cli {
    /// The directories the server may use: the most a client's roots can
    /// share, and what is served until the client shares folders. `~` and
    /// relative paths are resolved here, against the home directory and the
    /// working directory. A client's roots only ever narrow them (as the
    /// original's --confine-roots). Without any DIR (and no --read-only-dir)
    /// nothing bounds the client's roots: the server serves whatever
    /// folders a client shares, `file:///` included, and nothing to a
    /// client that shares none; it warns about this at start. With
    /// --ask-within and no DIR, nothing is served until the user grants it.
    #[arg(value_name = "DIR")]
    pub(crate) dirs: Vec<String>,

    /// A directory beneath which the user may grant access by answering a
    /// question (repeatable; form elicitation, where the client supports
    /// it). A path there that no shared folder reaches is asked about:
    /// this call, this session, or no. Inside the DIRs when there are any
    /// (one outside them grants nothing, and is logged); with no DIR,
    /// nothing at all is served until the user grants it. Hidden parts are
    /// never asked about; read-only parts stay read-only.
    #[arg(long = "ask-within", value_name = "DIR", allow_hyphen_values = true)]
    pub(crate) ask_within: Vec<String>,

    /// Accepted for the original's command line; it changes nothing:
    /// mcp-roots-fs always confines a client's roots to the directories (a
    /// root inside one is kept, one containing one is narrowed to it,
    /// others are refused), and never lets roots replace them.
    #[arg(long)]
    pub(crate) confine_roots: bool,

    /// Refuse every change (write, edit, create, move) in every directory.
    #[arg(long)]
    pub(crate) read_only: bool,

    /// A directory the server may read but never change (repeatable). It
    /// takes the next argument whatever it looks like, and must exist when
    /// the server starts: one that cannot be resolved stops the start.
    #[arg(long = "read-only-dir", value_name = "DIR", allow_hyphen_values = true)]
    pub(crate) read_only_dirs: Vec<String>,

    /// Hide the parts of every directory that PATTERN matches (gitignore
    /// syntax, repeatable): never listed, searched or opened; a path there
    /// is refused with `hidden`. A pattern with a `/` before its end is
    /// anchored to the directory (`/secrets/`), one without matches at any
    /// depth (`.env`, `*.pem`). Unlike git, a trailing `/` does not limit a
    /// pattern to directories (a name is judged before it exists).
    #[arg(long, value_name = "PATTERN", value_parser = pattern)]
    pub(crate) hide: Vec<String>,

    /// Keep the parts of every directory that PATTERN matches read-only
    /// (gitignore syntax, repeatable, anchored as for --hide): they can be
    /// read and listed; a write, edit, create or move there is refused with
    /// `read_only`.
    #[arg(long, value_name = "PATTERN", value_parser = pattern)]
    pub(crate) read_only_pattern: Vec<String>,

    /// Let the kernel keep the directories too (Linux, Landlock): before
    /// serving, the process gives up every file outside the directories
    /// for good (read-only where they are read-only), so a file outside is
    /// refused even to code that bypasses the boundary (the --ask-within
    /// directories are kept from the start, for later grants). `--confine`
    /// enforces what the kernel supports and logs what it did;
    /// `--confine=required` refuses to start unless the whole process is
    /// confined (Landlock ABI 3 or later).
    #[arg(long, value_name = "MODE", num_args = 0..=1, require_equals = true,
          default_missing_value = "best-effort")]
    pub(crate) confine: Option<Confinement>,

    /// Where 2026-07-28 calls keep what several instances of this server
    /// must share (the request states already used): `redis://HOST:PORT`
    /// (or `redis://HOST:PORT/DB`) for one Redis shared by every instance,
    /// whose `maxmemory-policy` must be `noeviction`. Default: this
    /// process's memory (one instance). Give every instance the same keys
    /// too (--state-key-file).
    #[arg(long, value_name = "URL", value_parser = Deployment::state_url)]
    pub(crate) state: Option<String>,

    /// Read the keys that seal 2026-07-28 request states from PATH (lines
    /// `seal = HEX` and `accept = HEX`, at least 64 hex digits each), or
    /// else from the MCP_ROOTS_STATE_KEYS environment variable. Default: a
    /// random key of this process. Never on the command line.
    #[arg(long, value_name = "PATH")]
    pub(crate) state_key_file: Option<PathBuf>,

    /// Serve Streamable HTTP on this loopback address (`127.0.0.1:PORT` or
    /// `[::1]:PORT`) instead of stdio.
    #[arg(long, value_name = "IP:PORT")]
    pub(crate) http: Option<String>,

    /// Ask the user (form elicitation, where the client supports it)
    /// before overwriting a file, moving onto an existing name or applying
    /// an edit.
    #[arg(long)]
    pub(crate) confirm: bool,

    /// The most entries one search_files, directory_tree or listing
    /// examines before it stops and says so, returning what it found
    /// (2.3.0 stops at 100,000 with an error and nothing).
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    pub(crate) max_entries: usize,

    /// The deepest directory level a search or a tree enters.
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub(crate) max_depth: usize,

    /// The most bytes an answer that carries a whole file may take, as the
    /// client reads it (the text twice, JSON-escaped; media twice, as
    /// base64): read_text_file without head or tail, read_media_file and
    /// edit_file refuse a file whose answer would be larger, and never
    /// read more of it than this; so does resources/read (its contents
    /// counted once); read_text_file's head and tail refuse lines that
    /// would not fit, reading no more than this. Clients drop longer lines
    /// (rmcp's: 16 MiB).
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_ANSWER,
          value_parser = clap::value_parser!(u64).range(1024..))]
    pub(crate) max_answer_bytes: u64,

    /// The longest one walk may run, in seconds, before it stops and says
    /// so (checked between entries; a single system call that blocks, as on
    /// a hung mount, is not interrupted: the client's cancellation ends
    /// the call's wait).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub(crate) walk_timeout: f64,
}

impl Cli {
    /// The `--hide` patterns (each was checked when parsed).
    pub(crate) fn hidden(&self) -> Result<Patterns, String> {
        Patterns::parse(&self.hide).map_err(|e| format!("--hide: {e}"))
    }

    /// The `--read-only-pattern` patterns (each was checked when parsed).
    pub(crate) fn protected(&self) -> Result<Patterns, String> {
        Patterns::parse(&self.read_only_pattern).map_err(|e| format!("--read-only-pattern: {e}"))
    }

    /// The walk deadline as a duration (at least a millisecond).
    pub(crate) fn walk_timeout(&self) -> Duration {
        Duration::from_secs_f64(self.walk_timeout.max(0.001))
    }
}

/// A `--hide` or `--read-only-pattern` value: one gitignore pattern. Clap
/// names the option and the pattern beside this sentence.
fn pattern(given: &str) -> Result<String, String> {
    Patterns::parse([given])
        .map(|_| given.to_owned())
        .map_err(|e| e.message().to_owned())
}

/// An operator's directory as an absolute path: `~` and `~/…` expanded
/// against `home`, a relative path resolved against `cwd`, then `.` and
/// `..` removed as text (as the original's `path.resolve` does). These are
/// the operator's values, not a client's: the boundary judges the result.
pub(crate) fn operator_dir(dir: &str, home: Option<&Path>, cwd: &Path) -> PathBuf {
    let expanded = match (dir, home) {
        ("~", Some(home)) => home.to_path_buf(),
        (d, Some(home)) if d.starts_with("~/") => home.join(&d[2..]),
        (d, _) => PathBuf::from(d),
    };
    let absolute = if expanded.is_absolute() {
        expanded
    } else {
        cwd.join(expanded)
    };
    lexical(&absolute)
}

/// `.` and `..` removed as text, as Node's `path.resolve` does.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ask_within_repeats_and_leaves_the_directories_alone() {
        let cli = Cli::try_parse_from([
            "mcp-roots-fs",
            "--ask-within",
            "/a",
            "/d",
            "--ask-within=/b",
            "--ask-within",
            "-odd",
        ])
        .unwrap();
        assert_eq!(cli.ask_within, ["/a", "/b", "-odd"]);
        assert_eq!(cli.dirs, ["/d"]);
        assert!(Cli::try_parse_from(["mcp-roots-fs", "--ask-within"]).is_err());
    }

    #[test]
    fn operator_dirs_resolve_like_the_original() {
        let home = Path::new("/home/a");
        let cwd = Path::new("/work/x");
        for (given, want) in [
            ("~", "/home/a"),
            ("~/docs", "/home/a/docs"),
            ("docs", "/work/x/docs"),
            ("./docs/../notes", "/work/x/notes"),
            ("..", "/work"),
            ("/abs/./p/", "/abs/p"),
            ("~user", "/work/x/~user"),
            ("/../..", "/"),
        ] {
            assert_eq!(
                operator_dir(given, Some(home), cwd),
                Path::new(want),
                "{given}"
            );
        }
        assert_eq!(operator_dir("~/d", None, cwd), Path::new("/work/x/~/d"));
    }
}
