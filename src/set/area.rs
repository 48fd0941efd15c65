//! The area the user may be asked about ([semantics 15](crate::semantics#15-grants)):
//! the operator's `ask_within` directories, admitted as client roots are
//! (inside the ceiling when it names a directory, with the policy's
//! hardening and patterns), and the two steps of a grant made from them:
//! [`Area::may_ask`] judges a path before any question, and
//! [`Area::grant_root`] opens the root the user's yes grants.
//!
//! Nothing of the area is served: it is a set of its own, never part of
//! the roots a request sees. A grant is opened beneath an area
//! directory's handle (so a link inside the area that leads out of it
//! cannot carry a grant out) and is judged by the same patterns and
//! nested layers as a client root at its place.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{Error, ErrorKind, Escaped, Operation};
use crate::options::grant::{GrantAccess, GrantKind};
use crate::options::hardening::{Hardening, Writes};
use crate::parse::lexical::fold;
use crate::root::granted::{Granted, next_number};
use crate::root::parts::{Parts, Rules};
use crate::root::shared::{Intent, judge};
use crate::root::writable::check_write;
use crate::root::{Root, RootId};
use crate::set::RootSet;
use crate::set::builder::{Admission, ByPath, RootSetBuilder};
use crate::set::ceiling::Ceiling;
use crate::set::policy::Policy;
use crate::set::sharing::Sharing;

/// The directories beneath which a path may be granted, as admitted.
#[derive(Clone, Debug)]
pub(crate) struct Area {
    pub(crate) set: RootSet,
    /// The server's patterns, which every grant carries.
    pub(crate) rules: Option<Arc<Rules>>,
}

/// What a grant of a refused path would be, judged before any question
/// ([`Snapshot::may_ask`](crate::Snapshot::may_ask)): the physical path,
/// what it covers and the access asked for. Two answers for the same file
/// spelled two ways are equal, so a server keys what the user said
/// (a "no" included) by this value, or by [`path`](Self::path) and
/// [`access`](Self::access).
///
/// Hand it back to [`Roots::grant`](crate::Roots::grant) or
/// [`Snapshot::with_grant`](crate::Snapshot::with_grant) once the user has
/// said yes: the grant is judged again then, and refused if what the path
/// names changed in between.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AskAbout {
    path: PathBuf,
    kind: GrantKind,
    access: GrantAccess,
    exists: bool,
    /// The area directory it lies beneath, and its physical path below it.
    area: RootId,
    rel: Box<str>,
}

impl AskAbout {
    /// The physical path the grant would cover (symlinks resolved): what
    /// to show the user, and the key of the answer.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// One file or one directory.
    pub fn kind(&self) -> GrantKind {
        self.kind
    }

    /// The access asked for.
    pub fn access(&self) -> GrantAccess {
        self.access
    }

    /// Whether the file exists (a file grant may name a new file in an
    /// existing directory, for a tool that creates it; a directory grant
    /// always names an existing directory).
    pub fn exists(&self) -> bool {
        self.exists
    }
}

impl Area {
    /// The area of the directories `dirs`, admitted under `policy` as a
    /// client's list is. When `policy` has no ceiling directory (none set,
    /// or an empty list), the area is opened at its own paths and the
    /// ceiling becomes empty: the client's own roots serve nothing.
    pub(crate) fn admitted(dirs: Vec<String>, policy: &mut Policy) -> Self {
        let list = dirs
            .into_iter()
            .fold(RootSetBuilder::new(), RootSetBuilder::root);
        let named = policy
            .ceiling
            .as_ref()
            .is_some_and(|c| !c.is_empty() || !c.rejected().is_empty());
        if !named {
            policy.ceiling = Some(RootSet::assemble(Vec::new(), Vec::new(), policy.hardening));
        }
        let set = match named {
            true => policy.admit(list, None),
            false => list.build_admitted(None, policy.hardening, &ByPath, policy.rules.as_ref()),
        };
        for rejected in set.rejected() {
            tracing::warn!(
                dir = %Escaped(rejected.uri()),
                reason = rejected.reason(),
                "ask-within directory grants nothing"
            );
        }
        Self {
            set,
            rules: policy.rules.clone(),
        }
    }

    /// Whether `untrusted` may be asked about for `access`.
    ///
    /// # Errors
    ///
    /// `outside_roots` past the area (or with no area); `hidden` for a
    /// hidden part (judged on the path as given, and on the physical path
    /// of its deepest existing ancestor: the same answer whether anything
    /// is there); `read_only` for `Change` where the policy keeps the path
    /// read-only; `not_found` when neither it nor its directory exists, or
    /// it is a dangling symlink; `not_a_regular_file` for a FIFO, socket
    /// or device; and the forms' errors of any input.
    pub(crate) fn may_ask(&self, untrusted: &str, access: GrantAccess) -> Result<AskAbout, Error> {
        let op = Operation::Resolve;
        let past = || {
            Error::new(ErrorKind::OutsideRoots, op, untrusted)
                .with_detail("outside the folders the server may ask the user about")
        };
        if self.set.is_empty() {
            return Err(past());
        }
        let scoped = self.set.resolve(untrusted).map_err(|e| match e.kind() {
            ErrorKind::OutsideRoots => past(),
            _ => e,
        })?;
        let root = self.set.root_by_id(scoped.root()).ok_or_else(past)?;
        let rel = match scoped.rel() {
            "." => "",
            rel => rel,
        };
        let (kind, exists) = kind_of(root, rel, untrusted)?;
        if access == GrantAccess::Change {
            check_write(root, op, untrusted)?;
            judge(root, rel, Intent::Change, op, untrusted)?;
        }
        let path = match rel {
            "" => root.resolved.clone(),
            rel => root.resolved.join(rel),
        };
        Ok(AskAbout {
            path,
            kind,
            access,
            exists,
            area: root.id,
            rel: rel.into(),
        })
    }

    /// The root a yes to `about` grants, with at least `floor`'s hardening
    /// and the server's patterns, opened beneath its area directory.
    ///
    /// # Errors
    ///
    /// `not_found` when what `about` names changed since it was judged (a
    /// directory moved, a file replaced by a directory); and as a client
    /// root's admission.
    pub(crate) fn grant_root(
        &self,
        about: &AskAbout,
        floor: Hardening,
    ) -> Result<Arc<Root>, Error> {
        let op = Operation::AddRoot;
        let shown = about.path.to_string_lossy();
        let changed = || {
            Error::new(ErrorKind::NotFound, op, &shown)
                .with_detail("what the question named changed before the grant")
        };
        let area = self.set.root_by_id(about.area).ok_or_else(changed)?;
        let (dir_rel, file) = match about.kind {
            GrantKind::Directory => (&*about.rel, None),
            GrantKind::File => match about.rel.rsplit_once('/') {
                Some((parent, name)) => (parent, Some(name)),
                None => ("", Some(&*about.rel)),
            },
        };
        let dir = match dir_rel {
            "" => area.resolved.clone(),
            rel => area.resolved.join(rel),
        };
        let dir_path = dir.to_str().ok_or_else(|| {
            Error::new(ErrorKind::InvalidPath, op, &shown)
                .with_detail("a grant's folder must have a UTF-8 path")
        })?;
        let writes = match about.access {
            GrantAccess::Read => Writes::Refuse,
            GrantAccess::Change => Writes::Allow,
        };
        let hardening = floor.stricter(Hardening {
            writes,
            ..Hardening::default()
        });
        let admission = Ceiling { dirs: &self.set };
        let mut admitted = admission.admit(None, &shown, dir_path, hardening)?;
        let mut root = match (admitted.pop(), admitted.is_empty()) {
            (Some(root), true) => root,
            _ => return Err(changed()),
        };
        if root.resolved != dir {
            return Err(changed());
        }
        if let Some(name) = file {
            match root.dir.symlink_metadata(name) {
                Ok(meta) if meta.is_file() => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && !about.exists => {}
                _ => return Err(changed()),
            }
        }
        let sharing = Sharing {
            own: None,
            policy: self.rules.as_ref(),
        };
        let parts = sharing.parts_of(&root)?;
        root.parts = match file {
            None => parts,
            Some(name) => {
                let mut parts = parts.map_or_else(
                    || Parts {
                        layers: Vec::new(),
                        folding: root.folding,
                        nested: Vec::new(),
                        only: None,
                    },
                    |p| (*p).clone(),
                );
                parts.only = Some(fold(name, root.folding).into());
                Some(Arc::new(parts))
            }
        };
        if file.is_some() {
            root.id = RootId(root.id.0, next_number());
        }
        root.grant = Some(Granted {
            kind: about.kind,
            file: file.map(Into::into),
        });
        Ok(Arc::new(root))
    }
}

/// What `rel` (a physical path below `root`, `""` for the root) is, for a
/// grant: a directory, an existing file, or a new name in an existing
/// directory.
fn kind_of(root: &Root, rel: &str, untrusted: &str) -> Result<(GrantKind, bool), Error> {
    let op = Operation::Resolve;
    let at = if rel.is_empty() { "." } else { rel };
    let demands_dir = untrusted.ends_with('/');
    match root.dir.symlink_metadata(at) {
        Ok(meta) if meta.is_dir() => Ok((GrantKind::Directory, true)),
        Ok(meta) if meta.is_file() && demands_dir => {
            Err(Error::new(ErrorKind::NotADirectory, op, untrusted))
        }
        Ok(meta) if meta.is_file() => Ok((GrantKind::File, true)),
        Ok(meta) if meta.file_type().is_symlink() => {
            Err(Error::new(ErrorKind::NotFound, op, untrusted)
                .with_detail("a dangling symlink is never granted"))
        }
        Ok(_) => Err(Error::new(ErrorKind::NotARegularFile, op, untrusted)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let parent = rel.rsplit_once('/').map_or(".", |(parent, _)| parent);
            let is_dir = root.dir.metadata(parent).is_ok_and(|m| m.is_dir());
            if !is_dir || demands_dir {
                return Err(Error::new(ErrorKind::NotFound, op, untrusted)
                    .with_detail("a grant names an existing folder, or a file in one"));
            }
            Ok((GrantKind::File, false))
        }
        Err(e) => Err(Error::from_os(e, op, untrusted)),
    }
}
