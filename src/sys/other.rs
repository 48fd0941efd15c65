//! Platforms without the Unix `*at` calls: every mutation is unsupported
//! (roots are rejected there anyway; see the facade's docs).

use std::fs::File;
use std::io;

use super::{Kind, Stat};

/// The longest path taken, in bytes (the extended-length limit; roots are
/// rejected on this platform anyway).
pub(crate) const PATH_MAX: usize = 32_767;
/// The longest name (one path component), in bytes.
pub(crate) const NAME_MAX: usize = 255;

fn unsupported<T>() -> io::Result<T> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "this operation is implemented on Unix only",
    ))
}

pub(crate) fn mkdir_at<D>(_: &D, _: &str) -> io::Result<()> {
    unsupported()
}

pub(crate) fn unlink_at<D>(_: &D, _: &str, _: Kind) -> io::Result<()> {
    unsupported()
}

pub(crate) fn rename_at<D, E>(_: &D, _: &str, _: &E, _: &str, _: bool) -> io::Result<()> {
    unsupported()
}

pub(crate) fn lstat_at<D>(_: &D, _: &str) -> io::Result<Option<Stat>> {
    unsupported()
}

pub(crate) fn set_mode(_: &File, _: u32) -> io::Result<()> {
    unsupported()
}

pub(crate) fn link_count(_: &File) -> io::Result<u64> {
    unsupported()
}
