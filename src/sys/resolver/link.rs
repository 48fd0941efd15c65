//! Symlinks met during a resolution: telling a link from what it is not,
//! reading its body, and refusing the `/proc` "magic" links that
//! `RESOLVE_NO_MAGICLINKS` refuses.

use std::os::fd::AsFd;

use rustix::fs::{AtFlags, FileType};
use rustix::io::Errno;

/// The body of `dir/name` if it is a symlink now (`None` otherwise).
/// A link swapped in or out after the open that hinted at it only changes
/// which answer the resolution gives, never where it may lead: the body is
/// resolved under the same rules.
pub(super) fn body_at(dir: impl AsFd, name: &[u8]) -> rustix::io::Result<Option<Vec<u8>>> {
    let stat = rustix::fs::statat(&dir, name, AtFlags::SYMLINK_NOFOLLOW)?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::Symlink {
        return Ok(None);
    }
    match rustix::fs::readlinkat(&dir, name, Vec::new()) {
        Ok(body) => Ok(Some(body.into_bytes())),
        // No longer a link: the name is what it is now.
        Err(Errno::INVAL) => Ok(None),
        Err(errno) => Err(errno),
    }
}

/// The body of the symlink that the location handle `link` refers to
/// (opened with `O_PATH | O_NOFOLLOW`, so it cannot be swapped).
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(super) fn body_of(link: impl AsFd) -> rustix::io::Result<Vec<u8>> {
    Ok(rustix::fs::readlinkat(link, "", Vec::new())?.into_bytes())
}

/// Whether the link `body`, found in `dir`, is one of procfs's magic links
/// (`/proc/<pid>/fd/*`, `exe`, `cwd`, `root`, `ns/*`, `map_files/*`), which
/// jump to an object rather than name a path. They exist only on procfs,
/// and their bodies are absolute paths or `type:[id]` words, while procfs's
/// ordinary links (`self`, `thread-self`, `mounts`, `net`) are relative
/// paths without a colon.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(super) fn is_magic(dir: impl AsFd, body: &[u8]) -> rustix::io::Result<bool> {
    if body.first() != Some(&b'/') && !body.contains(&b':') {
        return Ok(false);
    }
    Ok(rustix::fs::fstatfs(dir)?.f_type == rustix::fs::PROC_SUPER_MAGIC)
}

/// Magic links exist on Linux's procfs only.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(super) fn is_magic(_dir: impl AsFd, _body: &[u8]) -> rustix::io::Result<bool> {
    Ok(false)
}
