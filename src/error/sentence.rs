//! [`Error::sentence`]: a refusal as one sentence a model can act on, the
//! same in every server and every language binding.

use super::{Error, ErrorKind};

impl Error {
    /// The refusal as a sentence for a tool result: the reason, the
    /// detail if any, the input (escaped, as [`escaped_input`](Self::escaped_input)
    /// writes it) and what to do next, e.g. `Refused (outside_roots):
    /// "/etc/passwd" is outside the folders the user shared with this
    /// server …`. Servers in every language put this text in the tool
    /// result and the [`reason`](Self::reason) beside it.
    ///
    /// ```
    /// use mcp_roots::{Error, ErrorKind, Operation};
    /// let err = Error::new(ErrorKind::ReadOnly, Operation::Create, "/notes/x");
    /// assert!(err.sentence().starts_with("Refused (read_only): \"/notes/x\" is in a folder"));
    /// ```
    pub fn sentence(&self) -> String {
        let subject = if self.input.is_empty() {
            "The request".to_owned()
        } else {
            format!("\"{}\"", self.escaped_input())
        };
        let detail = self.detail.map(|d| format!(" ({d})")).unwrap_or_default();
        let advice = advice(self.kind);
        format!("Refused ({}){detail}: {subject} {advice}", self.reason())
    }
}

/// What the model should understand and do, per reason.
fn advice(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::InvalidUri => {
            "is not a well-formed file URI (check the escapes; encoded '/', '\\' and NUL are refused). Send a plain absolute path or a file:// URI."
        }
        ErrorKind::NotAbsolute => {
            "is not an absolute path or file:// URI. Send the full path, inside one of the folders the user shared."
        }
        ErrorKind::OutsideRoots => {
            "is outside the folders the user shared with this server (or leads outside through '..' or a symbolic link). Use a path inside one of them, or ask the user to add the folder as a root."
        }
        ErrorKind::OutsideCeiling => {
            "is outside the directories this server may ever use. Ask the user to pick a folder inside them."
        }
        ErrorKind::NotADirectory => "is not a directory (or a part of the path is not).",
        ErrorKind::NotARegularFile => {
            "is not a regular file (a directory, FIFO, socket or device). Pick a file."
        }
        ErrorKind::NotFound => "does not exist (for a new file: its folder must exist).",
        ErrorKind::AlreadyExists => {
            "already exists; choose another name or ask before replacing it."
        }
        ErrorKind::SymlinkLoop => {
            "goes through a symbolic link that is refused here (a loop, or a link where a plain file is required)."
        }
        ErrorKind::RootGone => {
            "is in a shared folder that was moved or removed. Ask the user to share it again."
        }
        ErrorKind::ScopeLost => {
            "left the shared folders while it was open; it can no longer be used."
        }
        ErrorKind::NoRoots => {
            "cannot be served: no shared folder is available (the user shared none, or the client has not answered yet)."
        }
        ErrorKind::ReadOnly => {
            "is in a folder this server may only read: it cannot be created, changed, moved or removed. Read it, or ask the user for a writable folder."
        }
        ErrorKind::Hidden => {
            "is in a part of the folder the user did not share: it cannot be read, listed, created, changed, moved or copied. Leave it alone."
        }
        ErrorKind::InvalidPath => {
            "is refused for its form: the path or one of its names is too long (or, on Windows, a name the system would alias). Send a shorter, plain path."
        }
        ErrorKind::PermissionDenied => "cannot be accessed: the operating system refused.",
        ErrorKind::Io => "could not be accessed because of an I/O error.",
    }
}

#[cfg(test)]
mod tests {
    use crate::error::{Error, ErrorKind, Operation};

    #[test]
    fn every_reason_has_its_own_sentence() {
        let mut seen = std::collections::HashSet::new();
        for kind in ErrorKind::ALL {
            let sentence = Error::new(kind, Operation::Open, "/x").sentence();
            assert!(
                sentence.starts_with(&format!("Refused ({}): \"/x\" ", kind.reason())),
                "{sentence}"
            );
            assert!(seen.insert(sentence), "{kind:?} shares its sentence");
        }
    }

    #[test]
    fn the_sentence_escapes_the_input_and_names_the_detail() {
        let err = Error::new(ErrorKind::NoRoots, Operation::Open, "/x\nINFO forged")
            .with_detail("the client has not answered roots/list yet");
        let sentence = err.sentence();
        assert!(!sentence.contains('\n'), "{sentence}");
        assert!(
            sentence.starts_with(
                "Refused (no_roots) (the client has not answered roots/list yet): \"/x\\nINFO forged\""
            ),
            "{sentence}"
        );
        let empty = Error::new(ErrorKind::NoRoots, Operation::Open, "").sentence();
        assert!(
            empty.starts_with("Refused (no_roots): The request "),
            "{empty}"
        );
    }
}
