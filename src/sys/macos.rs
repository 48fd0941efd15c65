//! macOS: how a volume compares names, asked of the open root directory
//! (`fpathconf(_PC_CASE_SENSITIVE)`; rustix has no `pathconf`), and the
//! path of a descriptor (`fcntl(F_GETPATH)`, through rustix).

// The one `unsafe` call of this module is `fpathconf`, documented below.
#![allow(unsafe_code)]

use std::io;
use std::os::fd::{AsFd, AsRawFd};
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;

use cap_std::fs::Dir;

use super::Folding;

/// How the volume holding `dir` compares names: a volume that says it is
/// case-insensitive (APFS and HFS+ by default) is taken to be insensitive
/// to Unicode normalisation too ([`Folding::CaseAndNormalization`]); any
/// other answer, an error included, is byte for byte, so a spelling that
/// differs from the root's is refused rather than guessed.
pub(crate) fn folding(dir: &Dir) -> Folding {
    // SAFETY: `fpathconf` takes a descriptor and a constant and touches no
    // memory of ours; the descriptor is borrowed from `dir`, which stays
    // open for the whole call. An invalid descriptor would only make it
    // return -1 (`EBADF`).
    let answer = unsafe { libc::fpathconf(dir.as_raw_fd(), libc::_PC_CASE_SENSITIVE) };
    if answer == 0 {
        Folding::CaseAndNormalization
    } else {
        Folding::Exact
    }
}

/// The path the kernel reports for an open descriptor now
/// (`fcntl(F_GETPATH)`): for a file with several hard links, one of them;
/// a removed file has none.
pub(crate) fn fd_path(file: &impl AsFd) -> io::Result<PathBuf> {
    let path = rustix::fs::getpath(file)?;
    Ok(PathBuf::from(std::ffi::OsString::from_vec(
        path.into_bytes(),
    )))
}
