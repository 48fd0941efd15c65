//! The pieces the generator draws from: tree entries, link bodies, roots,
//! path templates and adversarial spellings. Repeated entries weight the
//! draw.

use crate::corpus::Op;

/// Directories of the tree; `o` is outside the usual roots, `a_evil` a
/// prefix sibling.
#[rustfmt::skip]
pub(super) const DIRS: &[&str] = &[
    "a", "a/sub", "a/sub/deep", "b", "b/sub", "o", "o/sub", "a_evil",
];

/// Files of the tree; each holds its own relative path.
#[rustfmt::skip]
pub(super) const FILES: &[&str] = &[
    "a/x.txt", "a/sub/x.txt", "a/sub/y.txt", "a/sub/deep/x.txt", "b/x.txt", "b/z.txt",
    "b/sub/x.txt", "b/sub/y.txt", "o/x.txt", "o/secret.txt", "o/sub/x.txt", "a_evil/x.txt",
    "a_evil/secret.txt", "a.txt",
];

/// Files whose names only the right decoding (or none) reaches.
#[rustfmt::skip]
pub(super) const ODD_FILES: &[&str] = &[
    "a/%2e%2e/x.txt", "a/100%.txt", "a/100%25.txt", "a/b\\c.txt", "a/my file.txt",
    "a/café.txt", "a/x%2Fy.txt", "a/what?.txt", "a/#t.txt",
];

/// Where symlinks may be created.
pub(super) const LINK_SLOTS: &[&str] = &["a/l1", "a/l2", "a/sub/l1", "b/l1", "o/l1"];

/// Link bodies that stay inside the link's directory, relatively.
#[rustfmt::skip]
pub(super) const LINKS_INSIDE: &[&str] = &[
    "x.txt", "sub", "sub/y.txt", ".", "./sub/../x.txt", "sub/x.txt",
];

/// Link bodies that land inside a root by a way a beneath-one-root open
/// refuses: absolute, leaving and re-entering, or into another root.
#[rustfmt::skip]
pub(super) const LINKS_ROUNDABOUT: &[&str] = &[
    "{T}/a/x.txt", "{T}/a/sub", "{T}/a/sub/x.txt", "../a/x.txt", "../a/sub", "../a", "../b",
    "../b/x.txt", "{T}/b", "../sub/x.txt",
];

/// Link bodies that lead outside (for the usual roots).
#[rustfmt::skip]
pub(super) const LINKS_OUTSIDE: &[&str] = &[
    "..", "../", "../o", "../o/secret.txt", "../../o", "../a_evil", "{T}/o", "/", "../a.txt",
];

/// Dangling link bodies.
#[rustfmt::skip]
pub(super) const LINKS_DANGLING: &[&str] = &[
    "missing", "new.txt", "sub/new.txt", "../o/new.txt", "nx/new.txt", "{T}/a/new.txt",
];

/// Chains, loops and trailing slashes.
pub(super) const LINKS_ODD: &[&str] = &["l1", "l2", "sub/l1", "../l1", "x.txt/", "sub/", "../rl"];

/// Targets of `{T}/rl`, a root alias.
pub(super) const ALIAS_TARGETS: &[&str] = &["a", "a", "b", "a/sub", "o/sub", "rl", "missing"];

/// Root directories below `{T}` (`rl` is a symlink, `missing` and
/// `a/x.txt` are rejected).
#[rustfmt::skip]
pub(super) const ROOT_DIRS: &[&str] = &[
    "a", "a", "a", "a", "a", "a", "a", "a", "a/sub", "a/sub", "b", "b", "rl", "rl", "a/sub/deep",
    "o/sub", "missing", "a/x.txt",
];

/// Directories below `{T}` served read-only in some scenes: mostly
/// inside the usual roots (nested), once beside them.
#[rustfmt::skip]
pub(super) const READ_ONLY_ROOT_DIRS: &[&str] = &[
    "a/sub", "a/sub", "a/sub/deep", "b/sub", "a/sub", "o/sub",
];

/// Suffixes of a root URI.
pub(super) const ROOT_SUFFIXES: &[&str] = &["", "", "", "", "/", "/."];

/// Schemes and authorities of a root URI.
pub(super) const ROOT_SCHEMES: &[&str] = &["file://", "file://", "file://", "file://localhost"];

/// Paths to read, `@` standing for a base directory: plain ones, through
/// links, with `..`, odd names.
#[rustfmt::skip]
pub(super) const READ_PATHS: [&[&str]; 4] = [
    &["@/x.txt", "@/x.txt", "@/x.txt", "@/sub/x.txt", "@/sub/x.txt", "@/y.txt", "@/sub/y.txt",
      "@/sub/deep/x.txt", "@/z.txt"],
    &["@/l1", "@/l2", "@/sub/l1", "@/l1/x.txt", "@/l1/y.txt", "@/l2/x.txt", "@/l1/../x.txt",
      "@/sub/l1/../x.txt", "@/hl"],
    &["@/../o/secret.txt", "@/sub/../x.txt", "@/../a/x.txt", "@/../b/x.txt", "@/../rl/x.txt",
      "@/../a_evil/x.txt", "@/../a.txt", "@/sub/deep/../../x.txt"],
    &["@/100%.txt", "@/100%25.txt", "@/b\\c.txt", "@/my file.txt", "@/café.txt", "@/x%2Fy.txt",
      "@/what?.txt", "@/#t.txt", "@/%2e%2e/x.txt", "@/secret.txt"],
];

/// Paths to list, in the same four kinds.
#[rustfmt::skip]
pub(super) const LIST_PATHS: [&[&str]; 4] = [
    &["@", "@/sub", "@/sub/deep"],
    &["@/l1", "@/l2", "@/sub/l1", "@/l2/sub", "@/l1/.."],
    &["@/..", "@/sub/..", "@/../a_evil", "@/../rl", "@/../o", "@/../a"],
    &["@/%2e%2e", "@/deep", "@/sub/sub"],
];

/// Paths to create, in the same four kinds.
#[rustfmt::skip]
pub(super) const WRITE_PATHS: [&[&str]; 4] = [
    &["@/new.txt", "@/sub/new.txt", "@/sub/deep/new.txt", "@/x.txt"],
    &["@/l1", "@/l2", "@/sub/l1", "@/l1/new.txt", "@/l2/new.txt", "@/l1/../new.txt"],
    &["@/sub/../new.txt", "@/../new.txt", "@/../o/new.txt", "@/../a_evil/new.txt",
      "@/../a/new.txt"],
    &["@/n w.txt", "@/%2e%2e/new.txt", "@/nx/new.txt"],
];

/// Base directories other than the roots (`""` is `{T}` itself).
#[rustfmt::skip]
pub(super) const BASES: &[&str] = &[
    "a", "a", "b", "o", "a_evil", "", "a/sub", "rl", "a/l1", "o/sub", "a.txt",
];

/// Pieces inserted into a path, pasted verbatim in both forms.
#[rustfmt::skip]
pub(super) const INSERTS: &[&str] = &[
    ".", "", "..", "..", "%2e", "%2e%2e", ".%2e", "%2E%2e", "nx", "sub", "l1", "x%2Fy", "%00",
    "%zz", "b%5Cc", "x\\y", "t\tab", "%25", "%",
];

/// Replacements for the last piece, pasted verbatim in both forms.
#[rustfmt::skip]
pub(super) const ODD_LASTS: &[&str] = &[
    "%78.txt", "x.txt%00", "b%5Cc.txt", "100%25.txt", "x%2Fy.txt", "%2e%2e", "..", ".",
    "caf%C3%A9.txt", "caf%c3%a9.txt", "%ed%a0%80", "%c0%ae%c0%ae", "x\\..\\y", "x.txt%",
    "what%3F.txt", "%23t.txt", "new%2Etxt", "%252e%252e", "%2Eenv", ".%65nv", "%2Egit",
];

/// Prefixes before `{T}`: a raw path or URI spellings.
#[rustfmt::skip]
pub(super) const PREFIXES: &[&str] = &[
    "", "", "", "", "", "", "", "", "", "file://", "file://", "file://", "file://", "file://",
    "file://", "file://", "file://localhost", "FILE://", "file:", "fiLe://LOCALHOST",
];

/// Whole inputs that are neither a `file:` URI nor an absolute path, or
/// that are malformed before the path.
#[rustfmt::skip]
pub(super) const GARBAGE: &[&str] = &[
    "a/x.txt", "~/x.txt", "", "C:\\x.txt", "http://localhost{T}/a/x.txt", " file://{T}/a/x.txt",
    "file:a/x.txt", "\\\\srv\\a\\x.txt", "file://evil{T}/a/x.txt", "file://localhost",
];

/// Query and fragment suffixes of a URI input.
#[rustfmt::skip]
pub(super) const QUERIES: &[&str] = &[
    "", "", "", "", "", "", "", "", "", "", "", "", "", "", "?raw=1", "#frag",
    "?/../../o/secret.txt", "#/../x",
];

/// Operations, weighted.
pub(super) const OPS: &[Op] = &[
    Op::Read,
    Op::Read,
    Op::Read,
    Op::List,
    Op::List,
    Op::WriteNew,
    Op::WriteNew,
];

/// Files a set's patterns are about: names a hide or read-only pattern of
/// [`HIDE_PATTERNS`] or [`READ_ONLY_PATTERNS`] matches, in both usual roots.
#[rustfmt::skip]
pub(super) const PART_FILES: &[&str] = &[
    "a/.env", "a/key.pem", "a/keep.pem", "a/secrets/s.txt", "a/secrets/keep.pem",
    "a/.git/HEAD", "a/sub/.env", "a/sub/secrets/s.txt", "b/.env", "b/secrets/s.txt",
    "b/sub/key.pem",
];

/// Links into those parts: inside, by `..`, and across roots.
#[rustfmt::skip]
pub(super) const PART_LINKS: &[(&str, &str)] = &[
    ("a/lenv", ".env"), ("a/lsec", "secrets"), ("a/sub/lgit", "../.git"),
    ("a/lbsec", "../b/secrets"), ("a/lgitup", ".git/.."),
];

/// Paths into those parts, `@` standing for a base directory.
#[rustfmt::skip]
pub(super) const PART_PATHS: &[&str] = &[
    "@/.env", "@/key.pem", "@/keep.pem", "@/secrets/s.txt", "@/secrets/keep.pem", "@/.git/HEAD",
    "@/sub/.env", "@/lenv", "@/lsec/s.txt", "@/lsec/keep.pem", "@/sub/lgit/HEAD",
    "@/lbsec/s.txt", "@/secrets/../x.txt", "@/.git/../x.txt", "@/lgitup/x.txt",
    "@/sub/secrets/s.txt", "@/sub/key.pem", "@/../b/secrets/s.txt",
];

/// Directories to list or create in among those parts.
#[rustfmt::skip]
pub(super) const PART_DIRS: &[&str] = &[
    "@/secrets", "@/.git", "@/lsec", "@/sub/lgit", "@/lbsec", "@/lgitup", "@/sub/secrets",
];

/// Hide patterns the generator draws from.
#[rustfmt::skip]
pub(super) const HIDE_PATTERNS: &[&str] = &[
    ".env", "*.pem", "/secrets/", "!keep.pem", "**/.git/", "secrets", "sub/", "/sub/deep",
    "x.txt", "!x.txt", "l1", "new.txt", "/.git",
];

/// Read-only patterns the generator draws from.
#[rustfmt::skip]
pub(super) const READ_ONLY_PATTERNS: &[&str] = &[
    "sub/", "*.txt", "/secrets/", "new.txt", "!new.txt", "deep", "/x.txt", "**/.git/",
];
