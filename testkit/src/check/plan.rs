//! [`plan`]: a [`Plan`] run on a real `Roots` session and compared with the
//! session model after every step.

use std::fs;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use mcp_roots::{Error, ErrorKind, Patterns, RescanReport, RootSet, Roots, TrackedFile};

use crate::fixture::Fixture;
use crate::model::parts::Parts;
use crate::plan::model::{Expected, HandleState, Model};
use crate::plan::{Plan, Step, tree};

/// What a plan exercised.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlanOutcome {
    /// Steps run.
    pub steps: usize,
    /// File-system steps that changed the disk.
    pub disk_changes: usize,
    /// File-system steps skipped because they would have reached outside
    /// `{T}` (through a symlinked parent, or leaving a link that does).
    pub skipped: usize,
    /// Opens served.
    pub opened: usize,
    /// Opens refused as `hidden`.
    pub refused_hidden: usize,
    /// Handles revoked.
    pub revoked: usize,
    /// Handles the model could not judge (their file was unlinked).
    pub unknown: usize,
}

/// Runs `plan` from a fresh [`tree`] on a `Roots` with the default policy
/// and compares, after every step: each handle's state (live handles work,
/// read their file and, when settled, report a `path()` naming it; revoked
/// ones fail with `scope_lost`), each `replace`/`rescan` report (generation,
/// revoked count, roots gone and back), the generation, and every open
/// (see [`Model::open`]).
///
/// # Errors
///
/// The step and a description of the first disagreement.
pub fn plan(plan: &Plan) -> Result<PlanOutcome, String> {
    plan_with(plan, &Parts::default())
}

/// [`plan`] on a `Roots` whose policy hides and keeps read-only what
/// `parts` names (relative to each root), against a model that knows the
/// patterns: besides every comparison of [`plan`], no open is served a
/// hidden file, and a check revokes each handle whose file is hidden
/// beneath the root it lies in (see [`Model`]).
///
/// # Errors
///
/// As [`plan`]; also when a pattern of `parts` does not parse.
pub fn plan_with(plan: &Plan, parts: &Parts) -> Result<PlanOutcome, String> {
    let fx = Fixture::with_setup(&tree()).map_err(|e| format!("tree: {e}"))?;
    let parse = |p: &[String]| Patterns::parse(p).map_err(|e| e.to_string());
    let roots = Roots::builder()
        .hide(parse(&parts.hide)?)
        .read_only(parse(&parts.read_only)?)
        .build();
    let mut run = Run {
        t: fx.t_resolved().to_path_buf(),
        fx: &fx,
        roots,
        model: Model::with_parts(fx.t_resolved(), parts.clone()),
        hides: !parts.hide.is_empty(),
        files: Vec::new(),
        outcome: PlanOutcome::default(),
    };
    for (i, step) in plan.steps.iter().enumerate() {
        run.step(step)
            .and_then(|()| run.compare())
            .map_err(|e| format!("step {i} ({step:?}) of {plan:?} with {parts:?}: {e}"))?;
        run.outcome.steps += 1;
    }
    let unknown = run
        .model
        .handles()
        .iter()
        .filter(|h| **h == HandleState::Unknown);
    run.outcome.unknown = unknown.count();
    Ok(run.outcome)
}

/// Decodes the input of the `plan` fuzz target: an optional first line
/// `parts:` followed by pattern letters (see [`parts_of`](super::parts_of)),
/// then the plan's bytes ([`Plan::from_bytes`]). Without that line, the
/// whole input is the plan and there are no patterns.
pub fn plan_case(bytes: &[u8]) -> (Plan, Parts) {
    let Some(rest) = bytes.strip_prefix(b"parts:") else {
        return (Plan::from_bytes(bytes), Parts::default());
    };
    let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    let letters = String::from_utf8_lossy(&rest[..end]);
    let plan = rest.get(end + 1..).unwrap_or_default();
    (Plan::from_bytes(plan), super::parts_of(&letters))
}

struct Run<'a> {
    fx: &'a Fixture,
    t: PathBuf,
    roots: Roots,
    model: Model,
    /// Parallel to the model's handles; `None` once closed.
    files: Vec<Option<TrackedFile>>,
    outcome: PlanOutcome,
    /// The policy hides something: `hidden` is a revocation reason too.
    hides: bool,
}

impl Run<'_> {
    fn path(&self, rel: &str) -> PathBuf {
        self.t.join(rel)
    }

    fn step(&mut self, step: &Step) -> Result<(), String> {
        match step {
            Step::Mkdir(dir) => self.disk(&[dir], |p| fs::create_dir(&p[0])),
            Step::Symlink { at, body } => {
                let body = self.fx.subst(body);
                self.disk(&[at], |p| std::os::unix::fs::symlink(&body, &p[0]))
            }
            Step::Rename { from, to } => self.disk(&[from, to], |p| fs::rename(&p[0], &p[1])),
            Step::Remove(entry) => self.disk(&[entry], |p| match fs::symlink_metadata(&p[0]) {
                Ok(meta) if meta.is_dir() => fs::remove_dir(&p[0]),
                _ => fs::remove_file(&p[0]),
            }),
            Step::Replace(dirs) => {
                let dirs: Vec<String> = dirs
                    .iter()
                    .map(|d| self.path(d).to_string_lossy().into_owned())
                    .collect();
                let report = self.roots.replace(RootSet::from_uris(dirs.clone()));
                let expected = self.model.replace(&dirs);
                self.report(&report, expected)
            }
            Step::Rescan => {
                let report = self.roots.rescan();
                let expected = self.model.rescan();
                self.report(&report, expected)
            }
            Step::Open(file) => {
                let input = self.path(file).to_string_lossy().into_owned();
                let result = self.roots.load().open(&input);
                let opened = match &result {
                    Ok(file) => {
                        let meta = file
                            .metadata()
                            .map_err(|e| format!("fstat of a fresh handle: {e}"))?;
                        Some((meta.dev(), meta.ino()))
                    }
                    Err(e) => {
                        if e.kind() == ErrorKind::Hidden {
                            self.outcome.refused_hidden += 1;
                        }
                        None
                    }
                };
                self.model.open(&input, opened)?;
                if let Ok(file) = result {
                    self.files.push(Some(file));
                    self.outcome.opened += 1;
                }
                Ok(())
            }
            Step::Close(n) => {
                if !self.files.is_empty() {
                    let n = n % self.files.len();
                    self.files[n] = None;
                    self.model.close(n);
                }
                Ok(())
            }
        }
    }

    /// A file-system step on `rels` (below `{T}`), skipped if a parent is a
    /// symlink; undone if it leaves a link pointing outside `{T}`.
    fn disk(
        &mut self,
        rels: &[&str],
        change: impl FnOnce(&[PathBuf]) -> std::io::Result<()>,
    ) -> Result<(), String> {
        let paths: Vec<PathBuf> = rels.iter().map(|r| self.path(r)).collect();
        if paths.iter().any(|p| linked_parent(&self.t, p)) {
            self.outcome.skipped += 1;
            return Ok(());
        }
        if change(&paths).is_err() {
            return Ok(());
        }
        if let Some(link) = escaping_link(&self.t) {
            let undone = match &paths[..] {
                [from, to] => fs::rename(to, from),
                _ => fs::remove_file(&link),
            };
            undone.map_err(|e| {
                format!("cannot undo a step that left {link:?} pointing outside: {e}")
            })?;
            self.outcome.skipped += 1;
        }
        self.model.disk_changed();
        self.outcome.disk_changes += 1;
        Ok(())
    }

    fn report(&mut self, report: &RescanReport, expected: Expected) -> Result<(), String> {
        let revoked = report.revoked().len();
        self.outcome.revoked += revoked;
        let counts_ok = if expected.exact {
            revoked == expected.revoked
        } else {
            revoked >= expected.revoked
        };
        let got = (
            report.generation(),
            report.roots_gone().len(),
            report.roots_back().len(),
        );
        let want = (
            expected.generation,
            expected.roots_gone,
            expected.roots_back,
        );
        if !counts_ok || got != want {
            return Err(format!(
                "the report says generation {}, {revoked} revoked, {} roots gone, {} back; the model expects {expected:?}",
                got.0, got.1, got.2
            ));
        }
        Ok(())
    }

    /// Compares every handle and the generation with the model.
    fn compare(&mut self) -> Result<(), String> {
        if self.roots.generation() != self.model.generation() {
            return Err(format!(
                "generation {}, the model expects {}",
                self.roots.generation(),
                self.model.generation()
            ));
        }
        let inodes = crate::plan::model::inodes(&self.t);
        let states = self.model.handles().to_vec();
        for (i, (state, file)) in states.iter().zip(&mut self.files).enumerate() {
            let Some(file) = file else { continue };
            match *state {
                HandleState::Live { file: id, .. } => {
                    live(&self.roots, file, id, self.model.locatable(i, &inodes))
                        .map_err(|e| format!("handle #{i}: {e}"))?
                }
                HandleState::Revoked => {
                    revoked(file, self.hides).map_err(|e| format!("handle #{i}: {e}"))?
                }
                HandleState::Unknown | HandleState::Closed => {}
            }
        }
        Ok(())
    }
}

/// A live handle works, holds its file, and (when `located`: the disk is
/// settled and the file lies beneath its bound root; see
/// [`Model::locatable`]) its `path()` names that file.
///
/// An unlinked file's `path()` is not judged: the library reports the
/// kernel's name for it, `<name> (deleted)`.
fn live(
    roots: &Roots,
    file: &mut TrackedFile,
    id: (u64, u64),
    located: bool,
) -> Result<(), String> {
    if let Some(kind) = file.revoked() {
        return Err(format!("revoked ({kind:?}), the model keeps it"));
    }
    let meta = file
        .metadata()
        .map_err(|e| format!("metadata fails: {e}"))?;
    if (meta.dev(), meta.ino()) != id {
        return Err("holds another file than the model".into());
    }
    file.seek(SeekFrom::Start(0))
        .map_err(|e| format!("seek fails: {e}"))?;
    file.read_to_end(&mut Vec::new())
        .map_err(|e| format!("read fails: {e}"))?;
    if located {
        let scoped = file
            .path()
            .map_err(|e| format!("path() fails: {} ({e})", e.reason()))?;
        let snapshot = roots.load();
        let root = snapshot.roots().iter().find(|r| r.id() == scoped.root());
        let root = root.ok_or_else(|| format!("path() names a root not in the set: {scoped:?}"))?;
        let at = root.resolved_path().join(scoped.rel());
        let named = fs::symlink_metadata(&at).map(|m| (m.dev(), m.ino()));
        if named.ok() != Some(id) {
            return Err(format!(
                "path() is {scoped:?}, which names {at:?}, not its file"
            ));
        }
    }
    Ok(())
}

/// A revoked handle fails with `scope_lost` (or `hidden`, when the
/// patterns revoked it), for reads too, with the reason it was revoked for.
fn revoked(file: &mut TrackedFile, hides: bool) -> Result<(), String> {
    let reason = file.revoked();
    let hidden = hides && reason == Some(ErrorKind::Hidden);
    if reason != Some(ErrorKind::ScopeLost) && !hidden {
        return Err(format!("not revoked ({reason:?}); the model revokes it"));
    }
    let err = file
        .read(&mut [0; 4])
        .expect_err("a revoked handle reads nothing");
    match Error::from_io(&err).map(Error::kind) {
        kind if kind == reason => Ok(()),
        other => Err(format!("a read fails with {other:?}, not {reason:?}")),
    }
}

/// Whether an existing ancestor of `path` below `t` is a symlink.
fn linked_parent(t: &Path, path: &Path) -> bool {
    let Ok(rel) = path.strip_prefix(t) else {
        return true;
    };
    let mut at = t.to_path_buf();
    let parents = rel.parent().map(Path::components).into_iter().flatten();
    parents.into_iter().any(|c| {
        at.push(c);
        fs::symlink_metadata(&at).is_ok_and(|m| m.is_symlink())
    })
}

/// A symlink below `t` whose body leads outside `t` (read lexically from
/// the link's real directory).
fn escaping_link(t: &Path) -> Option<PathBuf> {
    let inodes = crate::plan::model::inodes(t);
    inodes.into_values().find(|path| {
        let Ok(body) = fs::read_link(path) else {
            return false;
        };
        let mut target = path.parent().map(Path::to_path_buf).unwrap_or_default();
        for c in body.components() {
            match c {
                Component::RootDir => target = PathBuf::from("/"),
                Component::ParentDir => {
                    target.pop();
                }
                Component::Normal(name) => target.push(name),
                Component::CurDir | Component::Prefix(_) => {}
            }
        }
        !target.starts_with(t)
    })
}
