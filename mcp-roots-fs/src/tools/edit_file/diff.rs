//! The unified diff the original returns: jsdiff's `createTwoFilesPatch`
//! with both names the file's path and the headers `original` and
//! `modified`, byte for byte.
//!
//! - The line changes are jsdiff's (see [`lines`]).
//! - A hunk opens at a change with up to 4 kept lines before it; kept lines
//!   between two changes stay inside the hunk when there are at most 8 of
//!   them and more of the file follows, else the hunk closes after 4 of
//!   them (or all, if fewer) and the next change opens a new one.
//! - A hunk's header counts its lines on each side; a side with none names
//!   the line before the hunk (`@@ -0,0 +1,2 @@` for an empty file).
//! - A line without `\n` (a file's last) is followed by
//!   `\ No newline at end of file`.
//! - A file without changes has the four header lines only.

use super::lines::{self, Kind};

/// Kept lines shown around a change (jsdiff's default `context`).
const CONTEXT: usize = 4;

/// The patch `edit_file` shows for `old` → `new` (its texts with their
/// line ends made LF once): the original makes them LF a second time before
/// the diff, so a `\r\r\n` in the file is a `\n` in the patch (and a
/// `\r\n` in what is written).
pub(super) fn of_edit(old: &str, new: &str, name: &str) -> String {
    unified(&old.replace("\r\n", "\n"), &new.replace("\r\n", "\n"), name)
}

/// The patch of `old` → `new`, both named `name`.
pub(super) fn unified(old: &str, new: &str, name: &str) -> String {
    let (old, new) = (lines::split(old), lines::split(new));
    let mut out = format!(
        "Index: {name}\n\
         ===================================================================\n\
         --- {name}\toriginal\n\
         +++ {name}\tmodified\n"
    );
    for hunk in hunks(&blocks(&old, &new)) {
        hunk.write(&mut out);
    }
    out
}

/// The diff in a fenced block whose fence is longer than any backtick run
/// inside it, as the original fences it.
pub(super) fn fenced(diff: &str) -> String {
    let mut ticks = 3;
    while diff.contains(&"`".repeat(ticks)) {
        ticks += 1;
    }
    let fence = "`".repeat(ticks);
    format!("{fence}diff\n{diff}{fence}\n\n")
}

/// A run of the script with its lines.
struct Block<'a> {
    kind: Kind,
    lines: &'a [&'a str],
}

fn blocks<'a>(old: &'a [&'a str], new: &'a [&'a str]) -> Vec<Block<'a>> {
    let (mut o, mut n) = (0, 0);
    lines::script(old, new)
        .into_iter()
        .map(|(kind, count)| {
            let lines = match kind {
                Kind::Removed => &old[o..o + count],
                Kind::Added | Kind::Kept => &new[n..n + count],
            };
            if kind != Kind::Added {
                o += count;
            }
            if kind != Kind::Removed {
                n += count;
            }
            Block { kind, lines }
        })
        .collect()
}

/// One hunk: where it starts on each side (1-based), its lines.
struct Hunk<'a> {
    old_start: usize,
    new_start: usize,
    old_count: usize,
    new_count: usize,
    lines: Vec<(char, &'a str)>,
}

impl Hunk<'_> {
    fn write(&self, out: &mut String) {
        use std::fmt::Write as _;
        // An empty side names the line before it.
        let old_start = self.old_start - usize::from(self.old_count == 0);
        let new_start = self.new_start - usize::from(self.new_count == 0);
        let _ = writeln!(
            out,
            "@@ -{old_start},{} +{new_start},{} @@",
            self.old_count, self.new_count
        );
        for &(sign, line) in &self.lines {
            out.push(sign);
            match line.strip_suffix('\n') {
                Some(text) => out.push_str(text),
                None => out.push_str(line),
            }
            out.push('\n');
            if !line.ends_with('\n') {
                out.push_str("\\ No newline at end of file\n");
            }
        }
    }
}

/// The hunks, laid out as jsdiff lays them out.
fn hunks<'a>(blocks: &[Block<'a>]) -> Vec<Hunk<'a>> {
    let mut hunks = Vec::new();
    let mut open: Option<Hunk<'a>> = None;
    // The next line on each side (1-based).
    let (mut old_line, mut new_line) = (1, 1);
    // One empty kept block past the end closes a hunk still open.
    let end = Block {
        kind: Kind::Kept,
        lines: &[],
    };
    for (i, block) in blocks.iter().chain([&end]).enumerate() {
        if block.kind == Kind::Kept {
            if let Some(mut hunk) = open.take() {
                if block.lines.len() <= 2 * CONTEXT && i + 1 < blocks.len() {
                    // The next change is near: one hunk goes on.
                    hunk.lines.extend(block.lines.iter().map(|l| (' ', *l)));
                    open = Some(hunk);
                } else {
                    let shown = block.lines.len().min(CONTEXT);
                    hunk.lines
                        .extend(block.lines[..shown].iter().map(|l| (' ', *l)));
                    hunk.old_count = old_line - hunk.old_start + shown;
                    hunk.new_count = new_line - hunk.new_start + shown;
                    hunks.push(hunk);
                }
            }
            old_line += block.lines.len();
            new_line += block.lines.len();
            continue;
        }
        let hunk = open.get_or_insert_with(|| {
            // A hunk opens after a kept block (or at the start).
            let before: &[&str] = match i.checked_sub(1).map(|p| &blocks[p]) {
                Some(prev) => &prev.lines[prev.lines.len().saturating_sub(CONTEXT)..],
                None => &[],
            };
            Hunk {
                old_start: old_line - before.len(),
                new_start: new_line - before.len(),
                old_count: 0,
                new_count: 0,
                lines: before.iter().map(|l| (' ', *l)).collect(),
            }
        });
        let sign = if block.kind == Kind::Added { '+' } else { '-' };
        hunk.lines.extend(block.lines.iter().map(|l| (sign, *l)));
        if block.kind == Kind::Added {
            new_line += block.lines.len();
        } else {
            old_line += block.lines.len();
        }
    }
    hunks
}

#[cfg(test)]
mod cases;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_one_line_change_in_jsdiffs_layout() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
        let new = "a\nb\nc\nd\ne\nF\ng\nh\ni\nj\n";
        let want = "Index: /r/x.txt\n\
===================================================================\n\
--- /r/x.txt\toriginal\n\
+++ /r/x.txt\tmodified\n\
@@ -2,9 +2,9 @@\n b\n c\n d\n e\n-f\n+F\n g\n h\n i\n j\n";
        assert_eq!(unified(old, new, "/r/x.txt"), want);
    }

    #[test]
    fn a_last_line_without_newline_is_marked() {
        let got = unified("a\nb", "a\nc", "f");
        assert!(got.ends_with("@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"), "{got}");
    }

    #[test]
    fn an_edit_makes_line_ends_lf_again_before_the_diff() {
        // A file's `\r\r\n` was read as `\r\n`; the patch shows `\n`.
        let got = of_edit("one\ntwo\n\r\nthree", "one\n2\n\r\nthree", "f");
        assert!(
            got.ends_with(
                "@@ -1,4 +1,4 @@\n one\n-two\n+2\n \n three\n\\ No newline at end of file\n"
            ),
            "{got:?}"
        );
    }

    #[test]
    fn fences_outgrow_the_backticks_inside() {
        assert!(fenced("x").starts_with("```diff\n"));
        assert!(fenced("has ``` inside").starts_with("````diff\n"));
    }
}
