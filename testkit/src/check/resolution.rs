//! [`resolution`]: one input and one library operation against the
//! reference model, in a fixture tree.

use std::collections::BTreeSet;
use std::fs;
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use mcp_roots::{EmptyRoots, Error, Patterns, RootSet, Roots, ScopedPath, WalkLimits};

use super::Operation;
use crate::corpus::Op;
use crate::fixture::{Fixture, TreeSnapshot};
use crate::model::nesting::{
    change_refused_served, entry_hidden_through, judge_served, must_allow_across_served,
};
use crate::model::parts::Parts;
use crate::model::walk::Step;
use crate::model::{self, Root, Verdict};

/// What [`resolution`] found for one input and operation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The roots could not be checked safely (one resolves outside `{T}`)
    /// or the model reads a root only leniently: nothing was run.
    pub skipped: bool,
    /// The library allowed the operation.
    pub allowed: bool,
    /// The model judged this operation exactly (else only confinement and
    /// the parse-level refusals were checked).
    pub judged: bool,
    /// The tree changed and was not restored: rebuild the fixture before
    /// the next check.
    pub dirty: bool,
}

/// Runs `op` on `input` through a `RootSet` of `roots` in the tree of `fx`
/// and compares the outcome with [`judge`](crate::judge). Roots and input must have `{T}`
/// substituted already.
///
/// Checked for every operation: nothing outside the roots changes, a
/// refused operation changes nothing, and an
/// input the model refuses before looking at the disk (`invalid_uri`,
/// `not_absolute`, `invalid_path`, `no_roots`, or no root is a component
/// prefix) is
/// refused. Where the model can say more (open, create_new, read_dir,
/// metadata, resolve, walk, create_dir, copy), the three rules of
/// `testkit::model`: a model deny means the library refuses, a library
/// allow touches the model's target, a strict allow is allowed. Roots must
/// be accepted alike by the model and the library.
///
/// Destructive operations (remove, rename, write_atomic, create_dir_all,
/// copy_to) first ask the library's own `resolve` where the input lands and
/// are not run if that is outside the roots (reported as an escape).
/// `create_new`, `create_dir` and `copy_from` undo what they created.
///
/// # Errors
///
/// A description of the first disagreement.
pub fn resolution(
    fx: &Fixture,
    roots: &[String],
    input: &str,
    op: Operation,
) -> Result<Outcome, String> {
    resolution_with(fx, roots, &Parts::default(), input, op)
}

/// [`resolution`] on a set whose own hide and read-only patterns are
/// `parts`, judged by [`judge_with`](crate::judge_with): besides the rules
/// above, an input whose path as given is hidden is refused by every
/// operation, a destructive operation on an object every root it lies in
/// hides or keeps read-only is refused, and a listing leaves out exactly
/// the hidden entries.
///
/// # Errors
///
/// As [`resolution`]; a pattern of `parts` that does not parse is one.
pub fn resolution_with(
    fx: &Fixture,
    roots: &[String],
    parts: &Parts,
    input: &str,
    op: Operation,
) -> Result<Outcome, String> {
    resolution_served(fx, roots, &[], parts, input, op)
}

/// [`resolution_with`] on an operator's ceiling serving `roots` writable
/// and the `read_only` directories read-only (mostly inside them), with
/// `parts` as the policy's patterns, served whole, judged by
/// [`judge_served`]: besides the rules above, a change to an object in a
/// read-only directory is refused, and a listing through the outermost
/// root leaves out what any root holding an entry hides. With no
/// read-only directory it is [`resolution_with`].
///
/// # Errors
///
/// As [`resolution_with`].
pub fn resolution_served(
    fx: &Fixture,
    roots: &[String],
    read_only: &[String],
    parts: &Parts,
    input: &str,
    op: Operation,
) -> Result<Outcome, String> {
    let parse = |p: &[String]| Patterns::parse(p).map_err(|e| e.to_string());
    let set = if !read_only.is_empty() {
        let live = Roots::builder()
            .ceiling(roots.to_vec())
            .read_only_ceiling(read_only.to_vec())
            .hide(parse(&parts.hide)?)
            .read_only(parse(&parts.read_only)?)
            .empty_roots(EmptyRoots::Ceiling)
            .build();
        live.replace_undeclared();
        live.load().set().clone()
    } else if parts.is_empty() {
        RootSet::from_uris(roots.to_vec())
    } else {
        let mut builder = RootSet::builder();
        for root in roots {
            builder = builder.root(root);
        }
        builder
            .hide(parse(&parts.hide)?)
            .read_only(parse(&parts.read_only)?)
            .build()
    };
    let t = fx.t_resolved();
    if set
        .roots()
        .iter()
        .any(|r| !r.resolved_path().starts_with(t))
    {
        return Ok(Outcome {
            skipped: true,
            ..Outcome::default()
        });
    }
    let all: Vec<String> = roots.iter().chain(read_only).cloned().collect();
    let Some(model_roots) = agreed_roots(&all, &set)? else {
        return Ok(Outcome {
            skipped: true,
            ..Outcome::default()
        });
    };
    let run = Run {
        fx,
        set: &set,
        roots,
        read_only,
        all: &all,
        parts,
        model_roots,
        input,
        op,
    };
    let before = fx.snapshot();
    let mut outcome = run.dispatch()?;
    let after = fx.snapshot();
    let changed = changed_paths(&before, &after);
    outcome.dirty |= !changed.is_empty();
    let root_rels: Vec<&Path> = run
        .model_roots
        .iter()
        .filter_map(|r| r.strip_prefix(t).ok())
        .collect();
    for rel in &changed {
        if !root_rels.iter().any(|r| rel.starts_with(r) && rel != r) {
            return Err(format!(
                "ESCAPE: {op} {input:?} changed {rel:?} (below {{T}}), outside the roots"
            ));
        }
    }
    if !outcome.allowed && !changed.is_empty() {
        return Err(format!(
            "{op} {input:?} was refused but changed the tree: {changed:?}"
        ));
    }
    Ok(outcome)
}

/// Paths (relative to `{T}`) added, removed or changed between snapshots.
fn changed_paths(before: &TreeSnapshot, after: &TreeSnapshot) -> Vec<PathBuf> {
    let (old, new) = (before.entries(), after.entries());
    let paths: BTreeSet<&PathBuf> = old.keys().chain(new.keys()).collect();
    let differs = |p: &&PathBuf| old.get(*p) != new.get(*p);
    paths.into_iter().filter(differs).cloned().collect()
}

/// The model's resolved root directories, if the model and the library
/// accept the same roots (`None`: a root the model reads leniently).
fn agreed_roots(roots: &[String], set: &RootSet) -> Result<Option<Vec<PathBuf>>, String> {
    let mut resolved = Vec::new();
    for root in roots {
        let lenient = match model::input::parse(root) {
            Ok(parsed) => parsed.lenient.is_some(),
            // Tolerated (see `check::parse`): a malformed escape in a
            // query or fragment, which the library drops unread.
            Err(why) => {
                why.contains("'%' not followed") && super::parse::bad_escape_after_query(root)
            }
        };
        if lenient {
            return Ok(None);
        }
        let library = set.roots().iter().any(|r| r.uri() == root);
        match (Root::new(root), library) {
            (Ok(r), true) => resolved.push(r.resolved),
            (Err(_), false) => {}
            (Ok(_), false) => {
                return Err(format!(
                    "the library rejects the root {root:?}, the model accepts it"
                ));
            }
            (Err(why), true) => {
                return Err(format!(
                    "the library accepts the root {root:?}, the model rejects it: {why}"
                ));
            }
        }
    }
    Ok(Some(resolved))
}

/// One check in progress.
struct Run<'a> {
    fx: &'a Fixture,
    set: &'a RootSet,
    roots: &'a [String],
    /// The directories served read-only besides `roots`.
    read_only: &'a [String],
    /// `roots` and `read_only`.
    all: &'a [String],
    parts: &'a Parts,
    model_roots: Vec<PathBuf>,
    input: &'a str,
    op: Operation,
}

/// What an allowed operation let the caller see.
enum Seen {
    /// The identity (device, inode) of an opened or stat'ed object.
    Identity(u64, u64),
    /// Sorted entry names.
    Names(BTreeSet<Vec<u8>>),
    /// The content of a file (a copy).
    Content(Vec<u8>),
    /// A directory was created at the model's target.
    NewDir,
    /// Nothing to compare.
    Nothing,
}

impl Run<'_> {
    fn judge(&self, op: Op) -> Verdict {
        judge_served(self.roots, self.read_only, self.parts, self.input, op)
    }

    /// What a library that follows links and `..` across roots must reach
    /// for this operation, where the model can tell.
    fn across(&self) -> Option<PathBuf> {
        let op = match self.op {
            Operation::Open | Operation::CopyFrom => Op::Read,
            Operation::ReadDir | Operation::Walk => Op::List,
            Operation::CreateNew | Operation::CreateDir => Op::WriteNew,
            _ => return None,
        };
        must_allow_across_served(self.roots, self.read_only, self.parts, self.input, op)
    }

    fn dispatch(&self) -> Result<Outcome, String> {
        let input = self.input;
        let set = self.set;
        match self.op {
            Operation::Open => {
                let result = set
                    .open(input)
                    .map(|f| identity(&f.metadata().expect("fstat")));
                self.three_way(&self.judge(Op::Read), result)
            }
            Operation::ReadDir => {
                let result = set.read_dir(input).map(|entries| {
                    let names = entries.filter_map(Result::ok);
                    Seen::Names(
                        names
                            .map(|e| e.name().as_encoded_bytes().to_vec())
                            .collect(),
                    )
                });
                self.three_way(&self.judge(Op::List), result)
            }
            Operation::Walk => {
                let limits = WalkLimits::new(8, 1000);
                let result = set.walk(input, limits).map(|walk| {
                    walk.for_each(drop);
                    Seen::Nothing
                });
                self.three_way(&self.judge(Op::List), result)
            }
            Operation::Metadata => {
                let result = set.metadata(input).map(|m| identity(&m));
                match self.metadata_verdict() {
                    Some(verdict) => self.three_way(&verdict, result),
                    None => Ok(self.unjudged(result.is_ok())),
                }
            }
            Operation::Resolve => self.resolve(),
            Operation::CreateNew => self.create(Op::WriteNew, |i| {
                set.create_new(i)
                    .map(|f| identity(&f.metadata().expect("fstat")))
            }),
            Operation::CreateDir => {
                self.create(Op::WriteNew, |i| set.create_dir(i).map(|()| Seen::NewDir))
            }
            Operation::CopyFrom => self.copy_from(),
            Operation::CopyTo => {
                let source = self.inside("copy-source");
                fs::write(&source, b"copy source").map_err(|e| e.to_string())?;
                let outcome =
                    self.guarded(|| set.copy(source.to_str().expect("utf-8"), input).map(drop));
                fs::remove_file(&source).map_err(|e| e.to_string())?;
                outcome
            }
            Operation::CreateDirAll => self.guarded(|| set.create_dir_all(input)),
            Operation::RemoveFile => self.guarded(|| set.remove_file(input)),
            Operation::RemoveDir => self.guarded(|| set.remove_dir(input)),
            Operation::WriteAtomic => self.guarded(|| set.write_atomic(input, b"atomic")),
            Operation::RenameFrom => {
                let to = self.inside("renamed-here");
                self.guarded(|| set.rename(input, to.to_str().expect("utf-8")))
            }
            Operation::RenameTo => {
                let source = self.inside("rename-source");
                fs::write(&source, b"rename source").map_err(|e| e.to_string())?;
                let outcome = self.guarded(|| set.rename(source.to_str().expect("utf-8"), input));
                if source.exists() {
                    fs::remove_file(&source).map_err(|e| e.to_string())?;
                }
                outcome
            }
        }
    }

    /// A fresh name directly in the first root (for the other side of a
    /// rename or copy).
    fn inside(&self, name: &str) -> PathBuf {
        self.set.roots().first().map_or_else(
            || self.fx.t_resolved().join(name),
            |r| r.resolved_path().join(name),
        )
    }

    /// The three rules for an operation the model judges exactly.
    fn three_way(&self, verdict: &Verdict, result: Result<Seen, Error>) -> Result<Outcome, String> {
        let (op, input) = (self.op, self.input);
        match (verdict, result) {
            (Verdict::Deny { why }, Ok(_)) => Err(format!(
                "ESCAPE: {op} {input:?} allowed; the model denies: {why}"
            )),
            (Verdict::Allow { strict: false, .. }, Err(err)) => match self.across() {
                // Beyond one root, what the walk across roots reaches must
                // be allowed.
                Some(across) => Err(format!(
                    "{op} {input:?} refused ({}: {err}), but following links across roots reaches {across:?}",
                    err.reason()
                )),
                None => Ok(Outcome {
                    judged: true,
                    ..Outcome::default()
                }),
            },
            (Verdict::Deny { .. }, Err(_)) => Ok(Outcome {
                judged: true,
                ..Outcome::default()
            }),
            (
                Verdict::Allow {
                    target,
                    strict: true,
                },
                Err(err),
            ) => Err(format!(
                "{op} {input:?} refused ({}: {err}), but the model allows it beneath its root: {target:?}",
                err.reason()
            )),
            (Verdict::Allow { target, .. }, Ok(seen)) => {
                self.touched(target, &seen)
                    .map_err(|why| format!("{op} {input:?} allowed, but {why}"))?;
                Ok(Outcome {
                    judged: true,
                    allowed: true,
                    ..Outcome::default()
                })
            }
        }
    }

    /// An allowed or refused operation the model does not judge exactly:
    /// the parse-level refusals must still hold.
    fn unjudged(&self, allowed: bool) -> Outcome {
        Outcome {
            allowed,
            ..Outcome::default()
        }
    }

    /// Refusals the model decides before looking at the disk, for any
    /// operation.
    fn must_refuse(&self) -> Option<String> {
        match self.judge(Op::Read) {
            Verdict::Deny { why } if before_disk(&why) => Some(why),
            _ => None,
        }
    }

    /// Refusals of a change the patterns decide: the object the input
    /// reaches (a file, a directory, or the new name) lies, beneath every
    /// root holding it, in a part hidden or kept read-only.
    fn must_refuse_change(&self) -> Option<String> {
        if self.parts.is_empty() && self.read_only.is_empty() {
            return None;
        }
        [Op::Read, Op::List, Op::WriteNew]
            .into_iter()
            .find_map(|op| match self.judge(op) {
                Verdict::Deny { why }
                    if matches!(why.split(':').next(), Some("hidden" | "read_only")) =>
                {
                    Some(why)
                }
                Verdict::Allow { target, .. } => {
                    change_refused_served(self.roots, self.read_only, self.parts, &target)
                }
                Verdict::Deny { .. } => None,
            })
    }

    /// [`touched`], with the hidden entries of a listing left out.
    fn touched(&self, target: &Path, seen: &Seen) -> Result<(), String> {
        let Seen::Names(names) = seen else {
            return touched(target, seen);
        };
        if self.parts.is_empty() {
            return touched(target, seen);
        }
        for entry in fs::read_dir(target).map_err(|e| format!("{target:?}: {e}"))? {
            let name = entry.map_err(|e| e.to_string())?.file_name();
            let listed = names.contains(name.as_encoded_bytes());
            match entry_hidden_through(self.all, self.parts, self.input, target, &name) {
                Some(true) if listed => return Err(format!("it listed the hidden {name:?}")),
                Some(false) if !listed => return Err(format!("it left out {name:?}")),
                _ => {}
            }
        }
        Ok(())
    }

    /// Metadata follows links and takes files and directories alike: the
    /// model's read verdict for a file, its list verdict for a directory;
    /// `None` for a FIFO, socket or device.
    fn metadata_verdict(&self) -> Option<Verdict> {
        let (read, list) = (self.judge(Op::Read), self.judge(Op::List));
        if read.is_allow() {
            return Some(read);
        }
        if list.is_allow() {
            return Some(list);
        }
        match (read.reason(), list.reason()) {
            (Some("not_a_regular_file"), Some("not_a_directory")) => None,
            (_, Some("outside_roots")) => Some(list),
            _ => Some(read),
        }
    }

    fn resolve(&self) -> Result<Outcome, String> {
        let (op, input) = (self.op, self.input);
        let meta = self.metadata_verdict();
        let new = self.judge(Op::WriteNew);
        let result = self.set.resolve(input);
        let must_refuse = self.must_refuse().or_else(|| match &meta {
            Some(Verdict::Deny { why }) if why.starts_with("outside_roots") => Some(why.clone()),
            _ => None,
        });
        let expected = [meta.as_ref(), Some(&new)]
            .into_iter()
            .flatten()
            .find(|v| v.is_allow());
        match result {
            Ok(scoped) => {
                let at = self.physical(&scoped)?;
                if let Some(why) = must_refuse {
                    return Err(format!(
                        "ESCAPE: {op} {input:?} resolved to {at:?}; the model denies: {why}"
                    ));
                }
                if !self.model_roots.iter().any(|r| at.starts_with(r)) {
                    return Err(format!(
                        "ESCAPE: {op} {input:?} resolved to {at:?}, outside every root"
                    ));
                }
                if let Some(target) = expected.and_then(Verdict::target)
                    && target != at
                {
                    return Err(format!(
                        "{op} {input:?} resolved to {at:?}, the model lands on {target:?}"
                    ));
                }
                Ok(Outcome {
                    allowed: true,
                    judged: true,
                    ..Outcome::default()
                })
            }
            Err(err) => match expected {
                Some(Verdict::Allow {
                    target,
                    strict: true,
                }) => Err(format!(
                    "{op} {input:?} refused ({}: {err}), but the model resolves it beneath its root: {target:?}",
                    err.reason()
                )),
                _ => Ok(Outcome {
                    judged: true,
                    ..Outcome::default()
                }),
            },
        }
    }

    /// The physical path a `ScopedPath` names.
    fn physical(&self, scoped: &ScopedPath) -> Result<PathBuf, String> {
        let root = self.set.roots().iter().find(|r| r.id() == scoped.root());
        let root = root.ok_or_else(|| format!("{scoped:?} names a root that is not in the set"))?;
        Ok(match scoped.rel() {
            "." => root.resolved_path().to_path_buf(),
            rel => root.resolved_path().join(rel),
        })
    }

    /// `create_new` and `create_dir`, judged like the model's `write_new`
    /// when the input ends with a plain name; what they created is removed.
    fn create(
        &self,
        op: Op,
        run: impl FnOnce(&str) -> Result<Seen, Error>,
    ) -> Result<Outcome, String> {
        let plain_last = model::input::parse(self.input)
            .is_ok_and(|p| matches!(p.steps.last(), Some(Step::Name(_))));
        if !plain_last {
            return self.guarded(|| run(self.input).map(drop));
        }
        let verdict = self.judge(op);
        let result = run(self.input);
        let created = result.is_ok();
        let outcome = self.three_way(&verdict, result)?;
        if created && let Some(target) = verdict.target() {
            let removed = match self.op {
                Operation::CreateDir => fs::remove_dir(target),
                _ => fs::remove_file(target),
            };
            removed.map_err(|e| {
                format!(
                    "{} {:?}: cannot remove {target:?}: {e}",
                    self.op, self.input
                )
            })?;
        }
        Ok(outcome)
    }

    /// `copy` from the input to a fresh name in the first root, judged like
    /// `open`; the copy is removed.
    fn copy_from(&self) -> Result<Outcome, String> {
        let to = self.inside("copied-here");
        let verdict = self.judge(Op::Read);
        let result = self
            .set
            .copy(self.input, to.to_str().expect("utf-8"))
            .map(|_| {
                let content = fs::read(&to).unwrap_or_default();
                let _ = fs::remove_file(&to);
                Seen::Content(content)
            });
        self.three_way(&verdict, result)
    }

    /// A destructive operation: refused when the model refuses before the
    /// disk, and run only when the library's own `resolve` lands inside.
    fn guarded(&self, run: impl FnOnce() -> Result<(), Error>) -> Result<Outcome, String> {
        let (op, input) = (self.op, self.input);
        if let Ok(scoped) = self.set.resolve(input) {
            let at = self.physical(&scoped)?;
            if !self.model_roots.iter().any(|r| at.starts_with(r)) {
                return Err(format!(
                    "ESCAPE: resolve {input:?} lands on {at:?}, outside every root ({op} not run)"
                ));
            }
        }
        // Judged before the operation changes the disk.
        let must_refuse = self.must_refuse().or_else(|| self.must_refuse_change());
        let allowed = run().is_ok();
        if allowed && let Some(why) = must_refuse {
            return Err(format!(
                "ESCAPE: {op} {input:?} allowed; the model denies: {why}"
            ));
        }
        Ok(self.unjudged(allowed))
    }
}

/// Whether a model deny was decided before looking at the disk.
fn before_disk(why: &str) -> bool {
    ["invalid_uri", "not_absolute", "invalid_path", "no_roots"]
        .iter()
        .any(|r| why.starts_with(r))
        || why.starts_with("outside_roots: no root is a component prefix")
        || (why.starts_with("hidden:") && why.ends_with("is hidden as given"))
}

fn identity(meta: &fs::Metadata) -> Seen {
    Seen::Identity(meta.dev(), meta.ino())
}

/// Checks that what the library let the caller see is the model's target.
fn touched(target: &Path, seen: &Seen) -> Result<(), String> {
    match seen {
        Seen::Identity(dev, ino) => {
            let meta = fs::symlink_metadata(target).map_err(|e| format!("{target:?}: {e}"))?;
            if (meta.dev(), meta.ino()) != (*dev, *ino) {
                return Err(format!("it touched another object than {target:?}"));
            }
        }
        Seen::Content(content) => {
            let mut want = Vec::new();
            let read = fs::File::open(target).and_then(|mut f| f.read_to_end(&mut want));
            read.map_err(|e| format!("{target:?}: {e}"))?;
            if content != &want {
                return Err(format!("the copy differs from {target:?}"));
            }
        }
        Seen::NewDir => {
            if !fs::symlink_metadata(target).is_ok_and(|m| m.is_dir()) {
                return Err(format!("no directory was created at {target:?}"));
            }
        }
        Seen::Names(names) => {
            let want: BTreeSet<Vec<u8>> = fs::read_dir(target)
                .map_err(|e| format!("{target:?}: {e}"))?
                .map(|e| e.map(|e| e.file_name().as_encoded_bytes().to_vec()))
                .collect::<Result<_, _>>()
                .map_err(|e| e.to_string())?;
            if &want != names {
                return Err(format!("its listing differs from {target:?}"));
            }
        }
        Seen::Nothing => {}
    }
    Ok(())
}
