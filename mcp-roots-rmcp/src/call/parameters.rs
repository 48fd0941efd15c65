//! [`Parameters`]: a tool's call and its typed arguments, taken together,
//! so the call is always bound to the arguments the tool acts on.

use rmcp::ErrorData;
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::call::tool_call::ToolCall;

/// A tool's call and its arguments, deserialised into `A`: the glue's
/// replacement for rmcp's `Parameters<A>`, which takes the arguments only.
///
/// ```no_run
/// # use mcp_roots_rmcp::{Parameters, SessionRoots};
/// # use rmcp::handler::server::router::tool::ToolRouter;
/// # use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
/// # use rmcp::{tool, tool_router};
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct ReadArgs {
///     /// A `file://` URI or an absolute path inside the shared folders.
///     path: String,
/// }
/// # #[derive(Clone)]
/// # struct Server { roots: SessionRoots, tool_router: ToolRouter<Server> }
/// # #[tool_router]
/// # impl Server {
/// #[tool(description = "Read a text file inside the shared folders")]
/// async fn read(&self, Parameters(call, args): Parameters<ReadArgs>) -> CallToolResponse {
///     self.roots
///         .serve(call, move |snap| {
///             let text = std::io::read_to_string(snap.open(&args.path)?)?;
///             Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
///         })
///         .await
/// }
/// # }
/// # fn main() {}
/// ```
///
/// One extractor reads the arguments once: it deserialises `A` from them
/// and keeps them in the [`ToolCall`], so on 2026-07-28 a `requestState`
/// is bound to exactly the arguments the tool acts on, whatever else the
/// method takes and in whatever order. Import it instead of rmcp's
/// `Parameters` (the name is the same on purpose: rmcp's `#[tool]` macro
/// finds a tool's input schema by the type named `Parameters` in its
/// method, so the schema of `A` is advertised as with rmcp's). A tool
/// without arguments takes a [`ToolCall`] alone.
///
/// Arguments that do not match `A` are refused as rmcp's `Parameters`
/// refuses them (a JSON-RPC `invalid_params` error naming the mismatch);
/// missing arguments deserialise from `{}` (and the call is bound to "no
/// arguments", which is what the client sent). Take the arguments once: an
/// extractor before this one that takes them too (rmcp's `Parameters`,
/// a `JsonObject`) leaves it none.
#[derive(Debug)]
#[allow(clippy::exhaustive_structs)] // the pattern `Parameters(call, args)` is the API
pub struct Parameters<A>(pub ToolCall, pub A);

impl<S, A> FromContextPart<ToolCallContext<'_, S>> for Parameters<A>
where
    A: DeserializeOwned,
{
    fn from_context_part(cx: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        let arguments = cx.arguments.take();
        // Taken once and deserialised by value (strings move into `A`);
        // copied first only on 2026-07-28, where a state is bound to them
        // (as sent: no arguments is not `{}`).
        let call = ToolCall::with_arguments(cx, |rounds| match rounds {
            true => arguments.clone(),
            false => None,
        });
        let value = Value::Object(arguments.unwrap_or_default());
        let args = A::deserialize(value).map_err(|e| {
            ErrorData::invalid_params(format!("failed to deserialize parameters: {e}"), None)
        })?;
        Ok(Self(call, args))
    }
}

impl<A: JsonSchema> JsonSchema for Parameters<A> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        A::schema_name()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        A::json_schema(generator)
    }
}
