//! The session model: which tracked handles a `Roots` must have revoked,
//! and which opens it may serve, after each step of a plan.
//!
//! It reads the real disk and never uses the library. The rules, from
//! the semantics page (`mcp_roots::semantics`, section 10):
//!
//! - A root is the directory (device, inode) its path named at `replace`;
//!   it is *present* while its path still names that directory, which is
//!   verified at every `replace` and `rescan` (and only then).
//! - A handle is *bound* to the root it was opened through (the lexical
//!   choice: the outermost present root whose path as given, or as
//!   resolved at `replace`, is a component prefix of the input) when its
//!   file lies beneath that root's directory; when a link or a `..` led
//!   the open into another root of the set, to the root it landed in (the
//!   outermost present root whose directory contains the file); and after
//!   each check to the outermost present root whose directory contains it.
//! - A check locates the handle's file physically (by its inode in the
//!   tree): it is kept iff it lies beneath the directory of a present root,
//!   else revoked. A file that is nowhere in the tree (unlinked) is not
//!   judged: from then on the handle is [`HandleState::Unknown`].
//! - `replace` settles the handles whose bound root `R` is not among the
//!   new set's roots (the others cost nothing, by design), once per `R`:
//!   if `R`'s path still names its directory and the directory
//!   of a new root contains `R`'s directory, they are all kept, bound to
//!   the outermost such root, without locating them; if `R`'s path still
//!   names its directory and no new root's directory contains it or lies
//!   at or beneath it, they are all revoked; otherwise each is checked.
//!   A root that stays but holds other roots than before (its layers
//!   changed, semantics 5) has its handles checked: located, and judged
//!   again where they lie now.
//!   `rescan` checks all. Revocation is final.
//! - An open succeeds only beneath the directory of a present root
//!   (wherever that directory is now: opens go through the root's handle).
//!   When the disk has not changed since the last `replace` or `rescan`
//!   (the model is *settled*), an open is judged exactly by
//!   [`judge_with`] with the present roots and the policy's patterns.
//! - With hide patterns (the policy's, relative to each root): a handle
//!   that a check locates is revoked when its path beneath the root it is
//!   bound to is hidden (judged by [`Parts`], not the library's matcher),
//!   and so is one that a `replace` keeps under a root that contains its
//!   old one;
//!   where the library cannot be told to judge that path (the root's
//!   directory is no longer at the physical path it was installed at), the
//!   handle becomes [`HandleState::Unknown`]. An open is never served a
//!   file whose path beneath the root it landed in is hidden, settled or
//!   not.

use std::collections::HashMap;
use std::fs::{self, File};
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use crate::corpus::Op;
use crate::model::parts::{Part, Parts};
use crate::model::{Verdict, judge_with};

/// A file or directory: (device, inode).
pub type Identity = (u64, u64);

/// A root of the installed set.
#[derive(Debug)]
pub struct ModelRoot {
    /// The path as the client gave it.
    pub given: PathBuf,
    /// The pinned directory.
    pub id: Identity,
    /// Its physical path at `replace`, or at the last rescan that found it
    /// moved.
    pub resolved: PathBuf,
    /// Whether the path named the directory at the last check.
    pub present: bool,
    /// Keeps the directory (and so its inode number) alive, as the
    /// library's handle does.
    _pin: File,
}

/// What the model says about one handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandleState {
    /// Must work.
    Live {
        /// The file it holds.
        file: Identity,
        /// The root it is bound to.
        bound: Identity,
    },
    /// Must fail with `scope_lost`.
    Revoked,
    /// Its file was unlinked before a check: either answer is accepted.
    Unknown,
    /// Dropped by the plan.
    Closed,
}

/// What a `replace` or `rescan` must report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expected {
    /// The generation afterwards.
    pub generation: u64,
    /// Handles revoked by this step (a lower bound if `exact` is false).
    pub revoked: usize,
    /// No handle is or became [`HandleState::Unknown`] (those may be
    /// revoked too).
    pub exact: bool,
    /// Roots whose path stopped naming their directory (rescan).
    pub roots_gone: usize,
    /// Roots whose directory is back at their path (rescan).
    pub roots_back: usize,
}

/// The model of one session in the tree `t`.
#[derive(Debug)]
pub struct Model {
    t: PathBuf,
    installed: bool,
    roots: Vec<ModelRoot>,
    handles: Vec<HandleState>,
    generation: u64,
    settled: bool,
    /// The policy's hide and read-only patterns, relative to each root.
    parts: Parts,
}

impl Model {
    /// A session with no set installed, in the physical directory `t`.
    pub fn new(t: &Path) -> Self {
        Self::with_parts(t, Parts::default())
    }

    /// A session whose policy has the patterns `parts` (relative to each
    /// root), with no set installed, in the physical directory `t`.
    pub fn with_parts(t: &Path, parts: Parts) -> Self {
        Self {
            t: t.to_path_buf(),
            installed: false,
            roots: Vec::new(),
            handles: Vec::new(),
            generation: 0,
            settled: true,
            parts,
        }
    }

    /// The handles, in the order they were opened.
    pub fn handles(&self) -> &[HandleState] {
        &self.handles
    }

    /// The generation of the installed set.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether the disk is unchanged since the last `replace` or `rescan`.
    pub fn settled(&self) -> bool {
        self.settled
    }

    /// The roots of the installed set.
    pub fn roots(&self) -> &[ModelRoot] {
        &self.roots
    }

    /// The disk changed.
    pub fn disk_changed(&mut self) {
        self.settled = false;
    }

    /// A `replace` with these root directories (absolute paths).
    pub fn replace(&mut self, dirs: &[String]) -> Expected {
        self.installed = true;
        self.generation += 1;
        let before = std::mem::take(&mut self.roots);
        self.roots = dirs.iter().filter_map(|d| pin(Path::new(d))).collect();
        let inodes = inodes(&self.t);
        let dirs = self.present_dirs(&inodes);
        let ids: Vec<Identity> = self.roots.iter().map(|r| r.id).collect();
        let mut fates: HashMap<Identity, Fate> = HashMap::new();
        for handle in &self.handles {
            if let HandleState::Live { bound, .. } = *handle
                && !ids.contains(&bound)
            {
                let departed = before.iter().find(|r| r.id == bound);
                fates
                    .entry(bound)
                    .or_insert_with(|| fate(departed, &dirs, &inodes));
            }
        }
        // A root that stays but holds other served directories than before
        // has other layers (semantics 5): its handles are located and
        // judged again where they lie now (a file moved out from beneath it
        // on disk is revoked then, not at the next rescan).
        if !self.parts.is_empty() {
            for root in &self.roots {
                let was = before.iter().find(|r| r.id == root.id);
                if was.is_some_and(|was| held(&before, was) != held(&self.roots, root)) {
                    fates.entry(root.id).or_insert(Fate::Locate);
                }
            }
        }
        let (mut revoked, mut exact) = (0, !self.handles.contains(&HandleState::Unknown));
        let (parts, roots) = (&self.parts, &self.roots);
        for handle in &mut self.handles {
            let HandleState::Live { file, bound } = *handle else {
                continue;
            };
            let Some(fate) = fates.get(&bound) else {
                continue;
            };
            *handle = match (inodes.get(&file), fate) {
                (None, _) => {
                    exact = false;
                    HandleState::Unknown
                }
                (Some(path), Fate::KeepUnder(root)) => {
                    // Kept without locating, unless the new root's patterns
                    // hide it there.
                    match hidden_beneath(parts, roots, &dirs, *root, path) {
                        Some(false) => HandleState::Live { file, bound: *root },
                        Some(true) => HandleState::Revoked,
                        None => {
                            exact = false;
                            HandleState::Unknown
                        }
                    }
                }
                (Some(_), Fate::Revoke) => HandleState::Revoked,
                (Some(path), Fate::Locate) => {
                    let state = located(parts, roots, &dirs, file, path);
                    exact &= state != HandleState::Unknown;
                    state
                }
            };
            revoked += usize::from(*handle == HandleState::Revoked);
        }
        self.settled = true;
        Expected {
            generation: self.generation,
            revoked,
            exact,
            roots_gone: 0,
            roots_back: 0,
        }
    }

    /// A `rescan`: root identities verified, every handle checked.
    pub fn rescan(&mut self) -> Expected {
        let (mut gone, mut back, mut moved) = (0, 0, 0);
        for root in &mut self.roots {
            let now = identity_of(&root.given) == Some(root.id);
            match (root.present, now) {
                (true, false) => gone += 1,
                (false, true) => back += 1,
                _ => {}
            }
            root.present = now;
            // A present root whose directory moved while its path still
            // names it (through a symlink) is installed again, relocated.
            if let Some(at) = fs::canonicalize(&root.given)
                .ok()
                .filter(|at| now && *at != root.resolved)
            {
                root.resolved = at;
                moved += 1;
            }
        }
        if gone + back + moved > 0 {
            self.generation += 1;
        }
        let expected = self.check(|h| matches!(h, HandleState::Live { .. }));
        Expected {
            roots_gone: gone,
            roots_back: back,
            ..expected
        }
    }

    /// Checks the handles `selected` picks; the disk is settled afterwards.
    fn check(&mut self, selected: impl Fn(&HandleState) -> bool) -> Expected {
        let inodes = inodes(&self.t);
        let dirs = self.present_dirs(&inodes);
        let (mut revoked, mut exact) = (0, !self.handles.contains(&HandleState::Unknown));
        let (parts, roots) = (&self.parts, &self.roots);
        for handle in self.handles.iter_mut().filter(|h| selected(h)) {
            let HandleState::Live { file, .. } = *handle else {
                continue;
            };
            *handle = match inodes.get(&file) {
                None => HandleState::Unknown,
                Some(path) => located(parts, roots, &dirs, file, path),
            };
            match *handle {
                HandleState::Unknown => exact = false,
                HandleState::Revoked => revoked += 1,
                _ => {}
            }
        }
        self.settled = true;
        Expected {
            generation: self.generation,
            revoked,
            exact,
            roots_gone: 0,
            roots_back: 0,
        }
    }

    /// The present roots' directories where they are now: (path, id).
    fn present_dirs(&self, inodes: &HashMap<Identity, PathBuf>) -> Vec<(PathBuf, Identity)> {
        let present = self.roots.iter().filter(|r| r.present);
        present
            .filter_map(|r| inodes.get(&r.id).map(|p| (p.clone(), r.id)))
            .collect()
    }

    /// An open of the raw path `input` that the library served (`Some`
    /// with the file it opened) or refused (`None`); a served one becomes a
    /// handle.
    ///
    /// # Errors
    ///
    /// When the library may not have served it, or had to.
    pub fn open(&mut self, input: &str, opened: Option<Identity>) -> Result<(), String> {
        if let Some(file) = opened {
            let inodes = inodes(&self.t);
            let Some(path) = inodes.get(&file) else {
                return Err(format!(
                    "ESCAPE: {input:?} opened a file that is not in the tree"
                ));
            };
            if outermost(&self.present_dirs(&inodes), path).is_none() {
                return Err(format!(
                    "ESCAPE: {input:?} opened {path:?}, beneath no present root's directory"
                ));
            }
            let landed = self
                .lexical(Path::new(input))
                .map(|lexical| self.landed(lexical, file));
            let dirs = self.present_dirs(&inodes);
            if let Some(bound) = landed
                && hidden_beneath(&self.parts, &self.roots, &dirs, bound, path) == Some(true)
            {
                return Err(format!(
                    "ESCAPE: {input:?} opened {path:?}, which the patterns hide beneath the root it landed in"
                ));
            }
        }
        if self.settled {
            self.judge_open(input, opened)?;
        }
        if let Some(file) = opened {
            let lexical = self.lexical(Path::new(input)).ok_or_else(|| {
                format!("{input:?} was opened, but no present root is a prefix of it")
            })?;
            let bound = self.landed(lexical, file);
            self.handles.push(HandleState::Live { file, bound });
        }
        Ok(())
    }

    /// The root a handle opened through the root `lexical` is bound to:
    /// that root when the file lies beneath its directory; else (a link
    /// or a `..` led the open into another root of the set) the outermost
    /// present root whose directory contains the file.
    fn landed(&self, lexical: Identity, file: Identity) -> Identity {
        let inodes = inodes(&self.t);
        let (Some(dir), Some(path)) = (inodes.get(&lexical), inodes.get(&file)) else {
            return lexical;
        };
        if path.starts_with(dir) {
            return lexical;
        }
        outermost(&self.present_dirs(&inodes), path).unwrap_or(lexical)
    }

    /// The reference model's verdict with the present roots.
    fn judge_open(&self, input: &str, opened: Option<Identity>) -> Result<(), String> {
        let roots: Vec<String> = self
            .roots
            .iter()
            .filter(|r| r.present)
            .map(|r| r.given.to_string_lossy().into_owned())
            .collect();
        match (judge_with(&roots, &self.parts, input, Op::Read), opened) {
            (Verdict::Deny { why }, Some(_)) => {
                Err(format!("{input:?} was opened; the model denies it: {why}"))
            }
            (Verdict::Allow { target, .. }, Some(file)) => match identity_of(&target) {
                Some(id) if id == file => Ok(()),
                _ => Err(format!("{input:?} opened another file than {target:?}")),
            },
            (
                Verdict::Allow {
                    target,
                    strict: true,
                },
                None,
            ) => Err(format!(
                "{input:?} was refused; the model allows it beneath its root: {target:?}"
            )),
            _ => Ok(()),
        }
    }

    /// The root an input is opened through: the outermost present root
    /// whose path as given or as resolved is a component prefix of it
    /// (ties: the first in client order).
    fn lexical(&self, input: &Path) -> Option<Identity> {
        let names: Vec<Component> = input.components().collect();
        let mut best: Option<(usize, Identity)> = None;
        for root in self.roots.iter().filter(|r| r.present) {
            for form in [&root.given, &root.resolved] {
                let len = form.components().count();
                let prefix =
                    len <= names.len() && form.components().zip(&names).all(|(a, b)| a == *b);
                if prefix && best.is_none_or(|(best_len, _)| len < best_len) {
                    best = Some((len, root.id));
                }
            }
        }
        best.map(|(_, id)| id)
    }

    /// Whether a live handle's `path()` must name its file: the disk is
    /// settled and the file lies beneath its bound root's directory.
    pub fn locatable(&self, handle: usize, inodes: &HashMap<Identity, PathBuf>) -> bool {
        let HandleState::Live { file, bound } = self.handles[handle] else {
            return false;
        };
        let dir = inodes.get(&bound);
        let path = inodes.get(&file);
        self.settled
            && dir
                .zip(path)
                .is_some_and(|(dir, path)| path.starts_with(dir))
    }

    /// Drops handle `n`.
    pub fn close(&mut self, n: usize) {
        self.handles[n] = HandleState::Closed;
    }
}

/// The other roots of `roots` whose directories lie inside `root`'s.
fn held(roots: &[ModelRoot], root: &ModelRoot) -> Vec<Identity> {
    let mut held: Vec<Identity> = roots
        .iter()
        .filter(|r| r.id != root.id && r.resolved.starts_with(&root.resolved))
        .map(|r| r.id)
        .collect();
    held.sort_unstable();
    held.dedup();
    held
}

/// What a `replace` does with the handles bound to a departed root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    KeepUnder(Identity),
    Revoke,
    Locate,
}

/// The fate of the handles bound to `departed`, given the new set's
/// present root directories `dirs`: judged by where the departed root's
/// directory is in the tree.
fn fate(
    departed: Option<&ModelRoot>,
    dirs: &[(PathBuf, Identity)],
    inodes: &HashMap<Identity, PathBuf>,
) -> Fate {
    let Some(root) = departed.filter(|r| r.present && identity_of(&r.given) == Some(r.id)) else {
        return Fate::Locate;
    };
    let Some(at) = inodes.get(&root.id) else {
        return Fate::Locate;
    };
    if let Some(container) = outermost(dirs, at) {
        return Fate::KeepUnder(container);
    }
    if dirs.iter().any(|(dir, _)| dir.starts_with(at)) {
        Fate::Locate
    } else {
        Fate::Revoke
    }
}

/// The state of a live handle on `file`, found at `path` by a check: bound
/// to the outermost present root whose directory contains it, revoked
/// beneath none or when the patterns hide it beneath that root, unknown
/// when that cannot be told.
fn located(
    parts: &Parts,
    roots: &[ModelRoot],
    dirs: &[(PathBuf, Identity)],
    file: Identity,
    path: &Path,
) -> HandleState {
    let Some(bound) = outermost(dirs, path) else {
        return HandleState::Revoked;
    };
    match hidden_beneath(parts, roots, dirs, bound, path) {
        Some(false) => HandleState::Live { file, bound },
        Some(true) => HandleState::Revoked,
        None => HandleState::Unknown,
    }
}

/// Whether `path` is hidden beneath the root `bound` (whose directory is
/// in `dirs`): `None` when the library cannot name the path there (the
/// directory is not at the physical path the root was installed at, which
/// is what the library judges beneath).
fn hidden_beneath(
    parts: &Parts,
    roots: &[ModelRoot],
    dirs: &[(PathBuf, Identity)],
    bound: Identity,
    path: &Path,
) -> Option<bool> {
    if parts.hide.is_empty() {
        return Some(false);
    }
    let (dir, _) = dirs.iter().find(|(_, id)| *id == bound)?;
    if !roots.iter().any(|r| r.id == bound && r.resolved == *dir) {
        return None;
    }
    let names: Vec<String> = path
        .strip_prefix(dir)
        .ok()?
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.judge(&names) == Part::Hidden)
}

/// A root for `dir` if it names a directory now.
fn pin(dir: &Path) -> Option<ModelRoot> {
    let meta = fs::metadata(dir).ok().filter(fs::Metadata::is_dir)?;
    Some(ModelRoot {
        given: dir.to_path_buf(),
        id: (meta.dev(), meta.ino()),
        resolved: fs::canonicalize(dir).ok()?,
        present: true,
        _pin: File::open(dir).ok()?,
    })
}

/// The identity of what `path` names, following symlinks.
fn identity_of(path: &Path) -> Option<Identity> {
    fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// The outermost of `dirs` that contains `path`.
fn outermost(dirs: &[(PathBuf, Identity)], path: &Path) -> Option<Identity> {
    dirs.iter()
        .filter(|(dir, _)| path.starts_with(dir) && path != dir)
        .min_by_key(|(dir, _)| dir.components().count())
        .map(|(_, id)| *id)
}

/// Every entry below `t` (and `t`), by identity, without following links.
pub fn inodes(t: &Path) -> HashMap<Identity, PathBuf> {
    let mut out = HashMap::new();
    let mut stack = vec![t.to_path_buf()];
    while let Some(path) = stack.pop() {
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            for entry in fs::read_dir(&path).into_iter().flatten().flatten() {
                stack.push(entry.path());
            }
        }
        out.insert((meta.dev(), meta.ino()), path);
    }
    out
}
