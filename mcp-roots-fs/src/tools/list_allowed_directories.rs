//! `list_allowed_directories`: the roots this call is served (the
//! operator's directories narrowed by the client's roots), each as given
//! and, when it differs, as resolved, as the original lists both. After
//! the directories (so that the original's lines come first, unchanged),
//! the parts of them that are hidden or read-only, when there are any,
//! and apart, the session's grants (`--ask-within`): what the user allowed
//! by answering a question, each with what it covers (a file or a
//! directory) and its access (read or change).

use mcp_roots::{AskAbout, GrantAccess, Root, Snapshot, Writes};
use mcp_roots_rmcp::Stop;
use rmcp::model::CallToolResult;

use crate::original::reply;

/// The lines of the roots `snap` serves: the tool's body over one snapshot
/// of the roots, callable without a tool call.
///
/// `granted`: the session's grants ([`Roots::grants`](mcp_roots::Roots::grants)),
/// listed apart from the directories.
pub(crate) fn allowed(snap: &Snapshot<'_>, granted: &[AskAbout]) -> Result<CallToolResult, Stop> {
    let all = snap.set().roots();
    // A grant is not a directory the client shared: listed apart, last.
    let roots: Vec<_> = all
        .iter()
        .filter(|r| r.grant().is_none())
        .cloned()
        .collect();
    let roots = roots.as_slice();
    let mut lines = vec!["Allowed directories:".to_owned()];
    for root in roots {
        // Only under --read-only / --read-only-dir: the model learns
        // before trying that changes there are refused.
        let mark = match root.writes() {
            Writes::Refuse => " (read-only)",
            _ => "",
        };
        lines.push(format!("{}{mark}", root.path()));
        let resolved = root.resolved_path().to_string_lossy();
        if resolved != root.path() {
            lines.push(format!("{resolved}{mark}"));
        }
    }
    // Read-only directories inside a writable one that are not listed
    // above: enforced all the same.
    for root in roots {
        for inside in root.read_only_inside() {
            let listed = roots.iter().any(|r| r.resolved_path() == inside);
            if !listed {
                lines.push(format!("{} (read-only)", inside.display()));
            }
        }
    }
    let hidden = patterns(roots, Root::hides);
    let protected = patterns(roots, Root::protects);
    if !hidden.is_empty() || !protected.is_empty() {
        lines.push(String::new());
    }
    if !hidden.is_empty() {
        lines.push(format!(
            "Hidden in every directory (never listed or opened): {}",
            hidden.join(", ")
        ));
    }
    if !protected.is_empty() {
        lines.push(format!(
            "Read-only in every directory (never changed): {}",
            protected.join(", ")
        ));
    }
    if !granted.is_empty() {
        lines.push(String::new());
        lines.push("Granted by the user (this session):".to_owned());
        lines.extend(granted.iter().map(granted_line));
    }
    Ok(reply::text(lines.join("\n")))
}

/// One grant's line: its path, what it covers, its access.
fn granted_line(about: &AskAbout) -> String {
    let access = match about.access() {
        GrantAccess::Read => "read",
        _ => "read and change",
    };
    format!(
        "{} ({}, {access})",
        about.path().display(),
        about.kind().as_str()
    )
}

/// The patterns `of` each root, each once, in the order first given (the
/// operator's apply to every root alike).
fn patterns<'a>(
    roots: &'a [std::sync::Arc<Root>],
    of: impl Fn(&'a Root) -> Vec<&'a str>,
) -> Vec<&'a str> {
    let mut all: Vec<&str> = Vec::new();
    for root in roots {
        for pattern in of(root) {
            if !all.contains(&pattern) {
                all.push(pattern);
            }
        }
    }
    all
}
