//! What the operations run on: live `Roots` (one snapshot per call, files
//! tracked) or a fixed `RootSet` (files untracked). One macro writes both.

use std::fs::Metadata;
use std::sync::Arc;

use mcp_roots::{Error, OpenOptions, Overwrite, ScopedPath, WalkLimits};

use crate::file::Handle;
use crate::values::DirEntry;

/// The operations of a binding class, each one library call.
pub(crate) trait Scope: Clone + Send + Sync + 'static {
    fn open(&self, path: &str, options: OpenOptions) -> Result<Handle, Error>;
    fn read(&self, path: &str) -> Result<Vec<u8>, Error>;
    fn read_with<R>(
        &self,
        path: &str,
        read: impl FnOnce(&mut std::fs::File, u64) -> std::io::Result<R>,
    ) -> Result<R, Error>;
    fn write_atomic(&self, path: &str, data: &[u8]) -> Result<(), Error>;
    fn read_dir(&self, path: &str) -> Result<Vec<DirEntry>, Error>;
    fn walk(&self, path: &str, limits: WalkLimits) -> Result<mcp_roots::Walk, Error>;
    fn metadata(&self, path: &str) -> Result<Metadata, Error>;
    fn mkdir(&self, path: &str, recursive: bool) -> Result<(), Error>;
    fn remove(&self, path: &str, dir: bool) -> Result<(), Error>;
    fn rename(&self, from: &str, to: &str, overwrite: Overwrite) -> Result<(), Error>;
    fn copy(&self, from: &str, to: &str) -> Result<u64, Error>;
    fn resolve(&self, path: &str) -> Result<ScopedPath, Error>;
}

macro_rules! scope {
    ($ty:ty, |$s:ident| $set:expr, $handle:path) => {
        impl Scope for $ty {
            fn open(&self, path: &str, options: OpenOptions) -> Result<Handle, Error> {
                let $s = self;
                $set.open_with(path, options).map($handle)
            }
            fn read(&self, path: &str) -> Result<Vec<u8>, Error> {
                let $s = self;
                $set.read(path)
            }
            fn read_with<R>(
                &self,
                path: &str,
                read: impl FnOnce(&mut std::fs::File, u64) -> std::io::Result<R>,
            ) -> Result<R, Error> {
                let $s = self;
                $set.read_with(path, read)
            }
            fn write_atomic(&self, path: &str, data: &[u8]) -> Result<(), Error> {
                let $s = self;
                $set.write_atomic(path, data)
            }
            fn read_dir(&self, path: &str) -> Result<Vec<DirEntry>, Error> {
                let $s = self;
                $set.read_dir(path)?
                    .map(|e| e.map(|e| DirEntry::new(&e)))
                    .collect()
            }
            fn walk(&self, path: &str, limits: WalkLimits) -> Result<mcp_roots::Walk, Error> {
                let $s = self;
                $set.walk(path, limits)
            }
            fn metadata(&self, path: &str) -> Result<Metadata, Error> {
                let $s = self;
                $set.metadata(path)
            }
            fn mkdir(&self, path: &str, recursive: bool) -> Result<(), Error> {
                let $s = self;
                if recursive {
                    $set.create_dir_all(path)
                } else {
                    $set.create_dir(path)
                }
            }
            fn remove(&self, path: &str, dir: bool) -> Result<(), Error> {
                let $s = self;
                if dir {
                    $set.remove_dir(path)
                } else {
                    $set.remove_file(path)
                }
            }
            fn rename(&self, from: &str, to: &str, overwrite: Overwrite) -> Result<(), Error> {
                let $s = self;
                $set.rename_with(from, to, overwrite)
            }
            fn copy(&self, from: &str, to: &str) -> Result<u64, Error> {
                let $s = self;
                $set.copy(from, to)
            }
            fn resolve(&self, path: &str) -> Result<ScopedPath, Error> {
                let $s = self;
                $set.resolve(path)
            }
        }
    };
}

scope!(mcp_roots::Roots, |s| s.load(), Handle::Tracked);
scope!(Arc<mcp_roots::RootSet>, |s| s.as_ref(), Handle::Plain);
