//! [`Patterns`]: parts of a root the server's policy hides or keeps
//! read-only, in gitignore syntax, parsed once into a value of their own so
//! that the builders that take them stay infallible (and comparable: a
//! value holds the pattern text).
//!
//! The syntax is gitignore's, through `globset` (the library writes no
//! glob engine): `*`, `?`, `[…]`, `**`; a pattern with a `/` at its start
//! or in its middle is anchored (relative to the directory the patterns
//! are relative to), one without matches a name at any depth; a trailing
//! `/` is allowed; a leading `!` makes a negation, which re-includes what
//! an earlier pattern matched, never anything beneath a matched directory.
//! Unlike git, a trailing `/` does not restrict a pattern to directories:
//! the library judges a name before it exists (a create) and must answer
//! the same whatever is there, so `build/` also covers a file named
//! `build`. A pattern covers everything beneath what it matches.

use std::fmt;

/// Gitignore-style patterns naming parts of a root (see
/// [`RootsBuilder::hide`](crate::RootsBuilder::hide) and
/// [`RootsBuilder::read_only`](crate::RootsBuilder::read_only)).
///
/// ```
/// use mcp_roots::Patterns;
/// let hidden = Patterns::parse(["**/.git/", ".env", ".env.*", "*.pem", "/secrets/", "!keep.pem"])?;
/// assert_eq!(hidden.len(), 6);
/// let err = Patterns::parse(["*.pem", "[z-a]"]).unwrap_err();
/// assert_eq!(err.pattern(), "[z-a]");
/// # Ok::<(), mcp_roots::PatternError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Patterns {
    text: Vec<Box<str>>,
}

impl Patterns {
    /// No pattern: nothing is matched.
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses each pattern, in order (later patterns win over earlier ones,
    /// as in a `.gitignore`).
    ///
    /// # Errors
    ///
    /// A [`PatternError`] naming the first pattern that does not parse: an
    /// empty one, one that starts with `#` (a comment in gitignore syntax:
    /// write `\#`), one with a `.` or `..` component (which names no object
    /// beneath a root), a negation of nothing, or an invalid glob.
    pub fn parse<I>(patterns: I) -> Result<Self, PatternError>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        let mut text = Vec::new();
        for pattern in patterns {
            let pattern = pattern.as_ref();
            Rule::parse(pattern)?;
            text.push(pattern.into());
        }
        Ok(Self { text })
    }

    /// The patterns as given, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.text.iter().map(|p| &**p)
    }

    /// How many patterns there are.
    pub fn len(&self) -> usize {
        self.text.len()
    }

    /// Whether there is no pattern.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// These patterns followed by `other`'s.
    pub(crate) fn concat(&self, other: &Patterns) -> Patterns {
        Patterns {
            text: self.text.iter().chain(&other.text).cloned().collect(),
        }
    }

    /// The parsed rules, in order.
    pub(crate) fn rules(&self) -> impl Iterator<Item = Rule<'_>> {
        self.text
            .iter()
            .map(|p| Rule::parse(p).expect("checked when the patterns were parsed"))
    }
}

/// A pattern that does not parse, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    pattern: Box<str>,
    message: String,
}

impl PatternError {
    fn new(pattern: &str, message: impl Into<String>) -> Self {
        Self {
            pattern: pattern.into(),
            message: message.into(),
        }
    }

    /// The pattern as given.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// Why it does not parse.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid pattern {:?}: {}", &*self.pattern, self.message)
    }
}

impl std::error::Error for PatternError {}

/// One parsed pattern: whether it is a negation, and the glob that matches
/// a `/`-separated path relative to the patterns' directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rule<'p> {
    /// The pattern as given.
    pub(crate) text: &'p str,
    /// A `!` pattern: re-includes what earlier patterns matched.
    pub(crate) negated: bool,
    /// The glob (`**/` before an unanchored pattern).
    pub(crate) glob: String,
}

impl<'p> Rule<'p> {
    fn parse(text: &'p str) -> Result<Self, PatternError> {
        let fail = |message: &str| PatternError::new(text, message);
        if text.is_empty() {
            return Err(fail("an empty pattern matches nothing"));
        }
        if text.starts_with('#') {
            return Err(fail(
                "a pattern starting with '#' is a comment in gitignore syntax; write '\\#'",
            ));
        }
        let (negated, body) = match text.strip_prefix('!') {
            Some(body) => (true, body),
            None => (false, text),
        };
        let body = body.trim_end_matches('/');
        let anchored = body.contains('/');
        let body = body.strip_prefix('/').unwrap_or(body);
        if body.is_empty() {
            return Err(fail("the pattern names no file or directory"));
        }
        if body.split('/').any(|c| matches!(c, "" | "." | "..")) {
            return Err(fail(
                "a pattern's components are names: no empty, '.' or '..' component",
            ));
        }
        let glob = if anchored {
            body.to_owned()
        } else {
            format!("**/{body}")
        };
        glob_builder(&glob)
            .build()
            .map_err(|e| fail(&e.kind().to_string()))?;
        Ok(Self {
            text,
            negated,
            glob,
        })
    }
}

/// How every pattern's glob is compiled: `*` and `?` never match a `/`,
/// `\` escapes on every platform.
pub(crate) fn glob_builder(glob: &str) -> globset::GlobBuilder<'_> {
    let mut builder = globset::GlobBuilder::new(glob);
    builder
        .literal_separator(true)
        .backslash_escape(true)
        .empty_alternates(true);
    builder
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_anchor_as_gitignore_does() {
        let rows = [
            ("**/.git/", false, "**/.git"),
            (".git/", false, "**/.git"),
            (".env", false, "**/.env"),
            (".env.*", false, "**/.env.*"),
            ("*.pem", false, "**/*.pem"),
            ("/secrets/", false, "secrets"),
            ("/secrets", false, "secrets"),
            ("secrets/", false, "**/secrets"),
            ("config/*.key", false, "config/*.key"),
            ("/a/**/b", false, "a/**/b"),
            ("!keep.pem", true, "**/keep.pem"),
            ("!/secrets/keep.pem", true, "secrets/keep.pem"),
            ("\\#notes", false, "**/\\#notes"),
            ("\\!bang", false, "**/\\!bang"),
            ("docs//", false, "**/docs"),
        ];
        for (text, negated, glob) in rows {
            let rule = Rule::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(
                (rule.negated, rule.glob.as_str()),
                (negated, glob),
                "{text}"
            );
        }
    }

    #[test]
    fn a_bad_pattern_is_named() {
        let rows = [
            "", "#comment", "/", "!", "!/", "a/../b", "./a", "a//b", "..", "[z-a]", "a[", "{a,b",
        ];
        for bad in rows {
            let err = Patterns::parse(["*.pem", bad, "also-never-reached["]).unwrap_err();
            assert_eq!(err.pattern(), bad);
            assert!(!err.message().is_empty(), "{bad}");
            assert!(err.to_string().starts_with("invalid pattern"), "{err}");
        }
    }

    #[test]
    fn patterns_keep_their_text_and_compare_by_it() {
        let a = Patterns::parse([".env", "*.pem"]).unwrap();
        let b = Patterns::parse(vec![String::from(".env"), String::from("*.pem")]).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.iter().collect::<Vec<_>>(), [".env", "*.pem"]);
        assert_ne!(a, Patterns::parse(["*.pem", ".env"]).unwrap());
        assert!(Patterns::new().is_empty());
        assert_eq!(a.concat(&b).len(), 4);
    }
}
