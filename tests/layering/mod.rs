//! The layering checker shared by the library's and the glue's
//! `tests/layers.rs`: every module of a crate's `src/` imports only from its
//! own layer or the layers below it, by module path (not through the crate
//! root's re-exports), and only the platform modules name a platform in a
//! `cfg`. Each crate gives its own [`Layout`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One crate's shape.
pub(crate) struct Layout {
    /// The top-level modules of `src/`, bottom first. A module may import
    /// from its own layer and the ones before it.
    pub(crate) layers: &'static [&'static str],
    /// Modules outside the layering: the crate root (a table of contents)
    /// and pages of documentation, which import nothing.
    pub(crate) outside: &'static [&'static str],
    /// The top-level modules that may test a platform in a `cfg` (none:
    /// no module may).
    pub(crate) platforms: &'static [&'static str],
}

/// Platform predicates that only [`Layout::platforms`] may test.
const PLATFORM_CFGS: &[&str] = &[
    "target_os",
    "target_family",
    "target_vendor",
    "unix",
    "windows",
];

pub(crate) struct Source {
    /// `src/`-relative path, for messages.
    pub(crate) path: PathBuf,
    /// The top-level module the file belongs to.
    pub(crate) top: String,
    pub(crate) text: String,
}

impl Source {
    /// A file at `path` (relative to `src/`) with `text`, for the
    /// checker's own tests.
    pub(crate) fn new(path: &str, text: &str) -> Self {
        let path = PathBuf::from(path);
        let first = path.components().next().expect("a component");
        let top = Path::new(first.as_os_str())
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        Self {
            path,
            top,
            text: text.into(),
        }
    }

    /// How deep the file's module is below the crate root (`x.rs` and
    /// `x/mod.rs` are 1, `x/y.rs` is 2).
    fn depth(&self) -> usize {
        let n = self.path.components().count();
        if self.path.file_name().is_some_and(|f| f == "mod.rs") {
            n - 1
        } else {
            n
        }
    }
}

/// Every `.rs` file under the crate directory's `src/`.
pub(crate) fn crate_sources(manifest_dir: &str) -> Vec<Source> {
    let src = Path::new(manifest_dir).join("src");
    let mut out = Vec::new();
    sources(&src, &src, &mut out);
    out
}

fn sources(dir: &Path, src: &Path, out: &mut Vec<Source>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read src/")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, src, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(src).expect("under src/");
            let text = std::fs::read_to_string(&path).expect("read a source file");
            out.push(Source::new(&rel.to_string_lossy(), &text));
        }
    }
}

/// The code of a file without comments (line comments and doc comments),
/// so that prose mentioning `crate::x` is not taken for an import; line
/// breaks are kept, so an offset still finds its line.
fn code_of(text: &str) -> String {
    let mut code = String::with_capacity(text.len());
    for line in text.lines() {
        code.push_str(match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        });
        code.push('\n');
    }
    code
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The first segment of each item of a `{…}` group that starts `group`
/// (nested groups and line breaks included).
fn group_heads(group: &str) -> Vec<&str> {
    let mut heads = Vec::new();
    let (mut depth, mut start) = (0usize, 1usize);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' | ',' if depth == 1 => {
                let head = group[start..i].trim().split("::").next().unwrap_or("");
                let head = head.trim();
                if !head.is_empty() {
                    heads.push(head);
                }
                start = i + 1;
                if c == '}' {
                    break;
                }
            }
            '}' => depth -= 1,
            _ => {}
        }
    }
    heads
}

/// Every module a file names from the crate root (`crate::name`, or a
/// `super::` chain that climbs to the root), with the line it is on.
fn root_paths<'a>(file: &Source, code: &'a str) -> Vec<(usize, &'a str)> {
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| is_ident(c) || c == '$') {
            continue; // `$crate::` is a macro's
        }
        let rest = &code[at + "crate::".len()..];
        if rest.starts_with('{') {
            found.extend(group_heads(rest).into_iter().map(|h| (line_of(at), h)));
        } else {
            let end = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
            found.push((line_of(at), &rest[..end]));
        }
    }
    let depth = file.depth();
    for (at, _) in code.match_indices("super::") {
        if code[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        if code[..at].ends_with("super::") {
            continue; // counted from the chain's first `super::`
        }
        let mut rest = &code[at..];
        let mut climbs = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            climbs += 1;
            rest = r;
        }
        if climbs < depth {
            continue; // still inside its own top-level module
        }
        if rest.starts_with('{') {
            found.extend(group_heads(rest).into_iter().map(|h| (line_of(at), h)));
        } else {
            let end = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
            if end > 0 {
                found.push((line_of(at), &rest[..end]));
            }
        }
    }
    found
}

/// The wrong-way imports, re-export imports and platform `cfg`s of `files`.
pub(crate) fn violations(layout: &Layout, files: &[Source]) -> Vec<String> {
    let rank: BTreeMap<&str, usize> = layout
        .layers
        .iter()
        .enumerate()
        .map(|(i, l)| (*l, i))
        .collect();
    let mut found = Vec::new();
    for file in files {
        let outside = layout.outside.contains(&file.top.as_str());
        let Some(&own) = rank
            .get(file.top.as_str())
            .or(outside.then_some(&usize::MAX))
        else {
            found.push(format!(
                "{}: module `{}` is in no layer: add it to the layers (and ARCHITECTURE.md)",
                file.path.display(),
                file.top
            ));
            continue;
        };
        let code = code_of(&file.text);
        if !layout.platforms.contains(&file.top.as_str()) {
            for (n, line) in code.lines().enumerate() {
                if PLATFORM_CFGS.iter().any(|p| is_platform_cfg(line, p)) {
                    found.push(format!(
                        "{}:{}: a platform cfg outside the platform module: {}",
                        file.path.display(),
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
        if outside {
            continue;
        }
        for (line, name) in root_paths(file, &code) {
            match rank.get(name) {
                Some(&theirs) if theirs > own => found.push(format!(
                    "{}:{line}: `{}` (layer {own}) imports from `{name}` (layer {theirs}), \
                     a layer above it",
                    file.path.display(),
                    file.top
                )),
                Some(_) => {}
                None if layout.outside.contains(&name) => {}
                None => found.push(format!(
                    "{}:{line}: `crate::{name}` goes through the crate root: import it by \
                     its module path",
                    file.path.display()
                )),
            }
        }
    }
    found
}

/// Whether `code` tests the platform predicate `predicate` in a `cfg`.
fn is_platform_cfg(code: &str, predicate: &str) -> bool {
    let Some(at) = code.find("cfg") else {
        return false;
    };
    let attr = &code[at..];
    attr.match_indices(predicate).any(|(i, _)| {
        let before = attr[..i].chars().next_back();
        let after = attr[i + predicate.len()..].chars().next();
        !before.is_some_and(|c| is_ident(c) || c == '"') && !after.is_some_and(is_ident)
    })
}

/// Checks the crate at `manifest_dir` against `layout`, and that it found
/// at least `at_least` source files.
pub(crate) fn check_crate(layout: &Layout, manifest_dir: &str, at_least: usize) {
    let files = crate_sources(manifest_dir);
    assert!(
        files.len() >= at_least,
        "found the sources: {}",
        files.len()
    );
    let found = violations(layout, &files);
    assert!(
        found.is_empty(),
        "the layering is broken:\n{}",
        found.join("\n")
    );
}

/// Each of `wrong` has exactly one violation, and none of `right` has any.
pub(crate) fn check_rows(layout: &Layout, wrong: &[Source], right: &[Source]) {
    for source in wrong {
        let found = violations(layout, std::slice::from_ref(source));
        assert_eq!(found.len(), 1, "{}: {found:?}", source.text);
    }
    for source in right {
        let found = violations(layout, std::slice::from_ref(source));
        assert!(found.is_empty(), "{}: {found:?}", source.text);
    }
}
