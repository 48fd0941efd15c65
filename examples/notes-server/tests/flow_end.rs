//! A URL flow that ends on another instance closes its page on every
//! instance. Two notes servers in one process share the rounds' keys and
//! store (as instances behind a load balancer share Redis); instance A
//! asks `notes_setup`'s first round and serves the page, the rounds that
//! end the flow land on instance B. Once the flow has ended anywhere,
//! A's page answers `410` to a reload, a Save and a Cancel, and nothing
//! is set on either instance.

mod common;

use std::time::Duration;

use common::{TEMPLATE, reload};
use mcp_roots::RootsBuilder;
use mcp_roots_rmcp::{ROOTS_INPUT, Rounds, SessionRoots, Store};
use mcp_script::browser::{Step, Visit, browse};
use mcp_script::{self as client, Client, ScriptedClient};
use notes_server::NotesServer;
use notes_server::page::PageEnd;
use notes_server::prefs::Settings;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, InputResponses, ProtocolVersion,
};
use serde_json::{Value, json};

/// One instance: its rounds (shared key and store), server and client.
struct Instance {
    rounds: Rounds,
    server: NotesServer,
    client: Client,
}

async fn instance(store: &Store) -> Instance {
    // Rounds that wait 20 ms for the page, one "still waiting" round.
    let rounds = Rounds::with_key(&[7; 32])
        .with_store(store.clone())
        .with_url_wait(Duration::from_millis(20), 1);
    let session = SessionRoots::new(RootsBuilder::default()).with_rounds(rounds.clone());
    let server = NotesServer::with_session(session);
    let script = ScriptedClient::new(false, true)
        .with_url_mode()
        .speaking(ProtocolVersion::V_2026_07_28);
    let (pending, client) = client::connect_modern(server.clone(), script)
        .await
        .unwrap();
    tokio::spawn(async move {
        if let Ok(running) = pending.await.unwrap() {
            let _ = running.waiting().await;
        }
    });
    Instance {
        rounds,
        server,
        client,
    }
}

async fn round(c: &Client, inputs: Value, state: Option<&str>) -> CallToolResponse {
    let mut params = CallToolRequestParams::new("notes_setup");
    if !inputs.is_null() {
        let inputs: InputResponses = serde_json::from_value(inputs).unwrap();
        params = params.with_input_responses(inputs);
    }
    if let Some(state) = state {
        params = params.with_request_state(state);
    }
    c.call_tool_once(params).await.unwrap()
}

/// Rounds on `c` from `state` until the call completes.
async fn until_complete(c: &Client, inputs: Value, state: String) -> CallToolResult {
    let (mut inputs, mut state) = (inputs, state);
    for _ in 0..8 {
        match round(c, inputs, Some(&state)).await {
            CallToolResponse::Complete(result) => return result,
            CallToolResponse::InputRequired(waiting) => {
                assert!(waiting.input_requests.is_none_or(|r| r.is_empty()));
                state = waiting.request_state.expect("still waiting");
                inputs = Value::Null;
            }
            other => panic!("{other:?}"),
        }
    }
    panic!("the call never completed");
}

/// The first round on `a`: the state, the URL question's key, the page's
/// URL and the flow id.
async fn first_round(a: &Instance) -> (String, String, String, String) {
    let CallToolResponse::InputRequired(asked) = round(&a.client, Value::Null, None).await else {
        panic!("the first round asks for the URL");
    };
    let state = asked.request_state.expect("a state");
    let requests = asked.input_requests.unwrap_or_default();
    let (key, request) = requests
        .into_iter()
        .find(|(key, _)| key != ROOTS_INPUT)
        .expect("the URL question");
    let params = serde_json::to_value(request).unwrap()["params"].clone();
    assert_eq!(params["mode"], "url");
    let url = params["url"].as_str().unwrap().to_owned();
    let id = params["elicitationId"].as_str().unwrap().to_owned();
    (state, key, url, id)
}

async fn visit(url: &str, step: Step) -> Visit {
    let mut visits = Vec::new();
    browse(url, &[step], |v| visits.push(v)).await;
    visits.pop().expect("one visit")
}

/// How the flow ends on instance B.
#[derive(Clone, Copy, Debug)]
enum EndOnB {
    /// The user declines the URL: B drops the flow.
    Decline,
    /// The client cancels: B drops the flow.
    Cancel,
    /// The user agrees, never submits; B's last waiting round gives up.
    OutOfRounds,
    /// The flow's end is recorded by B (its page, or its completion).
    Finished,
}

#[tokio::test]
async fn a_flow_that_ended_on_another_instance_closes_the_page() {
    for end in [
        EndOnB::Decline,
        EndOnB::Cancel,
        EndOnB::OutOfRounds,
        EndOnB::Finished,
    ] {
        let store = Store::memory(1024);
        let (a, b) = (instance(&store).await, instance(&store).await);
        let (state, key, url, id) = first_round(&a).await;
        assert_eq!(reload(&url).await.status, 200, "{end:?}: the page is open");
        let expected = match end {
            EndOnB::Decline | EndOnB::Cancel => {
                let action = match end {
                    EndOnB::Decline => "decline",
                    _ => "cancel",
                };
                let answer = json!({ key.as_str(): { "action": action } });
                let result = until_complete(&b.client, answer, state).await;
                Some(result.structured_content.unwrap()["outcome"].clone())
            }
            EndOnB::OutOfRounds => {
                let consent = json!({ key.as_str(): { "action": "accept" } });
                let result = until_complete(&b.client, consent, state).await;
                Some(result.structured_content.unwrap()["outcome"].clone())
            }
            EndOnB::Finished => {
                assert!(b.rounds.finish_flow(&id, None::<&PageEnd>).await.unwrap());
                None
            }
        };
        if let Some(outcome) = expected {
            assert_ne!(outcome, json!("configured"), "{end:?}");
        }
        for step in [
            Step::open(),
            Step::submit(&[("template", TEMPLATE)]),
            Step::cancel(),
        ] {
            let seen = visit(&url, step.clone()).await;
            assert_eq!(seen.status, 410, "{end:?} {step:?}: {seen:?}");
            assert_eq!(seen.heading, "This setup page is closed", "{end:?}");
        }
        assert!(!a.rounds.flow_is_open(&id).await.unwrap());
        for server in [&a.server, &b.server] {
            assert_eq!(server.preferences().get(), Settings::default(), "{end:?}");
        }
    }
}

#[tokio::test]
async fn a_page_whose_flow_is_open_elsewhere_still_saves() {
    let store = Store::memory(1024);
    let (a, b) = (instance(&store).await, instance(&store).await);
    let (state, key, url, id) = first_round(&a).await;
    // The consent lands on B; the flow stays open for A's page.
    let consent = json!({ key.as_str(): { "action": "accept" } });
    let CallToolResponse::InputRequired(waiting) = round(&b.client, consent, Some(&state)).await
    else {
        panic!("still waiting for the page");
    };
    assert!(b.rounds.flow_is_open(&id).await.unwrap());
    assert_eq!(reload(&url).await.status, 200);
    let saved = visit(&url, Step::submit(&[("template", TEMPLATE)])).await;
    assert_eq!(saved.status, 200, "{saved:?}");
    // Saved once: the flow's end is in the store, a second Save is closed.
    assert_eq!(visit(&url, Step::cancel()).await.status, 410);
    let state = waiting.request_state.expect("a state");
    let result = until_complete(&b.client, Value::Null, state).await;
    assert_eq!(result.structured_content.unwrap()["outcome"], "configured");
    for server in [&a.server, &b.server] {
        assert_eq!(
            server.preferences().get().template.as_deref(),
            Some(TEMPLATE)
        );
    }
}
