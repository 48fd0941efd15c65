//! Why a call has no root: said to the model (the tool result) and to the
//! operator (the log), so that a client without the capability or a
//! misconfigured ceiling is never mistaken for a slow client.

use mcp_roots::RootSet;

use crate::answer::escaped;
use crate::stop::Stop;

/// The `no_roots` refusal for an empty `set`, naming its cause.
pub(crate) fn no_roots(declared: bool, set: &RootSet) -> Stop {
    let why = why(declared, set);
    tracing::warn!(%why, "no usable root for this call");
    Stop::refused(
        "no_roots",
        format!(
            "No folder is shared with this call: {why}. Nothing was read or changed. Ask the \
             user to share the folder in the client (or the operator to check the server's ceiling)."
        ),
    )
}

/// Why `set` is empty: the client declared no roots (`declared` false),
/// listed none, or listed only roots that were refused (named, with
/// their reasons).
pub(crate) fn why(declared: bool, set: &RootSet) -> String {
    if !declared {
        "the client does not declare the roots capability, and the server's policy shares no \
         folder with such clients"
            .to_owned()
    } else if set.rejected().is_empty() {
        "the client shares no folder (its roots list is empty)".to_owned()
    } else {
        let each: Vec<String> = set
            .rejected()
            .iter()
            .map(|r| format!("{} ({})", escaped(r.uri()), r.reason()))
            .collect();
        format!(
            "none of the folders the client shared can be used: {}",
            each.join(", ")
        )
    }
}
