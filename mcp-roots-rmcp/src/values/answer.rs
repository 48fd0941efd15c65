//! What a client said about its roots, and the one conversion from that
//! answer to the root list the session's policy judges: installed as the
//! session's roots, or as a request-scoped set (2026-07-28).

use mcp_roots::{RescanReport, RootSet, RootSetBuilder, Roots};

use crate::values::legacy::ClientRoot;

/// A client's answer about its roots.
#[derive(Debug)]
pub(crate) enum Answer {
    /// A `roots/list` answer (possibly empty: nothing is shared).
    Listed(Vec<ClientRoot>),
    /// The client does not declare the roots capability.
    Undeclared,
}

impl Answer {
    /// The listed URIs for a log line, control characters escaped.
    pub(crate) fn uris_for_log(&self) -> Vec<String> {
        match self {
            Self::Listed(listed) => listed.iter().map(|r| escaped(&r.uri)).collect(),
            Self::Undeclared => Vec::new(),
        }
    }

    /// Installs the answer as the session's roots (opens every root:
    /// blocking).
    pub(crate) fn install(self, roots: &Roots) -> RescanReport {
        match self.into_list() {
            Some(list) => roots.replace_list(list),
            None => roots.replace_undeclared(),
        }
    }

    /// The answer as a request-scoped set, nothing installed (opens every
    /// root: blocking).
    pub(crate) fn scoped(self, roots: &Roots) -> RootSet {
        match self.into_list() {
            Some(list) => roots.scoped_list(list),
            None => roots.scoped_undeclared(),
        }
    }

    /// The client's roots as a root list (names kept), not yet opened;
    /// `None` for a client without roots (the policy alone serves it).
    /// The roots of one request (2026-07-28), taking over the handles of
    /// the previous request's where the roots repeat.
    pub(crate) fn for_request(self, roots: &Roots) -> Roots {
        roots.for_request(self.into_list())
    }

    /// How many roots the client listed.
    pub(crate) fn len(&self) -> usize {
        match self {
            Self::Listed(listed) => listed.len(),
            Self::Undeclared => 0,
        }
    }

    pub(crate) fn into_list(self) -> Option<RootSetBuilder> {
        let Self::Listed(listed) = self else {
            return None;
        };
        let list = listed
            .into_iter()
            .fold(RootSet::builder(), |b, root| match root.name {
                Some(name) => b.named_root(name, root.uri),
                None => b.root(root.uri),
            });
        Some(list)
    }
}

/// A client-supplied string for a log line, with control characters escaped.
pub(crate) fn escaped(untrusted: &str) -> String {
    untrusted.escape_debug().to_string()
}
