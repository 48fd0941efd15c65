//! Every case of the parts corpus (`testkit/data/parts_corpus.json`, the
//! ways around a string match of hide and read-only patterns) through the
//! public API, on a set with the case's own patterns: a deny is refused
//! with the case's reason and changes nothing, an allow touches exactly
//! the expected object, and a listing holds exactly the expected names.

#![cfg(unix)]

mod common;

use std::ffi::OsString;

use mcp_roots::{Error, Patterns, RootSet};
use testkit::parts_corpus::{self, PartsCase, PartsOp};
use testkit::{Fixture, Op};

fn set(case: &PartsCase, fx: &Fixture) -> RootSet {
    let mut builder = RootSet::builder();
    for root in &case.roots {
        builder = builder.root(fx.subst(root));
    }
    let parse = |p: &[String]| Patterns::parse(p).expect("the corpus' patterns parse");
    builder
        .hide(parse(&case.hide))
        .read_only(parse(&case.read_only))
        .build()
}

/// Runs the case's operation; what it touched, checked against the case.
fn run(case: &PartsCase, fx: &Fixture, set: &RootSet) -> Result<Result<(), String>, Error> {
    let input = fx.subst(&case.input);
    let resolved = case.resolved.as_deref().map(|r| fx.resolved(r));
    let simple = |op: Op| -> Result<Result<(), String>, Error> {
        let touched = common::run(set, op, &input)?;
        let Some(resolved) = &resolved else {
            return Ok(Err(format!("allowed: {touched:?}")));
        };
        Ok(match (&touched, &case.listed) {
            (common::Touched::Listed(names), Some(listed)) => {
                let want: Vec<OsString> = listed.iter().map(OsString::from).collect();
                if *names == want {
                    Ok(())
                } else {
                    Err(format!("listed {names:?}, expected {want:?}"))
                }
            }
            _ => common::check_target(&touched, resolved),
        })
    };
    match case.op {
        PartsOp::Read => simple(Op::Read),
        PartsOp::WriteNew => simple(Op::WriteNew),
        PartsOp::List => simple(Op::List),
        PartsOp::CreateDirAll => {
            set.create_dir_all(&input)?;
            Ok(match &resolved {
                Some(dir) if dir.is_dir() => Ok(()),
                other => Err(format!("created a directory, expected at {other:?}")),
            })
        }
        PartsOp::Rename => {
            let from = fx.subst(case.from.as_deref().expect("rename cases name `from`"));
            let content = std::fs::read(&from).ok();
            set.rename(&from, &input)?;
            Ok(match &resolved {
                Some(to) if std::fs::read(to).ok() == content && content.is_some() => Ok(()),
                other => Err(format!("renamed {from}, expected at {other:?}")),
            })
        }
    }
}

#[test]
fn parts_corpus() {
    let cases = parts_corpus::load();
    let mut failures = Vec::new();
    for case in &cases {
        let fx = Fixture::with_setup(&case.setup).expect("fixture");
        let set = set(case, &fx);
        let before = fx.snapshot();
        let outcome = run(case, &fx, &set);
        let reason = case.reason.as_deref();
        let changes = || before.diff(&fx.snapshot());
        failures.extend(common::verdict(
            &case.id,
            case.expect,
            reason,
            outcome,
            changes,
        ));
    }
    eprintln!("{} parts corpus cases", cases.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
