//! Every case of the grants corpus (`testkit/data/grants_corpus.json`:
//! the area that may be asked about, file and directory grants, the
//! ceiling's nested read-only directories and the server's patterns)
//! through the public API: each row's grants are asked about and granted
//! (for the session, or for the row's one call), then its question or its
//! operation runs. A deny is refused with the row's reason and changes
//! nothing; an allow touches exactly the expected object, and a question
//! names exactly the expected physical path.

#![cfg(unix)]

mod common;

use mcp_roots::{AskAbout, Error, GrantAccess, Patterns, Roots, Snapshot};
use testkit::grants_corpus::{self, GrantAccessRow, GrantsCase, GrantsOp, ScopeRow};
use testkit::{Fixture, Op};

fn roots(case: &GrantsCase, fx: &Fixture) -> Roots {
    let subst = |dirs: &[String]| dirs.iter().map(|d| fx.subst(d)).collect::<Vec<_>>();
    let parse = |p: &[String]| Patterns::parse(p).expect("the corpus' patterns parse");
    let mut builder = Roots::builder()
        .ask_within(subst(&case.ask_within))
        .hide(parse(&case.hide))
        .read_only(parse(&case.read_only));
    if let Some(ceiling) = &case.ceiling {
        builder = builder.ceiling(subst(ceiling));
    }
    if !case.read_only_ceiling.is_empty() {
        builder = builder.read_only_ceiling(subst(&case.read_only_ceiling));
    }
    let roots = builder.build();
    if !case.roots.is_empty() {
        roots.replace_uris(subst(&case.roots));
    }
    roots
}

fn access(row: GrantAccessRow) -> GrantAccess {
    match row {
        GrantAccessRow::Read => GrantAccess::Read,
        GrantAccessRow::Change => GrantAccess::Change,
    }
}

/// The snapshot the row's operation runs in: the session's, with the
/// row's grants for the call added; `Err` names a grant that failed.
fn granted<'r>(case: &GrantsCase, fx: &Fixture, roots: &'r Roots) -> Result<Snapshot<'r>, String> {
    let mut call: Vec<AskAbout> = Vec::new();
    for grant in &case.grants {
        let path = fx.subst(&grant.path);
        let about = roots
            .load()
            .may_ask(&path, access(grant.access))
            .map_err(|e| format!("may not ask about {path}: {e}"))?;
        match grant.scope {
            ScopeRow::Session => {
                roots
                    .grant(&about)
                    .map_err(|e| format!("grant {path}: {e}"))?;
            }
            ScopeRow::Call => call.push(about),
        }
    }
    let mut snapshot = roots.load();
    for about in &call {
        snapshot = snapshot
            .with_grant(about)
            .map_err(|e| format!("call grant {}: {e}", about.path().display()))?;
    }
    Ok(snapshot)
}

/// Runs the row's question or operation; what it touched, checked.
fn run(case: &GrantsCase, fx: &Fixture, snapshot: &Snapshot) -> Result<Result<(), String>, Error> {
    let input = fx.subst(&case.input);
    let resolved = case.resolved.as_deref().map(|r| fx.resolved(r));
    let op = match case.op {
        GrantsOp::AskRead | GrantsOp::AskChange => {
            let asked = match case.op {
                GrantsOp::AskRead => GrantAccess::Read,
                _ => GrantAccess::Change,
            };
            let about = snapshot.may_ask(&input, asked)?;
            return Ok(match &resolved {
                Some(want) if about.path() == want => Ok(()),
                other => Err(format!("asks about {:?}, expected {other:?}", about.path())),
            });
        }
        GrantsOp::Read => Op::Read,
        GrantsOp::WriteNew => Op::WriteNew,
        GrantsOp::List => Op::List,
    };
    let touched = common::run(snapshot, op, &input)?;
    Ok(match &resolved {
        Some(resolved) => common::check_target(&touched, resolved),
        None => Err(format!("allowed: {touched:?}")),
    })
}

#[test]
fn grants_corpus() {
    let cases = grants_corpus::load();
    let mut failures = Vec::new();
    for case in &cases {
        let fx = Fixture::with_setup(&case.setup).expect("fixture");
        let roots = roots(case, &fx);
        let id = &case.id;
        let snapshot = match granted(case, &fx, &roots) {
            Ok(snapshot) => snapshot,
            Err(why) => {
                failures.push(format!("{id}: {why}"));
                continue;
            }
        };
        let before = fx.snapshot();
        let outcome = run(case, &fx, &snapshot);
        let reason = case.reason.as_deref();
        let changes = || before.diff(&fx.snapshot());
        failures.extend(common::verdict(id, case.expect, reason, outcome, changes));
    }
    eprintln!("{} grants corpus cases", cases.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
