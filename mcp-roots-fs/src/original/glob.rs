//! Glob patterns as the original matches them (minimatch with `dot: true`),
//! through `globset` with `literal_separator` (`*` and `?` stay within a
//! path segment, `**` as a whole segment crosses them):
//!
//! - a leading `#` makes a comment that matches nothing; leading `!`s (an
//!   odd number) negate; an empty pattern matches only the empty path;
//! - `**` inside a segment (`a**`) is a plain `*`, as in minimatch;
//! - a pattern `globset` cannot compile (an unclosed `[`, nested braces) is
//!   matched literally.
//!
//! Not matched as minimatch does (listed in the README): extglobs
//! (`+(a|b)`, `@(…)`, `!(…)`, `?(…)`, `*(…)`) and nested braces.

use globset::{GlobBuilder, GlobMatcher};

/// One compiled pattern.
#[derive(Clone, Debug)]
pub(crate) struct Pattern {
    negated: bool,
    kind: Kind,
}

#[derive(Clone, Debug)]
enum Kind {
    /// A `#` comment: matches nothing (negation aside).
    Nothing,
    /// The empty pattern: only the empty path.
    Empty,
    Glob(GlobMatcher),
}

impl Pattern {
    pub(crate) fn new(pattern: &str) -> Self {
        if pattern.starts_with('#') {
            return Self {
                negated: false,
                kind: Kind::Nothing,
            };
        }
        let bangs = pattern.len() - pattern.trim_start_matches('!').len();
        let body = &pattern[bangs..];
        let kind = if body.is_empty() {
            Kind::Empty
        } else {
            let body = &optimise(body);
            Kind::Glob(compile(&segment_stars(body)).unwrap_or_else(|| {
                compile(&globset::escape(body)).expect("an escaped pattern compiles")
            }))
        };
        Self {
            negated: bangs % 2 == 1,
            kind,
        }
    }

    pub(crate) fn is_match(&self, path: &str) -> bool {
        let hit = match &self.kind {
            Kind::Nothing => return false,
            Kind::Empty => path.is_empty(),
            Kind::Glob(glob) => !path.is_empty() && glob.is_match(path),
        };
        hit != self.negated
    }
}

fn compile(pattern: &str) -> Option<GlobMatcher> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .ok()
        .map(|g| g.compile_matcher())
}

/// What minimatch does to a pattern before matching (its default
/// optimisation): empty segments inside it collapse (`deep//**` is
/// `deep/**`; a trailing `/` stays, and matches no path without one), and
/// a `..` after a segment that is not `**`, `.`, `..` or empty removes
/// both (`a/../b` is `b`).
fn optimise(pattern: &str) -> String {
    let trailing = pattern.ends_with('/') && pattern.len() > 1;
    let leading = pattern.starts_with('/');
    let mut out: Vec<&str> = Vec::new();
    for segment in pattern.split('/').filter(|s| !s.is_empty()) {
        let folds = segment == ".."
            && out
                .last()
                .is_some_and(|prev| !matches!(*prev, "**" | "." | ".."));
        if folds {
            out.pop();
        } else {
            out.push(segment);
        }
    }
    let mut joined = String::with_capacity(pattern.len());
    if leading {
        joined.push('/');
    }
    joined.push_str(&out.join("/"));
    if trailing && !out.is_empty() {
        joined.push('/');
    }
    joined
}

/// `**` that is not a whole segment becomes `*`.
fn segment_stars(pattern: &str) -> String {
    pattern
        .split('/')
        .map(|segment| {
            if segment == "**" || !segment.contains("**") {
                segment.to_owned()
            } else {
                let mut s = segment.to_owned();
                while s.contains("**") {
                    s = s.replace("**", "*");
                }
                s
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// One pattern of `excludePatterns`, as 2.3.0 reads it in both
/// `directory_tree` and `search_files`.
#[derive(Clone, Debug)]
struct Exclusion {
    /// Matched against every entry's path relative to the walk's start.
    any: Vec<Pattern>,
    /// Matched against directories only: a glob ending in `/**` without
    /// that suffix, so that the directory it names is excluded too (and
    /// never read), not only what is beneath it.
    dir: Option<Pattern>,
}

/// `excludePatterns` of `directory_tree` and `search_files`, one rule for
/// both (2.3.0's): a pattern without `*` excludes that name at any depth
/// with its subtree (`p`, `**/p`, `**/p/**`; names are matched whole); a
/// pattern with `*` is a glob matched as written against the path relative
/// to the start, and one ending in `/**` also excludes the directory it
/// names (a file of that name stays).
#[derive(Clone, Debug)]
pub(crate) struct Exclusions(Vec<Exclusion>);

impl Exclusions {
    pub(crate) fn new(patterns: &[String]) -> Self {
        Self(
            patterns
                .iter()
                .map(|p| {
                    if p.contains('*') {
                        let dir = p
                            .strip_suffix("/**")
                            .filter(|stem| !stem.is_empty())
                            .map(Pattern::new);
                        Exclusion {
                            any: vec![Pattern::new(p)],
                            dir,
                        }
                    } else {
                        Exclusion {
                            any: vec![
                                Pattern::new(p),
                                Pattern::new(&format!("**/{p}")),
                                Pattern::new(&format!("**/{p}/**")),
                            ],
                            dir: None,
                        }
                    }
                })
                .collect(),
        )
    }

    /// Whether the entry at `rel` (a directory when `is_dir`) is excluded.
    pub(crate) fn excludes(&self, rel: &str, is_dir: bool) -> bool {
        self.0.iter().any(|one| {
            one.any.iter().any(|p| p.is_match(rel))
                || (is_dir && one.dir.as_ref().is_some_and(|p| p.is_match(rel)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimatch_answers() {
        // (path, pattern, minimatch's answer with dot: true)
        for (path, pattern, want) in [
            ("a", "a/**", false),
            ("a/b", "a/**", true),
            (".git", "*", true),
            ("x/.git", "**/.git", true),
            ("a.txt", "**/*.txt", true),
            ("d/a.txt", "*.txt", false),
            ("ab", "a**", true),
            ("a/b", "a**", false),
            ("#x", "#x", false),
            ("x", "!y", true),
            ("y", "!y", false),
            ("a", "!!a", true),
            ("a", "[!b]", true),
            ("a", "[^b]", true),
            ("[", "[", true),
            ("a/b/c", "a/*/c", true),
            ("", "*", false),
            ("a", "a/", false),
            ("a/b", "**", true),
            ("x/a/y", "**/a/**", true),
            ("a", "**/a/**", false),
            (".a/b", "**/b", true),
            ("a.md", "*.{md,txt}", true),
            ("a/b.rs", "a/?.rs", true),
            ("ab/c", "a?c", false),
            // minimatch's optimisation: inner `//` collapse, `x/..` folds.
            ("deep/x.txt", "**/deep//**", true),
            ("deep", "**/deep//**", false),
            ("deep/x", "deep//x", true),
            ("a/b", "a//", false),
            ("x/deep", "**/deep/", false),
            ("b", "a/../b", true),
            ("a/b", "a/./b", false),
            ("a", "./a", false),
        ] {
            assert_eq!(
                Pattern::new(pattern).is_match(path),
                want,
                "{path:?} {pattern:?}"
            );
        }
    }

    #[test]
    fn exclusions_read_as_2_3_0_reads_them() {
        let ex = Exclusions::new(&[
            "node_modules".to_owned(),
            "*.log".to_owned(),
            "**/build/**".to_owned(),
            "deep".to_owned(),
        ]);
        // (path, is a directory, excluded)
        for (rel, is_dir, want) in [
            ("node_modules", true, true),
            ("a/node_modules", true, true),
            ("a/node_modules/x", false, true),
            ("a/node_modules_old", true, false),
            ("x.log", false, true),
            ("a/x.log", false, false),
            ("a/modules", true, false),
            ("sub/deep", true, true),
            ("sub/deep/file", false, true),
            ("sub/deeper", false, false),
            ("x/build", true, true),
            ("x/build", false, false),
            ("x/build/out.o", false, true),
            ("build", true, true),
        ] {
            assert_eq!(ex.excludes(rel, is_dir), want, "{rel:?} dir={is_dir}");
        }
        // `*/**`: every directory at the top and all beneath, never a
        // file at the top.
        let top = Exclusions::new(&["*/**".to_owned()]);
        for (rel, is_dir, want) in [
            ("top", true, true),
            ("top/x", false, true),
            ("index.js", false, false),
        ] {
            assert_eq!(top.excludes(rel, is_dir), want, "{rel:?} dir={is_dir}");
        }
        let none = Exclusions::new(&[]);
        assert!(!none.excludes("a", true));
    }
}
