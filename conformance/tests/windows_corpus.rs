//! The Windows-form corpus (`testkit/data/windows_corpus.json`, rows in the
//! spellings of `testkit::windows::Spellings`): drive letters, separators,
//! URI forms, case, and every refusal of semantics section 12.
//!
//! - On every platform: the rows that parsing alone decides are refused by
//!   `parse_input_as(_, PathStyle::Windows)` with their reason, and every
//!   other row's input (and every root not expected to be rejected) parses.
//! - On Windows: every row, against a fresh temporary directory on a drive
//!   through the public API. Allows touch exactly the expected object
//!   (reads return its content, creates make exactly the one new file,
//!   listings list it); refusals have the expected reason and change
//!   nothing. A row may give the set hide and read-only patterns (a
//!   hidden or read-only part reached in a Windows spelling, beside the
//!   same row without them).

#[cfg(windows)]
mod common;

use mcp_roots::{PathStyle, parse_input_as};
use testkit::windows::{self, PARSE_ONLY_T, Spellings};

#[test]
fn the_parser_decides_the_parse_rows() {
    let cases = windows::load_shared();
    let t = Spellings::new(PARSE_ONLY_T);
    let mut failures = Vec::new();
    for case in &cases {
        let id = &case.id;
        let input = t.subst(&case.input);
        match (case.parse, parse_input_as(&input, PathStyle::Windows)) {
            (true, Ok(path)) => failures.push(format!("{id}: {input:?} parsed as {path:?}")),
            (true, Err(err)) if err.reason() != case.expect => failures.push(format!(
                "{id}: {input:?} refused as {}, expected {}",
                err.reason(),
                case.expect
            )),
            (false, Err(err)) => failures.push(format!(
                "{id}: {input:?} refused by the parser ({}), the row expects {}",
                err.reason(),
                case.expect
            )),
            _ => {}
        }
        // The roots that fail to parse are among the expected rejections.
        let mut expected = case.rejected.clone();
        for root in &case.roots {
            let root = t.subst(root);
            if let Err(err) = parse_input_as(&root, PathStyle::Windows) {
                match expected.iter().position(|r| r == err.reason()) {
                    Some(at) => {
                        expected.remove(at);
                    }
                    None => failures.push(format!(
                        "{id}: root {root:?} refused ({}) but not expected rejected",
                        err.reason()
                    )),
                }
            }
        }
    }
    let parse_rows = cases.iter().filter(|c| c.parse).count();
    eprintln!("{} rows, {parse_rows} decided by the parser", cases.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[cfg(windows)]
mod on_windows {
    use std::collections::BTreeMap;
    use std::path::Path;

    use mcp_roots::{Patterns, RootSet};
    use testkit::SetupOp;
    use testkit::windows::{self, Spellings, WindowsCase};

    use crate::common::{self, MARKER, Touched};

    /// Every file (with its content) and directory below `dir`, by path
    /// relative to it with `/`.
    fn snapshot(dir: &Path) -> BTreeMap<String, Option<Vec<u8>>> {
        fn walk(dir: &Path, prefix: &str, out: &mut BTreeMap<String, Option<Vec<u8>>>) {
            for entry in std::fs::read_dir(dir).expect("list the tree") {
                let entry = entry.expect("an entry");
                let name = entry.file_name().into_string().expect("UTF-8 name");
                let rel = format!("{prefix}{name}");
                if entry.file_type().expect("a type").is_dir() {
                    out.insert(rel.clone(), None);
                    walk(&entry.path(), &format!("{rel}/"), out);
                } else {
                    out.insert(rel, Some(std::fs::read(entry.path()).expect("read")));
                }
            }
        }
        let mut out = BTreeMap::new();
        walk(dir, "", &mut out);
        out
    }

    fn build(base: &Path, setup: &[SetupOp]) {
        for op in setup {
            match op {
                SetupOp::Mkdir { path } => std::fs::create_dir_all(base.join(path)).unwrap(),
                SetupOp::File { path, content } => {
                    let content = content.as_deref().unwrap_or(path);
                    std::fs::write(base.join(path), content).unwrap();
                }
                _ => unreachable!("the loader refuses links"),
            }
        }
    }

    /// Runs one row in a fresh directory; the failure, if any.
    fn check(case: &WindowsCase) -> Result<(), String> {
        let dir = tempfile::tempdir().expect("tempdir");
        let base = dir.path();
        let native = base.to_str().expect("UTF-8 temp dir");
        build(base, &case.setup);
        let t = Spellings::new(native);
        let parse = |p: &[String]| Patterns::parse(p).expect("the corpus' patterns parse");
        let set = case
            .roots
            .iter()
            .fold(RootSet::builder(), |b, r| b.root(t.subst(r)))
            .hide(parse(&case.hide))
            .read_only(parse(&case.read_only))
            .build();
        let rejected: Vec<&str> = set.rejected().iter().map(|r| r.reason()).collect();
        if rejected != case.rejected {
            return Err(format!(
                "rejected roots {rejected:?}, expected {:?}: {:?}",
                case.rejected,
                set.rejected()
                    .iter()
                    .map(|r| r.error().to_string())
                    .collect::<Vec<_>>()
            ));
        }
        let before = snapshot(base);
        let input = t.subst(&case.input);
        let outcome = common::run(&set, case.op, &input);
        let after = snapshot(base);
        match (case.resolved.as_deref(), outcome) {
            (None, Ok(touched)) => Err(format!("ESCAPE: {input:?} allowed: {touched:?}")),
            (None, Err(err)) if err.reason() != case.expect => Err(format!(
                "{input:?} refused as {} ({err}), expected {}",
                err.reason(),
                case.expect
            )),
            (None, Err(_)) if before != after => {
                Err(format!("{input:?} refused but the tree changed"))
            }
            (None, Err(_)) => Ok(()),
            (Some(_), Err(err)) => Err(format!(
                "{input:?} wrongly refused: {err} [{}]",
                err.reason()
            )),
            (Some(resolved), Ok(touched)) => common::check_target(&touched, &base.join(resolved))
                .and_then(|()| only_change(resolved, &touched, &before, &after))
                .map_err(|why| format!("{input:?} allowed, but {why}")),
        }
    }

    /// A create made exactly the one file; anything else changed nothing.
    fn only_change(
        resolved: &str,
        touched: &Touched,
        before: &BTreeMap<String, Option<Vec<u8>>>,
        after: &BTreeMap<String, Option<Vec<u8>>>,
    ) -> Result<(), String> {
        let mut expected = before.clone();
        if let Touched::Created = touched {
            expected.insert(resolved.to_owned(), Some(MARKER.to_vec()));
        }
        if &expected != after {
            let new: Vec<_> = after.keys().filter(|k| !before.contains_key(*k)).collect();
            return Err(format!(
                "the tree changed (new: {new:?}), expected only {resolved}"
            ));
        }
        Ok(())
    }

    #[test]
    fn every_row_on_a_drive() {
        let cases = windows::load_shared();
        let mut failures = Vec::new();
        for case in &cases {
            if let Err(why) = check(case) {
                failures.push(format!("{}: {why}", case.id));
            }
        }
        eprintln!("{} rows run on a drive", cases.len());
        assert!(
            failures.is_empty(),
            "{} failures:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}
