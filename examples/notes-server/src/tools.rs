//! The note tools. Each takes the call and its arguments together (the
//! glue's [`Parameters`], so a 2026-07-28 retry is bound to the arguments
//! the tool acts on), or the call alone ([`ToolCall`]) when it has no
//! arguments, and serves one body on every protocol revision through the
//! session's [`SessionRoots`](mcp_roots_rmcp::SessionRoots):
//! [`serve`](mcp_roots_rmcp::SessionRoots::serve) for the tools that only
//! need the roots, [`serve_with`](mcp_roots_rmcp::SessionRoots::serve_with)
//! for those that may ask the user ([`change`](crate::change),
//! `notes_setup`) or refuse on a revision. The file work runs on the
//! blocking pool against the session's roots (2024-11-05 to 2025-11-25,
//! after the client's first answer, bounded) or against the roots that the
//! request brought (2026-07-28: the glue's first round asks for them). A
//! body leaves with `?`: the library's refusals, the note logic's
//! [`Failure`](crate::failure::Failure)s and [`Problem`]s and the questions
//! that could not be asked all become the glue's [`Stop`], which becomes a
//! tool result the model can act on.
//!
//! Held notes (`notes_open`, `notes_read` with a `handle`, `notes_close`)
//! live in a session's roots. Over stdio the process is the session
//! ([`with_process_session`](mcp_roots_rmcp::SessionRoots::with_process_session)):
//! on 2026-07-28 a held note lives in the roots of the request that opened
//! it, and a later request whose list drops its folder revokes it. Without
//! that memory (2026-07-28 over HTTP), where the roots belong to one
//! request, `notes_open` refuses with `not_on_this_revision`, so no handle
//! exists and the other two say `unknown_handle`.

use mcp_roots::{ErrorKind, Snapshot, TrackedFile};
use mcp_roots_rmcp::{Ask, Needs, Parameters, Stop, ToolCall};
use rmcp::model::{CallToolResponse, CallToolResult};
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::change::{self, Change, no_match};
use crate::failure::{Failure, Problem};
use crate::held::{self, Held};
use crate::notes::{self, Note, ReadNote};
use crate::reply::done;
use crate::server::NotesServer;

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
    async fn notes_list(&self, call: ToolCall) -> CallToolResponse {
        self.roots
            .serve(call, |snap| Ok(listing(notes::list(snap)?)))
            .await
    }

    /// Reads one note, by path, by title or through a held handle (several
    /// matches: the candidates go back to the model, which can ask in prose;
    /// reading is harmless, so no form).
    #[tool(
        description = "Read a note, given its path (file:// URI or absolute path), its title, or the handle notes_open gave it.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn notes_read(&self, Parameters(call, args): Parameters<ReadArgs>) -> CallToolResponse {
        let held = self.held.clone();
        let body = |mut ask: Ask| async move {
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
                return read_held(&ask, held, id).await;
            }
            if let Some(path) = &args.path {
                // Outside the shared folders, beneath --ask-within: ask.
                ask.need(&Needs::new().read(path)).await?;
            }
            let (path, title) = (args.path, args.title);
            let (_, read) = ask
                .files(move |snap| Ok(open_named(snap, path, title)?))
                .await?;
            let structured = json!({ "note": read.note.to_json(), "content": read.text });
            Ok(done(read.text, structured))
        };
        self.roots.serve_with(call, body).await
    }

    /// Opens a note and keeps it open for this session (see [`held`](crate::held)).
    #[tool(
        description = "Open a note (by path or title), read it, and keep it open: notes_read with the returned handle reads it again, wherever it moved inside the shared folders. Stops working if the user stops sharing its folder. Close with notes_close.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn notes_open(&self, Parameters(call, args): Parameters<OpenArgs>) -> CallToolResponse {
        let held = self.held.clone();
        let body = |ask: Ask| async move {
            if args.path.is_some() == args.title.is_some() {
                let message = "Give either `path` or `title`, not both.";
                return Err(Problem::invalid_arguments(message).into());
            }
            session_only(&ask)?;
            let (path, title) = (args.path, args.title);
            let (file, read) = ask
                .files(move |snap| Ok(open_named(snap, path, title)?))
                .await?;
            let id = held.keep(file)?;
            let structured = json!({
                "handle": id, "note": read.note.to_json(), "content": read.text
            });
            let text = format!("Opened {} as handle {id}:\n{}", read.note.uri(), read.text);
            Ok(done(text, structured))
        };
        self.roots.serve_with(call, body).await
    }

    /// Lets a held note go.
    #[tool(
        description = "Close a note that notes_open kept open.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn notes_close(
        &self,
        Parameters(call, args): Parameters<HandleArgs>,
    ) -> CallToolResponse {
        let held = self.held.clone();
        let body = |_: Ask| async move {
            let id = args.handle;
            if !held.close(id) {
                return Err(held::unknown(id).into());
            }
            Ok(done(
                format!("Closed handle {id}."),
                json!({ "closed": id }),
            ))
        };
        self.roots.serve_with(call, body).await
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
    async fn notes_write(&self, Parameters(call, args): Parameters<WriteArgs>) -> CallToolResponse {
        let WriteArgs { path, content } = args;
        // Outside the shared folders, beneath --ask-within: ask first.
        let needs = Needs::new().change(path.clone());
        let settings = self.preferences_of(&call).get();
        let work = move |snap: &Snapshot<'_>| {
            let templated = settings.template.is_some();
            let written = notes::write(snap, &path, &content, &settings)?;
            let uri = written.path.to_uri();
            let templated = templated && written.created;
            let (did, outcome) = match written.created {
                true => ("Created", "created"),
                false => ("Replaced the text of", "replaced"),
            };
            let how = if templated { " from the template" } else { "" };
            let structured = json!({ "uri": uri, "outcome": outcome, "template": templated });
            Ok(done(format!("{did} the note {uri}{how}"), structured))
        };
        self.roots.serve_needing(call, needs, work).await
    }

    /// Deletes a note by title, asking the user which one among several.
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
        Parameters(call, args): Parameters<TitleArgs>,
    ) -> CallToolResponse {
        let body = |ask| change::carry_out(ask, Change::Delete, args.title);
        self.roots.serve_with(call, body).await
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
        Parameters(call, args): Parameters<TitleArgs>,
    ) -> CallToolResponse {
        let body = |ask| change::carry_out(ask, Change::Archive, args.title);
        self.roots.serve_with(call, body).await
    }
}

/// The result of `notes_list`.
fn listing(listing: notes::Listing) -> CallToolResult {
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
    let structured = json!({ "notes": notes, "truncated": listing.truncated, "skipped": skipped });
    done(text, structured)
}

/// Held notes live in a session's roots: refused on 2026-07-28, where the
/// roots belong to one request and nothing stays open between calls.
fn session_only(ask: &Ask) -> Result<(), Problem> {
    if ask.in_session() {
        return Ok(());
    }
    let message = "Notes are held open in a session's roots; on protocol 2026-07-28 over HTTP \
        the roots belong to one request, so nothing can stay open between calls. Use notes_read \
        with a path or a title.";
    Err(Problem::new("not_on_this_revision", message))
}

/// `notes_read` with a `handle`: the held note read again from its start.
/// A revoked handle is dropped and the refusal goes back.
async fn read_held(ask: &Ask, held: Held, id: u32) -> Result<CallToolResult, Stop> {
    let file = held.get(id)?;
    let input = format!("handle {id}");
    let reader = file.clone();
    let read = ask
        .files(move |snap| Ok(notes::read_file(snap, &mut held::lock(&reader), &input)))
        .await;
    // Revoked (also when no root is left to read it in), or read as lost;
    // not while the call waits for its roots (2026-07-28: the retry reads,
    // and says why).
    let lost = matches!(&read, Ok(Err(f)) if f.is_refused(ErrorKind::ScopeLost));
    let waiting = matches!(&read, Err(stop) if stop.is_question());
    if !waiting && (lost || held::lock(&file).revoked().is_some()) {
        held.close(id);
    }
    let read = read??;
    let structured = json!({ "handle": id, "note": read.note.to_json(), "content": read.text });
    Ok(done(read.text, structured))
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
