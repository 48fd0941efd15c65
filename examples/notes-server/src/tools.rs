//! The five note tools. Each finds its [`Scope`] first: the session's roots
//! on revisions with `initialize` (its file work then runs in
//! [`SessionRoots::run`](mcp_roots::mcp::SessionRoots::run): waiting,
//! bounded, for the client's first roots answer, on the blocking pool), or
//! the roots that came with the request on 2026-07-28 (see
//! [`modern`](crate::modern)). Every refusal becomes a tool result the
//! model can act on.

use std::time::Duration;

use mcp_roots::mcp::{Elicitor, Outcome, tool_error};
use rmcp::handler::server::tool::{InputResponses, RequestState};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResponse, CallToolResult};
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer, tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::change::{Change, choose_message, confirm_message, no_match};
use crate::modern::{Scope, is_modern};
use crate::notes::{self, Note, Problem};
use crate::reply::{self, done};
use crate::server::NotesServer;

/// How long a form may stay open before the tool call gives up (changing
/// nothing).
pub const ANSWER_WAIT: Duration = Duration::from_secs(300);

/// Arguments of `notes_read`: one of the two.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ReadArgs {
    /// The note's file:// URI or absolute path (give this or `title`).
    #[serde(default)]
    pub path: Option<String>,
    /// The note's title, matched case-insensitively (give this or `path`).
    #[serde(default)]
    pub title: Option<String>,
}

/// Arguments of `notes_write`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct WriteArgs {
    /// The new note: a file:// URI or absolute path ending in .md, inside a
    /// shared folder; the folder must exist. An existing file is never replaced.
    pub path: String,
    /// The note's Markdown text; start it with "# Title".
    pub content: String,
}

/// Arguments of `notes_delete` and `notes_archive`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct TitleArgs {
    /// The note's title, matched case-insensitively.
    pub title: String,
}

#[tool_router(vis = "pub(crate)")]
impl NotesServer {
    /// Lists every note: bounded walks of each root, symlinks not followed.
    #[tool(
        description = "List the notes (*.md files) under the folders the user shared, with their titles and URIs.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn notes_list(
        &self,
        cx: RequestContext<RoleServer>,
        InputResponses(inputs): InputResponses,
    ) -> CallToolResponse {
        let scope = match self.scope(&cx, inputs.as_ref()).await {
            Ok(scope) => scope,
            Err(ask) => return ask,
        };
        let listing = match self.run_in(&scope, |snap| Ok(notes::list(snap))).await {
            Ok(Ok(listing)) => listing,
            Ok(Err(p)) => return reply::problem(&p).into(),
            Err(err) => return tool_error(&err).into(),
        };
        let mut text = format!("{} notes:", listing.notes.len());
        for note in &listing.notes {
            text.push_str(&format!(
                "\n- {} ({}: {})  {}",
                note.title,
                note.root,
                note.path,
                note.uri()
            ));
        }
        if listing.truncated {
            text.push_str("\n(The listing stopped at its limit: some notes are not shown.)");
        }
        for (input, reason) in &listing.skipped {
            text.push_str(&format!("\n(Skipped {input:?}: {reason}.)"));
        }
        let notes: Vec<_> = listing.notes.iter().map(Note::to_json).collect();
        let skipped: Vec<_> = listing
            .skipped
            .iter()
            .map(|(input, reason)| json!({ "input": input, "reason": reason }))
            .collect();
        let structured =
            json!({ "notes": notes, "truncated": listing.truncated, "skipped": skipped });
        done(text, structured).into()
    }

    /// Reads one note, by path or by title (several matches: the candidates
    /// go back to the model, which can ask in prose; reading is harmless, so
    /// no form).
    #[tool(
        description = "Read a note, given its path (file:// URI or absolute path) or its title.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn notes_read(
        &self,
        Parameters(args): Parameters<ReadArgs>,
        cx: RequestContext<RoleServer>,
        InputResponses(inputs): InputResponses,
    ) -> CallToolResponse {
        if args.path.is_some() == args.title.is_some() {
            return reply::invalid_arguments("Give either `path` or `title`, not both.").into();
        }
        let scope = match self.scope(&cx, inputs.as_ref()).await {
            Ok(scope) => scope,
            Err(ask) => return ask,
        };
        let result = match (args.path, args.title) {
            (Some(path), _) => {
                self.run_in(&scope, move |snap| notes::read(snap, &path, &path))
                    .await
            }
            (None, title) => {
                let title = title.unwrap_or_default();
                self.run_in(&scope, move |snap| {
                    match notes::matching(snap, &title).as_deref() {
                        Ok([note]) => notes::read(snap, &note.path, &note.uri()),
                        Ok([]) => Ok(Err(no_match(&title))),
                        Ok(several) => Ok(Err(ambiguous(&title, several))),
                        Err(p) => Ok(Err(p.clone())),
                    }
                })
                .await
            }
        };
        reply::from(result, |read| {
            let structured = json!({ "note": read.note.to_json(), "content": read.text });
            done(read.text, structured)
        })
        .into()
    }

    /// Creates a new note; never replaces an existing file. A template set
    /// by `notes_setup` wraps the content.
    #[tool(
        description = "Create a new note (a .md file) inside a shared folder. Never replaces an existing file.",
        annotations(
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn notes_write(
        &self,
        Parameters(args): Parameters<WriteArgs>,
        cx: RequestContext<RoleServer>,
        InputResponses(inputs): InputResponses,
    ) -> CallToolResponse {
        let scope = match self.scope(&cx, inputs.as_ref()).await {
            Ok(scope) => scope,
            Err(ask) => return ask,
        };
        let WriteArgs { path, content } = args;
        let settings = self.prefs.get();
        let templated = settings.template.is_some();
        let result = self
            .run_in(&scope, move |snap| {
                notes::create(snap, &path, &content, &settings)
            })
            .await;
        reply::from(result, |created| {
            let uri = created.to_uri();
            let how = if templated { " from the template" } else { "" };
            done(
                format!("Created the note {uri}{how}"),
                json!({ "uri": uri, "template": templated }),
            )
        })
        .into()
    }

    /// Deletes a note by title, after asking the user.
    #[tool(
        description = "Delete a note by title. The user picks among several matches and confirms in a form; nothing is deleted without a yes.",
        annotations(
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn notes_delete(
        &self,
        Parameters(args): Parameters<TitleArgs>,
        cx: RequestContext<RoleServer>,
        InputResponses(inputs): InputResponses,
        RequestState(state): RequestState,
    ) -> CallToolResponse {
        if is_modern(&cx) {
            return self
                .change_in_rounds(Change::Delete, args.title, &cx, inputs, state)
                .await;
        }
        self.change(Change::Delete, args.title, &cx.peer)
            .await
            .into()
    }

    /// Moves a note into `archive/` of its root, after asking the user
    /// (always, even for one match).
    #[tool(
        description = "Move a note (by title) into the archive/ folder of its shared folder. Always asks the user to confirm in a form.",
        annotations(
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn notes_archive(
        &self,
        Parameters(args): Parameters<TitleArgs>,
        cx: RequestContext<RoleServer>,
        InputResponses(inputs): InputResponses,
        RequestState(state): RequestState,
    ) -> CallToolResponse {
        if is_modern(&cx) {
            return self
                .change_in_rounds(Change::Archive, args.title, &cx, inputs, state)
                .await;
        }
        self.change(Change::Archive, args.title, &cx.peer)
            .await
            .into()
    }
}

impl NotesServer {
    /// Finds the notes titled `title`, lets the user pick one if there are
    /// several, asks for confirmation, then applies `change` (revisions
    /// with `initialize`: the questions are `elicitation/create` requests).
    ///
    /// Budget: one question, or two when there are several matches. Which
    /// note and whether to destroy it are two answers: picking from a list
    /// is not consent (the user may pick to see the path, and a checkbox
    /// beside a list is ticked out of habit), and the confirmation then
    /// names exactly the note that will go, path included. The second form
    /// only follows an accepted first one, and never more than two: the
    /// budget makes that a property of this call, not a convention.
    async fn change(
        &self,
        change: Change,
        title: String,
        peer: &Peer<RoleServer>,
    ) -> CallToolResult {
        let query = title.clone();
        let found = self
            .roots
            .run(move |snap| Ok(notes::matching(snap, &query)));
        let matches = match found.await {
            Ok(Ok(matches)) => matches,
            Ok(Err(p)) => return reply::problem(&p),
            Err(err) => return tool_error(&err),
        };
        let budget = if matches.len() > 1 { 2 } else { 1 };
        let mut ask = Elicitor::new(peer)
            .with_budget(budget)
            .with_timeout(ANSWER_WAIT);
        let note = match matches.as_slice() {
            [] => return reply::problem(&no_match(&title)),
            [note] => note.clone(),
            several => {
                let labels: Vec<String> = several.iter().map(Note::label).collect();
                let message = choose_message(change, &title, several.len());
                match ask.choose(message, &labels).await {
                    Ok(Outcome::Accepted(i)) => several[i].clone(),
                    Ok(other) => return reply::nothing_done(&other, change.done()),
                    Err(err) => return err.to_tool_result(),
                }
            }
        };
        let message = confirm_message(change, &note.title, &note.root, note.path.rel());
        match ask.confirm(message, change.action()).await {
            Ok(Outcome::Accepted(())) => {}
            Ok(other) => return reply::nothing_done(&other, change.done()),
            Err(err) => return err.to_tool_result(),
        }
        self.apply(change, note, &Scope::Session).await
    }

    /// Deletes or archives `note` (the user said yes) in `scope`.
    pub(crate) async fn apply(&self, change: Change, note: Note, scope: &Scope) -> CallToolResult {
        let uri = note.uri();
        let result = self
            .run_in(scope, move |snap| match change {
                Change::Delete => snap.remove_file(&note.path).map(|()| None),
                Change::Archive => notes::archive(snap, &note).map(Some),
            })
            .await;
        match result {
            Err(err) => tool_error(&err),
            Ok(None) => done(
                format!("Deleted the note {uri}"),
                json!({ "outcome": "deleted", "uri": uri }),
            ),
            Ok(Some(archived)) => done(
                format!("Archived the note {uri} as {}", archived.to_uri()),
                json!({ "outcome": "archived", "uri": uri, "archived": archived.to_uri() }),
            ),
        }
    }
}

fn ambiguous(title: &str, several: &[Note]) -> Problem {
    let mut message = format!(
        "{} notes are titled {title:?}; ask the user which one, then call notes_read with its path:",
        several.len()
    );
    for note in several {
        message.push_str(&format!("\n- {}  {}", note.label(), note.uri()));
    }
    Problem::new("ambiguous", message)
}
