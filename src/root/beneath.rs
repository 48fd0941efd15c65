//! What a rename would carry along: a rename moves everything beneath the
//! name it renames, so a path pattern (`config/secret.json`,
//! `/a/secrets/`, `src/**/gen/`) that can match something strictly beneath
//! either end *through that end's own components* would have what it
//! matches moved out of its part (rename `config` and `config/secret.json`
//! is shared again) or into one (a directory moved where its contents
//! become read-only).
//!
//! The question is answered on the patterns alone, never on what is on
//! disk, so the answer is the same whether anything is there; and it
//! over-approximates: a component glob other than a plain name or `**`
//! (`*.json`, `[ab]`) counts as matching any name, and everything from a
//! component with `{…}` or `[…]` on counts as `**` (a brace may hold a
//! `/`). Patterns that name one component at any depth (`.env`,
//! `**/.git/`) never count: what they match beneath a moved directory
//! still matches after the move. Negations never count: a move can only
//! make what they re-include hidden or read-only again, which shares less.

use crate::options::patterns::Patterns;
use crate::parse::lexical::fold;
use crate::sys::Folding;

/// The path patterns of one policy, as component lists, for one folding.
#[derive(Debug, Default)]
pub(crate) struct Reach {
    rules: Vec<Reaching>,
}

#[derive(Debug)]
struct Reaching {
    hide: bool,
    text: Box<str>,
    components: Vec<Component>,
}

#[derive(Debug, PartialEq, Eq)]
enum Component {
    /// `**`: any number of names, none included.
    Any,
    /// Any number of names, from a component not followed further (a
    /// `{…}` or `[…]`): like `**`, but never independent of the path.
    Unknown,
    /// Exactly one name, whatever it is (an over-approximated glob).
    One,
    /// This name (folded).
    Name(Box<str>),
}

impl Reach {
    /// The path patterns of `hide` and `read_only` (hide first), folded as
    /// `folding`.
    pub(crate) fn compile(hide: &Patterns, read_only: &Patterns, folding: Folding) -> Self {
        let hides = hide.rules().map(|rule| (true, rule));
        let mut rules = Vec::new();
        for (is_hide, rule) in hides.chain(read_only.rules().map(|rule| (false, rule))) {
            if rule.negated {
                continue;
            }
            let glob = fold(&rule.glob, folding);
            let one_name = glob
                .strip_prefix("**/")
                .is_some_and(|rest| !rest.contains('/'));
            if one_name {
                continue;
            }
            let mut components = Vec::new();
            for part in glob.split('/') {
                if part.contains(['{', '[']) {
                    components.push(Component::Unknown);
                    break;
                }
                components.push(match part {
                    "**" => Component::Any,
                    _ if part.contains(['*', '?', '\\']) => Component::One,
                    _ => Component::Name(part.into()),
                });
            }
            rules.push(Reaching {
                hide: is_hide,
                text: rule.text.into(),
                components,
            });
        }
        Self { rules }
    }

    /// The first hide pattern, else the first read-only pattern, that can
    /// match a path strictly beneath `path` (folded components, from the
    /// directory the patterns are relative to) through `path`'s own
    /// components; `(is_hide, pattern)`.
    pub(crate) fn beneath<'r>(&'r self, path: &[&str]) -> Option<(bool, &'r str)> {
        let mut found = None;
        for rule in &self.rules {
            if rule.reaches_beneath(path) {
                if rule.hide {
                    return Some((true, &rule.text));
                }
                found = found.or(Some((false, &*rule.text)));
            }
        }
        found
    }
}

impl Reaching {
    /// Whether the pattern, having matched all of `path`, still has a
    /// component to match (something strictly beneath), in a state that
    /// depends on `path`: a leading `**` that swallowed all of `path`
    /// matches beneath any directory alike, so it does not count.
    fn reaches_beneath(&self, path: &[&str]) -> bool {
        let n = self.components.len();
        // States: the index of the next component to match.
        let mut live = vec![false; n + 1];
        live[0] = true;
        self.close(&mut live);
        let free = self.closure_of_leading_any();
        for name in path {
            let mut next = vec![false; n + 1];
            for (i, component) in self.components.iter().enumerate() {
                if !live[i] {
                    continue;
                }
                match component {
                    Component::Any | Component::Unknown => next[i] = true,
                    Component::One => next[i + 1] = true,
                    Component::Name(want) => next[i + 1] |= **want == **name,
                }
            }
            self.close(&mut next);
            live = next;
        }
        (0..n).any(|i| live[i] && !free[i])
    }

    /// Adds what `**` reaches by matching no name.
    fn close(&self, live: &mut [bool]) {
        for (i, component) in self.components.iter().enumerate() {
            if live[i] && matches!(component, Component::Any | Component::Unknown) {
                live[i + 1] = true;
            }
        }
    }

    /// The states a leading `**` is in whatever it swallowed (none when
    /// the pattern does not start with `**`).
    fn closure_of_leading_any(&self) -> Vec<bool> {
        let mut free = vec![false; self.components.len() + 1];
        if self.components.first() == Some(&Component::Any) {
            free[0] = true;
            self.close(&mut free);
        }
        free
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reach(hide: &[&str], read_only: &[&str]) -> Reach {
        Reach::compile(
            &Patterns::parse(hide).unwrap(),
            &Patterns::parse(read_only).unwrap(),
            Folding::Exact,
        )
    }

    fn beneath<'r>(reach: &'r Reach, path: &str) -> Option<(bool, &'r str)> {
        let path: Vec<&str> = path.split('/').filter(|c| !c.is_empty()).collect();
        reach.beneath(&path)
    }

    #[test]
    fn a_path_pattern_reaches_beneath_its_own_ancestors() {
        let r = reach(
            &["config/secret.json", "/a/b/secrets/", ".env", "**/.git/"],
            &["/docs/api/", "src/**/gen/"],
        );
        let rows = [
            ("config", Some((true, "config/secret.json"))),
            ("a", Some((true, "/a/b/secrets/"))),
            ("a/b", Some((true, "/a/b/secrets/"))),
            ("docs", Some((false, "/docs/api/"))),
            ("src", Some((false, "src/**/gen/"))),
            ("src/x/y", Some((false, "src/**/gen/"))),
            // What the pattern itself matches is judged as usual.
            ("config/secret.json", None),
            ("a/b/secrets", None),
            ("other", None),
            ("a/c", None),
            ("x/config", None),
            ("docs2", None),
            // One-name patterns match the same beneath any directory.
            ("sub", None),
        ];
        for (path, want) in rows {
            assert_eq!(beneath(&r, path), want, "{path}");
        }
    }

    #[test]
    fn a_leading_double_star_counts_only_through_the_path() {
        let r = reach(&["**/config/*.json"], &[]);
        assert_eq!(beneath(&r, "x"), None);
        assert_eq!(beneath(&r, "x/y"), None);
        assert_eq!(beneath(&r, "config"), Some((true, "**/config/*.json")));
        assert_eq!(beneath(&r, "x/config"), Some((true, "**/config/*.json")));
        let tail = reach(&["**/a/**"], &[]);
        assert_eq!(beneath(&tail, "q"), None);
        assert_eq!(beneath(&tail, "q/a"), Some((true, "**/a/**")));
    }

    #[test]
    fn globs_over_approximate_and_negations_never_count() {
        let r = reach(&["*/private/", "!/keep/me"], &[]);
        // `*` as one name: any directory at the top reaches `*/private`.
        assert_eq!(beneath(&r, "anything"), Some((true, "*/private/")));
        assert_eq!(beneath(&r, "a/private"), None);
        let braces = reach(&["{x,y/z}/k"], &[]);
        assert_eq!(beneath(&braces, "whatever"), Some((true, "{x,y/z}/k")));
        let negated = reach(&["*.pem"], &["!/keep/me"]);
        assert_eq!(beneath(&negated, "keep"), None);
    }

    #[test]
    fn hide_wins_over_read_only() {
        let r = reach(&["/a/b/c"], &["/a/x/"]);
        assert_eq!(beneath(&r, "a"), Some((true, "/a/b/c")));
        let only = reach(&[], &["/a/x/"]);
        assert_eq!(beneath(&only, "a"), Some((false, "/a/x/")));
    }
}
