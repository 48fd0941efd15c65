//! Finding the root for an absolute path by path components
//! ([semantics 5](crate::semantics#5-containment-and-the-choice-of-root)):
//! one hash lookup per depth at which some root sits, shortest first, so
//! the outermost root wins and the cost grows with the input's depth, not
//! with the number of roots. No allocation for a clean input.
//!
//! A root on a volume that compares names case-insensitively (Windows, a
//! macOS volume that says so) is keyed by its folded path
//! ([`fold`]), and an input is folded
//! component by component to find it; everything after the chosen root is
//! still resolved by the kernel beneath the root's handle.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

use crate::parse::lexical::{components, fold, is_clean};
use crate::sys::Folding;

/// Root paths (as given and resolved, cleaned) mapped to root indices:
/// byte for byte, and folded for the roots on volumes that fold names.
#[derive(Clone, Debug, Default)]
pub(crate) struct PathIndex {
    exact: Keys,
    /// One table per folding in use (at most two), keys folded.
    folded: Vec<(Folding, Keys)>,
}

/// The keys of one folding.
#[derive(Clone, Debug, Default)]
struct Keys {
    by_path: HashMap<Box<str>, usize, FastState>,
    /// `depths[d]` is true when some key has `d` components.
    depths: Vec<bool>,
    /// For small sets: the keys, outermost first, for a plain prefix test.
    small: Vec<(Box<str>, usize, usize)>,
}

/// Up to this many keys, a clean input is matched by a prefix test per key.
const SMALL: usize = 8;

impl PathIndex {
    /// Adds `key` (a clean absolute path: single slashes, no `.`/`..`, no
    /// trailing slash except for `/` itself) for root `index`, whose volume
    /// compares names as `folding` says. The first root to claim a key
    /// keeps it.
    pub(crate) fn insert(&mut self, key: &str, index: usize, folding: Folding) {
        debug_assert!(is_clean(key), "{key:?}");
        if folding == Folding::Exact {
            return self.exact.insert(key, index);
        }
        let folded: String = components(key)
            .flat_map(|c| ["/".into(), fold(c, folding)])
            .collect();
        let at = match self.folded.iter().position(|(f, _)| *f == folding) {
            Some(at) => at,
            None => {
                self.folded.push((folding, Keys::default()));
                self.folded.len() - 1
            }
        };
        let folded = if folded.is_empty() { "/" } else { &folded };
        self.folded[at].1.insert(folded, index);
    }

    /// Whether no key was inserted.
    pub(crate) fn is_empty(&self) -> bool {
        self.exact.by_path.is_empty() && self.folded.is_empty()
    }

    /// The outermost root whose key is a component prefix of `path`, and the
    /// rest of `path` after that prefix (starting with `/`, or empty).
    ///
    /// `.` components and repeated slashes in the prefix are skipped; a `..`
    /// ends the search (a root is never matched through `..`). Between a
    /// byte-for-byte match and a folded one, the shorter prefix wins (the
    /// longer rest), then the root listed first.
    pub(crate) fn locate<'p>(&self, path: &'p str) -> Option<(usize, &'p str)> {
        let mut best = self.exact.locate(path);
        for (folding, keys) in &self.folded {
            if let Some((index, rest)) = keys.locate_folded(path, *folding) {
                best = match best {
                    Some((i, r))
                        if (r.len(), usize::MAX - i) >= (rest.len(), usize::MAX - index) =>
                    {
                        Some((i, r))
                    }
                    _ => Some((index, rest)),
                };
            }
        }
        best
    }
}

impl Keys {
    fn insert(&mut self, key: &str, index: usize) {
        let depth = components(key).count();
        if self.depths.len() <= depth {
            self.depths.resize(depth + 1, false);
        }
        self.depths[depth] = true;
        if let std::collections::hash_map::Entry::Vacant(slot) = self.by_path.entry(key.into()) {
            slot.insert(index);
            let at = self.small.partition_point(|(_, d, _)| *d <= depth);
            self.small.insert(at, (key.into(), depth, index));
        }
    }

    /// [`PathIndex::locate`] among keys compared byte for byte.
    fn locate<'p>(&self, path: &'p str) -> Option<(usize, &'p str)> {
        if self.by_path.is_empty() {
            return None;
        }
        if self.by_path.len() <= SMALL {
            // A key that is a plain prefix ending at a component boundary;
            // the outermost such key comes first. Inputs with `//`, `/./`
            // or `..` before a root take the general path below.
            for (key, _, index) in &self.small {
                if &**key == "/" {
                    return Some((*index, path));
                }
                if let Some(rest) = path.strip_prefix(&**key)
                    && (rest.is_empty() || rest.starts_with('/'))
                {
                    return Some((*index, rest));
                }
            }
        }
        if self.depths.first() == Some(&true)
            && let Some(&index) = self.by_path.get("/")
        {
            return Some((index, path));
        }
        let max_depth = self.depths.len().checked_sub(1)?;
        let mut depth = 0;
        // The key is a slice of `path` while the prefix is clean, then an
        // owned rebuild (only for inputs with `//` or `/./` before the root).
        let mut clean_end = 0;
        let mut rebuilt: Option<String> = None;
        let mut pos = 0;
        while depth < max_depth {
            let (start, end) = next_component(path, pos)?;
            let component = &path[start..end];
            pos = end;
            match component {
                "." => {
                    rebuilt.get_or_insert_with(|| path[..clean_end].to_owned());
                    continue;
                }
                ".." => return None,
                _ => {}
            }
            depth += 1;
            let key = match rebuilt.as_mut() {
                None if start == clean_end + 1 => {
                    clean_end = end;
                    &path[..end]
                }
                _ => {
                    let buf = rebuilt.get_or_insert_with(|| path[..clean_end].to_owned());
                    buf.push('/');
                    buf.push_str(component);
                    buf.as_str()
                }
            };
            if self.depths[depth]
                && let Some(&index) = self.by_path.get(key)
            {
                return Some((index, &path[end..]));
            }
        }
        None
    }

    /// [`PathIndex::locate`] among folded keys: the input's components are
    /// folded one by one as the prefix grows.
    fn locate_folded<'p>(&self, path: &'p str, folding: Folding) -> Option<(usize, &'p str)> {
        if let Some(&index) = self.by_path.get("/") {
            return Some((index, path));
        }
        let max_depth = self.depths.len().checked_sub(1)?;
        let mut key = String::with_capacity(path.len());
        let (mut depth, mut pos) = (0, 0);
        while depth < max_depth {
            let (start, end) = next_component(path, pos)?;
            pos = end;
            match &path[start..end] {
                "." => continue,
                ".." => return None,
                component => {
                    depth += 1;
                    key.push('/');
                    key.push_str(&fold(component, folding));
                }
            }
            if self.depths[depth]
                && let Some(&index) = self.by_path.get(key.as_str())
            {
                return Some((index, &path[end..]));
            }
        }
        None
    }
}

/// Where the next component of `path` at or after `pos` starts and ends
/// (`None`: only slashes are left).
fn next_component(path: &str, pos: usize) -> Option<(usize, usize)> {
    let bytes = path.as_bytes();
    let start = pos + bytes[pos..].iter().position(|&b| b != b'/')?;
    let end = start
        + bytes[start..]
            .iter()
            .position(|&b| b == b'/')
            .unwrap_or(bytes.len() - start);
    Some((start, end))
}

/// A fast hash for root paths, seeded per process. Only the client's roots
/// are keys; inputs only look up, so a weak hash cannot be flooded by them.
#[derive(Clone, Debug)]
pub(crate) struct FastState(u64);

impl Default for FastState {
    fn default() -> Self {
        static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
        Self(*SEED.get_or_init(|| std::collections::hash_map::RandomState::new().hash_one(0u8)))
    }
}

impl BuildHasher for FastState {
    type Hasher = FastHasher;
    fn build_hasher(&self) -> FastHasher {
        FastHasher(self.0)
    }
}

/// FxHash's mixing, eight bytes at a time.
#[derive(Debug)]
pub(crate) struct FastHasher(u64);

const K: u64 = 0xf135_7aea_2e62_a9c5;

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().unwrap()));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last));
        }
    }

    fn write_u8(&mut self, b: u8) {
        self.add(u64::from(b));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn finish(&self) -> u64 {
        // hashbrown takes its control bits from the top: fold the low ones in.
        self.0.rotate_left(26)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(keys: &[&str]) -> PathIndex {
        folded(keys, Folding::Exact)
    }

    fn folded(keys: &[&str], folding: Folding) -> PathIndex {
        let mut index = PathIndex::default();
        for (i, key) in keys.iter().enumerate() {
            index.insert(key, i, folding);
        }
        index
    }

    #[test]
    fn outermost_component_prefix_wins() {
        for folding in [Folding::Exact, Folding::Case, Folding::CaseAndNormalization] {
            let ix = folded(&["/t/a/sub", "/t/a"], folding);
            assert_eq!(ix.locate("/t/a/sub/y"), Some((1, "/sub/y")));
            assert_eq!(ix.locate("/t/a"), Some((1, "")));
            assert_eq!(ix.locate("/t/a/"), Some((1, "/")));
            assert_eq!(ix.locate("/t/a_evil/x"), None);
            assert_eq!(ix.locate("/t/ab"), None);
            assert_eq!(ix.locate("/t"), None);
            assert_eq!(ix.locate("/t/../t/a/x"), None);
        }
    }

    #[test]
    fn unclean_prefixes_are_rebuilt() {
        for folding in [Folding::Exact, Folding::Case] {
            let ix = folded(&["/t/a"], folding);
            assert_eq!(ix.locate("//t/./a/./x"), Some((0, "/./x")));
            assert_eq!(ix.locate("/t//a//x"), Some((0, "//x")));
            assert_eq!(ix.locate("/t/a/../x"), Some((0, "/../x")));
        }
    }

    #[test]
    fn filesystem_root_matches_everything() {
        for folding in [Folding::Exact, Folding::Case] {
            let ix = folded(&["/"], folding);
            assert_eq!(ix.locate("/etc/x"), Some((0, "/etc/x")));
        }
    }

    #[test]
    fn a_case_sensitive_volume_matches_byte_for_byte() {
        let ix = index(&["/C:/Users/a"]);
        assert_eq!(ix.locate("/C:/Users/a/x"), Some((0, "/x")));
        assert_eq!(ix.locate("/C:/users/A/x"), None);
        assert_eq!(ix.locate("/C:/USERS/a"), None);
    }

    #[test]
    fn a_case_insensitive_volume_matches_any_case() {
        let ix = folded(&["/C:/Users/a", "/UNC/Server/Share"], Folding::Case);
        // The rest is the input's own spelling: the kernel resolves it.
        assert_eq!(ix.locate("/C:/users/A/X.md"), Some((0, "/X.md")));
        assert_eq!(ix.locate("/C:/USERS/a"), Some((0, "")));
        assert_eq!(ix.locate("/C://Users/./A/x"), Some((0, "/x")));
        assert_eq!(ix.locate("/UNC/server/SHARE/x"), Some((1, "/x")));
        assert_eq!(ix.locate("/C:/Users/ab"), None);
        assert_eq!(ix.locate("/C:/Users/b/../a"), None);
        // Case only: NFD is another name on Windows.
        let ix = folded(&["/C:/caf\u{e9}"], Folding::Case);
        assert_eq!(ix.locate("/C:/CAF\u{c9}/x"), Some((0, "/x")));
        assert_eq!(ix.locate("/C:/cafe\u{301}/x"), None);
    }

    #[test]
    fn a_normalization_insensitive_volume_matches_nfc_and_nfd() {
        let ix = folded(&["/Users/a/caf\u{e9}"], Folding::CaseAndNormalization);
        assert_eq!(ix.locate("/Users/a/cafe\u{301}/x"), Some((0, "/x")));
        assert_eq!(ix.locate("/users/A/CAFE\u{301}"), Some((0, "")));
        assert_eq!(ix.locate("/Users/a/cafe/x"), None);
    }

    #[test]
    fn exact_and_folded_roots_share_the_outermost_rule() {
        // A root on a case-sensitive volume mounted beneath a folded one,
        // and the other way round: the shorter prefix wins either way.
        let mut ix = PathIndex::default();
        ix.insert("/Volumes/cs/inner", 0, Folding::Exact);
        ix.insert("/Volumes/cs", 1, Folding::CaseAndNormalization);
        assert_eq!(ix.locate("/Volumes/cs/inner/x"), Some((1, "/inner/x")));
        assert_eq!(ix.locate("/volumes/CS/inner/x"), Some((1, "/inner/x")));
        let mut ix = PathIndex::default();
        ix.insert("/a", 0, Folding::Exact);
        ix.insert("/A/b", 1, Folding::Case);
        assert_eq!(ix.locate("/a/b/x"), Some((0, "/b/x")));
        assert_eq!(ix.locate("/A/B/x"), Some((1, "/x")));
        // The same key twice: the root listed first.
        let mut ix = PathIndex::default();
        ix.insert("/a", 0, Folding::Case);
        ix.insert("/a", 1, Folding::Exact);
        assert_eq!(ix.locate("/a/x"), Some((0, "/x")));
    }
}
