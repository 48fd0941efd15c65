//! What the watcher watches and why, and whether one event can change an
//! answer ([`Scope::judge`]).
//!
//! A rename or removal can change an answer only where it moves a root, a
//! directory above one (or a symlink met while resolving a root's path), a
//! directory on the way from a root to a tracked handle, or a tracked file
//! itself. So an event is judged by its kind and
//! by its paths against those *chains*: a name in a watched directory
//! matters if it is on a chain, and every name renamed in a directory that
//! holds tracked handles matters (the event cannot tell a tracked file from
//! its neighbours; the rescan can). A removal there matters too, except
//! where a removal is never a move ([`REMOVALS_ARE_UNLINKS`]: an unlinked
//! tracked file stays with its root). Anything that cannot be placed (no path, an
//! unknown directory, an unreadable identity) counts as relevant. Event
//! paths only decide *whether* to rescan: the rescan locates handles from
//! their descriptors.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

use notify::event::{EventKind, ModifyKind};

use crate::sys;
use crate::sys::Identity;

/// What one notify event means for the watcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Relevance {
    /// It cannot change an answer: it neither triggers nor delays anything.
    Irrelevant,
    /// A rename or removal on a chain, or a watcher error: rescan.
    Rescan,
    /// The kernel's event queue overflowed and events were lost: report it
    /// and rescan.
    Overflow,
}

/// Every path on a chain for one refresh: what to watch, and what the
/// events there can mean.
#[derive(Debug, Default)]
pub(super) struct Wanted {
    /// The directories to watch.
    pub(super) dirs: HashSet<PathBuf>,
    /// Every path on a chain, existing or not: each root as given and as
    /// resolved, their ancestors up to `/`, and the directories from a root
    /// down to each tracked handle's directory.
    chain: HashSet<PathBuf>,
    /// The directories that hold tracked handles.
    holders: HashSet<PathBuf>,
    /// Some tracked handle lies outside the root it is registered under.
    pub(super) strays: bool,
}

impl Wanted {
    /// The chains of `root_paths` (given and resolved forms of each root)
    /// and of `handle_dirs` (each tracked handle's root directory and the
    /// directory holding it now, both physical).
    pub(super) fn new<'a>(
        root_paths: impl IntoIterator<Item = &'a Path>,
        handle_dirs: &[(PathBuf, PathBuf)],
    ) -> Self {
        let mut wanted = Self::default();
        for path in root_paths {
            for ancestor in path.ancestors() {
                if ancestor.is_dir() {
                    wanted.dirs.insert(ancestor.to_path_buf());
                }
                wanted.chain.insert(ancestor.to_path_buf());
            }
            wanted.trace(path);
        }
        for (root_dir, handle_dir) in handle_dirs {
            let Ok(below) = handle_dir.strip_prefix(root_dir) else {
                // It moved out before its directories were watched.
                wanted.strays = true;
                continue;
            };
            let mut dir = root_dir.clone();
            wanted.dirs.insert(dir.clone());
            for component in below.components() {
                dir.push(component);
                wanted.dirs.insert(dir.clone());
                wanted.chain.insert(dir.clone());
            }
            wanted.holders.insert(dir);
        }
        wanted
    }

    /// Adds every directory entry the kernel visits to resolve `path`, and
    /// the directories holding them: through symlinks, these are more than
    /// the ancestors of `path` and of its resolved form (`T/link` → `T/top`
    /// → `T/real` visits `T/top`), and renaming any of them changes what
    /// `path` names.
    fn trace(&mut self, path: &Path) {
        /// The kernel's limit on symlinks in one resolution.
        const MAX_LINKS: usize = 40;
        let mut ahead: Vec<OsString> = Vec::new();
        push_components(&mut ahead, path);
        let mut at = top(path);
        let mut links = 0;
        while let Some(name) = ahead.pop() {
            if name == ".." {
                at.pop();
                continue;
            }
            self.dirs.insert(at.clone());
            let entry = at.join(&name);
            self.chain.insert(entry.clone());
            match std::fs::read_link(&entry) {
                Ok(target) if links < MAX_LINKS => {
                    links += 1;
                    if target.is_absolute() {
                        at = top(&target);
                    }
                    push_components(&mut ahead, &target);
                }
                _ if entry.is_dir() => at = entry,
                _ => return,
            }
        }
    }
}

/// The top of the file system `path` starts from: `/`, or on Windows its
/// drive or share with the root separator (`C:\`, `\\server\share\`;
/// a verbatim `\\?\C:\`, as a link's target may be, is `C:\`, the
/// spelling events come in).
fn top(path: &Path) -> PathBuf {
    use std::path::Prefix;
    let top: PathBuf = path
        .components()
        .take_while(|c| matches!(c, Component::Prefix(_) | Component::RootDir))
        .map(|c| match c {
            Component::Prefix(p) => match p.kind() {
                Prefix::VerbatimDisk(letter) => format!("{}:", char::from(letter)).into(),
                Prefix::VerbatimUNC(server, share) => {
                    let mut unc = OsString::from(r"\\");
                    unc.push(server);
                    unc.push(r"\");
                    unc.push(share);
                    unc
                }
                _ => p.as_os_str().to_owned(),
            },
            other => other.as_os_str().to_owned(),
        })
        .collect();
    if top.as_os_str().is_empty() {
        PathBuf::from("/")
    } else {
        top
    }
}

/// Pushes the names of `path` (`..` included, `.` and `/` left out) onto
/// `ahead` so that the first is popped first.
fn push_components(ahead: &mut Vec<OsString>, path: &Path) {
    let start = ahead.len();
    for component in path.components() {
        match component {
            Component::Normal(name) => ahead.push(name.to_owned()),
            Component::ParentDir => ahead.push("..".into()),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    ahead[start..].reverse();
}

/// Whether some handle in `handle_dirs` lies outside its root directory.
pub(super) fn strays(handle_dirs: &[(PathBuf, PathBuf)]) -> bool {
    handle_dirs.iter().any(|(root, dir)| !dir.starts_with(root))
}

/// The watched directories and what a change in each can mean, keyed by
/// identity: one directory can be watched under two paths (a root as given
/// through a symlink and as resolved), and notify reports its events under
/// either.
#[derive(Debug, Default)]
pub(super) struct Scope {
    /// [`Wanted::chain`].
    chain: HashSet<PathBuf>,
    /// Each watched directory and its identity, when it could be read.
    dirs: HashMap<PathBuf, Option<Identity>>,
    roles: HashMap<Identity, Role>,
}

/// What the names in one watched directory can mean.
#[derive(Debug, Default)]
struct Role {
    /// The names in it that are on a chain.
    names: HashSet<OsString>,
    /// It holds tracked handles, so any name in it may be one.
    holds_handles: bool,
}

/// Whether a removal event is only ever an unlink (see
/// [`sys::REMOVALS_ARE_UNLINKS`]). An unlinked tracked file stays with its
/// root (a rescan locates it by its descriptor, at its old place), so
/// where removals are unlinks, a removal of a name off every chain in a
/// directory holding handles changes no answer, and a flood of creations
/// and deletions beside tracked files does not hold their rescans back.
const REMOVALS_ARE_UNLINKS: bool = sys::REMOVALS_ARE_UNLINKS;

impl Scope {
    /// The scope of `wanted`, for the directories actually `watched`.
    pub(super) fn new(wanted: Wanted, watched: &HashSet<PathBuf>) -> Self {
        let identity = |dir: &Path| dir.to_str().and_then(|d| sys::identity_of_path(d).ok());
        let dirs: HashMap<_, _> = watched.iter().map(|d| (d.clone(), identity(d))).collect();
        let mut roles: HashMap<Identity, Role> = HashMap::new();
        for path in &wanted.chain {
            if let (Some(parent), Some(name)) = (path.parent(), path.file_name())
                && let Some(Some(id)) = dirs.get(parent)
            {
                roles.entry(*id).or_default().names.insert(name.to_owned());
            }
        }
        for holder in &wanted.holders {
            if let Some(Some(id)) = dirs.get(holder) {
                roles.entry(*id).or_default().holds_handles = true;
            }
        }
        Self {
            chain: wanted.chain,
            dirs,
            roles,
        }
    }

    /// Whether `event` can change an answer. Opens, closes, reads, writes,
    /// metadata changes and the creation of names not on a chain cannot;
    /// a rename or removal can when one of its paths is on a chain or in a
    /// directory holding tracked handles. Errors and overflows always can.
    pub(super) fn judge(&self, event: &notify::Result<notify::Event>) -> Relevance {
        let event = match event {
            Err(_) => return Relevance::Rescan,
            Ok(event) if event.need_rescan() => return Relevance::Overflow,
            Ok(event) => event,
        };
        let change = match event.kind {
            EventKind::Access(_)
            | EventKind::Modify(ModifyKind::Data(_) | ModifyKind::Metadata(_)) => {
                return Relevance::Irrelevant;
            }
            EventKind::Create(_) => Change::Creates,
            EventKind::Remove(_) if REMOVALS_ARE_UNLINKS => Change::Unlinks,
            EventKind::Remove(_)
            | EventKind::Modify(ModifyKind::Name(_) | ModifyKind::Any | ModifyKind::Other)
            | EventKind::Any
            | EventKind::Other => Change::Moves,
        };
        let concerned =
            event.paths.is_empty() || event.paths.iter().any(|path| self.concerns(path, change));
        match concerned {
            true => Relevance::Rescan,
            false => Relevance::Irrelevant,
        }
    }

    /// Whether `change` of `path` can change an answer.
    fn concerns(&self, path: &Path, change: Change) -> bool {
        if self.chain.contains(path) {
            return true;
        }
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return true;
        };
        match self.dirs.get(parent) {
            Some(Some(id)) => self.roles.get(id).is_some_and(|role| {
                role.names.contains(name) || (change == Change::Moves && role.holds_handles)
            }),
            // Not a directory of this scope, or one whose identity is
            // unknown: assume the worst.
            _ => true,
        }
    }
}

/// What an event did to the name it reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    /// Created it: it matters only if it is on a chain (a root's path or a
    /// directory above one can come back by a new symlink).
    Creates,
    /// Renamed or removed it (or an unknown kind of change).
    Moves,
    /// Unlinked it, where a removal is never a move
    /// ([`REMOVALS_ARE_UNLINKS`]): it matters only on a chain.
    Unlinks,
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{AccessKind, CreateKind, DataChange, Flag, RemoveKind, RenameMode};

    /// `T/top/root` (the root, also given as `T/link/root` through the
    /// symlink `T/link` → `T/top`) with a tracked handle in `d/e`, and the
    /// scope the watcher would judge by.
    struct Fixture {
        _tmp: tempfile::TempDir,
        t: PathBuf,
        scope: Scope,
    }

    impl Fixture {
        /// `None` where symlinks cannot be made and followed (Wine).
        fn new() -> Option<Self> {
            if !sys::symlinks_work() {
                eprintln!("skipped: directory symlinks do not work here");
                return None;
            }
            let tmp = tempfile::tempdir().expect("tempdir");
            let t = tmp.path().to_path_buf();
            std::fs::create_dir_all(t.join("top/root/d/e")).expect("mkdir");
            crate::sys::symlink_dir(&t.join("top"), &t.join("link")).expect("symlink");
            let (given, resolved) = (t.join("link/root"), t.join("top/root"));
            let handle_dirs = [(resolved.clone(), t.join("top/root/d/e"))];
            let wanted = Wanted::new([given.as_path(), resolved.as_path()], &handle_dirs);
            assert!(!wanted.strays);
            let watched = wanted.dirs.clone();
            Some(Self {
                _tmp: tmp,
                scope: Scope::new(wanted, &watched),
                t,
            })
        }

        fn judge(&self, kind: EventKind, rel: &[&str]) -> Relevance {
            let event = rel
                .iter()
                .fold(notify::Event::new(kind), |e, r| e.add_path(self.t.join(r)));
            self.scope.judge(&Ok(event))
        }
    }

    const REMOVE: EventKind = EventKind::Remove(RemoveKind::File);
    const FROM: EventKind = EventKind::Modify(ModifyKind::Name(RenameMode::From));
    const BOTH: EventKind = EventKind::Modify(ModifyKind::Name(RenameMode::Both));
    const CREATE: EventKind = EventKind::Create(CreateKind::File);
    const OPEN: EventKind = EventKind::Access(AccessKind::Open(notify::event::AccessMode::Any));
    const WRITE: EventKind = EventKind::Modify(ModifyKind::Data(DataChange::Any));

    #[test]
    fn renames_and_removals_on_a_chain_are_relevant() {
        let Some(f) = Fixture::new() else { return };
        for rel in [
            "top",
            "link",
            "top/root",
            "link/root",
            "top/root/d",
            "top/root/d/e",
            // The same directory watched through the symlink.
            "link/root/d",
        ] {
            assert_eq!(f.judge(REMOVE, &[rel]), Relevance::Rescan, "remove {rel}");
            assert_eq!(f.judge(FROM, &[rel]), Relevance::Rescan, "rename {rel}");
        }
        // A name in the directory holding a handle may be the tracked file:
        // a rename may carry it out. An unlink leaves it with its root,
        // where a removal is never a move.
        for rel in ["top/root/d/e/f.txt", "top/root/d/e/junk"] {
            assert_eq!(f.judge(FROM, &[rel]), Relevance::Rescan, "rename {rel}");
            let unlink = if REMOVALS_ARE_UNLINKS {
                Relevance::Irrelevant
            } else {
                Relevance::Rescan
            };
            assert_eq!(f.judge(REMOVE, &[rel]), unlink, "remove {rel}");
        }
        assert_eq!(
            f.judge(BOTH, &["junk", "top/root"]),
            Relevance::Rescan,
            "a rename onto a chain"
        );
        // A creation on a chain: a root's path can come back as a symlink.
        assert_eq!(f.judge(CREATE, &["link"]), Relevance::Rescan);
    }

    #[test]
    fn names_off_every_chain_are_irrelevant() {
        let Some(f) = Fixture::new() else { return };
        for rel in [
            "junk123",
            "top_evil",
            "top/root2",
            "top/root/junk",
            "link/root/junk",
            "top/root/d/junk",
        ] {
            assert_eq!(
                f.judge(REMOVE, &[rel]),
                Relevance::Irrelevant,
                "remove {rel}"
            );
            assert_eq!(f.judge(FROM, &[rel]), Relevance::Irrelevant, "rename {rel}");
        }
        assert_eq!(f.judge(BOTH, &["junk", "junk2"]), Relevance::Irrelevant);
        // Creations, opens and writes, even of a tracked file's name.
        for kind in [CREATE, OPEN, WRITE] {
            for rel in ["junk", "top/root/junk", "top/root/d/e/f.txt"] {
                assert_eq!(
                    f.judge(kind, &[rel]),
                    Relevance::Irrelevant,
                    "{kind:?} {rel}"
                );
            }
        }
    }

    #[test]
    fn the_unknown_is_relevant() {
        let Some(f) = Fixture::new() else { return };
        assert_eq!(f.judge(REMOVE, &[]), Relevance::Rescan, "no path");
        assert_eq!(
            f.judge(REMOVE, &["elsewhere/x"]),
            Relevance::Rescan,
            "a directory the scope does not know"
        );
        let error = notify::Error::generic("read failed");
        assert_eq!(f.scope.judge(&Err(error)), Relevance::Rescan);
        let overflow = notify::Event::new(EventKind::Other).set_flag(Flag::Rescan);
        assert_eq!(f.scope.judge(&Ok(overflow)), Relevance::Overflow);
    }

    #[test]
    fn a_symlink_met_while_resolving_a_root_is_on_its_chain() {
        if !sys::symlinks_work() {
            eprintln!("skipped: directory symlinks do not work here");
            return;
        }
        let tmp = tempfile::tempdir().expect("tempdir");
        let t = tmp.path();
        std::fs::create_dir_all(t.join("real/root")).expect("mkdir");
        crate::sys::symlink_dir("real".as_ref(), &t.join("top")).expect("symlink");
        crate::sys::symlink_dir(&t.join("top"), &t.join("link")).expect("symlink");
        let (given, resolved) = (t.join("link/root"), t.join("real/root"));
        let wanted = Wanted::new([given.as_path(), resolved.as_path()], &[]);
        let watched = wanted.dirs.clone();
        let scope = Scope::new(wanted, &watched);
        let remove = |rel: &str| {
            let event = notify::Event::new(REMOVE).add_path(t.join(rel));
            scope.judge(&Ok(event))
        };
        // Neither an ancestor of `T/link/root` nor of `T/real/root`.
        assert_eq!(remove("top"), Relevance::Rescan);
        assert_eq!(remove("junk"), Relevance::Irrelevant);
    }

    #[test]
    fn a_handle_outside_its_root_is_a_stray() {
        let (root, out) = (PathBuf::from("/r/root"), PathBuf::from("/r/out/d"));
        let pairs = [(root.clone(), out)];
        assert!(Wanted::new([root.as_path()], &pairs).strays);
        assert!(strays(&pairs));
        assert!(!strays(&[(root.clone(), root.join("d"))]));
    }
}
