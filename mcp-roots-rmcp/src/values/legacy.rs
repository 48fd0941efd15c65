//! The wire shapes of rmcp's roots API, as plain values: a root of a
//! `roots/list` answer in our own type, the capability that announces it,
//! the input request of 2026-07-28 and its answer. Sending `roots/list` to
//! a client is the session's ([`session::list`](crate::session::list)),
//! the one other module that names this API.
//!
//! rmcp 3.x marks `Root`, `ListRootsResult`, `ListRootsRequest` and
//! `Peer<RoleServer>::list_roots` `#[deprecated]`: SEP-2577 removes
//! server-to-client roots requests from the 2026-07-28 revision. Clients speak
//! 2025-06-18 and 2025-11-25 today, where `roots/list` is how a server learns
//! the user's consent boundary, so this crate still calls it. The `allow` is
//! confined to these two modules, and no deprecated type leaves them.
#![allow(deprecated)]

use rmcp::model::ClientCapabilities;

/// One root of a `roots/list` answer, in our own type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClientRoot {
    pub(crate) uri: String,
    pub(crate) name: Option<String>,
}

/// Whether the client declared the `roots` capability.
pub(crate) fn declares_roots(capabilities: &ClientCapabilities) -> bool {
    capabilities.roots.is_some()
}

/// The roots of a `roots/list` answer, in our own type.
pub(crate) fn client_roots(answer: rmcp::model::ListRootsResult) -> Vec<ClientRoot> {
    let roots = answer.roots.into_iter();
    roots
        .map(|root| ClientRoot {
            uri: root.uri,
            name: root.name,
        })
        .collect()
}

/// A `roots/list` carried in an input-required result (2026-07-28).
pub(crate) fn roots_input_request() -> rmcp::model::InputRequest {
    rmcp::model::InputRequest::ListRoots(rmcp::model::ListRootsRequest::default())
}

/// The client's answer to [`roots_input_request`], from `inputResponses`.
pub(crate) fn roots_from_response(
    response: &serde_json::Value,
) -> Result<Vec<ClientRoot>, serde_json::Error> {
    let answer: rmcp::model::ListRootsResult = serde_json::from_value(response.clone())?;
    Ok(client_roots(answer))
}
