//! The resolver against `openat2` itself: every path of a small alphabet
//! over a tree of files, directories, a FIFO and symlinks of every kind,
//! for every kind of open and every hardening, must give the same object
//! or the same errno. Skipped where `openat2` is missing (it would compare
//! the resolver with itself).

use std::fs::File;
use std::io;
use std::os::fd::AsFd;
use std::os::unix::fs::symlink;

use cap_std::fs::Dir;
use rustix::fs::{Mode, OFlags, ResolveFlags};

use crate::options::Create;
use crate::options::hardening::{Hardening, MountPoints, Symlinks};
use crate::sys::{Access, How};

/// What an open gave, comparably. A file the open created is named by
/// where it was made, not by its inode: two creations of the same name get
/// different inode numbers whenever anything else on the file system
/// allocates one in between.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Opened {
        dev: u64,
        ino: u64,
        created: Option<&'static str>,
        mode: u32,
        flags: OFlags,
    },
    Failed(Option<i32>),
}

/// The names a create can make (only `missing` does not exist).
const CREATABLE: [&str; 3] = ["missing", "d/missing", "d/e/missing"];

fn outcome(dir: &Dir, result: io::Result<File>) -> Outcome {
    match result {
        Ok(file) => {
            let stat = rustix::fs::fstat(&file).expect("fstat");
            let wanted = OFlags::RWMODE | OFlags::PATH | OFlags::APPEND | OFlags::NONBLOCK;
            let made = |at: &&&'static str| {
                let flags = rustix::fs::AtFlags::SYMLINK_NOFOLLOW;
                rustix::fs::statat(dir.as_fd(), **at, flags)
                    .is_ok_and(|s| s.st_dev == stat.st_dev && s.st_ino == stat.st_ino)
            };
            let created = CREATABLE.iter().find(made).copied();
            Outcome::Opened {
                dev: stat.st_dev,
                ino: if created.is_some() { 0 } else { stat.st_ino },
                created,
                mode: stat.st_mode,
                flags: rustix::fs::fcntl_getfl(&file).expect("getfl") & wanted,
            }
        }
        Err(e) => Outcome::Failed(e.raw_os_error()),
    }
}

fn openat2_missing() -> bool {
    let flags = OFlags::PATH | OFlags::CLOEXEC;
    rustix::fs::openat2(
        rustix::fs::CWD,
        ".",
        flags,
        Mode::empty(),
        ResolveFlags::BENEATH,
    )
    .is_err_and(|e| e == rustix::io::Errno::NOSYS)
}

/// `start/` with files, directories, a FIFO and symlinks; `"missing"` is
/// the one name that does not exist (and the only one a create can make).
fn tree() -> (tempfile::TempDir, Dir) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let t = tmp.path().to_str().expect("utf-8").to_owned();
    let s = format!("{t}/start");
    for dir in ["", "/d", "/d/e"] {
        std::fs::create_dir(format!("{s}{dir}")).expect("mkdir");
    }
    for file in ["f", "d/f"] {
        std::fs::write(format!("{s}/{file}"), "x").expect("write");
    }
    std::fs::write(format!("{t}/outside"), "secret").expect("write");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        format!("{s}/fifo").as_str(),
        rustix::fs::FileType::Fifo,
        Mode::from_raw_mode(0o644),
        0,
    )
    .expect("mkfifo");
    let links = [
        ("l_f", "f".to_owned()),
        ("l_d", "d".to_owned()),
        ("l_dslash", "d/".to_owned()),
        ("l_dd", "d/..".to_owned()),
        ("l_dot", ".".to_owned()),
        ("l_up", "../start/f".to_owned()),
        ("l_out", "../outside".to_owned()),
        ("l_abs", "/etc".to_owned()),
        ("l_abs_in", format!("{s}/f")),
        ("l_loop", "l_loop".to_owned()),
        ("l_chain", "l_f".to_owned()),
        ("l_dangling", "missing".to_owned()),
        ("l_fifo", "fifo".to_owned()),
        ("l_fslash", "f/".to_owned()),
        ("d/l_upf", "../f".to_owned()),
        ("d/l_upd", "..".to_owned()),
    ];
    for (at, target) in links {
        symlink(target, format!("{s}/{at}")).expect("symlink");
    }
    let dir = Dir::open_ambient_dir(&s, cap_std::ambient_authority()).expect("open start");
    (tmp, dir)
}

/// Removes whatever a create made (only `missing` can be made).
fn clean(dir: &Dir) {
    for at in CREATABLE {
        let _ = rustix::fs::unlinkat(dir.as_fd(), at, rustix::fs::AtFlags::empty());
    }
}

fn hows() -> Vec<How> {
    let base = How::default();
    let mut hows = vec![
        base,
        How {
            directory: true,
            ..base
        },
        How::location(false, Hardening::default()),
        How::location(true, Hardening::default()),
        How {
            nofollow: true,
            ..How::location(false, Hardening::default())
        },
        How {
            nofollow: true,
            ..How::location(true, Hardening::default())
        },
        How {
            access: Access::Write,
            ..base
        },
        How {
            access: Access::ReadWrite,
            truncate: true,
            ..base
        },
        How {
            access: Access::Write,
            append: true,
            ..base
        },
        How {
            access: Access::Write,
            create: Create::OrOpen,
            ..base
        },
        How {
            access: Access::ReadWrite,
            create: Create::New,
            ..base
        },
    ];
    let hardened: Vec<How> = [
        Hardening {
            symlinks: Symlinks::Refuse,
            ..Hardening::default()
        },
        Hardening {
            mount_points: MountPoints::Refuse,
            ..Hardening::default()
        },
    ]
    .into_iter()
    .flat_map(|hardening| hows.iter().map(move |h| How { hardening, ..*h }))
    .collect();
    hows.extend(hardened);
    hows
}

fn paths(alphabet: &[&str], max_len: usize) -> Vec<String> {
    let mut out: Vec<String> = vec![String::new()];
    let mut frontier = vec![String::new()];
    for _ in 0..max_len {
        let mut next = Vec::new();
        for prefix in &frontier {
            for c in alphabet {
                let path = if prefix.is_empty() {
                    (*c).to_owned()
                } else {
                    format!("{prefix}/{c}")
                };
                next.push(path);
            }
        }
        out.extend(next.iter().cloned());
        frontier = next;
    }
    let slashed: Vec<String> = out.iter().map(|p| format!("{p}/")).collect();
    out.extend(slashed);
    out.extend(["//f", "d//f", "./f", "d/./", "d/e/../../f", "/f", "/"].map(String::from));
    out
}

fn compare(dir: &Dir, paths: &[String], hows: &[How]) -> Vec<String> {
    let mut differences = Vec::new();
    for how in hows {
        for path in paths {
            let kernel = outcome(dir, crate::sys::linux::open_beneath(dir, path, how));
            clean(dir);
            let ours = outcome(dir, super::open_beneath(dir, path, how));
            clean(dir);
            if kernel != ours {
                differences.push(format!(
                    "{path:?} {how:?}: openat2 {kernel:?}, walk {ours:?}"
                ));
            }
        }
    }
    differences
}

fn report(differences: &[String]) {
    let shown: Vec<&String> = differences.iter().take(40).collect();
    assert!(
        differences.is_empty(),
        "{} differences, first ones:\n{}",
        differences.len(),
        shown
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_walk_answers_as_openat2_does() {
    if openat2_missing() {
        eprintln!("skipped: openat2 is missing here, nothing to compare with");
        return;
    }
    let (_tmp, dir) = tree();
    let alphabet = [
        "d",
        "f",
        "fifo",
        "missing",
        "l_f",
        "l_d",
        "l_dslash",
        "l_dd",
        "l_dot",
        "l_up",
        "l_out",
        "l_abs",
        "l_abs_in",
        "l_loop",
        "l_chain",
        "l_dangling",
        "l_fifo",
        "l_fslash",
        ".",
        "..",
    ];
    let mut all = paths(&alphabet, 2);
    let deeper = [
        "d", "e", "f", "l_d", "l_upf", "l_upd", "l_dot", "..", "missing",
    ];
    all.extend(paths(&deeper, 3).into_iter().map(|p| format!("d/{p}")));
    report(&compare(&dir, &all, &hows()));
}

#[test]
fn the_walk_answers_as_openat2_does_in_proc_and_dev() {
    if openat2_missing() {
        eprintln!("skipped: openat2 is missing here, nothing to compare with");
        return;
    }
    let root = Dir::open_ambient_dir("/", cap_std::ambient_authority()).expect("open /");
    let paths: Vec<String> = [
        "proc/version",
        "proc/self",
        "proc/self/status",
        "proc/self/fd/0",
        "proc/self/fd",
        "proc/self/exe",
        "proc/self/cwd",
        "proc/self/root",
        "proc/self/cwd/",
        "proc/self/ns/net",
        "proc/mounts",
        "proc/thread-self",
        "dev/null",
        "dev",
        "tmp",
        "etc/passwd",
        "..",
        "proc/..",
    ]
    .map(String::from)
    .to_vec();
    // Only opens that change nothing on the real system.
    let hows: Vec<How> = hows()
        .into_iter()
        .filter(|h| !h.writes() && h.create == Create::No)
        .collect();
    report(&compare(&root, &paths, &hows));
}
