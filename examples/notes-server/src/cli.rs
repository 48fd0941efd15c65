//! The command line of the `notes-server` binary (clap, derive): one
//! struct per command, each option one field, so that a new option is one
//! field with its doc comment (which is also its `--help` text).
//!
//! The values an operator gives are checked here, before anything starts:
//! a `--ceiling` must be an absolute path naming an existing directory, an
//! `--http` address must be loopback, durations must be numbers of
//! seconds, a `--hide` or `--read-only-pattern` must parse. A bad value is a usage error that names the argument (exit
//! code 2, as for every usage error).

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use mcp_roots::{Confinement, EmptyRoots, Patterns, Writes};
use mcp_roots_rmcp::Deployment;

use crate::http;

/// The whole command line: serve (the default) or play the demo.
#[derive(Debug, Parser)]
#[command(
    name = "notes-server",
    version,
    about = "An MCP notes server whose every file operation stays inside the folders the client shares (its roots).",
    long_about = "An MCP notes server whose every file operation stays inside the folders the \
                  client shares (its roots). It speaks MCP over stdio (one session) or, with \
                  --http, Streamable HTTP on loopback (many sessions). stdout is the protocol; \
                  the log goes to stderr (RUST_LOG, default `info`).",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// `demo`, or nothing to serve.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// How to serve, when no command is given.
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// A command other than serving.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play the scripted demo (a notes tree in a temporary directory and a
    /// scripted client) and print its transcript.
    Demo(DemoArgs),
}

/// How the server is run: its policy and its transport.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Bound what any client root can grant to DIR (repeatable): a root
    /// above DIR is clipped to it, one outside every DIR is rejected. DIR
    /// must be an absolute path to an existing directory. Client roots are
    /// compared with DIR as spelled (before the disk is looked at): give DIR
    /// as clients spell their folders, and do not canonicalise it (a DIR
    /// given as /private/tmp refuses a client root /tmp/notes).
    #[arg(long, value_name = "DIR", value_parser = ceiling_dir)]
    pub ceiling: Vec<String>,
    /// Let the user grant one note or folder beneath DIR (repeatable) by
    /// answering a question, when the model names a path outside the
    /// shared folders (notes_read and notes_write by path): for this call,
    /// for the session, or no. DIR must be an absolute path to an existing
    /// directory, inside a --ceiling directory when there is one (outside
    /// it, it grants nothing). Without --ceiling, only what the user grants
    /// is served. Hidden and read-only patterns still apply; a client
    /// without forms is asked nothing.
    #[arg(long, value_name = "DIR", value_parser = ceiling_dir)]
    pub ask_within: Vec<String>,
    /// Grant the ceiling to a client that shares no folder and has not
    /// shared one in this session: one that does not declare the roots
    /// capability, or answers only empty root lists so far (an editor with
    /// no folder open). Once a client has listed a folder (even one that was
    /// refused), an empty list shares nothing; on 2026-07-28, which keeps no
    /// memory of a client, an empty list from a client that declares roots
    /// shares nothing. Without this flag such clients get nothing.
    #[arg(long, requires = "ceiling")]
    pub ceiling_without_roots: bool,
    /// Make every client root read-only: notes_write, notes_delete and
    /// notes_archive refuse with `read_only` (and their annotations say
    /// they change nothing); listing and reading work.
    #[arg(long)]
    pub read_only: bool,
    /// Hide the parts of every root that PATTERN matches (gitignore
    /// syntax, repeatable: `.env`, `**/.git/`, `/secrets/`, `!keep.pem`):
    /// they are left out of listings and every access is refused with
    /// `hidden`, judged on the file reached (symlinks and `..` included).
    /// Anchored patterns are relative to the `--ceiling` directory holding
    /// the root, or to each root without a ceiling.
    #[arg(long, value_name = "PATTERN", value_parser = pattern)]
    pub hide: Vec<String>,
    /// Keep the parts of every root that PATTERN matches read-only
    /// (gitignore syntax, repeatable, anchored as for `--hide`): changes
    /// there are refused with `read_only`; reading works.
    #[arg(long, value_name = "PATTERN", value_parser = pattern)]
    pub read_only_pattern: Vec<String>,
    /// How long a tool call waits for the client's first roots/list answer
    /// before it fails with `no_roots`.
    #[arg(long, value_name = "SECONDS", default_value = "5", value_parser = seconds)]
    pub roots_wait: Duration,
    /// Serve Streamable HTTP at http://IP:PORT/mcp instead of stdio. The
    /// address must be loopback (`127.0.0.0/8` or `[::1]`); port 0 picks a
    /// free one, and the URL is printed on stderr once the server listens.
    #[arg(long, value_name = "IP:PORT", value_parser = http::loopback)]
    pub http: Option<SocketAddr>,
    /// End an HTTP session after this long without a message (default
    /// 1800).
    #[arg(long, value_name = "SECONDS", requires = "http", value_parser = positive_seconds)]
    pub session_idle: Option<Duration>,
    /// Where 2026-07-28 calls keep what several instances of this server
    /// must share (the states already used, the setup flows):
    /// `redis://HOST:PORT` (or `redis://HOST:PORT/DB`) for one Redis shared
    /// by every instance, whose `maxmemory-policy` must be `noeviction`.
    /// Default: this process's memory (one instance). Give every instance
    /// the same keys too (--state-key-file).
    #[arg(long, value_name = "URL", value_parser = Deployment::state_url)]
    pub state: Option<String>,
    /// Read the keys that seal 2026-07-28 request states from PATH (lines
    /// `seal = HEX` and `accept = HEX`, at least 64 hex digits each; see
    /// the README), or else from the MCP_ROOTS_STATE_KEYS environment
    /// variable. Default: a random key of this process. Never on the
    /// command line.
    #[arg(long, value_name = "PATH")]
    pub state_key_file: Option<std::path::PathBuf>,
    /// How long one 2026-07-28 round waits for the setup page before it
    /// answers "still waiting" (default 20).
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
    pub url_wait: Option<Duration>,
    /// Serve the setup page of every 2026-07-28 flow of the deployment at
    /// http://IP:PORT/setup (loopback), instead of a page per flow in the
    /// instance that asked: with --state shared, any instance's page takes
    /// the submission of any flow.
    #[arg(long, value_name = "IP:PORT", requires = "http", value_parser = http::loopback)]
    pub setup_listen: Option<SocketAddr>,
    /// The URL users are sent to for that page (a load balancer in front
    /// of every instance's --setup-listen), e.g. http://127.0.0.1:8090/setup.
    /// Default: http://IP:PORT/setup of --setup-listen.
    #[arg(long, value_name = "URL", requires = "setup_listen", value_parser = page_url)]
    pub setup_url: Option<url::Url>,
    /// Let the kernel keep the ceiling too (Linux, Landlock): before
    /// serving, the process gives up every file outside the --ceiling
    /// directories for good (read-only under --read-only), so a file
    /// outside is refused even to code that bypasses the library.
    /// `--confine` enforces what the kernel supports and logs what it did;
    /// `--confine=required` refuses to start unless the whole process is
    /// confined (Landlock ABI 3 or later).
    #[arg(long, value_name = "MODE", num_args = 0..=1, require_equals = true,
          default_missing_value = "best-effort", requires = "ceiling")]
    pub confine: Option<Confinement>,
}

impl ServeArgs {
    /// What a client without the roots capability is served.
    pub fn empty_roots(&self) -> EmptyRoots {
        if self.ceiling_without_roots {
            EmptyRoots::Ceiling
        } else {
            EmptyRoots::DenyAll
        }
    }
}

impl ServeArgs {
    /// The `--hide` patterns.
    pub fn hidden(&self) -> Patterns {
        Patterns::parse(&self.hide).expect("each pattern was checked when parsed")
    }

    /// The `--read-only-pattern` patterns.
    pub fn protected(&self) -> Patterns {
        Patterns::parse(&self.read_only_pattern).expect("each pattern was checked when parsed")
    }

    /// Whether the roots may be written.
    pub fn writes(&self) -> Writes {
        if self.read_only {
            Writes::Refuse
        } else {
            Writes::Allow
        }
    }
}

/// Where the demo's server runs.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Against this binary started as a child per session, over stdio.
    #[arg(long)]
    pub stdio: bool,
    /// Against one `notes-server --http 127.0.0.1:0` child, every session
    /// inside it.
    #[arg(long, conflicts_with = "stdio")]
    pub http: bool,
    /// With --stdio: start each server with `--ceiling $TMP --confine=MODE`
    /// (the demo's tree is its ceiling), as a kernel-confined server.
    #[arg(long, value_name = "MODE", num_args = 0..=1, require_equals = true,
          default_missing_value = "best-effort", requires = "stdio")]
    pub confine: Option<Confinement>,
}

/// A `--hide` or `--read-only-pattern` value: one gitignore pattern.
fn pattern(given: &str) -> Result<String, String> {
    Patterns::parse([given])
        .map(|_| given.to_owned())
        .map_err(|e| e.message().to_owned())
}

/// A `--ceiling` value: an absolute path that names a directory now.
///
/// # Errors
///
/// A sentence for the operator: relative, not UTF-8 (refused by clap
/// before this), missing, not a directory, or unreadable.
fn ceiling_dir(given: &str) -> Result<String, String> {
    let path = Path::new(given);
    if !path.is_absolute() {
        return Err("the ceiling must be an absolute path".to_owned());
    }
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Ok(given.to_owned()),
        Ok(_) => Err("not a directory".to_owned()),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            Err("no such directory".to_owned())
        }
        Err(err) => Err(format!("cannot be checked: {err}")),
    }
}

/// A `--setup-url` value: an `http://` URL on a loopback host.
///
/// # Errors
///
/// Not a URL, another scheme, or a host that is not loopback.
fn page_url(given: &str) -> Result<url::Url, String> {
    let url = url::Url::parse(given)
        .map_err(|_| "a URL such as http://127.0.0.1:8090/setup".to_owned())?;
    let loopback = match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(name)) => name == "localhost",
        None => false,
    };
    if url.scheme() != "http" || !loopback {
        return Err("an http:// URL on a loopback host (127.0.0.1, [::1], localhost)".to_owned());
    }
    Ok(url)
}

/// A non-negative number of seconds, fractions allowed ("0.15").
///
/// # Errors
///
/// Not a number, negative, or too large.
fn seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| "a number of seconds, such as 5 or 0.5".to_owned())?;
    Duration::try_from_secs_f64(value).map_err(|_| "a non-negative number of seconds".to_owned())
}

/// A positive number of seconds.
///
/// # Errors
///
/// As [`seconds`], or zero.
fn positive_seconds(text: &str) -> Result<Duration, String> {
    let value = seconds(text)?;
    if value.is_zero() {
        return Err("more than 0 seconds".to_owned());
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::{Cli, Command};
    use clap::{CommandFactory, Parser, error::ErrorKind};
    use std::time::Duration;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("notes-server").chain(args.iter().copied()))
    }

    #[test]
    fn the_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn options_take_both_spellings() {
        let dir = std::env::temp_dir();
        let dir = dir.to_str().unwrap();
        let cli = parse(&[
            &format!("--ceiling={dir}"),
            "--ceiling",
            dir,
            "--roots-wait=0.5",
            "--http",
            "127.0.0.1:0",
            "--session-idle",
            "60",
            "--hide",
            ".env",
            "--hide=**/.git/",
            "--read-only-pattern",
            "/vendor/",
            "--ask-within",
            dir,
            &format!("--ask-within={dir}"),
        ])
        .unwrap();
        assert_eq!(cli.serve.ask_within, [dir, dir]);
        assert_eq!(
            cli.serve.hidden().iter().collect::<Vec<_>>(),
            [".env", "**/.git/"]
        );
        assert_eq!(cli.serve.protected().len(), 1);
        assert!(cli.command.is_none());
        assert_eq!(cli.serve.ceiling, [dir, dir]);
        assert_eq!(cli.serve.roots_wait, Duration::from_millis(500));
        assert_eq!(cli.serve.http.unwrap().to_string(), "127.0.0.1:0");
        assert_eq!(cli.serve.session_idle, Some(Duration::from_secs(60)));
        let shared = parse(&[
            "--state",
            "redis://127.0.0.1:6379",
            "--state-key-file=/etc/keys",
            "--url-wait",
            "0.5",
        ])
        .unwrap();
        assert_eq!(
            shared.serve.state.as_deref(),
            Some("redis://127.0.0.1:6379")
        );
        assert_eq!(
            shared.serve.state_key_file.as_deref(),
            Some(std::path::Path::new("/etc/keys"))
        );
        assert_eq!(shared.serve.url_wait, Some(Duration::from_millis(500)));
        let plain = parse(&[]).unwrap();
        assert_eq!(plain.serve.roots_wait, Duration::from_secs(5));
        assert!(plain.serve.http.is_none());
    }

    #[test]
    fn bad_values_name_their_argument() {
        let file = tempfile::NamedTempFile::new().unwrap();
        let file = file.path().to_str().unwrap().to_owned();
        let missing = std::env::temp_dir().join("notes-server-no-such-dir");
        let missing = missing.to_str().unwrap().to_owned();
        for (args, named, why) in [
            (
                vec!["--ceiling", &missing],
                "--ceiling",
                "no such directory",
            ),
            (vec!["--ceiling", &file], "--ceiling", "not a directory"),
            (vec!["--ceiling", "notes"], "--ceiling", "absolute"),
            (vec!["--ask-within", "notes"], "--ask-within", "absolute"),
            (
                vec!["--ask-within", &file],
                "--ask-within",
                "not a directory",
            ),
            (vec!["--http", "0.0.0.0:80"], "--http", "loopback"),
            (vec!["--http=nonsense"], "--http", "IP:PORT"),
            (vec!["--roots-wait=-1"], "--roots-wait", "non-negative"),
            (vec!["--hide", "[z-a]"], "--hide", "range"),
            (
                vec!["--read-only-pattern", "a/../b"],
                "--read-only-pattern",
                "'..'",
            ),
            (vec!["--roots-wait", "soon"], "--roots-wait", "number"),
            (
                vec!["--http", "127.0.0.1:0", "--session-idle=0"],
                "--session-idle",
                "more than 0",
            ),
            (vec!["--state", "memory"], "--state", "redis://"),
            (
                vec!["--state", "http://h:1"],
                "--state",
                "redis://HOST:PORT",
            ),
            (vec!["--state", "redis://"], "--state", "redis://HOST:PORT"),
            (vec!["--url-wait", "0"], "--url-wait", "more than 0"),
            (
                vec!["--http", "127.0.0.1:0", "--setup-listen", "0.0.0.0:1"],
                "--setup-listen",
                "loopback",
            ),
            (
                vec![
                    "--http",
                    "127.0.0.1:0",
                    "--setup-listen",
                    "127.0.0.1:0",
                    "--setup-url",
                    "http://example.com/setup",
                ],
                "--setup-url",
                "loopback",
            ),
        ] {
            let err = parse(&args).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::ValueValidation, "{args:?}");
            assert_eq!(err.exit_code(), 2);
            let text = err.to_string();
            assert!(
                text.contains(named) && text.contains(why),
                "{args:?}: {text}"
            );
        }
    }

    #[test]
    fn usage_errors_name_the_argument() {
        for (args, named) in [
            (vec!["--session-idle", "5"], "--http"),
            (vec!["--ceiling-without-roots"], "--ceiling"),
            (vec!["--bogus"], "--bogus"),
            (vec!["demo", "--stdio", "--http"], "--http"),
            (vec!["--roots-wait", "5", "demo"], "demo"),
        ] {
            let err = parse(&args).unwrap_err();
            assert_eq!(err.exit_code(), 2, "{args:?}");
            let text = err.to_string();
            assert!(text.contains(named), "{args:?}: {text}");
        }
    }

    #[test]
    fn demo_takes_one_transport() {
        for (args, stdio, http) in [
            (vec!["demo"], false, false),
            (vec!["demo", "--stdio"], true, false),
            (vec!["demo", "--http"], false, true),
        ] {
            let Some(Command::Demo(demo)) = parse(&args).unwrap().command else {
                panic!("{args:?} is the demo");
            };
            assert_eq!((demo.stdio, demo.http), (stdio, http), "{args:?}");
        }
    }
}
