//! What the tools need of the platform, behind one facade: the only
//! module besides the stdio transport that tests a platform in a `cfg`.

/// The permission bits in octal, as the original shows them (`644`).
#[cfg(unix)]
pub(crate) fn permissions(meta: &std::fs::Metadata) -> String {
    use std::os::unix::fs::PermissionsExt;
    format!("{:03o}", meta.permissions().mode() & 0o777)
}

/// Without Unix modes: Node's numbers (read-only files lose the write bits).
#[cfg(not(unix))]
pub(crate) fn permissions(meta: &std::fs::Metadata) -> String {
    if meta.permissions().readonly() {
        "444"
    } else {
        "666"
    }
    .to_owned()
}

/// The number of hard links to the file (2.3.0's `hardLinks`): from the
/// metadata already read.
#[cfg(unix)]
pub(crate) fn hard_links(
    _snap: &mcp_roots::Snapshot<'_>,
    _path: &str,
    meta: &std::fs::Metadata,
) -> Result<u64, mcp_roots::Error> {
    use std::os::unix::fs::MetadataExt;
    Ok(meta.nlink())
}

/// The standard library's metadata has no stable link count on Windows:
/// the core reads it from a handle opened beneath the root, as Node reads
/// it (`GetFileInformationByHandle`).
#[cfg(not(unix))]
pub(crate) fn hard_links(
    snap: &mcp_roots::Snapshot<'_>,
    path: &str,
    _meta: &std::fs::Metadata,
) -> Result<u64, mcp_roots::Error> {
    snap.link_count(path)
}

/// The name of an errno value as Node reports it (`EACCES`), or its
/// number.
#[cfg(unix)]
pub(crate) fn errno_name(code: i32) -> String {
    let name = match code {
        libc::EACCES => "EACCES",
        libc::EPERM => "EPERM",
        libc::ENOENT => "ENOENT",
        libc::ENOTDIR => "ENOTDIR",
        libc::ELOOP => "ELOOP",
        libc::EMFILE => "EMFILE",
        libc::ENFILE => "ENFILE",
        libc::EIO => "EIO",
        libc::ENAMETOOLONG => "ENAMETOOLONG",
        libc::EXDEV => "EXDEV",
        libc::ENOMEM => "ENOMEM",
        _ => return format!("errno {code}"),
    };
    name.to_owned()
}

/// Node's name for a Windows error code, as libuv maps the common ones
/// (access denied is `EPERM` there), or its number.
#[cfg(not(unix))]
pub(crate) fn errno_name(code: i32) -> String {
    let name = match code {
        // ERROR_FILE_NOT_FOUND, ERROR_PATH_NOT_FOUND
        2 | 3 => "ENOENT",
        // ERROR_TOO_MANY_OPEN_FILES
        4 => "EMFILE",
        // ERROR_ACCESS_DENIED
        5 => "EPERM",
        // ERROR_DIRECTORY
        267 => "ENOTDIR",
        _ => return format!("errno {code}"),
    };
    name.to_owned()
}

#[cfg(all(test, unix))]
mod tests {
    use crate::sys::errno_name;

    #[test]
    fn errno_names_are_node_s() {
        for (code, name) in [
            (libc::EACCES, "EACCES"),
            (libc::EPERM, "EPERM"),
            (libc::ENOENT, "ENOENT"),
            (libc::EIO, "EIO"),
            (libc::ELOOP, "ELOOP"),
        ] {
            assert_eq!(errno_name(code), name);
        }
        assert_eq!(errno_name(100_000), "errno 100000");
    }
}
