//! What [`confine_process`](crate::confine_process) got the kernel to
//! enforce, for a server's log.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::options::hardening::Writes;
use crate::root::Root;
use crate::sys::{Allowance, Restricted};

/// How much of the confinement the kernel holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Enforcement {
    /// Every right the library asks for, for the whole process.
    Full,
    /// Some of it: see [`ConfinementReport::not_enforced`].
    Partial,
    /// Nothing: no Landlock on this platform or kernel. Nothing changed
    /// (on Linux but for `PR_SET_NO_NEW_PRIVS`, set before the kernel is
    /// asked).
    Unsupported,
}

impl Enforcement {
    /// `full`, `partial` or `unsupported`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Full => "full",
            Self::Partial => "partial",
            Self::Unsupported => "unsupported",
        }
    }
}

/// A ceiling directory as the kernel now keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfinedDirectory {
    path: PathBuf,
    writes: Writes,
}

impl ConfinedDirectory {
    /// Its physical path when the ceiling was opened.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the kernel lets the process write beneath it.
    pub fn writes(&self) -> Writes {
        self.writes
    }
}

/// What [`confine_process`](crate::confine_process) did. Its `Display` is
/// one line for a log.
#[derive(Clone, Debug)]
pub struct ConfinementReport {
    enforcement: Enforcement,
    abi: Option<u32>,
    handled: Vec<&'static str>,
    directories: Vec<ConfinedDirectory>,
    allowances: &'static [Allowance],
    not_enforced: Vec<String>,
    threads: Option<usize>,
}

impl ConfinementReport {
    pub(crate) fn new(
        dirs: &[&Arc<Root>],
        restricted: Restricted,
        threads: Option<usize>,
        allowances: &'static [Allowance],
    ) -> Self {
        let directories: Vec<ConfinedDirectory> = dirs
            .iter()
            .map(|root| ConfinedDirectory {
                path: root.resolved_path().to_path_buf(),
                writes: root.writes(),
            })
            .collect();
        let enforced = !restricted.handled.is_empty();
        let mut not_enforced = Vec::new();
        if !enforced {
            not_enforced.push(
                "the kernel has no usable Landlock (or this is not Linux): nothing is enforced"
                    .to_owned(),
            );
        } else {
            let abi = restricted.abi.unwrap_or(0);
            if !restricted.missing.is_empty() {
                not_enforced.push(format!(
                    "Landlock ABI {abi} does not handle {}",
                    restricted.missing.join(", ")
                ));
            }
            if abi == 1 {
                not_enforced.push(
                    "Landlock ABI 1 refuses every rename or link into another directory, \
                     inside the ceiling too"
                        .to_owned(),
                );
            }
            match threads {
                Some(1) => {}
                Some(n) => not_enforced.push(format!(
                    "{} thread(s) started before confinement stay unconfined",
                    n - 1
                )),
                None => not_enforced.push(
                    "the threads could not be counted: any started before confinement stay \
                     unconfined"
                        .to_owned(),
                ),
            }
            for inner in directories.iter().filter(|d| d.writes == Writes::Refuse) {
                let outer = directories.iter().find(|outer| {
                    outer.writes == Writes::Allow && inner.path.starts_with(&outer.path)
                });
                if let Some(outer) = outer {
                    not_enforced.push(format!(
                        "read-only {} lies beneath writable {}: the kernel lets it be written \
                         (the library still refuses)",
                        inner.path.display(),
                        outer.path.display()
                    ));
                }
            }
        }
        let enforcement = match (enforced, not_enforced.is_empty()) {
            (false, _) => Enforcement::Unsupported,
            (true, true) => Enforcement::Full,
            (true, false) => Enforcement::Partial,
        };
        Self {
            enforcement,
            abi: restricted.abi,
            handled: restricted.handled,
            directories,
            allowances: if enforced { allowances } else { &[] },
            not_enforced,
            threads,
        }
    }

    /// How much the kernel holds.
    pub fn enforcement(&self) -> Enforcement {
        self.enforcement
    }

    /// The kernel's Landlock ABI version, if it has Landlock.
    pub fn abi(&self) -> Option<u32> {
        self.abi
    }

    /// The access rights the kernel now refuses outside the grants, by the
    /// kernel's names without `LANDLOCK_ACCESS_FS_`, lowercase
    /// (`read_file`, `write_file`, `refer`, `truncate`, …). Empty when
    /// nothing is enforced.
    pub fn handled(&self) -> &[&'static str] {
        &self.handled
    }

    /// The ceiling directories the process keeps, each read and write or
    /// read only.
    pub fn directories(&self) -> &[ConfinedDirectory] {
        &self.directories
    }

    /// What the process keeps outside the ceiling, each entry with why
    /// (empty when nothing is enforced).
    pub fn allowances(&self) -> &[Allowance] {
        self.allowances
    }

    /// What the confinement leaves to the library, one sentence each: the
    /// rights an older kernel lacks, threads that stay free, read-only
    /// ceiling directories beneath writable ones. Empty when
    /// [`Enforcement::Full`].
    pub fn not_enforced(&self) -> &[String] {
        &self.not_enforced
    }

    /// The process's thread count when it was confined (where it can be
    /// read).
    pub fn threads(&self) -> Option<usize> {
        self.threads
    }
}

impl fmt::Display for ConfinementReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "confinement {}", self.enforcement.as_str())?;
        if let Some(abi) = self.abi {
            write!(f, " (Landlock ABI {abi})")?;
        }
        f.write_str(": ")?;
        for (i, dir) in self.directories.iter().enumerate() {
            let how = match dir.writes {
                Writes::Allow => "rw",
                Writes::Refuse => "ro",
            };
            let sep = if i == 0 { "" } else { ", " };
            write!(
                f,
                "{sep}{how} {}",
                dir.path.display().to_string().escape_debug()
            )?;
        }
        if self.directories.is_empty() {
            f.write_str("no directory")?;
        }
        if !self.handled.is_empty() {
            write!(f, "; handled: {}", self.handled.join(" "))?;
        }
        for allowance in self.allowances {
            write!(f, "; kept: {} ({})", allowance.path, allowance.access)?;
        }
        for missing in &self.not_enforced {
            write!(f, "; not enforced: {}", missing.escape_debug())?;
        }
        Ok(())
    }
}
