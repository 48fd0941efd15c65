//! 2.3.0's refusal of an edit that matches nowhere: it names the edit
//! (`edit N of M`), says what the matcher tolerates, quotes `oldText`, and
//! quotes the run of file lines most like it, numbered (each line scored by
//! the Dice similarity of its character bigrams, whitespace removed; two
//! lines of context; at most 30 lines; a line cut at 500 UTF-16 units),
//! then the first line that differs, JSON-quoted so whitespace shows, and
//! what to do. Past a budget of comparisons (a huge file or `oldText`) it
//! says to read the file instead of searching. It only describes: it never
//! changes what matches.

use std::collections::HashMap;

/// Bigram look-ups the search for the closest text may take.
const WORK_LIMIT: usize = 10_000_000;
/// Lines quoted before and after the closest run.
const CONTEXT: usize = 2;
/// The most lines quoted.
const MOST_LINES: usize = 30;
/// A quoted line's most UTF-16 units.
const MOST_UNITS: usize = 500;

/// A line's character bigrams (UTF-16 units, JavaScript's whitespace
/// removed) with their counts, and how many there are in all.
struct Grams {
    counts: HashMap<(u16, Option<u16>), usize>,
    size: usize,
}

impl Grams {
    fn of(line: &str) -> Self {
        let units: Vec<u16> = line
            .chars()
            .filter(|c| !super::apply::is_js_space(*c))
            .collect::<String>()
            .encode_utf16()
            .collect();
        let mut counts = HashMap::new();
        if units.len() == 1 {
            counts.insert((units[0], None), 1);
        }
        for pair in units.windows(2) {
            *counts.entry((pair[0], Some(pair[1]))).or_insert(0) += 1;
        }
        let size = counts.values().sum();
        Self { counts, size }
    }

    /// The Dice similarity: 1 for two blank lines, 0 for nothing shared.
    fn similarity(&self, other: &Self) -> f64 {
        if self.size + other.size == 0 {
            return 1.0;
        }
        let shared: usize = self
            .counts
            .iter()
            .map(|(gram, n)| (*n).min(other.counts.get(gram).copied().unwrap_or(0)))
            .sum();
        (2 * shared) as f64 / (self.size + other.size) as f64
    }
}

/// `line` cut at [`MOST_UNITS`] UTF-16 units, saying so; `clipped` notes
/// that a cut was made.
fn clip(line: &str, clipped: &mut bool) -> String {
    let units = line.encode_utf16().count();
    if units <= MOST_UNITS {
        return line.to_owned();
    }
    *clipped = true;
    let head: Vec<u16> = line.encode_utf16().take(MOST_UNITS).collect();
    format!(
        "{} [... cut: the line has {units} characters]",
        String::from_utf16_lossy(&head)
    )
}

fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

/// The refusal of edit `index` (of `count`), whose `old_text` matched
/// nowhere in `content` (the file as the earlier edits left it, LF).
pub(super) fn describe(content: &str, old_text: &str, index: usize, count: usize) -> String {
    let old_lines: Vec<String> = old_text
        .replace("\r\n", "\n")
        .split('\n')
        .map(str::to_owned)
        .collect();
    let file_lines: Vec<&str> = content.split('\n').collect();
    // The empty piece after a final newline is not a line of the file.
    let line_count = if content.ends_with('\n') {
        file_lines.len() - 1
    } else if content.is_empty() {
        0
    } else {
        file_lines.len()
    };
    let mut parts = vec![
        format!(
            "Could not find exact match for edit {} of {count}. oldText must match the \
             file's text exactly; only line endings, and leading and trailing whitespace on \
             whole lines, may differ. No edits were applied.",
            index + 1
        ),
        format!("oldText:\n{old_text}"),
    ];
    if line_count == 0 {
        parts.push("The file is empty.".to_owned());
        return parts.join("\n\n");
    }
    let old_grams: Vec<Grams> = old_lines.iter().map(|l| Grams::of(l)).collect();
    let old_work: usize = old_grams.iter().map(|g| g.counts.len() + 1).sum();
    if file_lines.len().saturating_mul(old_work) > WORK_LIMIT {
        parts.push(format!(
            "The file has {line_count} lines, too many to search for the closest text to \
             this oldText. Read the file and copy oldText from it exactly."
        ));
        return parts.join("\n\n");
    }
    let file_grams: Vec<Grams> = file_lines.iter().map(|l| Grams::of(l)).collect();
    // Every start is scored, near the end too; the earliest wins a tie.
    let (mut best, mut best_score) = (0, 0.0);
    for i in 0..line_count {
        let width = old_lines.len().min(file_lines.len() - i);
        let score: f64 = (0..width)
            .map(|j| old_grams[j].similarity(&file_grams[i + j]))
            .sum();
        if score > best_score {
            (best, best_score) = (i, score);
        }
    }
    if best_score == 0.0 {
        parts.push(
            "No line of the file resembles oldText. Read the file and copy oldText from it \
             exactly."
                .to_owned(),
        );
        return parts.join("\n\n");
    }
    let start = best.saturating_sub(CONTEXT).min(line_count - 1);
    let end = line_count
        .min(best + old_lines.len() + CONTEXT)
        .min(start + MOST_LINES);
    let mut clipped = false;
    let numbered: Vec<String> = file_lines[start..end]
        .iter()
        .enumerate()
        .map(|(k, line)| format!("{}: {}", start + k + 1, clip(line, &mut clipped)))
        .collect();
    let after = if index > 0 {
        ", after the earlier edits in this call"
    } else {
        ""
    };
    parts.push(format!(
        "Closest text in the file (lines {}-{end} of {line_count}{after}):\n{}",
        start + 1,
        numbered.join("\n")
    ));
    let trim = super::apply::js_trim;
    let differs = old_lines
        .iter()
        .enumerate()
        .position(|(j, line)| best + j >= line_count || trim(line) != trim(file_lines[best + j]))
        .unwrap_or(0);
    let old_line = quoted(&clip(&old_lines[differs], &mut clipped));
    parts.push(if best + differs >= line_count {
        format!(
            "oldText line {} ({old_line}) runs past the end of the file, which ends at line \
             {line_count}.",
            differs + 1
        )
    } else {
        format!(
            "First difference, oldText line {} against file line {}:\n  oldText: {old_line}\n  \
             file:    {}",
            differs + 1,
            best + differs + 1,
            quoted(&clip(file_lines[best + differs], &mut clipped))
        )
    });
    parts.push(
        if clipped {
            "Some lines above were cut. Read the file to copy oldText from it exactly."
        } else {
            "Retry with oldText copied exactly from the file, without the line-number prefixes."
        }
        .to_owned(),
    );
    parts.join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::describe;

    #[test]
    fn the_closest_lines_are_quoted_numbered() {
        let file = "fn a() {}\nfn b() {\n    let x = 1;\n}\nfn c() {}\n";
        let got = describe(file, "let  x = 1;", 0, 2);
        assert!(
            got.starts_with("Could not find exact match for edit 1 of 2. "),
            "{got}"
        );
        assert!(got.contains("oldText:\nlet  x = 1;"), "{got}");
        assert!(
            got.contains("Closest text in the file (lines 1-5 of 5):\n1: fn a() {}\n2: fn b() {\n3:     let x = 1;"),
            "{got}"
        );
        assert!(
            got.contains("First difference, oldText line 1 against file line 3:\n  oldText: \"let  x = 1;\"\n  file:    \"    let x = 1;\""),
            "{got}"
        );
        assert!(got.ends_with("without the line-number prefixes."), "{got}");
        // Later edits say so; an empty file and a file with nothing alike.
        assert!(describe(file, "let  x = 1;", 1, 2).contains("of 5, after the earlier edits"));
        assert!(describe("", "x", 0, 1).ends_with("The file is empty."));
        assert!(describe("aaa\n", "zz", 0, 1).contains("No line of the file resembles oldText."));
        // Past the end of the file.
        let got = describe("one\ntwo\n", "two\nthree", 0, 1);
        assert!(
            got.contains(
                "oldText line 2 (\"three\") runs past the end of the file, which ends at line 2."
            ),
            "{got}"
        );
        // A long line is cut.
        let long = "y".repeat(600);
        let got = describe(&format!("{long}\n"), &format!("{long}z"), 0, 1);
        assert!(
            got.contains("[... cut: the line has 600 characters]"),
            "{got}"
        );
        assert!(
            got.ends_with("Read the file to copy oldText from it exactly."),
            "{got}"
        );
    }
}
