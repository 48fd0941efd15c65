//! `Roots` (one session's live roots under the server's policy) and
//! `RootSet` (a fixed set), with the same operations: promise methods run
//! on napi's thread pool, `Sync` variants on the calling thread.

use std::sync::Arc;

use napi::bindgen_prelude::*;
use napi_derive::napi;

use crate::errors::{IntoNapi, patterns};
use crate::file::{FileHandle, bytes};
use crate::scope::Scope;
use crate::task::{Bytes, Job};
use crate::values::{
    DirEntry, Policy, Rejected, Report, ResolvedPath, Revoked, RootArg, RootInfo, SetOptions, Stat,
    WalkResult,
};

fn builder(roots: Vec<Either<String, RootArg>>) -> mcp_roots::RootSetBuilder {
    roots
        .into_iter()
        .fold(mcp_roots::RootSet::builder(), |b, root| match root {
            Either::A(uri) | Either::B(RootArg { uri, name: None }) => b.root(uri),
            Either::B(RootArg {
                uri,
                name: Some(name),
            }) => b.named_root(name, uri),
        })
}

fn choice<T: Copy>(what: &str, value: Option<&str>, table: &[(&str, T)]) -> napi::Result<T> {
    let Some(value) = value else {
        return Ok(table[0].1);
    };
    table
        .iter()
        .find(|(name, _)| *name == value)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<_> = table.iter().map(|(n, _)| format!("{n:?}")).collect();
            napi::Error::new(
                Status::InvalidArg,
                format!("{what} must be one of {}, not {value:?}", names.join(", ")),
            )
        })
}

/// Node's open flags as the library's options.
fn open_options(flags: Option<&str>) -> napi::Result<mcp_roots::OpenOptions> {
    use mcp_roots::{Create, OpenOptions};
    let o = OpenOptions::new();
    Ok(match flags.unwrap_or("r") {
        "r" => o,
        "r+" => o.write(true),
        "w" => o
            .read(false)
            .write(true)
            .truncate(true)
            .create(Create::OrOpen),
        "w+" => o.write(true).truncate(true).create(Create::OrOpen),
        "wx" | "xw" => o.read(false).write(true).create(Create::New),
        "wx+" | "xw+" => o.write(true).create(Create::New),
        "a" => o.read(false).append(true).create(Create::OrOpen),
        "a+" => o.append(true).create(Create::OrOpen),
        "ax" | "xa" => o.read(false).append(true).create(Create::New),
        "ax+" | "xa+" => o.append(true).create(Create::New),
        other => {
            return Err(napi::Error::new(
                Status::InvalidArg,
                format!("unsupported open flags {other:?}"),
            ));
        }
    })
}

pub(crate) fn report(roots: &mcp_roots::Roots, r: &mcp_roots::RescanReport) -> Report {
    Report {
        generation: r.generation() as f64,
        rejected: roots.load().rejected().iter().map(Rejected::new).collect(),
        revoked: r
            .revoked()
            .iter()
            .map(|v| Revoked {
                path: v.path.clone(),
                reason: v.reason.reason().to_owned(),
            })
            .collect(),
        kept: u32::try_from(r.kept()).unwrap_or(u32::MAX),
    }
}

/// One session's roots under the server's policy.
#[napi]
pub struct Roots {
    pub(crate) inner: mcp_roots::Roots,
}

#[napi]
impl Roots {
    #[napi(constructor)]
    pub fn new(policy: Option<Policy>) -> napi::Result<Self> {
        use mcp_roots::{EmptyRoots, HardLinks, MountPoints, Symlinks, Writes};
        let p = policy.unwrap_or_default();
        let mut b = mcp_roots::Roots::builder()
            .hide(patterns(p.hide)?)
            .read_only(patterns(p.read_only_patterns)?)
            .read_only_ceiling(p.read_only_ceiling.unwrap_or_default())
            .writes(choice(
                "writes",
                p.writes.as_deref(),
                &[("allow", Writes::Allow), ("refuse", Writes::Refuse)],
            )?)
            .empty_roots(choice(
                "emptyRoots",
                p.empty_roots.as_deref(),
                &[
                    ("deny_all", EmptyRoots::DenyAll),
                    ("ceiling", EmptyRoots::Ceiling),
                ],
            )?)
            .symlinks(choice(
                "symlinks",
                p.symlinks.as_deref(),
                &[
                    ("follow_beneath", Symlinks::FollowBeneath),
                    ("refuse", Symlinks::Refuse),
                ],
            )?)
            .mount_points(choice(
                "mountPoints",
                p.mount_points.as_deref(),
                &[
                    ("cross", MountPoints::Cross),
                    ("refuse", MountPoints::Refuse),
                ],
            )?)
            .hard_links(choice(
                "hardLinks",
                p.hard_links.as_deref(),
                &[
                    ("allow", HardLinks::Allow),
                    ("refuse_writes", HardLinks::RefuseWrites),
                ],
            )?);
        if let Some(ceiling) = p.ceiling {
            b = b.ceiling(ceiling);
        }
        if let Some(area) = p.ask_within {
            b = b.ask_within(area);
        }
        Ok(Self { inner: b.build() })
    }

    /// Installs the client's root list (URIs, or `{uri, name}`); revokes the
    /// files that left it.
    #[napi]
    pub fn replace(&self, roots: Vec<Either<String, RootArg>>) -> Report {
        report(&self.inner, &self.inner.replace_list(builder(roots)))
    }

    /// Installs what a client without the roots capability is served.
    #[napi]
    pub fn replace_undeclared(&self) -> Report {
        report(&self.inner, &self.inner.replace_undeclared())
    }

    /// Checks every root and tracked file against the disk.
    #[napi]
    pub fn rescan(&self) -> Report {
        report(&self.inner, &self.inner.rescan())
    }

    /// Watches the disk: a root or a tracked file's directory moved or
    /// removed is acted on (a rescan) within about 50 ms; `callback` gets
    /// each event on the event loop. The watcher never keeps the process
    /// alive; `close()` stops it.
    #[napi(ts_args_type = "callback?: ((event: ScopeEvent) => void) | null")]
    pub fn watch(
        &self,
        callback: Option<Function<'_, crate::watch::ScopeEvent, ()>>,
    ) -> napi::Result<crate::watch::Watcher> {
        crate::watch::Watcher::start(&self.inner, callback)
    }

    /// One request's roots (the list it carries, or null for a client
    /// without the roots capability); nothing is installed in `this`.
    #[napi]
    pub fn for_request(&self, roots: Option<Vec<Either<String, RootArg>>>) -> Roots {
        Roots {
            inner: self.inner.for_request(roots.map(builder)),
        }
    }

    #[napi(getter)]
    pub fn generation(&self) -> f64 {
        self.inner.generation() as f64
    }

    #[napi(getter)]
    pub fn tracked(&self) -> u32 {
        u32::try_from(self.inner.tracked()).unwrap_or(u32::MAX)
    }

    #[napi(getter)]
    pub fn rejected(&self) -> Vec<Rejected> {
        self.inner
            .load()
            .rejected()
            .iter()
            .map(Rejected::new)
            .collect()
    }

    #[napi(getter)]
    pub fn uris(&self) -> Vec<String> {
        self.inner
            .load()
            .roots()
            .iter()
            .map(|r| r.uri().to_owned())
            .collect()
    }

    #[napi(getter)]
    pub fn read_only(&self) -> bool {
        self.inner.writes() == mcp_roots::Writes::Refuse
    }

    /// The installed roots with what the policy hides and protects in each.
    #[napi(getter)]
    pub fn roots(&self) -> Vec<RootInfo> {
        self.inner
            .load()
            .roots()
            .iter()
            .map(RootInfo::new)
            .collect()
    }
}

/// A fixed set of roots (no policy, no revocation).
#[napi]
pub struct RootSet {
    inner: Arc<mcp_roots::RootSet>,
}

#[napi]
impl RootSet {
    /// The set of the client's roots; `options` adds patterns of what is
    /// hidden and kept read-only in each.
    #[napi(constructor)]
    pub fn new(
        roots: Vec<Either<String, RootArg>>,
        options: Option<SetOptions>,
    ) -> napi::Result<Self> {
        let o = options.unwrap_or_default();
        let b = builder(roots)
            .hide(patterns(o.hide)?)
            .read_only(patterns(o.read_only_patterns)?);
        Ok(Self {
            inner: Arc::new(b.build()),
        })
    }

    /// The roots with what the policy hides and protects in each.
    #[napi(getter)]
    pub fn roots(&self) -> Vec<RootInfo> {
        self.inner.roots().iter().map(RootInfo::new).collect()
    }

    #[napi(getter)]
    pub fn rejected(&self) -> Vec<Rejected> {
        self.inner.rejected().iter().map(Rejected::new).collect()
    }

    #[napi(getter)]
    pub fn uris(&self) -> Vec<String> {
        self.inner
            .roots()
            .iter()
            .map(|r| r.uri().to_owned())
            .collect()
    }
}

/// The operations: each a promise method and a `Sync` one over one
/// `Scope` call.
macro_rules! operations {
    ($ty:ty) => {
        #[napi]
        impl $ty {
            #[napi(ts_return_type = "Promise<FileHandle>")]
            pub fn open(
                &self,
                path: String,
                flags: Option<String>,
            ) -> napi::Result<AsyncTask<Job<FileHandle>>> {
                let options = open_options(flags.as_deref())?;
                let s = self.inner.clone();
                Ok(Job::new(move || {
                    s.open(&path, options)
                        .napi()
                        .map(|h| FileHandle::new(h, path))
                }))
            }

            #[napi]
            pub fn open_sync(
                &self,
                path: String,
                flags: Option<String>,
            ) -> napi::Result<FileHandle> {
                let options = open_options(flags.as_deref())?;
                self.inner
                    .open(&path, options)
                    .napi()
                    .map(|h| FileHandle::new(h, path))
            }

            #[napi(ts_return_type = "Promise<Buffer>")]
            pub fn read_bytes(&self, path: String) -> AsyncTask<Job<Bytes>> {
                let s = self.inner.clone();
                Job::new(move || s.read(&path).napi().map(Bytes))
            }

            #[napi(ts_return_type = "Buffer")]
            pub fn read_bytes_sync<'env>(
                &self,
                env: &'env Env,
                path: String,
            ) -> napi::Result<BufferSlice<'env>> {
                crate::task::buffer(env, self.inner.read(&path).napi()?)
            }

            /// The file's bytes, read into `scratch` when they fit (their
            /// length is returned), else into a `Buffer` of their own: the
            /// JavaScript layer's `readFileSync`, which copies them into a
            /// `Buffer` from Node's pool (see docs/PERFORMANCE.md). As
            /// `fs.readFileSync`, the length is the file's at the open
            /// (`fstat`), read with one `read` when it fits.
            #[napi(ts_return_type = "number | Buffer")]
            pub fn read_into_sync<'env>(
                &self,
                env: &'env Env,
                path: String,
                mut scratch: BufferSlice<'env>,
            ) -> napi::Result<Either<u32, BufferSlice<'env>>> {
                let read = self
                    .inner
                    .read_with(&path, |file, len| {
                        crate::file::read_sized(file, len, &mut scratch)
                    })
                    .napi()?;
                match read {
                    Either::A(n) => Ok(Either::A(n as u32)),
                    Either::B(data) => BufferSlice::copy_from(env, data).map(Either::B),
                }
            }

            #[napi(ts_return_type = "Promise<string>")]
            pub fn read_text(&self, path: String) -> AsyncTask<Job<String>> {
                let s = self.inner.clone();
                Job::new(move || text(s.read(&path).napi()?))
            }

            #[napi]
            pub fn read_text_sync(&self, path: String) -> napi::Result<String> {
                text(self.inner.read(&path).napi()?)
            }

            #[napi(ts_return_type = "Promise<void>")]
            pub fn write_file(
                &self,
                path: String,
                data: Either<String, Buffer>,
            ) -> AsyncTask<Job<()>> {
                let s = self.inner.clone();
                let data = bytes(data);
                Job::new(move || s.write_atomic(&path, &data).napi())
            }

            #[napi]
            pub fn write_file_sync(
                &self,
                path: String,
                data: Either<String, Buffer>,
            ) -> napi::Result<()> {
                self.inner.write_atomic(&path, &bytes(data)).napi()
            }

            #[napi(ts_return_type = "Promise<DirEntry[]>")]
            pub fn readdir(&self, path: String) -> AsyncTask<Job<Vec<DirEntry>>> {
                let s = self.inner.clone();
                Job::new(move || s.read_dir(&path).napi())
            }

            #[napi]
            pub fn readdir_sync(&self, path: String) -> napi::Result<Vec<DirEntry>> {
                self.inner.read_dir(&path).napi()
            }

            #[napi(ts_return_type = "Promise<WalkResult>")]
            pub fn walk(
                &self,
                path: String,
                max_depth: f64,
                max_entries: f64,
            ) -> napi::Result<AsyncTask<Job<WalkResult>>> {
                let s = self.inner.clone();
                let limits = crate::values::walk_limits(max_depth, max_entries)?;
                Ok(Job::new(move || {
                    s.walk(&path, limits).napi().map(WalkResult::collect)
                }))
            }

            #[napi]
            pub fn walk_sync(
                &self,
                path: String,
                max_depth: f64,
                max_entries: f64,
            ) -> napi::Result<WalkResult> {
                let limits = crate::values::walk_limits(max_depth, max_entries)?;
                self.inner
                    .walk(&path, limits)
                    .napi()
                    .map(WalkResult::collect)
            }

            #[napi(ts_return_type = "Promise<Stat>")]
            pub fn stat(&self, path: String) -> AsyncTask<Job<Stat>> {
                let s = self.inner.clone();
                Job::new(move || s.metadata(&path).napi().map(|m| Stat::new(&m)))
            }

            #[napi]
            pub fn stat_sync(&self, path: String) -> napi::Result<Stat> {
                self.inner.metadata(&path).napi().map(|m| Stat::new(&m))
            }

            #[napi(ts_return_type = "Promise<void>")]
            pub fn mkdir(&self, path: String, recursive: Option<bool>) -> AsyncTask<Job<()>> {
                let s = self.inner.clone();
                Job::new(move || s.mkdir(&path, recursive.unwrap_or(false)).napi())
            }

            #[napi]
            pub fn mkdir_sync(&self, path: String, recursive: Option<bool>) -> napi::Result<()> {
                self.inner.mkdir(&path, recursive.unwrap_or(false)).napi()
            }

            #[napi(ts_return_type = "Promise<void>")]
            pub fn unlink(&self, path: String) -> AsyncTask<Job<()>> {
                let s = self.inner.clone();
                Job::new(move || s.remove(&path, false).napi())
            }

            #[napi]
            pub fn unlink_sync(&self, path: String) -> napi::Result<()> {
                self.inner.remove(&path, false).napi()
            }

            #[napi(ts_return_type = "Promise<void>")]
            pub fn rmdir(&self, path: String) -> AsyncTask<Job<()>> {
                let s = self.inner.clone();
                Job::new(move || s.remove(&path, true).napi())
            }

            #[napi]
            pub fn rmdir_sync(&self, path: String) -> napi::Result<()> {
                self.inner.remove(&path, true).napi()
            }

            #[napi(ts_return_type = "Promise<void>")]
            pub fn rename(
                &self,
                from: String,
                to: String,
                replace: Option<bool>,
            ) -> AsyncTask<Job<()>> {
                let s = self.inner.clone();
                Job::new(move || s.rename(&from, &to, overwrite(replace)).napi())
            }

            #[napi]
            pub fn rename_sync(
                &self,
                from: String,
                to: String,
                replace: Option<bool>,
            ) -> napi::Result<()> {
                self.inner.rename(&from, &to, overwrite(replace)).napi()
            }

            #[napi(ts_return_type = "Promise<number>")]
            pub fn copy_file(&self, from: String, to: String) -> AsyncTask<Job<f64>> {
                let s = self.inner.clone();
                Job::new(move || s.copy(&from, &to).napi().map(|n| n as f64))
            }

            #[napi]
            pub fn copy_file_sync(&self, from: String, to: String) -> napi::Result<f64> {
                self.inner.copy(&from, &to).napi().map(|n| n as f64)
            }

            #[napi(ts_return_type = "Promise<ResolvedPath>")]
            pub fn resolve(&self, path: String) -> AsyncTask<Job<ResolvedPath>> {
                let s = self.inner.clone();
                Job::new(move || s.resolve(&path).napi().map(|p| ResolvedPath::new(&p)))
            }

            #[napi]
            pub fn resolve_sync(&self, path: String) -> napi::Result<ResolvedPath> {
                self.inner
                    .resolve(&path)
                    .napi()
                    .map(|p| ResolvedPath::new(&p))
            }
        }
    };
}

fn overwrite(replace: Option<bool>) -> mcp_roots::Overwrite {
    if replace.unwrap_or(false) {
        mcp_roots::Overwrite::Replace
    } else {
        mcp_roots::Overwrite::Refuse
    }
}

/// UTF-8 bytes as a string, or a typed `TypeError`-style failure.
fn text(data: Vec<u8>) -> napi::Result<String> {
    String::from_utf8(data)
        .map_err(|_| napi::Error::new(Status::InvalidArg, "the file is not valid UTF-8"))
}

operations!(Roots);
operations!(RootSet);
