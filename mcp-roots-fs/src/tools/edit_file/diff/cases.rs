// The expected patches were made once by jsdiff 8.0.4's createTwoFilesPatch
// (the original's `diff` package) under node, for the name `/r/f.txt`.

use super::*;

/// `line a\n` … `line b\n`.
fn numbered(a: usize, b: usize) -> String {
    (a..=b).map(|i| format!("line {i}\n")).collect()
}

/// The same without the last `\n`.
fn unterminated(a: usize, b: usize) -> String {
    let mut text = numbered(a, b);
    text.pop();
    text
}

#[test]
fn patches_are_jsdiffs_byte_for_byte() {
    let rows: &[(&str, &str, &str, &str)] = &[
        (
            "the first of two equal lines replaced",
            "x = 1\nx = 1\n",
            "x = 2\nx = 1\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,2 +1,2 @@\n+x = 2\n x = 1\n-x = 1\n",
        ),
        (
            "the middle of three equal lines",
            "a\na\na\n",
            "a\nb\na\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,3 +1,3 @@\n a\n+b\n a\n-a\n",
        ),
        (
            "equal lines, the last one changed",
            "a\na\na\n",
            "a\na\nb\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,3 +1,3 @@\n a\n a\n-a\n+b\n",
        ),
        (
            "a repeated pair shifted",
            "a\nb\na\nb\n",
            "b\na\nb\na\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,4 +1,4 @@\n-a\n b\n a\n b\n+a\n",
        ),
        (
            "insert at the start",
            "b\nc\n",
            "a\nb\nc\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,2 +1,3 @@\n+a\n b\n c\n",
        ),
        (
            "insert at the end",
            "a\nb\n",
            "a\nb\nc\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,2 +1,3 @@\n a\n b\n+c\n",
        ),
        (
            "delete the first line",
            "a\nb\nc\n",
            "b\nc\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,3 +1,2 @@\n-a\n b\n c\n",
        ),
        (
            "delete the last line",
            "a\nb\nc\n",
            "a\nb\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,3 +1,2 @@\n a\n b\n-c\n",
        ),
        (
            "delete all",
            "a\nb\n",
            "",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,2 +0,0 @@\n-a\n-b\n",
        ),
        (
            "empty file to content",
            "",
            "a\nb\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -0,0 +1,2 @@\n+a\n+b\n",
        ),
        (
            "empty file to a line without newline",
            "",
            "a",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -0,0 +1,1 @@\n+a\n\\ No newline at end of file\n",
        ),
        (
            "a line without newline to empty",
            "a",
            "",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,1 +0,0 @@\n-a\n\\ No newline at end of file\n",
        ),
        (
            "a newline only to empty",
            "\n",
            "",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,1 +0,0 @@\n-\n",
        ),
        (
            "unchanged",
            "a\nb\n",
            "a\nb\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n",
        ),
        (
            "both empty",
            "",
            "",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n",
        ),
        (
            "a trailing newline added",
            "a\nb",
            "a\nb\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
        ),
        (
            "a trailing newline removed",
            "a\nb\n",
            "a\nb",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n",
        ),
        (
            "the last line changed, neither side ends in newline",
            "a\nb",
            "a\nc",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n",
        ),
        (
            "the first line changed, kept last line without newline",
            "a\nb\nc\nd",
            "A\nb\nc\nd",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n d\n\\ No newline at end of file\n",
        ),
        (
            "a line appended after a last line without newline",
            "a",
            "a\nb",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,1 +1,2 @@\n-a\n\\ No newline at end of file\n+a\n+b\n\\ No newline at end of file\n",
        ),
        (
            "CRLF lines",
            "a\r\nb\r\nc\r\n",
            "a\r\nB\r\nc\r\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n c\r\n",
        ),
        (
            "CRLF against LF",
            "a\r\nb\n",
            "a\nb\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,2 +1,2 @@\n-a\r\n+a\n b\n",
        ),
        (
            "a lone CR inside a line",
            "a\rb\nc\n",
            "a\rB\nc\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,2 +1,2 @@\n-a\rb\n+a\rB\n c\n",
        ),
        (
            "swap two lines",
            "a\nb\n",
            "b\na\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,2 +1,2 @@\n-a\n b\n+a\n",
        ),
        (
            "every line different",
            "a\nb\nc\n",
            "x\ny\nz\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,3 +1,3 @@\n-a\n-b\n-c\n+x\n+y\n+z\n",
        ),
        (
            "alternating changes",
            "a\nb\nc\nd\n",
            "a\nx\nc\ny\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,4 +1,4 @@\n a\n-b\n+x\n c\n-d\n+y\n",
        ),
        (
            "a line moved to the end",
            "1\n2\n3\n4\n5\n",
            "2\n3\n4\n5\n1\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,5 +1,5 @@\n-1\n 2\n 3\n 4\n 5\n+1\n",
        ),
        (
            "a line moved to the start",
            "1\n2\n3\n4\n5\n",
            "5\n1\n2\n3\n4\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,5 +1,5 @@\n+5\n 1\n 2\n 3\n 4\n-5\n",
        ),
        (
            "blank lines",
            "\n\n\n",
            "\n\nx\n\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,3 +1,4 @@\n \n \n+x\n \n",
        ),
        (
            "closing braces",
            "fn a() {\n    1\n}\n\nfn b() {\n    2\n}\n",
            "fn a() {\n    1\n}\n\nfn c() {\n    3\n}\n\nfn b() {\n    2\n}\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,7 +1,11 @@\n fn a() {\n     1\n }\n \n+fn c() {\n+    3\n+}\n+\n fn b() {\n     2\n }\n",
        ),
        (
            "whitespace-only change",
            "a \nb\n",
            "a\nb\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,2 +1,2 @@\n-a \n+a\n b\n",
        ),
        (
            "unicode lines",
            "héllo\nwörld ✓\n",
            "héllo\nwörld ✗\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,2 +1,2 @@\n héllo\n-wörld ✓\n+wörld ✗\n",
        ),
        (
            "a change near the start, short leading context",
            &numbered(1, 20),
            &numbered(1, 20).replace("line 2\n", "LINE 2\n"),
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,6 +1,6 @@\n line 1\n-line 2\n+LINE 2\n line 3\n line 4\n line 5\n line 6\n",
        ),
        (
            "a change near the end, short trailing context",
            &numbered(1, 20),
            &numbered(1, 20).replace("line 19\n", "LINE 19\n"),
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -15,6 +15,6 @@\n line 15\n line 16\n line 17\n line 18\n-line 19\n+LINE 19\n line 20\n",
        ),
        (
            "far apart edits give two hunks",
            &numbered(1, 40),
            &numbered(1, 40).replace("line 5\n", "LINE 5\n").replace("line 30\n", "LINE 30\n"),
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,9 +1,9 @@\n line 1\n line 2\n line 3\n line 4\n-line 5\n+LINE 5\n line 6\n line 7\n line 8\n line 9\n@@ -26,9 +26,9 @@\n line 26\n line 27\n line 28\n line 29\n-line 30\n+LINE 30\n line 31\n line 32\n line 33\n line 34\n",
        ),
        (
            "8 kept lines between two changes: one hunk",
            &numbered(1, 40),
            &numbered(1, 40).replace("line 10\n", "X\n").replace("line 19\n", "Y\n"),
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -6,18 +6,18 @@\n line 6\n line 7\n line 8\n line 9\n-line 10\n+X\n line 11\n line 12\n line 13\n line 14\n line 15\n line 16\n line 17\n line 18\n-line 19\n+Y\n line 20\n line 21\n line 22\n line 23\n",
        ),
        (
            "9 kept lines between two changes: two hunks",
            &numbered(1, 40),
            &numbered(1, 40).replace("line 10\n", "X\n").replace("line 20\n", "Y\n"),
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -6,9 +6,9 @@\n line 6\n line 7\n line 8\n line 9\n-line 10\n+X\n line 11\n line 12\n line 13\n line 14\n@@ -16,9 +16,9 @@\n line 16\n line 17\n line 18\n line 19\n-line 20\n+Y\n line 21\n line 22\n line 23\n line 24\n",
        ),
        (
            "three hunks",
            &numbered(1, 60),
            &numbered(1, 60).replace("line 3\n", "").replace("line 30\n", "A\nB\n").replace("line 58\n", "C\n"),
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,7 +1,6 @@\n line 1\n line 2\n-line 3\n line 4\n line 5\n line 6\n line 7\n@@ -26,9 +25,10 @@\n line 26\n line 27\n line 28\n line 29\n-line 30\n+A\n+B\n line 31\n line 32\n line 33\n line 34\n@@ -54,7 +54,7 @@\n line 54\n line 55\n line 56\n line 57\n-line 58\n+C\n line 59\n line 60\n",
        ),
        (
            "a block deleted from a long file",
            &numbered(1, 200),
            &numbered(1, 200).replace("line 50\nline 51\nline 52\nline 53\nline 54\nline 55\nline 56\nline 57\nline 58\nline 59\nline 60\nline 61\nline 62\nline 63\nline 64\nline 65\nline 66\nline 67\nline 68\nline 69\nline 70\nline 71\nline 72\nline 73\nline 74\nline 75\nline 76\nline 77\nline 78\nline 79\nline 80\nline 81\nline 82\nline 83\nline 84\nline 85\nline 86\nline 87\nline 88\nline 89\nline 90\nline 91\nline 92\nline 93\nline 94\nline 95\nline 96\nline 97\nline 98\nline 99\nline 100\nline 101\nline 102\nline 103\nline 104\nline 105\nline 106\nline 107\nline 108\nline 109\nline 110\nline 111\nline 112\nline 113\nline 114\nline 115\nline 116\nline 117\nline 118\nline 119\nline 120\n", ""),
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -46,79 +46,8 @@\n line 46\n line 47\n line 48\n line 49\n-line 50\n-line 51\n-line 52\n-line 53\n-line 54\n-line 55\n-line 56\n-line 57\n-line 58\n-line 59\n-line 60\n-line 61\n-line 62\n-line 63\n-line 64\n-line 65\n-line 66\n-line 67\n-line 68\n-line 69\n-line 70\n-line 71\n-line 72\n-line 73\n-line 74\n-line 75\n-line 76\n-line 77\n-line 78\n-line 79\n-line 80\n-line 81\n-line 82\n-line 83\n-line 84\n-line 85\n-line 86\n-line 87\n-line 88\n-line 89\n-line 90\n-line 91\n-line 92\n-line 93\n-line 94\n-line 95\n-line 96\n-line 97\n-line 98\n-line 99\n-line 100\n-line 101\n-line 102\n-line 103\n-line 104\n-line 105\n-line 106\n-line 107\n-line 108\n-line 109\n-line 110\n-line 111\n-line 112\n-line 113\n-line 114\n-line 115\n-line 116\n-line 117\n-line 118\n-line 119\n-line 120\n line 121\n line 122\n line 123\n line 124\n",
        ),
        (
            "a block inserted into a long file",
            &numbered(1, 200),
            &numbered(1, 200).replace("line 100\n", "line 100\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\nnew\n"),
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -97,8 +97,38 @@\n line 97\n line 98\n line 99\n line 100\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n+new\n line 101\n line 102\n line 103\n line 104\n",
        ),
        (
            "the last lines deleted",
            &numbered(1, 12),
            &numbered(1, 9),
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -6,7 +6,4 @@\n line 6\n line 7\n line 8\n line 9\n-line 10\n-line 11\n-line 12\n",
        ),
        (
            "lines appended to a long file without trailing newline",
            &unterminated(1, 12),
            &numbered(1, 14),
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -8,5 +8,7 @@\n line 8\n line 9\n line 10\n line 11\n-line 12\n\\ No newline at end of file\n+line 12\n+line 13\n+line 14\n",
        ),
        (
            "backticks in the lines",
            "```\ncode\n```\n",
            "```\nmore code\n```\n",
            "Index: /r/f.txt\n===================================================================\n--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,3 +1,3 @@\n ```\n-code\n+more code\n ```\n",
        ),
    ];
    let mut wrong = Vec::new();
    for (name, old, new, want) in rows {
        let got = unified(old, new, "/r/f.txt");
        if got != *want {
            wrong.push(format!("{name}:\n{got}\nwanted:\n{want}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} rows differ:\n{}",
        wrong.len(),
        rows.len(),
        wrong.join("\n")
    );
}
