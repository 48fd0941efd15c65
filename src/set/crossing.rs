//! What the walk that follows a path across roots asks of a set
//! ([`RootMap`]): the set's own lexical choice of root for a path, whether
//! a path outside every root still leads towards one, and each root's
//! handle, physical path, identity and hardening.

use crate::parse::lexical::{components, fold};
use crate::set::root_set::RootSet;
use crate::sys::{Folding, Lead, RootMap, RootRef};

impl RootMap for RootSet {
    /// A file grant is never landed in: a link that leads to a granted
    /// file is refused (a safe refusal), as one into its directory is.
    fn locate<'p>(&self, path: &'p str) -> Option<(usize, &'p str)> {
        let (index, rest) = self.index().locate(path)?;
        let root = &self.roots()[index];
        root.granted_file().is_none().then_some((index, rest))
    }

    fn leads_to(&self, path: &str) -> Lead {
        let mut lead = Lead::Nowhere;
        for root in self.roots().iter().filter(|r| r.granted_file().is_none()) {
            if let Some(key) = &root.keys.resolved
                && is_ancestor(path, key, root.folding)
            {
                return Lead::Canonical;
            }
            if let Some(key) = &root.keys.given
                && is_ancestor(path, key, root.folding)
            {
                lead = Lead::Lexical;
            }
        }
        lead
    }

    fn root(&self, index: usize) -> Option<RootRef<'_>> {
        Some(self.roots().get(index)?.walk_ref())
    }
}

/// Whether the clean path `path` is a proper ancestor of the clean path
/// `key`, component by component, names compared as `folding` says.
#[allow(dead_code)] // unused where the platform does not walk across roots (Windows)
fn is_ancestor(path: &str, key: &str, folding: Folding) -> bool {
    let mut below = components(key);
    for name in components(path) {
        match below.next() {
            Some(k)
                if k == name
                    || (folding != Folding::Exact && fold(k, folding) == fold(name, folding)) => {}
            _ => return false,
        }
    }
    below.next().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ancestors_are_proper_component_prefixes() {
        assert!(is_ancestor("/", "/t/a", Folding::Exact));
        assert!(is_ancestor("/t", "/t/a", Folding::Exact));
        assert!(!is_ancestor("/t/a", "/t/a", Folding::Exact));
        assert!(!is_ancestor("/t/a/b", "/t/a", Folding::Exact));
        assert!(!is_ancestor("/t/ab", "/t/a/c", Folding::Exact));
        assert!(!is_ancestor("/T", "/t/a", Folding::Exact));
        assert!(is_ancestor("/T", "/t/a", Folding::Case));
        assert!(!is_ancestor("/", "/", Folding::Exact));
    }
}
