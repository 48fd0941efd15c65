//! The note tools. Each finds its [`Scope`] first: the session's roots on
//! revisions with `initialize` (its file work then runs in
//! [`SessionRoots::run`](mcp_roots_rmcp::SessionRoots::run): waiting,
//! bounded, for the client's first roots answer, on the blocking pool), or
//! the roots that came with the request on 2026-07-28 (see
//! [`modern`](crate::modern)). A tool body returns `Result<_, Failure>`:
//! every refusal leaves it with `?` and becomes a tool result the model can
//! act on (see [`failure`](crate::failure)).

use std::time::Duration;

use mcp_roots::{ErrorKind, Snapshot, TrackedFile};
use mcp_roots_rmcp::{Elicitor, Outcome, ask_roots};
use rmcp::handler::server::tool::{InputResponses, RequestState};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResponse, CallToolResult};
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer, tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::change::{Change, choose_message, confirm_message, no_match};
use crate::failure::{Failure, Problem};
use crate::held;
use crate::modern::{Scope, is_modern};
use crate::notes::{self, Note, ReadNote};
use crate::reply::{done, nothing_done};
use crate::server::NotesServer;

/// How long a form may stay open before the tool call gives up (changing
/// nothing).
pub const ANSWER_WAIT: Duration = Duration::from_secs(300);

/// Arguments of `notes_read`: one of the three.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ReadArgs {
    /// The note's file:// URI or absolute path (give this, `title` or `handle`).
    #[serde(default)]
    pub path: Option<String>,
    /// The note's title, matched case-insensitively (give this, `path` or `handle`).
    #[serde(default)]
    pub title: Option<String>,
    /// The number notes_open gave a note: reads that note again, wherever
    /// it moved (give this, `path` or `title`).
    #[serde(default)]
    pub handle: Option<u32>,
}

/// Arguments of `notes_open`: one of the two.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct OpenArgs {
    /// The note's file:// URI or absolute path (give this or `title`).
    #[serde(default)]
    pub path: Option<String>,
    /// The note's title, matched case-insensitively (give this or `path`).
    #[serde(default)]
    pub title: Option<String>,
}

/// Arguments of `notes_close`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct HandleArgs {
    /// The number notes_open gave the note.
    pub handle: u32,
}

/// Arguments of `notes_write`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct WriteArgs {
    /// The note: a file:// URI or absolute path ending in .md, inside a
    /// shared folder; the folder must exist. An existing note is replaced.
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
    ) -> Result<CallToolResponse, Failure> {
        let Some(scope) = self.scope(&cx, inputs.as_ref()).await? else {
            return Ok(ask_roots(None, None).into());
        };
        let listing = self.run_in(&scope, |snap| Ok(notes::list(snap)?)).await?;
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
        Ok(done(text, structured).into())
    }

    /// Reads one note, by path, by title or through a held handle (several
    /// matches: the candidates go back to the model, which can ask in prose;
    /// reading is harmless, so no form).
    #[tool(
        description = "Read a note, given its path (file:// URI or absolute path), its title, or the handle notes_open gave it.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn notes_read(
        &self,
        Parameters(args): Parameters<ReadArgs>,
        cx: RequestContext<RoleServer>,
        InputResponses(inputs): InputResponses,
    ) -> Result<CallToolResponse, Failure> {
        let given = [
            args.path.is_some(),
            args.title.is_some(),
            args.handle.is_some(),
        ];
        if given.iter().filter(|&&g| g).count() != 1 {
            let message = "Give exactly one of `path`, `title` or `handle`.";
            return Err(Problem::invalid_arguments(message).into());
        }
        if let Some(id) = args.handle {
            return Ok(self.read_held(id).await?.into());
        }
        let Some(scope) = self.scope(&cx, inputs.as_ref()).await? else {
            return Ok(ask_roots(None, None).into());
        };
        let (path, title) = (args.path, args.title);
        let (_, read) = self
            .run_in(&scope, move |snap| open_named(snap, path, title))
            .await?;
        let structured = json!({ "note": read.note.to_json(), "content": read.text });
        Ok(done(read.text, structured).into())
    }

    /// Opens a note and keeps it open for this session (see [`held`](crate::held)).
    #[tool(
        description = "Open a note (by path or title), read it, and keep it open: notes_read with the returned handle reads it again, wherever it moved inside the shared folders. Stops working if the user stops sharing its folder. Close with notes_close.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn notes_open(
        &self,
        Parameters(args): Parameters<OpenArgs>,
        cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, Failure> {
        if args.path.is_some() == args.title.is_some() {
            let message = "Give either `path` or `title`, not both.";
            return Err(Problem::invalid_arguments(message).into());
        }
        if is_modern(&cx) {
            let message = "Notes are held open in a session's roots; on protocol 2026-07-28 the \
                roots belong to one request, so nothing can stay open between calls. Use notes_read.";
            return Err(Problem::new("not_on_this_revision", message).into());
        }
        let (path, title) = (args.path, args.title);
        let (file, read) = self
            .run_in(&Scope::Session, move |snap| open_named(snap, path, title))
            .await?;
        let id = self.held.keep(file)?;
        let structured = json!({
            "handle": id, "note": read.note.to_json(), "content": read.text
        });
        let text = format!("Opened {} as handle {id}:\n{}", read.note.uri(), read.text);
        Ok(done(text, structured))
    }

    /// Lets a held note go.
    #[tool(
        description = "Close a note that notes_open kept open.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn notes_close(
        &self,
        Parameters(args): Parameters<HandleArgs>,
    ) -> Result<CallToolResult, Failure> {
        let id = args.handle;
        if !self.held.close(id) {
            return Err(held::unknown(id).into());
        }
        Ok(done(
            format!("Closed handle {id}."),
            json!({ "closed": id }),
        ))
    }

    /// Creates or replaces a note through `write_atomic` (readers see the
    /// old text or the new, never a mix). A template set by `notes_setup`
    /// wraps the content of new notes.
    #[tool(
        description = "Create a note (a .md file) inside a shared folder, or replace an existing note's text. The write is atomic.",
        annotations(
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn notes_write(
        &self,
        Parameters(args): Parameters<WriteArgs>,
        cx: RequestContext<RoleServer>,
        InputResponses(inputs): InputResponses,
    ) -> Result<CallToolResponse, Failure> {
        let Some(scope) = self.scope(&cx, inputs.as_ref()).await? else {
            return Ok(ask_roots(None, None).into());
        };
        let WriteArgs { path, content } = args;
        let settings = self.prefs.get();
        let templated = settings.template.is_some();
        let written = self
            .run_in(&scope, move |snap| {
                notes::write(snap, &path, &content, &settings)
            })
            .await?;
        let uri = written.path.to_uri();
        let templated = templated && written.created;
        let (did, outcome) = match written.created {
            true => ("Created", "created"),
            false => ("Replaced the text of", "replaced"),
        };
        let how = if templated { " from the template" } else { "" };
        let structured = json!({ "uri": uri, "outcome": outcome, "template": templated });
        Ok(done(format!("{did} the note {uri}{how}"), structured).into())
    }

    /// Deletes a note by title, after asking the user.
    #[tool(
        description = "Delete a note by title. One match is deleted; when several notes bear the title, the user picks the one to delete in a form (nothing is deleted if they decline).",
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
    ) -> Result<CallToolResponse, Failure> {
        self.change_by_revision(Change::Delete, args.title, &cx, inputs, state)
            .await
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
    ) -> Result<CallToolResponse, Failure> {
        self.change_by_revision(Change::Archive, args.title, &cx, inputs, state)
            .await
    }
}

impl NotesServer {
    /// `notes_delete` / `notes_archive`: in rounds of input requests on
    /// 2026-07-28, with `elicitation/create` on the revisions with
    /// `initialize`.
    async fn change_by_revision(
        &self,
        change: Change,
        title: String,
        cx: &RequestContext<RoleServer>,
        inputs: Option<rmcp::model::InputResponses>,
        state: Option<String>,
    ) -> Result<CallToolResponse, Failure> {
        if is_modern(cx) {
            return self
                .change_in_rounds(change, title, cx, inputs, state)
                .await;
        }
        Ok(self.change(change, title, &cx.peer).await?.into())
    }

    /// Finds the notes titled `title` and applies `change` where the user
    /// said so (revisions with `initialize`: the questions are
    /// `elicitation/create` requests).
    ///
    /// - delete, one match: deleted (the model named it; nothing to ask);
    /// - delete, several: one form lists them, the chosen one is deleted
    ///   (the form says so; declining or closing it deletes nothing);
    /// - archive: always confirmed, after a pick when there are several
    ///   (two forms: which, then yes). The budget makes "at most that many
    ///   questions" a property of this call, not a convention.
    async fn change(
        &self,
        change: Change,
        title: String,
        peer: &Peer<RoleServer>,
    ) -> Result<CallToolResult, Failure> {
        let query = title.clone();
        let matches = self
            .run_in(&Scope::Session, move |snap| {
                Ok(notes::matching(snap, &query)?)
            })
            .await?;
        let mut ask = Elicitor::new(peer)
            .with_budget(change.questions(matches.len()))
            .with_timeout(ANSWER_WAIT);
        let note = match matches.as_slice() {
            [] => return Err(no_match(&title).into()),
            [note] => note.clone(),
            several => {
                let labels: Vec<String> = several.iter().map(Note::label).collect();
                let message = choose_message(change, &title, several.len());
                match ask.choose(message, &labels).await? {
                    Outcome::Accepted(i) => several[i].clone(),
                    other => return Ok(nothing_done(&other, change.done())),
                }
            }
        };
        if change.confirms() {
            let message = confirm_message(change, &note.title, &note.root, note.path.rel());
            match ask.confirm(message, change.action()).await? {
                Outcome::Accepted(()) => {}
                other => return Ok(nothing_done(&other, change.done())),
            }
        }
        self.apply(change, note, &Scope::Session).await
    }

    /// Deletes or archives `note` (the user said yes) in `scope`.
    pub(crate) async fn apply(
        &self,
        change: Change,
        note: Note,
        scope: &Scope,
    ) -> Result<CallToolResult, Failure> {
        let uri = note.uri();
        let archived = self
            .run_in(scope, move |snap| {
                Ok(match change {
                    Change::Delete => snap.remove_file(&note.path).map(|()| None)?,
                    Change::Archive => Some(notes::archive(snap, &note)?),
                })
            })
            .await?;
        Ok(match archived {
            None => done(
                format!("Deleted the note {uri}"),
                json!({ "outcome": "deleted", "uri": uri }),
            ),
            Some(archived) => done(
                format!("Archived the note {uri} as {}", archived.to_uri()),
                json!({ "outcome": "archived", "uri": uri, "archived": archived.to_uri() }),
            ),
        })
    }

    /// `notes_read` with a `handle`: the held note read again from its
    /// start. A revoked handle is dropped and the refusal goes back.
    async fn read_held(&self, id: u32) -> Result<CallToolResult, Failure> {
        let file = self.held.get(id)?;
        let input = format!("handle {id}");
        let read = self
            .run_in(&Scope::Session, move |snap| {
                notes::read_file(snap, &mut held::lock(&file), &input)
            })
            .await;
        if read
            .as_ref()
            .is_err_and(|f| f.is_refused(ErrorKind::ScopeLost))
        {
            self.held.close(id);
        }
        let read = read?;
        let structured = json!({ "handle": id, "note": read.note.to_json(), "content": read.text });
        Ok(done(read.text, structured))
    }
}

/// The note a `path` or a `title` names, opened (tracked) and read.
fn open_named(
    snap: &Snapshot<'_>,
    path: Option<String>,
    title: Option<String>,
) -> Result<(TrackedFile, ReadNote), Failure> {
    if let Some(path) = path {
        return notes::open(snap, path.as_str(), &path);
    }
    let title = title.unwrap_or_default();
    match notes::matching(snap, &title)?.as_slice() {
        [note] => notes::open(snap, &note.path, &note.uri()),
        [] => Err(no_match(&title).into()),
        several => Err(ambiguous(&title, several).into()),
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
