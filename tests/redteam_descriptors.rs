//! Red team, class 3: `create_dir_all` holds a bounded number of
//! descriptors whatever the depth, so depth alone never makes it fail half
//! way. Its own test binary, with one test: it lowers the process's soft
//! `RLIMIT_NOFILE`.

#![cfg(target_os = "linux")]

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use mcp_roots::{ErrorKind, RootSet};
use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};

const DEPTH: usize = 1000;

/// The open descriptors of this process, without the one that listed them.
fn open_fds() -> Vec<u32> {
    let listed: Vec<u32> = std::fs::read_dir("/proc/self/fd")
        .expect("/proc/self/fd")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect();
    // The listing's descriptor is closed now; a `stat` opens none.
    listed
        .into_iter()
        .filter(|fd| std::fs::symlink_metadata(format!("/proc/self/fd/{fd}")).is_ok())
        .collect()
}

/// The soft limit under which exactly `free` more descriptors can be
/// opened (descriptors are numbered below the limit; holes are reused).
fn limit_leaving(free: u64) -> u64 {
    let open = open_fds();
    let mut limit = 0;
    loop {
        let taken = open.iter().filter(|&&fd| u64::from(fd) < limit).count() as u64;
        if limit - taken == free {
            return limit;
        }
        limit += 1;
    }
}

/// Restores the soft limit on drop (cleaning a deep tree needs
/// descriptors).
struct Restore(Rlimit);

impl Drop for Restore {
    fn drop(&mut self) {
        setrlimit(Resource::Nofile, self.0).expect("restore RLIMIT_NOFILE");
    }
}

fn set_soft(limit: u64, original: &Rlimit) {
    setrlimit(
        Resource::Nofile,
        Rlimit {
            current: Some(limit),
            maximum: original.maximum,
        },
    )
    .expect("setrlimit");
}

#[test]
fn create_dir_all_holds_a_bounded_number_of_descriptors_at_any_depth() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().to_str().expect("utf-8").to_owned();
    let set = RootSet::from_uris([root.as_str()]);
    assert_eq!(set.len(), 1);
    let deep = |name: &str| format!("{root}/{name}{}", "/d".repeat(DEPTH - 1));
    let original = getrlimit(Resource::Nofile);

    // Peak seen from a second thread while one call runs unconstrained.
    let baseline = open_fds().len();
    let (running, peak) = (AtomicBool::new(true), AtomicUsize::new(0));
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while running.load(Ordering::Relaxed) {
                peak.fetch_max(open_fds().len(), Ordering::Relaxed);
            }
        });
        set.create_dir_all(&deep("watched"))
            .expect("create_dir_all");
        running.store(false, Ordering::Relaxed);
    });
    let watched = peak.load(Ordering::Relaxed).saturating_sub(baseline);

    // Exactly: the fewest free descriptors with which the call succeeds.
    let _restore = Restore(original);
    let mut needed = None;
    for free in 0..=8u64 {
        let name = format!("limited{free}");
        set_soft(limit_leaving(free), &original);
        let result = set.create_dir_all(&deep(&name));
        set_soft(original.current.unwrap_or(1024), &original);
        match result {
            Ok(()) => {
                needed = Some(free);
                break;
            }
            Err(err) => {
                assert_eq!(err.kind(), ErrorKind::Io, "{free} free: {err}");
                // It failed on descriptors: some of the tree may be there.
            }
        }
    }
    eprintln!(
        "create_dir_all at depth {DEPTH}: needs {needed:?} free descriptors; \
         a second thread saw at most {watched} more than before the call"
    );
    let needed = needed.expect("create_dir_all at depth 1000 within 8 descriptors");
    assert!(needed <= 2, "{needed} descriptors");
    assert!(std::path::Path::new(&deep(&format!("limited{needed}"))).is_dir());
}
