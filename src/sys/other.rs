//! Platforms without the Unix `*at` calls: every mutation is unsupported
//! (roots are rejected there anyway; see the facade's docs).

use std::fs::File;
use std::io;

use super::Kind;

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

pub(crate) fn lstat_at<D>(_: &D, _: &str) -> io::Result<Option<(Kind, u32, bool)>> {
    unsupported()
}

pub(crate) fn set_mode(_: &File, _: u32) -> io::Result<()> {
    unsupported()
}

pub(crate) fn link_count(_: &File) -> io::Result<u64> {
    unsupported()
}
