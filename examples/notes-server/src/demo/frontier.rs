//! The three frontier scenes: first-run setup through URL-mode elicitation
//! with a scripted browser, clients that cannot take a URL, and a
//! 2026-07-28 session whose roots and forms travel in input-required
//! results.

use rmcp::model::{CallToolResult, ProtocolVersion};
use serde_json::{Value, json};

use super::{Demo, reason};
use mcp_script::browser::{Step, Visit};
use mcp_script::{self as client, Event, ScriptedClient, UrlAnswer, accept};

/// The template the scripted user types into the setup page.
const TEMPLATE: &str = "---\ncreated-by: notes-server\nnote: {title}\n---\n{content}";

/// (g) `notes_setup`: a one-time page on 127.0.0.1, a wrong token, the
/// form, one submission (with fields it does not offer), a second one.
pub(crate) async fn url_setup(demo: &mut Demo) {
    demo.scene(
        "(g) First-run setup in the browser (URL-mode elicitation)",
        "notes_setup sends the user to a one-time page on 127.0.0.1. The scripted browser tries a wrong token, opens the page, submits a template (adding roots and ceiling fields the page does not offer), then submits again; a second setup is cancelled on the page.",
    );
    let listed_before = demo.script().roots_requests();
    demo.script().answer_url(UrlAnswer::Accept(vec![
        Step::open().with_wrong_token(),
        Step::open(),
        Step::submit(&[("template", TEMPLATE)]).with_wrong_token(),
        Step::submit(&[
            ("template", TEMPLATE),
            ("roots", "file:///"),
            ("ceiling", "/"),
        ]),
        Step::submit(&[("template", "# hijacked\n{content}")]),
    ]));
    let result = demo.call_browsing("notes_setup", json!({})).await;
    let visits: Vec<Visit> = demo
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Http(visit) => Some(visit.clone()),
            _ => None,
        })
        .collect();
    let statuses: Vec<u16> = visits.iter().map(|v| v.status).collect();
    demo.check(
        "a wrong token is refused (403), GET and POST alike",
        statuses.first() == Some(&403) && statuses.get(2) == Some(&403),
    );
    demo.check(
        "the page's form has a token and a template, nothing about folders",
        visits.get(1).map(|v| v.fields.clone()) == Some(vec!["token".into(), "template".into()]),
    );
    demo.check(
        "the form has Save and Cancel buttons",
        visits.get(1).map(|v| v.buttons.clone()) == Some(vec!["Save".into(), "Cancel".into()]),
    );
    demo.check(
        "one submission accepted (200), the second refused (410)",
        statuses == [403, 200, 403, 200, 410],
    );
    let structured = result.structured_content.clone().unwrap_or_default();
    let id = structured["elicitationId"].as_str().unwrap_or_default();
    let completed = demo
        .events()
        .iter()
        .any(|e| matches!(e, Event::Completed(c) if c == id));
    demo.check(
        "notifications/elicitation/complete came for the same elicitationId",
        completed && !id.is_empty(),
    );
    demo.check(
        "the template is set; roots and ceiling fields ignored",
        structured["outcome"] == "configured"
            && structured["ignored"] == json!(["ceiling", "roots"]),
    );
    demo.check(
        "the roots did not change (no roots/list since)",
        demo.script().roots_requests() == listed_before,
    );
    let inbox = demo.path("Notes/inbox.md");
    let content = "# Inbox\n\nCall the printer people.\n";
    let written = demo
        .call("notes_write", json!({ "path": inbox, "content": content }))
        .await;
    let on_disk = std::fs::read_to_string(demo.root().join("Notes/inbox.md")).unwrap_or_default();
    demo.say(&format!("Notes/inbox.md now reads: {on_disk:?}"));
    demo.check(
        "notes_write fills the template",
        written.is_error != Some(true)
            && on_disk == format!("---\ncreated-by: notes-server\nnote: inbox\n---\n{content}"),
    );

    demo.say("The user opens setup again and presses Cancel on the page.");
    demo.script()
        .answer_url(UrlAnswer::Accept(vec![Step::open(), Step::cancel()]));
    let cancelled = demo.call_browsing("notes_setup", json!({})).await;
    let structured = cancelled.structured_content.clone().unwrap_or_default();
    let pressed = demo.events().iter().any(|e| {
        matches!(e, Event::Http(visit) if visit.method == "POST" && visit.heading == "Setup cancelled")
    });
    demo.check(
        "Cancel on the page ends the call at once: declined, nothing changed",
        pressed && structured["outcome"] == "declined" && structured["on"] == "page",
    );
    let later = demo.path("Notes/later.md");
    demo.call(
        "notes_write",
        json!({ "path": later, "content": "# Later\n" }),
    )
    .await;
    let later = std::fs::read_to_string(demo.root().join("Notes/later.md")).unwrap_or_default();
    demo.check(
        "the template set before still holds for new notes",
        later == "---\ncreated-by: notes-server\nnote: later\n---\n# Later\n",
    );
}

/// (h) A form-only client, and a 2025-06-18 client that declares
/// `elicitation.url` anyway: the guard refuses, nothing is sent.
pub(crate) async fn url_guard(demo: &mut Demo) {
    demo.scene(
        "(h) Clients that cannot take a URL",
        "A client that declares forms only, and a 2025-06-18 client that declares elicitation.url anyway (URL mode arrived in 2025-11-25). notes_setup sends nothing and says why.",
    );
    let clients = [
        (
            "forms only",
            ScriptedClient::new(false, true),
            "did not declare",
        ),
        (
            "2025-06-18 + elicitation.url",
            ScriptedClient::new(false, true)
                .with_url_mode()
                .speaking(ProtocolVersion::V_2025_06_18),
            "predates URL mode",
        ),
    ];
    for (label, script, why) in clients {
        demo.say(&format!("client: {label}"));
        let session = match demo.connect(script.clone()).await {
            Ok(session) => session,
            Err(err) => return demo.check(&format!("session connected ({err})"), false),
        };
        let result = client::call(&session.client, "notes_setup", json!({})).await;
        let result = demo.show(&script, "notes_setup", &json!({}), result);
        demo.check(
            &format!("url_elicitation_unsupported: {why:?}; nothing sent"),
            reason(&result) == Some("url_elicitation_unsupported")
                && client::text_of(&result).contains(why)
                && !demo
                    .events()
                    .iter()
                    .any(|e| matches!(e, Event::Url { .. } | Event::Form { .. })),
        );
        let clean = session.close().await;
        demo.check(&format!("{label}: the session ended cleanly"), clean);
    }
}

/// (i) 2026-07-28: discover, roots per request, a confirmation through
/// `inputResponses`, nothing installed in the session.
pub(crate) async fn modern(demo: &mut Demo) {
    demo.scene(
        "(i) The 2026-07-28 revision",
        "A session without initialize (server/discover). Each tool call answers its first round with an input-required result asking for roots; the client retries with them. The roots belong to that request only.",
    );
    let script = ScriptedClient::new(true, true).speaking(ProtocolVersion::V_2026_07_28);
    let (notes, work) = (demo.uri("Notes"), demo.uri("Work"));
    script.set_roots([(notes.as_str(), Some("Notes"))]);
    let session = match demo.connect_modern(script.clone()).await {
        Ok(session) => session,
        Err(err) => return demo.check(&format!("discovered ({err})"), false),
    };
    let client = &session.client;
    demo.say("server/discover → 2026-07-28 served; no initialize, no roots/list request");
    demo.say("(here each '⇠ roots/list answered' is an input response: it rides in the retried tools/call)");
    let listed = client::call(client, "notes_list", json!({})).await;
    let listed = demo.show(&script, "notes_list", &json!({}), listed);
    demo.check(
        "round 1 asked for roots; the listing covers Notes only",
        roots_answers(demo) == 1 && all_under(&listed, &notes),
    );
    demo.say("the user now shares Work instead (no list_changed: the next call brings it)");
    script.set_roots([(work.as_str(), Some("Work"))]);
    let listed = client::call(client, "notes_list", json!({})).await;
    let listed = demo.show(&script, "notes_list", &json!({}), listed);
    demo.check(
        "the next call sees Work only",
        all_under(&listed, &work) && count(&listed) == 1,
    );
    script.answer(accept(json!({ "confirm": true })));
    let args = json!({ "title": "Project plan" });
    let archived = client::call(client, "notes_archive", args.clone()).await;
    let archived = demo.show(&script, "notes_archive", &args, archived);
    demo.check(
        "roots, then roots + confirmation as input requests; the note archived",
        roots_answers(demo) == 2
            && demo.forms() == 1
            && archived
                .structured_content
                .as_ref()
                .map(|s| s["outcome"].clone())
                == Some(json!("archived"))
            && demo.exists("Work/archive/plan.md")
            && !demo.exists("Work/plan.md"),
    );
    demo.check("the session ended cleanly", session.close().await);
}

fn roots_answers(demo: &Demo) -> usize {
    let events = demo.events().iter();
    events
        .filter(|e| matches!(e, Event::RootsListed(_)))
        .count()
}

fn notes_of(result: &CallToolResult) -> Vec<Value> {
    let structured = result.structured_content.as_ref();
    structured
        .and_then(|s| s["notes"].as_array().cloned())
        .unwrap_or_default()
}

fn count(result: &CallToolResult) -> usize {
    notes_of(result).len()
}

fn all_under(result: &CallToolResult, root: &str) -> bool {
    let notes = notes_of(result);
    !notes.is_empty()
        && notes.iter().all(|n| {
            n["uri"]
                .as_str()
                .is_some_and(|u| u.starts_with(&format!("{root}/")))
        })
}
