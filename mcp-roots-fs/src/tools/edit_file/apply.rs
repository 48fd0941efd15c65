//! The original's edit matching: the first exact occurrence of `oldText`;
//! failing that, the first run of lines equal to `oldText`'s lines once
//! each is trimmed, replaced by `newText` re-indented: its first line at
//! the matched line's indentation, later lines at that indentation plus
//! what they had beyond `oldText`'s line at the same place. Whitespace is
//! JavaScript's (`trim`, `\s`): a byte order mark is whitespace, U+0085 is
//! not.

/// `content` with `edits` applied in order (line ends already LF).
///
/// # Errors
///
/// The original's sentence for an edit that matches nowhere.
pub(super) fn apply(content: &str, edits: &[(String, String)]) -> Result<String, String> {
    let mut modified = content.to_owned();
    for (old_text, new_text) in edits {
        let old = old_text.replace("\r\n", "\n");
        let new = new_text.replace("\r\n", "\n");
        if let Some(at) = modified.find(&old) {
            modified.replace_range(at..at + old.len(), &new);
            continue;
        }
        let old_lines: Vec<&str> = old.split('\n').collect();
        let mut lines: Vec<String> = modified.split('\n').map(str::to_owned).collect();
        let found = (0..(lines.len() + 1).saturating_sub(old_lines.len())).find(|&i| {
            old_lines
                .iter()
                .zip(&lines[i..])
                .all(|(o, c)| trim(o) == trim(c))
        });
        let Some(i) = found else {
            return Err(format!("Could not find exact match for edit:\n{old_text}"));
        };
        let indent = leading(&lines[i]).to_owned();
        let replacement: Vec<String> = new
            .split('\n')
            .enumerate()
            .map(|(j, line)| {
                if j == 0 {
                    return format!("{indent}{}", trim_start(line));
                }
                let old_indent = old_lines.get(j).map_or("", |l| leading(l));
                let new_indent = leading(line);
                if !old_indent.is_empty() && !new_indent.is_empty() {
                    let extra = utf16_len(new_indent).saturating_sub(utf16_len(old_indent));
                    format!("{indent}{}{}", " ".repeat(extra), trim_start(line))
                } else {
                    line.to_owned()
                }
            })
            .collect();
        lines.splice(i..i + old_lines.len(), replacement);
        modified = lines.join("\n");
    }
    Ok(modified)
}

/// JavaScript's whitespace: Unicode's, less U+0085, plus U+FEFF.
fn js_space(c: char) -> bool {
    (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}'
}

/// JavaScript's `trim`.
fn trim(s: &str) -> &str {
    s.trim_matches(js_space)
}

/// JavaScript's `trimStart`.
fn trim_start(s: &str) -> &str {
    s.trim_start_matches(js_space)
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
    fn exact_first_then_whitespace_tolerant_with_indentation() {
        assert_eq!(one("a b a b", "b", "c").unwrap(), "a c a b");
        assert_eq!(one("x", "", "y").unwrap(), "yx");
        // `$&` is not a pattern: replaced literally.
        assert_eq!(one("a", "a", "$&$&").unwrap(), "$&$&");
        // Lines equal once trimmed: the file's indentation is kept.
        let file = "fn f() {\n    let a = 1;\n    let b = 2;\n}\n";
        let got = one(
            file,
            "let a = 1;\n  let b = 2;",
            "let a = 10;\n    let b = 20;",
        )
        .unwrap();
        assert_eq!(got, "fn f() {\n    let a = 10;\n      let b = 20;\n}\n");
        // A new line without indentation (old had none there) stays as it is.
        let got = one("  x\n  y\n", "x \ny", "x\nz\nw").unwrap();
        assert_eq!(got, "  x\nz\nw\n");
        // A byte order mark is whitespace to the match, U+0085 is not.
        assert_eq!(
            one("\u{feff}ab\ncd", "ab\n cd", "x\ny").unwrap(),
            "\u{feff}x\ny"
        );
        assert!(one("\u{85}ab\ncd", "ab\n cd", "x\ny").is_err());
        assert!(
            one("abc", "zzz", "y")
                .unwrap_err()
                .starts_with("Could not find exact match for edit:\nzzz")
        );
    }
}
