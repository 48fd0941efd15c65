//! Pure path work, no I/O: the components of an absolute path, and the
//! cleaned form used as a lookup key. Never used to resolve a raw path (the
//! kernel does that); only to compare roots and inputs by components.

pub(crate) fn components(path: &str) -> impl Iterator<Item = &str> {
    path.split('/').filter(|c| !c.is_empty())
}

pub(crate) fn is_clean(key: &str) -> bool {
    key == "/"
        || (key.starts_with('/')
            && key[1..]
                .split('/')
                .all(|c| !c.is_empty() && c != "." && c != ".."))
}

/// `path` with `.` and empty components removed and no trailing slash, or
/// `None` when it has a `..` component (which only the disk can resolve).
pub(crate) fn clean_key(path: &str) -> Option<String> {
    let mut key = String::with_capacity(path.len());
    for component in components(path) {
        match component {
            "." => {}
            ".." => return None,
            _ => {
                key.push('/');
                key.push_str(component);
            }
        }
    }
    if key.is_empty() {
        key.push('/');
    }
    Some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_keys() {
        assert_eq!(clean_key("/a/./b//c/").as_deref(), Some("/a/b/c"));
        assert_eq!(clean_key("/").as_deref(), Some("/"));
        assert_eq!(clean_key("/a/../b"), None);
        assert!(is_clean("/a/b") && is_clean("/") && !is_clean("/a/") && !is_clean("/a/./b"));
    }
}
