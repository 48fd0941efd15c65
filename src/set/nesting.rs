//! The served directories that lie inside other ones
//! ([semantics 5](crate::semantics#5-containment-and-the-choice-of-root)):
//! each root of a set is given one more layer ([`Nested`]) per other root
//! of the set it physically contains, recomputed whenever a set is
//! assembled (built, admitted, replaced, rescanned), so the outermost root
//! that judges a path judges it as strictly as every served directory
//! around the path.
//!
//! A client root opened beneath the operator's ceiling also carries the
//! layers of the ceiling directories inside the one it lies in (read-only
//! ones, and those with patterns), moved to its place.
//!
//! Only a root that adds something gives a layer: a read-only one inside
//! a writable one, or one with patterns. A set where none does is returned
//! as it is, without a lookup.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use crate::error::{Error, ErrorKind, Operation};
use crate::options::hardening::Writes;
use crate::parse::lexical::fold;
use crate::root::Root;
use crate::root::parts::{Nested, Parts};
use crate::set::root_set::Rejected;

/// `roots`, each carrying the layers of the other roots it contains; a
/// root whose handle cannot be duplicated to carry them joins `rejected`
/// (it is not served with less than the rule asks).
pub(crate) fn layered(roots: Vec<Arc<Root>>, rejected: &mut Vec<Rejected>) -> Vec<Arc<Root>> {
    let carries = |root: &Root| root.parts.as_ref().is_some_and(|p| !p.nested.is_empty());
    // A lone root contains no other; it may still carry (or drop) the
    // ceiling's layers.
    let alone = roots.len() < 2;
    if !roots
        .iter()
        .any(|r| (!alone && adds(r)) || carries(r) || carries(anchored(r)))
    {
        return roots;
    }
    // Every root at a path: two spellings of one directory (a link to it
    // and its own name) are two roots, and each carries the layers.
    let mut by_path: HashMap<&Path, Vec<usize>> = HashMap::with_capacity(roots.len());
    for (i, root) in roots.iter().enumerate() {
        by_path.entry(root.resolved.as_path()).or_default().push(i);
    }
    let mut nested: Vec<Vec<Nested>> = vec![Vec::new(); roots.len()];
    for inner in roots.iter().filter(|r| adds(r)) {
        for ancestor in inner.resolved.ancestors().skip(1) {
            for &at in by_path.get(ancestor).into_iter().flatten() {
                let outer = &roots[at];
                if outer.id == inner.id {
                    continue;
                }
                if let Some(layer) = layer_of(inner, outer) {
                    nested[at].push(layer);
                }
            }
        }
    }
    let mut out = Vec::with_capacity(roots.len());
    for (root, mut nested) in roots.into_iter().zip(nested) {
        match from_ceiling(&root) {
            Ok(layers) => nested.extend(layers),
            Err(error) => {
                rejected.push(Rejected::new(root.name(), error));
                continue;
            }
        }
        let own = root.parts.as_ref().and_then(|p| p.own());
        let parts = match own {
            _ if !nested.is_empty() => Some(Parts {
                nested,
                ..own.unwrap_or(Parts {
                    layers: Vec::new(),
                    folding: root.folding,
                    nested: Vec::new(),
                    only: None,
                })
            }),
            own => own,
        };
        match root.with_parts(parts.map(Arc::new)) {
            Ok(root) => out.push(root),
            Err(err) => rejected.push(Rejected::new(
                root.name(),
                Error::from_os(err, Operation::AddRoot, root.uri())
                    .with_detail("the root could not carry the layers of the folders inside it"),
            )),
        }
    }
    out
}

/// The ceiling directory `root` was opened beneath (itself without one).
fn anchored(root: &Root) -> &Root {
    root.anchor.as_ref().map_or(root, |anchor| &anchor.ceiling)
}

/// The layers the served directories of the operator's ceiling give a
/// client root opened beneath it: those of the ceiling directory it lies
/// in (the other ceiling directories inside that one), moved to the
/// root's place, so a client root that holds a read-only or patterned
/// ceiling directory, or lies in one, is judged as that directory says.
///
/// # Errors
///
/// `hidden` when an inner ceiling directory's patterns hide the root.
fn from_ceiling(root: &Root) -> Result<Vec<Nested>, Error> {
    let Some(anchor) = &root.anchor else {
        return Ok(Vec::new());
    };
    let ceiling = &anchor.ceiling;
    let Some(parts) = ceiling.parts.as_ref().filter(|p| !p.nested.is_empty()) else {
        return Ok(Vec::new());
    };
    let Ok(place) = root.resolved.strip_prefix(&ceiling.resolved) else {
        return Ok(Vec::new());
    };
    let below: Vec<Box<str>> = place
        .components()
        .map(|c| fold(&c.as_os_str().to_string_lossy(), ceiling.folding).into())
        .collect();
    let mut layers = Vec::new();
    for nested in &parts.nested {
        match nested.rebased(&below) {
            Ok(layer) => layers.extend(layer),
            Err(pattern) => {
                return Err(
                    Error::new(ErrorKind::Hidden, Operation::AddRoot, root.uri())
                        .with_detail("the root lies inside a part of a folder the server hides")
                        .with_pattern(&pattern),
                );
            }
        }
    }
    Ok(layers)
}

/// Whether `root` adds something to a root that contains it.
///
/// A file grant adds nothing: it is chosen for its one file alone, and
/// hides the rest of its directory only from itself.
fn adds(root: &Root) -> bool {
    root.granted_file().is_none() && root.hardening.writes == Writes::Refuse
        || root.parts.as_ref().is_some_and(|p| !p.layers.is_empty())
}

/// The layer `inner` adds to `outer`, which contains it: read-only when
/// `inner` is and `outer` is not, and `inner`'s own layers.
fn layer_of(inner: &Root, outer: &Root) -> Option<Nested> {
    let place = inner.resolved.strip_prefix(&outer.resolved).ok()?;
    let names: Vec<&str> = place
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect::<Option<_>>()?;
    let read_only =
        inner.hardening.writes == Writes::Refuse && outer.hardening.writes == Writes::Allow;
    let layers = inner
        .parts
        .as_ref()
        .map(|p| p.layers.clone())
        .unwrap_or_default();
    Nested::new(
        &inner.resolved,
        &names.join("/"),
        outer.folding,
        read_only,
        layers,
        inner.folding,
    )
}
