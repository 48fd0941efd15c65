//! `notes_setup`: first-run setup through URL-mode elicitation (SEP-1036),
//! one body through [`Ask::url`](mcp_roots_rmcp::Ask::url) on every
//! revision that has URL mode.
//!
//! 1. Guard (the glue's): the client declared `elicitation.url` and the
//!    revision has URL mode (2025-11-25 and 2026-07-28). Otherwise the
//!    refusal (`url_elicitation_unsupported`, saying which condition
//!    failed) is the result and nothing is started or sent. There is
//!    deliberately no form fallback: the page is where the user, not the
//!    model, sets preferences, and the refusal tells the model to ask the
//!    user in the conversation.
//! 2. The flow starts: a [`SetupPage`] on `127.0.0.1` with a one-time
//!    token, and a completion future that waits for the page's one
//!    submission (or its timeout), applies the template to the
//!    preferences, and returns the submission.
//! 3. The URL goes to the client with a fresh `elicitationId`: on
//!    2025-11-25 as `elicitation/create` (mode `url`), after which the glue
//!    awaits the completion and sends `notifications/elicitation/complete`;
//!    on 2026-07-28 as an input request, the client's accept being the
//!    user's consent, after which each round waits for the completion
//!    (rounds that answer "still waiting" in between).
//! 4. Declined or cancelled: the flow is dropped with its page, nothing
//!    changes. Accepted: the result says what was set, that the user
//!    pressed Cancel on the page (at once: outcome `declined`, `on: page`),
//!    or that the page timed out.
//!
//! The page can set the template for new notes and nothing else: it has no
//! field for roots or the ceiling, and ignores any that are posted.

use std::time::Duration;

use std::pin::Pin;

use mcp_roots_rmcp::{Ask, Outcome, Revision, Rounds, Stop, ToolCall};
use rmcp::model::CallToolResponse;
use rmcp::{tool, tool_router};
use serde_json::json;

use crate::failure::Problem;
use crate::page::{PageEnd, SetupPage, Submission};
use crate::prefs::{Preferences, Settings};
use crate::reply::{done, nothing_done};
use crate::server::NotesServer;

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
    async fn notes_setup(&self, call: ToolCall) -> CallToolResponse {
        let (prefs, wait) = (self.preferences_of(&call).clone(), self.setup_wait);
        // On 2026-07-28 with a page every instance serves: a link to it.
        let revision = call.revision();
        let shared = match revision {
            Revision::Rounds => self.shared_page.clone(),
            _ => None,
        };
        let rounds = self.roots.rounds().clone();
        let body = |mut ask: Ask| async move {
            let start = |id: &str| {
                let link = match shared {
                    Some(page) => Link::Shared(shared_link(page, &rounds, id, wait)),
                    // On 2026-07-28 the page's flow is in the rounds' store.
                    None if revision == Revision::Rounds => Link::Flow(rounds.clone(), id.into()),
                    None => Link::Page,
                };
                start_flow(prefs.clone(), wait, link)
            };
            let visited = match ask.url(SETUP_MESSAGE, start).await? {
                Outcome::Accepted(visited) => visited,
                other => return Ok(nothing_done(&other, "set up")),
            };
            let id = visited.elicitation_id;
            let submission = match visited.result {
                Some(PageEnd::Submitted(submission)) => {
                    // Set here too: on 2026-07-28 this round may run on
                    // another instance than the page's (the preferences
                    // are each instance's own).
                    prefs.set(Settings {
                        template: template_of(&submission),
                    });
                    submission
                }
                Some(PageEnd::Cancelled) => {
                    return Ok(done(
                        "The user cancelled setup on the page: nothing was changed. Do not \
                         retry unless the user asks again.",
                        json!({ "outcome": "declined", "on": "page", "elicitationId": id }),
                    ));
                }
                None | Some(PageEnd::Expired) => {
                    return Ok(done(
                        "The setup page was not submitted in time and has closed: nothing was \
                         changed. Do not retry unless the user asks again.",
                        json!({ "outcome": "timed_out", "elicitationId": id }),
                    ));
                }
            };
            let template = template_of(&submission);
            let mut text = match &template {
                Some(t) => format!(
                    "Setup done in the browser: new notes (notes_write) now use this template \
                     ({} characters):\n{t}",
                    t.chars().count()
                ),
                None => "Setup done in the browser: no template; new notes are written as given."
                    .to_owned(),
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
        };
        self.roots.serve_with(call, body).await
    }
}

/// Starts the page (showing the current preferences, living at most
/// `wait`); its URL, and the flow's completion: how the page ended, once
/// the template a submission carries is set (cancelled: nothing set;
/// `None`: it expired, nothing set, and the client is not told that the
/// flow finished).
///
/// With [`Link::Shared`] (a link to the page every instance serves),
/// nothing starts here: the submission is recorded in the store by the
/// instance that takes it, and the completion only ends the flow without a
/// result once `wait` has passed. With [`Link::Flow`] this instance's page
/// belongs to the flow: it closes once the flow ended on any instance.
async fn start_flow(
    prefs: Preferences,
    wait: Duration,
    link: Link,
) -> Result<
    (
        url::Url,
        Pin<Box<dyn Future<Output = Option<PageEnd>> + Send + 'static>>,
    ),
    Stop,
> {
    let started = match link {
        Link::Shared(link) => {
            let completion = async move {
                tokio::time::sleep(wait).await;
                None
            };
            return Ok((link, Box::pin(completion)));
        }
        Link::Flow(rounds, id) => SetupPage::start_in_flow(&prefs.get(), wait, rounds, &id).await,
        Link::Page => SetupPage::start(&prefs.get(), wait).await,
    };
    let mut page = started.map_err(|err| {
        let message = format!("The setup page could not be started ({err}); nothing was changed.");
        Problem::new("setup_unavailable", message)
    })?;
    let url = page.url().clone();
    let completion = async move {
        let end = page.submission().await;
        drop(page); // says "closed" for a while, then closes
        // Set before the client hears that the page is done (the glue says
        // so after this future ends), and whether or not it hears.
        match &end {
            PageEnd::Submitted(submission) => prefs.set(Settings {
                template: template_of(submission),
            }),
            PageEnd::Cancelled => {}
            PageEnd::Expired => return None,
        }
        Some(end)
    };
    Ok((url, Box::pin(completion)))
}

/// Where the user is sent for one flow.
enum Link {
    /// A page of this instance, for a session's flow (2025-11-25).
    Page,
    /// A page of this instance for the 2026-07-28 flow `id` of the rounds.
    Flow(Rounds, String),
    /// The page every instance serves, at this link.
    Shared(url::Url),
}

/// The link to the shared page for flow `id`: `page?token=…`, the token
/// sealed by the deployment's keys and valid as long as the page.
fn shared_link(mut page: url::Url, rounds: &Rounds, id: &str, wait: Duration) -> url::Url {
    let token = rounds.flow_token(id, wait);
    page.query_pairs_mut().clear().append_pair("token", &token);
    page
}

/// The template a submission sets (empty: none).
fn template_of(submission: &Submission) -> Option<String> {
    Some(submission.template.clone()).filter(|t| !t.is_empty())
}
