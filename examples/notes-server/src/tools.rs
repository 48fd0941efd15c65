//! The five tools. Each does its file work in one
//! [`SessionRoots::run`](mcp_roots::mcp::SessionRoots::run) call (waiting,
//! bounded, for the client's first roots answer; on the blocking pool), and
//! turns every refusal into a tool result the model can act on.

use std::time::Duration;

use mcp_roots::mcp::{Elicitor, Outcome, tool_error};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer, tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

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

/// A change that needs the user's answer.
#[derive(Clone, Copy, Debug)]
enum Change {
    Delete,
    Archive,
}

impl Change {
    fn verb(self) -> &'static str {
        match self {
            Self::Delete => "delete",
            Self::Archive => "archive",
        }
    }

    fn done(self) -> &'static str {
        match self {
            Self::Delete => "deleted",
            Self::Archive => "archived",
        }
    }

    fn consequence(self) -> &'static str {
        match self {
            Self::Delete => "This cannot be undone.",
            Self::Archive => "It moves into the archive/ folder of its shared folder.",
        }
    }
}

#[tool_router(vis = "pub(crate)")]
impl NotesServer {
    /// Lists every note: bounded walks of each root, symlinks not followed.
    #[tool(
        description = "List the notes (*.md files) under the folders the user shared, with their titles and URIs.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn notes_list(&self) -> CallToolResult {
        let listing = match self.roots.run(|snap| Ok(notes::list(snap))).await {
            Ok(Ok(listing)) => listing,
            Ok(Err(p)) => return reply::problem(&p),
            Err(err) => return tool_error(&err),
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
        done(
            text,
            json!({ "notes": notes, "truncated": listing.truncated, "skipped": skipped }),
        )
    }

    /// Reads one note, by path or by title (several matches: the candidates
    /// go back to the model, which can ask in prose; reading is harmless, so
    /// no form).
    #[tool(
        description = "Read a note, given its path (file:// URI or absolute path) or its title.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn notes_read(&self, Parameters(args): Parameters<ReadArgs>) -> CallToolResult {
        let result = match (args.path, args.title) {
            (Some(path), None) => {
                self.roots
                    .run(move |snap| notes::read(snap, &path, &path))
                    .await
            }
            (None, Some(title)) => {
                self.roots
                    .run(move |snap| match notes::matching(snap, &title).as_deref() {
                        Ok([note]) => notes::read(snap, &note.path, &note.uri()),
                        Ok([]) => Ok(Err(no_match(&title))),
                        Ok(several) => Ok(Err(ambiguous(&title, several))),
                        Err(p) => Ok(Err(p.clone())),
                    })
                    .await
            }
            _ => return reply::invalid_arguments("Give either `path` or `title`, not both."),
        };
        reply::from(result, |read| {
            let structured = json!({ "note": read.note.to_json(), "content": read.text });
            done(read.text, structured)
        })
    }

    /// Creates a new note; never replaces an existing file.
    #[tool(
        description = "Create a new note (a .md file) inside a shared folder. Never replaces an existing file.",
        annotations(
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn notes_write(&self, Parameters(args): Parameters<WriteArgs>) -> CallToolResult {
        let WriteArgs { path, content } = args;
        let result = self
            .roots
            .run(move |snap| notes::create(snap, &path, &content))
            .await;
        reply::from(result, |created| {
            let uri = created.to_uri();
            done(format!("Created the note {uri}"), json!({ "uri": uri }))
        })
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
    ) -> CallToolResult {
        self.change(Change::Delete, args.title, &cx.peer).await
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
    ) -> CallToolResult {
        self.change(Change::Archive, args.title, &cx.peer).await
    }
}

impl NotesServer {
    /// Finds the notes titled `title`, lets the user pick one if there are
    /// several, asks for confirmation, then applies `change`.
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
                let message = format!(
                    "{} notes are titled {title:?}. Which one should I {}?",
                    several.len(),
                    change.verb()
                );
                match ask.choose(message, &labels).await {
                    Ok(Outcome::Accepted(i)) => several[i].clone(),
                    Ok(other) => return reply::nothing_done(&other, change.done()),
                    Err(err) => return err.to_tool_result(),
                }
            }
        };
        let message = format!(
            "{} the note {:?} ({}: {})? {}",
            capitalised(change.verb()),
            note.title,
            note.root,
            note.path,
            change.consequence()
        );
        let action = format!("Yes, {} it", change.verb());
        match ask.confirm(message, action).await {
            Ok(Outcome::Accepted(())) => {}
            Ok(other) => return reply::nothing_done(&other, change.done()),
            Err(err) => return err.to_tool_result(),
        }
        let uri = note.uri();
        let result = self
            .roots
            .run(move |snap| match change {
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

fn no_match(title: &str) -> Problem {
    Problem::new(
        "no_match",
        format!("No note is titled {title:?}. Call notes_list to see the titles."),
    )
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

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
