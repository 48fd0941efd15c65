//! The changes that need the user's answer (`notes_delete`,
//! `notes_archive`) and the words of their forms, shared by the revisions
//! that ask with `elicitation/create` and by 2026-07-28, which asks in
//! input-required results.

use crate::failure::Problem;

/// A change that needs the user's answer.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Change {
    Delete,
    Archive,
}

impl Change {
    pub(crate) fn tool(self) -> &'static str {
        match self {
            Self::Delete => "notes_delete",
            Self::Archive => "notes_archive",
        }
    }

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
