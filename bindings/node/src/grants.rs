//! Grants (the crate's semantics 15): the area given as `askWithin`,
//! `roots.mayAsk` before a question, and a session grant made and ended.
//! Conversions only.

use napi::bindgen_prelude::*;
use napi_derive::napi;

use crate::errors::IntoNapi;
use crate::roots::{Roots, report};
use crate::values::Report;

/// What a grant of a refused path would be (`roots.mayAsk`): the physical
/// path, `"file"` or `"directory"`, the access, and whether the file
/// exists. Two spellings of one file give equal answers (`equals`).
#[napi]
#[derive(Clone)]
pub struct AskAbout {
    inner: mcp_roots::AskAbout,
}

#[napi]
impl AskAbout {
    #[napi(getter)]
    pub fn path(&self) -> String {
        self.inner.path().to_string_lossy().into_owned()
    }

    #[napi(getter, ts_return_type = "'file' | 'directory'")]
    pub fn kind(&self) -> &'static str {
        self.inner.kind().as_str()
    }

    #[napi(getter, ts_return_type = "'read' | 'change'")]
    pub fn access(&self) -> &'static str {
        self.inner.access().as_str()
    }

    #[napi(getter)]
    pub fn exists(&self) -> bool {
        self.inner.exists()
    }

    /// Whether `other` names the same grant.
    #[napi]
    pub fn equals(&self, other: &AskAbout) -> bool {
        self.inner == other.inner
    }
}

/// A session grant (`roots.grant`): what `roots.endGrant` ends.
#[napi]
pub struct Grant {
    inner: mcp_roots::GrantId,
    about: AskAbout,
}

#[napi]
impl Grant {
    /// The grant's number, unique in the process.
    #[napi(getter)]
    pub fn id(&self) -> f64 {
        self.inner.get() as f64
    }

    /// What it covers.
    #[napi(getter)]
    pub fn about(&self) -> AskAbout {
        self.about.clone()
    }
}

fn access(access: Option<&str>) -> napi::Result<mcp_roots::GrantAccess> {
    match access.unwrap_or("read") {
        "read" => Ok(mcp_roots::GrantAccess::Read),
        "change" => Ok(mcp_roots::GrantAccess::Change),
        other => Err(napi::Error::new(
            Status::InvalidArg,
            format!("access must be \"read\" or \"change\", not {other:?}"),
        )),
    }
}

#[napi]
impl Roots {
    /// Whether `path` (refused as outside the roots) may be asked about
    /// for `access` (`"read"`, the default, or `"change"`), judged before
    /// any question.
    #[napi(ts_args_type = "path: string, access?: 'read' | 'change'")]
    pub fn may_ask(&self, path: String, access: Option<String>) -> napi::Result<AskAbout> {
        let access = self::access(access.as_deref())?;
        let about = self.inner.load().may_ask(&path, access).napi()?;
        Ok(AskAbout { inner: about })
    }

    /// Grants what `about` names for the session (the user said yes).
    #[napi]
    pub fn grant(&self, about: &AskAbout) -> napi::Result<Grant> {
        let id = self.inner.grant(&about.inner).napi()?;
        Ok(Grant {
            inner: id,
            about: about.clone(),
        })
    }

    /// Ends a session grant; its files are revoked.
    #[napi]
    pub fn end_grant(&self, grant: &Grant) -> Report {
        report(&self.inner, &self.inner.end_grant(grant.inner))
    }

    /// The session's grants, in the order they were made.
    #[napi(getter)]
    pub fn grants(&self) -> Vec<Grant> {
        let grants = self.inner.grants().into_iter();
        grants
            .map(|(inner, about)| Grant {
                inner,
                about: AskAbout { inner: about },
            })
            .collect()
    }
}
