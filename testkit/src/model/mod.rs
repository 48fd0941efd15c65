//! The reference model: what a conforming library must, may or must not do.
//!
//! [`judge`] looks at the real disk and applies the "Semantics" of
//! `mcp_roots::semantics`, written for obvious correctness, not speed:
//!
//! 1. The input is parsed ([`input::parse`]); roots are parsed by the same
//!    rules and kept when they name an existing directory ([`Root`]).
//! 2. The root is chosen lexically: the outermost root whose as-given or
//!    resolved path is a component prefix of the input's leading names (a
//!    `..` ends the names that may match).
//! 3. The rest of the input is walked twice from the root's resolved
//!    directory ([`walk::walk`]): physically, with full freedom, and beneath
//!    the root, like `openat2(RESOLVE_BENEATH)`.
//! 4. The input is allowed iff the physical walk lands on an object fit for
//!    the operation that lies inside some root; the verdict is strict (a
//!    library must allow it) iff the beneath walk lands on the same object
//!    and the input needed no leniency.
//! 5. With hide and read-only patterns ([`judge_with`], [`parts`]): the
//!    input's path as given is judged first (hidden is refused, every
//!    component counted before a `..` goes back), then the object reached,
//!    beneath the root it lies in; hidden wins over read-only, which
//!    refuses a create.

pub mod across;
pub mod grants;
pub mod input;
pub mod nesting;
pub mod parts;
pub mod walk;

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use crate::corpus::Op;
use parts::{Part, Parts};
use walk::{Kind, Landing, Mode, Step};

/// The model's answer for one input and operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every conforming library must refuse.
    Deny {
        /// `reason: detail`, the reason named as in the semantics page's table (`mcp_roots::semantics`, section 11)
        /// where one fits; informative only (a library opening beneath a
        /// root may see a different failure first).
        why: String,
    },
    /// The operation is inside the roots.
    Allow {
        /// The absolute physical path touched (for `write_new`, the file to
        /// be created).
        target: PathBuf,
        /// True iff a library that opens beneath one root must allow it.
        /// When false, such a library may refuse; an allow must still touch
        /// `target`.
        strict: bool,
    },
}

impl Verdict {
    /// Whether this is an [`Verdict::Allow`].
    pub fn is_allow(&self) -> bool {
        matches!(self, Self::Allow { .. })
    }

    /// Whether a conforming library must allow (a strict allow).
    pub fn must_allow(&self) -> bool {
        matches!(self, Self::Allow { strict: true, .. })
    }

    /// The physical target of an allow.
    pub fn target(&self) -> Option<&Path> {
        match self {
            Self::Allow { target, .. } => Some(target),
            Self::Deny { .. } => None,
        }
    }

    /// The reason name of a deny (the text before the first `:`).
    pub fn reason(&self) -> Option<&str> {
        match self {
            Self::Deny { why } => why.split(':').next(),
            Self::Allow { .. } => None,
        }
    }
}

/// An accepted root: an existing directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// The lexically cleaned names as given (`None` if the root is a raw
    /// path with `..`, which is never matched lexically).
    pub as_given: Option<Vec<OsString>>,
    /// The physical canonical directory.
    pub resolved: PathBuf,
}

impl Root {
    /// Parses and resolves a root given as a URI or an absolute path.
    ///
    /// # Errors
    ///
    /// `reason: detail` when the root is malformed or not an existing
    /// directory (after following symlinks).
    pub fn new(untrusted: &str) -> Result<Self, String> {
        let parsed = input::parse(untrusted)?;
        let as_given = if parsed.steps.contains(&Step::DotDot) {
            None
        } else {
            let names = parsed.steps.iter().filter_map(|step| match step {
                Step::Name(name) => Some(name.clone()),
                _ => None,
            });
            Some(names.collect())
        };
        match walk::walk(Path::new("/"), &parsed.steps, Mode::Physical, true) {
            Ok(Landing::Found {
                path,
                kind: Kind::Dir,
            }) => Ok(Self {
                as_given,
                resolved: path,
            }),
            Ok(Landing::Found { .. }) => Err("not_a_directory: the root is not a directory".into()),
            Ok(Landing::Missing { .. }) => Err("not_found: the root does not exist".into()),
            Err(e) => Err(format!("{}: {e}", e.reason())),
        }
    }

    /// The names of the resolved directory.
    fn resolved_names(&self) -> Vec<OsString> {
        self.resolved.iter().skip(1).map(|n| n.to_owned()).collect()
    }
}

/// Judges `op` on `untrusted` under the client's `roots`, from the disk.
///
/// Roots and input must already have `{T}` substituted; roots that are
/// malformed or not existing directories grant nothing.
pub fn judge(roots: &[String], untrusted: &str, op: Op) -> Verdict {
    judge_with(roots, &Parts::default(), untrusted, op)
}

/// [`judge`] for a set whose roots share only what `parts` leaves
/// (patterns relative to each root, see [`parts`]): the input's path is
/// judged as given (every component before a `..` is resolved: hidden is
/// refused, read-only may refuse a create), then the object reached,
/// beneath the root it lies in (after links, `..` and a landing in
/// another root). When nested roots disagree on that object, the
/// strictest answer wins when the chosen root is the outermost that holds
/// it (semantics 5); otherwise the library may refuse.
pub fn judge_with(roots: &[String], parts: &Parts, untrusted: &str, op: Op) -> Verdict {
    let deny = |why: String| Verdict::Deny { why };
    let parsed = match input::parse(untrusted) {
        Ok(parsed) => parsed,
        Err(why) => return deny(why),
    };
    let roots: Vec<Root> = roots.iter().filter_map(|r| Root::new(r).ok()).collect();
    if roots.is_empty() {
        return deny("no_roots: no root was accepted".into());
    }
    let Some((root, rest)) = choose(&roots, &parsed.steps) else {
        return deny("outside_roots: no root is a component prefix of the input".into());
    };
    let lexical = judge_lexically(parts, rest, op, &inner_places(&roots, root));
    if let Judged::Deny(why) = lexical {
        return deny(why);
    }
    let target = match land(&root.resolved, rest, op, Mode::Physical) {
        Ok(target) => target,
        Err(why) => return deny(judged_missing(parts, &roots, root, rest).unwrap_or(why)),
    };
    if !roots.iter().any(|r| target.starts_with(&r.resolved)) {
        let shown = target.display();
        return deny(format!(
            "outside_roots: lands on {shown}, outside every root"
        ));
    }
    let physical = judge_chosen(parts, &roots, root, &target, op);
    if let Judged::Deny(why) = physical {
        return deny(why);
    }
    let beneath = land(&root.resolved, rest, op, Mode::Beneath);
    let strict = beneath.as_ref() == Ok(&target)
        && parsed.lenient.is_none()
        && lexical == Judged::Clear
        && physical == Judged::Clear;
    Verdict::Allow { target, strict }
}

/// Why a read of a path that does not exist must be refused as `hidden`:
/// the disk's refusal is judged as if the path existed (semantics 14), on
/// the deepest existing directory's physical path and the missing name.
fn judged_missing(parts: &Parts, roots: &[Root], root: &Root, rest: &[Step]) -> Option<String> {
    if parts.is_empty() {
        return None;
    }
    let Ok(Landing::Missing { parent, name }) =
        walk::walk(&root.resolved, rest, Mode::Physical, true)
    else {
        return None;
    };
    match judge_chosen(parts, roots, root, &parent.join(name), Op::Read) {
        Judged::Deny(why) if why.starts_with("hidden") => Some(why),
        _ => None,
    }
}

/// What the patterns say of an input or an object.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Judged {
    /// Nothing refuses it.
    Clear,
    /// A library may refuse it.
    Maybe,
    /// Every library must refuse it: `reason: detail`.
    Deny(String),
}

fn refuses(part: Part, op: Op) -> bool {
    part == Part::Hidden || (part == Part::ReadOnly && op == Op::WriteNew)
}

fn reason(part: Part) -> &'static str {
    match part {
        Part::Hidden => "hidden",
        _ => "read_only",
    }
}

/// The input's path below its root as given, every component counted
/// before a `..` goes back: a hidden prefix is refused, a read-only one
/// may refuse a create; the same beneath the place of each served
/// directory inside the root (`inner`, names below the root), judged by
/// its own patterns. A `..` above the root ends the judgement: what
/// follows it names no part of this root as given, and a library may
/// judge those names lexically all the same (a lexical check may refuse,
/// never allow), so such an input may be refused and is never a strict
/// allow.
fn judge_lexically(parts: &Parts, rest: &[Step], op: Op, inner: &[Vec<String>]) -> Judged {
    if parts.is_empty() {
        return Judged::Clear;
    }
    let mut names: Vec<String> = Vec::new();
    let mut judged = Judged::Clear;
    for step in rest {
        match step {
            Step::Dot => {}
            Step::DotDot => {
                if names.pop().is_none() {
                    return Judged::Maybe;
                }
            }
            Step::Name(name) => {
                names.push(name.to_string_lossy().into_owned());
                // The chosen root's patterns, and those of each served
                // directory inside it whose place the path as given passes
                // beneath (semantics 5: the strictest answer wins, every
                // prefix counted).
                let below = inner
                    .iter()
                    .filter(|place| names.len() > place.len() && names.starts_with(place))
                    .map(|place| &names[place.len()..]);
                for judged_names in std::iter::once(&names[..]).chain(below) {
                    let part = parts.judge(judged_names);
                    if part == Part::Hidden {
                        let path = names.join("/");
                        return Judged::Deny(format!("hidden: {path} is hidden as given"));
                    }
                    if refuses(part, op) {
                        judged = Judged::Maybe;
                    }
                }
            }
        }
    }
    judged
}

/// The places (physical names below `root`) of the other roots inside it.
fn inner_places(roots: &[Root], root: &Root) -> Vec<Vec<String>> {
    roots
        .iter()
        .filter(|r| r.resolved != root.resolved)
        .filter_map(|r| r.resolved.strip_prefix(&root.resolved).ok())
        .map(|place| {
            place
                .iter()
                .map(|n| n.to_string_lossy().into_owned())
                .collect()
        })
        .collect()
}

/// What the patterns say of `target`, judged beneath each root it lies
/// in: refused when every such root refuses it, may be refused when some
/// do.
fn judge_object(parts: &Parts, roots: &[Root], target: &Path, op: Op) -> Judged {
    if parts.is_empty() {
        return Judged::Clear;
    }
    let verdicts: Vec<Part> = roots
        .iter()
        .filter_map(|root| {
            let rel = target.strip_prefix(&root.resolved).ok()?;
            let names: Vec<String> = rel
                .iter()
                .map(|n| n.to_string_lossy().into_owned())
                .collect();
            Some(parts.judge(&names))
        })
        .collect();
    let refused = verdicts.iter().filter(|p| refuses(**p, op)).count();
    if refused == 0 {
        Judged::Clear
    } else if refused == verdicts.len() {
        let part = verdicts.iter().max().copied().unwrap_or(Part::Hidden);
        let shown = target.display();
        Judged::Deny(format!("{}: {shown} matches a pattern", reason(part)))
    } else {
        Judged::Maybe
    }
}

/// [`judge_object`] for a read or change of `target` beneath the chosen
/// `root`: when `root` holds every other root that holds `target` (it is
/// the outermost), the strictest answer wins (semantics 5: its judgement
/// has one more layer per served directory it contains), so one refusing
/// holder refuses it. Otherwise (the target reached through an inner
/// root's own spelling) as [`judge_object`].
fn judge_chosen(parts: &Parts, roots: &[Root], root: &Root, target: &Path, op: Op) -> Judged {
    let judged = judge_object(parts, roots, target, op);
    if judged != Judged::Maybe {
        return judged;
    }
    let holders = roots.iter().filter(|r| target.starts_with(&r.resolved));
    let outermost = holders
        .clone()
        .all(|r| r.resolved.starts_with(&root.resolved));
    if !outermost || !target.starts_with(&root.resolved) {
        return judged;
    }
    let refusing = holders.filter_map(|r| {
        let rel = target.strip_prefix(&r.resolved).ok()?;
        let names: Vec<String> = rel
            .iter()
            .map(|n| n.to_string_lossy().into_owned())
            .collect();
        let part = parts.judge(&names);
        refuses(part, op).then_some(part)
    });
    match refusing.max() {
        Some(part) => Judged::Deny(format!(
            "{}: {} matches a pattern of a served directory holding it",
            reason(part),
            target.display()
        )),
        None => judged,
    }
}

/// Whether the entry `name` of the directory `dir` (an absolute physical
/// path inside the roots) is hidden: `Some(true)` beneath every root it
/// lies in, `Some(false)` beneath none, `None` when nested roots disagree.
pub fn entry_hidden(roots: &[String], parts: &Parts, dir: &Path, name: &OsStr) -> Option<bool> {
    let roots: Vec<Root> = roots.iter().filter_map(|r| Root::new(r).ok()).collect();
    match judge_object(parts, &roots, &dir.join(name), Op::Read) {
        Judged::Clear => Some(false),
        Judged::Deny(_) => Some(true),
        Judged::Maybe => None,
    }
}

/// Why a change to the object at `path` (an absolute physical path inside
/// the roots) must be refused: `Some("hidden: …")` or `Some("read_only: …")`
/// when every root holding it hides it or keeps it read-only.
pub fn change_refused(roots: &[String], parts: &Parts, path: &Path) -> Option<String> {
    let roots: Vec<Root> = roots.iter().filter_map(|r| Root::new(r).ok()).collect();
    match judge_object(parts, &roots, path, Op::WriteNew) {
        Judged::Deny(why) => Some(why),
        Judged::Clear | Judged::Maybe => None,
    }
}

/// The target a library that follows links and `..` across roots must
/// reach for `op` on `untrusted` (see [`across`]), or `None` when such a
/// library may refuse it too. Where it is `Some`, it is the target of
/// [`judge`]'s allow.
pub fn must_allow_across(roots: &[String], untrusted: &str, op: Op) -> Option<PathBuf> {
    must_allow_across_with(roots, &Parts::default(), untrusted, op)
}

/// [`must_allow_across`] for a set sharing only what `parts` leaves:
/// `None` where the patterns may refuse the input or its target.
pub fn must_allow_across_with(
    roots: &[String],
    parts: &Parts,
    untrusted: &str,
    op: Op,
) -> Option<PathBuf> {
    let parsed = input::parse(untrusted).ok()?;
    if parsed.lenient.is_some() {
        return None;
    }
    let roots: Vec<Root> = roots.iter().filter_map(|r| Root::new(r).ok()).collect();
    let (root, rest) = choose(&roots, &parsed.steps)?;
    if judge_lexically(parts, rest, op, &inner_places(&roots, root)) != Judged::Clear {
        return None;
    }
    let paths: Vec<across::RootPaths> = roots
        .iter()
        .map(|r| across::RootPaths {
            as_given: r
                .as_given
                .as_ref()
                .map(|names| names.iter().fold(PathBuf::from("/"), |p, n| p.join(n))),
            resolved: r.resolved.clone(),
        })
        .collect();
    let follow_last = op != Op::WriteNew;
    if op == Op::WriteNew && !matches!(rest.last(), Some(Step::Name(_))) {
        return None;
    }
    let landing = across::walk_across(&root.resolved, rest, &paths, follow_last).ok()?;
    let target = match (op, landing) {
        (Op::WriteNew, Landing::Missing { parent, name }) => parent.join(name),
        (
            Op::Read,
            Landing::Found {
                path,
                kind: Kind::File,
            },
        )
        | (
            Op::List,
            Landing::Found {
                path,
                kind: Kind::Dir,
            },
        ) => path,
        _ => return None,
    };
    (judge_object(parts, &roots, &target, op) == Judged::Clear).then_some(target)
}

/// The outermost root matching the input's leading names, and the steps
/// after the matched prefix.
fn choose<'r, 's>(roots: &'r [Root], steps: &'s [Step]) -> Option<(&'r Root, &'s [Step])> {
    // Each leading name with the index of the step after it.
    let mut names = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        match step {
            Step::Dot => {}
            Step::DotDot => break,
            Step::Name(name) => names.push((name, i + 1)),
        }
    }
    // (prefix length, root, index after the prefix); ties keep client order.
    let mut best: Option<(usize, &Root, usize)> = None;
    for root in roots {
        let forms = root.as_given.iter().cloned().chain([root.resolved_names()]);
        for form in forms {
            let len = form.len();
            let matches = len <= names.len() && form.iter().zip(&names).all(|(a, (b, _))| a == *b);
            if matches && best.is_none_or(|(best_len, ..)| len < best_len) {
                let after = if len == 0 { 0 } else { names[len - 1].1 };
                best = Some((len, root, after));
            }
        }
    }
    best.map(|(_, root, after)| (root, &steps[after..]))
}

/// Walks `steps` from `start` and checks that the landing suits `op`.
fn land(start: &Path, steps: &[Step], op: Op, mode: Mode) -> Result<PathBuf, String> {
    let fail = |e: walk::WalkError| format!("{}: {e}", e.reason());
    if op == Op::WriteNew {
        if !matches!(steps.last(), Some(Step::Name(_))) {
            return Err("already_exists: a new file needs a plain last name".into());
        }
        // A plain create follows a dangling link; O_EXCL|O_NOFOLLOW does not.
        let follow_last = mode == Mode::Physical;
        return match walk::walk(start, steps, mode, follow_last).map_err(fail)? {
            Landing::Missing { parent, name } => Ok(parent.join(name)),
            Landing::Found { path, .. } => {
                Err(format!("already_exists: {} exists", path.display()))
            }
        };
    }
    let (path, kind) = match walk::walk(start, steps, mode, true).map_err(fail)? {
        Landing::Found { path, kind } => (path, kind),
        Landing::Missing { parent, name } => {
            let missing = parent.join(name);
            return Err(format!("not_found: {} does not exist", missing.display()));
        }
    };
    match (op, kind) {
        (Op::Read, Kind::File) | (Op::List, Kind::Dir) => Ok(path),
        (Op::List, _) => Err(format!("not_a_directory: {}", path.display())),
        _ => Err(format!("not_a_regular_file: {}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::SetupOp;
    use crate::fixture::Fixture;

    fn fixture() -> Fixture {
        let file = |path: &str| SetupOp::File {
            path: path.into(),
            content: None,
        };
        Fixture::with_setup(&[file("a/x.txt"), file("a/sub/y.txt")]).unwrap()
    }

    #[test]
    fn the_outermost_root_is_chosen_and_dotdot_is_physical() {
        let fx = fixture();
        let input = fx.subst("{T}/a/sub/../x.txt");
        let both = [fx.subst("file://{T}/a/sub"), fx.subst("file://{T}/a")];
        let verdict = judge(&both, &input, Op::Read);
        let target = fx.resolved("a/x.txt");
        assert_eq!(
            verdict,
            Verdict::Allow {
                target,
                strict: true
            }
        );
        let inner = [fx.subst("file://{T}/a/sub")];
        assert_eq!(
            judge(&inner, &input, Op::Read).reason(),
            Some("outside_roots")
        );
    }

    #[test]
    fn links_and_dotdot_are_followed_across_roots_but_never_outside() {
        let file = |path: &str| SetupOp::File {
            path: path.into(),
            content: None,
        };
        let link = |path: &str, target: &str| SetupOp::Symlink {
            path: path.into(),
            target: target.into(),
        };
        let fx = Fixture::with_setup(&[
            file("a/x.txt"),
            file("b/z.txt"),
            file("o/s.txt"),
            link("a/tob", "{T}/b"),
            link("a/out", "../o/l2"),
            link("o/l2", "{T}/b/z.txt"),
            link("a/anc", "{T}"),
            link("rl", "b"),
        ])
        .unwrap();
        let roots = [fx.subst("file://{T}/a"), fx.subst("file://{T}/rl")];
        let across = |input: &str, op| must_allow_across(&roots, &fx.subst(input), op);
        let z = Some(fx.resolved("b/z.txt"));
        assert_eq!(across("{T}/a/tob/z.txt", Op::Read), z);
        assert_eq!(across("{T}/a/../rl/z.txt", Op::Read), z);
        assert_eq!(across("{T}/a/../../../..{T}/b/z.txt", Op::Read), z);
        assert_eq!(
            across("{T}/a/tob/new", Op::WriteNew),
            Some(fx.resolved("b/new"))
        );
        assert_eq!(across("{T}/a/tob", Op::List), Some(fx.resolved("b")));
        // A link outside every root is never read; an ancestor is no root.
        assert_eq!(across("{T}/a/out", Op::Read), None);
        assert_eq!(across("{T}/a/anc/o/s.txt", Op::Read), None);
        assert_eq!(across("{T}/a/anc", Op::List), None);
        assert_eq!(across("{T}/a/../o/s.txt", Op::Read), None);
        // The physical walk reaches b/z.txt through o/l2; a library may refuse it.
        assert!(judge(&roots, &fx.subst("{T}/a/out"), Op::Read).is_allow());
    }

    #[test]
    fn only_regular_files_are_read() {
        let fx = fixture();
        let fifo = fx.path("a/fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|status| status.success()) {
            return; // no mkfifo on this machine
        }
        let roots = [fx.subst("file://{T}/a")];
        let verdict = judge(&roots, fifo.to_str().unwrap(), Op::Read);
        assert_eq!(verdict.reason(), Some("not_a_regular_file"));
        let verdict = judge(&roots, &fx.subst("{T}/a/sub"), Op::Read);
        assert_eq!(verdict.reason(), Some("not_a_regular_file"));
        let verdict = judge(&roots, &fx.subst("{T}/a/x.txt"), Op::List);
        assert_eq!(verdict.reason(), Some("not_a_directory"));
    }
}
