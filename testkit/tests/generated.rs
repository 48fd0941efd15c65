//! The reference model over generated scenarios: no panics, a fair share of
//! allows (strict and not), and verdicts consistent with what the disk says.

// Builds Unix trees (the kit's fixtures and model exist on Unix only).
#![cfg(unix)]

use std::collections::BTreeMap;
use std::fs;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use testkit::generate::scenario;
use testkit::model::Root;
use testkit::{Fixture, Op, Scenario, Verdict, judge};

/// Builds the scenario and judges it.
fn run(s: &Scenario) -> (Fixture, Vec<String>, String, Verdict) {
    let fx = Fixture::with_setup(&s.setup).expect("generated setups apply");
    let roots: Vec<String> = s.roots.iter().map(|r| fx.subst(r)).collect();
    let input = fx.subst(&s.input);
    let verdict = judge(&roots, &input, s.op);
    (fx, roots, input, verdict)
}

#[test]
fn model_allows_a_fair_share_of_generated_scenarios() {
    let mut runner = TestRunner::deterministic();
    let strategy = scenario();
    let scenarios: Vec<Scenario> = (0..3000)
        .map(|_| {
            strategy
                .new_tree(&mut runner)
                .expect("a scenario")
                .current()
        })
        .collect();
    // Unlinking is slow on this disk but overlaps well: judge in threads.
    let verdicts: Vec<(Op, Verdict)> = std::thread::scope(|scope| {
        let workers: Vec<_> = scenarios
            .chunks(scenarios.len().div_ceil(8))
            .map(|chunk| scope.spawn(|| chunk.iter().map(|s| (s.op, run(s).3)).collect::<Vec<_>>()))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("no panic"))
            .collect()
    });
    let total = verdicts.len();
    let (mut allow, mut strict) = (0, 0);
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_op: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for (op, verdict) in &verdicts {
        let counts = by_op.entry(op.to_string()).or_default();
        counts.0 += 1;
        match verdict {
            Verdict::Allow {
                strict: is_strict, ..
            } => {
                allow += 1;
                counts.1 += 1;
                strict += usize::from(*is_strict);
            }
            Verdict::Deny { .. } => {
                *reasons.entry(verdict.reason().unwrap_or("?")).or_default() += 1
            }
        }
    }
    let fraction = allow as f64 / total as f64;
    println!(
        "allowed {allow}/{total} ({:.1} %), {strict} of them strict",
        fraction * 100.0
    );
    println!("(scenarios, allowed) by op: {by_op:?}");
    println!("deny reasons: {reasons:?}");
    assert!(fraction > 0.10, "too few allows: {fraction}");
    assert!(
        strict > 0 && strict < allow,
        "both strict and non-strict allows occur"
    );
}

proptest! {
    #![proptest_config(Config::with_cases(256))]

    /// Accepted roots resolve to canonical directories; an allow lands on a
    /// canonical object fit for the operation inside one of them; judging
    /// again gives the same verdict.
    #[test]
    fn verdicts_agree_with_the_disk(s in scenario()) {
        let (_fx, roots, input, verdict) = run(&s);
        let accepted = roots.iter().filter_map(|r| Root::new(r).ok());
        let dirs: Vec<_> = accepted.map(|r| r.resolved).collect();
        for dir in &dirs {
            prop_assert_eq!(&fs::canonicalize(dir).unwrap(), dir);
        }
        if let Verdict::Allow { target, .. } = &verdict {
            prop_assert!(dirs.iter().any(|d| target.starts_with(d)), "{target:?} outside {dirs:?}");
            let meta = fs::symlink_metadata(target);
            match s.op {
                Op::Read => prop_assert!(meta.unwrap().is_file()),
                Op::List => prop_assert!(meta.unwrap().is_dir()),
                Op::WriteNew => prop_assert!(meta.is_err()),
            }
            let parent = target.parent().unwrap();
            prop_assert_eq!(&fs::canonicalize(parent).unwrap(), parent);
        }
        prop_assert_eq!(judge(&roots, &input, s.op), verdict);
    }
}
