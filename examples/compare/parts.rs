//! Child `parts`: what hide and read-only patterns cost. One open of the
//! deep target and one walk of 100,000 entries, each with 20 patterns
//! (10 hide, 10 read-only, none matching, so every component is tested)
//! against the same without patterns, in one run.

use std::fs;
use std::hint::black_box;

use mcp_roots::{Patterns, RootSet, WalkLimits};

use crate::measure::{Variant, alternate, cpu, cpu_ratios, emit};
use crate::tree::{Tree, path_str, uri};
use crate::{BATCH_MS, ROUNDS};

/// Ten hide patterns and ten read-only ones a server might use.
pub(crate) fn twenty() -> (Patterns, Patterns) {
    let hide = Patterns::parse([
        ".env",
        ".env.*",
        "**/.git/",
        "*.pem",
        "*.key",
        "/secrets/",
        "**/node_modules/",
        "*.sqlite",
        "id_rsa*",
        "!keep.pem",
    ])
    .unwrap();
    let read_only = Patterns::parse([
        "/vendor/",
        "*.lock",
        "/dist/",
        "/build/",
        "**/*.min.js",
        "/docs/",
        "LICENSE*",
        "/third_party/",
        "*.snap",
        "/.github/",
    ])
    .unwrap();
    (hide, read_only)
}

/// Entries in the walked tree: 100 directories of 999 files, plus the
/// directories themselves.
const WALKED: usize = 100_000;

pub(crate) fn parts(tree: &Tree) {
    let root = tree.target_root();
    let file = tree.target();
    let (hide, read_only) = twenty();
    let plain = RootSet::from_uris([uri(&root)]);
    let patterned = RootSet::builder()
        .root(uri(&root))
        .hide(hide.clone())
        .read_only(read_only.clone())
        .build();
    assert!(plain.rejected().is_empty() && patterned.rejected().is_empty());
    let file_uri = uri(&file);
    let file_path = path_str(&file).to_owned();
    let mut variants: Vec<Variant> = vec![
        Box::new(|n| {
            crate::measure::timed(n, || {
                drop(plain.open(black_box(file_uri.as_str())).unwrap())
            })
        }),
        Box::new(|n| {
            crate::measure::timed(n, || {
                drop(patterned.open(black_box(file_uri.as_str())).unwrap())
            })
        }),
        Box::new(|n| {
            crate::measure::timed(n, || {
                drop(plain.open(black_box(file_path.as_str())).unwrap())
            })
        }),
        Box::new(|n| {
            crate::measure::timed(n, || {
                drop(patterned.open(black_box(file_path.as_str())).unwrap())
            })
        }),
    ];
    let s = alternate(ROUNDS, BATCH_MS, &mut variants);
    let [plain_uri, parts_uri, plain_path, parts_path] = &s[..] else {
        unreachable!()
    };
    emit("parts.open_uri_ns", &cpu(parts_uri));
    emit("parts.open_uri_vs_none", &cpu_ratios(parts_uri, plain_uri));
    emit(
        "parts.open_path_vs_none",
        &cpu_ratios(parts_path, plain_path),
    );

    // The walk: its own tree, 100 directories of 999 files.
    let top = tree.work_dir("parts-walk");
    for d in 0..100 {
        let dir = top.join(format!("d{d:03}"));
        fs::create_dir(&dir).unwrap();
        for f in 0..(WALKED / 100 - 1) {
            fs::File::create(dir.join(format!("f{f:04}.txt"))).unwrap();
        }
    }
    let plain = RootSet::from_uris([uri(&top)]);
    let patterned = RootSet::builder()
        .root(uri(&top))
        .hide(hide)
        .read_only(read_only)
        .build();
    let top_uri = uri(&top);
    let limits = WalkLimits::new(4, 1_000_000);
    let walk = |set: &RootSet| {
        let count = set.walk(top_uri.as_str(), limits).unwrap().count();
        assert_eq!(count, WALKED);
    };
    let mut variants: Vec<Variant> = vec![
        Box::new(|n| crate::measure::timed(n, || walk(&plain))),
        Box::new(|n| crate::measure::timed(n, || walk(&patterned))),
    ];
    let s = alternate(ROUNDS.min(9), BATCH_MS, &mut variants);
    let [plain_walk, parts_walk] = &s[..] else {
        unreachable!()
    };
    emit(
        "parts.walk_ms",
        &cpu(parts_walk)
            .iter()
            .map(|ns| ns / 1e6)
            .collect::<Vec<_>>(),
    );
    emit("parts.walk_vs_none", &cpu_ratios(parts_walk, plain_walk));
    let _ = fs::remove_dir_all(&top);
}
