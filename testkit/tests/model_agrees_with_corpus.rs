//! The reference model must give every corpus case its expected answer,
//! the parts corpus' too.

// Builds Unix trees (the kit's fixtures and model exist on Unix only).
#![cfg(unix)]

use std::path::{Path, PathBuf};

use testkit::corpus::{self, Case, Expect};
use testkit::model::entry_hidden;
use testkit::model::parts::Parts;
use testkit::{Fixture, Verdict, judge, judge_with, parts_corpus};

/// Canonical form of a path that exists, or of its parent plus its name.
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| {
        let parent = path.parent().expect("a target has a parent");
        let name = path.file_name().expect("a target has a name");
        std::fs::canonicalize(parent)
            .expect("a target's parent exists")
            .join(name)
    })
}

/// `Ok` with the verdict if the model agrees with the case, else why not.
fn check(case: &Case) -> Result<Verdict, String> {
    let fx = Fixture::with_setup(&case.setup).map_err(|e| format!("setup failed: {e}"))?;
    let roots: Vec<String> = case.roots.iter().map(|r| fx.subst(r)).collect();
    let verdict = judge(&roots, &fx.subst(&case.input), case.op);
    match (case.expect, &verdict) {
        (Expect::Deny, Verdict::Deny { .. }) => {}
        (Expect::Deny, Verdict::Allow { .. }) => return Err(format!("allowed: {verdict:?}")),
        (Expect::Allow, Verdict::Deny { why }) => return Err(format!("denied: {why}")),
        (Expect::Allow, Verdict::Allow { target, strict }) => {
            let resolved = case
                .resolved
                .as_deref()
                .ok_or("allow case without `resolved`")?;
            let want = canonical(&fx.resolved(resolved));
            if canonical(target) != want {
                return Err(format!(
                    "target {} instead of {}",
                    target.display(),
                    want.display()
                ));
            }
            if !strict && !case.deny_acceptable {
                return Err("non-strict allow on a case a library must allow".into());
            }
        }
    }
    Ok(verdict)
}

#[test]
fn model_agrees_with_corpus() {
    let cases = corpus::load_shared();
    assert_eq!(cases.len(), 147);
    let mut failures = Vec::new();
    let mut non_strict = Vec::new();
    for case in &cases {
        match check(case) {
            Ok(Verdict::Allow { strict: false, .. }) => non_strict.push(case.id.as_str()),
            Ok(_) => {}
            Err(why) => failures.push(format!("{} ({}): {why}", case.id, case.input)),
        }
    }
    println!("non-strict allows (a beneath-one-root library may refuse): {non_strict:?}");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The parts corpus' rows the model judges (reads, creates, listings): a
/// deny with the row's reason, an allow on the row's target (a listing's
/// hidden entries are the ones the row leaves out).
#[test]
fn model_agrees_with_parts_corpus() {
    let cases = parts_corpus::load();
    let mut failures = Vec::new();
    let mut judged = 0;
    for case in &cases {
        let Some(op) = case.op.as_op() else { continue };
        judged += 1;
        let fx = Fixture::with_setup(&case.setup).expect("fixture");
        let roots: Vec<String> = case.roots.iter().map(|r| fx.subst(r)).collect();
        let parts = Parts {
            hide: case.hide.clone(),
            read_only: case.read_only.clone(),
        };
        let verdict = judge_with(&roots, &parts, &fx.subst(&case.input), op);
        let id = &case.id;
        match (case.expect, &verdict) {
            (Expect::Deny, Verdict::Deny { .. }) => {
                if verdict.reason() != case.reason.as_deref() {
                    failures.push(format!("{id}: {verdict:?}, not {:?}", case.reason));
                }
            }
            (Expect::Allow, Verdict::Allow { target, .. }) => {
                let want = canonical(&fx.resolved(case.resolved.as_deref().unwrap_or("")));
                if canonical(target) != want {
                    failures.push(format!("{id}: target {target:?}, not {want:?}"));
                }
                for name in std::fs::read_dir(target).into_iter().flatten().flatten() {
                    let name = name.file_name();
                    let listed = case.listed.iter().flatten().any(|l| name == **l);
                    let hidden = entry_hidden(&roots, &parts, target, &name);
                    if case.listed.is_some() && hidden != Some(!listed) {
                        failures.push(format!("{id}: entry {name:?} hidden: {hidden:?}"));
                    }
                }
            }
            _ => failures.push(format!("{id}: {verdict:?}")),
        }
    }
    assert!(judged >= 25, "{judged}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
