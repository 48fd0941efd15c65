//! The protocol frontier of the glue over an rmcp session with the scripted
//! client: the
//! URL-mode guard (capability and revision), `ask_url` and its completion
//! notification, the `-32042` error on the wire, and on 2026-07-28 roots
//! and a form as input requests, `request_scoped` (policy applied, nothing
//! installed) and `form_outcome`.

use mcp_roots::{Roots, RootsBuilder};
use mcp_roots_rmcp::{
    ELICITATION_COMPLETE, Elicitor, Form, Outcome, ROOTS_INPUT, SessionRoots,
    URL_ELICITATION_REQUIRED, UrlElicitation, ask_roots, form_outcome, url_elicitation_required,
};
use mcp_script::{Client, ScriptedClient, UrlAnswer, text_of};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::InputResponses;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ElicitRequestParams, ElicitResult,
    ElicitationAction, ProtocolVersion, ServerCapabilities, ServerConfig,
};
use rmcp::serde_json::{Value, json};
use rmcp::service::{RequestContext, ServiceError};
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};

use super::harness::{call, serve};
use super::tree;

#[derive(Clone)]
struct Frontier {
    roots: SessionRoots,
    tool_router: ToolRouter<Frontier>,
}

fn confirm_form() -> Form {
    Form::confirm("Go ahead?", "Yes")
}

#[tool_router]
impl Frontier {
    #[tool(description = "Fails with -32042")]
    async fn needs_browser(&self) -> Result<CallToolResult, ErrorData> {
        Err(url_elicitation_required(&[UrlElicitation::new(
            "auth-1",
            "http://127.0.0.1:9/connect?token=abc",
            "Connect your account.",
        )]))
    }

    #[tool(description = "URL elicitation, then the completion notification")]
    async fn open_url(&self, cx: RequestContext<RoleServer>) -> CallToolResult {
        let mut ask = Elicitor::for_request(&cx);
        let url = url::Url::parse("http://127.0.0.1:9/setup?token=abc").unwrap();
        let outcome = match ask.ask_url("Open the page", &url, "setup-1").await {
            Ok(Outcome::Accepted(())) => {
                ask.complete("setup-1").await.unwrap();
                "accepted"
            }
            Ok(Outcome::Declined) => "declined",
            Ok(Outcome::Cancelled) => "cancelled",
            Err(err) => return err.to_tool_result(),
        };
        CallToolResult::structured(json!({ "outcome": outcome }))
    }

    #[tool(description = "2026-07-28: roots and a confirmation as input requests")]
    async fn scoped(&self, InputResponses(inputs): InputResponses) -> CallToolResponse {
        let form = confirm_form();
        let Some(inputs) = inputs else {
            return ask_roots(Some(("confirm", &form)), Some("round-2".into())).into();
        };
        let set = self.roots.request_scoped(&inputs[ROOTS_INPUT]);
        let confirm = form_outcome(&form, &inputs["confirm"]);
        let report = match set {
            Ok(set) => json!({
                "roots": set.roots().iter().map(|r| r.path().to_owned()).collect::<Vec<_>>(),
                "rejected": set.rejected().iter().map(|r| r.reason()).collect::<Vec<_>>(),
            }),
            Err(err) => json!({ "error": err.reason() }),
        };
        let confirm = match confirm {
            Ok(Outcome::Accepted(content)) => content["confirm"].clone(),
            Ok(other) => json!(format!("{other:?}")),
            Err(err) => json!(err.reason()),
        };
        let installed = self.roots.roots().generation();
        CallToolResult::structured(
            json!({ "set": report, "confirm": confirm, "installed": installed }),
        )
        .into()
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Frontier {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

fn frontier(policy: RootsBuilder) -> Frontier {
    Frontier {
        roots: SessionRoots::new(policy),
        tool_router: Frontier::tool_router(),
    }
}

async fn legacy(client: ScriptedClient) -> Client {
    serve(frontier(RootsBuilder::default()), client).await
}

async fn modern(policy: RootsBuilder, client: ScriptedClient) -> Client {
    let client = client.speaking(ProtocolVersion::V_2026_07_28);
    let (server, client) = mcp_script::connect_modern(frontier(policy), client)
        .await
        .unwrap();
    tokio::spawn(async move {
        if let Ok(Ok(running)) = server.await {
            let _ = running.waiting().await;
        }
    });
    client
}

#[tokio::test]
async fn the_url_required_error_reaches_the_client_as_32042() {
    let c = legacy(ScriptedClient::new(false, false)).await;
    let err = c
        .call_tool(CallToolRequestParams::new("needs_browser"))
        .await
        .unwrap_err();
    let ServiceError::McpError(data) = err else {
        panic!("{err:?}")
    };
    assert_eq!(
        (data.code, URL_ELICITATION_REQUIRED.0),
        (URL_ELICITATION_REQUIRED, -32042)
    );
    let elicitation = &data.data.unwrap()["elicitations"][0];
    assert_eq!(elicitation["mode"], "url");
    assert_eq!(elicitation["elicitationId"], "auth-1");
    assert_eq!(elicitation["url"], "http://127.0.0.1:9/connect?token=abc");
}

#[tokio::test]
async fn ask_url_sends_the_url_and_complete_notifies() {
    let client = ScriptedClient::new(false, true).with_url_mode();
    let script = client.clone();
    let c = legacy(client).await;
    script.answer_url(UrlAnswer::Accept(Vec::new()));
    let accepted = call(&c, "open_url", json!({})).await;
    assert_eq!(accepted.structured_content.unwrap()["outcome"], "accepted");
    let asked = script.asked();
    let [
        ElicitRequestParams::UrlElicitationParams {
            url,
            elicitation_id,
            ..
        },
    ] = &asked[..]
    else {
        panic!("{asked:?}")
    };
    assert_eq!(
        (url.as_str(), elicitation_id.as_str()),
        ("http://127.0.0.1:9/setup?token=abc", "setup-1")
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while script.notifications().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "no completion notification"
        );
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
    let notifications = script.notifications();
    assert_eq!(
        notifications,
        [(
            ELICITATION_COMPLETE.to_owned(),
            json!({ "elicitationId": "setup-1" })
        )]
    );
    for (answer, expected) in [
        (UrlAnswer::Decline, "declined"),
        (UrlAnswer::Cancel, "cancelled"),
    ] {
        script.answer_url(answer);
        let result = call(&c, "open_url", json!({})).await;
        assert_eq!(result.structured_content.unwrap()["outcome"], expected);
    }
    assert_eq!(script.notifications().len(), 1);
}

#[tokio::test]
async fn the_url_guard_refuses_before_sending_anything() {
    let cases = [
        (ScriptedClient::new(false, true), "did not declare URL-mode"),
        (
            ScriptedClient::new(false, false),
            "did not declare URL-mode",
        ),
        (
            ScriptedClient::new(false, true)
                .with_url_mode()
                .speaking(ProtocolVersion::V_2025_06_18),
            "predates URL mode",
        ),
    ];
    for (client, why) in cases {
        let script = client.clone();
        let c = legacy(client).await;
        let result = call(&c, "open_url", json!({})).await;
        assert_eq!(
            result.structured_content.as_ref().unwrap()["reason"],
            "url_elicitation_unsupported"
        );
        assert!(text_of(&result).contains(why), "{result:?}");
        assert!(script.asked().is_empty());
    }
    let client = ScriptedClient::new(false, true).with_url_mode();
    let script = client.clone();
    let c = modern(RootsBuilder::default(), client).await;
    let result = call(&c, "open_url", json!({})).await;
    assert!(text_of(&result).contains("input-required"), "{result:?}");
    assert!(script.asked().is_empty());
}

#[tokio::test]
async fn input_requests_carry_roots_and_a_form_and_nothing_is_installed() {
    let dir = tree();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let policy = Roots::builder().ceiling([a.to_str().unwrap()]);
    let client = ScriptedClient::new(true, true);
    let script = client.clone();
    script.set_root_uris(&[
        &format!("file://{}", dir.path().display()),
        b.to_str().unwrap(),
    ]);
    script.answer(
        ElicitResult::new(ElicitationAction::Accept).with_content(json!({ "confirm": true })),
    );
    let c = modern(policy, client).await;
    let result = call(&c, "scoped", json!({})).await;
    let report = result.structured_content.unwrap();
    // The tree root clipped to the ceiling `a`; `b` outside it.
    assert_eq!(report["set"]["roots"], json!([a.to_str().unwrap()]));
    assert_eq!(report["set"]["rejected"], json!(["outside_ceiling"]));
    assert_eq!(report["confirm"], true);
    assert_eq!(report["installed"], 0);
    assert_eq!(script.roots_requests(), 1);
    // A malformed roots answer or form answer, sent by hand.
    let bad: rmcp::model::InputResponses = rmcp::serde_json::from_value(json!({
        ROOTS_INPUT: { "roots": "nope" },
        "confirm": { "action": "accept", "content": { "confirm": "yes" } },
    }))
    .unwrap();
    let params = CallToolRequestParams::new("scoped").with_input_responses(bad);
    let CallToolResponse::Complete(result) = c.call_tool_once(params).await.unwrap() else {
        panic!("not complete")
    };
    let report: Value = result.structured_content.unwrap();
    assert_eq!(report["set"]["error"], "invalid_uri");
    assert_eq!(report["confirm"], "elicitation_invalid_answer");
}
