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

#![cfg(target_os = "linux")]

mod common;

use std::collections::BTreeMap;
use std::sync::Mutex;

use std::ffi::OsString;
use std::path::Path;

use mcp_roots::{Patterns, RootSet};
use proptest::test_runner::{Config, FileFailurePersistence, TestCaseError, TestRunner};
use testkit::generate::scene;
use testkit::model::entry_hidden;
use testkit::model::parts::Parts;
use testkit::{Fixture, Op, Scene, Verdict, judge_with, must_allow_across_with};

const PROBES_PER_SCENE: usize = 10;

#[derive(Debug, Default)]
struct Tally {
    probes: usize,
    denied: usize,
    allowed: usize,
    /// Non-strict allows the library refused, by reason.
    tolerated: BTreeMap<&'static str, usize>,
    /// Denies by the model's reason, for the patterns' (`hidden`, `read_only`).
    parts_denied: BTreeMap<String, usize>,
}

fn check(scene: &Scene, tally: &Mutex<Tally>) -> Result<(), TestCaseError> {
    let fx = Fixture::with_setup(&scene.setup).map_err(|e| TestCaseError::reject(e.to_string()))?;
    let roots: Vec<String> = scene.roots.iter().map(|r| fx.subst(r)).collect();
    let set = set(&roots, &scene.parts);
    let parts = &scene.parts;
    for (op, input) in &scene.probes {
        let input = fx.subst(input);
        let verdict = judge_with(&roots, parts, &input, *op);
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
                if let Some(across) = must_allow_across_with(&roots, parts, &input, *op)
                    && &across != target
                {
                    return Err(TestCaseError::fail(format!(
                        "{op} {input:?}: the walk across roots reaches {across:?}, the physical walk {target:?}"
                    )));
                }
                let checked = match &touched {
                    common::Touched::Listed(names) if !parts.is_empty() => {
                        check_listing(&roots, parts, target, names)
                    }
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
                if let Some(across) = must_allow_across_with(&roots, parts, &input, *op) {
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

/// The set of `roots` with `parts` as its own patterns.
fn set(roots: &[String], parts: &Parts) -> RootSet {
    let mut builder = RootSet::builder();
    for root in roots {
        builder = builder.root(root);
    }
    if !parts.is_empty() {
        let parse = |p: &[String]| Patterns::parse(p).expect("the alphabet parses");
        builder = builder
            .hide(parse(&parts.hide))
            .read_only(parse(&parts.read_only));
    }
    builder.build()
}

/// A listing of `dir` under patterns: every entry the model shows, none it
/// hides (an entry nested roots disagree on may be either).
fn check_listing(
    roots: &[String],
    parts: &Parts,
    dir: &Path,
    names: &[OsString],
) -> Result<(), String> {
    let on_disk = std::fs::read_dir(dir)
        .map_err(|e| format!("{dir:?}: {e}"))?
        .map(|e| e.map(|e| e.file_name()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    for name in names {
        if !on_disk.contains(name) {
            return Err(format!("listed {name:?}, which {dir:?} does not hold"));
        }
    }
    for name in &on_disk {
        match (entry_hidden(roots, parts, dir, name), names.contains(name)) {
            (Some(true), true) => return Err(format!("listed the hidden {name:?} of {dir:?}")),
            (Some(false), false) => return Err(format!("left out {name:?} of {dir:?}")),
            _ => {}
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
        "{scenes} scenes, {} probes: {} denied by both ({:?} by patterns), {} allowed by both, tolerated refusals {:?}",
        tally.probes, tally.denied, tally.parts_denied, tally.allowed, tally.tolerated
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(tally.probes >= scenes as usize * PROBES_PER_SCENE);
    assert!(
        tally.allowed * 10 > tally.probes,
        "the generator must produce allows"
    );
    for reason in ["hidden", "read_only"] {
        let denied = tally.parts_denied.get(reason).copied().unwrap_or(0);
        assert!(
            denied * 1000 > tally.probes,
            "the generator must produce denies by {reason}: {denied}"
        );
    }
}
