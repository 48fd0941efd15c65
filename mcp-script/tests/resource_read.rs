//! The glue's `serve_resource` over an rmcp session with the scripted
//! client, on both eras: the session's roots on 2025-11-25, the request's
//! own on 2026-07-28 (an input request first, as a tool call's; a
//! client that declares no roots served the policy at once), and a body's
//! refusals as JSON-RPC errors carrying the URI (`-32602`, `-32603` for
//! `io`).

use std::path::Path;

use mcp_roots::{EmptyRoots, Roots, RootsBuilder};
use mcp_roots_rmcp::{ResourceRead, Revision, SessionRoots, Stop};
use mcp_script::{Connection, ScriptedClient, read_resource_round};
use rmcp::model::{
    ErrorCode, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, ResourceContents, ServerCapabilities, ServerConfig,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use tempfile::TempDir;

/// A server with one resource body: the file's text; a URI whose last
/// segment is `broken` fails as the disk would.
#[derive(Clone)]
struct Reader {
    roots: SessionRoots,
}

impl ServerHandler for Reader {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_resources().build())
    }

    async fn on_initialized(&self, cx: NotificationContext<RoleServer>) {
        self.roots.on_initialized(&cx.peer).await;
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let read = ResourceRead::new(request, &context);
        assert_eq!(
            read.revision() == Revision::Rounds,
            context
                .protocol_version()
                .is_some_and(|v| !v.has_initialize())
        );
        let uri = read.uri().to_owned();
        self.roots
            .serve_resource(read, move |snap| {
                if uri.ends_with("/broken") {
                    return Err(Stop::from(std::io::Error::other("the disk failed")));
                }
                let text = std::io::read_to_string(snap.open(uri.as_str())?)?;
                Ok(ReadResourceResult::new(vec![ResourceContents::text(
                    text, uri,
                )]))
            })
            .await
    }
}

/// Folders `a` and `b`, each with `x.md` holding its name.
fn tree() -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a", "b"] {
        std::fs::create_dir(dir.path().join(name)).unwrap();
        std::fs::write(dir.path().join(name).join("x.md"), name).unwrap();
    }
    dir
}

fn uri(dir: &Path, rel: &str) -> String {
    format!("file://{}/{rel}", dir.canonicalize().unwrap().display())
}

async fn connect(policy: RootsBuilder, script: ScriptedClient, modern: bool) -> Connection<Reader> {
    let server = Reader {
        roots: SessionRoots::new(policy),
    };
    if modern {
        let script = script.speaking(ProtocolVersion::V_2026_07_28);
        Connection::in_process_modern(server, script).await.unwrap()
    } else {
        Connection::in_process(server, script).await.unwrap()
    }
}

fn text(response: ReadResourceResponse) -> String {
    match response {
        ReadResourceResponse::Complete(result) => match &result.contents[..] {
            [ResourceContents::TextResourceContents { text, .. }] => text.clone(),
            other => panic!("{other:?}"),
        },
        other => panic!("not complete: {other:?}"),
    }
}

/// `(code, data.reason)` of a refusal, checking `data.uri`.
fn refused(error: &ErrorData, uri: &str) -> (ErrorCode, String) {
    let data = error.data.as_ref().expect("data");
    assert_eq!(data["uri"], uri, "{error:?}");
    let reason = data["reason"].as_str().unwrap_or_default().to_owned();
    (error.code, reason)
}

#[tokio::test]
async fn on_2025_11_25_a_read_runs_under_the_sessions_roots() {
    let dir = tree();
    let script = ScriptedClient::new(true, false);
    script.set_root_uris(&[&uri(dir.path(), "a")]);
    let conn = connect(RootsBuilder::default(), script, false).await;
    let c = &conn.client;
    let a = uri(dir.path(), "a/x.md");
    assert_eq!(
        text(read_resource_round(c, &a, None, None).await.unwrap()),
        "a"
    );
    for (rel, code, reason) in [
        ("b/x.md", ErrorCode::INVALID_PARAMS, "outside_roots"),
        ("a/missing.md", ErrorCode::INVALID_PARAMS, "not_found"),
        ("a/broken", ErrorCode::INTERNAL_ERROR, "io"),
    ] {
        let target = uri(dir.path(), rel);
        let error = read_resource_round(c, &target, None, None)
            .await
            .unwrap_err();
        assert_eq!(refused(&error, &target), (code, reason.to_owned()), "{rel}");
        assert!(!error.message.is_empty(), "{rel}");
    }
}

#[tokio::test]
async fn on_2026_07_28_the_first_round_asks_for_the_roots_and_the_retry_reads() {
    let dir = tree();
    let conn = connect(
        RootsBuilder::default(),
        ScriptedClient::new(true, false),
        true,
    )
    .await;
    let c = &conn.client;
    let a = uri(dir.path(), "a/x.md");
    let ReadResourceResponse::InputRequired(asked) =
        read_resource_round(c, &a, None, None).await.unwrap()
    else {
        panic!("the first round reads nothing");
    };
    let requests = asked.input_requests.as_ref().expect("input requests");
    assert!(
        requests.len() == 1 && requests.contains_key("roots"),
        "{requests:?}"
    );
    // Nothing to carry (as a tool call's first round): no state.
    assert_eq!(asked.request_state, None);
    let root = uri(dir.path(), "a");
    let retry = read_resource_round(c, &a, Some(&[&root]), None).await;
    assert_eq!(text(retry.unwrap()), "a");
    // A state this server never sealed, and the roots that narrow.
    let forged = read_resource_round(c, &a, Some(&[&root]), Some("rs1.forged"))
        .await
        .unwrap_err();
    assert_eq!(refused(&forged, &a).1, "invalid_request_state");
    let b = uri(dir.path(), "b/x.md");
    let outside = read_resource_round(c, &b, Some(&[&root]), None)
        .await
        .unwrap_err();
    assert_eq!(
        refused(&outside, &b),
        (ErrorCode::INVALID_PARAMS, "outside_roots".to_owned())
    );
}

#[tokio::test]
async fn on_2026_07_28_a_client_without_roots_is_served_the_policy_at_once() {
    let dir = tree();
    let policy = Roots::builder()
        .ceiling([dir.path().join("a").to_str().unwrap()])
        .empty_roots(EmptyRoots::Ceiling);
    let conn = connect(policy, ScriptedClient::new(false, false), true).await;
    let c = &conn.client;
    let a = uri(dir.path(), "a/x.md");
    assert_eq!(
        text(read_resource_round(c, &a, None, None).await.unwrap()),
        "a"
    );
    let b = uri(dir.path(), "b/x.md");
    let error = read_resource_round(c, &b, None, None).await.unwrap_err();
    assert_eq!(refused(&error, &b).1, "outside_roots");
}
