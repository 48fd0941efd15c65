//! Random small texts diffed here and by jsdiff itself under node: run with
//! `JSDIFF=/path/to/node_modules/diff cargo test -p mcp-roots-fs against_jsdiff -- --ignored --nocapture`
//! (`JSDIFF_CASES` cases, 20,000 by default, of up to `JSDIFF_LINES` lines,
//! 30 by default; `JSDIFF_SEED` picks them).

use std::io::Write as _;
use std::process::{Command, Stdio};

use super::unified;

/// Reads `[[name, old, new], …]` and writes the patches, in order.
const NODE: &str = r"
const { createTwoFilesPatch } = require(process.env.JSDIFF);
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  const out = JSON.parse(input).map(([n, o, m]) => createTwoFilesPatch(n, n, o, m, 'original', 'modified'));
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

/// Up to `most` lines.
fn text(rng: &mut Rng, most: usize) -> Vec<String> {
    (0..rng.below(most))
        .map(|_| LINES[rng.below(LINES.len())].to_owned())
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

#[test]
#[ignore = "needs node and jsdiff: JSDIFF=/path/to/node_modules/diff"]
fn random_texts_agree_with_jsdiff() {
    let Ok(jsdiff) = std::env::var("JSDIFF") else {
        panic!("set JSDIFF to the directory of the `diff` npm package");
    };
    let count: usize = std::env::var("JSDIFF_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(20_000);
    let seed: u64 = std::env::var("JSDIFF_SEED")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(0x5eed);
    let most: usize = std::env::var("JSDIFF_LINES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(30);
    let mut rng = Rng(seed | 1);
    let cases: Vec<(String, String)> = (0..count)
        .map(|_| {
            let old = text(&mut rng, most);
            // Half the new texts are edits of the old, half unrelated.
            let new = if rng.below(2) == 0 {
                edited(&mut rng, &old)
            } else {
                text(&mut rng, most)
            };
            (join(&mut rng, &old), join(&mut rng, &new))
        })
        .collect();
    let input: Vec<_> = cases.iter().map(|(o, n)| ("f", o, n)).collect();
    let mut node = Command::new("node")
        .args(["-e", NODE])
        .env("JSDIFF", &jsdiff)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs");
    let json = serde_json::to_vec(&input).expect("cases serialise");
    node.stdin
        .take()
        .expect("stdin")
        .write_all(&json)
        .expect("cases sent");
    let out = node.wait_with_output().expect("node answers");
    assert!(out.status.success(), "node failed");
    let want: Vec<String> = serde_json::from_slice(&out.stdout).expect("patches parse");
    assert_eq!(want.len(), cases.len());
    let wrong: Vec<_> = cases
        .iter()
        .zip(&want)
        .filter(|((o, n), w)| unified(o, n, "f") != **w)
        .collect();
    println!(
        "{} of {} random cases agree with jsdiff",
        count - wrong.len(),
        count
    );
    if let Some(((o, n), w)) = wrong.first() {
        panic!(
            "{} differ; the first: old {o:?} new {n:?}\nours:\n{}\njsdiff:\n{w}",
            wrong.len(),
            unified(o, n, "f")
        );
    }
}
