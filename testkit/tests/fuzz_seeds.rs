//! Replays every seed file of `fuzz/corpus/<target>/` through the check
//! function its fuzz target calls, so that `cargo test` exercises them:
//! `parse` → `check::parse`, `resolve` → `check::ResolveCase::check` in the
//! fixed tree, `plan` → `check::plan_with` (patterns from `check::plan_case`).
//!
//! The seeds were written by `write_seeds` (ignored; run it with
//! `cargo test -p testkit --test fuzz_seeds -- --ignored` to regenerate
//! them from the shared escape corpus and the plan generator). Files a
//! fuzzer later added (crashes kept as regressions) are replayed alike.

// Builds Unix trees (the kit's fixtures and model exist on Unix only).
#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use testkit::check::{self, Operation, ResolveCase, fixed_tree};
use testkit::plan::{Plan, Step};
use testkit::{Fixture, Op, corpus};

fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target)
}

/// Every seed of `target`, sorted by name: (name, bytes).
fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = corpus_dir(target);
    let mut seeds: Vec<(String, Vec<u8>)> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let entry = entry.expect("a corpus entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, fs::read(entry.path()).expect("a seed file"))
        })
        .collect();
    seeds.sort();
    assert!(seeds.len() >= 20, "{target}: only {} seeds", seeds.len());
    seeds
}

#[test]
fn parse_seeds() {
    let mut failures = Vec::new();
    let seeds = seeds("parse");
    for (name, bytes) in &seeds {
        if let Ok(input) = std::str::from_utf8(bytes)
            && let Err(e) = check::parse(input)
        {
            failures.push(format!("{name}: {e}"));
        }
    }
    eprintln!("parse: {} seeds replayed", seeds.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn resolve_seeds() {
    let mut failures = Vec::new();
    let seeds = seeds("resolve");
    let mut tree: Option<Fixture> = None;
    let (mut allowed, mut judged, mut nested) = (0, 0, 0);
    for (name, bytes) in &seeds {
        let Some(case) = ResolveCase::from_bytes(bytes) else {
            continue;
        };
        let is_nested = name.starts_with("nested-");
        let fx = tree.get_or_insert_with(|| Fixture::with_setup(&fixed_tree()).expect("tree"));
        match case.check(fx) {
            Ok(outcome) if is_nested && outcome.skipped => {
                failures.push(format!(
                    "{name}: skipped (nested served directories unchecked)"
                ));
            }
            Ok(outcome) => {
                nested += usize::from(is_nested);
                allowed += usize::from(outcome.allowed);
                judged += usize::from(outcome.judged);
                if outcome.dirty {
                    tree = None;
                }
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!(
        "resolve: {} seeds replayed, {allowed} allowed, {judged} judged exactly, {nested} with nested served directories",
        seeds.len()
    );
    assert!(
        nested >= 15,
        "only {nested} seeds with nested served directories"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn plan_seeds() {
    let mut failures = Vec::new();
    let seeds = seeds("plan");
    for (name, bytes) in &seeds {
        let (plan, parts) = check::plan_case(bytes);
        if let Err(e) = check::plan_with(&plan, &parts) {
            failures.push(format!("{name}: {e}"));
        }
    }
    eprintln!("plan: {} seeds replayed", seeds.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Inputs of the shared escape corpus with `{T}` kept, and the operation
/// each names.
fn corpus_inputs() -> Vec<(Op, String)> {
    corpus::load_shared()
        .into_iter()
        .map(|case| (case.op, case.input))
        .collect()
}

/// Extra parser seeds: forms `url` and the strict parser read differently.
const PARSE_EXTRA: &[&str] = &[
    "file:///C:/../x",
    "file:///C|/x",
    "file:////srv/share",
    "file://localhost",
    "file:///a/%2e%2E/./b/",
    "file:///a/b%5Cc",
    "file:///a/%2F",
    "file:///a/%c3",
    "file:/a/b?q=%zz#f",
    "/a b/caf\u{e9}/100%/x.txt/",
    "/",
    "file:///",
    "FILE://LOCALHOST/",
    "file:///a/.\t./b",
];

/// Seeds of the `resolve` target with patterns (letters of
/// `check::HIDE_ALPHABET`, uppercase of `check::READ_ONLY_ALPHABET`): a
/// link inside, `..`, encoded dots, a negation under a hidden directory,
/// a landing in the other root, both ends of a rename, a `create_dir_all`
/// component, changes in a read-only part.
const PARTS_SEEDS: &[(&str, &str, &str)] = &[
    ("open", "abcde", "{T}/a/lenv"),
    ("open", "abcde", "{T}/a/secrets/../x.txt"),
    ("open", "abcde", "file://{T}/a/%2Eenv"),
    ("open", "abcde", "file://{T}/a/.%65nv"),
    ("open", "abcde", "{T}/a/lsec/keep.pem"),
    ("open", "abcde", "{T}/a/keep.pem"),
    ("open", "abcde", "{T}/a/sub/lgit/HEAD"),
    ("open", "abcde", "{T}/b/lenv"),
    ("open", "abcde", "{T}/a/.git/../x.txt"),
    ("open", "f", "{T}/a/sub/y.txt"),
    ("open", "gA", "{T}/a/sub/deep/z.txt"),
    ("read_dir", "abcde", "{T}/a"),
    ("read_dir", "abcde", "{T}/a/secrets"),
    ("read_dir", "abcde", "{T}/b/sub"),
    ("walk", "abcdeg", "{T}/a"),
    ("create_new", "abcdeA", "{T}/a/sub/new.txt"),
    ("create_new", "b", "{T}/a/new.pem"),
    ("create_new", "H", "{T}/a/new.txt"),
    ("create_dir", "e", "{T}/a/sub/.git"),
    ("rename_to", "c", "{T}/a/secrets/n.txt"),
    ("rename_from", "a", "{T}/a/.env"),
    ("rename_from", "C", "{T}/a/x.txt"),
    ("create_dir_all", "e", "{T}/a/n/.git/x"),
    ("create_dir_all", "c", "{T}/a/secrets/n"),
    ("create_dir_all", "j", "{T}/a/sub/deep/n"),
    ("create_dir_all", "A", "{T}/a/sub/n/m"),
    ("remove_file", "a", "{T}/a/.env"),
    ("remove_file", "B", "{T}/a/x.txt"),
    ("write_atomic", "A", "{T}/a/sub/y.txt"),
    ("copy_to", "b", "{T}/a/c.pem"),
    ("copy_from", "a", "{T}/a/.env"),
    ("metadata", "a", "{T}/a/.env"),
    ("resolve", "c", "{T}/a/secrets/s.txt"),
    ("remove_dir", "c", "{T}/a/secrets"),
];

/// Writes the seed corpora (run on demand, see the module docs).
#[test]
#[ignore = "writes fuzz/corpus; run on demand"]
fn write_seeds() {
    let write = |target: &str, name: String, bytes: Vec<u8>| {
        let dir = corpus_dir(target);
        fs::create_dir_all(&dir).expect("corpus dir");
        fs::write(dir.join(name), bytes).expect("write a seed");
    };
    let inputs = corpus_inputs();
    // parse: every corpus input with a concrete {T}, and the extras.
    for (i, (_, input)) in inputs.iter().enumerate() {
        write(
            "parse",
            format!("corpus-{i:03}"),
            input.replace("{T}", "/tmp/t").into_bytes(),
        );
    }
    for (i, input) in PARSE_EXTRA.iter().enumerate() {
        write("parse", format!("extra-{i:02}"), input.as_bytes().to_vec());
    }
    // resolve: each corpus input under its own operation and, every few
    // inputs, under the operations the corpus does not name.
    let others = [
        Operation::Metadata,
        Operation::Resolve,
        Operation::Walk,
        Operation::CreateDir,
        Operation::RemoveFile,
        Operation::RenameFrom,
        Operation::RenameTo,
        Operation::WriteAtomic,
        Operation::CopyFrom,
        Operation::CopyTo,
        Operation::CreateDirAll,
        Operation::RemoveDir,
    ];
    for (i, (op, input)) in inputs.iter().enumerate() {
        let op = match op {
            Op::Read => Operation::Open,
            Op::List => Operation::ReadDir,
            Op::WriteNew => Operation::CreateNew,
        };
        let roots: Vec<String> = check::FIXED_ROOTS.iter().map(|r| r.to_string()).collect();
        let case = ResolveCase {
            op,
            roots,
            input: input.clone(),
            parts: String::new(),
        };
        if !input.contains('\n') {
            write("resolve", format!("corpus-{i:03}"), case.to_bytes());
            if i % 4 == 0 {
                let op = others[(i / 4) % others.len()];
                let case = ResolveCase { op, ..case };
                write("resolve", format!("corpus-{i:03}-{op}"), case.to_bytes());
            }
        }
    }
    // resolve with patterns: each way around a string match.
    for (i, (op, letters, input)) in PARTS_SEEDS.iter().enumerate() {
        let text = format!(
            "{op}\nparts:{letters}\n{}\n{input}",
            check::FIXED_ROOTS.join("\n")
        );
        write("resolve", format!("parts-{i:02}"), text.into_bytes());
    }
    // plan: hand-written corners and generated plans.
    let corners = [
        vec![
            Step::Replace(vec!["a", "b"]),
            Step::Open("a/x.txt"),
            Step::Open("b/z.txt"),
            Step::Replace(vec!["b"]),
        ],
        vec![
            Step::Replace(vec!["a"]),
            Step::Open("a/x.txt"),
            Step::Rename {
                from: "a/x.txt",
                to: "o/s.txt",
            },
            Step::Replace(vec!["a", "b"]),
            Step::Rescan,
        ],
        vec![
            Step::Replace(vec!["rl", "b"]),
            Step::Open("rl/x.txt"),
            Step::Rename { from: "b", to: "c" },
            Step::Rescan,
            Step::Rename { from: "c", to: "b" },
            Step::Rescan,
            Step::Open("b/sub/w.txt"),
        ],
    ];
    for (i, steps) in corners.into_iter().enumerate() {
        write("plan", format!("corner-{i}"), Plan { steps }.to_bytes());
    }
    // plan with patterns (`parts:` and letters first): a file opened, then
    // moved into a hidden directory; a root replaced by one that hides it.
    let hidden = [
        (
            "f",
            vec![
                Step::Replace(vec!["a"]),
                Step::Open("a/x.txt"),
                Step::Open("a/sub/y.txt"),
                Step::Rename {
                    from: "a/x.txt",
                    to: "a/sub/y.txt",
                },
                Step::Rescan,
            ],
        ),
        (
            "f",
            vec![
                Step::Replace(vec!["b/sub"]),
                Step::Open("b/sub/w.txt"),
                Step::Replace(vec!["b"]),
            ],
        ),
        (
            "hkB",
            vec![
                Step::Replace(vec!["rl", "b"]),
                Step::Open("rl/x.txt"),
                Step::Symlink {
                    at: "a/l",
                    body: "{T}/b",
                },
                Step::Open("a/l/z.txt"),
                Step::Rescan,
            ],
        ),
    ];
    for (i, (letters, steps)) in hidden.into_iter().enumerate() {
        let mut bytes = format!("parts:{letters}\n").into_bytes();
        bytes.extend(Plan { steps }.to_bytes());
        write("plan", format!("parts-{i}"), bytes);
    }
    let mut runner = TestRunner::deterministic();
    let strategy = testkit::plan::plan(30);
    for i in 0..30 {
        let plan = strategy.new_tree(&mut runner).expect("a plan").current();
        write("plan", format!("generated-{i:02}"), plan.to_bytes());
    }
}

/// Regression (a library bug, fixed; found by the `resolve` fuzz target,
/// seed `regress-create-dir-all-partial`): `create_dir_all` refused an input
/// whose `..` leaves the root only after creating the missing directories
/// before that `..`. It now walks the existing part first and requires the
/// missing tail to be plain names, so a refusal creates nothing.
#[test]
fn create_dir_all_refusal_creates_nothing() {
    let fx = Fixture::with_setup(&fixed_tree()).expect("tree");
    let case = ResolveCase::from_bytes(b"create_dir_all\nfile://{T}/a\n{T}/a/new/../../o/x")
        .expect("a case");
    let outcome = case.check(&fx).unwrap_or_else(|e| panic!("{e}"));
    assert!(!outcome.allowed, "the input leaves the root");
    let left = fx.path("a/new");
    assert!(!left.exists(), "refused, but created {}", left.display());
}
