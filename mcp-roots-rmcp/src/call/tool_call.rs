//! [`ToolCall`]: what one `tools/call` request brings, taken by rmcp's tool
//! router like any other extractor, and the [`Revision`](super::revision::Revision) it was sent on.

use std::borrow::Cow;

use rmcp::ErrorData;
use rmcp::Peer;
use rmcp::RoleServer;
use rmcp::ServerHandler;
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{ClientCapabilities, InputResponses, JsonObject, ProtocolVersion, RequestId};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::call::resource_read::ResourceRead;
use crate::call::revision::Revision;
use crate::values::stop::Stop;

/// One `tools/call` request, as a tool method's argument.
///
/// A tool with arguments takes its call and its arguments together, through
/// the glue's [`Parameters`](crate::Parameters): `Parameters(call, args):
/// Parameters<Args>` (the arguments bound to the call, whatever order the
/// method's arguments come in). A tool without arguments takes a
/// `ToolCall` alone.
///
/// A `ToolCall` beside rmcp's own `Parameters<…>` must come **before** it:
/// it reads the arguments (to bind any `requestState` to a digest of them)
/// and rmcp's `Parameters` takes them. Placed after it, it cannot see
/// them; when the tool declares arguments, such a call is refused with
/// `arguments_unseen` (nothing read or changed) on 2026-07-28, where the
/// state is bound to them, and on every revision when the tool has a
/// required argument (so the wrong order fails the first test that calls
/// the tool). It learns what the tool declares from
/// [`ServerHandler::get_tool`](rmcp::ServerHandler::get_tool), which
/// `#[tool_handler]` implements.
///
/// (See [`SessionRoots::serve`](crate::SessionRoots::serve) for a whole tool.)
///
/// It carries what the glue needs of the request (the peer, the protocol
/// revision, the client's capabilities), and on 2026-07-28 the retry's
/// `inputResponses` and
/// `requestState`, which [`SessionRoots::serve`](crate::SessionRoots::serve)
/// and [`serve_with`](crate::SessionRoots::serve_with) consume.
#[derive(Debug)]
pub struct ToolCall {
    pub(crate) peer: Peer<RoleServer>,
    pub(crate) id: RequestId,
    pub(crate) tool: Cow<'static, str>,
    pub(crate) protocol: Option<ProtocolVersion>,
    /// From this request's `_meta` on 2026-07-28 (read once); `None` on
    /// the session revisions, where the handshake has them.
    meta_capabilities: Option<ClientCapabilities>,
    /// The arguments, kept on 2026-07-28 only (a state is bound to their
    /// digest, computed when a state is sealed or opened).
    arguments: Option<JsonObject>,
    /// Whether the arguments were gone before this call saw them.
    unseen: Unseen,
    pub(crate) inputs: Option<InputResponses>,
    pub(crate) state: Option<String>,
    /// The URI of a `resources/read` served as a call
    /// ([`ToolCall::for_resource`]): its state is bound to the read's
    /// digest, never a tool's.
    resource: Option<String>,
}

/// Whether a call saw its arguments: `Optional` / `Required` when it found
/// none although the tool declares some (optional only, or at least one
/// required): an extractor before it may have taken them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unseen {
    No,
    Optional,
    Required,
}

impl<S: ServerHandler> FromContextPart<ToolCallContext<'_, S>> for ToolCall {
    fn from_context_part(cx: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        let unseen = match cx.arguments {
            Some(_) => Unseen::No,
            None => unseen(cx),
        };
        // The arguments stay for the extractor that takes them; a copy is
        // made only where a state is bound to them (2026-07-28).
        let protocol = cx.request_context.protocol_version();
        let arguments = match Revision::of(protocol.as_ref()) {
            Revision::Rounds => cx.arguments.clone(),
            _ => None,
        };
        Ok(Self::of(cx, protocol, arguments, unseen))
    }
}

/// What a tool that found no arguments declares: nothing (it has none),
/// optional arguments, or a required one.
fn unseen<S: ServerHandler>(cx: &ToolCallContext<'_, S>) -> Unseen {
    let Some(tool) = cx.service.get_tool(&cx.name) else {
        return Unseen::No; // not known: nothing to judge by
    };
    let schema = &tool.input_schema;
    let declares = |key: &str| match schema.get(key) {
        Some(Value::Object(o)) => !o.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        _ => false,
    };
    if declares("required") {
        Unseen::Required
    } else if declares("properties") {
        Unseen::Optional
    } else {
        Unseen::No
    }
}

impl ToolCall {
    /// The call of `cx`, whose arguments (as the client sent them) are
    /// `arguments` (kept on 2026-07-28 only).
    fn of<S>(
        cx: &mut ToolCallContext<'_, S>,
        protocol: Option<ProtocolVersion>,
        arguments: Option<JsonObject>,
        unseen: Unseen,
    ) -> Self {
        let request = &cx.request_context;
        let rounds = Revision::of(protocol.as_ref()) == Revision::Rounds;
        Self {
            peer: request.peer.clone(),
            id: request.id.clone(),
            tool: cx.name.clone(),
            meta_capabilities: if rounds {
                request.client_capabilities()
            } else {
                None
            },
            arguments,
            unseen,
            protocol,
            inputs: cx.input_responses.take(),
            state: cx.request_state.take(),
            resource: None,
        }
    }

    /// A `resources/read` served as a call is (its questions asked, its
    /// rounds sealed and opened as a tool call's), named
    /// `resources/read` in its logs and questions, its states bound to the
    /// URI (the read's digest).
    pub(crate) fn for_resource(read: ResourceRead) -> Self {
        let rounds = read.revision() == Revision::Rounds;
        Self {
            peer: read.peer,
            id: read.id,
            tool: Cow::Borrowed("resources/read"),
            meta_capabilities: if rounds { read.capabilities } else { None },
            arguments: None,
            unseen: Unseen::No,
            protocol: read.protocol,
            inputs: read.inputs,
            state: read.state,
            resource: Some(read.uri),
        }
    }

    /// The call of `cx` for an extractor that takes the arguments itself
    /// (the glue's [`Parameters`](crate::Parameters)): `arguments` are the
    /// call's as the client sent them on 2026-07-28 (`None`: it sent none,
    /// and the tool deserialised its arguments from `{}`; or another
    /// revision, where nothing is bound to them), so nothing is unseen.
    ///
    /// `arguments` are called with whether the call is on 2026-07-28, so
    /// the extractor copies them only there.
    pub(crate) fn with_arguments<S>(
        cx: &mut ToolCallContext<'_, S>,
        arguments: impl FnOnce(bool) -> Option<JsonObject>,
    ) -> Self {
        let protocol = cx.request_context.protocol_version();
        let kept = arguments(Revision::of(protocol.as_ref()) == Revision::Rounds);
        Self::of(cx, protocol, kept, Unseen::No)
    }

    /// The refusal of a call that could not see its arguments where that
    /// matters: on 2026-07-28 (a state would be bound to none), and on
    /// every revision for a tool with a required argument. `None`
    /// otherwise (logged when the tool declares optional arguments).
    pub(crate) fn unseen_arguments(&self) -> Option<Stop> {
        let refuse = match self.unseen {
            Unseen::No => false,
            Unseen::Required => true,
            Unseen::Optional => self.revision() == Revision::Rounds,
        };
        if !refuse {
            if self.unseen == Unseen::Optional {
                tracing::warn!(
                    tool = %self.tool,
                    "this call carried no arguments; if an extractor before ToolCall took them, \
                     put ToolCall first or take mcp_roots_rmcp::Parameters"
                );
            }
            return None;
        }
        tracing::error!(
            tool = %self.tool,
            "the tool's ToolCall could not see the call's arguments (an extractor before it, \
             such as rmcp's Parameters, took them): the call is refused; put ToolCall before \
             Parameters, or take the call and its arguments together with mcp_roots_rmcp::Parameters"
        );
        Some(Stop::refused(
            "arguments_unseen",
            "This tool cannot serve the call: the server could not bind the call to its \
             arguments (a server bug: its ToolCall comes after the extractor that takes them). \
             Nothing was read or changed. Tell the server's maintainer.",
        ))
    }
}

impl ToolCall {
    /// The tool's name.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The client of this call.
    pub fn peer(&self) -> &Peer<RoleServer> {
        &self.peer
    }

    /// The JSON-RPC id of this request.
    pub fn request_id(&self) -> &RequestId {
        &self.id
    }

    /// The revision this request was sent on.
    pub fn revision(&self) -> Revision {
        Revision::of(self.protocol.as_ref())
    }

    /// The client's capabilities (from `initialize`, or from this request's
    /// `_meta` on 2026-07-28).
    pub fn client_capabilities(&self) -> Option<ClientCapabilities> {
        match &self.meta_capabilities {
            Some(capabilities) => Some(capabilities.clone()),
            None => self.peer.peer_info().map(|info| info.capabilities.clone()),
        }
    }

    pub(crate) fn declares_roots(&self) -> bool {
        match &self.meta_capabilities {
            Some(capabilities) => capabilities.roots.is_some(),
            None => self
                .peer
                .peer_info()
                .is_some_and(|info| info.capabilities.roots.is_some()),
        }
    }

    /// What a sealed state of this call is bound to: the tool and its
    /// arguments.
    pub(crate) fn digest(&self) -> [u8; 32] {
        match &self.resource {
            Some(uri) => crate::call::resource_read::digest(uri),
            None => digest(&self.tool, self.arguments.as_ref()),
        }
    }
}

/// SHA-256 of the tool's name and its arguments in a canonical form (object
/// keys sorted), so that a state is bound to this call and no other.
fn digest(tool: &str, arguments: Option<&JsonObject>) -> [u8; 32] {
    let mut canonical = String::new();
    canonical.push_str(tool);
    canonical.push('\0');
    if let Some(arguments) = arguments {
        write_object(&mut canonical, arguments);
    }
    Sha256::digest(canonical.as_bytes()).into()
}

fn write_canonical(out: &mut String, value: &Value) {
    match value {
        Value::Object(object) => write_object(out, object),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(out, item);
            }
            out.push(']');
        }
        // Scalars print the same whatever the map order.
        scalar => out.push_str(&scalar.to_string()),
    }
}

fn write_object(out: &mut String, object: &JsonObject) {
    let mut keys: Vec<&String> = object.keys().collect();
    keys.sort();
    out.push('{');
    for (i, key) in keys.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&Value::String(key.clone()).to_string());
        out.push(':');
        write_canonical(out, &object[key]);
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(o) => o,
            _ => unreachable!("an object literal"),
        }
    }

    #[test]
    fn digest_ignores_key_order_and_binds_tool_and_values() {
        let a = object(serde_json::json!({"path": "/a", "n": [1, {"x": 1, "y": 2}]}));
        let b = object(serde_json::json!({"n": [1, {"y": 2, "x": 1}], "path": "/a"}));
        assert_eq!(digest("t", Some(&a)), digest("t", Some(&b)));
        assert_ne!(digest("t", Some(&a)), digest("u", Some(&a)));
        let c = object(serde_json::json!({"path": "/b", "n": [1, {"x": 1, "y": 2}]}));
        assert_ne!(digest("t", Some(&a)), digest("t", Some(&c)));
        assert_ne!(digest("t", Some(&a)), digest("t", None));
        // A key cannot smuggle structure: "a\":1" is one key, not two fields.
        let d = object(serde_json::json!({"a\":1,\"b": 2}));
        let e = object(serde_json::json!({"a": 1, "b": 2}));
        assert_ne!(digest("t", Some(&d)), digest("t", Some(&e)));
    }
}
