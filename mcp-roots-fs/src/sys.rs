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

/// The number of hard links to the file (2.3.0's `hardLinks`).
#[cfg(unix)]
pub(crate) fn hard_links(meta: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    meta.nlink()
}

/// Without Unix link counts in the standard library's stable metadata:
/// one name, as Node reports for most files there.
#[cfg(not(unix))]
pub(crate) fn hard_links(_meta: &std::fs::Metadata) -> u64 {
    1
}
