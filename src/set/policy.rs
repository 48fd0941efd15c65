//! The server's policy for the roots a client lists: the operator ceiling
//! (some of its directories read-only), the hardening floor (read-only
//! roots included), and what a client that declares no roots is
//! served. [`Roots`](crate::Roots) applies it inside every `replace` and
//! every request-scoped set, so no set it hands out is weaker than the
//! policy that asked for it.

use std::sync::Arc;

use crate::error::{Error, Operation};
use crate::options::hardening::Hardening;
use crate::root::parts::Rules;
use crate::set::RootSet;
use crate::set::area::Area;
use crate::set::builder::{ByPath, RootSetBuilder};
use crate::set::ceiling::Ceiling;
use crate::set::root_set::Rejected;
use crate::set::sharing::{Sharing, own_rules};

/// The policy of one [`Roots`](crate::Roots), fixed when it is built.
#[derive(Debug)]
pub(crate) struct Policy {
    /// The operator ceiling (its directories carry `hardening`).
    pub(crate) ceiling: Option<RootSet>,
    /// The least hardening of every root handed out.
    pub(crate) hardening: Hardening,
    /// What a client that shares no folder (and never shared one) is served.
    pub(crate) without_roots: EmptyRoots,
    /// The server's hide and read-only patterns (see `sharing`).
    pub(crate) rules: Option<Arc<Rules>>,
    /// The area the user may be asked about (`ask_within`), if any.
    pub(crate) area: Option<Area>,
    /// Whether this is one request's policy ([`for_request`](Self::for_request)):
    /// its replacements are logged at `DEBUG`, one per request being noise
    /// at `INFO`.
    pub(crate) per_request: bool,
}

impl Policy {
    /// A client's root list, admitted: each root judged against the ceiling
    /// before anything at its path is opened, its hardening at least the
    /// policy's; roots of `current` that the list repeats are taken over
    /// (identity checked again).
    pub(crate) fn admit(&self, list: RootSetBuilder, current: Option<&RootSet>) -> RootSet {
        match &self.ceiling {
            Some(dirs) => list.build_admitted(
                current,
                self.hardening,
                &Ceiling { dirs },
                self.rules.as_ref(),
            ),
            None => list.build_admitted(current, self.hardening, &ByPath, self.rules.as_ref()),
        }
    }

    /// A set the caller already opened, admitted: without a ceiling its
    /// roots are kept, raised to the policy's hardening; under a ceiling
    /// every listed root (accepted or rejected) is judged again from its URI
    /// and opened beneath the ceiling, and the caller's handles are not used.
    /// Either way the result asks for at least the hardening the set was
    /// built with, whichever of its roots were accepted (a set whose roots
    /// were all rejected still asks for what its builder asked).
    pub(crate) fn admit_set(&self, client: RootSet) -> RootSet {
        if self.ceiling.is_some() {
            let mut list = RootSetBuilder::new();
            let mut hardening = client.hardening();
            for root in client.roots() {
                hardening = hardening.stricter(root.hardening);
                list = list.entry(root.name(), root.uri());
            }
            for rejected in client.rejected() {
                list = list.entry(rejected.name(), rejected.uri());
            }
            let own = own_rules(&client);
            let list = list.with_hardening(hardening).with_rules(own.as_deref());
            return self.admit(list, None);
        }
        let mut rejected = client.rejected().to_vec();
        let mut roots = Vec::with_capacity(client.len());
        for root in client.roots() {
            let sharing = Sharing {
                own: None,
                policy: self.rules.as_ref(),
            };
            let raised = root.at_least(self.hardening);
            let raised = raised.map_err(|err| Error::from_os(err, Operation::AddRoot, root.uri()));
            match raised.and_then(|root| sharing.apply_keeping_own(&root)) {
                Ok(root) => roots.push(root),
                Err(error) => rejected.push(Rejected::new(root.name(), error)),
            }
        }
        RootSet::assemble(roots, rejected, client.hardening().stricter(self.hardening))
    }

    /// The policy of the `Roots` that holds one request's set: this
    /// policy's hardening as its floor (so it says what this one says of
    /// writes), no ceiling of its own (the set was admitted under this
    /// one's), and this one's area (a grant for one call is made there).
    pub(crate) fn for_request(&self) -> Policy {
        Policy {
            ceiling: None,
            hardening: self.hardening,
            without_roots: EmptyRoots::DenyAll,
            rules: None,
            area: self.area.clone(),
            per_request: true,
        }
    }

    /// What a client that does not declare the roots capability is served:
    /// the whole ceiling under [`EmptyRoots::Ceiling`], otherwise nothing.
    pub(crate) fn without_roots(&self) -> RootSet {
        match (&self.ceiling, self.without_roots) {
            (Some(ceiling), EmptyRoots::Ceiling) => {
                let roots: Vec<Arc<_>> = ceiling.roots().to_vec();
                RootSet::assemble(roots, Vec::new(), self.hardening)
            }
            _ => RootSet::assemble(Vec::new(), Vec::new(), self.hardening),
        }
    }
}

/// What a client that shares no folder, and has never shared one, is
/// served (see [`Roots::replace_undeclared`](crate::Roots::replace_undeclared)).
///
/// On a session (one [`Roots`](crate::Roots)), a client that does not
/// declare the roots capability, or has answered only with empty lists so
/// far, shares no folder: under [`Ceiling`](Self::Ceiling) it is served the
/// ceiling. Once the client has listed a root (even one the ceiling or the
/// disk rejected), an empty list shares nothing, whatever this says: a
/// removal never grants more than before it. A request-scoped set
/// ([`Roots::for_request`](crate::Roots::for_request)) has no memory of
/// earlier answers: an empty list there shares nothing, and only a client
/// without the capability is served the ceiling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EmptyRoots {
    /// Nothing: operations fail with `no_roots` (the default).
    #[default]
    DenyAll,
    /// The operator ceiling, whole (nothing if there is no ceiling), with
    /// the policy's hardening.
    Ceiling,
}
