//! The fixed tree every scenario uses: 10,000 sibling roots; the target
//! file is ten directories deep under the last one, and the first ten roots
//! hold the same deep file (for the rescan scenario).

use std::fs;
use std::path::{Path, PathBuf};

/// Number of sibling roots.
pub(crate) const ROOTS: usize = 10_000;
/// Directories between a root and its file.
pub(crate) const DEPTH: usize = 10;
/// Roots, from the first, that also hold the deep file.
pub(crate) const DEEP_PREFIX: usize = 10;
/// Entries of the listed directory.
pub(crate) const LIST_ENTRIES: usize = 32;

#[derive(Clone, Debug)]
pub(crate) struct Tree {
    pub(crate) top: PathBuf,
}

impl Tree {
    /// Builds the tree under `top` (an existing, canonical directory).
    pub(crate) fn create(top: &Path) -> Self {
        let tree = Self { top: top.into() };
        fs::create_dir_all(top.join("roots")).unwrap();
        for i in 0..ROOTS {
            fs::create_dir(tree.root(i)).unwrap();
        }
        for i in (0..DEEP_PREFIX).chain([ROOTS - 1]) {
            let file = tree.deep_file(i);
            fs::create_dir_all(file.parent().unwrap()).unwrap();
            fs::write(&file, "hello\n").unwrap();
        }
        for t in 0..2 {
            fs::write(tree.thread_file(t), "hello\n").unwrap();
        }
        let list = tree.list_dir();
        fs::create_dir(&list).unwrap();
        for i in 0..LIST_ENTRIES {
            fs::write(list.join(format!("entry-{i:02}.txt")), "x").unwrap();
        }
        tree
    }

    /// Only the last root and its target (for `--profile`).
    pub(crate) fn create_target(top: &Path) -> Self {
        let tree = Self { top: top.into() };
        let file = tree.target();
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        fs::write(&file, "hello\n").unwrap();
        tree
    }

    pub(crate) fn open(top: &Path) -> Self {
        Self { top: top.into() }
    }

    pub(crate) fn root(&self, i: usize) -> PathBuf {
        self.top.join("roots").join(format!("r{i:05}"))
    }

    /// The last root, which holds the target.
    pub(crate) fn target_root(&self) -> PathBuf {
        self.root(ROOTS - 1)
    }

    pub(crate) fn deep_dir(&self, i: usize) -> PathBuf {
        let mut dir = self.root(i);
        for d in 1..=DEPTH {
            dir.push(format!("d{d}"));
        }
        dir
    }

    pub(crate) fn deep_file(&self, i: usize) -> PathBuf {
        self.deep_dir(i).join("f.txt")
    }

    /// `roots/r09999/d1/…/d10/f.txt`.
    pub(crate) fn target(&self) -> PathBuf {
        self.deep_file(ROOTS - 1)
    }

    /// A file beside the target for thread `t` of the throughput scenario.
    pub(crate) fn thread_file(&self, t: usize) -> PathBuf {
        self.deep_dir(ROOTS - 1).join(format!("t{t}.txt"))
    }

    /// A directory beside the target with [`LIST_ENTRIES`] files.
    pub(crate) fn list_dir(&self) -> PathBuf {
        self.deep_dir(ROOTS - 1).join("list")
    }

    /// A fresh, empty directory beside the target for one scenario's writes.
    pub(crate) fn work_dir(&self, name: &str) -> PathBuf {
        let dir = self.deep_dir(ROOTS - 1).join(format!("work-{name}"));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir(&dir).unwrap();
        dir
    }
}

/// The `file://` URI of a path that needs no percent-encoding.
pub(crate) fn uri(path: &Path) -> String {
    let path = path.to_str().expect("UTF-8 path");
    assert!(
        path.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-".contains(&b)),
        "path needs no percent-encoding: {path}"
    );
    format!("file://{path}")
}

pub(crate) fn path_str(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}
