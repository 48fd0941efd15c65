//! (j) Notes outside the shared folders, granted by the user's answer:
//! the operator lets the user be asked about `Inbox/` (`--ask-within`),
//! the model reads notes there by path, and the user answers.

use serde_json::json;

use super::{Demo, reason};
use mcp_script::{self as client, Event, ScriptedClient, decline};

/// (j) Asked and granted for the session; another note declined, the no
/// remembered; a folder past the area refused without a question.
pub(crate) async fn ask_for_a_note(demo: &mut Demo) {
    demo.scene(
        "(j) Notes outside the shared folders, granted by the user's answer",
        "A new session on a server started with --ask-within $TMP/Inbox; the user shares Notes only. The model reads $TMP/Inbox/letter.md by path: the server asks the user (one form: the tool, the path, read, and this call / this session / no).",
    );
    let (ceiling, area) = (demo.path(""), demo.path("Inbox"));
    let launch = match demo
        .launch()
        .asking_within(ceiling.trim_end_matches('/'), &area)
        .await
    {
        Ok(launch) => launch,
        Err(err) => {
            return demo.check(
                &format!("a server asking within Inbox started ({err})"),
                false,
            );
        }
    };
    let script = ScriptedClient::new(true, true);
    let notes = demo.uri("Notes");
    script.set_roots([(notes.as_str(), Some("Notes"))]);
    let session = match launch.connect(script.clone()).await {
        Ok(session) => session,
        Err(err) => return demo.check(&format!("the session connected ({err})"), false),
    };
    let letter = demo.path("Inbox/letter.md");
    let read = json!({ "path": letter });
    script.pick("grant", "this session");
    let result = client::call(&session.client, "notes_read", read.clone()).await;
    let granted = demo.show(&script, "notes_read", &read, result);
    demo.check(
        "one form naming the path and \"read\"; the user allows it for the session: the note is read",
        demo.forms() == 1
            && asked_about(demo, &letter)
            && client::text_of(&granted).contains("Dear notes server"),
    );
    let result = client::call(&session.client, "notes_read", read.clone()).await;
    let again = demo.show(&script, "notes_read", &read, result);
    demo.check(
        "for the session: read again without a question",
        demo.forms() == 0 && client::text_of(&again).contains("Dear notes server"),
    );
    let todo = json!({ "path": demo.path("Inbox/todo.md") });
    script.answer(decline());
    let result = client::call(&session.client, "notes_read", todo.clone()).await;
    let declined = demo.show(&script, "notes_read", &todo, result);
    demo.check(
        "another note of Inbox is another question; the user says no (grant_declined)",
        demo.forms() == 1 && reason(&declined) == Some("grant_declined"),
    );
    let spelled = json!({ "path": demo.uri("Inbox/./todo.md") });
    let result = client::call(&session.client, "notes_read", spelled.clone()).await;
    let remembered = demo.show(&script, "notes_read", &spelled, result);
    demo.check(
        "the no is remembered for the session, whatever the spelling: no form",
        demo.forms() == 0 && reason(&remembered) == Some("grant_declined"),
    );
    let secret = json!({ "path": demo.path("Secret/passwords.md") });
    let result = client::call(&session.client, "notes_read", secret.clone()).await;
    let refused = demo.show(&script, "notes_read", &secret, result);
    demo.check(
        "Secret/ is outside the area: outside_roots, nothing asked",
        demo.forms() == 0 && reason(&refused) == Some("outside_roots"),
    );
    demo.check("the session ended cleanly", session.close().await);
}

/// Whether the last form named `path` and the access "read".
fn asked_about(demo: &Demo, path: &str) -> bool {
    demo.events().iter().any(|event| match event {
        Event::Form { message, .. } => message.contains(path) && message.contains("read the file"),
        _ => false,
    })
}
