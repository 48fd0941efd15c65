//! The operator ceiling (DESIGN.md semantics 8): client roots can only
//! narrow it. `effective = ceiling ∩ client roots`.

use std::sync::Arc;

use crate::root::Root;
use crate::root_set::Rejected;
use crate::{Error, ErrorKind, Operation, RootSet};

/// Applies `ceiling` to `client`: a root inside a ceiling directory is kept,
/// one above ceiling directories is clipped to them, any other is rejected
/// (`outside_ceiling`). Containment compares physical paths by components.
pub(crate) fn clip(client: &RootSet, ceiling: &RootSet) -> RootSet {
    let mut roots: Vec<Arc<Root>> = Vec::new();
    let mut rejected: Vec<Rejected> = client.rejected().to_vec();
    for root in client.roots() {
        let within = ceiling
            .roots()
            .iter()
            .any(|c| root.resolved.starts_with(&c.resolved));
        if within {
            roots.push(root.clone());
            continue;
        }
        let below: Vec<&Arc<Root>> = ceiling
            .roots()
            .iter()
            .filter(|c| c.resolved.starts_with(&root.resolved))
            .collect();
        if below.is_empty() {
            let error = Error::new(ErrorKind::OutsideCeiling, Operation::AddRoot, root.uri());
            rejected.push(Rejected::new(root.name(), error));
        }
        for c in below {
            match c.renamed(root.name()) {
                Ok(clipped) => roots.push(Arc::new(clipped)),
                Err(e) => {
                    let error = Error::from_os(e, Operation::AddRoot, root.uri());
                    rejected.push(Rejected::new(root.name(), error));
                }
            }
        }
    }
    RootSet::assemble(roots, rejected)
}
