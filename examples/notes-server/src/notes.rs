//! Notes on disk: Markdown files anywhere under the call's roots. Every
//! function here is blocking and takes a [`Snapshot`]: the tools call them
//! in their file work ([`SessionRoots::serve`](mcp_roots_rmcp::SessionRoots::serve),
//! [`Ask::files`](mcp_roots_rmcp::Ask::files)), against the session's roots
//! or the request's on 2026-07-28, so no `std::fs` call ever sees a path
//! that came from the client. They fail with the library's refusals and
//! the note logic's [`Problem`]s, both as a [`Failure`].

use std::collections::HashSet;
use std::io::{Read, Seek};

use mcp_roots::{
    Error, ErrorKind, FileType, Operation, ScopedPath, Snapshot, Target, TrackedFile, WalkLimits,
};
use serde_json::{Value, json};

use crate::failure::{Failure, Problem};
use crate::prefs::Settings;

/// How far `notes_list` looks: deep enough for year/month folders, bounded
/// so that a root like `~` cannot stall a tool call.
pub const LIMITS: WalkLimits = WalkLimits::new(8, 5_000);
/// Notes larger than this are not read whole.
const MAX_NOTE_BYTES: u64 = 1 << 20;
/// A title is looked for in the first bytes only.
const TITLE_BYTES: u64 = 4096;
/// The folder, beneath each root, that `notes_archive` moves notes into.
pub const ARCHIVE: &str = "archive";

/// A note found under a root.
#[derive(Clone, Debug)]
pub struct Note {
    /// Where it is: a root and the path below it.
    pub path: ScopedPath,
    /// Its first `# ` heading, else its file name without `.md`.
    pub title: String,
    /// The root's name as the client gave it, else its path.
    pub root: String,
}

impl Note {
    /// Its `file://` URI, for tool results.
    pub fn uri(&self) -> String {
        self.path.to_uri()
    }

    /// How a form shows it: title, root and path below the root.
    pub fn label(&self) -> String {
        format!("{} — {}: {}", self.title, self.root, self.path)
    }

    /// Whether it already lies in its root's `archive/` folder.
    pub fn archived(&self) -> bool {
        self.path.rel().starts_with("archive/")
    }

    /// Its JSON form in structured content.
    pub fn to_json(&self) -> Value {
        json!({ "title": self.title, "uri": self.uri(), "root": self.root, "path": self.path.rel() })
    }
}

/// The notes under every root, and what could not be looked at.
#[derive(Debug, Default)]
pub struct Listing {
    /// Notes in the client's root order, each once.
    pub notes: Vec<Note>,
    /// A walk stopped at [`LIMITS`].
    pub truncated: bool,
    /// Roots or folders that could not be walked, as `(input, reason)`.
    pub skipped: Vec<(String, &'static str)>,
}

/// Walks every root (bounded, through directory handles, never following a
/// symlink) and collects the `*.md` files.
///
/// # Errors
///
/// A [`Problem`] with the library's reason `no_roots` when the session has
/// no usable root (an empty list would read as "no notes").
pub fn list(snap: &Snapshot<'_>) -> Result<Listing, Problem> {
    let mut listing = Listing::default();
    for rejected in snap.rejected() {
        listing
            .skipped
            .push((rejected.uri().to_owned(), rejected.reason()));
    }
    if snap.is_empty() {
        let mut message = "No folder is shared with this server: the client declared no roots, \
            or none of them can be used. Ask the user to share the folder that holds the notes."
            .to_owned();
        for (uri, reason) in &listing.skipped {
            message.push_str(&format!("\n- {uri:?} grants nothing: {reason}"));
        }
        return Err(Problem::new(ErrorKind::NoRoots.reason(), message));
    }
    let mut seen = HashSet::new();
    for root in snap.roots() {
        let label = root.name().unwrap_or(root.path()).to_owned();
        let first = listing.notes.len();
        let mut walk = match snap.walk(root.uri(), LIMITS) {
            Ok(walk) => walk,
            Err(err) => {
                listing.skipped.push((err.input().to_owned(), err.reason()));
                continue;
            }
        };
        for entry in &mut walk {
            let entry = match entry {
                Ok(entry) => entry,
                Err(err) => {
                    listing.skipped.push((err.input().to_owned(), err.reason()));
                    continue;
                }
            };
            let path = entry.path();
            if entry.file_type() != FileType::File || !path.rel().ends_with(".md") {
                continue;
            }
            // Nested roots walk the same files under the outermost root.
            if seen.insert(path.clone()) {
                let title = title_of(snap, path);
                let root = label.clone();
                listing.notes.push(Note {
                    path: path.clone(),
                    title,
                    root,
                });
            }
        }
        listing.truncated |= walk.is_truncated();
        listing.notes[first..].sort_by(|a, b| a.path.rel().cmp(b.path.rel()));
    }
    Ok(listing)
}

/// The notes outside `archive/` whose title is `title`, case-insensitively.
///
/// # Errors
///
/// As [`list`].
pub fn matching(snap: &Snapshot<'_>, title: &str) -> Result<Vec<Note>, Problem> {
    let wanted = title.trim().to_lowercase();
    let notes = list(snap)?.notes.into_iter();
    Ok(notes
        .filter(|note| !note.archived() && note.title.to_lowercase() == wanted)
        .collect())
}

/// Reads the note at `target` (a URI or absolute path from the client, or
/// a note found by a walk); `input` names it in messages.
///
/// # Errors
///
/// The library's refusal, or a [`Problem`] (not a note, too large, not
/// UTF-8).
pub fn read<T: Target + ?Sized>(
    snap: &Snapshot<'_>,
    target: &T,
    input: &str,
) -> Result<ReadNote, Failure> {
    Ok(open(snap, target, input)?.1)
}

/// Opens the note at `target` as a tracked file and reads it; the file
/// stays open for the caller (see [`held`](crate::held)).
///
/// # Errors
///
/// As [`read`].
pub fn open<T: Target + ?Sized>(
    snap: &Snapshot<'_>,
    target: &T,
    input: &str,
) -> Result<(TrackedFile, ReadNote), Failure> {
    // Opened as the client named it (so refusals quote its input), then
    // located from the descriptor.
    let mut file = snap.open(target)?;
    let read = read_file(snap, &mut file, input)?;
    Ok((file, read))
}

/// Reads an open note from its start: where it is now (located from the
/// descriptor), its title and its text.
///
/// # Errors
///
/// As [`read`]; `scope_lost` once the file was revoked.
pub fn read_file(
    snap: &Snapshot<'_>,
    file: &mut TrackedFile,
    input: &str,
) -> Result<ReadNote, Failure> {
    let path = file.path()?;
    if !path.rel().ends_with(".md") {
        return Err(not_a_note(input).into());
    }
    if file.metadata()?.len() > MAX_NOTE_BYTES {
        let message =
            format!("{input:?} is larger than {MAX_NOTE_BYTES} bytes; it is not read whole");
        return Err(Problem::new("too_large", message).into());
    }
    let mut text = String::new();
    let read = file.rewind().and_then(|()| file.read_to_string(&mut text));
    if let Err(err) = read {
        // A revoked handle fails with our own error inside the io::Error.
        return Err(match Error::try_from_io(err) {
            Ok(refused) => refused.into(),
            Err(err) => unreadable(input, &err.to_string()).into(),
        });
    }
    let title = title_from(&text).unwrap_or_else(|| stem(&path));
    let root = root_label(snap, &path);
    let note = Note { path, title, root };
    Ok(ReadNote { note, text })
}

/// Writes the note `input` through [`write_atomic`](mcp_roots::RootSet::write_atomic):
/// a reader sees the old text or the new one, never a mix. A new note gets
/// the template of `settings` (if one is set) around `content`; an existing
/// one is replaced by `content` as given (the template was filled when it
/// was created).
///
/// Whether the note exists only chooses the template: if it appears or
/// goes between the look and the write, the text is still written whole.
///
/// # Errors
///
/// The library's refusal (outside the roots, a symlink or a directory at
/// the name, a missing folder, …), or a [`Problem`] (not a `.md` name).
pub fn write(
    snap: &Snapshot<'_>,
    input: &str,
    content: &str,
    settings: &Settings,
) -> Result<Written, Failure> {
    let path = snap.resolve(input)?;
    if !path.rel().ends_with(".md") {
        return Err(not_a_note(input).into());
    }
    let created = match snap.metadata(&path) {
        Ok(_) => false,
        Err(err) if err.kind() == ErrorKind::NotFound => true,
        Err(err) => return Err(err.into()),
    };
    let text = if created {
        let name = path.rel().rsplit('/').next().unwrap_or_default();
        settings.new_note(name, content)
    } else {
        content.to_owned()
    };
    // The client's input, not `path`: refusals then quote what it sent.
    snap.write_atomic(input, text.as_bytes())?;
    Ok(Written { path, created })
}

/// What [`write()`] did.
#[derive(Clone, Debug)]
pub struct Written {
    /// The note.
    pub path: ScopedPath,
    /// `true`: a new note; `false`: an existing one replaced.
    pub created: bool,
}

/// Moves `note` into `archive/` beneath its own root, under a name that is
/// free there (`name.md`, else `name (2).md`, …): nothing is overwritten.
///
/// Judged first, then done: a refusal changes nothing. The note is looked
/// up (missing or hidden: refused), then the rename itself is tried, and
/// the library judges both of its ends (a read-only root or pattern, a
/// hidden part) before it touches anything. Only a rename refused because
/// `archive/` does not exist yet creates the folder and tries again; if
/// that second try is refused (the note went away in between), the folder
/// this call created is removed again while it is still empty.
///
/// # Errors
///
/// The library's refusal (the root is gone, the note moved away, the note
/// or `archive/` read-only or hidden, …).
pub fn archive(snap: &Snapshot<'_>, note: &Note) -> Result<ScopedPath, Error> {
    snap.metadata(&note.path)?; // still there, visible, beneath a root of this set
    let Some(root) = snap.root_by_id(note.path.root()) else {
        return Err(Error::new(
            ErrorKind::NotFound,
            Operation::Rename,
            &note.uri(),
        ));
    };
    // The root's physical path: the lookup always knows it (the path as
    // given may run through a symlink or `..`).
    let base = root.resolved_path().to_str().unwrap_or(root.path());
    let folder = format!("{}/{ARCHIVE}", base.trim_end_matches('/'));
    match move_into(snap, note, &folder) {
        Err(err) if err.kind() == ErrorKind::NotFound && err.input().starts_with(&folder) => {}
        done => return done,
    }
    // Only the folder was missing: every other judgment has passed.
    let created = match snap.create_dir(&folder) {
        Ok(()) => true,
        Err(err) if err.kind() == ErrorKind::AlreadyExists => false,
        Err(err) => return Err(err),
    };
    let moved = move_into(snap, note, &folder);
    if moved.is_err() && created {
        // Not empty (someone else archived meanwhile): it stays, in use.
        let _ = snap.remove_dir(&folder);
    }
    moved
}

/// Renames `note` into `folder` under the first free name.
fn move_into(snap: &Snapshot<'_>, note: &Note, folder: &str) -> Result<ScopedPath, Error> {
    let name = note.path.rel().rsplit('/').next().unwrap_or_default();
    let stem = name.strip_suffix(".md").unwrap_or(name);
    let mut n = 1;
    loop {
        let target = match n {
            1 => format!("{folder}/{name}"),
            n => format!("{folder}/{stem} ({n}).md"),
        };
        match snap.rename(&note.path, &target) {
            Err(err) if err.kind() == ErrorKind::AlreadyExists && n < 100 => n += 1,
            Err(err) => return Err(err),
            Ok(()) => return snap.resolve(&target),
        }
    }
}

/// A note read whole: the note and its text.
#[derive(Clone, Debug)]
pub struct ReadNote {
    /// The note.
    pub note: Note,
    /// Its content.
    pub text: String,
}

fn unreadable(input: &str, why: &str) -> Problem {
    let message = format!("{input:?} could not be read as UTF-8 text: {why}");
    Problem::new("unreadable", message)
}

fn not_a_note(input: &str) -> Problem {
    Problem::new(
        "not_a_note",
        format!("{input:?} is not a note: notes are Markdown files whose names end in .md"),
    )
}

/// The first `# ` heading of a note's first bytes, else its file name.
fn title_of(snap: &Snapshot<'_>, path: &ScopedPath) -> String {
    let mut head = Vec::new();
    let read = snap
        .set()
        .open(path)
        .map(|file| file.take(TITLE_BYTES).read_to_end(&mut head));
    match read {
        Ok(Ok(_)) => title_from(&String::from_utf8_lossy(&head)),
        _ => None,
    }
    .unwrap_or_else(|| stem(path))
}

fn title_from(text: &str) -> Option<String> {
    text.lines()
        .find_map(|line| line.strip_prefix("# "))
        .map(|title| title.trim().to_owned())
        .filter(|title| !title.is_empty())
}

fn stem(path: &ScopedPath) -> String {
    let name = path.rel().rsplit('/').next().unwrap_or_default();
    name.strip_suffix(".md").unwrap_or(name).to_owned()
}

fn root_label(snap: &Snapshot<'_>, path: &ScopedPath) -> String {
    snap.roots()
        .iter()
        .find(|root| root.id() == path.root())
        .map(|root| root.name().unwrap_or(root.path()).to_owned())
        .unwrap_or_default()
}
