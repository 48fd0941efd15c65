//! The six scenes. Each prints what the client sent and what came back, and
//! checks the outcome on disk with the demo's own eyes.

use std::time::Duration;

use serde_json::json;

use super::{Demo, reason};
use mcp_script::{self as client, Event, ScriptedClient, accept, cancel, decline};

/// (a) One match: list, read by title, delete by title.
pub(crate) async fn happy_path(demo: &mut Demo) {
    demo.scene(
        "(a) Happy path",
        "The model lists the notes, reads one by its title, and deletes another by its title (one match each: nothing to ask). Tool calls wait (bounded) for the first roots answer.",
    );
    let listed = demo.call("notes_list", json!({})).await;
    let count = listed
        .structured_content
        .as_ref()
        .map(|s| s["notes"].as_array().map_or(0, Vec::len));
    demo.check(
        "6 notes listed (the symlink to Secret/ is not a note)",
        count == Some(6),
    );
    let read = demo
        .call("notes_read", json!({ "title": "meeting notes" }))
        .await;
    demo.check(
        "the one match is read",
        read.is_error != Some(true) && client::text_of(&read).contains("Monday"),
    );
    let deleted = demo.call("notes_delete", json!({ "title": "draft" })).await;
    demo.check(
        "the one match is deleted, without a form",
        outcome(&deleted) == Some("deleted") && demo.forms() == 0 && !demo.exists("Notes/draft.md"),
    );
}

/// (b) Three matches: one form, exactly the chosen note deleted.
pub(crate) async fn disambiguation(demo: &mut Demo) {
    demo.scene(
        "(b) Disambiguation",
        "\"Delete the old TPS report note\": three notes match, so the server asks which one (a form that says the chosen one is deleted).",
    );
    demo.script().pick("choice", "2023");
    let result = demo
        .call("notes_delete", json!({ "title": "TPS report" }))
        .await;
    demo.check(
        "one form, listing the three",
        demo.forms() == 1 && three_options(demo),
    );
    demo.check(
        "the result says deleted",
        outcome(&result) == Some("deleted"),
    );
    demo.check(
        "only Notes/2023/tps-report.md is gone",
        !demo.exists("Notes/2023/tps-report.md")
            && demo.exists("Notes/2024/tps-report.md")
            && demo.exists("Notes/2025/tps-report.md"),
    );
}

/// Whether the last form offered three choices.
fn three_options(demo: &Demo) -> bool {
    demo.events().iter().any(|event| match event {
        Event::Form { schema, .. } => {
            schema["properties"]["choice"]["oneOf"]
                .as_array()
                .map(Vec::len)
                == Some(3)
        }
        _ => false,
    })
}

/// (c) Writes inside the roots (create, then replace); outside refused.
pub(crate) async fn write_outside(demo: &mut Demo) {
    demo.scene(
        "(c) Writes, inside and outside the roots",
        "A new note inside Notes is created, then replaced (atomically); writes and reads that lead outside are refused.",
    );
    let inside = demo.path("Notes/ideas.md");
    let content = "# Ideas\n\nColour-code the cover sheets.\n";
    let created = demo
        .call("notes_write", json!({ "path": inside, "content": content }))
        .await;
    demo.check(
        "Notes/ideas.md created",
        outcome(&created) == Some("created") && demo.read("Notes/ideas.md") == content,
    );
    let newer = "# Ideas\n\nColour-code the cover sheets. Blue.\n";
    let replaced = demo
        .call("notes_write", json!({ "path": inside, "content": newer }))
        .await;
    demo.check(
        "the same name again: replaced, the new text whole",
        outcome(&replaced) == Some("replaced") && demo.read("Notes/ideas.md") == newer,
    );
    let outside = demo.path("Secret/leak.md");
    let refused = demo
        .call("notes_write", json!({ "path": outside, "content": "x" }))
        .await;
    demo.check(
        "a write into Secret/: outside_roots",
        reason(&refused) == Some("outside_roots"),
    );
    let dotdot = demo.uri("Notes/../Secret/leak.md");
    let refused = demo
        .call("notes_write", json!({ "path": dotdot, "content": "x" }))
        .await;
    demo.check(
        "the same through '..': outside_roots",
        reason(&refused) == Some("outside_roots"),
    );
    let link = demo.path("Notes/passwords.md");
    let refused = demo
        .call("notes_write", json!({ "path": link, "content": "x" }))
        .await;
    demo.check(
        "a write through the planted symlink is refused",
        refused.is_error == Some(true),
    );
    demo.check(
        "nothing was written to Secret/",
        !demo.exists("Secret/leak.md") && demo.read("Secret/passwords.md").contains("hunter2"),
    );
    let refused = demo.call("notes_read", json!({ "path": link })).await;
    demo.check(
        "a read through the planted symlink: outside_roots",
        reason(&refused) == Some("outside_roots") && !client::text_of(&refused).contains("hunter2"),
    );
}

/// (d) The user removes Work and adds Journal: re-list, revoke, refuse.
pub(crate) async fn roots_change(demo: &mut Demo) {
    demo.scene(
        "(d) The user changes the roots",
        "The model opened Work/plan.md (notes_open: the server holds it, tracked). The user removes Work and shares Journal.",
    );
    let plan = demo.path("Work/plan.md");
    let opened = demo.call("notes_open", json!({ "path": plan })).await;
    let handle = opened
        .structured_content
        .as_ref()
        .and_then(|s| s["handle"].as_u64());
    let Some(handle) = handle else {
        return demo.check("Work/plan.md opened", false);
    };
    let again = demo.call("notes_read", json!({ "handle": handle })).await;
    demo.check(
        "the held note reads before the change",
        client::text_of(&again).contains("Project plan"),
    );
    let (notes, journal) = (demo.uri("Notes"), demo.uri("Journal"));
    demo.script().set_roots([
        (notes.as_str(), Some("Notes")),
        (journal.as_str(), Some("Journal")),
    ]);
    let answered = demo.script().roots_requests();
    demo.say("→ notifications/roots/list_changed");
    let notified = demo.client().notify_roots_list_changed().await.is_ok();
    let relisted = notified
        && demo
            .script()
            .roots_answered(answered + 1, Duration::from_secs(5))
            .await;
    for event in demo.script().take_events() {
        demo.show_event(&event);
    }
    demo.check("the server re-listed the roots", relisted);
    let revoked = demo.call("notes_read", json!({ "handle": handle })).await;
    demo.check(
        "the held note is revoked (scope_lost)",
        reason(&revoked) == Some("scope_lost"),
    );
    let gone = demo.call("notes_read", json!({ "handle": handle })).await;
    demo.check(
        "and its handle is gone (unknown_handle)",
        reason(&gone) == Some("unknown_handle"),
    );
    let refused = demo.call("notes_read", json!({ "path": plan })).await;
    demo.check(
        "Work/plan.md is now refused: outside_roots",
        reason(&refused) == Some("outside_roots"),
    );
    let read = demo.call("notes_read", json!({ "title": "Journal" })).await;
    demo.check("the new root is usable", read.is_error != Some(true));
}

/// (e) A client without elicitation: the destructive tool cannot ask, so
/// it does nothing and says why.
pub(crate) async fn no_elicitation(demo: &mut Demo) {
    demo.scene(
        "(e) A client that cannot show forms",
        "A second session: its client declares roots but not elicitation. notes_archive must ask, so it refuses.",
    );
    let script = ScriptedClient::new(true, false);
    let notes = demo.uri("Notes");
    script.set_roots([(notes.as_str(), Some("Notes"))]);
    let session = match demo.connect(script.clone()).await {
        Ok(session) => session,
        Err(err) => return demo.check(&format!("second session connected ({err})"), false),
    };
    let args = json!({ "title": "Meeting notes" });
    let result = client::call(&session.client, "notes_archive", args.clone()).await;
    let result = demo.show(&script, "notes_archive", &args, result);
    demo.check(
        "isError with reason elicitation_unsupported, 'cannot show forms'",
        reason(&result) == Some("elicitation_unsupported")
            && client::text_of(&result).contains("cannot show forms"),
    );
    demo.check("no form was sent", demo.forms() == 0);
    demo.check(
        "nothing moved",
        demo.exists("Notes/meeting.md") && !demo.root().join("Notes/archive").exists(),
    );
    demo.check("the second session ended cleanly", session.close().await);
}

/// (f) Decline and cancel change nothing; then an accepted archive.
pub(crate) async fn decline_and_cancel(demo: &mut Demo) {
    demo.scene(
        "(f) Decline, cancel, then yes",
        "notes_archive always asks. Declined, then a cancelled delete, an accepted \"no\", and finally a yes.",
    );
    demo.script().answer(decline());
    let declined = demo
        .call("notes_archive", json!({ "title": "Meeting notes" }))
        .await;
    demo.check(
        "declined: nothing archived",
        outcome(&declined) == Some("declined") && demo.exists("Notes/meeting.md"),
    );
    demo.script().answer(cancel());
    let cancelled = demo
        .call("notes_delete", json!({ "title": "TPS report" }))
        .await;
    demo.check(
        "cancelled at the choice: both TPS reports stay",
        outcome(&cancelled) == Some("cancelled")
            && demo.exists("Notes/2024/tps-report.md")
            && demo.exists("Notes/2025/tps-report.md"),
    );
    demo.script().answer(accept(json!({ "confirm": false })));
    let no = demo
        .call("notes_archive", json!({ "title": "Meeting notes" }))
        .await;
    demo.check(
        "an accepted \"no\" counts as declined",
        outcome(&no) == Some("declined") && demo.exists("Notes/meeting.md"),
    );
    demo.script().answer(accept(json!({ "confirm": true })));
    let yes = demo
        .call("notes_archive", json!({ "title": "Meeting notes" }))
        .await;
    demo.check(
        "yes: moved to Notes/archive/meeting.md",
        outcome(&yes) == Some("archived")
            && demo.exists("Notes/archive/meeting.md")
            && !demo.exists("Notes/meeting.md"),
    );
}

fn outcome(result: &rmcp::model::CallToolResult) -> Option<&str> {
    result.structured_content.as_ref()?.get("outcome")?.as_str()
}
