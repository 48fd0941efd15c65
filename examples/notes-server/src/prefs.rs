//! The server's preferences: what first-run setup (`notes_setup`) may
//! change. Nothing here is about scope: the folders the server may touch
//! are the client's roots (narrowed by the operator's ceiling), and no
//! preference can widen, narrow or replace them.

use crate::held::lock;
use std::sync::{Arc, Mutex};

/// The longest template the setup page accepts, in characters as a
/// browser's `maxlength` counts them ([`template_length`]).
pub const MAX_TEMPLATE: usize = 16 * 1024;

/// The length of `template` as a browser's `maxlength` counts it, so that
/// the page's limit and the server's agree: UTF-16 code units (a character
/// outside the Basic Multilingual Plane, such as most emoji, counts as two),
/// a line break (`\n` or `\r\n`) as one.
pub fn template_length(template: &str) -> usize {
    template.encode_utf16().count() - template.matches("\r\n").count()
}

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
    use super::{Settings, template_length};

    #[test]
    fn lengths_count_as_maxlength_does() {
        for (text, length) in [
            ("", 0),
            ("abc", 3),
            ("é", 1),      // two UTF-8 bytes, one unit
            ("€", 1),      // three bytes, one unit
            ("😀", 2),     // four bytes, a surrogate pair
            ("a\nb", 3),   // a line break is one
            ("a\r\nb", 3), // as submitted: still one
        ] {
            assert_eq!(template_length(text), length, "{text:?}");
        }
    }

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
