//! The changes that need the user's answer (`notes_delete`,
//! `notes_archive`): one body, [`carry_out`], served on every revision by
//! [`SessionRoots::serve_with`](mcp_roots_rmcp::SessionRoots::serve_with),
//! and the words of its forms.
//!
//! The body finds the notes bearing the title, asks (a pick among several,
//! then a confirmation for an archive), and only then changes anything,
//! finding the note again under the roots of that moment. On the session
//! revisions the questions are `elicitation/create` requests and the body
//! waits for each answer. On 2026-07-28 the glue replays the body from the
//! start in every round, against that round's roots: the answers given so
//! far come back from the sealed `requestState`, each bound to a digest of
//! the question it answered, so that when the files changed between rounds
//! and the body would now ask something else (another list of notes,
//! another path), the call stops with `question_changed` and changes
//! nothing.

use mcp_roots::{Error, ErrorKind, Operation, Snapshot, Writes};
use mcp_roots_rmcp::{Ask, Outcome, Stop};
use rmcp::model::CallToolResult;
use serde_json::json;

use crate::failure::Problem;
use crate::notes::{self, Note};
use crate::reply::{done, nothing_done};

/// A change that needs the user's answer.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Change {
    Delete,
    Archive,
}

impl Change {
    /// Whether the user confirms even a single match (archive: always;
    /// delete: the model named the note, or the user picked it in a form
    /// that says picking deletes it).
    pub(crate) fn confirms(self) -> bool {
        matches!(self, Self::Archive)
    }

    /// How many forms a change with `matches` candidates shows: a pick
    /// among several, then a confirmation if [`confirms`](Self::confirms).
    /// No candidates: none (nothing to do).
    pub(crate) fn questions(self, matches: usize) -> usize {
        match matches {
            0 => 0,
            1 => usize::from(self.confirms()),
            _ => 1 + usize::from(self.confirms()),
        }
    }

    /// The confirmation's checkbox: "Yes, delete it".
    pub(crate) fn action(self) -> String {
        format!("Yes, {} it", self.verb())
    }

    fn verb(self) -> &'static str {
        match self {
            Self::Delete => "delete",
            Self::Archive => "archive",
        }
    }

    pub(crate) fn done(self) -> &'static str {
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

/// `notes_delete` / `notes_archive`: finds the notes titled `title` and
/// applies `change` where the user said so.
///
/// - delete, one match: deleted (the model named it; nothing to ask);
/// - delete, several: one form lists them, the chosen one is deleted (the
///   form says so; declining or closing it deletes nothing);
/// - archive: always confirmed, after a pick when there are several (two
///   forms: which, then yes). The limit makes "at most that many
///   questions" a property of this call, not a convention.
///
/// Nothing changes before the last answer; every `Stop` goes on with `?`
/// (on 2026-07-28 one of them is the question the glue sends).
pub(crate) async fn carry_out(
    mut ask: Ask,
    change: Change,
    title: String,
) -> Result<CallToolResult, Stop> {
    let query = title.clone();
    let matches = ask
        .files(move |snap| {
            let found = notes::matching(snap, &query)?;
            refuse_read_only(snap, change, &found)?;
            Ok(found)
        })
        .await?;
    ask.limit(change.questions(matches.len()));
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
    ask.files(move |snap| apply(snap, change, &title, &note))
        .await
}

/// Refuses (`read_only`) a change whose every candidate lies under a
/// read-only root, before the user is asked to pick or confirm anything:
/// the change could not happen whatever they answered. A candidate under a
/// writable root keeps the questions; the change itself is judged again by
/// the library when it runs.
fn refuse_read_only(snap: &Snapshot<'_>, change: Change, found: &[Note]) -> Result<(), Error> {
    let writable = |note: &Note| {
        snap.root_by_id(note.path.root())
            .is_some_and(|root| root.writes() == Writes::Allow)
    };
    match found.first() {
        Some(first) if !found.iter().any(writable) => {
            let op = match change {
                Change::Delete => Operation::Remove,
                Change::Archive => Operation::Rename,
            };
            Err(Error::new(ErrorKind::ReadOnly, op, &first.uri())
                .with_detail("the server shares this folder read-only"))
        }
        _ => Ok(()),
    }
}

/// Deletes or archives the note the user named, found again under the
/// roots of this moment: still there, still titled `title`.
fn apply(
    snap: &Snapshot<'_>,
    change: Change,
    title: &str,
    named: &Note,
) -> Result<CallToolResult, Stop> {
    let uri = named.uri();
    let found = notes::matching(snap, title)?
        .into_iter()
        .find(|n| n.uri() == uri);
    let Some(note) = found else {
        let message = format!(
            "{uri} is no longer a note titled {title:?} under the folders shared with this call; \
             nothing was {}.",
            change.done()
        );
        return Err(Problem::new("note_changed", message).into());
    };
    Ok(match change {
        Change::Delete => {
            snap.remove_file(&note.path)?;
            done(
                format!("Deleted the note {uri}"),
                json!({ "outcome": "deleted", "uri": uri }),
            )
        }
        Change::Archive => {
            let archived = notes::archive(snap, &note)?;
            done(
                format!("Archived the note {uri} as {}", archived.to_uri()),
                json!({ "outcome": "archived", "uri": uri, "archived": archived.to_uri() }),
            )
        }
    })
}

/// The question of the "which note" form. When the pick is the only
/// question, the form says that choosing carries the change out.
pub(crate) fn choose_message(change: Change, title: &str, count: usize) -> String {
    let then = if change.confirms() {
        ""
    } else {
        " The note you choose is deleted at once; decline to keep them all."
    };
    format!(
        "{count} notes are titled {title:?}. Which one should I {}?{then}",
        change.verb()
    )
}

/// The question of the confirmation: it names the exact note.
pub(crate) fn confirm_message(change: Change, title: &str, root: &str, path: &str) -> String {
    format!(
        "{} the note {title:?} ({root}: {path})? {}",
        capitalised(change.verb()),
        change.consequence()
    )
}

pub(crate) fn no_match(title: &str) -> Problem {
    Problem::new(
        "no_match",
        format!("No note is titled {title:?}. Call notes_list to see the titles."),
    )
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
