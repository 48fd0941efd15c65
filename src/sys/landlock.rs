//! Linux: Landlock, the kernel's own copy of the ceiling
//! ([`crate::confine_process`]), through the `landlock` crate.
//!
//! One ruleset handles every filesystem right the kernel knows up to
//! [`TESTED`] (rights the crate knows from later ABIs are left alone: they
//! were never tried with this library); each ceiling directory gets a
//! rule beneath its own directory handle, so the rule holds the directory
//! the library pinned, not whatever its path names now. Nothing executes:
//! `Execute` is handled and granted nowhere.

use std::io;
use std::os::fd::OwnedFd;
use std::sync::OnceLock;

use landlock::{
    ABI, Access, AccessFs, BitFlags, CompatLevel, Compatible, LandlockStatus, PathBeneath,
    RestrictionStatus, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus,
};
use rustix::fs::{Mode, OFlags};

use super::{Allowance, Floor, Grant, Restricted};

/// The newest ABI whose rights this library was tested under: its rights
/// are the most a ruleset handles.
const TESTED: ABI = ABI::V7;

/// What the process keeps beneath the ceiling's back: each entry is opened
/// or listed after confinement by the library itself.
pub(crate) const ALLOWANCES: &[Allowance] = &[Allowance {
    path: "/proc/self/fd",
    access: "read_dir",
    why: "the descriptor budget counts the open descriptors by listing it (without it the \
          count silently reads 0 and roots past RLIMIT_NOFILE fail late); the listing \
          shows descriptor numbers only, and opening an entry is judged by the file it \
          names",
}];

/// The directory handles of [`ALLOWANCES`], held for the life of the
/// process: procfs makes a new inode for `/proc/PID/fd` when its dentry is
/// evicted, and a rule follows an inode, so the dentry is kept in use.
static HELD: OnceLock<Vec<OwnedFd>> = OnceLock::new();

/// Confines the calling thread (and every thread and child it makes from
/// now on) to `grants` and [`ALLOWANCES`].
pub(crate) fn restrict(grants: &[Grant<'_>], floor: Floor) -> io::Result<Restricted> {
    let ruleset = match floor {
        Floor::BestEffort => Ruleset::default(),
        // ABI 3: rename and link across directories (`Refer`) and
        // truncation are the kernel's to refuse too, or nothing happens.
        Floor::Abi3 => Ruleset::default()
            .set_compatibility(CompatLevel::HardRequirement)
            .handle_access(AccessFs::from_all(ABI::V3))
            .map_err(unsupported)?
            .set_compatibility(CompatLevel::BestEffort),
    };
    let mut created = ruleset
        .handle_access(AccessFs::from_all(TESTED))
        .and_then(|ruleset| ruleset.create())
        .map_err(unsupported)?;
    for grant in grants {
        let access = if grant.write {
            AccessFs::from_all(TESTED) & !AccessFs::Execute
        } else {
            AccessFs::ReadFile | AccessFs::ReadDir
        };
        created = created
            .add_rule(PathBeneath::new(grant.dir, access))
            .map_err(failed)?;
    }
    let held = HELD.get_or_init(|| ALLOWANCES.iter().filter_map(hold).collect());
    for fd in held {
        created = created
            .add_rule(PathBeneath::new(fd, AccessFs::ReadDir))
            .map_err(failed)?;
    }
    let status = created.restrict_self().map_err(failed)?;
    Ok(restricted(&status))
}

/// An O_PATH handle on an allowance's directory.
fn hold(allowance: &Allowance) -> Option<OwnedFd> {
    let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
    rustix::fs::open(allowance.path, flags, Mode::empty()).ok()
}

/// What the kernel took on.
fn restricted(status: &RestrictionStatus) -> Restricted {
    let abi = match status.landlock {
        LandlockStatus::Available {
            effective_abi,
            kernel_abi,
        } => Some(kernel_abi.map_or(effective_abi as u32, |k| k.unsigned_abs())),
        LandlockStatus::NotEnabled | LandlockStatus::NotImplemented => None,
    };
    let used = match status.landlock {
        LandlockStatus::Available { effective_abi, .. } => effective_abi.min(TESTED),
        _ => ABI::Unsupported,
    };
    let handled = match status.ruleset {
        RulesetStatus::NotEnforced => BitFlags::EMPTY,
        RulesetStatus::FullyEnforced | RulesetStatus::PartiallyEnforced => AccessFs::from_all(used),
    };
    let missing = if matches!(status.ruleset, RulesetStatus::FullyEnforced) && used == TESTED {
        BitFlags::EMPTY
    } else {
        AccessFs::from_all(TESTED) & !handled
    };
    Restricted {
        abi,
        handled: handled.iter().map(name).collect(),
        missing: missing.iter().map(name).collect(),
    }
}

/// The kernel's name of a right, without its `LANDLOCK_ACCESS_FS_` prefix,
/// lowercase.
fn name(access: AccessFs) -> &'static str {
    match access {
        AccessFs::Execute => "execute",
        AccessFs::WriteFile => "write_file",
        AccessFs::ReadFile => "read_file",
        AccessFs::ReadDir => "read_dir",
        AccessFs::RemoveDir => "remove_dir",
        AccessFs::RemoveFile => "remove_file",
        AccessFs::MakeChar => "make_char",
        AccessFs::MakeDir => "make_dir",
        AccessFs::MakeReg => "make_reg",
        AccessFs::MakeSock => "make_sock",
        AccessFs::MakeFifo => "make_fifo",
        AccessFs::MakeBlock => "make_block",
        AccessFs::MakeSym => "make_sym",
        AccessFs::Refer => "refer",
        AccessFs::Truncate => "truncate",
        AccessFs::IoctlDev => "ioctl_dev",
        _ => "other",
    }
}

/// A ruleset the kernel cannot build as asked: an `Unsupported` error.
fn unsupported(err: landlock::RulesetError) -> io::Error {
    io::Error::new(io::ErrorKind::Unsupported, err)
}

/// A rule or the restriction refused.
fn failed(err: landlock::RulesetError) -> io::Error {
    io::Error::other(err)
}

/// The number of threads of this process (`Threads:` of
/// `/proc/self/status`).
pub(crate) fn threads() -> io::Result<usize> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| io::Error::other("no thread count in /proc/self/status"))
}
