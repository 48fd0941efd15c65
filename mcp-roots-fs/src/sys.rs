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
