//! The six scenes. Each prints what the client sent and what came back, and
//! checks the outcome on disk with the demo's own eyes.

use std::io::Read;

use mcp_roots::{Error, ErrorKind, RootsBuilder};
use serde_json::json;

use super::{Demo, reason};
use crate::NotesServer;
use crate::client::{self, ScriptedClient, accept, cancel, decline};

/// (a) One match: list, then read by title.
pub(crate) async fn happy_path(demo: &mut Demo) {
    demo.scene(
        "(a) Happy path",
        "The model lists the notes, then reads one by its title (one match). Tool calls wait (bounded) for the first roots answer.",
    );
    let listed = demo.call("notes_list", json!({})).await;
    let count = listed
        .structured_content
        .as_ref()
        .map(|s| s["notes"].as_array().map_or(0, Vec::len));
    demo.check(
        "5 notes listed (the symlink to Secret/ is not a note)",
        count == Some(5),
    );
    let read = demo
        .call("notes_read", json!({ "title": "meeting notes" }))
        .await;
    demo.check(
        "the one match is read",
        read.is_error != Some(true) && client::text_of(&read).contains("Monday"),
    );
}

/// (b) Three matches: choose, confirm, exactly that note deleted.
pub(crate) async fn disambiguation(demo: &mut Demo) {
    demo.scene(
        "(b) Disambiguation",
        "\"Delete the old TPS report note\": three notes match, so the server asks which (a form), then asks to confirm.",
    );
    demo.script().pick("choice", "2023");
    demo.script().answer(accept(json!({ "confirm": true })));
    let result = demo
        .call("notes_delete", json!({ "title": "TPS report" }))
        .await;
    demo.check("two forms: which note, then confirm", demo.forms() == 2);
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

/// (c) Writes inside the roots, never replacing; outside refused.
pub(crate) async fn write_outside(demo: &mut Demo) {
    demo.scene(
        "(c) Writes, inside and outside the roots",
        "A new note inside Notes is created; the same name again is refused; writes and reads that lead outside are refused.",
    );
    let inside = demo.path("Notes/ideas.md");
    let content = "# Ideas\n\nColour-code the cover sheets.\n";
    let created = demo
        .call("notes_write", json!({ "path": inside, "content": content }))
        .await;
    demo.check(
        "Notes/ideas.md created",
        created.is_error != Some(true) && demo.exists("Notes/ideas.md"),
    );
    let again = demo
        .call(
            "notes_write",
            json!({ "path": inside, "content": "# Other\n" }),
        )
        .await;
    demo.check(
        "the same name again: already_exists",
        reason(&again) == Some("already_exists"),
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
    demo.check(
        "nothing was written to Secret/",
        !demo.exists("Secret/leak.md"),
    );
    let link = demo.path("Notes/passwords.md");
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
        "The server holds Work/plan.md open (a tracked handle). The user removes Work and shares Journal.",
    );
    let roots = demo.server().session().roots().clone();
    let mut held = match roots.load().open(&demo.path("Work/plan.md")) {
        Ok(file) => file,
        Err(err) => return demo.check(&format!("Work/plan.md opened ({err})"), false),
    };
    let mut head = [0u8; 14];
    let first = held.read_exact(&mut head).is_ok();
    demo.say(&format!(
        "server reads the held handle: {:?}",
        String::from_utf8_lossy(&head)
    ));
    demo.check("the held handle reads before the change", first);
    let (notes, journal) = (demo.uri("Notes"), demo.uri("Journal"));
    demo.script().set_roots([
        (notes.as_str(), Some("Notes")),
        (journal.as_str(), Some("Journal")),
    ]);
    let generation = roots.generation();
    demo.say("→ notifications/roots/list_changed");
    let notified = demo.client().notify_roots_list_changed().await.is_ok();
    let relisted = notified && demo.wait_generation(generation).await;
    for event in demo.script().take_events() {
        demo.show_event(&event);
    }
    demo.say(&format!(
        "server installed roots generation {}",
        roots.generation()
    ));
    demo.check("the server re-listed and installed the new roots", relisted);
    let revoked = held.revoked();
    let read = held
        .read(&mut head)
        .map_err(|err| Error::from_io(&err).map(|e| (e.kind(), e.to_string())));
    if let Err(Some((_, message))) = &read {
        demo.say(&format!("the held handle now fails: {message}"));
    }
    demo.check(
        "the held handle is revoked (scope_lost)",
        revoked == Some(ErrorKind::ScopeLost)
            && matches!(read, Err(Some((ErrorKind::ScopeLost, _)))),
    );
    let refused = demo
        .call("notes_read", json!({ "path": demo.path("Work/plan.md") }))
        .await;
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
    let server = NotesServer::new(RootsBuilder::default());
    let (running, client) = match client::connect(server, script.clone()).await {
        Ok(session) => session,
        Err(err) => return demo.check(&format!("second session connected ({err})"), false),
    };
    let args = json!({ "title": "Meeting notes" });
    let result = client::call(&client, "notes_archive", args.clone()).await;
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
    let _ = client.cancel().await;
    let _ = running.cancel().await;
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
