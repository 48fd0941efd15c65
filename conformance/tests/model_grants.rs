//! Grants against the reference model (`testkit::model::grants`) on
//! random trees: every scene's roots are asked about and granted as
//! directories, a few of its files (and one new name) as files, in a
//! `Roots` whose area is the whole tree and whose ceiling is empty, so
//! only the grants are served; the scene's hide and read-only patterns
//! that mean the same wherever they are anchored are the server's. The library never allows what the model
//! denies, touches the model's target whenever it allows, and allows
//! everything the model says must be allowed. Besides the scene's own
//! probes, each file grant is probed at its name, past it, beside it and
//! at its folder.

#![cfg(target_os = "linux")]

mod common;

use std::ffi::OsString;
use std::path::Path;
use std::sync::Mutex;

use mcp_roots::{GrantAccess, GrantKind, Patterns, Roots};
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use testkit::generate::scene;
use testkit::model::entry_hidden;
use testkit::model::grants::{Granted, anywhere, judge_granted};
use testkit::model::parts::Parts;
use testkit::{Fixture, Op, Scene, SetupOp, Verdict};

const PROBES_PER_SCENE: usize = 10;

#[derive(Debug, Default)]
struct Tally {
    probes: usize,
    denied: usize,
    allowed: usize,
    tolerated: usize,
    file_grants: usize,
    dir_grants: usize,
    with_patterns: usize,
}

/// The scene's roots and some of its files granted: what the library
/// granted, as the model knows it.
fn grant(scene: &Scene, fx: &Fixture, roots: &Roots) -> Granted {
    let mut granted = Granted::default();
    let files = scene.setup.iter().filter_map(|op| match op {
        SetupOp::File { path, .. } => Some(format!("{{T}}/{path}")),
        _ => None,
    });
    let asked = scene.roots.iter().cloned().chain(files.take(3));
    let asked = asked.chain(["{T}/a/granted_new.txt".to_owned()]);
    for path in asked {
        let Ok(about) = roots.load().may_ask(&fx.subst(&path), GrantAccess::Change) else {
            continue;
        };
        if roots.grant(&about).is_err() {
            continue;
        }
        match about.kind() {
            GrantKind::Directory => granted.dirs.push(about.path().to_owned()),
            _ => granted.files.push(about.path().to_owned()),
        }
    }
    granted
}

/// The scene's probes, and four around each file grant.
fn probes(scene: &Scene, fx: &Fixture, granted: &Granted) -> Vec<(Op, String)> {
    let mut probes: Vec<_> = scene
        .probes
        .iter()
        .map(|(op, input)| (*op, fx.subst(input)))
        .collect();
    for file in &granted.files {
        let file = file.to_string_lossy();
        let folder = file.rsplit_once('/').map_or("/", |(folder, _)| folder);
        probes.extend([
            (Op::Read, file.to_string()),
            (Op::WriteNew, file.to_string()),
            (Op::Read, format!("{file}/../x.txt")),
            (Op::WriteNew, format!("{folder}/beside.txt")),
            (Op::List, folder.to_owned()),
        ]);
    }
    probes
}

/// A listing under patterns holds what the disk holds but the entries the
/// model hides, and leaves out every entry it hides (an entry the model
/// leaves open may be either).
fn check_listing(
    granted: &Granted,
    parts: &Parts,
    dir: &Path,
    names: &[OsString],
) -> Result<(), String> {
    let dirs: Vec<String> = granted
        .dirs
        .iter()
        .map(|d| d.to_string_lossy().into_owned())
        .collect();
    let on_disk = common::listed_from_disk(dir, names)?;
    for name in &on_disk {
        match (entry_hidden(&dirs, parts, dir, name), names.contains(name)) {
            (Some(true), true) => return Err(format!("listed the hidden {name:?} of {dir:?}")),
            (Some(false), false) => return Err(format!("left out {name:?} of {dir:?}")),
            _ => {}
        }
    }
    Ok(())
}

fn check(scene: &Scene, tally: &Mutex<Tally>) -> Result<(), TestCaseError> {
    let fx = Fixture::with_setup(&scene.setup).map_err(|e| TestCaseError::reject(e.to_string()))?;
    let parts = anywhere(&scene.parts);
    let patterns = |list: &[String]| Patterns::parse(list.iter().map(String::as_str));
    let roots = Roots::builder()
        .ask_within([fx.t_str()])
        .hide(patterns(&parts.hide).map_err(|e| TestCaseError::fail(e.to_string()))?)
        .read_only(patterns(&parts.read_only).map_err(|e| TestCaseError::fail(e.to_string()))?)
        .build();
    let granted = grant(scene, &fx, &roots);
    let snapshot = roots.load();
    for (op, input) in probes(scene, &fx, &granted) {
        let verdict = judge_granted(&granted, &parts, &input, op);
        let before = (op == Op::WriteNew).then(|| fx.snapshot());
        let outcome = common::run(&snapshot, op, &input);
        let mut tally = tally.lock().expect("tally");
        tally.probes += 1;
        match (&verdict, outcome) {
            (Verdict::Deny { why }, Ok(touched)) => {
                return Err(TestCaseError::fail(format!(
                    "ESCAPE: {op} {input:?} allowed ({touched:?}) under {granted:?}; the model denies: {why}"
                )));
            }
            (Verdict::Deny { .. }, Err(_)) => {
                tally.denied += 1;
                if let Some(changes) = before.map(|b| b.diff(&fx.snapshot()))
                    && !changes.is_empty()
                {
                    return Err(TestCaseError::fail(format!(
                        "{op} {input:?} was refused but changed the tree: {changes:?}"
                    )));
                }
            }
            (Verdict::Allow { target, .. }, Ok(touched)) => {
                tally.allowed += 1;
                let checked = match &touched {
                    common::Touched::Listed(names) if !parts.is_empty() => {
                        check_listing(&granted, &parts, target, names)
                    }
                    _ => common::check_target(&touched, target),
                };
                checked.map_err(|why| {
                    TestCaseError::fail(format!("{op} {input:?} allowed, but {why}"))
                })?;
            }
            (Verdict::Allow { strict: false, .. }, Err(_)) => tally.tolerated += 1,
            (
                Verdict::Allow {
                    strict: true,
                    target,
                },
                Err(err),
            ) => {
                return Err(TestCaseError::fail(format!(
                    "{op} {input:?} refused ({err}, {}) under {granted:?}, but the model allows it: {target:?}",
                    err.reason()
                )));
            }
        }
    }
    let mut tally = tally.lock().expect("tally");
    tally.file_grants += granted.files.len();
    tally.dir_grants += granted.dirs.len();
    tally.with_patterns += usize::from(!parts.is_empty() && !granted.dirs.is_empty());
    Ok(())
}

#[test]
fn grants_agree_with_the_reference_model() {
    let scenes = common::scenes(300);
    let config = Config {
        cases: scenes,
        failure_persistence: None,
        ..Config::default()
    };
    let tally = Mutex::new(Tally::default());
    let mut runner = TestRunner::new(config);
    let result = runner.run(&scene(PROBES_PER_SCENE), |scene| check(&scene, &tally));
    let tally = tally.into_inner().expect("tally");
    eprintln!("{scenes} scenes: {tally:?}");
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(tally.allowed * 10 > tally.probes, "the grants must allow");
    assert!(
        tally.file_grants >= scenes as usize,
        "file grants: {}",
        tally.file_grants
    );
    assert!(
        tally.dir_grants >= scenes as usize,
        "directory grants: {}",
        tally.dir_grants
    );
    assert!(
        tally.with_patterns * 3 >= scenes as usize,
        "scenes with patterns and a directory grant: {}",
        tally.with_patterns
    );
}
