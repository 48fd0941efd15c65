//! [`ResolveCase`]: the byte format of the `resolve` fuzz target and its
//! seed files, and the fixed tree it runs in.
//!
//! A case is UTF-8 text, lines separated by `\n`: the first line names the
//! [`Operation`], the last line is the input, the lines between are roots
//! (at most [`MAX_ROOTS`]; none means [`FIXED_ROOTS`]). `{T}` stands for
//! the fixture directory everywhere. An input cannot contain a newline
//! (the `parse` target covers those). A second line `parts:` followed by
//! letters gives the set's own patterns: each lowercase letter names a
//! hide pattern of [`HIDE_ALPHABET`], each uppercase one a read-only
//! pattern of [`READ_ONLY_ALPHABET`] (other characters are ignored; at
//! most [`MAX_PATTERNS`]). A root line `ro:` followed by a path names a
//! directory served read-only: a case with one is served as an operator's
//! ceiling of the other roots writable and those read-only, the patterns
//! the policy's ([`resolution_served`]), so nested served directories are
//! fuzzed too.

use crate::corpus::SetupOp;
use crate::fixture::Fixture;
use crate::model::parts::Parts;

use super::{Operation, Outcome, resolution_served};

/// The hide patterns a case can name (`a`, `b`, …): names of the fixed
/// tree, directory patterns with and without `/`, anchored and not, a
/// negation.
pub const HIDE_ALPHABET: [&str; 12] = [
    ".env",
    "*.pem",
    "/secrets/",
    "!keep.pem",
    "**/.git/",
    "sub",
    "deep/",
    "x.txt",
    "!x.txt",
    "/sub/deep",
    "l*",
    "y.txt",
];

/// The read-only patterns a case can name (`A`, `B`, …).
pub const READ_ONLY_ALPHABET: [&str; 8] = [
    "sub/",
    "*.txt",
    "/x.txt",
    "deep",
    "!x.txt",
    "/secrets/",
    "**/.git/",
    "new.txt",
];

/// At most this many patterns per case.
pub const MAX_PATTERNS: usize = 6;

/// At most this many roots per case.
pub const MAX_ROOTS: usize = 4;

/// The roots of a case that names none.
pub const FIXED_ROOTS: [&str; 2] = ["file://{T}/a", "{T}/b"];

/// The patterns that `letters` name: each lowercase letter a hide pattern
/// of [`HIDE_ALPHABET`], each uppercase one a read-only pattern of
/// [`READ_ONLY_ALPHABET`] (other characters are ignored; at most
/// [`MAX_PATTERNS`]).
pub fn parts_of(letters: &str) -> Parts {
    let mut parts = Parts::default();
    let letters = letters.bytes().filter(u8::is_ascii_alphabetic);
    for letter in letters.take(MAX_PATTERNS) {
        let (alphabet, into): (&[&str], _) = if letter.is_ascii_lowercase() {
            (&HIDE_ALPHABET, &mut parts.hide)
        } else {
            (&READ_ONLY_ALPHABET, &mut parts.read_only)
        };
        let index = usize::from(letter.to_ascii_lowercase() - b'a') % alphabet.len();
        into.push(alphabet[index].to_owned());
    }
    parts
}

/// One decoded case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolveCase {
    /// The operation.
    pub op: Operation,
    /// Root URIs or paths, with `{T}`.
    pub roots: Vec<String>,
    /// The input, with `{T}`.
    pub input: String,
    /// The pattern letters (see the module docs), `""` for none.
    pub parts: String,
}

impl ResolveCase {
    /// Decodes a case; `None` if the bytes are not UTF-8, name no known
    /// operation or have too many roots.
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        let text = std::str::from_utf8(bytes).ok()?;
        let mut lines: Vec<&str> = text.split('\n').collect();
        let op = Operation::from_name(lines.first()?)?;
        let parts = match lines.get(1).and_then(|l| l.strip_prefix("parts:")) {
            Some(letters) if lines.len() >= 3 => {
                lines.remove(1);
                letters
            }
            _ => "",
        };
        let input = if lines.len() >= 2 { lines.pop()? } else { "" };
        let roots = &lines[1..];
        if roots.len() > MAX_ROOTS {
            return None;
        }
        let roots: Vec<String> = if roots.is_empty() {
            FIXED_ROOTS.iter().map(|r| r.to_string()).collect()
        } else {
            roots.iter().map(|r| r.to_string()).collect()
        };
        Some(Self {
            op,
            roots,
            input: input.to_owned(),
            parts: parts.to_owned(),
        })
    }

    /// The patterns the case's letters name.
    pub fn patterns(&self) -> Parts {
        parts_of(&self.parts)
    }

    /// Encodes the case (roots always written out).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut lines = vec![self.op.name().to_owned()];
        if !self.parts.is_empty() {
            lines.push(format!("parts:{}", self.parts));
        }
        lines.extend(self.roots.iter().cloned());
        lines.push(self.input.clone());
        lines.join("\n").into_bytes()
    }

    /// Runs the case in `fx` (built from [`fixed_tree`]).
    ///
    /// # Errors
    ///
    /// As [`resolution`](super::resolution).
    pub fn check(&self, fx: &Fixture) -> Result<Outcome, String> {
        let (read_only, roots): (Vec<&String>, Vec<&String>) =
            self.roots.iter().partition(|r| r.starts_with("ro:"));
        let roots: Vec<String> = roots.iter().map(|r| fx.subst(r)).collect();
        let read_only: Vec<String> = read_only
            .iter()
            .map(|r| fx.subst(&r["ro:".len()..]))
            .collect();
        let parts = self.patterns();
        let input = fx.subst(&self.input);
        resolution_served(fx, &roots, &read_only, &parts, &input, self.op)
    }
}

/// The fixed tree of the `resolve` target: directories inside and outside
/// the usual roots `a` and `b` (`o` outside, `a_evil` and `a.txt` prefix
/// siblings), oddly named files, and symlinks of every kind: inside,
/// absolute inside, into the other root, outside, `..`, dangling inside and
/// outside, looping, with a trailing slash, and the root alias `rl`.
pub fn fixed_tree() -> Vec<SetupOp> {
    let mut ops: Vec<SetupOp> = [
        "a/sub/deep",
        "a/empty",
        "b/sub/.git",
        "o/sub",
        "a_evil",
        "a/secrets",
        "a/.git",
    ]
    .into_iter()
    .map(|path| SetupOp::Mkdir { path: path.into() })
    .collect();
    let files = [
        "a/x.txt",
        "a/sub/y.txt",
        "a/sub/deep/z.txt",
        "b/x.txt",
        "b/sub/y.txt",
        "o/secret.txt",
        "o/sub/x.txt",
        "a_evil/secret.txt",
        "a.txt",
        "a/%2e%2e/x.txt",
        "a/100%.txt",
        "a/b\\c.txt",
        "a/my file.txt",
        "a/café.txt",
        "a/x%2Fy.txt",
        "a/what?.txt",
        "a/#t.txt",
        "a/.env",
        "a/key.pem",
        "a/keep.pem",
        "a/secrets/s.txt",
        "a/secrets/keep.pem",
        "a/.git/HEAD",
        "b/.env",
        "b/sub/.git/HEAD",
    ];
    ops.extend(files.into_iter().map(|path| SetupOp::File {
        path: path.into(),
        content: None,
    }));
    let links = [
        ("a/in", "x.txt"),
        ("a/ind", "sub"),
        ("a/abs", "{T}/a/x.txt"),
        ("a/rb", "../b"),
        ("a/out", "../o/secret.txt"),
        ("a/outd", "../o"),
        ("a/up", ".."),
        ("a/dang", "new.txt"),
        ("a/dango", "../o/new.txt"),
        ("a/loop", "loop"),
        ("a/slash", "x.txt/"),
        ("a/sub/back", "../x.txt"),
        ("a/sub/up2", "../../o"),
        ("b/l", "../a/sub"),
        ("o/l", "../a"),
        ("rl", "a"),
        ("a/lenv", ".env"),
        ("a/lsec", "secrets"),
        ("a/sub/lgit", "../.git"),
        ("b/lenv", "{T}/a/.env"),
    ];
    ops.extend(links.into_iter().map(|(path, target)| SetupOp::Symlink {
        path: path.into(),
        target: target.into(),
    }));
    ops.push(SetupOp::Hardlink {
        path: "a/hl".into(),
        target: "o/secret.txt".into(),
    });
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_round_trip_through_bytes() {
        let case = ResolveCase::from_bytes(b"open\nfile://{T}/a\n{T}/a/x.txt").unwrap();
        assert_eq!(case.op, Operation::Open);
        assert_eq!(case.roots, ["file://{T}/a"]);
        assert_eq!(case.input, "{T}/a/x.txt");
        assert_eq!(ResolveCase::from_bytes(&case.to_bytes()), Some(case));
        let default = ResolveCase::from_bytes(b"resolve\n{T}/b").unwrap();
        assert_eq!(default.roots, FIXED_ROOTS);
        assert!(ResolveCase::from_bytes(b"nope\n{T}/b").is_none());
        assert!(ResolveCase::from_bytes(b"open\n1\n2\n3\n4\n5\n{T}").is_none());
        let parts =
            ResolveCase::from_bytes(b"open\nparts:abC!\nfile://{T}/a\n{T}/a/x.txt").unwrap();
        assert_eq!(parts.roots, ["file://{T}/a"]);
        assert_eq!(parts.parts, "abC!");
        let patterns = parts.patterns();
        assert_eq!(patterns.hide, [".env", "*.pem"]);
        assert_eq!(patterns.read_only, ["/x.txt"]);
        assert_eq!(ResolveCase::from_bytes(&parts.to_bytes()), Some(parts));
        // A lone `parts:` line is the input.
        let nested =
            ResolveCase::from_bytes(b"create_new\nparts:c\n{T}/a\nro:{T}/a/sub\n{T}/a/sub/n")
                .unwrap();
        assert_eq!(nested.roots, ["{T}/a", "ro:{T}/a/sub"]);
        assert_eq!(ResolveCase::from_bytes(&nested.to_bytes()), Some(nested));
        let lone = ResolveCase::from_bytes(b"open\nparts:a").unwrap();
        assert_eq!((lone.input.as_str(), lone.parts.as_str()), ("parts:a", ""));
    }
}
