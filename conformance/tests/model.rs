//! The library against the independent reference model (`testkit::model`)
//! on random trees and adversarial inputs: it never allows what the model
//! denies, it touches the model's target whenever it allows, and it allows
//! everything the model says a beneath-one-root design must allow. The
//! refusals the model tolerates (`strict: false`) are counted by reason.
//!
//! Each generated scene is one tree and root list probed with
//! `PROBES_PER_SCENE` inputs; `MCP_ROOTS_PROPTEST_SCENES` raises the number
//! of scenes for long runs (the default, 1,000, checks 10,000 inputs).
//! Most scenes carry a few hide and read-only patterns (the set's own, from
//! a small alphabet naming the tree's `.env`, `*.pem`, `secrets/`, `.git/`
//! and the generator's names), which the model judges with `globset` on
//! the object reached; a listing must leave out exactly the hidden entries.
//!
//! Nested served directories (`testkit::model::nesting`): roots nest (`a`
//! and `a/sub`), so an inner root's anchored patterns judge beneath its
//! place through the outer one, and a third of the scenes serve one or two
//! directories read-only besides the roots (mostly inside them, as an
//! operator's ceiling: `Roots` serving it whole), where every create is
//! refused. A listing or walk through the outermost root leaves out every
//! entry some root holding it hides; each allowed listing is walked too
//! and compared entry by entry.

#![cfg(target_os = "linux")]

mod common;

use std::collections::BTreeMap;
use std::sync::Mutex;

use std::ffi::OsString;
use std::path::Path;

use mcp_roots::{EmptyRoots, Patterns, RootSet, Roots, WalkLimits};
use proptest::test_runner::{Config, FileFailurePersistence, TestCaseError, TestRunner};
use testkit::generate::scene;
use testkit::model::nesting::{
    entry_hidden_through, judge_served, must_allow_across_served, walk_expected,
};
use testkit::model::parts::Parts;
use testkit::model::{Root, entry_hidden};
use testkit::{Fixture, Op, Scene, Verdict};

const PROBES_PER_SCENE: usize = 10;

/// Walks of allowed listings go this deep.
const WALK_DEPTH: usize = 4;

#[derive(Debug, Default)]
struct Tally {
    probes: usize,
    denied: usize,
    allowed: usize,
    /// Non-strict allows the library refused, by reason.
    tolerated: BTreeMap<&'static str, usize>,
    /// Denies by the model's reason, for the patterns' (`hidden`, `read_only`).
    parts_denied: BTreeMap<String, usize>,
    /// Creates refused because they lie in a read-only served directory.
    read_only_dir_denied: usize,
    /// Allowed listings walked and compared.
    walks: usize,
    /// Entries only the outermost root's layers decide (the roots holding
    /// them disagree), checked in listings and walks.
    layered_entries: usize,
}

fn check(scene: &Scene, tally: &Mutex<Tally>) -> Result<(), TestCaseError> {
    let fx = Fixture::with_setup(&scene.setup).map_err(|e| TestCaseError::reject(e.to_string()))?;
    let roots: Vec<String> = scene.roots.iter().map(|r| fx.subst(r)).collect();
    let read_only = read_only_roots(&roots, &fx, &scene.read_only_roots);
    let set = set(&roots, &read_only, &scene.parts);
    let parts = &scene.parts;
    let all: Vec<String> = roots.iter().chain(&read_only).cloned().collect();
    for (op, input) in &scene.probes {
        let input = fx.subst(input);
        let verdict = judge_served(&roots, &read_only, parts, &input, *op);
        let before = (*op == Op::WriteNew).then(|| fx.snapshot());
        let outcome = common::run(&set, *op, &input);
        let mut tally = tally.lock().expect("tally");
        tally.probes += 1;
        match (&verdict, outcome) {
            (Verdict::Deny { why }, Ok(touched)) => {
                return Err(TestCaseError::fail(format!(
                    "ESCAPE: {op} {input:?} allowed ({touched:?}); the model denies: {why}"
                )));
            }
            (Verdict::Deny { .. }, Err(_)) => {
                tally.denied += 1;
                if let Some(reason @ ("hidden" | "read_only")) = verdict.reason() {
                    *tally.parts_denied.entry(reason.to_owned()).or_default() += 1;
                }
                if matches!(&verdict, Verdict::Deny { why } if why.contains("read-only served")) {
                    tally.read_only_dir_denied += 1;
                }
                if let Some(before) = before {
                    let changes = before.diff(&fx.snapshot());
                    if !changes.is_empty() {
                        return Err(TestCaseError::fail(format!(
                            "{op} {input:?} was refused but changed the tree: {changes:?}"
                        )));
                    }
                }
            }
            (Verdict::Allow { target, .. }, Ok(touched)) => {
                tally.allowed += 1;
                if let Some(across) =
                    must_allow_across_served(&roots, &read_only, parts, &input, *op)
                    && &across != target
                {
                    return Err(TestCaseError::fail(format!(
                        "{op} {input:?}: the walk across roots reaches {across:?}, the physical walk {target:?}"
                    )));
                }
                let checked = match &touched {
                    common::Touched::Listed(names) if !parts.is_empty() => check_listing(
                        &all, parts, &input, target, names, &mut tally,
                    )
                    .and_then(|()| check_walk(&set, &all, parts, &input, target, &mut tally)),
                    _ => common::check_target(&touched, target),
                };
                checked.map_err(|why| {
                    TestCaseError::fail(format!("{op} {input:?} allowed, but {why}"))
                })?;
            }
            (
                Verdict::Allow {
                    strict: false,
                    target,
                },
                Err(err),
            ) => {
                // Beyond one root, links and `..` are followed across the
                // roots: what that walk reaches must be allowed.
                if let Some(across) =
                    must_allow_across_served(&roots, &read_only, parts, &input, *op)
                {
                    return Err(TestCaseError::fail(format!(
                        "{op} {input:?} refused ({err}, {}), but following links across roots reaches {across:?} (the model's target: {target:?})",
                        err.reason()
                    )));
                }
                *tally.tolerated.entry(err.reason()).or_default() += 1;
            }
            (
                Verdict::Allow {
                    strict: true,
                    target,
                },
                Err(err),
            ) => {
                return Err(TestCaseError::fail(format!(
                    "{op} {input:?} refused ({err}, {}), but the model allows it beneath its root: {target:?}",
                    err.reason()
                )));
            }
        }
    }
    Ok(())
}

/// The scene's read-only directories that are no other directory of the
/// set (a writable root the same directory, or a repeat).
fn read_only_roots(roots: &[String], fx: &Fixture, dirs: &[String]) -> Vec<String> {
    let resolved = |r: &String| Root::new(r).ok().map(|r| r.resolved);
    let mut taken: Vec<_> = roots.iter().filter_map(resolved).collect();
    let mut kept = Vec::new();
    for dir in dirs.iter().map(|d| fx.subst(d)) {
        if let Some(at) = resolved(&dir)
            && !taken.contains(&at)
        {
            taken.push(at);
            kept.push(dir);
        }
    }
    kept
}

/// The set of `roots` with `parts` as its own patterns; with `read_only`
/// directories, an operator's ceiling of `roots` writable and those
/// read-only with `parts` as the policy's patterns, served whole.
fn set(roots: &[String], read_only: &[String], parts: &Parts) -> RootSet {
    let parse = |p: &[String]| Patterns::parse(p).expect("the alphabet parses");
    if !read_only.is_empty() {
        let live = Roots::builder()
            .ceiling(roots.to_vec())
            .read_only_ceiling(read_only.to_vec())
            .hide(parse(&parts.hide))
            .read_only(parse(&parts.read_only))
            .empty_roots(EmptyRoots::Ceiling)
            .build();
        live.replace_undeclared();
        return live.load().set().clone();
    }
    let mut builder = RootSet::builder();
    for root in roots {
        builder = builder.root(root);
    }
    if !parts.is_empty() {
        builder = builder
            .hide(parse(&parts.hide))
            .read_only(parse(&parts.read_only));
    }
    builder.build()
}

/// A listing of `dir` (reached through `input`) under patterns: every
/// entry the model shows, none it hides (an entry the model leaves open
/// may be either).
fn check_listing(
    roots: &[String],
    parts: &Parts,
    input: &str,
    dir: &Path,
    names: &[OsString],
    tally: &mut Tally,
) -> Result<(), String> {
    let on_disk = common::listed_from_disk(dir, names)?;
    for name in &on_disk {
        let hidden = entry_hidden_through(roots, parts, input, dir, name);
        if hidden.is_some() && entry_hidden(roots, parts, dir, name).is_none() {
            tally.layered_entries += 1;
        }
        match (hidden, names.contains(name)) {
            (Some(true), true) => return Err(format!("listed the hidden {name:?} of {dir:?}")),
            (Some(false), false) => return Err(format!("left out {name:?} of {dir:?}")),
            _ => {}
        }
    }
    Ok(())
}

/// A walk of `dir` (reached through `input`) yields exactly the entries
/// the model shows down to [`WALK_DEPTH`], none it hides; beneath a
/// directory the model leaves open anything on the disk may be yielded.
fn check_walk(
    set: &RootSet,
    roots: &[String],
    parts: &Parts,
    input: &str,
    dir: &Path,
    tally: &mut Tally,
) -> Result<(), String> {
    let walk = set
        .walk(input, WalkLimits::new(WALK_DEPTH, 100_000))
        .map_err(|e| format!("its walk was refused: {e}"))?;
    let mut walked = Vec::new();
    for entry in walk {
        let entry = entry.map_err(|e| format!("its walk failed: {e}"))?;
        let rel = Path::new(entry.path().rel());
        // The entry's path below the start: the last `depth` names.
        let names: Vec<_> = rel.iter().collect();
        let below = names[names.len().saturating_sub(entry.depth())..].iter();
        walked.push(below.collect::<std::path::PathBuf>());
    }
    let expected = walk_expected(roots, parts, input, dir, WALK_DEPTH)?;
    tally.walks += 1;
    let open: Vec<&Path> = expected
        .iter()
        .filter(|e| e.hidden.is_none())
        .map(|e| e.below.as_path())
        .collect();
    for below in &walked {
        match expected.iter().find(|e| &e.below == below) {
            Some(e) if e.hidden == Some(true) => {
                return Err(format!("its walk yielded the hidden {below:?}"));
            }
            Some(_) => {}
            None if open.iter().any(|o| below.starts_with(o)) => {}
            None => {
                return Err(format!(
                    "its walk yielded {below:?}, which the model never met"
                ));
            }
        }
    }
    for e in expected.iter().filter(|e| e.hidden == Some(false)) {
        if !walked.contains(&e.below) {
            return Err(format!("its walk left out {:?} of {dir:?}", e.below));
        }
    }
    Ok(())
}

#[test]
fn the_library_agrees_with_the_reference_model() {
    let scenes = common::scenes(1_000);
    let config = Config {
        cases: scenes,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "tests/model.proptest-regressions",
        ))),
        ..Config::default()
    };
    let tally = Mutex::new(Tally::default());
    let mut runner = TestRunner::new(config);
    let result = runner.run(&scene(PROBES_PER_SCENE), |scene| check(&scene, &tally));
    let tally = tally.into_inner().expect("tally");
    eprintln!(
        "{scenes} scenes, {} probes: {} denied by both ({:?} by patterns, {} in a read-only served directory), {} allowed by both, tolerated refusals {:?}; {} walks compared, {} entries decided by the outermost root's layers",
        tally.probes,
        tally.denied,
        tally.parts_denied,
        tally.read_only_dir_denied,
        tally.allowed,
        tally.tolerated,
        tally.walks,
        tally.layered_entries
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(tally.probes >= scenes as usize * PROBES_PER_SCENE);
    assert!(
        tally.allowed * 10 > tally.probes,
        "the generator must produce allows"
    );
    assert!(
        tally.read_only_dir_denied * 1000 > tally.probes,
        "the generator must produce creates in read-only served directories: {}",
        tally.read_only_dir_denied
    );
    assert!(
        tally.walks * 100 > scenes as usize,
        "the generator must produce walks: {}",
        tally.walks
    );
    for reason in ["hidden", "read_only"] {
        let denied = tally.parts_denied.get(reason).copied().unwrap_or(0);
        assert!(
            denied * 1000 > tally.probes,
            "the generator must produce denies by {reason}: {denied}"
        );
    }
}
