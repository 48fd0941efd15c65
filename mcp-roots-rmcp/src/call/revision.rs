//! [`Revision`]: what a protocol revision lets a tool do, and the first
//! revisions with form and URL-mode elicitation.

use rmcp::model::ProtocolVersion;

/// The first protocol revision with URL-mode elicitation.
pub const URL_MODE_SINCE: &str = "2025-11-25";

/// What a protocol revision lets a tool do, as the glue serves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Revision {
    /// 2024-11-05 and 2025-03-26: the session's roots (`roots/list`), no
    /// elicitation: a tool that must ask gets "cannot ask" and changes
    /// nothing.
    SessionWithoutElicitation,
    /// 2025-06-18 and 2025-11-25: the session's roots, questions as
    /// `elicitation/create` requests (URL mode from 2025-11-25).
    Session {
        /// Whether the revision has URL-mode elicitation (2025-11-25).
        url_mode: bool,
    },
    /// 2026-07-28 and later: no session; roots and questions travel as
    /// input requests in input-required results, and the retry brings the
    /// answers.
    Rounds,
}

/// The first revision with form elicitation.
const ELICITATION_SINCE: &str = "2025-06-18";

impl Revision {
    /// The revision a request on `version` is served as (an unknown version
    /// is served as the session revisions are: rmcp negotiated it).
    pub fn of(version: Option<&ProtocolVersion>) -> Self {
        let Some(version) = version else {
            return Self::SessionWithoutElicitation;
        };
        if !version.has_initialize() {
            return Self::Rounds;
        }
        match version.as_str() {
            v if v < ELICITATION_SINCE => Self::SessionWithoutElicitation,
            v => Self::Session {
                url_mode: v >= URL_MODE_SINCE,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    #[test]
    fn revisions() {
        let of = |v: &str| {
            let version: ProtocolVersion = serde_json::from_value(Value::String(v.into())).unwrap();
            Revision::of(Some(&version))
        };
        assert_eq!(of("2024-11-05"), Revision::SessionWithoutElicitation);
        assert_eq!(of("2025-03-26"), Revision::SessionWithoutElicitation);
        assert_eq!(of("2025-06-18"), Revision::Session { url_mode: false });
        assert_eq!(of("2025-11-25"), Revision::Session { url_mode: true });
        assert_eq!(of("2026-07-28"), Revision::Rounds);
    }
}
