//! The model's hand-written walker must land where the kernel lands:
//! for the decoded path of every generated input, `walk` from `/` is
//! compared with `stat` (following the last link) and `lstat` (not).

// Builds Unix trees (the kit's fixtures and model exist on Unix only).
#![cfg(unix)]

use std::ffi::OsString;
use std::fs;
use std::io;
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use testkit::generate::scenario;
use testkit::model::input;
use testkit::model::walk::{Landing, Mode, Step, WalkError, walk};
use testkit::{Fixture, Scenario};

/// The path a list of steps spells (a final `.` keeps "must be a dir").
fn spell(steps: &[Step]) -> PathBuf {
    let mut bytes = Vec::new();
    for step in steps {
        bytes.push(b'/');
        match step {
            Step::Dot => bytes.push(b'.'),
            Step::DotDot => bytes.extend(b".."),
            Step::Name(name) => bytes.extend(name.as_encoded_bytes()),
        }
    }
    if bytes.is_empty() {
        bytes.push(b'/');
    }
    PathBuf::from(OsString::from_vec(bytes))
}

/// What the kernel says, reduced to (device, inode) or an errno.
fn kernel(path: &Path, follow: bool) -> Result<(u64, u64), i32> {
    let meta = if follow {
        fs::metadata(path)
    } else {
        fs::symlink_metadata(path)
    };
    meta.map(|m| (m.dev(), m.ino()))
        .map_err(|e| e.raw_os_error().unwrap_or(-1))
}

/// The same from the model's walk.
fn model(steps: &[Step], follow: bool) -> Result<(u64, u64), i32> {
    match walk(Path::new("/"), steps, Mode::Physical, follow) {
        Ok(Landing::Found { path, .. }) => {
            let meta = fs::symlink_metadata(&path).expect("a found path exists");
            Ok((meta.dev(), meta.ino()))
        }
        Ok(Landing::Missing { .. }) | Err(WalkError::NotFound(_)) => Err(2),
        Err(WalkError::NotADirectory(_)) => Err(20),
        Err(WalkError::Loop) => Err(40),
        Err(e) => panic!("unexpected walk error {e}"),
    }
}

/// Compares both for one scenario's input; `Err` describes a mismatch.
fn compare(s: &Scenario) -> io::Result<usize> {
    let fx = Fixture::with_setup(&s.setup)?;
    let Ok(parsed) = input::parse(&fx.subst(&s.input)) else {
        return Ok(0);
    };
    let path = spell(&parsed.steps);
    for follow in [true, false] {
        let (want, got) = (kernel(&path, follow), model(&parsed.steps, follow));
        if want != got {
            let msg = format!("{path:?} follow={follow}: kernel {want:?}, model {got:?}; {s:?}");
            return Err(io::Error::other(msg));
        }
    }
    Ok(1)
}

#[test]
fn walk_lands_where_the_kernel_lands() {
    let mut runner = TestRunner::deterministic();
    let strategy = scenario();
    let scenarios: Vec<Scenario> = (0..2000)
        .map(|_| {
            strategy
                .new_tree(&mut runner)
                .expect("a scenario")
                .current()
        })
        .collect();
    let compared: usize = std::thread::scope(|scope| {
        let workers: Vec<_> = scenarios
            .chunks(scenarios.len().div_ceil(8))
            .map(|chunk| scope.spawn(|| chunk.iter().map(compare).sum::<io::Result<usize>>()))
            .collect();
        let results = workers.into_iter().map(|w| w.join().expect("no panic"));
        results.map(|r| r.unwrap_or_else(|e| panic!("{e}"))).sum()
    });
    println!("compared {compared} decoded inputs with the kernel");
    assert!(compared > 1000);
}
