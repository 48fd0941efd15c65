//! Which parts of each root a set shares: the server's hide and read-only
//! patterns (relative to the ceiling directory that holds the root, or to
//! the root when there is no ceiling) and the set's own (relative to each
//! root), attached to every root a set is built with, taken over or
//! raised to a policy. A root that lies inside a part the server's policy
//! hides grants nothing: it is rejected with `hidden`.

use std::sync::Arc;

use crate::error::{Error, ErrorKind, Operation};
use crate::root::Root;
use crate::root::parts::{Layer, Parts, Rules, Source};
use crate::set::RootSet;
use crate::set::root_set::Rejected;

/// The rules a set is built under: its own and the server's.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Sharing<'r> {
    /// The set's own patterns (relative to each root).
    pub(crate) own: Option<&'r Arc<Rules>>,
    /// The server's patterns. `None` keeps the server layers a root
    /// already carries (a set admitted before, installed as it is).
    pub(crate) policy: Option<&'r Arc<Rules>>,
}

impl Sharing<'_> {
    /// The parts of `root` under these rules.
    ///
    /// # Errors
    ///
    /// `hidden` when the server's patterns hide the root itself.
    pub(crate) fn parts_of(&self, root: &Root) -> Result<Option<Arc<Parts>>, Error> {
        let mut layers = Vec::new();
        if let Some(own) = self.own {
            layers.push(layer(root, own, Source::Set, "")?);
        }
        match self.policy {
            Some(policy) => layers.push(layer(root, policy, Source::Policy, &prefix(root))?),
            None => layers.extend(
                root.parts
                    .iter()
                    .flat_map(|p| p.layers.iter())
                    .filter(|l| l.from == Source::Policy)
                    .cloned(),
            ),
        }
        if layers.is_empty() {
            return Ok(None);
        }
        Ok(Some(Arc::new(Parts {
            layers,
            folding: root.folding,
            nested: Vec::new(),
            only: None,
        })))
    }

    /// `root` carrying these rules (itself when it already does).
    ///
    /// # Errors
    ///
    /// As [`parts_of`](Self::parts_of), or `io` when its handle cannot be
    /// duplicated.
    pub(crate) fn apply(&self, root: &Arc<Root>) -> Result<Arc<Root>, Error> {
        let parts = self.parts_of(root)?;
        root.with_parts(parts)
            .map_err(|err| Error::from_os(err, Operation::AddRoot, root.uri()))
    }
}

impl Sharing<'_> {
    /// [`apply`](Self::apply), keeping the set's own patterns `root`
    /// carries (a set built by the caller, raised to the server's policy).
    ///
    /// # Errors
    ///
    /// As [`apply`](Self::apply).
    pub(crate) fn apply_keeping_own(&self, root: &Arc<Root>) -> Result<Arc<Root>, Error> {
        let own = own_layer(root).map(|l| l.rules.clone());
        Sharing {
            own: own.as_ref(),
            policy: self.policy,
        }
        .apply(root)
    }

    /// Every root of `set` carrying these rules; a root they hide whole
    /// joins the rejected ones.
    pub(crate) fn apply_to(&self, set: RootSet) -> RootSet {
        let mut rejected = set.rejected().to_vec();
        let mut roots = Vec::with_capacity(set.len());
        for root in set.roots() {
            match self.apply(root) {
                Ok(root) => roots.push(root),
                Err(error) => rejected.push(Rejected::new(root.name(), error)),
            }
        }
        RootSet::assemble(roots, rejected, set.hardening())
    }
}

fn own_layer(root: &Root) -> Option<&Layer> {
    root.parts
        .iter()
        .flat_map(|p| p.layers.iter())
        .find(|l| l.from == Source::Set)
}

/// The set's own rules of `client`, as its roots carry them.
pub(crate) fn own_rules(client: &RootSet) -> Option<Arc<Rules>> {
    client
        .roots()
        .iter()
        .find_map(|root| own_layer(root))
        .map(|l| l.rules.clone())
}

fn layer(root: &Root, rules: &Arc<Rules>, from: Source, prefix: &str) -> Result<Layer, Error> {
    Layer::new(rules, from, root.folding, prefix).map_err(|pattern| {
        Error::new(ErrorKind::Hidden, Operation::AddRoot, root.uri())
            .with_detail("the root lies inside a part of the folder the server hides")
            .with_pattern(&pattern)
    })
}

/// Where `root` lies below the ceiling directory it was opened beneath
/// (physically, when its directory is there; else as the client gave
/// it), `/`-separated; `""` for a root without a ceiling.
fn prefix(root: &Root) -> String {
    let Some(anchor) = &root.anchor else {
        return String::new();
    };
    // A grant hangs from a directory of the area, which may itself hang
    // from a ceiling directory: the patterns are relative to the top one.
    let mut top = &anchor.ceiling;
    while let Some(above) = &top.anchor {
        top = &above.ceiling;
    }
    if let Ok(rel) = root.resolved.strip_prefix(&top.resolved) {
        let names: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
        if let Some(names) = names {
            return names.join("/");
        }
    }
    anchor.rel.to_string()
}
