//! The unified diff the original returns (jsdiff's `createTwoFilesPatch`
//! with the headers `original` and `modified`, 4 lines of context), the
//! line changes computed by `similar` (Myers), the hunks laid out here.

use similar::{Algorithm, ChangeTag, TextDiff};

const CONTEXT: usize = 4;

/// One run of lines of one kind, each line with its `\n` when it has one.
struct Run<'a> {
    tag: ChangeTag,
    lines: Vec<&'a str>,
}

/// The patch of `old` → `new`, both named `name`.
pub(super) fn unified(old: &str, new: &str, name: &str) -> String {
    let runs = runs(old, new);
    let mut out = vec![
        format!("Index: {name}"),
        "===================================================================".to_owned(),
        format!("--- {name}\toriginal"),
        format!("+++ {name}\tmodified"),
    ];
    for hunk in hunks(&runs) {
        out.push(hunk);
    }
    out.join("\n") + "\n"
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

fn runs<'a>(old: &'a str, new: &'a str) -> Vec<Run<'a>> {
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .diff_lines(old, new);
    let mut runs: Vec<Run<'a>> = Vec::new();
    for op in diff.ops() {
        // Within a change, removals come before additions (as jsdiff's).
        let mut changes: Vec<_> = diff.iter_changes(op).collect();
        changes.sort_by_key(|c| match c.tag() {
            ChangeTag::Equal => 0,
            ChangeTag::Delete => 1,
            ChangeTag::Insert => 2,
        });
        for change in changes {
            let line = change.value();
            match runs.last_mut() {
                Some(run) if run.tag == change.tag() => run.lines.push(line),
                _ => runs.push(Run {
                    tag: change.tag(),
                    lines: vec![line],
                }),
            }
        }
    }
    runs
}

/// The hunks, laid out as jsdiff lays them out.
fn hunks(runs: &[Run<'_>]) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    let (mut old_start, mut new_start) = (0usize, 0usize);
    let (mut old_line, mut new_line) = (1usize, 1usize);
    let mut open = false;
    let mut flush = |lines: &mut Vec<String>, os: usize, ol: usize, ns: usize, nl: usize| {
        let os = if ol == 0 { os - 1 } else { os };
        let ns = if nl == 0 { ns - 1 } else { ns };
        out.push(format!("@@ -{os},{ol} +{ns},{nl} @@"));
        for line in lines.drain(..) {
            out.push(line);
        }
    };
    for (i, run) in runs.iter().enumerate() {
        if run.tag != ChangeTag::Equal {
            if !open {
                open = true;
                old_start = old_line;
                new_start = new_line;
                if i > 0 {
                    let prev = &runs[i - 1].lines;
                    let from = prev.len().saturating_sub(CONTEXT);
                    for line in &prev[from..] {
                        push(&mut lines, ' ', line);
                    }
                    old_start -= prev.len() - from;
                    new_start -= prev.len() - from;
                }
            }
            let sign = if run.tag == ChangeTag::Insert {
                '+'
            } else {
                '-'
            };
            for line in &run.lines {
                push(&mut lines, sign, line);
            }
            if run.tag == ChangeTag::Insert {
                new_line += run.lines.len();
            } else {
                old_line += run.lines.len();
            }
        } else {
            if open {
                let last = i + 1 == runs.len();
                if run.lines.len() <= CONTEXT * 2 && !last {
                    for line in &run.lines {
                        push(&mut lines, ' ', line);
                    }
                } else {
                    let size = run.lines.len().min(CONTEXT);
                    for line in &run.lines[..size] {
                        push(&mut lines, ' ', line);
                    }
                    flush(
                        &mut lines,
                        old_start,
                        old_line - old_start + size,
                        new_start,
                        new_line - new_start + size,
                    );
                    open = false;
                }
            }
            old_line += run.lines.len();
            new_line += run.lines.len();
        }
    }
    if open {
        // The change ran to the end: jsdiff closes it on its empty sentinel.
        flush(
            &mut lines,
            old_start,
            old_line - old_start,
            new_start,
            new_line - new_start,
        );
    }
    out
}

/// A line of a hunk: its sign, its text without `\n`, and jsdiff's marker
/// after a last line that has none.
fn push(lines: &mut Vec<String>, sign: char, line: &str) {
    match line.strip_suffix('\n') {
        Some(text) => lines.push(format!("{sign}{text}")),
        None => {
            lines.push(format!("{sign}{line}"));
            lines.push("\\ No newline at end of file".to_owned());
        }
    }
}

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
    fn fences_outgrow_the_backticks_inside() {
        assert!(fenced("x").starts_with("```diff\n"));
        assert!(fenced("has ``` inside").starts_with("````diff\n"));
    }
}
