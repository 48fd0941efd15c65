//! The server's preferences: what first-run setup (`notes_setup`) may
//! change. Nothing here is about scope: the folders the server may touch
//! are the client's roots (narrowed by the operator's ceiling), and no
//! preference can widen, narrow or replace them.

use crate::held::lock;
use std::sync::{Arc, Mutex};

/// The longest template the setup page accepts, in bytes.
pub const MAX_TEMPLATE: usize = 16 * 1024;

/// Preferences for new notes. Held in memory for the server's lifetime
/// (one session over stdio; over HTTP a session's, and for 2026-07-28
/// requests the process's); clones share them.
#[derive(Clone, Debug, Default)]
pub struct Preferences {
    inner: Arc<Mutex<Settings>>,
}

/// The values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// The template `notes_write` fills for new notes: `{content}` is
    /// replaced by the content the model gave (appended after the template
    /// when it has no `{content}`), `{title}` by the file name without `.md`.
    /// `None`: notes are written exactly as given.
    pub template: Option<String>,
}

impl Preferences {
    /// The current values.
    pub fn get(&self) -> Settings {
        lock(&self.inner).clone()
    }

    /// Replaces the values.
    pub fn set(&self, settings: Settings) {
        *lock(&self.inner) = settings;
    }
}

impl Settings {
    /// The text of a new note named `file_name` (`ideas.md`) with the
    /// model's `content`, after the template if one is set.
    pub fn new_note(&self, file_name: &str, content: &str) -> String {
        let Some(template) = &self.template else {
            return content.to_owned();
        };
        let title = file_name.strip_suffix(".md").unwrap_or(file_name);
        // One pass, so that a title or content containing a placeholder is
        // never filled in again.
        let mut note = String::with_capacity(template.len() + content.len());
        let mut rest = template.as_str();
        let mut placed = false;
        while let Some(at) = rest.find('{') {
            note.push_str(&rest[..at]);
            rest = &rest[at..];
            if let Some(after) = rest.strip_prefix("{title}") {
                note.push_str(title);
                rest = after;
            } else if let Some(after) = rest.strip_prefix("{content}") {
                note.push_str(content);
                placed = true;
                rest = after;
            } else {
                note.push('{');
                rest = &rest[1..];
            }
        }
        note.push_str(rest);
        if !placed {
            note.push_str(if note.ends_with('\n') { "\n" } else { "\n\n" });
            note.push_str(content);
        }
        note
    }
}

#[cfg(test)]
mod tests {
    use super::Settings;

    #[test]
    fn templates_wrap_the_content() {
        let none = Settings::default();
        assert_eq!(none.new_note("a.md", "# A\n"), "# A\n");
        let wrap = Settings {
            template: Some("---\nnote: {title} {x}\n---\n{content}".into()),
        };
        assert_eq!(
            wrap.new_note("{content}.md", "# A {title}\n"),
            "---\nnote: {content} {x}\n---\n# A {title}\n"
        );
        let head = Settings {
            template: Some("Tags: #inbox".into()),
        };
        assert_eq!(head.new_note("a.md", "# A\n"), "Tags: #inbox\n\n# A\n");
    }
}
