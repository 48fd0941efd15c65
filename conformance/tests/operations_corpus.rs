//! Every corpus input through every file operation, not only the one its row
//! names. Whatever an operation does, it may change only what lies inside a
//! root and may never hand out the content of a file outside the roots. The
//! test prints, per operation, how many inputs were refused and how many
//! were allowed (and then proven confined).

#![cfg(unix)]

use std::collections::{BTreeMap, HashSet};
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use mcp_roots::{Create, Error, ErrorKind, OpenOptions, RootSet, WalkLimits, Writes};
use testkit::{Fixture, corpus};

/// The operations, each given the case's input where it applies.
const OPS: &[&str] = &[
    "open",
    "create_new",
    "read_dir",
    "metadata",
    "resolve",
    "open_append_or_create",
    "create_dir",
    "create_dir_all",
    "remove_file",
    "remove_dir",
    "rename_from",
    "rename_to",
    "write_atomic",
    "copy_from",
    "copy_to",
    "walk",
];

/// What an allowed operation let the caller see.
enum Seen {
    Nothing,
    Content(Vec<u8>),
    Identity(u64, u64),
}

fn run(set: &RootSet, op: &str, input: &str, inside: &str) -> Result<Seen, Error> {
    let read = |mut f: std::fs::File| {
        let mut content = Vec::new();
        f.read_to_end(&mut content).expect("read");
        Seen::Content(content)
    };
    Ok(match op {
        "open" => read(set.open(input)?),
        "create_new" => {
            set.create_new(input)?;
            Seen::Nothing
        }
        "read_dir" => {
            set.read_dir(input)?.for_each(drop);
            Seen::Nothing
        }
        "metadata" => {
            let meta = set.metadata(input)?;
            Seen::Identity(meta.dev(), meta.ino())
        }
        "resolve" => {
            set.resolve(input)?;
            Seen::Nothing
        }
        "open_append_or_create" => {
            let options = OpenOptions::new().append(true).create(Create::OrOpen);
            read(set.open_with(input, options)?)
        }
        "create_dir" => Seen::Nothing.tap(set.create_dir(input))?,
        "create_dir_all" => Seen::Nothing.tap(set.create_dir_all(input))?,
        "remove_file" => Seen::Nothing.tap(set.remove_file(input))?,
        "remove_dir" => Seen::Nothing.tap(set.remove_dir(input))?,
        "rename_from" => Seen::Nothing.tap(set.rename(input, &format!("{inside}/renamed-here")))?,
        "rename_to" => {
            let from = format!("{inside}/rename-source");
            Seen::Nothing.tap(set.rename(from.as_str(), input))?
        }
        "write_atomic" => Seen::Nothing.tap(set.write_atomic(input, b"atomic"))?,
        "copy_from" => {
            let to = format!("{inside}/copied-here");
            set.copy(input, to.as_str())?;
            Seen::Content(std::fs::read(to).expect("read the copy"))
        }
        "copy_to" => {
            let from = format!("{inside}/copy-source");
            Seen::Nothing.tap(set.copy(from.as_str(), input).map(drop))?
        }
        "walk" => {
            let limits = WalkLimits::new(8, 1000);
            set.walk(input, limits)?.for_each(drop);
            Seen::Nothing
        }
        other => unreachable!("unknown operation {other}"),
    })
}

/// Writes the file an operation moves or copies into place (`rename_to`,
/// `copy_to`) in the directory `inside`, before the tree is recorded.
fn prepare(op: &str, inside: &str) {
    let source = match op {
        "rename_to" => "rename-source",
        "copy_to" => "copy-source",
        _ => return,
    };
    std::fs::write(format!("{inside}/{source}"), source).expect("write the source");
}

/// The operations that change nothing: under a read-only set they answer
/// as under a writable one.
const READS: &[&str] = &["open", "read_dir", "metadata", "resolve", "walk"];

trait Tap: Sized {
    fn tap(self, result: Result<(), Error>) -> Result<Self, Error> {
        result.map(|()| self)
    }
}
impl Tap for Seen {}

/// Physical root directories relative to `{T}`.
fn root_dirs(set: &RootSet, t: &Path) -> Vec<PathBuf> {
    set.roots()
        .iter()
        .filter_map(|r| {
            r.resolved_path()
                .strip_prefix(t)
                .ok()
                .map(Path::to_path_buf)
        })
        .collect()
}

fn inside(rel: &Path, roots: &[PathBuf]) -> bool {
    roots.iter().any(|r| rel.starts_with(r) && rel != r)
}

#[test]
fn every_operation_stays_inside_for_every_corpus_input() {
    let cases = corpus::load_shared();
    let mut counts: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for case in &cases {
        for &op in OPS {
            let fx = Fixture::with_setup(&case.setup).expect("fixture");
            let roots: Vec<String> = case.roots.iter().map(|r| fx.subst(r)).collect();
            let set = RootSet::from_uris(roots);
            let Some(first) = set.roots().first() else {
                continue;
            };
            let workspace = first.resolved_path().to_str().expect("utf-8").to_owned();
            let root_dirs = root_dirs(&set, fx.t_resolved());
            prepare(op, &workspace);
            let before = fx.snapshot();
            let outside_files: HashSet<(u64, u64)> = before
                .entries()
                .keys()
                .filter(|rel| !inside(rel, &root_dirs))
                .filter_map(|rel| std::fs::symlink_metadata(fx.t_resolved().join(rel)).ok())
                .filter(|m| m.is_file() && m.nlink() == 1)
                .map(|m| (m.dev(), m.ino()))
                .collect();
            let outside_content: HashSet<Vec<u8>> = before
                .entries()
                .iter()
                .filter(|(rel, _)| !inside(rel, &root_dirs))
                .filter_map(|(rel, entry)| match entry {
                    testkit::fixture::Entry::File(bytes) => {
                        let meta = std::fs::metadata(fx.t_resolved().join(rel)).ok()?;
                        (meta.nlink() == 1).then(|| bytes.clone())
                    }
                    _ => None,
                })
                .collect();
            let result = run(&set, op, &fx.subst(&case.input), &workspace);
            let tally = counts.entry(op).or_default();
            match &result {
                Err(_) => tally.0 += 1,
                Ok(_) => tally.1 += 1,
            }
            let id = &case.id;
            match result {
                Ok(Seen::Content(content)) if outside_content.contains(&content) => {
                    failures.push(format!("{id} {op}: read the content of a file outside"));
                }
                Ok(Seen::Identity(dev, ino)) if outside_files.contains(&(dev, ino)) => {
                    failures.push(format!("{id} {op}: stat of a file outside"));
                }
                _ => {}
            }
            let after = fx.snapshot();
            let (old, new) = (before.entries(), after.entries());
            for rel in old.keys().chain(new.keys()) {
                if old.get(rel) != new.get(rel) && !inside(rel, &root_dirs) {
                    failures.push(format!("{id} {op}: changed outside the roots: {rel:?}"));
                }
            }
        }
    }
    eprintln!("operation              refused  allowed (confined)");
    for (op, (refused, allowed)) in &counts {
        eprintln!("{op:<22} {refused:>7}  {allowed:>7}");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// One case's answer to `op` on a fresh fixture, its roots built by
/// `build`: the outcome (the error's kind, or allowed) and whether the tree
/// changed anywhere, inside the roots or not.
fn answer(
    case: &corpus::Case,
    op: &str,
    build: impl Fn(Vec<String>) -> RootSet,
) -> Option<(Result<(), ErrorKind>, Vec<String>)> {
    let fx = Fixture::with_setup(&case.setup).expect("fixture");
    let set = build(case.roots.iter().map(|r| fx.subst(r)).collect());
    let workspace = set.roots().first()?.resolved_path().to_str()?.to_owned();
    prepare(op, &workspace);
    let before = fx.snapshot();
    let result = run(&set, op, &fx.subst(&case.input), &workspace);
    Some((
        result.map(drop).map_err(|e| e.kind()),
        before.diff(&fx.snapshot()),
    ))
}

#[test]
fn under_a_read_only_set_every_mutation_is_refused_and_nothing_changes() {
    let cases = corpus::load_shared();
    let writable = |roots: Vec<String>| RootSet::from_uris(roots);
    let read_only = |roots: Vec<String>| {
        let list = roots.into_iter().fold(RootSet::builder(), |b, r| b.root(r));
        list.writes(Writes::Refuse).build()
    };
    let mut refused = BTreeMap::<&str, usize>::new();
    let mut failures = Vec::new();
    for case in &cases {
        for &op in OPS {
            let Some((ro, changed)) = answer(case, op, read_only) else {
                continue;
            };
            let (rw, _) = answer(case, op, writable).expect("the same roots are accepted");
            let id = &case.id;
            if !changed.is_empty() {
                failures.push(format!("{id} {op}: a read-only set changed {changed:?}"));
            }
            if READS.contains(&op) {
                if ro != rw {
                    failures.push(format!("{id} {op}: read-only {ro:?}, writable {rw:?}"));
                }
                continue;
            }
            // A mutation is refused: `read_only` once its root is chosen,
            // or the reason that stopped it before (a malformed input, no
            // root contains it), which the writable set gives too.
            match (ro, rw) {
                (Err(ErrorKind::ReadOnly), _) => *refused.entry(op).or_default() += 1,
                (Err(ro), Err(rw)) if ro == rw => {}
                (ro, rw) => {
                    failures.push(format!("{id} {op}: read-only {ro:?}, writable {rw:?}"));
                }
            }
        }
    }
    eprintln!("operation              read_only");
    for (op, count) in &refused {
        eprintln!("{op:<22} {count:>9}");
    }
    for op in OPS.iter().filter(|op| !READS.contains(op)) {
        assert!(
            refused.get(op).is_some_and(|n| *n > 10),
            "{op}: {refused:?}"
        );
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
