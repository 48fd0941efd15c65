//! Several `mcp-roots-fs --http` instances behind one load balancer on
//! 2026-07-28: one Redis (`--state`), one key file (`--state-key-file`),
//! and each round of one call sent to another instance, as a load balancer
//! may. Most rounds are driven by hand (`call_tool_once`, one 2026-07-28
//! client per instance), so the test names the instance of every round and
//! can replay a request state anywhere; one test puts a round-robin
//! balancer in front and lets rmcp's own client drive the rounds.
//!
//! The flow of a confirmed change (`--confirm`) by a client that declares
//! roots and forms: round 1 asks for the roots only and carries no state;
//! round 2, given the roots, asks the question (`q0`, with the roots again)
//! and seals the call's progress in `requestState`; round 3 carries the
//! roots, the answer and the state, which is consumed (recorded in Redis)
//! before the change is made.
//!
//! Asserted: the change made once, on the third instance; a consumed state
//! refused on every instance of the fleet; a state sealed with other keys,
//! or presented for another call, refused; a rolling key rotation with the
//! instances at different steps; a declined, cancelled or "no"
//! answer changing nothing, nor a "yes" replayed after it; Redis away:
//! the consuming round refused, nothing changed. And the documented limits,
//! as they are: an instance with the same keys but its own memory store,
//! and a Redis restarted without persistence, accept a consumed state once
//! more (within its TTL).
//!
//! Skipped, saying so, where there is no `redis-server` binary, except in
//! CI, which installs it.

#![cfg(unix)]

mod common;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_script::{Connection, ScriptedClient, accept, cancel, decline, modern_lifecycle, text_of};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ElicitResult, InputRequiredResult,
    InputResponses, ProtocolVersion,
};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use common::redis::{Redis, key_file, key_ring_file};
use common::{HttpServer, NoServer};

/// The longest one round may take before the test fails (never hangs).
const ROUND_BOUND: Duration = Duration::from_secs(30);

/// What the key-less instance logs at start (its states are its own).
const OWN_KEY_WARNING: &str = "--state is shared but the key is this process's own";

/// A directory of files to change, its key files and a Redis.
struct Fleet {
    _dir: tempfile::TempDir,
    base: PathBuf,
    redis: Redis,
}

impl Fleet {
    fn new() -> Option<Self> {
        let redis = Redis::start()?;
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(base.join("root/sub")).unwrap();
        key_file(&base, "keys", 0xab);
        key_file(&base, "other-keys", 0xcd);
        Some(Self {
            _dir: dir,
            base,
            redis,
        })
    }

    fn at(&self, rel: &str) -> String {
        self.base.join(rel).to_str().unwrap().to_owned()
    }

    fn read(&self, rel: &str) -> Option<String> {
        std::fs::read_to_string(self.base.join(rel)).ok()
    }

    fn write(&self, rel: &str, text: &str) {
        std::fs::write(self.base.join(rel), text).unwrap();
    }

    /// A roots answer sharing `rels`.
    fn roots(&self, rels: &[&str]) -> Value {
        let roots: Vec<Value> = rels
            .iter()
            .map(|rel| json!({ "uri": format!("file://{}", self.at(rel)) }))
            .collect();
        json!({ "roots": roots })
    }

    /// `--state` and `--state-key-file` as every instance of the fleet has them.
    fn shared(&self) -> Vec<String> {
        vec![
            "--state".to_owned(),
            self.redis.url(),
            "--state-key-file".to_owned(),
            self.at("keys"),
        ]
    }

    /// An instance serving `root` with `--confirm` and `state` (its
    /// `--state` and key options), and a 2026-07-28 client of its own that
    /// declares roots and forms.
    async fn instance(&self, state: &[String]) -> Instance {
        let server = self.server(state);
        let said = server.before.clone();
        let script = ScriptedClient::new(true, true).speaking(ProtocolVersion::V_2026_07_28);
        let conn = Connection::http(&server.url.clone(), script, modern_lifecycle())
            .await
            .expect("a 2026-07-28 client over HTTP")
            .keeping(server);
        Instance { conn, said }
    }

    /// The server of an [`instance`](Self::instance), alone.
    fn server(&self, state: &[String]) -> HttpServer {
        let mut args = vec![
            self.at("root"),
            "--confirm".to_owned(),
            "--http".to_owned(),
            "127.0.0.1:0".to_owned(),
        ];
        args.extend_from_slice(state);
        HttpServer::start(&args)
    }

    async fn instances(&self, count: usize) -> Vec<Instance> {
        let mut started = Vec::new();
        for _ in 0..count {
            started.push(self.instance(&self.shared()).await);
        }
        started
    }
}

/// One server process and the client that speaks to it alone.
#[derive(Debug)]
struct Instance {
    conn: Connection<NoServer>,
    /// Its stderr before it listened.
    said: Vec<String>,
}

impl Instance {
    /// One round of `tool`: `inputs` (omitted when empty) and `state`.
    async fn round(
        &self,
        tool: &'static str,
        args: &Value,
        inputs: &[(&str, Value)],
        state: Option<&str>,
    ) -> CallToolResponse {
        let mut params =
            CallToolRequestParams::new(tool).with_arguments(args.as_object().unwrap().clone());
        if !inputs.is_empty() {
            let inputs: InputResponses = inputs
                .iter()
                .map(|(key, value)| ((*key).to_owned(), value.clone()))
                .collect();
            params = params.with_input_responses(inputs);
        }
        if let Some(state) = state {
            params = params.with_request_state(state);
        }
        tokio::time::timeout(ROUND_BOUND, self.conn.client.call_tool_once(params))
            .await
            .expect("the round answers in time")
            .expect("a tools/call answer")
    }
}

fn input_required(response: CallToolResponse) -> InputRequiredResult {
    match response {
        CallToolResponse::InputRequired(asked) => asked,
        other => panic!("expected an input-required round: {other:?}"),
    }
}

fn complete(response: CallToolResponse) -> CallToolResult {
    match response {
        CallToolResponse::Complete(result) => result,
        other => panic!("expected a tool result: {other:?}"),
    }
}

/// The keys of the input requests, sorted.
fn asked_keys(asked: &InputRequiredResult) -> Vec<String> {
    asked
        .input_requests
        .iter()
        .flatten()
        .map(|(key, _)| key.clone())
        .collect()
}

fn reason(result: &CallToolResult) -> Option<&str> {
    result.structured_content.as_ref()?["reason"].as_str()
}

fn answer(result: ElicitResult) -> Value {
    serde_json::to_value(result).unwrap()
}

fn yes() -> Value {
    answer(accept(json!({ "confirm": true })))
}

/// Rounds 1 and 2 of a confirmed change: the roots round on `first`
/// (nothing sealed), the question on `second`. The state, and the question
/// as sent.
async fn up_to_the_question(
    first: &Instance,
    second: &Instance,
    tool: &'static str,
    args: &Value,
    roots: &Value,
) -> (String, Value) {
    let asked = input_required(first.round(tool, args, &[], None).await);
    assert_eq!(asked_keys(&asked), ["roots"], "{asked:?}");
    assert_eq!(asked.request_state, None, "the roots round seals nothing");
    let asked = input_required(
        second
            .round(tool, args, &[("roots", roots.clone())], None)
            .await,
    );
    assert_eq!(asked_keys(&asked), ["q0", "roots"], "{asked:?}");
    let question = serde_json::to_value(&asked.input_requests.as_ref().unwrap()["q0"]).unwrap();
    let state = asked
        .request_state
        .expect("the question round seals its progress");
    (state, question)
}

/// One confirmed change per destructive tool: its arguments, the files it
/// touches (relative to the fleet), their contents before, and after an
/// accepted change (`None`: gone).
struct Change {
    tool: &'static str,
    args: Value,
    before: Vec<(&'static str, &'static str)>,
    after: Vec<(&'static str, Option<&'static str>)>,
}

fn changes(fleet: &Fleet) -> Vec<Change> {
    vec![
        Change {
            tool: "write_file",
            args: json!({ "path": fleet.at("root/w.txt"), "content": "new\n" }),
            before: vec![("root/w.txt", "old\n")],
            after: vec![("root/w.txt", Some("new\n"))],
        },
        Change {
            tool: "move_file",
            args: json!({
                "source": fleet.at("root/m1.txt"),
                "destination": fleet.at("root/sub/m2.txt"),
            }),
            before: vec![("root/m1.txt", "moved\n"), ("root/sub/m2.txt", "kept\n")],
            after: vec![("root/m1.txt", None), ("root/sub/m2.txt", Some("moved\n"))],
        },
        Change {
            tool: "edit_file",
            args: json!({
                "path": fleet.at("root/e.txt"),
                "edits": [{ "oldText": "two", "newText": "2" }],
            }),
            before: vec![("root/e.txt", "one\ntwo\nthree\n")],
            after: vec![("root/e.txt", Some("one\n2\nthree\n"))],
        },
    ]
}

impl Change {
    fn reset(&self, fleet: &Fleet) {
        for (rel, text) in &self.before {
            fleet.write(rel, text);
        }
    }

    fn assert_unchanged(&self, fleet: &Fleet, when: &str) {
        for (rel, text) in &self.before {
            assert_eq!(
                fleet.read(rel).as_deref(),
                Some(*text),
                "{}: {when}",
                self.tool
            );
        }
    }

    fn assert_changed(&self, fleet: &Fleet, when: &str) {
        for (rel, text) in &self.after {
            assert_eq!(fleet.read(rel).as_deref(), *text, "{}: {when}", self.tool);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_round_of_a_confirmed_change_on_another_instance() {
    let Some(fleet) = Fleet::new() else {
        return;
    };
    let instances = fleet.instances(3).await;
    let roots = fleet.roots(&["root"]);
    for (row, change) in changes(&fleet).into_iter().enumerate() {
        change.reset(&fleet);
        // Every instance plays every part over the rows.
        let [a, b, c] = [row, row + 1, row + 2].map(|i| &instances[i % 3]);
        let (state, question) = up_to_the_question(a, b, change.tool, &change.args, &roots).await;
        assert_eq!(question["method"], "elicitation/create", "{question}");
        let message = question["params"]["message"].as_str().unwrap_or_default();
        let named = fleet.at(change.before[0].0);
        assert!(message.contains(&named), "{message}");
        change.assert_unchanged(&fleet, "asked, not yet answered");
        let done = complete(
            c.round(
                change.tool,
                &change.args,
                &[("roots", roots.clone()), ("q0", yes())],
                Some(&state),
            )
            .await,
        );
        assert_ne!(done.is_error, Some(true), "{}: {done:?}", change.tool);
        change.assert_changed(&fleet, "confirmed on the third instance");
    }
    let keys = fleet.redis.keys();
    assert!(
        keys.len() == 3 && keys.iter().all(|k| k.starts_with("mcp-roots-fs")),
        "one consumed state each, in Redis: {keys:?}"
    );
    // Kept for the state's life (5 minutes) plus the clock skew the
    // deployment tolerates (5 minutes), not for ever.
    for key in &keys {
        let left = fleet.redis.pttl(key);
        assert!(left > 300_000 && left <= 600_000, "{key}: {left} ms");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_roots_round_on_one_instance_and_its_retry_on_another() {
    let Some(fleet) = Fleet::new() else {
        return;
    };
    fleet.write("root/a.txt", "alpha\n");
    fleet.write("root/sub/b.md", "bee\n");
    // The roots round seals nothing, so its retry needs nothing shared:
    // the same on two instances that share no store and no keys.
    for (pair, state) in [("shared", fleet.shared()), ("sharing nothing", vec![])] {
        let a = fleet.instance(&state).await;
        let b = fleet.instance(&state).await;
        let read = json!({ "path": fleet.at("root/a.txt") });
        let first = input_required(a.round("read_text_file", &read, &[], None).await);
        assert_eq!(asked_keys(&first), ["roots"], "{pair}");
        assert_eq!(first.request_state, None, "{pair}");
        // The retry, with each answer, on the other instance.
        for (inputs, expect_text, expect_reason) in [
            (
                vec![("roots", fleet.roots(&["root"]))],
                Some("alpha\n"),
                None,
            ),
            (
                vec![("roots", fleet.roots(&["root/sub"]))],
                None,
                Some("outside_roots"),
            ),
            (vec![("roots", fleet.roots(&[]))], None, Some("no_roots")),
            // A retry that answers something but not the roots shares nothing.
            (vec![("q0", yes())], None, Some("no_roots")),
        ] {
            let result = complete(b.round("read_text_file", &read, &inputs, None).await);
            assert_eq!(
                reason(&result),
                expect_reason,
                "{pair}: {inputs:?}: {result:?}"
            );
            if let Some(text) = expect_text {
                assert_eq!(text_of(&result), text, "{pair}: {result:?}");
            }
        }
        // A new file asks nothing: the roots round on one, the write on
        // the other.
        let _ = std::fs::remove_file(fleet.at("root/sub/n.txt"));
        let write = json!({ "path": fleet.at("root/sub/n.txt"), "content": "fresh\n" });
        let first = input_required(b.round("write_file", &write, &[], None).await);
        assert_eq!(asked_keys(&first), ["roots"], "{pair}");
        assert_eq!(fleet.read("root/sub/n.txt"), None, "{pair}");
        let roots = fleet.roots(&["root/sub"]);
        let done = complete(
            a.round("write_file", &write, &[("roots", roots)], None)
                .await,
        );
        assert!(
            text_of(&done).starts_with("Successfully wrote"),
            "{pair}: {done:?}"
        );
        assert_eq!(
            fleet.read("root/sub/n.txt").as_deref(),
            Some("fresh\n"),
            "{pair}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_consumed_on_one_instance_is_refused_on_every_other() {
    let Some(fleet) = Fleet::new() else {
        return;
    };
    let instances = fleet.instances(3).await;
    // The same keys, but the default store: its own memory.
    let alone = fleet
        .instance(&["--state-key-file".to_owned(), fleet.at("keys")])
        .await;
    let roots = fleet.roots(&["root"]);
    for change in changes(&fleet) {
        change.reset(&fleet);
        let (state, _) = up_to_the_question(
            &instances[0],
            &instances[1],
            change.tool,
            &change.args,
            &roots,
        )
        .await;
        let inputs = [("roots", roots.clone()), ("q0", yes())];
        let done = complete(
            instances[2]
                .round(change.tool, &change.args, &inputs, Some(&state))
                .await,
        );
        assert_ne!(done.is_error, Some(true), "{done:?}");
        change.assert_changed(&fleet, "the first use");
        // Put the files back: a second change would show.
        change.reset(&fleet);
        for (i, other) in instances.iter().enumerate() {
            let again = complete(
                other
                    .round(change.tool, &change.args, &inputs, Some(&state))
                    .await,
            );
            assert_eq!(
                reason(&again),
                Some("invalid_request_state"),
                "{}: replayed on instance {i}: {again:?}",
                change.tool
            );
            assert!(
                text_of(&again).starts_with("The requestState was already used"),
                "{again:?}"
            );
            change.assert_unchanged(&fleet, "a refused replay");
        }
        // The documented limit: an instance that does not share the record
        // (same keys, its own memory) accepts the state once more.
        let elsewhere = complete(
            alone
                .round(change.tool, &change.args, &inputs, Some(&state))
                .await,
        );
        assert_ne!(elsewhere.is_error, Some(true), "{elsewhere:?}");
        change.assert_changed(&fleet, "replayed where the record is not shared");
        // And it remembers it from then on.
        change.reset(&fleet);
        let twice = complete(
            alone
                .round(change.tool, &change.args, &inputs, Some(&state))
                .await,
        );
        assert_eq!(reason(&twice), Some("invalid_request_state"), "{twice:?}");
        change.assert_unchanged(&fleet, "replayed twice on the lone instance");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_sealed_with_other_keys_or_for_another_call_is_refused() {
    let Some(fleet) = Fleet::new() else {
        return;
    };
    let shared = fleet.instance(&fleet.shared()).await;
    let other_keys = fleet
        .instance(&[
            "--state".to_owned(),
            fleet.redis.url(),
            "--state-key-file".to_owned(),
            fleet.at("other-keys"),
        ])
        .await;
    // No key file: a random key of its own (it says so at start).
    let own_key = fleet
        .instance(&["--state".to_owned(), fleet.redis.url()])
        .await;
    assert!(
        own_key.said.iter().any(|l| l.contains(OWN_KEY_WARNING)),
        "{:?}",
        own_key.said
    );
    assert!(!shared.said.iter().any(|l| l.contains(OWN_KEY_WARNING)));
    let roots = fleet.roots(&["root"]);
    let change = &changes(&fleet)[0];
    let inputs = [("roots", roots.clone()), ("q0", yes())];
    for (sealer, opener, which) in [
        (&other_keys, &shared, "other key file -> shared keys"),
        (&own_key, &shared, "own key -> shared keys"),
        (&shared, &other_keys, "shared keys -> other key file"),
        (&shared, &own_key, "shared keys -> own key"),
    ] {
        change.reset(&fleet);
        let (state, _) =
            up_to_the_question(sealer, sealer, change.tool, &change.args, &roots).await;
        let refused = complete(
            opener
                .round(change.tool, &change.args, &inputs, Some(&state))
                .await,
        );
        assert_eq!(
            reason(&refused),
            Some("invalid_request_state"),
            "{which}: {refused:?}"
        );
        assert!(
            text_of(&refused).starts_with("The requestState does not belong to this call"),
            "{which}: {refused:?}"
        );
        change.assert_unchanged(&fleet, which);
        // The state itself was good, and the refusal did not use it up.
        let done = complete(
            sealer
                .round(change.tool, &change.args, &inputs, Some(&state))
                .await,
        );
        assert_ne!(done.is_error, Some(true), "{which}: {done:?}");
        change.assert_changed(&fleet, which);
    }
    // The right keys, but another call: the state is bound to its tool
    // and arguments, on every instance.
    let second = fleet.instance(&fleet.shared()).await;
    change.reset(&fleet);
    fleet.write("root/x.txt", "other\n");
    let (state, _) = up_to_the_question(&shared, &shared, change.tool, &change.args, &roots).await;
    for (tool, args) in [
        (
            "write_file",
            json!({ "path": fleet.at("root/x.txt"), "content": "new\n" }),
        ),
        (
            "write_file",
            json!({ "path": fleet.at("root/w.txt"), "content": "other content\n" }),
        ),
        (
            "edit_file",
            json!({
                "path": fleet.at("root/w.txt"),
                "edits": [{ "oldText": "old", "newText": "new" }],
            }),
        ),
    ] {
        let refused = complete(second.round(tool, &args, &inputs, Some(&state)).await);
        assert_eq!(
            reason(&refused),
            Some("invalid_request_state"),
            "{tool} {args}: {refused:?}"
        );
        change.assert_unchanged(&fleet, "another call's state");
        assert_eq!(fleet.read("root/x.txt").as_deref(), Some("other\n"));
    }
    let done = complete(
        second
            .round(change.tool, &change.args, &inputs, Some(&state))
            .await,
    );
    assert_ne!(done.is_error, Some(true), "{done:?}");
    change.assert_changed(&fleet, "its own call, on another instance");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_key_rotation_between_rounds() {
    let Some(fleet) = Fleet::new() else {
        return;
    };
    // The steps of a rotation from key 0xab (the fleet's) to 0xef, one
    // instance at each: accept the new key, seal with it, drop the old.
    let redis = fleet.redis.url();
    let step = |name: &str, seal: u8, accept: &[u8]| {
        let keys = key_ring_file(&fleet.base, name, seal, accept);
        vec![
            "--state".to_owned(),
            redis.clone(),
            "--state-key-file".to_owned(),
            keys,
        ]
    };
    let (first, second, third) = (
        step("step1", 0xab, &[0xef]),
        step("step2", 0xef, &[0xab]),
        step("step3", 0xef, &[]),
    );
    let old = fleet.instance(&fleet.shared()).await;
    let accepting = fleet.instance(&first).await;
    let sealing = fleet.instance(&second).await;
    let done_with_old = fleet.instance(&third).await;
    let roots = fleet.roots(&["root"]);
    let change = &changes(&fleet)[0];
    let inputs = [("roots", roots.clone()), ("q0", yes())];
    for (sealer, opener, accepted, which) in [
        (&old, &accepting, true, "old key -> step 1"),
        (&old, &sealing, true, "old key -> step 2"),
        (&accepting, &sealing, true, "step 1 -> step 2"),
        (&sealing, &accepting, true, "step 2 (new key) -> step 1"),
        (&sealing, &done_with_old, true, "step 2 (new key) -> step 3"),
        (
            &sealing,
            &old,
            false,
            "new key -> an instance not yet at step 1",
        ),
        (&old, &done_with_old, false, "old key -> step 3 (retired)"),
        (
            &accepting,
            &done_with_old,
            false,
            "step 1 (old key) -> step 3",
        ),
    ] {
        change.reset(&fleet);
        let (state, _) =
            up_to_the_question(sealer, sealer, change.tool, &change.args, &roots).await;
        let result = complete(
            opener
                .round(change.tool, &change.args, &inputs, Some(&state))
                .await,
        );
        if accepted {
            assert_ne!(result.is_error, Some(true), "{which}: {result:?}");
            change.assert_changed(&fleet, which);
        } else {
            assert_eq!(
                reason(&result),
                Some("invalid_request_state"),
                "{which}: {result:?}"
            );
            change.assert_unchanged(&fleet, which);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confirmation_declined_on_another_instance_changes_nothing() {
    let Some(fleet) = Fleet::new() else {
        return;
    };
    let instances = fleet.instances(3).await;
    let roots = fleet.roots(&["root"]);
    for change in changes(&fleet) {
        for (what, no) in [
            ("declined", answer(decline())),
            ("cancelled", answer(cancel())),
            (
                "accepted with no",
                answer(accept(json!({ "confirm": false }))),
            ),
        ] {
            change.reset(&fleet);
            let (state, _) = up_to_the_question(
                &instances[0],
                &instances[0],
                change.tool,
                &change.args,
                &roots,
            )
            .await;
            let kept = complete(
                instances[1]
                    .round(
                        change.tool,
                        &change.args,
                        &[("roots", roots.clone()), ("q0", no)],
                        Some(&state),
                    )
                    .await,
            );
            assert_ne!(kept.is_error, Some(true), "{what}: {kept:?}");
            assert!(
                text_of(&kept).starts_with("Not "),
                "{}: {what}: {kept:?}",
                change.tool
            );
            change.assert_unchanged(&fleet, what);
            // The answered state cannot become a yes on a third instance.
            let turned = complete(
                instances[2]
                    .round(
                        change.tool,
                        &change.args,
                        &[("roots", roots.clone()), ("q0", yes())],
                        Some(&state),
                    )
                    .await,
            );
            assert_eq!(
                reason(&turned),
                Some("invalid_request_state"),
                "{what}: {turned:?}"
            );
            change.assert_unchanged(&fleet, "a yes replayed after a no");
        }
    }
}

/// A load balancer in front of the instances: HTTP/1.1, one request per
/// connection, each `tools/call` to the next instance in turn (every other
/// request, e.g. `server/discover`, to the first). It records the instance
/// of each `tools/call`.
#[derive(Debug)]
struct RoundRobin {
    url: String,
    calls: Arc<Mutex<Vec<usize>>>,
    task: tokio::task::JoinHandle<()>,
}

impl RoundRobin {
    async fn start(backends: Vec<String>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let calls = Arc::new(Mutex::new(Vec::new()));
        let seen = calls.clone();
        let task = tokio::spawn(async move {
            let next = Arc::new(AtomicUsize::new(0));
            while let Ok((client, _)) = listener.accept().await {
                let (backends, next, seen) = (backends.clone(), next.clone(), seen.clone());
                tokio::spawn(async move {
                    let _ = forward(client, &backends, &next, &seen).await;
                });
            }
        });
        Self { url, calls, task }
    }

    fn calls(&self) -> Vec<usize> {
        self.calls.lock().unwrap().clone()
    }
}

impl Drop for RoundRobin {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// One request from `client` to the backend whose turn it is, and its
/// whole answer back; both connections then close.
async fn forward(
    mut client: TcpStream,
    backends: &[String],
    next: &AtomicUsize,
    seen: &Mutex<Vec<usize>>,
) -> std::io::Result<()> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if client.read(&mut byte).await? == 0 {
            return Ok(());
        }
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let mut lines = head.split("\r\n").filter(|l| !l.is_empty());
    let start = lines.next().unwrap_or_default().to_owned();
    let mut length = 0;
    let mut headers = Vec::new();
    for line in lines {
        let name = line
            .split(':')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        if name == "content-length" {
            length = line[name.len() + 1..].trim().parse().unwrap_or(0);
        }
        if name != "host" && name != "connection" {
            headers.push(line.to_owned());
        }
    }
    let mut body = vec![0u8; length];
    client.read_exact(&mut body).await?;
    let is_call = serde_json::from_slice::<Value>(&body)
        .is_ok_and(|request| request["method"] == "tools/call");
    let index = if is_call {
        let index = next.fetch_add(1, Ordering::SeqCst) % backends.len();
        seen.lock().unwrap().push(index);
        index
    } else {
        0
    };
    let addr = &backends[index];
    let mut upstream = TcpStream::connect(addr).await?;
    let request = format!(
        "{start}\r\nHost: {addr}\r\nConnection: close\r\n{}\r\n\r\n",
        headers.join("\r\n")
    );
    upstream.write_all(request.as_bytes()).await?;
    upstream.write_all(&body).await?;
    let mut answer = Vec::new();
    upstream.read_to_end(&mut answer).await?;
    // Tell the client, too, that this connection ends with the answer.
    let at = answer
        .windows(2)
        .position(|w| w == b"\r\n")
        .unwrap_or(answer.len());
    client.write_all(&answer[..at]).await?;
    client.write_all(b"\r\nConnection: close").await?;
    client.write_all(&answer[at..]).await?;
    client.shutdown().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rmcps_own_client_through_a_round_robin_balancer() {
    let Some(fleet) = Fleet::new() else {
        return;
    };
    let servers: Vec<HttpServer> = (0..3).map(|_| fleet.server(&fleet.shared())).collect();
    let balancer = RoundRobin::start(servers.iter().map(|s| s.addr().to_owned()).collect()).await;
    let script = ScriptedClient::new(true, true).speaking(ProtocolVersion::V_2026_07_28);
    script.set_root_uris(&[&format!("file://{}", fleet.at("root"))]);
    let conn: Connection<NoServer> =
        Connection::http(&balancer.url, script.clone(), modern_lifecycle())
            .await
            .expect("a 2026-07-28 client through the balancer");
    for change in changes(&fleet) {
        change.reset(&fleet);
        let before = balancer.calls().len();
        script.answer(accept(json!({ "confirm": true })));
        let done = common::call(&conn.client, change.tool, change.args.clone()).await;
        assert_ne!(done.is_error, Some(true), "{}: {done:?}", change.tool);
        change.assert_changed(&fleet, "through the balancer");
        // Its three rounds, each on another instance.
        let rounds = balancer.calls()[before..].to_vec();
        assert_eq!(rounds.len(), 3, "{}: {rounds:?}", change.tool);
        assert!(rounds.windows(2).all(|w| w[0] != w[1]), "{rounds:?}");
    }
    assert_eq!(script.asked().len(), 3, "one question per change");
    // A declined one, its rounds spread the same way, changes nothing.
    let change = &changes(&fleet)[0];
    change.reset(&fleet);
    script.answer(decline());
    let kept = common::call(&conn.client, change.tool, change.args.clone()).await;
    assert!(text_of(&kept).starts_with("Not written"), "{kept:?}");
    change.assert_unchanged(&fleet, "declined through the balancer");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_redis_the_consuming_round_is_refused_and_a_restart_forgets() {
    let Some(mut fleet) = Fleet::new() else {
        return;
    };
    let instances = fleet.instances(3).await;
    let roots = fleet.roots(&["root"]);
    let change = &changes(&fleet)[0];
    let inputs = [("roots", roots.clone()), ("q0", yes())];
    change.reset(&fleet);
    fleet.redis.stop();
    // The rounds that consume nothing need no store.
    let (state, _) = up_to_the_question(
        &instances[0],
        &instances[1],
        change.tool,
        &change.args,
        &roots,
    )
    .await;
    let refused = complete(
        instances[2]
            .round(change.tool, &change.args, &inputs, Some(&state))
            .await,
    );
    assert_eq!(
        reason(&refused),
        Some("state_store_unavailable"),
        "{refused:?}"
    );
    change.assert_unchanged(&fleet, "Redis away");
    // Back: the same state (never recorded) completes, once the instance
    // has its connection again (each finds it on its own next use).
    fleet.redis.restart();
    let done = once_redis_answers(&fleet, &instances[0], change, &inputs, &state).await;
    assert_ne!(done.is_error, Some(true), "{done:?}");
    change.assert_changed(&fleet, "Redis back");
    change.reset(&fleet);
    let replayed = once_redis_answers(&fleet, &instances[1], change, &inputs, &state).await;
    assert_eq!(reason(&replayed), Some("invalid_request_state"));
    change.assert_unchanged(&fleet, "replayed with Redis back");
    // The documented limit: a Redis restarted without persistence forgets
    // its records, so within its TTL the state is accepted once more.
    fleet.redis.restart();
    let again = once_redis_answers(&fleet, &instances[2], change, &inputs, &state).await;
    assert_ne!(again.is_error, Some(true), "{again:?}");
    change.assert_changed(&fleet, "replayed after Redis forgot");
}

/// The last round of `change` on `on`, repeated while the instance cannot
/// reach Redis (each such round must change nothing), at most 10 s.
async fn once_redis_answers(
    fleet: &Fleet,
    on: &Instance,
    change: &Change,
    inputs: &[(&str, Value)],
    state: &str,
) -> CallToolResult {
    let files = || -> Vec<_> {
        change
            .before
            .iter()
            .map(|(rel, _)| fleet.read(rel))
            .collect()
    };
    let before = files();
    for _ in 0..40 {
        let result = complete(
            on.round(change.tool, &change.args, inputs, Some(state))
                .await,
        );
        if reason(&result) != Some("state_store_unavailable") {
            return result;
        }
        assert_eq!(files(), before, "refused, yet changed");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("the instance did not reach Redis again within 10 s");
}

/// One HTTP POST of `body` to `addr`'s `/mcp`, naming the 2025 session
/// `session` if given: the status and the `Mcp-Session-Id` answered.
async fn post(addr: &str, body: &Value, session: Option<&str>) -> (u16, Option<String>) {
    let body = body.to_string();
    let named = session.map_or_else(String::new, |id| {
        format!("Mcp-Session-Id: {id}\r\nMCP-Protocol-Version: 2025-11-25\r\n")
    });
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{named}Content-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(ROUND_BOUND, stream.read_to_end(&mut answer))
        .await
        .expect("the answer ends")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer);
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    let id = answer
        .split("\r\n\r\n")
        .next()
        .unwrap_or_default()
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_owned())
        });
    (status, id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_session_lives_in_the_instance_that_opened_it() {
    let Some(fleet) = Fleet::new() else {
        return;
    };
    let [a, b] = [fleet.server(&fleet.shared()), fleet.server(&fleet.shared())];
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": { "name": "test", "version": "0" },
        },
    });
    let (status, session) = post(a.addr(), &initialize, None).await;
    assert_eq!(status, 200);
    let session = session.expect("initialize opens a session");
    let ping = json!({ "jsonrpc": "2.0", "id": 2, "method": "ping" });
    let (held, _) = post(a.addr(), &ping, Some(&session)).await;
    assert!(held == 200 || held == 202, "{held}");
    // Not in the shared store: the balancer must route by the header.
    let (elsewhere, _) = post(b.addr(), &ping, Some(&session)).await;
    assert_eq!(elsewhere, 404);
}
