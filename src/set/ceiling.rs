//! The operator ceiling: client roots can only narrow it
//! (`effective = ceiling ∩ client roots`).
//!
//! A client root is judged against the ceiling *before anything at its path
//! is touched*, lexically, on its path as given (a URI decoded and its dot
//! segments removed; a raw path as it is):
//!
//! - inside a ceiling directory (its path, as given or resolved, is a
//!   component prefix): the rest is opened beneath that directory's handle,
//!   so a link inside the ceiling that leads out (`/ceiling/link -> /etc`)
//!   cannot carry a root outside (`outside_ceiling`);
//! - above ceiling directories: clipped to each of them (their handles,
//!   duplicated);
//! - anywhere else: `outside_ceiling`, whatever exists there. Nothing
//!   outside the ceiling is opened because a client named it, so the reason
//!   never depends on what lies outside.
//!
//! Each ceiling directory carries its own policy: an admitted root gets the
//! stricter hardening of every ceiling directory that is its directory or
//! contains it, as given or physically ([`Ceiling::covering`]), so a root
//! at or beneath a read-only ceiling directory is read-only, whichever
//! directory admitted it.

use cap_std::fs::Dir;

use crate::error::{Error, ErrorKind, Operation};
use crate::options::hardening::Hardening;
use crate::parse::lexical::{clean_key, is_prefix};
use crate::root::{Anchor, Root};
use crate::set::RootSet;
use crate::set::builder::{Admission, root_at};
use crate::set::root_set::Rejected;
use crate::sys;
use crate::sys::{Access, How};

/// Client roots admitted beneath the operator's ceiling directories.
pub(crate) struct Ceiling<'c> {
    pub(crate) dirs: &'c RootSet,
}

impl Admission for Ceiling<'_> {
    fn admit(
        &self,
        name: Option<&str>,
        uri: &str,
        path: &str,
        hardening: Hardening,
    ) -> Result<Vec<Root>, Error> {
        let outside = || Error::new(ErrorKind::OutsideCeiling, Operation::AddRoot, uri);
        if let Some((index, rest)) = self.dirs.index().locate(path) {
            let ceiling = &self.dirs.roots()[index];
            let rel = match rest.trim_start_matches('/') {
                "" => ".",
                rel => rel,
            };
            let how = How {
                access: Access::Read,
                directory: true,
                ..How::location(true, hardening)
            };
            let dir = sys::open_beneath(&ceiling.dir, rel, &how).map_err(|err| {
                let error = Error::from_os(err, Operation::AddRoot, uri);
                match error.kind() {
                    ErrorKind::OutsideRoots => {
                        outside().with_detail("its path leads out of the ceiling directory")
                    }
                    _ => error,
                }
            })?;
            let anchor = Anchor {
                ceiling: ceiling.clone(),
                rel: rel.into(),
            };
            let dir = Dir::from_std_file(dir);
            let mut root = root_at(name, uri, path, dir, hardening, Some(anchor))?;
            root.hardening = self.hardening_of(&root, hardening);
            return Ok(vec![root]);
        }
        // Above ceiling directories: the ones whose path lies beneath it.
        let key = clean_key(path).ok_or_else(outside)?;
        let mut clipped = Vec::new();
        for ceiling in self.dirs.roots() {
            let beneath = ceiling
                .keys
                .iter()
                .any(|k| is_prefix(&key, k, ceiling.folding));
            if beneath {
                let root = ceiling
                    .duplicate(name, self.hardening_of(ceiling, hardening))
                    .map_err(|err| Error::from_os(err, Operation::AddRoot, uri))?;
                clipped.push(root);
            }
        }
        if clipped.is_empty() {
            return Err(outside());
        }
        Ok(clipped)
    }

    fn hardening_of(&self, root: &Root, asked: Hardening) -> Hardening {
        asked.stricter(self.covering(root))
    }
}

impl Ceiling<'_> {
    /// The stricter hardening of every ceiling directory that is `root`'s
    /// directory (by identity) or contains it (a key of the ceiling
    /// directory, as given or physical, is a component prefix of one of
    /// `root`'s): a root at or beneath a read-only ceiling directory is
    /// read-only, whichever ceiling directory it was opened beneath.
    fn covering(&self, root: &Root) -> Hardening {
        self.dirs
            .roots()
            .iter()
            .filter(|ceiling| {
                ceiling.id == root.id
                    || ceiling.keys.iter().any(|outer| {
                        root.keys
                            .iter()
                            .any(|inner| is_prefix(outer, inner, ceiling.folding))
                    })
            })
            .fold(Hardening::default(), |acc, ceiling| {
                acc.stricter(ceiling.hardening)
            })
    }
}

/// The operator's ceiling directories, each with its policy raised to that
/// of every ceiling directory that is it or contains it: a directory listed
/// both writable and read-only is read-only whichever listing a lookup
/// finds, also where the ceiling is served whole (`EmptyRoots::Ceiling`).
pub(crate) fn settle(dirs: RootSet) -> RootSet {
    let ceiling = Ceiling { dirs: &dirs };
    let mut roots = Vec::with_capacity(dirs.len());
    let mut rejected = dirs.rejected().to_vec();
    for root in dirs.roots() {
        match root.at_least(ceiling.covering(root)) {
            Ok(root) => roots.push(root),
            Err(err) => {
                let error = Error::from_os(err, Operation::AddRoot, root.uri());
                rejected.push(Rejected::new(root.name(), error));
            }
        }
    }
    RootSet::assemble(roots, rejected, dirs.hardening())
}
