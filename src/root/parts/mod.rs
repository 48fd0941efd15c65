//! The parts of a root that its policy hides or keeps read-only
//! ([`Patterns`], compiled): what a path beneath the root is, judged from
//! the top of the path down in one pass.
//!
//! Both kinds of pattern are compiled together, once per way of folding
//! names (plain names, tails and heads compared directly, the true globs
//! in a `GlobSet`: see [`Compiled`]), and each prefix of the path (`a`,
//! `a/b`, `a/b/c`) is tested once against them: the first prefix that a hide pattern matches (the last
//! matching pattern not a negation) makes the whole path hidden, so a
//! negation never re-includes anything beneath a hidden directory; the
//! first prefix that a read-only pattern matches makes the rest read-only.
//! Hidden wins over read-only. Names are folded as the root's volume
//! compares them (case, and Unicode normalisation on macOS), the patterns
//! with them.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use globset::{Candidate, GlobSet, GlobSetBuilder};

use crate::options::patterns::{Patterns, glob_builder};
use crate::parse::lexical::{fold, pieces};
use crate::root::beneath::Reach;
use crate::sys::Folding;

mod nested;

pub(crate) use nested::Nested;

/// What the policy says of a path beneath a root, with the pattern that
/// decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict<'p> {
    /// Neither hidden nor read-only.
    Shared,
    /// Read-only, by this pattern.
    ReadOnly(&'p str),
    /// Hidden, by this pattern.
    Hidden(&'p str),
    /// Read-only: it lies in a directory the server serves read-only,
    /// inside a writable root ([`Nested`]).
    ReadOnlyDir,
}

/// The hide and read-only patterns of one policy (the server's, or a
/// set's own), compiled on first use for each folding.
#[derive(Debug)]
pub(crate) struct Rules {
    hide: Patterns,
    read_only: Patterns,
    compiled: [OnceLock<Arc<Compiled>>; 3],
    reach: [OnceLock<Reach>; 3],
}

impl Rules {
    /// The rules of `hide` and `read_only`; `None` when both are empty.
    pub(crate) fn new(hide: &Patterns, read_only: &Patterns) -> Option<Arc<Self>> {
        if hide.is_empty() && read_only.is_empty() {
            return None;
        }
        Some(Arc::new(Self {
            hide: hide.clone(),
            read_only: read_only.clone(),
            compiled: Default::default(),
            reach: Default::default(),
        }))
    }

    /// The hide patterns, as given.
    pub(crate) fn hide(&self) -> &Patterns {
        &self.hide
    }

    /// The read-only patterns, as given.
    pub(crate) fn read_only(&self) -> &Patterns {
        &self.read_only
    }

    fn compiled(&self, folding: Folding) -> Arc<Compiled> {
        self.compiled[slot(folding)]
            .get_or_init(|| Arc::new(Compiled::compile(&self.hide, &self.read_only, folding)))
            .clone()
    }

    /// The path patterns as [`Reach`] compiles them, on first use (only a
    /// rename asks).
    fn reach(&self, folding: Folding) -> &Reach {
        self.reach[slot(folding)]
            .get_or_init(|| Reach::compile(&self.hide, &self.read_only, folding))
    }
}

fn slot(folding: Folding) -> usize {
    match folding {
        Folding::Exact => 0,
        Folding::Case => 1,
        Folding::CaseAndNormalization => 2,
    }
}

/// Both kinds of pattern compiled together: the patterns that name one
/// component at any depth (`.env`, `**/.git/`, `*.pem`) tested on each
/// name alone ([`Names`]), the others compared with the path when they are
/// a plain path (`/secrets/`), else in one `GlobSet` tested on the path,
/// only at the depths where one of its globs can match.
#[derive(Debug)]
struct Compiled {
    names: Names,
    /// The path patterns that are plain paths (`secrets`, `a/b`), compared
    /// directly: their depth, text and rule.
    path_literal: Vec<(usize, Box<str>, usize)>,
    /// The depths of those ([`ByteSet::length`]).
    path_literal_depths: ByteSet,
    paths: Matcher,
    /// The fewest and most components a path pattern (in `paths`) can
    /// match.
    depths: (usize, usize),
    /// The most components any path pattern (plain or not) can match:
    /// below that depth, only the names are tested, and the path need not
    /// be built.
    reach: usize,
    /// Every pattern, hide patterns first, each kind in its order.
    rules: Vec<Compiled1>,
}

#[derive(Debug)]
struct Compiled1 {
    hide: bool,
    negated: bool,
    text: Box<str>,
}

/// One `GlobSet` and the rule each of its globs is.
#[derive(Debug, Default)]
struct Matcher {
    set: GlobSet,
    rule: Vec<usize>,
}

impl Matcher {
    /// Calls `hit` with the rule of every glob that matches `path`.
    #[cold]
    fn each_match(&self, path: &str, hit: impl FnMut(usize)) {
        let candidate = Candidate::new(path);
        if self.set.is_match_candidate(&candidate) {
            let mut matched = Vec::new();
            self.set.matches_candidate_into(&candidate, &mut matched);
            matched.iter().map(|&local| self.rule[local]).for_each(hit);
        }
    }
}

/// The patterns that name one component, by shape: most are a plain name
/// (`.env`, `.git`), `*` then a plain tail (`*.pem`, `*.min.js`) or a
/// plain head then `*` (`.env.*`, `id_rsa*`), which `globset` would also
/// match as such; those are compared directly, without a `GlobSet` query
/// for each component. The rest (`[…]`, `?`, `{…}`, an escape, a `*` in
/// the middle) stay in a `GlobSet`.
#[derive(Debug, Default)]
struct Names {
    /// Plain names and their rules; a map when there are many.
    literal: Vec<(Box<str>, usize)>,
    literal_map: Option<HashMap<Box<str>, Vec<usize>>>,
    /// The lengths of those names ([`ByteSet::length`]).
    literal_lengths: ByteSet,
    /// `*` and a plain tail: the tail and the rule.
    suffix: Vec<(Box<str>, usize)>,
    /// The last bytes of those tails (an empty tail: every byte).
    suffix_last: ByteSet,
    /// A plain head and `*`: the head and the rule.
    prefix: Vec<(Box<str>, usize)>,
    /// The first bytes of those heads (an empty head: every byte).
    prefix_first: ByteSet,
    /// The other globs.
    globs: Matcher,
}

/// A set of bytes: which first or last bytes a name must have for a
/// pattern of a plain shape to match it, a test cheaper than the compare.
#[derive(Debug, Default, Clone, Copy)]
struct ByteSet([u64; 4]);

impl ByteSet {
    fn insert(&mut self, byte: Option<u8>) {
        match byte {
            Some(b) => self.0[usize::from(b >> 6)] |= 1 << (b & 63),
            None => self.0 = [u64::MAX; 4],
        }
    }

    fn contains(&self, byte: Option<u8>) -> bool {
        match byte {
            Some(b) => self.0[usize::from(b >> 6)] & (1 << (b & 63)) != 0,
            None => self.0 == [u64::MAX; 4],
        }
    }

    /// A length or a depth as a member: itself below 255, 255 for any
    /// larger one (a set of them over-approximates, never misses).
    fn length(n: usize) -> Option<u8> {
        Some(u8::try_from(n).unwrap_or(u8::MAX))
    }
}

/// How a one-component glob is matched.
enum Shape<'g> {
    Literal(&'g str),
    Suffix(&'g str),
    Prefix(&'g str),
    Glob,
}

/// Above this many plain names, they are looked up in a map.
const LITERALS_IN_A_ROW: usize = 12;

impl Names {
    /// Whether `glob` has no glob syntax (its `/` are separators).
    fn plain(glob: &str) -> bool {
        !glob.contains(['*', '?', '[', ']', '{', '}', '\\'])
    }

    fn shape(glob: &str) -> Shape<'_> {
        let plain = |s: &str| !s.contains('/') && Self::plain(s);
        if plain(glob) {
            Shape::Literal(glob)
        } else if let Some(tail) = glob.strip_prefix('*').filter(|t| plain(t)) {
            Shape::Suffix(tail)
        } else if let Some(head) = glob.strip_suffix('*').filter(|h| plain(h)) {
            Shape::Prefix(head)
        } else {
            Shape::Glob
        }
    }

    /// Adds the rule `index`, whose one-component glob is `glob` (folded,
    /// compiled as `compiled` when it is not of a plain shape).
    fn add(
        &mut self,
        glob: &str,
        index: usize,
        globs: &mut GlobSetBuilder,
        compiled: globset::Glob,
    ) {
        match Self::shape(glob) {
            Shape::Literal(name) => {
                self.literal_lengths.insert(ByteSet::length(name.len()));
                self.literal.push((name.into(), index));
            }
            Shape::Suffix(tail) => {
                self.suffix_last.insert(tail.bytes().last());
                self.suffix.push((tail.into(), index));
            }
            Shape::Prefix(head) => {
                self.prefix_first.insert(head.bytes().next());
                self.prefix.push((head.into(), index));
            }
            Shape::Glob => {
                globs.add(compiled);
                self.globs.rule.push(index);
            }
        }
    }

    fn finish(&mut self, globs: GlobSetBuilder) {
        self.globs.set = globs.build().expect("each glob compiled on its own");
        if self.literal.len() > LITERALS_IN_A_ROW {
            let mut map: HashMap<Box<str>, Vec<usize>> = HashMap::new();
            for (name, index) in self.literal.drain(..) {
                map.entry(name).or_default().push(index);
            }
            self.literal_map = Some(map);
        }
    }

    /// Calls `hit` with the rule of every pattern that matches `name`.
    ///
    /// Each shape is first tested by a byte set (the lengths of the plain
    /// names, the last bytes of the tails, the first bytes of the heads),
    /// so a name that none can match costs three bit tests.
    #[inline]
    fn each_match(&self, name: &str, mut hit: impl FnMut(usize)) {
        let bytes = name.as_bytes();
        if self.literal_lengths.contains(ByteSet::length(bytes.len())) {
            for (literal, index) in &self.literal {
                if **literal == *name {
                    hit(*index);
                }
            }
            if let Some(map) = &self.literal_map
                && let Some(indices) = map.get(name)
            {
                indices.iter().copied().for_each(&mut hit);
            }
        }
        if self.suffix_last.contains(bytes.last().copied()) {
            for (tail, index) in &self.suffix {
                if name.ends_with(&**tail) {
                    hit(*index);
                }
            }
        }
        if self.prefix_first.contains(bytes.first().copied()) {
            for (head, index) in &self.prefix {
                if name.starts_with(&**head) {
                    hit(*index);
                }
            }
        }
        if !self.globs.rule.is_empty() {
            self.globs.each_match(name, hit);
        }
    }
}

impl Compiled {
    fn compile(hide: &Patterns, read_only: &Patterns, folding: Folding) -> Self {
        let mut names = Names::default();
        let mut name_globs = GlobSetBuilder::new();
        let mut paths = (GlobSetBuilder::new(), Vec::new());
        let mut path_literal = Vec::new();
        let mut depths = (usize::MAX, 0);
        let mut rules = Vec::with_capacity(hide.len() + read_only.len());
        let all = hide.rules().map(|r| (true, r));
        for (is_hide, rule) in all.chain(read_only.rules().map(|r| (false, r))) {
            let folded = fold(&rule.glob, folding);
            let name = folded
                .strip_prefix("**/")
                .filter(|rest| !rest.contains('/'));
            let glob = match name {
                Some(name) => name,
                None if Names::plain(&folded) => {
                    let depth = folded.split('/').count();
                    path_literal.push((depth, folded.as_ref().into(), rules.len()));
                    rules.push(Compiled1 {
                        hide: is_hide,
                        negated: rule.negated,
                        text: rule.text.into(),
                    });
                    continue;
                }
                None => {
                    let parts: Vec<&str> = folded.split('/').collect();
                    let stars = parts.iter().filter(|c| **c == "**").count();
                    depths.0 = depths.0.min(parts.len() - stars);
                    depths.1 = match stars {
                        0 => depths.1.max(parts.len()),
                        _ => usize::MAX,
                    };
                    &*folded
                }
            };
            // A folded glob that no longer compiles (a class range folded
            // out of order) is matched as written.
            let compiled = glob_builder(glob)
                .build()
                .or_else(|_| glob_builder(&rule.glob).build())
                .expect("checked when the patterns were parsed");
            if name.is_some() {
                names.add(glob, rules.len(), &mut name_globs, compiled);
            } else {
                paths.0.add(compiled);
                paths.1.push(rules.len());
            }
            rules.push(Compiled1 {
                hide: is_hide,
                negated: rule.negated,
                text: rule.text.into(),
            });
        }
        let build = |(builder, rule): (GlobSetBuilder, Vec<usize>)| Matcher {
            set: builder.build().expect("each glob compiled on its own"),
            rule,
        };
        names.finish(name_globs);
        let mut path_literal_depths = ByteSet::default();
        let mut reach = 0;
        for (depth, _, _) in &path_literal {
            path_literal_depths.insert(ByteSet::length(*depth));
            reach = reach.max(*depth);
        }
        let paths = build(paths);
        if !paths.rule.is_empty() {
            reach = reach.max(depths.1);
        }
        Self {
            names,
            path_literal,
            path_literal_depths,
            paths,
            depths,
            reach,
            rules,
        }
    }

    /// The hide and the read-only pattern that decide for the path `path`
    /// whose last component is `name` and which has `depth` components:
    /// for each kind, the last pattern that matches, unless it is a
    /// negation. Beyond [`Compiled::reach`] no path pattern can match and
    /// `path` is not read (the caller need not build it).
    #[inline]
    fn hit(&self, name: &str, path: &str, depth: usize) -> (Option<&str>, Option<&str>) {
        if self.may_match(name, depth) {
            self.hit_tested(name, path, depth)
        } else {
            (None, None)
        }
    }

    /// Whether any pattern can match a path of `depth` components whose
    /// last is `name`, by the byte sets alone (no compare): most names of
    /// most paths are answered here.
    #[inline]
    fn may_match(&self, name: &str, depth: usize) -> bool {
        let names = &self.names;
        let bytes = name.as_bytes();
        names.literal_lengths.contains(ByteSet::length(bytes.len()))
            || names.suffix_last.contains(bytes.last().copied())
            || names.prefix_first.contains(bytes.first().copied())
            || !names.globs.rule.is_empty()
            || self.path_literal_depths.contains(ByteSet::length(depth))
            || (!self.paths.rule.is_empty() && (self.depths.0..=self.depths.1).contains(&depth))
    }

    /// [`Compiled::hit`] once [`Compiled::may_match`] said a pattern may.
    fn hit_tested(&self, name: &str, path: &str, depth: usize) -> (Option<&str>, Option<&str>) {
        let mut last = [None::<usize>; 2];
        let rules = &self.rules;
        let mut record = |index: usize| {
            let slot = usize::from(!rules[index].hide);
            last[slot] = last[slot].max(Some(index));
        };
        self.names.each_match(name, &mut record);
        if self.path_literal_depths.contains(ByteSet::length(depth)) {
            for (components, literal, index) in &self.path_literal {
                if *components == depth && **literal == *path {
                    record(*index);
                }
            }
        }
        let in_depth =
            !self.paths.rule.is_empty() && (self.depths.0..=self.depths.1).contains(&depth);
        if in_depth {
            self.paths.each_match(path, &mut record);
        }
        if last == [None; 2] {
            return (None, None);
        }
        let decide = |index: Option<usize>| {
            let rule = &self.rules[index?];
            (!rule.negated).then_some(&*rule.text)
        };
        (decide(last[0]), decide(last[1]))
    }
}

/// One policy's rules as they apply to one root: relative to a directory
/// that is the root or holds it (`prefix`, folded, below that directory).
#[derive(Debug, Clone)]
pub(crate) struct Layer {
    pub(crate) rules: Arc<Rules>,
    pub(crate) from: Source,
    compiled: Arc<Compiled>,
    prefix: Box<str>,
    /// The number of components of `prefix`.
    base: usize,
    /// The root itself lies in a part these rules keep read-only.
    base_read_only: Option<Box<str>>,
}

/// Whose rules a layer holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// The server's policy (relative to the ceiling directory holding the
    /// root, or to the root).
    Policy,
    /// The set's own (relative to the root).
    Set,
}

impl Layer {
    /// `rules` for a root on a volume that folds names as `folding`, lying
    /// at `prefix` (a `/`-separated path of plain names, `""` for the
    /// directory itself) below the directory the rules are relative to.
    ///
    /// # Errors
    ///
    /// The hide pattern that hides the root itself (a root inside a hidden
    /// directory grants nothing).
    pub(crate) fn new(
        rules: &Arc<Rules>,
        from: Source,
        folding: Folding,
        prefix: &str,
    ) -> Result<Self, Box<str>> {
        let folded: Vec<String> = prefix
            .split('/')
            .filter(|c| !c.is_empty() && *c != ".")
            .map(|c| fold(c, folding).into_owned())
            .collect();
        let mut layer = Self {
            rules: rules.clone(),
            from,
            compiled: rules.compiled(folding),
            prefix: Box::from(""),
            base: 0,
            base_read_only: None,
        };
        let (hidden, read_only) = layer.judge(folded.iter().map(String::as_str), Folding::Exact);
        if let Some(pattern) = hidden {
            return Err(pattern.into());
        }
        layer.base_read_only = read_only.map(Into::into);
        layer.prefix = folded.join("/").into();
        layer.base = folded.len();
        Ok(layer)
    }

    /// Whether the entry `name` of the shared directory `dir` (below the
    /// root) is hidden: only its own component is tested.
    fn hides_entry(&self, dir: &str, name: &str, folding: Folding) -> bool {
        let shown = |c: &&str| !matches!(*c, "" | ".");
        let depth = self.base + pieces(dir).filter(shown).count() + 1;
        let folded = fold(name, folding);
        if depth > self.compiled.reach {
            // No path pattern reaches this deep: the name alone.
            return self.compiled.hit(&folded, "", depth).0.is_some();
        }
        let mut path = String::with_capacity(self.prefix.len() + dir.len() + name.len() + 2);
        path.push_str(&self.prefix);
        for component in pieces(dir).filter(shown) {
            if !path.is_empty() {
                path.push('/');
            }
            path.push_str(&fold(component, folding));
        }
        if !path.is_empty() {
            path.push('/');
        }
        path.push_str(&folded);
        self.compiled.hit(&folded, &path, depth).0.is_some()
    }

    /// The hide and the read-only pattern that match the path of
    /// `components` (below the root), judged from the top down: `..` goes
    /// back one component (every prefix passed through counts), `.` and
    /// empty components are skipped.
    fn judge<'a>(
        &self,
        components: impl Iterator<Item = &'a str>,
        folding: Folding,
    ) -> (Option<&str>, Option<&str>) {
        let compiled = &*self.compiled;
        // The path so far is built only as deep as a path pattern can
        // match (`reach`), and its deepest level only for the test there:
        // `path` holds the first `min(depth, keep)` components, the
        // prefix's included, so a policy whose path patterns are all one
        // component deep (`/secrets/`) builds nothing.
        let reach = compiled.reach;
        let keep = reach.saturating_sub(1);
        let mut path = String::new();
        if self.base <= keep {
            path.push_str(&self.prefix);
        }
        let base = self.base;
        let mut depth = base;
        let mut read_only = self.base_read_only.as_deref();
        for component in components {
            match component {
                "" | "." => continue,
                ".." => {
                    if depth > base {
                        if depth <= keep {
                            let start = path.rfind('/').unwrap_or(0);
                            path.truncate(start);
                        }
                        depth -= 1;
                    }
                    continue;
                }
                _ => {}
            }
            let name = match folding {
                Folding::Exact => Cow::Borrowed(component),
                _ => fold(component, folding),
            };
            depth += 1;
            let (hidden, ro) = if depth <= keep {
                if !path.is_empty() {
                    path.push('/');
                }
                path.push_str(&name);
                compiled.hit(&name, &path, depth)
            } else if depth == reach && path.is_empty() {
                compiled.hit(&name, &name, depth)
            } else if depth == reach {
                let kept = path.len();
                path.push('/');
                path.push_str(&name);
                let hit = compiled.hit(&name, &path, depth);
                path.truncate(kept);
                hit
            } else {
                compiled.hit(&name, "", depth)
            };
            if hidden.is_some() {
                return (hidden, read_only);
            }
            read_only = read_only.or(ro);
        }
        (None, read_only)
    }
}

impl Layer {
    /// The hide (`true`) or read-only pattern that can match something
    /// strictly beneath the path of `components` (below the root; `..`
    /// goes back) through its own components ([`Reach`]).
    fn beneath<'a>(
        &self,
        components: impl Iterator<Item = &'a str>,
        folding: Folding,
    ) -> Option<(bool, &str)> {
        let mut path: Vec<std::borrow::Cow<'_, str>> = self
            .prefix
            .split('/')
            .filter(|c| !c.is_empty())
            .map(std::borrow::Cow::Borrowed)
            .collect();
        let base = path.len();
        for component in components {
            match component {
                "" | "." => {}
                ".." => {
                    if path.len() > base {
                        path.pop();
                    }
                }
                _ => path.push(fold(component, folding)),
            }
        }
        let names: Vec<&str> = path.iter().map(|c| &**c).collect();
        self.rules.reach(folding).beneath(&names)
    }
}

/// Every layer of rules that applies to one root.
#[derive(Debug, Clone)]
pub(crate) struct Parts {
    pub(crate) layers: Vec<Layer>,
    pub(crate) folding: Folding,
    /// The other served directories the root physically contains, each
    /// one more layer at its place (empty for a root that holds none: the
    /// same loop as before).
    pub(crate) nested: Vec<Nested>,
    /// For a file grant: the one name reachable in the root's directory
    /// (folded as the volume compares names); every other name is hidden.
    pub(crate) only: Option<Box<str>>,
}

/// The "pattern" a file grant hides the rest of its directory by.
pub(crate) const ONLY: &str = "/* (a file grant reaches its one file)";

impl Parts {
    /// Whether `rel` (below the root, `..` going back) reaches anything
    /// but a file grant's one name: another name of the root's directory,
    /// or a name beneath the granted one.
    fn outside_only(&self, rel: &str) -> bool {
        let Some(only) = &self.only else {
            return false;
        };
        let mut depth = 0usize;
        for piece in pieces(rel) {
            match piece {
                "" | "." => {}
                ".." if depth == 0 => return true,
                ".." => depth -= 1,
                // The one name, and nothing beneath it (a directory put
                // at its place on disk is not granted).
                name => {
                    if depth > 0 || fold(name, self.folding) != **only {
                        return true;
                    }
                    depth += 1;
                }
            }
        }
        false
    }

    /// What the rules say of `rel`, a `/`-separated path below the root
    /// (`.` or empty for the root itself). Every component counts, from
    /// the top: a `..` goes back, so a lexical path that passes through a
    /// hidden part (`secrets/../a`) is hidden.
    pub(crate) fn judge(&self, rel: &str) -> Verdict<'_> {
        if self.outside_only(rel) {
            return Verdict::Hidden(ONLY);
        }
        let mut read_only = None;
        for layer in &self.layers {
            let (hidden, ro) = layer.judge(pieces(rel), self.folding);
            if let Some(pattern) = hidden {
                return Verdict::Hidden(pattern);
            }
            read_only = read_only.or(ro);
        }
        let own = read_only.map_or(Verdict::Shared, Verdict::ReadOnly);
        if self.nested.is_empty() {
            return own;
        }
        strictest(own, self.nested.iter().map(|n| n.judge(rel, self.folding)))
    }

    /// What a rename of `rel` (either end) would carry along: the hide
    /// pattern, else the read-only one, that can match something strictly
    /// beneath `rel` through `rel`'s own components (`config` for
    /// `config/secret.json`), whatever is on disk. [`Verdict::Shared`]
    /// when none can.
    pub(crate) fn beneath(&self, rel: &str) -> Verdict<'_> {
        let mut read_only = None;
        for layer in &self.layers {
            match layer.beneath(rel.split('/'), self.folding) {
                Some((true, pattern)) => return Verdict::Hidden(pattern),
                Some((false, pattern)) => read_only = read_only.or(Some(pattern)),
                None => {}
            }
        }
        let own = read_only.map_or(Verdict::Shared, Verdict::ReadOnly);
        if self.nested.is_empty() {
            return own;
        }
        strictest(
            own,
            self.nested.iter().map(|n| n.beneath(rel, self.folding)),
        )
    }

    /// Whether `name`, an entry of the directory at `dir` (a `/`-separated
    /// physical path below the root), is hidden.
    ///
    /// The directory itself is taken as shared (a listing or a walk judged
    /// it when it opened it): only the entry's own component is tested.
    pub(crate) fn hides_entry(&self, dir: &str, name: &str) -> bool {
        if matches!(dir, "" | ".") && self.outside_only(name) {
            return true;
        }
        self.layers
            .iter()
            .any(|layer| layer.hides_entry(dir, name, self.folding))
            || self
                .nested
                .iter()
                .any(|n| n.hides_entry(dir, name, self.folding))
    }

    /// The same layers, as judged equal for taking a root over: the same
    /// pattern text, from the same place, at the same prefix.
    pub(crate) fn same_as(&self, other: &Parts) -> bool {
        self.folding == other.folding
            && self.only == other.only
            && same_layers(&self.layers, &other.layers)
            && self.nested.len() == other.nested.len()
            && (self.nested.iter().zip(&other.nested)).all(|(a, b)| a.same_as(b))
    }

    /// These parts without the layers of the served directories beneath
    /// the root (`None` when nothing else is left).
    pub(crate) fn own(&self) -> Option<Self> {
        (!self.layers.is_empty() || self.only.is_some()).then(|| Self {
            layers: self.layers.clone(),
            folding: self.folding,
            nested: Vec::new(),
            only: self.only.clone(),
        })
    }
}

impl Layer {
    /// This layer for a directory at `rest` (plain names) below the one it
    /// applies to now.
    ///
    /// # Errors
    ///
    /// As [`Layer::new`]: the hide pattern that hides that directory.
    pub(crate) fn moved_down(&self, rest: &str, folding: Folding) -> Result<Self, Box<str>> {
        let prefix = match (&*self.prefix, rest) {
            ("", rest) => rest.to_owned(),
            (prefix, "") => prefix.to_owned(),
            (prefix, rest) => format!("{prefix}/{rest}"),
        };
        Layer::new(&self.rules, self.from, folding, &prefix)
    }

    /// The same pattern text, from the same place, at the same prefix.
    pub(crate) fn same_as(&self, other: &Layer) -> bool {
        self.from == other.from
            && self.prefix == other.prefix
            && self.rules.hide == other.rules.hide
            && self.rules.read_only == other.rules.read_only
    }
}

/// Whether two lists of layers are the same, layer by layer.
fn same_layers(a: &[Layer], b: &[Layer]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| a.same_as(b))
}

/// The strictest of `own` and the verdicts of the served directories
/// beneath the root: hidden if any hides, else read-only if any protects.
fn strictest<'p>(own: Verdict<'p>, others: impl Iterator<Item = Verdict<'p>>) -> Verdict<'p> {
    let mut verdict = own;
    for other in others {
        verdict = match (verdict, other) {
            (Verdict::Hidden(_), _) => return verdict,
            (_, Verdict::Hidden(_)) => return other,
            (Verdict::Shared, other) => other,
            (Verdict::ReadOnlyDir, Verdict::ReadOnly(pattern)) => Verdict::ReadOnly(pattern),
            (kept, _) => kept,
        };
    }
    verdict
}

#[cfg(test)]
mod tests;
