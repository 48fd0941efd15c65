//! The line diff the original's patch is built on (jsdiff's `diffLines`):
//! Myers' O(ND) greedy search over lines, with jsdiff's own choices where
//! several shortest scripts exist, so that the script, not only its length,
//! is the original's.
//!
//! - A line is its text with the `\n` that ends it (a `\r` before it is
//!   part of the line); a last line without one is a line of its own, so
//!   `b` and `b\n` differ.
//! - The search runs the diagonals of each edit length from the lowest.
//!   On each it extends a neighbour's path by one line: when both an
//!   insertion (from the diagonal above) and a removal (from the one below)
//!   stay within the texts, the insertion only if its path is strictly
//!   farther into the old lines. Equal lines are then followed as far as
//!   they go.
//! - Once a path touches the end of the old lines (or of the new), no
//!   diagonal beyond it is tried again: jsdiff's pruning, which changes
//!   which of the shortest scripts is found.
//! - Removals and insertions stay in the order the path took them, so an
//!   insertion may come before a kept line and a removal after it.

use std::rc::Rc;

/// What a step of the script does with its lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Lines in both texts.
    Kept,
    /// Lines only in the old text.
    Removed,
    /// Lines only in the new text.
    Added,
}

/// The lines of `text`, each with its `\n`; the last may have none.
pub(super) fn split(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// The edit script from `old` to `new`: runs of one kind with their
/// lengths, in order (kept and removed runs consume `old`, kept and added
/// runs consume `new`).
pub(super) fn script(old: &[&str], new: &[&str]) -> Vec<(Kind, usize)> {
    Search { old, new }.run()
}

/// A run of the script, linked to the run before it. Paths share their
/// common beginnings, so a run is never changed once made.
struct Run {
    kind: Kind,
    count: usize,
    before: Option<Rc<Run>>,
}

impl Drop for Run {
    // A chain as long as a file's lines: unlinked one run at a time, not by
    // recursion.
    fn drop(&mut self) {
        let mut next = self.before.take();
        while let Some(run) = next {
            next = match Rc::try_unwrap(run) {
                Ok(mut run) => run.before.take(),
                Err(_) => None,
            };
        }
    }
}

/// The farthest path found on one diagonal: the index of the last old line
/// it consumed (-1 for none) and its last run.
#[derive(Clone)]
struct Path {
    old_end: isize,
    last: Option<Rc<Run>>,
}

impl Path {
    /// This path one step further, by a line of `kind`.
    fn step(&self, kind: Kind) -> Path {
        let run = match &self.last {
            Some(last) if last.kind == kind => Run {
                kind,
                count: last.count + 1,
                before: last.before.clone(),
            },
            _ => Run {
                kind,
                count: 1,
                before: self.last.clone(),
            },
        };
        Path {
            old_end: self.old_end + isize::from(kind == Kind::Removed),
            last: Some(Rc::new(run)),
        }
    }

    /// The runs from the first.
    fn into_script(self) -> Vec<(Kind, usize)> {
        let mut runs = Vec::new();
        let mut at = self.last.as_deref();
        while let Some(run) = at {
            runs.push((run.kind, run.count));
            at = run.before.as_deref();
        }
        runs.reverse();
        runs
    }
}

struct Search<'a> {
    old: &'a [&'a str],
    new: &'a [&'a str],
}

impl Search<'_> {
    fn run(&self) -> Vec<(Kind, usize)> {
        let (old_len, new_len) = (len(self.old), len(self.new));
        let most = old_len + new_len;
        // Diagonal d (old index minus new index) at d + shift; the search
        // reads one beyond the edit length on each side.
        let shift = most + 1;
        let at = |d: isize| usize::try_from(d + shift).unwrap_or(0);
        let mut best: Vec<Option<Path>> = vec![None; at(most + 1) + 1];

        let mut first = Path {
            old_end: -1,
            last: None,
        };
        let new_end = self.follow(&mut first, 0);
        if first.old_end + 1 >= old_len && new_end + 1 >= new_len {
            return first.into_script();
        }
        best[at(0)] = Some(first);

        let (mut lowest, mut highest) = (isize::MIN, isize::MAX);
        for edits in 1..=most {
            let mut d = lowest.max(-edits);
            while d <= highest.min(edits) {
                let below = best[at(d - 1)].take();
                let above = best[at(d + 1)].as_ref();
                let can_add = above.filter(|p| (0..new_len).contains(&(p.old_end - d)));
                let can_remove = below.as_ref().filter(|p| p.old_end + 1 < old_len);
                let mut path = match (can_add, can_remove) {
                    (None, None) => {
                        best[at(d)] = None;
                        d += 2;
                        continue;
                    }
                    (Some(add), Some(remove)) if remove.old_end < add.old_end => {
                        add.step(Kind::Added)
                    }
                    (Some(add), None) => add.step(Kind::Added),
                    (_, Some(remove)) => remove.step(Kind::Removed),
                };
                let new_end = self.follow(&mut path, d);
                let old_done = path.old_end + 1 >= old_len;
                let new_done = new_end + 1 >= new_len;
                if old_done && new_done {
                    return path.into_script();
                }
                if old_done {
                    highest = highest.min(d - 1);
                }
                if new_done {
                    lowest = lowest.max(d + 1);
                }
                best[at(d)] = Some(path);
                d += 2;
            }
        }
        // Not reached: a path meets both ends within old + new edits.
        [
            (Kind::Removed, self.old.len()),
            (Kind::Added, self.new.len()),
        ]
        .into_iter()
        .filter(|&(_, n)| n > 0)
        .collect()
    }

    /// Follows equal lines from `path`'s end on diagonal `d` and returns the
    /// index of the last new line consumed.
    fn follow(&self, path: &mut Path, d: isize) -> isize {
        let mut old_end = path.old_end;
        let mut new_end = old_end - d;
        let mut count = 0;
        while let (Some(o), Some(n)) = (
            self.old.get(index(old_end + 1)),
            self.new.get(index(new_end + 1)),
        ) {
            if o != n {
                break;
            }
            old_end += 1;
            new_end += 1;
            count += 1;
        }
        if count > 0 {
            path.last = Some(Rc::new(Run {
                kind: Kind::Kept,
                count,
                before: path.last.take(),
            }));
        }
        path.old_end = old_end;
        new_end
    }
}

fn len(lines: &[&str]) -> isize {
    isize::try_from(lines.len()).unwrap_or(isize::MAX)
}

/// `i` as an index; a negative one reads nothing.
fn index(i: isize) -> usize {
    usize::try_from(i).unwrap_or(usize::MAX)
}
