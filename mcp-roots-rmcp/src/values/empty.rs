//! Why a call has no root: said to the model (the tool result) and to the
//! operator (the log), so that a client without the capability or a
//! misconfigured ceiling is never mistaken for a slow client.

use mcp_roots::RootSet;

use crate::values::answer::escaped;
use crate::values::stop::Stop;

/// Whose empty set it is, for the sentence that says why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Client {
    /// A client that does not declare the roots capability.
    Undeclared,
    /// A session's client that declares roots; `shared`: it listed a root
    /// earlier in the session (its empty list is not served the ceiling).
    Session { shared: bool },
    /// A 2026-07-28 request's client that declares roots (no memory: its
    /// empty list is never served the ceiling).
    Request,
}

/// The `no_roots` refusal for an empty `set`, naming its cause.
pub(crate) fn no_roots(client: Client, set: &RootSet, area: Option<&RootSet>) -> Stop {
    let mut why = why(client, set);
    if let Some(area) = area.filter(|area| !area.is_empty()) {
        let dirs: Vec<String> = area
            .roots()
            .iter()
            .map(|root| escaped(root.path()))
            .collect();
        why.push_str(&format!(
            "; this server serves what the user grants: a path inside {} is asked \
             about when a tool needs it, with a client that can show a form",
            dirs.join(", ")
        ));
    }
    tracing::warn!(%why, "no usable root for this call");
    Stop::refused(
        "no_roots",
        format!(
            "No folder is shared with this call: {why}. Nothing was read or changed. Ask the \
             user to share the folder in the client (or the operator to check the server's ceiling)."
        ),
    )
}

/// Why `set` is empty: the client declared no roots, listed none (after
/// sharing some, or on a request), or listed only roots that were refused
/// (named, with their reasons).
pub(crate) fn why(client: Client, set: &RootSet) -> String {
    if client == Client::Undeclared {
        return "the client does not declare the roots capability, and the server's policy \
                shares no folder with such clients"
            .to_owned();
    }
    if !set.rejected().is_empty() {
        let each: Vec<String> = set
            .rejected()
            .iter()
            .map(|r| format!("{} ({})", escaped(r.uri()), r.reason()))
            .collect();
        return format!(
            "none of the folders the client shared can be used: {}",
            each.join(", ")
        );
    }
    match client {
        Client::Session { shared: true } => "the client no longer shares any folder (its roots \
             list is empty; folders once shared are not replaced by the server's ceiling)"
            .to_owned(),
        Client::Request => "the client shares no folder with this request (its roots list is \
             empty; on this revision only a client without the roots capability can be served \
             the server's ceiling)"
            .to_owned(),
        _ => "the client shares no folder (its roots list is empty)".to_owned(),
    }
}
