//! Plans: sequences of steps on one `Roots` session in a small tree,
//! with a model of which tracked handles must be revoked ([`model`]).
//!
//! The tree ([`tree`]) has roots-to-be `a`, `a/sub`, `b`, `b/sub`, a
//! directory `o` outside, and the alias `rl -> a`. A [`Step`] changes the
//! disk (mkdir, symlink, rename, remove: plain `std::fs` calls, failures
//! ignored), installs a root list (`replace`), opens a tracked file,
//! closes one, or rescans. Every name a step uses comes from the small
//! tables below, so any byte string decodes to a valid plan
//! ([`Plan::from_bytes`]) and proptest can shrink plans step by step.
//! [`check::plan`](crate::check::plan) runs a plan against the library.

pub mod model;

use std::fmt;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, subsequence};

use crate::corpus::SetupOp;

/// Directories a `mkdir` step may create.
pub const MKDIRS: &[&str] = &["c", "a/sub", "b/sub", "c/sub", "a/new", "o/sub", "a", "b"];

/// Where a `symlink` step may create a link.
pub const LINK_AT: &[&str] = &["rl", "c", "a/l", "a/sub/l", "b/sub", "a"];

/// Bodies of created links (relative to the link's directory).
pub const LINK_BODIES: &[&str] = &[
    "a", "b", "c", "o", "a/sub", "sub", "..", "../o", "../c", "{T}/b", "x.txt",
];

/// Entries a `rename` or `remove` step may name.
pub const ENTRIES: &[&str] = &[
    "a",
    "b",
    "c",
    "o",
    "rl",
    "a/sub",
    "b/sub",
    "o/sub",
    "c/sub",
    "a/x.txt",
    "a/sub/y.txt",
    "b/z.txt",
    "o/s.txt",
    "c/x.txt",
    "a/l",
];

/// Root directories a `replace` step draws from, in client order.
pub const ROOT_DIRS: &[&str] = &["a", "a/sub", "b", "b/sub", "c", "rl", "o"];

/// Files an `open` step may open (through the current roots).
pub const OPEN_FILES: &[&str] = &[
    "a/x.txt",
    "a/sub/y.txt",
    "b/z.txt",
    "b/sub/w.txt",
    "o/s.txt",
    "c/x.txt",
    "c/sub/y.txt",
    "rl/x.txt",
    "rl/sub/y.txt",
    "a/l/z.txt",
    "a/sub/l/x.txt",
    "c/z.txt",
];

/// The tree every plan starts from.
pub fn tree() -> Vec<SetupOp> {
    let file = |path: &str| SetupOp::File {
        path: path.into(),
        content: None,
    };
    let mut ops: Vec<SetupOp> = [
        "a/x.txt",
        "a/sub/y.txt",
        "b/z.txt",
        "b/sub/w.txt",
        "o/s.txt",
    ]
    .into_iter()
    .map(file)
    .collect();
    ops.push(SetupOp::Symlink {
        path: "rl".into(),
        target: "a".into(),
    });
    ops
}

/// One step of a plan; paths are relative to `{T}`.
#[derive(Clone, PartialEq, Eq)]
pub enum Step {
    /// `mkdir` (not `-p`).
    Mkdir(&'static str),
    /// A symlink at `at` whose body is `body` (`{T}` substituted).
    Symlink {
        /// Where.
        at: &'static str,
        /// The body.
        body: &'static str,
    },
    /// `rename(2)`, replacing what `to` allows.
    Rename {
        /// The entry moved.
        from: &'static str,
        /// Its new name.
        to: &'static str,
    },
    /// `unlink`, or `rmdir` for a directory (only if empty).
    Remove(&'static str),
    /// `Roots::replace` with these root directories (raw paths).
    Replace(Vec<&'static str>),
    /// `Roots::load().open` of this file; the handle is kept.
    Open(&'static str),
    /// Drops the `n`-th handle opened (modulo the count).
    Close(usize),
    /// `Roots::rescan`.
    Rescan,
}

impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Mkdir(dir) => write!(f, "mkdir {dir}"),
            Self::Symlink { at, body } => write!(f, "ln -s {body} {at}"),
            Self::Rename { from, to } => write!(f, "mv {from} {to}"),
            Self::Remove(entry) => write!(f, "rm {entry}"),
            Self::Replace(dirs) => write!(f, "replace {dirs:?}"),
            Self::Open(file) => write!(f, "open {file}"),
            Self::Close(n) => write!(f, "close #{n}"),
            Self::Rescan => f.write_str("rescan"),
        }
    }
}

/// A sequence of steps from [`tree`].
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Plan {
    /// The steps, in order.
    pub steps: Vec<Step>,
}

impl fmt::Debug for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.steps).finish()
    }
}

/// At most this many steps are decoded from bytes.
pub const MAX_STEPS: usize = 64;

impl Plan {
    /// Decodes a plan, three bytes a step: an opcode and two operands, each
    /// taken modulo its table's length (a missing byte counts as 0).
    /// Opcodes by `byte % 16`: 0–1 mkdir, 2–3 symlink, 4–5 rename, 6 remove,
    /// 7–9 replace (operand: a bit mask over [`ROOT_DIRS`]), 10–12 open,
    /// 13 close, 14–15 rescan.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let steps = bytes
            .chunks(3)
            .take(MAX_STEPS)
            .map(|chunk| {
                let [op, x, y] = [0, 1, 2].map(|i| chunk.get(i).copied().unwrap_or(0));
                decode(op, x, y)
            })
            .collect();
        Self { steps }
    }

    /// Encodes the plan so that [`Plan::from_bytes`] gives it back.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.steps.iter().flat_map(encode).collect()
    }
}

fn pick(table: &'static [&'static str], byte: u8) -> &'static str {
    table[usize::from(byte) % table.len()]
}

fn index(table: &[&str], name: &str) -> u8 {
    let i = table
        .iter()
        .position(|t| *t == name)
        .expect("a name from the table");
    u8::try_from(i).expect("small tables")
}

fn decode(op: u8, x: u8, y: u8) -> Step {
    match op % 16 {
        0 | 1 => Step::Mkdir(pick(MKDIRS, x)),
        2 | 3 => Step::Symlink {
            at: pick(LINK_AT, x),
            body: pick(LINK_BODIES, y),
        },
        4 | 5 => Step::Rename {
            from: pick(ENTRIES, x),
            to: pick(ENTRIES, y),
        },
        6 => Step::Remove(pick(ENTRIES, x)),
        7..=9 => {
            let dirs = ROOT_DIRS
                .iter()
                .enumerate()
                .filter(|(i, _)| x & (1 << i) != 0);
            Step::Replace(dirs.map(|(_, d)| *d).collect())
        }
        10..=12 => Step::Open(pick(OPEN_FILES, x)),
        13 => Step::Close(usize::from(x)),
        _ => Step::Rescan,
    }
}

fn encode(step: &Step) -> [u8; 3] {
    match step {
        Step::Mkdir(dir) => [0, index(MKDIRS, dir), 0],
        Step::Symlink { at, body } => [2, index(LINK_AT, at), index(LINK_BODIES, body)],
        Step::Rename { from, to } => [4, index(ENTRIES, from), index(ENTRIES, to)],
        Step::Remove(entry) => [6, index(ENTRIES, entry), 0],
        Step::Replace(dirs) => [7, dirs.iter().map(|d| 1 << index(ROOT_DIRS, d)).sum(), 0],
        Step::Open(file) => [10, index(OPEN_FILES, file), 0],
        Step::Close(n) => [13, u8::try_from(*n).unwrap_or(u8::MAX), 0],
        Step::Rescan => [14, 0, 0],
    }
}

/// One random step, weighted towards opens and root changes.
pub fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        2 => select(MKDIRS).prop_map(Step::Mkdir),
        2 => (select(LINK_AT), select(LINK_BODIES)).prop_map(|(at, body)| Step::Symlink { at, body }),
        3 => (select(ENTRIES), select(ENTRIES)).prop_map(|(from, to)| Step::Rename { from, to }),
        1 => select(ENTRIES).prop_map(Step::Remove),
        4 => subsequence(ROOT_DIRS, 0..=3).prop_map(Step::Replace),
        5 => select(OPEN_FILES).prop_map(Step::Open),
        1 => (0..8usize).prop_map(Step::Close),
        2 => Just(Step::Rescan),
    ]
}

/// Random plans of 1 to `max_steps` steps that start with a `replace`.
pub fn plan(max_steps: usize) -> impl Strategy<Value = Plan> {
    let first = subsequence(ROOT_DIRS, 1..=3).prop_map(Step::Replace);
    (first, vec(step(), 0..max_steps)).prop_map(|(first, rest)| Plan {
        steps: std::iter::once(first).chain(rest).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    #[test]
    fn plans_round_trip_through_bytes() {
        let mut runner = TestRunner::deterministic();
        for _ in 0..200 {
            let plan = plan(20).new_tree(&mut runner).unwrap().current();
            let mut bytes = plan.to_bytes();
            assert_eq!(Plan::from_bytes(&bytes), plan);
            bytes.push(99);
            assert_eq!(Plan::from_bytes(&bytes).steps.len(), plan.steps.len() + 1);
        }
        assert_eq!(
            format!("{:?}", Plan::from_bytes(&[4, 0, 2, 14])),
            "[mv a c, rescan]"
        );
    }
}
