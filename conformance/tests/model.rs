//! The library against the independent reference model (`testkit::model`)
//! on random trees and adversarial inputs: it never allows what the model
//! denies, it touches the model's target whenever it allows, and it allows
//! everything the model says a beneath-one-root design must allow. The
//! refusals the model tolerates (`strict: false`) are counted by reason.
//!
//! Each generated scene is one tree and root list probed with
//! `PROBES_PER_SCENE` inputs; `MCP_ROOTS_PROPTEST_SCENES` raises the number
//! of scenes for long runs (the default, 1,000, checks 10,000 inputs).

#![cfg(target_os = "linux")]

mod common;

use std::collections::BTreeMap;
use std::sync::Mutex;

use mcp_roots::RootSet;
use proptest::test_runner::{Config, FileFailurePersistence, TestCaseError, TestRunner};
use testkit::generate::scene;
use testkit::{Fixture, Op, Scene, Verdict, judge, must_allow_across};

const PROBES_PER_SCENE: usize = 10;

#[derive(Debug, Default)]
struct Tally {
    probes: usize,
    denied: usize,
    allowed: usize,
    /// Non-strict allows the library refused, by reason.
    tolerated: BTreeMap<&'static str, usize>,
}

fn check(scene: &Scene, tally: &Mutex<Tally>) -> Result<(), TestCaseError> {
    let fx = Fixture::with_setup(&scene.setup).map_err(|e| TestCaseError::reject(e.to_string()))?;
    let roots: Vec<String> = scene.roots.iter().map(|r| fx.subst(r)).collect();
    let set = RootSet::from_uris(roots.clone());
    for (op, input) in &scene.probes {
        let input = fx.subst(input);
        let verdict = judge(&roots, &input, *op);
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
                if let Some(across) = must_allow_across(&roots, &input, *op)
                    && &across != target
                {
                    return Err(TestCaseError::fail(format!(
                        "{op} {input:?}: the walk across roots reaches {across:?}, the physical walk {target:?}"
                    )));
                }
                common::check_target(&touched, target).map_err(|why| {
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
                if let Some(across) = must_allow_across(&roots, &input, *op) {
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

#[test]
fn the_library_agrees_with_the_reference_model() {
    let scenes = std::env::var("MCP_ROOTS_PROPTEST_SCENES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000);
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
        "{scenes} scenes, {} probes: {} denied by both, {} allowed by both, tolerated refusals {:?}",
        tally.probes, tally.denied, tally.allowed, tally.tolerated
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(tally.probes >= scenes as usize * PROBES_PER_SCENE);
    assert!(
        tally.allowed * 10 > tally.probes,
        "the generator must produce allows"
    );
}
