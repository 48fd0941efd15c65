//! `confine_process`: the kernel keeps the ceiling. Confinement cannot be
//! undone, so each case runs in a child: this binary runs itself again
//! with the case's name in `CONFINE_CASE` (its own `main`, not libtest's,
//! so the child has the one thread that `Confinement::Required` asks for).
//!
//! Under the `no-openat2` launcher the children inherit its seccomp
//! filter, so every case runs on the library's own resolution too; under
//! `no-openat2 --no-landlock` (marker `MCP_ROOTS_NO_LANDLOCK`) Landlock is
//! gone and the cases check that nothing is confined and that
//! `Required` refuses.

use std::io::{ErrorKind as IoKind, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::mpsc;
use std::time::Duration;

use mcp_roots::{
    Confinement, ConfinementErrorKind, Enforcement, ErrorKind, GrantAccess, RootSet, Roots,
    WalkLimits, Writes, confine_process,
};

/// The variable that names the case a child runs.
const CASE: &str = "CONFINE_CASE";
/// The variable that gives a child its scratch directory.
const DIR: &str = "CONFINE_DIR";
/// Set by `no-openat2 --no-landlock`.
const NO_LANDLOCK: &str = "MCP_ROOTS_NO_LANDLOCK";

type Case = fn(&Path);

const CASES: &[(&str, Case)] = &[
    (
        "outside_is_refused_by_the_kernel",
        outside_is_refused_by_the_kernel,
    ),
    (
        "read_only_ceiling_is_read_only_for_the_kernel",
        read_only_ceiling_is_read_only_for_the_kernel,
    ),
    ("every_operation_works_inside", every_operation_works_inside),
    (
        "tracked_files_and_the_watcher_work_inside",
        tracked_files_and_the_watcher_work_inside,
    ),
    (
        "threads_started_later_are_confined",
        threads_started_later_are_confined,
    ),
    (
        "an_earlier_thread_makes_required_refuse",
        an_earlier_thread_makes_required_refuse,
    ),
    ("no_ceiling_is_refused", no_ceiling_is_refused),
    (
        "a_read_only_policy_is_read_only_for_the_kernel",
        a_read_only_policy_is_read_only_for_the_kernel,
    ),
    (
        "read_only_nested_in_writable_is_reported",
        read_only_nested_in_writable_is_reported,
    ),
    (
        "the_descriptor_count_survives",
        the_descriptor_count_survives,
    ),
    (
        "the_area_is_the_kernels_from_the_start",
        the_area_is_the_kernels_from_the_start,
    ),
];

fn main() -> ExitCode {
    if let Ok(name) = std::env::var(CASE) {
        let dir = PathBuf::from(std::env::var_os(DIR).expect("a scratch directory"));
        let (_, case) = CASES
            .iter()
            .find(|(n, _)| *n == name)
            .expect("a known case");
        case(&dir);
        return ExitCode::SUCCESS;
    }
    // `cargo test -- NAME` runs the cases whose names contain NAME.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let (mut passed, mut failed) = (0, 0);
    for (name, _) in CASES {
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let dir = tempfile::tempdir().expect("a temporary directory");
        let out = Command::new(std::env::current_exe().expect("this test binary"))
            .env(CASE, name)
            .env(DIR, dir.path())
            .output()
            .expect("the child runs");
        if out.status.success() {
            passed += 1;
            println!("test {name} ... ok");
        } else {
            failed += 1;
            println!("test {name} ... FAILED ({})", out.status);
            std::io::stdout().write_all(&out.stdout).ok();
            std::io::stdout().write_all(&out.stderr).ok();
        }
    }
    println!("\n{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Whether Landlock was taken away by the launcher.
fn without_landlock() -> bool {
    std::env::var_os(NO_LANDLOCK).is_some()
}

/// `dir/ceiling` (writable) holding `a/`, `b/` and files, `dir/shelf`
/// (read-only ceiling), `dir/outside.txt`; the roots of both.
fn fixture(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let ceiling = dir.join("ceiling");
    let shelf = dir.join("shelf");
    for sub in ["a/deep/er", "b"] {
        std::fs::create_dir_all(ceiling.join(sub)).unwrap();
    }
    std::fs::create_dir_all(&shelf).unwrap();
    std::fs::write(ceiling.join("a/note.md"), "inside").unwrap();
    std::fs::write(ceiling.join("a/deep/er/x.md"), "deep").unwrap();
    std::fs::write(shelf.join("book.md"), "shelved").unwrap();
    let outside = dir.join("outside.txt");
    std::fs::write(&outside, "outside").unwrap();
    (ceiling, shelf, outside)
}

fn policy(ceiling: &Path, shelf: &Path) -> Roots {
    Roots::builder()
        .ceiling([ceiling.to_str().unwrap()])
        .read_only_ceiling([shelf.to_str().unwrap()])
        .build()
}

/// Confines with `Required` (or, without Landlock, checks that it
/// refuses and that best effort changes nothing, then stops the case).
fn confine(roots: &Roots) -> mcp_roots::ConfinementReport {
    if without_landlock() {
        let err = confine_process(roots, Confinement::Required).unwrap_err();
        assert_eq!(err.kind(), ConfinementErrorKind::Unsupported, "{err}");
        let report = confine_process(roots, Confinement::BestEffort).unwrap();
        assert_eq!(report.enforcement(), Enforcement::Unsupported, "{report}");
        assert!(report.handled().is_empty() && report.allowances().is_empty());
        assert_eq!(
            std::fs::read_to_string("/etc/hostname").is_ok(),
            Path::new("/etc/hostname").exists()
        );
        println!("no Landlock: {report}");
        std::process::exit(0);
    }
    let report = confine_process(roots, Confinement::Required).unwrap();
    println!("{report}");
    report
}

fn denied(result: std::io::Result<impl std::fmt::Debug>, what: &str) {
    match result {
        Err(err) => assert_eq!(err.kind(), IoKind::PermissionDenied, "{what}: {err}"),
        Ok(v) => panic!("{what}: allowed after confinement: {v:?}"),
    }
}

fn outside_is_refused_by_the_kernel(dir: &Path) {
    let (ceiling, shelf, outside) = fixture(dir);
    let report = confine(&policy(&ceiling, &shelf));
    assert_eq!(report.enforcement(), Enforcement::Full, "{report}");
    assert!(report.abi().unwrap() >= 3);
    for right in ["read_file", "write_file", "refer", "truncate", "execute"] {
        assert!(report.handled().contains(&right), "{right}: {report}");
    }
    let dirs: Vec<_> = report
        .directories()
        .iter()
        .map(|d| (d.path().to_owned(), d.writes()))
        .collect();
    assert_eq!(dirs.len(), 2, "{report}");
    assert!(dirs.contains(&(ceiling.canonicalize().unwrap(), Writes::Allow)));
    assert!(dirs.contains(&(shelf.canonicalize().unwrap(), Writes::Refuse)));
    denied(std::fs::read(&outside), "read outside");
    denied(std::fs::read("/etc/passwd"), "read /etc/passwd");
    denied(std::fs::write(dir.join("new.txt"), "x"), "create outside");
    denied(std::fs::read_dir(dir), "list outside");
    denied(std::fs::File::open("/dev/null"), "open /dev/null");
    denied(std::fs::remove_file(&outside), "remove outside");
    denied(
        std::fs::rename(ceiling.join("a/note.md"), dir.join("moved.md")),
        "rename out",
    );
    denied(Command::new("/bin/true").status(), "run a program");
    // What Landlock does not judge: the metadata of a path.
    assert!(std::fs::metadata(&outside).is_ok());
    // Inside, std::fs works too.
    assert_eq!(
        std::fs::read_to_string(ceiling.join("a/note.md")).unwrap(),
        "inside"
    );
    std::fs::write(ceiling.join("b/new.md"), "new").unwrap();
    assert_eq!(std::fs::read_dir(ceiling.join("a")).unwrap().count(), 2);
}

fn read_only_ceiling_is_read_only_for_the_kernel(dir: &Path) {
    let (ceiling, shelf, _) = fixture(dir);
    confine(&policy(&ceiling, &shelf));
    assert_eq!(
        std::fs::read_to_string(shelf.join("book.md")).unwrap(),
        "shelved"
    );
    denied(
        std::fs::write(shelf.join("new.md"), "x"),
        "create in the shelf",
    );
    denied(
        std::fs::OpenOptions::new()
            .append(true)
            .open(shelf.join("book.md")),
        "append",
    );
    denied(
        std::fs::remove_file(shelf.join("book.md")),
        "remove in the shelf",
    );
    denied(std::fs::create_dir(shelf.join("sub")), "mkdir in the shelf");
    denied(
        std::fs::rename(ceiling.join("a/note.md"), shelf.join("note.md")),
        "rename in",
    );
}

fn every_operation_works_inside(dir: &Path) {
    let (ceiling, shelf, outside) = fixture(dir);
    let roots = policy(&ceiling, &shelf);
    let c = ceiling.to_str().unwrap();
    // Root a links into root b: the walk across roots follows it.
    std::os::unix::fs::symlink(ceiling.join("b"), ceiling.join("a/to-b")).unwrap();
    std::fs::write(ceiling.join("b/target.md"), "in b").unwrap();
    confine(&roots);
    let report = roots.replace(RootSet::from_uris([
        format!("file://{c}/a"),
        format!("file://{c}/b"),
        format!("file://{}", shelf.display()),
    ]));
    assert_eq!(
        roots.load().set().len(),
        3,
        "{report:?}: {:?}",
        roots.load().set().rejected()
    );
    let snap = roots.load();
    assert_eq!(
        snap.read_to_string(&format!("{c}/a/note.md")).unwrap(),
        "inside"
    );
    assert_eq!(
        snap.read_to_string(&format!("{c}/a/deep/er/x.md")).unwrap(),
        "deep"
    );
    {
        let mut f = snap.create_new(&format!("{c}/a/created.md")).unwrap();
        f.write_all(b"created").unwrap();
    }
    snap.write_atomic(&format!("{c}/a/atomic.md"), b"one")
        .unwrap();
    snap.write_atomic(&format!("{c}/a/atomic.md"), b"two")
        .unwrap();
    assert_eq!(snap.read(&format!("{c}/a/atomic.md")).unwrap(), b"two");
    snap.rename(
        &format!("{c}/a/created.md"),
        &format!("{c}/a/deep/renamed.md"),
    )
    .unwrap();
    snap.rename(
        &format!("{c}/a/deep/renamed.md"),
        &format!("{c}/b/across.md"),
    )
    .unwrap();
    assert_eq!(
        snap.copy(&format!("{c}/b/across.md"), &format!("{c}/a/copy.md"))
            .unwrap(),
        7
    );
    snap.create_dir_all(&format!("{c}/a/new/dirs")).unwrap();
    snap.remove_dir(&format!("{c}/a/new/dirs")).unwrap();
    snap.remove_file(&format!("{c}/a/copy.md")).unwrap();
    let mut names: Vec<String> = snap
        .read_dir(&format!("{c}/a"))
        .unwrap()
        .map(|e| e.unwrap().name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["atomic.md", "deep", "new", "note.md", "to-b"]);
    let walked = snap
        .walk(&format!("{c}/a"), WalkLimits::new(8, 100))
        .unwrap()
        .count();
    assert!(walked >= 6, "walked {walked}");
    // The walk across roots: a link in root a into root b.
    assert_eq!(
        snap.read_to_string(&format!("{c}/a/to-b/target.md"))
            .unwrap(),
        "in b"
    );
    // The read-only root: the library refuses before the kernel would.
    let shelf_book = format!("{}/book.md", shelf.display());
    assert_eq!(snap.read_to_string(&shelf_book).unwrap(), "shelved");
    let err = snap.write_atomic(&shelf_book, b"x").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ReadOnly);
    // Outside: the library's refusal, as before confinement.
    let err = snap.read(outside.to_str().unwrap()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::OutsideRoots);
}

fn tracked_files_and_the_watcher_work_inside(dir: &Path) {
    let (ceiling, shelf, _) = fixture(dir);
    let roots = policy(&ceiling, &shelf);
    let c = ceiling.to_str().unwrap();
    confine(&roots);
    roots.replace(RootSet::from_uris([
        format!("file://{c}/a"),
        format!("file://{c}/b"),
    ]));
    let mut held = roots.load().open(&format!("{c}/a/deep/er/x.md")).unwrap();
    assert_eq!(
        held.path().unwrap().to_uri(),
        format!("file://{c}/a/deep/er/x.md")
    );
    #[cfg(feature = "watch")]
    {
        let (tx, rx) = mpsc::channel();
        let _guard = roots
            .watch(move |event| {
                let _ = tx.send(format!("{event:?}"));
            })
            .unwrap();
        // The user moves the directory out of the roots (still inside the
        // ceiling): the watcher sees it, the handle is revoked.
        std::fs::rename(ceiling.join("a/deep"), ceiling.join("gone")).unwrap();
        let mut seen = Vec::new();
        while held.revoked().is_none() {
            match rx.recv_timeout(Duration::from_secs(10)) {
                Ok(event) => seen.push(event),
                Err(_) => panic!("no revocation within 10 s: {seen:?}"),
            }
        }
        let err = std::io::Read::read(&mut held, &mut [0; 4]).unwrap_err();
        assert_eq!(
            mcp_roots::Error::from_io(&err).unwrap().kind(),
            ErrorKind::ScopeLost
        );
    }
    #[cfg(not(feature = "watch"))]
    {
        let _ = (mpsc::channel::<()>, Duration::ZERO);
        std::fs::rename(ceiling.join("a/deep"), ceiling.join("gone")).unwrap();
        roots.rescan();
        assert!(held.revoked().is_some());
    }
}

fn threads_started_later_are_confined(dir: &Path) {
    let (ceiling, shelf, outside) = fixture(dir);
    confine(&policy(&ceiling, &shelf));
    let later = std::thread::spawn(move || std::fs::read(&outside).map(|_| ()));
    denied(later.join().unwrap(), "read outside from a later thread");
}

fn an_earlier_thread_makes_required_refuse(dir: &Path) {
    let (ceiling, shelf, outside) = fixture(dir);
    let roots = policy(&ceiling, &shelf);
    let (go, wait) = mpsc::channel::<()>();
    let earlier_outside = outside.clone();
    let earlier = std::thread::spawn(move || {
        wait.recv().unwrap();
        std::fs::read(&earlier_outside).map(|_| ())
    });
    let err = confine_process(&roots, Confinement::Required).unwrap_err();
    assert_eq!(err.kind(), ConfinementErrorKind::Threads, "{err}");
    assert!(err.to_string().contains("2 threads"), "{err}");
    // Nothing changed.
    assert!(std::fs::read(&outside).is_ok());
    // Best effort goes ahead and says what stays free.
    let report = confine_process(&roots, Confinement::BestEffort).unwrap();
    if without_landlock() {
        assert_eq!(report.enforcement(), Enforcement::Unsupported, "{report}");
        go.send(()).unwrap();
        assert!(earlier.join().unwrap().is_ok());
        return;
    }
    assert_eq!(report.enforcement(), Enforcement::Partial, "{report}");
    assert_eq!(report.threads(), Some(2));
    assert!(
        report
            .not_enforced()
            .iter()
            .any(|n| n.contains("1 thread(s)")),
        "{report}"
    );
    denied(
        std::fs::read(&outside),
        "read outside from the confining thread",
    );
    go.send(()).unwrap();
    // The earlier thread is free: the reason for the rule.
    assert!(earlier.join().unwrap().is_ok());
}

fn no_ceiling_is_refused(_dir: &Path) {
    for mode in [Confinement::BestEffort, Confinement::Required] {
        let err = confine_process(&Roots::builder().build(), mode).unwrap_err();
        assert_eq!(err.kind(), ConfinementErrorKind::NoCeiling, "{err}");
    }
    assert!(std::fs::read_dir("/").is_ok(), "nothing was confined");
}

/// The one allowance: the library lists `/proc/self/fd` to count its
/// descriptors, and nothing else of `/proc` opens.
fn the_descriptor_count_survives(dir: &Path) {
    let (ceiling, shelf, _) = fixture(dir);
    let report = confine(&policy(&ceiling, &shelf));
    assert_eq!(report.allowances().len(), 1);
    assert_eq!(report.allowances()[0].path, "/proc/self/fd");
    let before = std::fs::read_dir("/proc/self/fd").unwrap().count();
    let _more: Vec<_> = (0..3)
        .map(|_| std::fs::File::open(ceiling.join("a/note.md")).unwrap())
        .collect();
    assert_eq!(
        std::fs::read_dir("/proc/self/fd").unwrap().count(),
        before + 3
    );
    // From a thread too (/proc/self is the process, not the thread).
    let listed = std::thread::spawn(|| std::fs::read_dir("/proc/self/fd").map(|d| d.count()));
    assert!(listed.join().unwrap().unwrap() >= before + 3);
    denied(std::fs::read("/proc/self/status"), "read /proc/self/status");
    denied(std::fs::read_dir("/proc/self"), "list /proc/self");
}

fn a_read_only_policy_is_read_only_for_the_kernel(dir: &Path) {
    let (ceiling, _, _) = fixture(dir);
    let roots = Roots::builder()
        .ceiling([ceiling.to_str().unwrap()])
        .writes(Writes::Refuse)
        .build();
    let report = confine(&roots);
    assert_eq!(report.enforcement(), Enforcement::Full, "{report}");
    assert!(
        report
            .directories()
            .iter()
            .all(|d| d.writes() == Writes::Refuse),
        "{report}"
    );
    assert_eq!(
        std::fs::read_to_string(ceiling.join("a/note.md")).unwrap(),
        "inside"
    );
    denied(
        std::fs::write(ceiling.join("a/new.md"), "x"),
        "create under a read-only policy",
    );
    denied(
        std::fs::write(ceiling.join("a/note.md"), "x"),
        "truncate under a read-only policy",
    );
}

/// Landlock cannot deny beneath a grant: a read-only ceiling directory
/// inside a writable one is the library's alone, and the report says so.
fn read_only_nested_in_writable_is_reported(dir: &Path) {
    let (ceiling, _, _) = fixture(dir);
    let nested = ceiling.join("b");
    let roots = policy(&ceiling, &nested);
    let report = confine(&roots);
    assert_eq!(report.enforcement(), Enforcement::Partial, "{report}");
    assert!(
        report
            .not_enforced()
            .iter()
            .any(|n| n.contains("lies beneath writable")),
        "{report}"
    );
    roots.replace(RootSet::from_uris([format!("file://{}", nested.display())]));
    let err = roots
        .load()
        .write_atomic(&format!("{}/x.md", nested.display()), b"x")
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ReadOnly);
    // The kernel, on its own, lets it be written.
    std::fs::write(nested.join("x.md"), "x").unwrap();
}

/// With `ask_within` and no ceiling directory, the area alone is
/// confined to, from the start: a grant made after confinement is
/// reachable, the rest is the kernel's refusal too.
fn the_area_is_the_kernels_from_the_start(dir: &Path) {
    let (ceiling, _, outside) = fixture(dir);
    let roots = Roots::builder()
        .ask_within([ceiling.to_str().unwrap()])
        .build();
    let report = confine(&roots);
    let dirs: Vec<_> = report
        .directories()
        .iter()
        .map(|d| (d.path().to_owned(), d.writes()))
        .collect();
    assert_eq!(
        dirs,
        [(ceiling.canonicalize().unwrap(), Writes::Allow)],
        "{report}"
    );
    let note = ceiling.join("a/note.md");
    let about = roots
        .load()
        .may_ask(note.to_str().unwrap(), GrantAccess::Change)
        .unwrap();
    roots.grant(&about).unwrap();
    let snapshot = roots.load();
    assert_eq!(snapshot.read(note.to_str().unwrap()).unwrap(), b"inside");
    snapshot
        .write_atomic(note.to_str().unwrap(), b"changed")
        .unwrap();
    denied(std::fs::read(&outside), "read outside the area");
}
