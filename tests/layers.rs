//! The crate's shape, checked: every module imports only from its own
//! layer or the layers below it, by module path (not through the crate
//! root's re-exports), and only `sys/` names a platform in a `cfg`.
//!
//! The layers, bottom first, are the table [`LAYERS`]; ARCHITECTURE.md
//! describes the same table.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The top-level modules of `src/`, bottom first. A module may import from
/// its own layer and the ones before it.
const LAYERS: &[&str] = &[
    "options", "sys", "error", "parse", "root", "ops", "set", "live", "watch",
];

/// Modules outside the layering: the crate root (a table of contents) and
/// pages of documentation, which import nothing.
const OUTSIDE: &[&str] = &["lib", "semantics"];

/// Platform predicates that only `sys/` may test.
const PLATFORM_CFGS: &[&str] = &[
    "target_os",
    "target_family",
    "target_vendor",
    "unix",
    "windows",
];

struct Source {
    /// `src/`-relative path, for messages.
    path: PathBuf,
    /// The top-level module the file belongs to.
    top: String,
    text: String,
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
            let rel = path.strip_prefix(src).expect("under src/").to_path_buf();
            let first = rel.components().next().expect("a component");
            let top = Path::new(first.as_os_str())
                .file_stem()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(&path).expect("read a source file");
            out.push(Source {
                path: rel,
                top,
                text,
            });
        }
    }
}

/// The code of a file without comments (line comments and doc comments),
/// so that prose mentioning `crate::x` is not taken for an import.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(n, line)| {
        let code = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        (!code.trim().is_empty()).then_some((n + 1, code))
    })
}

/// Every `crate::name` in a line of code, with the name.
fn crate_paths(code: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue; // `mcp_roots::crate` never occurs; `$crate::` is a macro's
        }
        if let Some(group) = rest.strip_prefix('{') {
            // `crate::{a, b::c}`: the first segment of each item.
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name = item.trim().split("::").next().unwrap_or("").trim();
                if !name.is_empty() {
                    found.push(name);
                }
            }
            continue;
        }
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        found.push(&rest[..end]);
    }
    found
}

/// The wrong-way imports, re-export imports and platform `cfg`s of `files`.
fn violations(files: &[Source]) -> Vec<String> {
    let rank: BTreeMap<&str, usize> = LAYERS.iter().enumerate().map(|(i, l)| (*l, i)).collect();
    let mut found = Vec::new();
    for file in files {
        let outside = OUTSIDE.contains(&file.top.as_str());
        let Some(&own) = rank
            .get(file.top.as_str())
            .or(outside.then_some(&usize::MAX))
        else {
            found.push(format!(
                "{}: module `{}` is in no layer: add it to LAYERS (and ARCHITECTURE.md)",
                file.path.display(),
                file.top
            ));
            continue;
        };
        for (line, code) in code_lines(&file.text) {
            if file.top != "sys" && PLATFORM_CFGS.iter().any(|p| is_platform_cfg(code, p)) {
                found.push(format!(
                    "{}:{line}: a platform cfg outside sys/: {}",
                    file.path.display(),
                    code.trim()
                ));
            }
            if outside {
                continue;
            }
            for name in crate_paths(code) {
                match rank.get(name) {
                    Some(&theirs) if theirs > own => found.push(format!(
                        "{}:{line}: `{}` (layer {own}) imports from `{name}` (layer {theirs}), \
                         a layer above it",
                        file.path.display(),
                        file.top
                    )),
                    Some(_) => {}
                    None if OUTSIDE.contains(&name) => {}
                    None => found.push(format!(
                        "{}:{line}: `crate::{name}` goes through the crate root: import it by \
                         its module path",
                        file.path.display()
                    )),
                }
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
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '"')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

#[test]
fn modules_import_only_downward() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &src, &mut files);
    assert!(files.len() > 10, "found the sources: {}", files.len());
    let found = violations(&files);
    assert!(
        found.is_empty(),
        "the layering is broken:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_checker_sees_a_wrong_way_import() {
    let file = |top: &str, text: &str| Source {
        path: PathBuf::from(format!("{top}/x.rs")),
        top: top.into(),
        text: text.into(),
    };
    let wrong = [
        file("ops", "use crate::set::RootSet;\n"),
        file("root", "use crate::{error::Error, live::Roots};\n"),
        file("sys", "fn f() -> crate::error::Error { todo!() }\n"),
        file("set", "use crate::RootSet;\n"),
        file("ops", "#[cfg(target_os = \"linux\")]\nfn f() {}\n"),
        file("live", "#[cfg(unix)]\nfn f() {}\n"),
        file("stray", "fn f() {}\n"),
    ];
    for source in &wrong {
        let found = violations(std::slice::from_ref(source));
        assert_eq!(found.len(), 1, "{}: {found:?}", source.text);
    }
    let right = [
        file(
            "set",
            "use crate::ops::open;\nuse crate::{error::Error, root::Root};\n",
        ),
        file(
            "live",
            "// crate::watch in a comment\nuse crate::set::RootSet;\n",
        ),
        file("sys", "#[cfg(target_os = \"linux\")]\nmod linux;\n"),
        file("ops", "#[cfg(feature = \"watch\")]\nfn f() {}\n"),
    ];
    for source in &right {
        let found = violations(std::slice::from_ref(source));
        assert!(found.is_empty(), "{}: {found:?}", source.text);
    }
}
