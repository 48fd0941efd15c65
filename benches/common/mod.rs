//! The fixtures the benches share: the deep target tree and file URIs.
#![allow(dead_code)] // each bench uses its own part

use std::fs;
use std::path::{Path, PathBuf};

/// How many directories lie between a root and its target file.
pub(crate) const DEPTH: usize = 10;

/// `root/d1/…/d10/f.txt` under `parent`; returns (root, file) paths.
pub(crate) fn deep_tree(parent: &Path, root_name: &str) -> (PathBuf, PathBuf) {
    let root = parent.join(root_name);
    let mut dir = root.clone();
    for i in 1..=DEPTH {
        dir.push(format!("d{i}"));
    }
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("f.txt");
    fs::write(&file, "hello\n").unwrap();
    (root, file)
}

/// The `file://` URI of a temporary path (which needs no percent-encoding).
pub(crate) fn uri_of(path: &Path) -> String {
    let path = path.to_str().expect("tempdir path is UTF-8");
    assert!(
        path.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-".contains(&b)),
        "tempdir path needs no percent-encoding: {path}"
    );
    format!("file://{path}")
}
