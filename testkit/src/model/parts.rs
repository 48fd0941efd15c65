//! The parts of a root a set hides or keeps read-only, as the model sees
//! them: gitignore-style patterns relative to each root, matched with
//! `globset` (not the library's matcher) on the path of the object an
//! operation reaches, every component from the top down.
//!
//! Written for obvious correctness: each prefix of the path (`a`, `a/b`,
//! `a/b/c`) is tested against every pattern in turn. A prefix is hidden
//! when the last hide pattern matching it is not a negation, and then so
//! is everything beneath it (a negation never re-includes anything below
//! a hidden directory); the same for read-only. Hidden wins over
//! read-only. A pattern with a `/` at its start or in its middle matches
//! the prefix's whole path; one without matches the prefix's last name.
//! A trailing `/` does not restrict a pattern to directories.

use globset::{GlobBuilder, GlobMatcher};

/// The hide and read-only patterns of a set (relative to each root).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parts {
    /// Hide patterns, in order.
    pub hide: Vec<String>,
    /// Read-only patterns, in order.
    pub read_only: Vec<String>,
}

/// What the patterns say of one path beneath a root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    /// Neither hidden nor read-only.
    Shared,
    /// Read-only.
    ReadOnly,
    /// Hidden.
    Hidden,
}

struct Pattern {
    negated: bool,
    /// Matches the whole prefix path (else its last name).
    anchored: bool,
    glob: GlobMatcher,
}

fn compile(patterns: &[String]) -> Vec<Pattern> {
    patterns
        .iter()
        .filter_map(|text| {
            let (negated, body) = match text.strip_prefix('!') {
                Some(body) => (true, body),
                None => (false, text.as_str()),
            };
            let body = body.trim_end_matches('/');
            let anchored = body.contains('/');
            let body = body.strip_prefix('/').unwrap_or(body);
            let glob = GlobBuilder::new(body)
                .literal_separator(true)
                .backslash_escape(true)
                .build()
                .ok()?
                .compile_matcher();
            Some(Pattern {
                negated,
                anchored,
                glob,
            })
        })
        .collect()
}

/// Whether the last pattern of `patterns` matching `path` (whose last
/// name is `name`) is not a negation.
fn matches(patterns: &[Pattern], path: &str, name: &str) -> bool {
    let mut matched = false;
    for pattern in patterns {
        let subject = if pattern.anchored { path } else { name };
        if pattern.glob.is_match(subject) {
            matched = !pattern.negated;
        }
    }
    matched
}

impl Parts {
    /// Whether there is no pattern.
    pub fn is_empty(&self) -> bool {
        self.hide.is_empty() && self.read_only.is_empty()
    }

    /// What the patterns say of the path of `names` below a root (plain
    /// names, no `.` or `..`).
    pub fn judge<S: AsRef<str>>(&self, names: &[S]) -> Part {
        let hide = compile(&self.hide);
        let read_only = compile(&self.read_only);
        let mut path = String::new();
        let mut verdict = Part::Shared;
        for name in names {
            let name = name.as_ref();
            if !path.is_empty() {
                path.push('/');
            }
            path.push_str(name);
            if matches(&hide, &path, name) {
                return Part::Hidden;
            }
            if matches(&read_only, &path, name) {
                verdict = Part::ReadOnly;
            }
        }
        verdict
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(hide: &[&str], read_only: &[&str]) -> Parts {
        let own = |p: &[&str]| p.iter().map(|s| s.to_string()).collect();
        Parts {
            hide: own(hide),
            read_only: own(read_only),
        }
    }

    fn judge(parts: &Parts, path: &str) -> Part {
        let names: Vec<&str> = path.split('/').filter(|n| !n.is_empty()).collect();
        parts.judge(&names)
    }

    #[test]
    fn every_component_counts_and_negation_stays_below_a_hidden_directory() {
        let p = parts(
            &["**/.git/", ".env", "*.pem", "/secrets/", "!keep.pem"],
            &["sub/", "/ro"],
        );
        let rows = [
            (".env", Part::Hidden),
            ("sub/.env", Part::Hidden),
            ("sub/x.txt", Part::ReadOnly),
            ("a/sub/deep/x", Part::ReadOnly),
            ("ro/x", Part::ReadOnly),
            ("a/ro/x", Part::Shared),
            ("key.pem", Part::Hidden),
            ("keep.pem", Part::Shared),
            ("sub/keep.pem", Part::ReadOnly),
            ("secrets", Part::Hidden),
            ("secrets/keep.pem", Part::Hidden),
            ("a/secrets/x", Part::Shared),
            ("a/.git/HEAD", Part::Hidden),
            (".git", Part::Hidden),
            ("sub/.git/x", Part::Hidden),
            ("x.txt", Part::Shared),
            ("", Part::Shared),
        ];
        for (path, want) in rows {
            assert_eq!(judge(&p, path), want, "{path}");
        }
    }
}
