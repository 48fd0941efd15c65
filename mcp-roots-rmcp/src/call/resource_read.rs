//! [`ResourceRead`]: what one `resources/read` request brings, as a
//! server's `read_resource` receives it, and the digest a 2026-07-28 state
//! of it is bound to (its URI).

use rmcp::RoleServer;
use rmcp::model::{
    ClientCapabilities, InputResponses, ProtocolVersion, ReadResourceRequestParams, RequestId,
};
use rmcp::service::{Peer, RequestContext};
use sha2::{Digest, Sha256};

use crate::call::revision::Revision;

/// One `resources/read` request: the URI as the client sent it (untrusted),
/// the revision, the client's capabilities and, on 2026-07-28, the retry's
/// `inputResponses` and `requestState`.
///
/// Built in [`ServerHandler::read_resource`](rmcp::ServerHandler::read_resource)
/// from the request and its context, and handed to
/// [`SessionRoots::serve_resource`](crate::SessionRoots::serve_resource),
/// which serves it as [`serve`](crate::SessionRoots::serve) serves a tool
/// call: under the session's roots, or under this request's own roots on
/// 2026-07-28 (asked for with an input request).
#[derive(Debug)]
pub struct ResourceRead {
    pub(crate) peer: Peer<RoleServer>,
    pub(crate) id: RequestId,
    pub(crate) uri: String,
    pub(crate) protocol: Option<ProtocolVersion>,
    pub(crate) capabilities: Option<ClientCapabilities>,
    pub(crate) inputs: Option<InputResponses>,
    pub(crate) state: Option<String>,
}

impl ResourceRead {
    /// The read `request` asks for, with what its `context` carries.
    pub fn new(request: ReadResourceRequestParams, context: &RequestContext<RoleServer>) -> Self {
        let protocol = context.protocol_version();
        // On 2026-07-28 the request's `_meta` carries the capabilities; on
        // the session revisions the handshake did.
        let capabilities = match Revision::of(protocol.as_ref()) {
            Revision::Rounds => context.client_capabilities(),
            _ => context
                .peer
                .peer_info()
                .map(|info| info.capabilities.clone()),
        };
        Self {
            peer: context.peer.clone(),
            id: context.id.clone(),
            uri: request.uri,
            protocol,
            capabilities,
            inputs: request.input_responses,
            state: request.request_state,
        }
    }

    /// The URI the client asked for, as sent (untrusted: the library's
    /// parser judges it).
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The revision this request was sent on.
    pub fn revision(&self) -> Revision {
        Revision::of(self.protocol.as_ref())
    }

    /// The JSON-RPC id of this request.
    pub fn request_id(&self) -> &RequestId {
        &self.id
    }
}

/// What a sealed state of a read of `uri` is bound to: the method and the
/// URI, so that it serves no other read and no tool call (a tool's digest
/// covers its name, a NUL and its arguments as a JSON object, which cannot
/// begin with the `\u{1}` written here).
pub(crate) fn digest(uri: &str) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(b"resources/read\0\x01");
    hasher.update(uri.as_bytes());
    hasher.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_binds_the_uri() {
        assert_eq!(digest("file:///a"), digest("file:///a"));
        for other in ["file:///b", "file:///a/", "file:///A", "", "file:///a\0"] {
            assert_ne!(digest("file:///a"), digest(other), "{other:?}");
        }
    }
}
