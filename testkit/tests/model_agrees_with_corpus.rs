//! The reference model must give every corpus case its expected answer.

// Builds Unix trees (the kit's fixtures and model exist on Unix only).
#![cfg(unix)]

use std::path::{Path, PathBuf};

use testkit::corpus::{self, Case, Expect};
use testkit::{Fixture, Verdict, judge};

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
