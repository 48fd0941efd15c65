//! One napi `AsyncTask` for every promise method: the library call runs on
//! libuv's thread pool, its value is converted on the JavaScript thread.

use napi::bindgen_prelude::*;

/// A value computed off the event loop and converted on it.
pub trait IntoJs: Send + 'static {
    type Js: ToNapiValue + TypeName;
    fn into_js(self) -> Self::Js;
}

/// Below this size a `Buffer` is a copy in memory the engine allocates
/// (cheap); above it, the `Vec` itself, handed over with a finaliser (no
/// copy).
const COPY_BELOW: usize = 64 * 1024;

/// Bytes read, as a `Buffer` on the calling thread.
pub(crate) fn buffer(env: &Env, data: Vec<u8>) -> napi::Result<BufferSlice<'_>> {
    if data.len() < COPY_BELOW {
        BufferSlice::copy_from(env, &data)
    } else {
        BufferSlice::from_data(env, data)
    }
}

/// Bytes read, handed to JavaScript as a `Buffer`.
pub struct Bytes(pub Vec<u8>);

impl IntoJs for Bytes {
    type Js = Buffer;
    fn into_js(self) -> Buffer {
        self.0.into()
    }
}

macro_rules! as_is {
    ($($t:ty),*) => {$(
        impl IntoJs for $t {
            type Js = $t;
            fn into_js(self) -> $t {
                self
            }
        }
    )*};
}

as_is!(
    (),
    crate::file::FileHandle,
    String,
    u32,
    f64,
    crate::values::Stat,
    crate::values::ResolvedPath,
    crate::values::WalkResult,
    Vec<crate::values::DirEntry>
);

/// A library call to run off the event loop.
pub struct Job<T: IntoJs> {
    work: Option<Box<dyn FnOnce() -> napi::Result<T> + Send>>,
}

impl<T: IntoJs> Job<T> {
    pub(crate) fn new(work: impl FnOnce() -> napi::Result<T> + Send + 'static) -> AsyncTask<Self> {
        AsyncTask::new(Self {
            work: Some(Box::new(work)),
        })
    }
}

impl<T: IntoJs> Task for Job<T> {
    type Output = T;
    type JsValue = T::Js;

    fn compute(&mut self) -> napi::Result<T> {
        match self.work.take() {
            Some(work) => work(),
            None => Err(napi::Error::from_reason("the task ran twice")),
        }
    }

    fn resolve(&mut self, _env: Env, output: T) -> napi::Result<T::Js> {
        Ok(output.into_js())
    }
}
