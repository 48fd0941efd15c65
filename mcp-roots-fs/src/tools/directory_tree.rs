//! `directory_tree`: the tree as JSON, 2-space indented, each entry
//! `{name, type, children}` (`children` on directories only), each
//! directory's entries by name in byte order, as the original's libuv
//! `readdir` gives them. `excludePatterns` as the original applies them
//! (see `glob::Exclusions`). A symlink is a `file` and is not
//! followed, so a link loop cannot recur. `depth` (2.3.0) limits the
//! levels: the directories at the last level are not read and have no
//! `children`. Bounded (entries, depth, deadline), on the blocking pool,
//! with progress and cancellation.

use std::fmt::Write as _;

use mcp_roots::{FileType, Snapshot};
use mcp_roots_rmcp::{Progress, Stop};
use rmcp::model::CallToolResult;

use crate::context::Bounds;
use crate::original::glob::Exclusions;
use crate::original::paths::target;
use crate::original::reply;
use crate::threads;
use crate::tools::args::DirectoryTree;
use crate::walk::{ALONE, OnError, walk};

/// The JSON tree below `args.path`: the tool's body over one snapshot of
/// the roots, callable without a tool call.
pub(crate) fn tree(
    snap: &Snapshot<'_>,
    bounds: Bounds,
    progress: &Progress,
    args: &DirectoryTree,
) -> Result<CallToolResult, Stop> {
    let exclude = Exclusions::new(&args.exclude_patterns);
    let start = target(snap, &args.path);
    // The levels asked for, when fewer than --max-depth allows: the
    // directories at the last one are listed unread, and reaching it is
    // what was asked, not a walk stopped early.
    let asked = args
        .depth
        .map(|depth| usize::try_from(depth.get()).unwrap_or(usize::MAX))
        .filter(|&depth| depth <= bounds.max_depth);
    let bounds = Bounds {
        max_depth: asked.unwrap_or(bounds.max_depth),
        ..bounds
    };
    let outcome = walk(
        snap,
        &start,
        bounds,
        progress,
        &exclude,
        OnError::Fail,
        Walked::default,
        |walked, found| {
            let name = found.rel.rsplit('/').next().unwrap_or_default();
            let kind = match found.file_type {
                FileType::Dir if asked == Some(found.depth) => Kind::Unread,
                FileType::Dir => Kind::Dir,
                _ => Kind::File,
            };
            walked.push(name, found.depth, kind);
            Ok(())
        },
    )?;
    let stopped = if asked.is_some() && outcome.only_depth {
        None
    } else {
        outcome.stopped
    };
    let text = Walked::joined(outcome.units).text();
    Ok(reply::text_stopped(text, stopped))
}

/// What an entry of the tree is: a file (or a link), a directory with its
/// `children`, or a directory at the last level `depth` asks for, not read
/// (no `children`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    File,
    Dir,
    Unread,
}

impl Kind {
    #[cfg(test)]
    fn dir(dir: bool) -> Self {
        if dir { Kind::Dir } else { Kind::File }
    }
}

/// The walk's entries in its pre-order (each directory's subtree right
/// after it), their names in one buffer, to be written with each
/// directory's entries by name in byte order: only siblings are compared,
/// by their names alone.
#[derive(Default)]
struct Walked {
    names: String,
    /// Where each name lies in `names`, its depth, what it is.
    entries: Vec<(usize, usize, usize, Kind)>,
    /// For each entry, the index past its subtree (filled by `write`).
    ends: Vec<usize>,
}

impl Walked {
    fn push(&mut self, name: &str, depth: usize, kind: Kind) {
        let start = self.names.len();
        self.names.push_str(name);
        self.entries.push((start, name.len(), depth, kind));
    }

    /// The units' entries one after the other (the walk's pre-order).
    fn joined(units: Vec<Walked>) -> Walked {
        let mut units = units.into_iter();
        let mut all = units.next().unwrap_or_default();
        for unit in units {
            let offset = all.names.len();
            all.names.push_str(&unit.names);
            all.entries.extend(
                unit.entries
                    .into_iter()
                    .map(|(start, len, depth, dir)| (start + offset, len, depth, dir)),
            );
        }
        all
    }

    fn name(&self, index: usize) -> &str {
        let (start, len, _, _) = self.entries[index];
        &self.names[start..start + len]
    }

    /// The tree's text. The start's own entries, by name, are cut into
    /// runs of about equal subtrees, each written on a thread of its own
    /// (up to [`threads::MAX_THREADS`], one per core, when there are 4 × [`ALONE`]
    /// entries or more), the runs' texts then joined.
    fn text(self) -> String {
        let threads = if self.entries.len() < 4 * ALONE as usize {
            1
        } else {
            threads::available()
        };
        self.text_on(threads)
    }

    /// [`text`](Self::text) on at most `threads` threads.
    fn text_on(mut self, threads: usize) -> String {
        let n = self.entries.len();
        self.ends = vec![n; n];
        let mut open: Vec<usize> = Vec::new();
        for index in 0..n {
            let depth = self.entries[index].2;
            while open.last().is_some_and(|&o| self.entries[o].2 >= depth) {
                let closed = open.pop().expect("checked");
                self.ends[closed] = index;
            }
            open.push(index);
        }
        let tops = self.siblings(0, n);
        let threads = threads.clamp(1, tops.len().max(1));
        // Runs of the start's entries, each about n / threads entries with
        // their subtrees.
        let mut runs: Vec<&[usize]> = Vec::with_capacity(threads);
        let (mut from, mut size) = (0, 0);
        for (at, &top) in tops.iter().enumerate() {
            size += self.ends[top] - top;
            if size * threads >= n * (runs.len() + 1) && runs.len() + 1 < threads {
                runs.push(&tops[from..=at]);
                from = at + 1;
            }
        }
        runs.push(&tops[from..]);
        let this = &self;
        let write_run = |k: usize, run: &&[usize]| {
            let count = run.iter().map(|&t| this.ends[t] - t).sum::<usize>();
            let mut piece = TreeText::piece(k == 0, count * 80);
            for &top in run.iter() {
                this.write_one(&mut piece, top);
            }
            piece.end_piece()
        };
        let pieces = threads::map(&runs, write_run);
        let mut text = String::with_capacity(3 + pieces.iter().map(String::len).sum::<usize>());
        text.push('[');
        for piece in &pieces {
            text.push_str(piece);
        }
        if n > 0 {
            text.push('\n');
        }
        text.push(']');
        text
    }

    /// The entries that start in `lo..hi` and are siblings, by name.
    fn siblings(&self, lo: usize, hi: usize) -> Vec<usize> {
        let mut siblings = Vec::new();
        let mut at = lo;
        while at < hi {
            siblings.push(at);
            at = self.ends[at];
        }
        siblings.sort_unstable_by(|&a, &b| self.name(a).as_bytes().cmp(self.name(b).as_bytes()));
        siblings
    }

    /// The entry `index` and its subtree.
    fn write_one(&self, tree: &mut TreeText, index: usize) {
        let (_, _, depth, kind) = self.entries[index];
        tree.push_kind(depth, self.name(index), kind);
        if kind == Kind::Dir {
            self.write_range(tree, index + 1, self.ends[index]);
        }
    }

    /// Writes the subtrees that start in `lo..hi` (siblings), by name.
    fn write_range(&self, tree: &mut TreeText, lo: usize, hi: usize) {
        for index in self.siblings(lo, hi) {
            self.write_one(tree, index);
        }
    }
}

/// The tree's text, written in pre-order: what `JSON.stringify(tree,
/// null, 2)` prints for the original's nodes `{name, type, children}`
/// (`children` on directories only), without building the nodes first.
/// A pre-order listing of (depth, name, is_dir) is all it needs: an entry
/// at depth `d` closes the directories deeper than `d - 1` that are still
/// open, then opens its own object (and its `children`, if a directory).
struct TreeText {
    text: String,
    /// The arrays still open, the top level's first: whether each has an
    /// element yet.
    open: Vec<bool>,
}

impl TreeText {
    /// A whole tree, written entry by entry (the tests' way; the tool
    /// writes runs with [`piece`](Self::piece)).
    #[cfg(test)]
    fn new() -> Self {
        Self {
            text: "[".to_owned(),
            open: vec![false],
        }
    }

    /// The entry `name` at `depth` (1: the start's own entries), after the
    /// entries before it in pre-order: a directory (with its `children`)
    /// or a file.
    #[cfg(test)]
    fn push(&mut self, depth: usize, name: &str, dir: bool) {
        self.push_kind(depth, name, Kind::dir(dir));
    }

    /// The entry `name` at `depth`, after the entries before it in
    /// pre-order, for any [`Kind`] (the tests' `push` takes a bool).
    fn push_kind(&mut self, depth: usize, name: &str, kind: Kind) {
        // An entry belongs to the array of its parent (depth - 1 levels
        // below the top one); one deeper than an open array goes in the
        // innermost.
        let level = depth.saturating_sub(1).min(self.open.len() - 1);
        while self.open.len() > level + 1 {
            self.close();
        }
        let has_elements = self.open.last_mut().expect("the top array stays open");
        self.text.push_str(if *has_elements { ",\n" } else { "\n" });
        *has_elements = true;
        let indent = 4 * level + 2;
        self.indent(indent);
        self.text.push_str("{\n");
        self.indent(indent + 2);
        self.text.push_str("\"name\": ");
        push_json_string(&mut self.text, name);
        self.text.push_str(",\n");
        self.indent(indent + 2);
        match kind {
            Kind::Dir => {
                self.text.push_str("\"type\": \"directory\",\n");
                self.indent(indent + 2);
                self.text.push_str("\"children\": [");
                self.open.push(false);
            }
            Kind::Unread => {
                self.text.push_str("\"type\": \"directory\"\n");
                self.indent(indent);
                self.text.push('}');
            }
            Kind::File => {
                self.text.push_str("\"type\": \"file\"\n");
                self.indent(indent);
                self.text.push('}');
            }
        }
    }

    /// Closes the innermost open directory: its `children` and its object.
    fn close(&mut self) {
        let level = self.open.len() - 1;
        let had_elements = self.open.pop().expect("a directory is open");
        // The directory's object is at 4 * (level - 1) + 2, its fields
        // (and the closing bracket) 2 further.
        if had_elements {
            self.text.push('\n');
            self.indent(4 * level);
        }
        self.text.push_str("]\n");
        self.indent(4 * level - 2);
        self.text.push('}');
    }

    /// A run of the start's entries, to be joined after the others
    /// (`first`: the run that opens the top array), about `bytes` long.
    fn piece(first: bool, bytes: usize) -> Self {
        Self {
            text: String::with_capacity(bytes),
            open: vec![!first],
        }
    }

    /// The run's text: its directories closed, the top array left open.
    fn end_piece(mut self) -> String {
        while self.open.len() > 1 {
            self.close();
        }
        self.text
    }

    #[cfg(test)]
    fn finish(mut self) -> String {
        while self.open.len() > 1 {
            self.close();
        }
        if self.open[0] {
            self.text.push('\n');
        }
        self.text.push(']');
        self.text
    }

    fn indent(&mut self, mut n: usize) {
        // A slice of spaces at a time, not a space at a time: a deep tree's
        // text is mostly indentation.
        const SPACES: &str = "                                                                ";
        while n > SPACES.len() {
            self.text.push_str(SPACES);
            n -= SPACES.len();
        }
        self.text.push_str(&SPACES[..n]);
    }
}

/// `s` as a JSON string, escaped as serde_json (and `JSON.stringify`)
/// escape it: `"`, `\\` and the control characters.
fn push_json_string(out: &mut String, s: &str) {
    if !s.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
        out.push('"');
        out.push_str(s);
        out.push('"');
        return;
    }
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    /// The nodes as the original builds them, printed by serde_json: the
    /// reference the text written as the walk goes must equal.
    #[derive(Serialize)]
    struct Node {
        name: String,
        #[serde(rename = "type")]
        kind: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        children: Option<Vec<Node>>,
    }

    fn nodes(flat: &[(usize, &str, bool)], at: &mut usize, depth: usize) -> Vec<Node> {
        let mut out = Vec::new();
        while let Some(&(d, name, dir)) = flat.get(*at) {
            if d < depth {
                break;
            }
            *at += 1;
            out.push(Node {
                name: name.to_owned(),
                kind: if dir { "directory" } else { "file" },
                children: dir.then(|| nodes(flat, at, depth + 1)),
            });
        }
        out
    }

    fn written(flat: &[(usize, &str, bool)]) -> String {
        let mut tree = TreeText::new();
        for &(depth, name, dir) in flat {
            tree.push(depth, name, dir);
        }
        tree.finish()
    }

    #[test]
    fn a_preorder_listing_becomes_the_nested_json() {
        let flat = [
            (1, "a", true),
            (2, "x", false),
            (2, "e", true),
            (1, "b", false),
        ];
        let want = r#"[
  {
    "name": "a",
    "type": "directory",
    "children": [
      {
        "name": "x",
        "type": "file"
      },
      {
        "name": "e",
        "type": "directory",
        "children": []
      }
    ]
  },
  {
    "name": "b",
    "type": "file"
  }
]"#;
        assert_eq!(written(&flat), want);
    }

    #[test]
    fn the_text_is_what_serde_json_prints_for_the_nodes() {
        let listings: &[&[(usize, &str, bool)]] = &[
            &[],
            &[(1, "only", false)],
            &[(1, "empty", true)],
            &[
                (1, "d", true),
                (2, "e", true),
                (3, "f", true),
                (4, "deep", false),
            ],
            &[
                (1, "d", true),
                (2, "e", true),
                (3, "x", false),
                (1, "after", false),
            ],
            &[
                (1, "a", true),
                (2, "b", true),
                (1, "c", true),
                (2, "d", false),
                (2, "e", true),
            ],
            &[
                (1, "q\"uote", false),
                (1, "back\\slash", true),
                (2, "tab\tnew\nline", false),
            ],
            &[(1, "\u{1}\u{8}\u{c}\r\u{1f}", false), (1, "é ✓ /", false)],
        ];
        // Deep enough that an indent is longer than one slice of spaces.
        let deep: Vec<(usize, &str, bool)> = (1..=40)
            .map(|depth| (depth, "level", true))
            .chain([(41, "leaf", false), (17, "beside", false), (2, "up", true)])
            .collect();
        for flat in listings.iter().copied().chain([deep.as_slice()]) {
            let want = serde_json::to_string_pretty(&nodes(flat, &mut 0, 1)).unwrap();
            assert_eq!(written(flat), want, "{flat:?}");
        }
    }

    /// Walked listings already in byte order (so that the reference need
    /// not sort), many entries at the top: the runs written apart and
    /// joined give the text of one writer.
    #[test]
    fn runs_written_apart_join_into_the_whole_text() {
        let mut many: Vec<(usize, String, bool)> = Vec::new();
        for d in 0..9 {
            many.push((1, format!("d{d}"), true));
            for f in 0..(d * 5 % 7) {
                many.push((2, format!("f{f}"), false));
            }
            if d % 2 == 0 {
                many.push((2, "g".to_owned(), true));
                many.push((3, "x".to_owned(), false));
            }
            many.push((1, format!("d{d}z"), false));
        }
        let rows: Vec<Vec<(usize, String, bool)>> = vec![
            vec![],
            vec![(1, "a".into(), false)],
            vec![(1, "a".into(), true), (2, "b".into(), true)],
            vec![
                (1, "a".into(), false),
                (1, "b".into(), true),
                (1, "c".into(), false),
            ],
            many,
        ];
        for row in rows {
            let mut walked = Walked::default();
            for (depth, name, dir) in &row {
                walked.push(name, *depth, Kind::dir(*dir));
            }
            let flat: Vec<(usize, &str, bool)> = row
                .iter()
                .map(|(d, n, dir)| (*d, n.as_str(), *dir))
                .collect();
            let want = serde_json::to_string_pretty(&nodes(&flat, &mut 0, 1)).unwrap();
            for threads in [1, 2, 3, 8] {
                let mut copy = Walked::default();
                for (depth, name, dir) in &row {
                    copy.push(name, *depth, Kind::dir(*dir));
                }
                assert_eq!(copy.text_on(threads), want, "{threads} threads: {row:?}");
            }
            assert_eq!(walked.text(), want, "{row:?}");
        }
    }

    #[test]
    fn an_entry_deeper_than_any_open_directory_goes_in_the_innermost() {
        // Not a listing a walk yields; the text stays valid JSON.
        let text = written(&[(1, "a", false), (3, "b", false)]);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value.as_array().unwrap().len(), 2);
    }
}
