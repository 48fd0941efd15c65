//! `notes_setup`: first-run setup through URL-mode elicitation (SEP-1036,
//! protocol 2025-11-25).
//!
//! 1. Guard: [`Elicitor::check_url_mode`] (the client declared
//!    `elicitation.url` and the negotiated revision has URL mode and
//!    server-to-client requests). Otherwise the guard's message is the
//!    result and nothing is sent. There is deliberately no form fallback:
//!    the page is where the user, not the model, sets preferences, and the
//!    guard's message tells the model to ask the user in the conversation.
//! 2. A [`SetupPage`] on `127.0.0.1` with a one-time token, and
//!    `elicitation/create` (mode `url`) with a fresh `elicitationId`.
//! 3. Declined or cancelled: the page stops, nothing changes. Accepted: the
//!    tool waits for the page's one submission (or its timeout), applies
//!    the template, sends `notifications/elicitation/complete` for the
//!    `elicitationId`, and says what was set.
//!
//! The page can set the template for new notes and nothing else: it has no
//! field for roots or the ceiling, and ignores any that are posted.

use std::time::Duration;

use mcp_roots_rmcp::{Elicitor, Outcome};
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, tool, tool_router};
use serde_json::json;

use crate::failure::{Failure, Problem};
use crate::page::{SetupPage, random_hex};
use crate::prefs::Settings;
use crate::reply::{done, nothing_done};
use crate::server::NotesServer;
use crate::tools::ANSWER_WAIT;

/// How long a setup page lives (the user's consent included) by default.
pub const SETUP_WAIT: Duration = Duration::from_secs(15 * 60);

/// What the client shows with the URL.
pub const SETUP_MESSAGE: &str = "Open the notes-server setup page to choose a template for new \
notes. The page runs on this computer (127.0.0.1); it cannot change which folders are shared.";

#[tool_router(router = setup_router, vis = "pub(crate)")]
impl NotesServer {
    /// First-run setup in the browser (URL-mode elicitation).
    #[tool(
        description = "First-run setup: opens a local page in the user's browser where they choose the template for new notes. Needs a client with URL-mode elicitation. Never changes which folders are shared.",
        annotations(
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn notes_setup(&self, cx: RequestContext<RoleServer>) -> Result<CallToolResult, Failure> {
        let mut ask = Elicitor::for_request(&cx).with_timeout(ANSWER_WAIT);
        ask.check_url_mode()?;
        let (id, mut page) = self.start_page().await?;
        match ask.ask_url(SETUP_MESSAGE, page.url(), id.as_str()).await? {
            Outcome::Accepted(()) => {}
            other => return Ok(nothing_done(&other, "set up")),
        }
        let Some(submission) = page.submission().await else {
            return Ok(done(
                "The setup page was not submitted in time and has closed: nothing was changed. \
                 Do not retry unless the user asks again.",
                json!({ "outcome": "timed_out", "elicitationId": id }),
            ));
        };
        drop(page); // answers "already used" for a moment, then closes
        let template = Some(submission.template).filter(|t| !t.is_empty());
        self.prefs.set(Settings {
            template: template.clone(),
        });
        // The preference is set whether or not the client hears that the
        // page is done; the result says so in any case.
        let _ = ask.complete(&id).await;
        let mut text = match &template {
            Some(t) => format!(
                "Setup done in the browser: new notes (notes_write) now use this template \
                 ({} characters):\n{t}",
                t.chars().count()
            ),
            None => {
                "Setup done in the browser: no template; new notes are written as given.".to_owned()
            }
        };
        if !submission.ignored.is_empty() {
            text.push_str(&format!(
                "\nThe page ignored these fields: {} (the shared folders are not a preference).",
                submission.ignored.join(", ")
            ));
        }
        Ok(done(
            text,
            json!({
                "outcome": "configured",
                "elicitationId": id,
                "template": template,
                "ignored": submission.ignored,
            }),
        ))
    }
}

impl NotesServer {
    /// A fresh `elicitationId` and the page it sends the user to.
    async fn start_page(&self) -> Result<(String, SetupPage), Problem> {
        let started = async {
            let id = format!("setup-{}", random_hex(8)?);
            let page = SetupPage::start(&self.prefs.get(), self.setup_wait).await?;
            Ok::<_, std::io::Error>((id, page))
        };
        started.await.map_err(|err| {
            let message =
                format!("The setup page could not be started ({err}); nothing was changed.");
            Problem::new("setup_unavailable", message)
        })
    }
}
