//! A root's own operations, on paths relative to it
//! (`set.root_named("notes")?.open("a.md")`): thin calls into the
//! operations of this layer, which never call back into [`Root`].

use std::fs::{File, Metadata};

use crate::error::{Error, Operation};
use crate::ops::open::{self, Plan};
use crate::ops::read_dir::ReadDir;
use crate::options::{Create, OpenOptions};
use crate::root::{Root, ScopedPath, Selected};

impl Root {
    /// Opens `rel` (relative to this root) read-only; see
    /// [`RootSet::open`](crate::RootSet::open).
    ///
    /// # Errors
    ///
    /// As `RootSet::open`; an absolute `rel` or one leaving the root is
    /// `outside_roots`.
    pub fn open(&self, rel: &str) -> Result<File, Error> {
        self.open_with(rel, OpenOptions::new())
    }

    /// Creates the new file `rel`; see
    /// [`RootSet::create_new`](crate::RootSet::create_new).
    ///
    /// # Errors
    ///
    /// As `RootSet::create_new`.
    pub fn create_new(&self, rel: &str) -> Result<File, Error> {
        self.open_with(rel, OpenOptions::new().read(false).create(Create::New))
    }

    /// Opens `rel` with `options`; see
    /// [`RootSet::open_with`](crate::RootSet::open_with).
    ///
    /// # Errors
    ///
    /// As `RootSet::open_with`.
    pub fn open_with(&self, rel: &str, options: OpenOptions) -> Result<File, Error> {
        let op = options.operation();
        open::open_file(&Selected::relative(self, rel, op)?, &options.how(), op).map(|o| o.file)
    }

    /// Lists the directory `rel`; see
    /// [`RootSet::read_dir`](crate::RootSet::read_dir).
    ///
    /// # Errors
    ///
    /// As `RootSet::read_dir`.
    pub fn read_dir(&self, rel: &str) -> Result<ReadDir, Error> {
        open::read_dir(&Selected::relative(self, rel, Operation::ReadDir)?)
    }

    /// Metadata of `rel`; see [`RootSet::metadata`](crate::RootSet::metadata).
    ///
    /// # Errors
    ///
    /// As `RootSet::metadata`.
    pub fn metadata(&self, rel: &str) -> Result<Metadata, Error> {
        open::metadata(&Selected::relative(self, rel, Operation::Metadata)?)
    }

    /// Resolves `rel`; see [`RootSet::resolve`](crate::RootSet::resolve).
    /// `resolve(".")` is the root itself: a [`ScopedPath`] whose
    /// [`rel`](ScopedPath::rel) is `.`, for
    /// [`to_uri`](ScopedPath::to_uri) (the root's `file://` URI for a tool
    /// result) or as the target of a set's or a snapshot's operation (such
    /// as listing the root: `snap.read_dir(&root.resolve(".")?)`).
    ///
    /// # Errors
    ///
    /// As `RootSet::resolve`.
    pub fn resolve(&self, rel: &str) -> Result<ScopedPath, Error> {
        open::resolve(&Selected::relative(self, rel, Operation::Resolve)?)
    }
}
