//! 2.3.0's edit matching: the first exact occurrence of `oldText`; failing
//! that, the first run of whole lines equal to `oldText`'s lines once each
//! is trimmed. A trailing newline in `oldText` ends its last line (the
//! match must then be followed by a newline in the file), and `newText`'s
//! own trailing newline decides whether that newline stays. Each
//! replacement line takes the indentation of the file line it replaces
//! (lines past `oldText`'s length: its last line's), shifted by as much as
//! it is indented beyond, or dedented below, the `oldText` line at its
//! place; when the edit and the file indent with different characters
//! (tabs against spaces), the shift is counted in the edit's indent levels
//! and applied in the file's. Whitespace is JavaScript's (`trim`, `\s`): a
//! byte order mark is whitespace, U+0085 is not.
//!
//! An edit that matches nowhere is refused with 2.3.0's description of the
//! closest text (see `mismatch`).

use super::mismatch::describe;

/// `content` with `edits` applied in order (line ends already LF).
///
/// # Errors
///
/// 2.3.0's description of the first edit that matches nowhere.
pub(super) fn apply(content: &str, edits: &[(String, String)]) -> Result<String, String> {
    let mut modified = content.to_owned();
    for (index, (old_text, new_text)) in edits.iter().enumerate() {
        let old = old_text.replace("\r\n", "\n");
        let new = new_text.replace("\r\n", "\n");
        if let Some(at) = modified.find(&old) {
            modified.replace_range(at..at + old.len(), &new);
            continue;
        }
        match by_lines(&modified, &old, &new) {
            Some(done) => modified = done,
            None => return Err(describe(&modified, old_text, index, edits.len())),
        }
    }
    Ok(modified)
}

/// `old` replaced by `new` where `old`'s lines match whole lines of
/// `content` up to surrounding whitespace, or `None` where they match
/// nowhere.
fn by_lines(content: &str, old: &str, new: &str) -> Option<String> {
    let old_ends_line = old.ends_with('\n');
    let new_ends_line = new.ends_with('\n');
    let old_lines: Vec<&str> = old.strip_suffix('\n').unwrap_or(old).split('\n').collect();
    let replacement: Vec<&str> = if old_ends_line && new_ends_line {
        new.strip_suffix('\n').unwrap_or(new)
    } else {
        new
    }
    .split('\n')
    .collect();
    let mut lines: Vec<String> = content.split('\n').map(str::to_owned).collect();
    // With a trailing newline the match needs a line after it: the file's
    // newline is there.
    let needed = old_lines.len() + usize::from(old_ends_line);
    let i = (0..(lines.len() + 1).saturating_sub(needed)).find(|&i| {
        old_lines
            .iter()
            .zip(&lines[i..])
            .all(|(o, c)| js_trim(o) == js_trim(c))
    })?;
    let edit_unit = indent_unit(old_lines.iter().chain(&replacement).copied());
    let file_unit = indent_unit(lines.iter().map(String::as_str));
    let mut placed: Vec<String> = replacement
        .iter()
        .enumerate()
        .map(|(j, line)| {
            let k = j.min(old_lines.len() - 1);
            reindent(line, &lines[i + k], old_lines[k], &edit_unit, &file_unit)
        })
        .collect();
    let mut taken = old_lines.len();
    if old_ends_line && !new_ends_line {
        // `oldText` took the newline after the match and `newText` does not
        // give it back: its last line runs into the line that followed.
        let next = std::mem::take(&mut lines[i + taken]);
        if let Some(last) = placed.last_mut() {
            last.push_str(&next);
        }
        taken += 1;
    }
    lines.splice(i..i + taken, placed);
    Some(lines.join("\n"))
}

/// The indentation unit of `lines`: a tab when an indented line's indent
/// holds one, else the narrowest run of leading whitespace as spaces, or
/// nothing when no line is indented (blank lines aside).
fn indent_unit<'a>(lines: impl Iterator<Item = &'a str>) -> String {
    let mut narrowest: Option<usize> = None;
    for line in lines {
        let indent = leading(line);
        if indent.is_empty() || js_trim(line).is_empty() {
            continue;
        }
        if indent.contains('\t') {
            return "\t".to_owned();
        }
        let width = utf16_len(indent);
        narrowest = Some(narrowest.map_or(width, |n| n.min(width)));
    }
    narrowest.map_or_else(String::new, |n| " ".repeat(n))
}

/// `line` placed where `file_line` was, shifted by its indentation beyond
/// (or below) `old_line`'s; a blank line is kept as given.
fn reindent(
    line: &str,
    file_line: &str,
    old_line: &str,
    edit_unit: &str,
    file_unit: &str,
) -> String {
    let body = trim_start(line);
    if body.is_empty() {
        return line.to_owned();
    }
    let file_indent: Vec<char> = leading(file_line).chars().collect();
    let new_indent: Vec<char> = leading(line).chars().collect();
    // Whitespace is in the Basic Multilingual Plane: a char is a UTF-16 unit.
    let delta = new_indent.len() as isize - leading(old_line).chars().count() as isize;
    let keep = |n: isize| -> String {
        let n = (file_indent.len() as isize + n).max(0) as usize;
        file_indent[..n.min(file_indent.len())].iter().collect()
    };
    let mixed = !edit_unit.is_empty()
        && !file_unit.is_empty()
        && (edit_unit == "\t") != (file_unit == "\t");
    let indent = if mixed {
        let levels = delta / edit_unit.chars().count() as isize;
        if levels >= 0 {
            let mut indent: String = file_indent.iter().collect();
            indent.push_str(&file_unit.repeat(levels as usize));
            indent
        } else {
            keep(levels * file_unit.chars().count() as isize)
        }
    } else if delta >= 0 {
        let mut indent: String = file_indent.iter().collect();
        indent.extend(&new_indent[new_indent.len() - delta as usize..]);
        indent
    } else {
        keep(delta)
    };
    format!("{indent}{body}")
}

/// JavaScript's whitespace: Unicode's, less U+0085, plus U+FEFF.
pub(super) fn is_js_space(c: char) -> bool {
    (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}'
}

/// JavaScript's `trim`.
pub(super) fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

/// JavaScript's `trimStart`.
fn trim_start(s: &str) -> &str {
    s.trim_start_matches(is_js_space)
}

/// The leading whitespace of `line` (JavaScript's `\s*`).
fn leading(line: &str) -> &str {
    &line[..line.len() - trim_start(line).len()]
}

fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

#[cfg(test)]
mod tests {
    use super::apply;

    fn one(content: &str, old: &str, new: &str) -> Result<String, String> {
        apply(content, &[(old.to_owned(), new.to_owned())])
    }

    #[test]
    fn exact_first_then_whole_lines_reindented_as_2_3_0() {
        assert_eq!(one("a b a b", "b", "c").unwrap(), "a c a b");
        assert_eq!(one("x", "", "y").unwrap(), "yx");
        // `$&` is not a pattern: replaced literally.
        assert_eq!(one("a", "a", "$&$&").unwrap(), "$&$&");
        // (file, oldText, newText, the file after)
        for (file, old, new, want) in [
            // Matched under a deeper indent: the edit's own indent is kept
            // relative to the matched line.
            (
                "def f():\n    if x:\n        a = 1\n",
                "if x:\n    a = 1",
                "if x:\n    b = 2",
                "def f():\n    if x:\n        b = 2\n",
            ),
            // A trailing newline ends oldText's last line; newText without
            // one joins the next line.
            ("a\nb\nc\n", "  b\n", "B", "a\nBc\n"),
            ("a\nb\nc\n", "  b\n", "B\n", "a\nB\nc\n"),
            // Dedented by the edit: one space less than the file's.
            ("a\n  b", " b ", "B", "a\n B"),
            // A dedent never goes below no indentation.
            ("  x\n  y\n", "x \n   y", "x\ny", "  x\ny\n"),
            // Tabs in the file, spaces in the edit: levels.
            ("f\n\tg\n", "g ", "g\n    h", "f\n\tg\n\t\th\n"),
            // A byte order mark is indentation of the first line only.
            ("\u{feff}ab\ncd", "ab\n cd", "x\ny", "\u{feff}x\ny"),
        ] {
            assert_eq!(
                one(file, old, new).as_deref(),
                Ok(want),
                "{file:?} {old:?} {new:?}"
            );
        }
        // The match must be followed by a newline when oldText ends one.
        assert!(one("a\n  b", " b\n", "B").is_err());
        // U+0085 is not whitespace to JavaScript.
        assert!(one("\u{85}ab\ncd", "ab\n cd", "x\ny").is_err());
    }
}
