//! Random cases run here and by the original's own code under node (not
//! in the default run: they need node and the original's npm package).
//!
//! - Texts diffed by jsdiff: `JSDIFF=/path/to/node_modules/diff cargo test
//!   -p mcp-roots-fs against_node -- --ignored --nocapture`.
//! - Edits applied by the original's `applyFileEdits` (its matching, its
//!   diff, its refusal of an edit that matches nowhere):
//!   `ORIGINAL_LIB=/path/to/server-filesystem/dist/lib.js`, of 2.3.0
//!   (`npm pack @modelcontextprotocol/server-filesystem@2.3.0`; its
//!   `lib.js` runs under Node 20 too).
//!
//! `CASES` cases each (20,000 by default) of up to `LINES` lines (30);
//! `SEED` picks them.

use std::io::Write as _;
use std::process::{Command, Stdio};

use super::apply::apply;
use super::diff::{fenced, of_edit, unified};

/// Reads `[[name, old, new], …]` and writes jsdiff's patches, in order.
const PATCHES: &str = r"
const { createTwoFilesPatch } = require(process.env.JSDIFF);
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  const out = JSON.parse(input).map(([n, o, m]) => createTwoFilesPatch(n, n, o, m, 'original', 'modified'));
  process.stdout.write(JSON.stringify(out));
});
";

/// Reads `[[content, [[old, new], …]], …]` and writes, in order, what the
/// original's `applyFileEdits` (dry run) answers for `content` in the file
/// `FILE`: the fenced diff, or `ERR:` and its error message.
const EDITS: &str = r"
const fs = require('fs');
import(require('url').pathToFileURL(process.env.ORIGINAL_LIB).href).then(async ({ applyFileEdits }) => {
  const cases = JSON.parse(fs.readFileSync(0, 'utf8'));
  const out = [];
  for (const [content, edits] of cases) {
    fs.writeFileSync(process.env.FILE, content);
    try {
      out.push(await applyFileEdits(process.env.FILE, edits.map(([oldText, newText]) => ({ oldText, newText })), true));
    } catch (err) {
      out.push('ERR:' + err.message);
    }
  }
  process.stdout.write(JSON.stringify(out));
});
";

/// xorshift64*: the same cases for the same seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33;
        usize::try_from(x).unwrap_or(0) % n
    }
}

/// A few distinct lines, so that repeats (the ties) are common.
const LINES: &[&str] = &["a", "b", "c", "x = 1", "", "}", "a\r"];

/// Up to `most` lines, each one of `from`.
fn text(rng: &mut Rng, from: &[&str], most: usize) -> Vec<String> {
    (0..rng.below(most))
        .map(|_| from[rng.below(from.len())].to_owned())
        .collect()
}

/// The lines joined; the last without `\n` one time in four.
fn join(rng: &mut Rng, lines: &[String]) -> String {
    let mut out: String = lines.iter().map(|l| format!("{l}\n")).collect();
    if !out.is_empty() && rng.below(4) == 0 {
        out.pop();
    }
    out
}

/// `old`'s lines with a few insertions, removals and changes.
fn edited(rng: &mut Rng, old: &[String]) -> Vec<String> {
    let mut new = old.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(new.len() + 1);
        match rng.below(3) {
            0 => new.insert(at, LINES[rng.below(LINES.len())].to_owned()),
            1 if at < new.len() => {
                new.remove(at);
            }
            _ if at < new.len() => new[at] = LINES[rng.below(LINES.len())].to_owned(),
            _ => {}
        }
    }
    new
}

/// Lines as a file's, indented or not, for the whitespace-tolerant match.
const INDENTED: &[&str] = &[
    "a",
    "  a",
    "\ta",
    " a ",
    "b",
    "    b",
    "}",
    "  }",
    "",
    "x = 1",
    "\u{feff}c",
    "c",
    "\u{a0}d",
];

/// `CASES`, `LINES` and `SEED` from the environment, or their defaults.
fn settings() -> (usize, usize, Rng) {
    let var = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let size = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
    (
        size(var("CASES", 20_000)),
        size(var("LINES", 30)),
        Rng(var("SEED", 0x5eed) | 1),
    )
}

/// `script` run by node with `env`, fed `input` as JSON; its JSON answer.
fn node(script: &str, env: &[(&str, String)], input: &impl serde::Serialize) -> Vec<String> {
    let mut node = Command::new("node")
        .args(["-e", script])
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs");
    let json = serde_json::to_vec(input).expect("cases serialise");
    node.stdin
        .take()
        .expect("stdin")
        .write_all(&json)
        .expect("cases sent");
    let out = node.wait_with_output().expect("node answers");
    assert!(out.status.success(), "node failed");
    serde_json::from_slice(&out.stdout).expect("answers parse")
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("set {name} (see the module's documentation)"))
}

/// Each case with its answer here and the original's, where they differ:
/// the number that agree printed, the first that does not shown.
fn agree<C: std::fmt::Debug>(what: &str, cases: &[C], ours: &[String], theirs: &[String]) {
    assert_eq!(theirs.len(), cases.len());
    let wrong: Vec<_> = (0..cases.len()).filter(|&i| ours[i] != theirs[i]).collect();
    println!(
        "{} of {} random {what} agree",
        cases.len() - wrong.len(),
        cases.len()
    );
    if let Some(&i) = wrong.first() {
        panic!(
            "{} differ; the first: {:?}\nours:\n{}\nthe original's:\n{}",
            wrong.len(),
            cases[i],
            ours[i],
            theirs[i]
        );
    }
}

#[test]
#[ignore = "needs node and jsdiff: JSDIFF=/path/to/node_modules/diff"]
fn random_texts_agree_with_jsdiff() {
    let jsdiff = env("JSDIFF");
    let (count, most, mut rng) = settings();
    let cases: Vec<(String, String)> = (0..count)
        .map(|_| {
            let old = text(&mut rng, LINES, most);
            // Half the new texts are edits of the old, half unrelated.
            let new = if rng.below(2) == 0 {
                edited(&mut rng, &old)
            } else {
                text(&mut rng, LINES, most)
            };
            (join(&mut rng, &old), join(&mut rng, &new))
        })
        .collect();
    let input: Vec<_> = cases.iter().map(|(o, n)| ("f", o, n)).collect();
    let theirs = node(PATCHES, &[("JSDIFF", jsdiff)], &input);
    let ours: Vec<String> = cases.iter().map(|(o, n)| unified(o, n, "f")).collect();
    agree("texts diffed", &cases, &ours, &theirs);
}

/// An `oldText` taken from `lines`: a run of them, each line's
/// surrounding whitespace changed one time in three (so that the exact
/// match fails and the tolerant one is tried), or a line not there.
fn old_text(rng: &mut Rng, lines: &[String]) -> String {
    if lines.is_empty() || rng.below(8) == 0 {
        return "nowhere".to_owned();
    }
    let from = rng.below(lines.len());
    let to = from + 1 + rng.below((lines.len() - from).min(3));
    let run: Vec<String> = lines[from..to]
        .iter()
        .map(|l| match rng.below(3) {
            0 => format!(" {}", l.trim()),
            1 => format!("{}  ", l.trim_start()),
            _ => l.clone(),
        })
        .collect();
    run.join("\n")
}

#[test]
#[ignore = "needs node and the original: ORIGINAL_LIB=/path/to/dist/lib.js"]
fn random_edits_agree_with_the_original() {
    let lib = env("ORIGINAL_LIB");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("f.txt").to_string_lossy().into_owned();
    let (count, most, mut rng) = settings();
    let cases: Vec<(String, Vec<(String, String)>)> = (0..count)
        .map(|_| {
            let lines = text(&mut rng, INDENTED, most);
            let mut content = join(&mut rng, &lines);
            if rng.below(4) == 0 {
                content = content.replace('\n', "\r\n");
            }
            let edits = (0..=rng.below(2))
                .map(|_| {
                    let new = text(&mut rng, INDENTED, 4).join("\n");
                    (old_text(&mut rng, &lines), new)
                })
                .collect();
            (content, edits)
        })
        .collect();
    let theirs = node(
        EDITS,
        &[("ORIGINAL_LIB", lib), ("FILE", file.clone())],
        &cases,
    );
    // As `run` reads and answers (the text's line ends made LF once).
    let ours: Vec<String> = cases
        .iter()
        .map(|(content, edits)| {
            let old = content.replace("\r\n", "\n");
            match apply(&old, edits) {
                Ok(new) => fenced(&of_edit(&old, &new, &file)),
                Err(err) => format!("ERR:{err}"),
            }
        })
        .collect();
    agree("edits applied", &cases, &ours, &theirs);
}
