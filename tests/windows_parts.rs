//! Hidden and read-only parts of a root on Windows, through the public
//! API, in every spelling Windows reads as the same name: case (`.ENV`),
//! the dot and space Win32 strips (`.env.`, `.env `), alternate data
//! streams (`.env::$DATA`), 8.3 short names (`SECRE~1`, and Wine's own
//! `_ENV~3EE`), either separator, `\\?\` prefixes, a `file:///c:/` URI
//! with its drive letter in lowercase, percent-encoded names. Each row runs
//! twice, on a fresh tree each time: on a set with the patterns, where it
//! must be refused with its reason and change nothing, and on the same
//! set without patterns (the control), where it must do what it asks, so
//! that a row which refuses for some other reason fails.
//!
//! Run under Wine by tools/wine/run-tests.sh.

#![cfg(windows)]
// One FFI call, GetShortPathNameW, to learn the 8.3 names to try.
#![allow(unsafe_code)]

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::os::windows::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use mcp_roots::{Error, OpenOptions, Overwrite, Patterns, RootSet, WalkLimits};

const HIDE: &[&str] = &[
    ".env",
    "**/.git/",
    "/secret-keys/",
    "/secrets/",
    "Café/",
    "conf/key.json",
];
const READ_ONLY: &[&str] = &["/vendor/", "*.lock", "/docs/api/"];
const MARKER: &[u8] = b"written by the test";

/// `T/root` with hidden and read-only parts (contents in [`FILES`]), and
/// `T/root/pub.txt`, `T/root/sub/a.txt` shared.
const FILES: &[(&str, &str)] = &[
    (".env", "ENV"),
    (".git/HEAD", "HEAD"),
    ("secret-keys/id.txt", "KEY"),
    ("secrets/x.txt", "X"),
    ("Café/x.txt", "CAFE"),
    ("vendor/lib.rs", "LIB"),
    ("Cargo.lock", "LOCK"),
    ("sub/a.txt", "A"),
    ("pub.txt", "PUB"),
    ("conf/key.json", "KEYJSON"),
    ("conf/app.json", "APP"),
    ("docs/api/x.md", "API"),
];

struct Tree {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    /// The placeholders of the rows: `{R}` and the 8.3 names.
    subst: Vec<(&'static str, String)>,
}

impl Tree {
    fn new() -> Self {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().join("root");
        for (rel, content) in FILES {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, content).unwrap();
        }
        let native = root.to_str().expect("UTF-8").to_owned();
        let slashed = native.replace('\\', "/");
        let drive = &slashed[..1];
        let mut subst = vec![
            ("{R}", native.clone()),
            ("{URI}", format!("file:///{}", encode(&slashed))),
            (
                "{uri}",
                format!(
                    "file:///{}{}",
                    drive.to_ascii_lowercase(),
                    encode(&slashed[1..])
                ),
            ),
        ];
        for (placeholder, long) in [
            ("{ENV~}", ".env"),
            ("{GIT~}", ".git"),
            ("{KEYS~}", "secret-keys"),
            ("{LOCK~}", "Cargo.lock"),
        ] {
            if let Some(short) = short_name(&root.join(long)) {
                subst.push((placeholder, short));
            }
        }
        Self {
            _tmp: tmp,
            root,
            subst,
        }
    }

    /// `template` with its placeholders replaced; `None` when it names an
    /// 8.3 name the volume does not have.
    fn input(&self, template: &str) -> Option<String> {
        let mut out = template.to_owned();
        for (placeholder, value) in &self.subst {
            out = out.replace(placeholder, value);
        }
        (!out.contains('{')).then_some(out)
    }

    fn set(&self, patterns: bool) -> RootSet {
        let builder = RootSet::builder().root(self.root.to_str().unwrap());
        let set = if patterns {
            builder
                .hide(Patterns::parse(HIDE).unwrap())
                .read_only(Patterns::parse(READ_ONLY).unwrap())
                .build()
        } else {
            builder.build()
        };
        assert!(set.rejected().is_empty(), "{:?}", set.rejected());
        set
    }

    /// Every file (with its content) and directory below the root, by
    /// path with `/`, as Windows lists them (long names).
    fn snapshot(&self) -> BTreeMap<String, Option<Vec<u8>>> {
        fn walk(dir: &Path, prefix: &str, out: &mut BTreeMap<String, Option<Vec<u8>>>) {
            for entry in std::fs::read_dir(dir).expect("list") {
                let entry = entry.expect("entry");
                let rel = format!("{prefix}{}", entry.file_name().to_str().expect("UTF-8"));
                if entry.file_type().unwrap().is_dir() {
                    out.insert(rel.clone(), None);
                    walk(&entry.path(), &format!("{rel}/"), out);
                } else {
                    out.insert(rel, Some(std::fs::read(entry.path()).unwrap()));
                }
            }
        }
        let mut out = BTreeMap::new();
        walk(&self.root, "", &mut out);
        out
    }
}

/// The 8.3 name of `path`'s last component, when the volume gives it one
/// other than its long name.
fn short_name(path: &Path) -> Option<String> {
    let wide: Vec<u16> = path.as_os_str().encode_wide().chain([0]).collect();
    let mut buf = vec![0u16; 1024];
    let len = u32::try_from(buf.len()).unwrap();
    // SAFETY: `wide` is NUL-terminated; `buf` is valid for `len` units.
    let n = unsafe {
        windows_sys::Win32::Storage::FileSystem::GetShortPathNameW(
            wide.as_ptr(),
            buf.as_mut_ptr(),
            len,
        )
    };
    let n = usize::try_from(n).unwrap();
    if n == 0 || n >= buf.len() {
        return None;
    }
    let short = std::ffi::OsString::from_wide(&buf[..n])
        .into_string()
        .ok()?;
    let name = short.rsplit(['\\', '/']).next()?.to_owned();
    let long = path.file_name()?.to_str()?;
    (!name.eq_ignore_ascii_case(long)).then_some(name)
}

/// `path` percent-encoded as a URI path (`/` and `:` kept).
fn encode(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~:".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// What a row does, to its input (`from` and `to` are templates too).
#[derive(Clone, Copy, Debug)]
enum Act {
    Read,
    /// A root's own open, with the input relative to the root.
    RootRead,
    /// Opens an existing file for writing and writes.
    Write,
    CreateNew,
    WriteAtomic,
    Remove,
    /// Renames the row's `from` onto the input, replacing it.
    RenameOnto(&'static str),
    /// Renames the input to `to`.
    RenameTo(&'static str),
    /// Copies the input to `to`.
    CopyTo(&'static str),
    /// Copies the row's `from` to the input (a new name).
    CopyOnto(&'static str),
    CreateDirAll,
    List,
}

/// What a row must do: succeed, touching the object at this path below the
/// root (`/`-separated, long names), or be refused with this reason.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    Allow(&'static str),
    Refuse(&'static str),
}
use Expect::{Allow, Refuse};

struct Row {
    input: &'static str,
    act: Act,
    /// With the patterns.
    with: Expect,
    /// Without them.
    without: Expect,
}

const fn row(input: &'static str, act: Act, with: Expect, without: Expect) -> Row {
    Row {
        input,
        act,
        with,
        without,
    }
}

const HIDDEN: Expect = Refuse("hidden");
const READ_ONLY_: Expect = Refuse("read_only");
const INVALID: Expect = Refuse("invalid_path");

/// What an allowed act did, to be checked against the tree.
enum Done {
    Read(Vec<u8>),
    Listed(Vec<String>),
    Changed,
}

fn run(set: &RootSet, tree: &Tree, act: Act, input: &str) -> Result<Done, Error> {
    let path = |template: &str| tree.input(&format!("{{R}}\\{template}")).unwrap();
    Ok(match act {
        Act::Read => {
            let mut data = Vec::new();
            set.open(input)?.read_to_end(&mut data).unwrap();
            Done::Read(data)
        }
        Act::RootRead => {
            let mut data = Vec::new();
            let root = set.root(0).unwrap();
            root.open(input)?.read_to_end(&mut data).unwrap();
            Done::Read(data)
        }
        Act::Write => {
            let options = OpenOptions::new().write(true).truncate(true);
            set.open_with(input, options)?.write_all(MARKER).unwrap();
            Done::Changed
        }
        Act::CreateNew => {
            set.create_new(input)?.write_all(MARKER).unwrap();
            Done::Changed
        }
        Act::WriteAtomic => {
            set.write_atomic(input, MARKER)?;
            Done::Changed
        }
        Act::Remove => {
            set.remove_file(input)?;
            Done::Changed
        }
        Act::RenameOnto(from) => {
            set.rename_with(&path(from), input, Overwrite::Replace)?;
            Done::Changed
        }
        Act::RenameTo(to) => {
            set.rename(input, &path(to))?;
            Done::Changed
        }
        Act::CopyTo(to) => {
            set.copy(input, &path(to))?;
            Done::Changed
        }
        Act::CopyOnto(from) => {
            set.copy(&path(from), input)?;
            Done::Changed
        }
        Act::CreateDirAll => {
            set.create_dir_all(input)?;
            Done::Changed
        }
        Act::List => {
            let mut names: Vec<String> = set
                .read_dir(input)?
                .map(|e| e.unwrap().name().to_str().unwrap().to_owned())
                .collect();
            names.sort();
            Done::Listed(names)
        }
    })
}

/// Runs `row` on a fresh tree, with or without the patterns; the failure,
/// if any. `None`: the row names an 8.3 name this volume does not give.
fn check(row: &Row, patterns: bool) -> Option<Result<(), String>> {
    let tree = Tree::new();
    let input = tree.input(row.input)?;
    let set = tree.set(patterns);
    let expect = if patterns { row.with } else { row.without };
    let before = tree.snapshot();
    let outcome = run(&set, &tree, row.act, &input);
    let after = tree.snapshot();
    let content = |rel: &str| before.get(rel).cloned().flatten().unwrap_or_default();
    Some(match (expect, outcome) {
        (Refuse(reason), Err(err)) if err.reason() == reason => {
            if before == after {
                Ok(())
            } else {
                Err(format!("refused ({err}) but the tree changed"))
            }
        }
        (Refuse(reason), Err(err)) => Err(format!(
            "refused as {} ({err}), expected {reason}",
            err.reason()
        )),
        (Refuse(reason), Ok(_)) => Err(format!("ESCAPE: allowed, expected {reason}")),
        (Allow(_), Err(err)) => Err(format!("refused: {err} [{}]", err.reason())),
        (Allow(object), Ok(done)) => {
            let ok = match (row.act, done) {
                (_, Done::Read(data)) => data == content(object),
                (_, Done::Listed(names)) => {
                    let prefix = if object.is_empty() {
                        String::new()
                    } else {
                        format!("{object}/")
                    };
                    let want: Vec<String> = before
                        .keys()
                        .filter_map(|k| k.strip_prefix(&prefix))
                        .filter(|k| !k.contains('/'))
                        .map(str::to_owned)
                        .collect();
                    let hidden: Vec<&String> = names
                        .iter()
                        .filter(|n| HIDE.iter().any(|h| h.trim_matches('/') == n.as_str()))
                        .collect();
                    if patterns {
                        hidden.is_empty() && names.iter().all(|n| want.contains(n))
                    } else {
                        names == want
                    }
                }
                (Act::Remove, Done::Changed) => !after.contains_key(object),
                (Act::RenameOnto(from), Done::Changed) => {
                    !after.contains_key(from)
                        && after.get(object).cloned().flatten() == Some(content(from))
                }
                (Act::RenameTo(to), Done::Changed) => {
                    !after.contains_key(object) && after.get(to) == before.get(object)
                }
                (Act::CopyTo(to), Done::Changed) => {
                    after.get(to).cloned().flatten() == Some(content(object))
                }
                (Act::CopyOnto(from), Done::Changed) => {
                    after.get(object).cloned().flatten() == Some(content(from))
                }
                (Act::CreateDirAll, Done::Changed) => after.get(object) == Some(&None),
                (_, Done::Changed) => {
                    after.get(object).cloned().flatten().as_deref() == Some(MARKER)
                }
            };
            if ok {
                Ok(())
            } else {
                Err(format!("allowed, but did not touch {object} as asked"))
            }
        }
    })
}

fn check_all(rows: &[Row]) {
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut skipped = Vec::new();
    for row in rows {
        for patterns in [true, false] {
            match check(row, patterns) {
                None => skipped.push(row.input),
                Some(Ok(())) => ran += 1,
                Some(Err(why)) => failures.push(format!(
                    "{:?} {:?} {}: {why}",
                    row.act,
                    row.input,
                    if patterns { "with patterns" } else { "without" }
                )),
            }
        }
    }
    skipped.dedup();
    eprintln!(
        "{ran} runs passed, {} failed; no 8.3 name on this volume for {skipped:?}",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn hidden_names_in_every_windows_spelling_are_refused() {
    check_all(&[
        // Case: the volume folds it, and so do the patterns.
        row(r"{R}\.ENV", Act::Read, HIDDEN, Allow(".env")),
        row(r"{R}\.Env", Act::Read, HIDDEN, Allow(".env")),
        row(
            r"{R}\SECRETS\x.txt",
            Act::Read,
            HIDDEN,
            Allow("secrets/x.txt"),
        ),
        row(r"{R}\.GIT\head", Act::Read, HIDDEN, Allow(".git/HEAD")),
        row(r"{R}\CAFÉ\x.txt", Act::Read, HIDDEN, Allow("Café/x.txt")),
        // Windows does not fold Unicode normalisation: the NFD spelling is
        // another name, which does not exist.
        row(
            "{R}\\Cafe\u{301}\\x.txt",
            Act::Read,
            Refuse("not_found"),
            Refuse("not_found"),
        ),
        // What Win32 strips or reads as a stream never reaches the disk,
        // patterns or not.
        row(r"{R}\.env.", Act::Read, INVALID, INVALID),
        row(r"{R}\.env ", Act::Read, INVALID, INVALID),
        row(r"{R}\.env::$DATA", Act::Read, INVALID, INVALID),
        row(r"{R}\.env:x", Act::Read, INVALID, INVALID),
        row(r"{R}\secrets.\x.txt", Act::Read, INVALID, INVALID),
        row(r"\\?\{R}\.env", Act::Read, INVALID, INVALID),
        row(r"\\?\{R}\pub.txt", Act::Read, INVALID, INVALID),
        // 8.3 short names: resolved by Windows to the hidden object.
        row(r"{R}\{ENV~}", Act::Read, HIDDEN, Allow(".env")),
        row(
            r"{R}\{KEYS~}\id.txt",
            Act::Read,
            HIDDEN,
            Allow("secret-keys/id.txt"),
        ),
        row(r"{R}\{GIT~}\HEAD", Act::Read, HIDDEN, Allow(".git/HEAD")),
        row(r"{R}\{KEYS~}", Act::List, HIDDEN, Allow("secret-keys")),
        // Separators, dot segments.
        row(
            r"{R}/secrets\x.txt",
            Act::Read,
            HIDDEN,
            Allow("secrets/x.txt"),
        ),
        row(
            r"{R}\\secrets\\x.txt",
            Act::Read,
            HIDDEN,
            Allow("secrets/x.txt"),
        ),
        row(r"{R}\sub\..\.env", Act::Read, HIDDEN, Allow(".env")),
        row(r"{R}\.\.env", Act::Read, HIDDEN, Allow(".env")),
        row(
            r"secrets\x.txt",
            Act::RootRead,
            HIDDEN,
            Allow("secrets/x.txt"),
        ),
        row(
            r"SECRETS/x.txt",
            Act::RootRead,
            HIDDEN,
            Allow("secrets/x.txt"),
        ),
        row(
            r"{KEYS~}\id.txt",
            Act::RootRead,
            HIDDEN,
            Allow("secret-keys/id.txt"),
        ),
        // URIs: the drive letter in either case, encoded names.
        row("{uri}/.env", Act::Read, HIDDEN, Allow(".env")),
        row("{URI}/.ENV", Act::Read, HIDDEN, Allow(".env")),
        row("{uri}/%2Eenv", Act::Read, HIDDEN, Allow(".env")),
        row("{URI}/.%65nv", Act::Read, HIDDEN, Allow(".env")),
        row(
            "{uri}/Secrets/x.txt",
            Act::Read,
            HIDDEN,
            Allow("secrets/x.txt"),
        ),
        row(
            "{URI}/secrets%5Cx.txt",
            Act::Read,
            Refuse("invalid_uri"),
            Refuse("invalid_uri"),
        ),
        // Listings leave hidden names out (checked by the runner).
        row(r"{R}", Act::List, Allow(""), Allow("")),
        row(r"{R}\SUB\..", Act::List, Allow(""), Allow("")),
    ]);
}

#[test]
fn hidden_names_in_every_windows_spelling_are_never_changed() {
    check_all(&[
        row(r"{R}\.ENV", Act::Write, HIDDEN, Allow(".env")),
        row(r"{R}\{ENV~}", Act::Write, HIDDEN, Allow(".env")),
        row(
            r"{R}\.ENV",
            Act::CreateNew,
            HIDDEN,
            Refuse("already_exists"),
        ),
        row(r"{R}\{ENV~}", Act::WriteAtomic, HIDDEN, Allow(".env")),
        row(r"{R}\.Env", Act::WriteAtomic, HIDDEN, Allow(".env")),
        row(r"{R}\{ENV~}", Act::Remove, HIDDEN, Allow(".env")),
        row(
            r"{R}\SECRETS\x.txt",
            Act::Remove,
            HIDDEN,
            Allow("secrets/x.txt"),
        ),
        row(
            r"{R}\.ENV",
            Act::RenameOnto("pub.txt"),
            HIDDEN,
            Allow(".env"),
        ),
        row(
            r"{R}\{ENV~}",
            Act::RenameOnto("pub.txt"),
            HIDDEN,
            Allow(".env"),
        ),
        row(
            r"{R}\{ENV~}",
            Act::RenameTo("out.txt"),
            HIDDEN,
            Allow(".env"),
        ),
        row(
            r"{R}\{ENV~}",
            Act::CopyTo("copy.txt"),
            HIDDEN,
            Allow(".env"),
        ),
        row(
            r"{R}\{ENV~}",
            Act::CopyOnto("pub.txt"),
            HIDDEN,
            Refuse("already_exists"),
        ),
        row(
            r"{R}\{KEYS~}\new.txt",
            Act::CopyOnto("pub.txt"),
            HIDDEN,
            Allow("secret-keys/new.txt"),
        ),
        row(
            r"{R}\{KEYS~}",
            Act::RenameTo("keys"),
            HIDDEN,
            Allow("secret-keys"),
        ),
        row(r"{R}\{GIT~}", Act::RenameTo("git"), HIDDEN, Allow(".git")),
        row(
            r"{R}\{KEYS~}\id.txt",
            Act::Write,
            HIDDEN,
            Allow("secret-keys/id.txt"),
        ),
        row(
            r"{R}\{KEYS~}\new\deeper",
            Act::CreateDirAll,
            HIDDEN,
            Allow("secret-keys/new/deeper"),
        ),
        row(
            r"{R}\{GIT~}\hooks",
            Act::CreateDirAll,
            HIDDEN,
            Allow(".git/hooks"),
        ),
        row(
            r"{R}\.GIT\hooks",
            Act::CreateDirAll,
            HIDDEN,
            Allow(".git/hooks"),
        ),
        row("{uri}/.env", Act::Write, HIDDEN, Allow(".env")),
        row(r"{R}\.env.", Act::Write, INVALID, INVALID),
        row(r"{R}\.env ", Act::CreateNew, INVALID, INVALID),
        row(r"{R}\.env::$DATA", Act::Write, INVALID, INVALID),
    ]);
}

#[test]
fn read_only_names_in_every_windows_spelling_are_never_changed() {
    check_all(&[
        row(
            r"{R}\VENDOR\lib.rs",
            Act::Write,
            READ_ONLY_,
            Allow("vendor/lib.rs"),
        ),
        row(
            r"{R}\Vendor\LIB.RS",
            Act::WriteAtomic,
            READ_ONLY_,
            Allow("vendor/lib.rs"),
        ),
        row(
            r"{R}\VENDOR\new.rs",
            Act::CreateNew,
            READ_ONLY_,
            Allow("vendor/new.rs"),
        ),
        row(
            r"{R}\vendor\LIB.rs",
            Act::Remove,
            READ_ONLY_,
            Allow("vendor/lib.rs"),
        ),
        row(
            r"{R}\VENDOR\lib.rs",
            Act::RenameTo("lib.rs"),
            READ_ONLY_,
            Allow("vendor/lib.rs"),
        ),
        row(
            r"{R}\Vendor\lib.rs",
            Act::RenameOnto("pub.txt"),
            READ_ONLY_,
            Allow("vendor/lib.rs"),
        ),
        row(
            r"{R}\VENDOR\x\y",
            Act::CreateDirAll,
            READ_ONLY_,
            Allow("vendor/x/y"),
        ),
        row(
            r"{R}\cargo.LOCK",
            Act::Write,
            READ_ONLY_,
            Allow("Cargo.lock"),
        ),
        row(r"{R}\{LOCK~}", Act::Write, READ_ONLY_, Allow("Cargo.lock")),
        row(
            r"{R}\{LOCK~}",
            Act::WriteAtomic,
            READ_ONLY_,
            Allow("Cargo.lock"),
        ),
        row(r"{R}\{LOCK~}", Act::Remove, READ_ONLY_, Allow("Cargo.lock")),
        row(
            r"{R}\{LOCK~}",
            Act::RenameOnto("pub.txt"),
            READ_ONLY_,
            Allow("Cargo.lock"),
        ),
        row(
            "{uri}/VENDOR/lib.rs",
            Act::Write,
            READ_ONLY_,
            Allow("vendor/lib.rs"),
        ),
        row(
            r"{R}\{LOCK~}",
            Act::RenameTo("moved.lock"),
            READ_ONLY_,
            Allow("Cargo.lock"),
        ),
        row(
            r"{R}\VENDOR",
            Act::RenameTo("vendored"),
            READ_ONLY_,
            Allow("vendor"),
        ),
        // Reading and copying out stay allowed.
        row(
            r"{R}\VENDOR\lib.rs",
            Act::Read,
            Allow("vendor/lib.rs"),
            Allow("vendor/lib.rs"),
        ),
        row(
            r"{R}\{LOCK~}",
            Act::Read,
            Allow("Cargo.lock"),
            Allow("Cargo.lock"),
        ),
        row(
            r"{R}\VENDOR\lib.rs",
            Act::CopyTo("lib2.rs"),
            Allow("vendor/lib.rs"),
            Allow("vendor/lib.rs"),
        ),
    ]);
}

/// A rename of a directory above a path pattern would carry the part out
/// of it: refused in every spelling; without patterns it moves.
#[test]
fn a_rename_that_would_carry_a_part_along_is_refused_in_every_spelling() {
    check_all(&[
        row(r"{R}\conf", Act::RenameTo("cfg"), HIDDEN, Allow("conf")),
        row(r"{R}\CONF", Act::RenameTo("cfg"), HIDDEN, Allow("conf")),
        row(r"{R}/Conf/", Act::RenameTo("cfg"), HIDDEN, Allow("conf")),
        row(
            r"{R}\DOCS",
            Act::RenameTo("documentation"),
            READ_ONLY_,
            Allow("docs"),
        ),
        row(
            r"{R}\docs",
            Act::RenameTo("documentation"),
            READ_ONLY_,
            Allow("docs"),
        ),
        row(
            r"{R}\conf\app.json",
            Act::RenameTo("app.json"),
            Allow("conf/app.json"),
            Allow("conf/app.json"),
        ),
        row(
            r"{R}\sub",
            Act::RenameTo("sub2"),
            Allow("sub"),
            Allow("sub"),
        ),
    ]);
}

/// A walk leaves every hidden part out, whatever spelling started it.
#[test]
fn walks_never_show_a_hidden_entry() {
    let tree = Tree::new();
    let limits = WalkLimits::new(8, 1000);
    for (patterns, want) in [
        (
            true,
            &[
                "Cargo.lock",
                "conf",
                "conf/app.json",
                "docs",
                "docs/api",
                "docs/api/x.md",
                "pub.txt",
                "sub",
                "sub/a.txt",
                "vendor",
                "vendor/lib.rs",
            ][..],
        ),
        (
            false,
            &[
                ".env",
                ".git",
                ".git/HEAD",
                "Cargo.lock",
                "Café",
                "Café/x.txt",
                "conf",
                "conf/app.json",
                "conf/key.json",
                "docs",
                "docs/api",
                "docs/api/x.md",
                "pub.txt",
                "secret-keys",
                "secret-keys/id.txt",
                "secrets",
                "secrets/x.txt",
                "sub",
                "sub/a.txt",
                "vendor",
                "vendor/lib.rs",
            ][..],
        ),
    ] {
        let set = tree.set(patterns);
        for start in [r"{R}", r"{R}\SUB\..", "{uri}"] {
            let start = tree.input(start).unwrap();
            let mut walked: Vec<String> = set
                .walk(&start, limits)
                .unwrap()
                .map(|e| e.unwrap().path().rel().to_owned())
                .collect();
            walked.sort();
            let mut want = want.to_vec();
            want.sort_unstable();
            assert_eq!(walked, want, "{start} patterns: {patterns}");
        }
    }
}

/// A served directory inside another: its anchored pattern hides beneath
/// its place through the outer root too, in any case and either
/// separator, and a missing name there answers as an existing one.
#[test]
fn an_inner_roots_hidden_part_is_hidden_through_the_outer_root() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().canonicalize().expect("canonical").join("root");
    std::fs::create_dir_all(root.join("inner").join("secrets")).expect("mkdir");
    std::fs::write(root.join("inner").join("secrets").join("k.txt"), "K").expect("write");
    std::fs::write(root.join("inner").join("o.txt"), "O").expect("write");
    let shown = root
        .to_str()
        .expect("utf-8")
        .trim_start_matches(r"\\?\")
        .to_owned();
    let inner = format!(r"{shown}\inner");
    let set = RootSet::builder()
        .root(&shown)
        .root(&inner)
        .hide(Patterns::parse(["/secrets/"]).expect("patterns"))
        .build();
    assert_eq!(set.len(), 2, "{:?}", set.rejected());
    let reason = |input: &str| match set.read(input) {
        Ok(_) => "ok",
        Err(e) => e.reason(),
    };
    for hidden in [
        format!(r"{shown}\inner\secrets\k.txt"),
        format!(r"{shown}\INNER\Secrets\k.txt"),
        format!("{}/inner/secrets/k.txt", shown.replace('\\', "/")),
        format!(r"{shown}\inner\secrets\missing.txt"),
        format!(r"{shown}\inner\secrets\..\o.txt"),
    ] {
        assert_eq!(reason(&hidden), "hidden", "{hidden}");
    }
    assert_eq!(reason(&format!(r"{shown}\inner\o.txt")), "ok");
}
