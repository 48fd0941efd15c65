//! One napi `AsyncTask` for every promise method: the library call runs on
//! libuv's thread pool, its value is converted on the JavaScript thread.

use napi::bindgen_prelude::*;

/// A value computed off the event loop and converted on it.
pub trait IntoJs: Send + 'static {
    type Js: ToNapiValue + TypeName;
    fn into_js(self) -> Self::Js;
}

/// Bytes read, as a `Buffer` holding a copy, on the calling thread: never
/// an external buffer (Electron's sandbox refuses them).
pub(crate) fn buffer(env: &Env, data: Vec<u8>) -> napi::Result<BufferSlice<'_>> {
    BufferSlice::copy_from(env, data)
}

/// Bytes read, handed to JavaScript as a `Buffer` holding a copy (as
/// [`buffer`]).
pub struct Bytes(pub Vec<u8>);

impl TypeName for Bytes {
    fn type_name() -> &'static str {
        "Buffer"
    }

    fn value_type() -> ValueType {
        ValueType::Object
    }
}

impl ToNapiValue for Bytes {
    unsafe fn to_napi_value(
        env: napi::sys::napi_env,
        val: Self,
    ) -> napi::Result<napi::sys::napi_value> {
        let env = Env::from_raw(env);
        let copy = BufferSlice::copy_from(&env, val.0)?;
        // SAFETY: `env` is the environment napi passed in, and `copy` was
        // created in it just above.
        unsafe { <&BufferSlice>::to_napi_value(env.raw(), &copy) }
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
    Bytes,
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
