//! The form a root is shown in: the path its [`Root::path`] returns and
//! every URI built below it ([`ScopedPath::to_uri`]) starts with.
//!
//! A URI handed back must name the file that was opened. A root's path as
//! given, cleaned, does that when it has no `..`: removing `.` and empty
//! components changes nothing the kernel resolves. A `..` is different: the
//! kernel takes it after the symlinks before it (`T/l/../b` with
//! `T/l -> x/y` is `T/x/b`), while cleaning takes it lexically (`T/b`). So a
//! root given with a `..` is shown cleaned only when the cleaned path names
//! the root's directory too, as the kernel resolves it; otherwise it is
//! shown by its physical path.
//!
//! [`Root::path`]: crate::Root::path
//! [`ScopedPath::to_uri`]: crate::ScopedPath::to_uri

use std::sync::Arc;

use crate::options::hardening::Hardening;
use crate::parse::input;
use crate::parse::lexical::{clean_lexically, clean_relative};
use crate::root::pinned::{Anchor, Keys};
use crate::sys::{self, Access, How, Identity};

/// A root's shown form: slash form (the lexical layers' form) and as the
/// platform spells it.
#[derive(Clone, Debug)]
pub(crate) struct Shown {
    pub(crate) slash: Arc<str>,
    pub(crate) path: Arc<str>,
}

impl Shown {
    fn new(slash: String) -> Self {
        let slash: Arc<str> = Arc::from(slash);
        let path = match input::native(&slash) {
            std::borrow::Cow::Borrowed(_) => slash.clone(),
            std::borrow::Cow::Owned(native) => Arc::from(native),
        };
        Self { slash, path }
    }
}

/// The shown form of the root whose directory is `id`, given as the
/// absolute slash-form `path`, looked up by `keys`, opened beneath
/// `anchor` (a ceiling directory) when it has one, with `hardening`.
/// `None` when neither form can name it: a `..` the kernel resolves
/// elsewhere than the lexical cleaning, and a physical path that is not
/// UTF-8.
pub(crate) fn shown(
    path: &str,
    keys: &Keys,
    id: Identity,
    anchor: Option<&Anchor>,
    hardening: Hardening,
) -> Option<Shown> {
    if let Some(given) = &keys.given {
        return Some(Shown::new(given.to_string()));
    }
    let cleaned = clean_lexically(path);
    if names(&cleaned, id, anchor, hardening) {
        return Some(Shown::new(cleaned));
    }
    keys.resolved.as_deref().map(|key| Shown::new(key.into()))
}

/// Whether the clean path `cleaned` names the directory `id` as the kernel
/// resolves it. Beneath a ceiling directory it is resolved beneath that
/// directory's handle (nothing outside the ceiling is looked at because a
/// client named it); a cleaning that climbs above the ceiling directory
/// names nothing there.
fn names(cleaned: &str, id: Identity, anchor: Option<&Anchor>, hardening: Hardening) -> bool {
    let now = match anchor {
        None => sys::identity_of_path(&input::native(cleaned)),
        Some(anchor) => {
            let Some(rel) = clean_relative(&anchor.rel) else {
                return false;
            };
            let how = How {
                access: Access::Read,
                directory: true,
                ..How::location(true, hardening)
            };
            sys::open_beneath(
                &anchor.ceiling.dir,
                if rel.is_empty() { "." } else { &rel },
                &how,
            )
            .and_then(|dir| sys::identity(&dir))
        }
    };
    now.is_ok_and(|now| now == id)
}
