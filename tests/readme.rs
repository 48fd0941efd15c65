//! The README's Rust examples are the crate docs' examples as rendered: the
//! README shows them without rustdoc's hidden setup lines (GitHub and
//! crates.io would render those), and the crate docs compile and run them.
//! This keeps the two equal, so every example a reader sees is one that
//! compiles and passes.

use std::path::Path;

/// The bodies of the fenced blocks of `text` whose info string is `info`.
fn fenced<'a>(text: &'a str, info: &str) -> Vec<Vec<&'a str>> {
    let mut blocks = Vec::new();
    let mut open: Option<(bool, Vec<&str>)> = None; // (wanted, body)
    for line in text.lines() {
        let fence = line.trim_start().strip_prefix("```");
        open = match (open, fence) {
            (None, Some(tag)) => Some((tag.trim() == info, Vec::new())),
            (None, None) => None,
            (Some((wanted, body)), Some(_)) => {
                if wanted {
                    blocks.push(body);
                }
                None
            }
            (Some((wanted, mut body)), None) => {
                body.push(line);
                Some((wanted, body))
            }
        };
    }
    blocks
}

/// A doc-comment block as rustdoc renders it: hidden (`# `) lines dropped.
fn rendered(lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .filter(|line| !(line.starts_with("# ") || **line == "#"))
        .map(|line| line.to_string())
        .collect()
}

#[test]
fn every_readme_example_is_a_compiled_crate_doc_example() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let lib = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
    let docs: String = lib
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n");
    let compiled: Vec<Vec<String>> = fenced(&docs, "").iter().map(|b| rendered(b)).collect();
    let shown = fenced(&readme, "rust");
    assert!(
        shown.len() >= 2,
        "the README's Rust examples were not found"
    );
    for block in shown {
        let block: Vec<String> = block.iter().map(|line| line.to_string()).collect();
        assert!(
            block.iter().all(|line| !line.starts_with("# ")),
            "a README example shows rustdoc's hidden lines:\n{}",
            block.join("\n")
        );
        assert!(
            compiled.contains(&block),
            "this README example is not a crate-doc example of src/lib.rs (edit both):\n{}",
            block.join("\n")
        );
    }
}
