//! `FileHandle`: reads, writes and seeks through the library's handle (a
//! `TrackedFile` from live roots: after revocation every call fails with
//! `scope_lost`; a plain `File` from a fixed set).

use std::io::{Read, Seek, SeekFrom, Write};
use std::sync::{Arc, Mutex};

use napi::bindgen_prelude::*;
use napi_derive::napi;

use crate::errors::IntoNapi;
use crate::task::{Bytes, Job};
use crate::values::{ResolvedPath, Stat};

/// The handle behind a `FileHandle`.
pub(crate) enum Handle {
    Tracked(mcp_roots::TrackedFile),
    Plain(std::fs::File),
}

type Shared = Arc<Mutex<Option<Handle>>>;

fn with<T>(shared: &Shared, f: impl FnOnce(&mut Handle) -> napi::Result<T>) -> napi::Result<T> {
    let mut guard = shared.lock().unwrap_or_else(|e| e.into_inner());
    match guard.as_mut() {
        Some(h) => f(h),
        None => Err(napi::Error::new(
            Status::InvalidArg,
            "file handle is closed",
        )),
    }
}

fn io(h: &mut Handle) -> &mut dyn ReadWriteSeek {
    match h {
        Handle::Tracked(f) => f,
        Handle::Plain(f) => f,
    }
}

trait ReadWriteSeek: Read + Write + Seek {}
impl<T: Read + Write + Seek> ReadWriteSeek for T {}

fn read(shared: &Shared, length: Option<u32>, position: Option<f64>) -> napi::Result<Vec<u8>> {
    with(shared, |h| {
        if let Some(pos) = position {
            io(h).seek(SeekFrom::Start(pos as u64)).napi()?;
        }
        let mut buf = Vec::new();
        match length {
            None => {
                io(h).read_to_end(&mut buf).napi()?;
            }
            Some(n) => {
                buf.resize(n as usize, 0);
                let got = io(h).read(&mut buf).napi()?;
                buf.truncate(got);
            }
        }
        Ok(buf)
    })
}

fn write(shared: &Shared, data: &[u8], position: Option<f64>) -> napi::Result<u32> {
    with(shared, |h| {
        if let Some(pos) = position {
            io(h).seek(SeekFrom::Start(pos as u64)).napi()?;
        }
        io(h).write_all(data).napi()?;
        Ok(u32::try_from(data.len()).unwrap_or(u32::MAX))
    })
}

/// Reads the open `file` as `fs.readFileSync` does: as many bytes as its
/// length at the open (`len`, from the open's `fstat`), into `scratch`
/// when they fit (the count read is returned), else into a vector of that
/// capacity; a length of 0 (what some file systems report) reads to the
/// end.
pub(crate) fn read_sized(
    file: &mut std::fs::File,
    len: u64,
    scratch: &mut [u8],
) -> std::io::Result<Either<usize, Vec<u8>>> {
    let len = usize::try_from(len).unwrap_or(usize::MAX);
    if len == 0 || len > scratch.len() {
        let mut data = Vec::with_capacity(len);
        if len == 0 {
            file.read_to_end(&mut data)?;
        } else {
            Read::take(&mut *file, len as u64).read_to_end(&mut data)?;
        }
        return Ok(Either::B(data));
    }
    let into = &mut scratch[..len];
    let mut got = 0;
    while got < len {
        match file.read(&mut into[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(Either::A(got))
}

/// An open file beneath a root.
#[napi]
pub struct FileHandle {
    shared: Shared,
    path: String,
}

impl FileHandle {
    pub(crate) fn new(handle: Handle, path: String) -> Self {
        Self {
            shared: Arc::new(Mutex::new(Some(handle))),
            path,
        }
    }
}

/// Data to write: a string (UTF-8) or a Buffer.
pub(crate) fn bytes(data: Either<String, Buffer>) -> Vec<u8> {
    match data {
        Either::A(s) => s.into_bytes(),
        Either::B(b) => b.to_vec(),
    }
}

#[napi]
impl FileHandle {
    /// The input it was opened as.
    #[napi(getter)]
    pub fn path(&self) -> String {
        self.path.clone()
    }

    /// Reads up to `length` bytes (the rest of the file when omitted),
    /// from `position` when given.
    #[napi(ts_return_type = "Promise<Buffer>")]
    pub fn read(&self, length: Option<u32>, position: Option<f64>) -> AsyncTask<Job<Bytes>> {
        let shared = self.shared.clone();
        Job::new(move || read(&shared, length, position).map(Bytes))
    }

    #[napi(ts_return_type = "Buffer")]
    pub fn read_sync<'env>(
        &self,
        env: &'env Env,
        length: Option<u32>,
        position: Option<f64>,
    ) -> napi::Result<BufferSlice<'env>> {
        crate::task::buffer(env, read(&self.shared, length, position)?)
    }

    /// Writes all of `data` (at `position` when given); resolves to its length.
    #[napi(ts_return_type = "Promise<number>")]
    pub fn write(
        &self,
        data: Either<String, Buffer>,
        position: Option<f64>,
    ) -> AsyncTask<Job<u32>> {
        let shared = self.shared.clone();
        let data = bytes(data);
        Job::new(move || write(&shared, &data, position))
    }

    #[napi]
    pub fn write_sync(
        &self,
        data: Either<String, Buffer>,
        position: Option<f64>,
    ) -> napi::Result<u32> {
        write(&self.shared, &bytes(data), position)
    }

    /// Metadata from the open descriptor.
    #[napi]
    pub fn stat_sync(&self) -> napi::Result<Stat> {
        with(&self.shared, |h| match h {
            Handle::Tracked(f) => f.metadata().napi().map(|m| Stat::new(&m)),
            Handle::Plain(f) => f.metadata().napi().map(|m| Stat::new(&m)),
        })
    }

    /// Where the file is now, relative to its root (live roots only).
    #[napi]
    pub fn where_sync(&self) -> napi::Result<ResolvedPath> {
        with(&self.shared, |h| match h {
            Handle::Tracked(f) => f.path().napi().map(|p| ResolvedPath::new(&p)),
            Handle::Plain(_) => Err(napi::Error::new(
                Status::InvalidArg,
                "a file of a fixed RootSet is not tracked: use RootSet.resolve",
            )),
        })
    }

    /// Why the handle was revoked (`"scope_lost"`, `"read_only"`), or null.
    #[napi(getter)]
    pub fn revoked(&self) -> Option<String> {
        let guard = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        match guard.as_ref() {
            Some(Handle::Tracked(f)) => f.revoked().map(|k| k.reason().to_owned()),
            _ => None,
        }
    }

    /// Closes the descriptor.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn close(&self) -> AsyncTask<Job<()>> {
        let shared = self.shared.clone();
        Job::new(move || {
            shared.lock().unwrap_or_else(|e| e.into_inner()).take();
            Ok(())
        })
    }

    #[napi]
    pub fn close_sync(&self) {
        self.shared.lock().unwrap_or_else(|e| e.into_inner()).take();
    }
}
