//! Proptest strategies for random adversarial scenarios.
//!
//! A [`Scenario`] is written in the corpus' `{T}` format, so
//! [`Fixture::apply`](crate::Fixture::apply) builds it and
//! [`judge`](crate::judge) answers it. Trees have a few directories and
//! files inside and outside the roots (`a`, `b` and their children are the
//! usual roots, `o` is outside, `a_evil` and `a.txt` are prefix siblings),
//! oddly named files that only the right decoding reaches, and symlinks:
//! relative and absolute, inside and outside, to `..`, dangling, looping,
//! with a trailing slash. Roots are 1–3 directories, sometimes through the
//! symlink `rl`, nested, missing, a file, with a trailing `/` or `/.`.
//! Inputs are raw paths or `file:` URIs in several spellings, built from
//! adversarial pieces.

use std::collections::BTreeMap;

use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::sample::select;

use crate::corpus::{Case, Expect, Op, SetupOp};
use crate::fixture::Fixture;
use crate::model::Verdict;
use crate::model::parts::Parts;

mod tables;

use tables::*;

/// A random scenario in the corpus' `{T}` format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    /// Setup operations relative to `{T}`.
    pub setup: Vec<SetupOp>,
    /// Root URIs with `{T}`.
    pub roots: Vec<String>,
    /// The input with `{T}`.
    pub input: String,
    /// The operation.
    pub op: Op,
}

impl Scenario {
    /// This scenario as a corpus case whose expectation is `verdict`,
    /// judged in `fixture` (to paste a failing scenario into the corpus).
    pub fn to_case(&self, id: &str, verdict: &Verdict, fixture: &Fixture) -> Case {
        let resolved = verdict.target().map(|t| {
            let rel = t.strip_prefix(fixture.t_resolved()).unwrap_or(t);
            rel.to_string_lossy().into_owned()
        });
        Case {
            id: id.to_owned(),
            class: "generated".into(),
            setup: self.setup.clone(),
            roots: self.roots.clone(),
            input: self.input.clone(),
            op: self.op,
            expect: if verdict.is_allow() {
                Expect::Allow
            } else {
                Expect::Deny
            },
            deny_acceptable: matches!(verdict, Verdict::Allow { strict: false, .. }),
            resolved,
            why: format!("reference model: {verdict:?}"),
            note: None,
        }
    }
}

fn link_body() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        3 => select(LINKS_INSIDE),
        3 => select(LINKS_ROUNDABOUT),
        2 => select(LINKS_OUTSIDE),
        2 => select(LINKS_DANGLING),
        1 => select(LINKS_ODD),
    ]
}

/// Random setups: the base tree with some entries left out, odd names,
/// three to five symlinks, often the alias `rl`, sometimes a hard link.
pub fn setup() -> impl Strategy<Value = Vec<SetupOp>> {
    (
        vec(prop::bool::weighted(0.9), DIRS.len()),
        vec(prop::bool::weighted(0.9), FILES.len()),
        vec(prop::bool::weighted(0.5), ODD_FILES.len()),
        btree_map(0..LINK_SLOTS.len(), link_body(), 3..=5),
        prop::option::weighted(0.6, select(ALIAS_TARGETS)),
        prop::bool::weighted(0.15),
    )
        .prop_map(|(dirs, files, odd, links, alias, hardlink)| {
            build_setup(&dirs, &files, &odd, &links, alias, hardlink)
        })
}

fn build_setup(
    dirs: &[bool],
    files: &[bool],
    odd: &[bool],
    links: &BTreeMap<usize, &str>,
    alias: Option<&str>,
    hardlink: bool,
) -> Vec<SetupOp> {
    let chosen = |names: &[&str], mask: &[bool]| -> Vec<String> {
        let kept = names.iter().zip(mask).filter(|(_, keep)| **keep);
        kept.map(|(name, _)| name.to_string()).collect()
    };
    let mut ops: Vec<SetupOp> = chosen(DIRS, dirs)
        .into_iter()
        .map(|path| SetupOp::Mkdir { path })
        .collect();
    let files = [chosen(FILES, files), chosen(ODD_FILES, odd)].concat();
    let secret = files.iter().any(|f| f == "o/secret.txt");
    for path in files {
        ops.push(SetupOp::File {
            path,
            content: None,
        });
    }
    if hardlink && secret {
        let (path, target) = ("a/hl".into(), "o/secret.txt".into());
        ops.push(SetupOp::Hardlink { path, target });
    }
    for (&slot, target) in links {
        let (path, target) = (LINK_SLOTS[slot].into(), target.to_string());
        ops.push(SetupOp::Symlink { path, target });
    }
    if let Some(target) = alias {
        let (path, target) = ("rl".into(), target.into());
        ops.push(SetupOp::Symlink { path, target });
    }
    ops
}

/// The setup's files and links that patterns are about (see
/// [`scene`]): added when the tree has the usual roots.
fn part_setup(ops: &mut Vec<SetupOp>) {
    let has = |dir: &str| {
        ops.iter()
            .any(|op| matches!(op, SetupOp::Mkdir { path } if path == dir))
    };
    let (a, b, sub) = (has("a"), has("b"), has("a/sub"));
    let fits = |path: &str| {
        (path.starts_with("a/") && a && (!path.starts_with("a/sub/") || sub))
            || (path.starts_with("b/") && b && (!path.starts_with("b/sub/") || has("b/sub")))
    };
    let mut added = Vec::new();
    for path in PART_FILES.iter().filter(|p| fits(p)) {
        let path = path.to_string();
        added.push(SetupOp::File {
            path,
            content: None,
        });
    }
    for (path, target) in PART_LINKS.iter().filter(|(p, _)| fits(p)) {
        let (path, target) = (path.to_string(), target.to_string());
        added.push(SetupOp::Symlink { path, target });
    }
    ops.extend(added);
}

/// Random hide and read-only patterns: none in a third of the scenes,
/// else a few drawn from a small alphabet that names the tree's entries.
pub fn parts() -> impl Strategy<Value = Parts> {
    let some = (
        vec(select(HIDE_PATTERNS), 0..=3),
        vec(select(READ_ONLY_PATTERNS), 0..=2),
    )
        .prop_map(|(hide, read_only)| Parts {
            hide: hide.into_iter().map(str::to_owned).collect(),
            read_only: read_only.into_iter().map(str::to_owned).collect(),
        });
    prop_oneof![1 => Just(Parts::default()), 2 => some]
}

/// A root as (scheme, directory below `{T}`, suffix).
type RootSpec = (&'static str, &'static str, &'static str);

fn root_specs() -> impl Strategy<Value = Vec<RootSpec>> {
    let spec = (
        select(ROOT_SCHEMES),
        select(ROOT_DIRS),
        select(ROOT_SUFFIXES),
    );
    vec(spec, 1..=3)
}

fn root_uri(&(scheme, dir, suffix): &RootSpec) -> String {
    format!("{scheme}{{T}}/{dir}{suffix}")
}

/// Random root lists: 1–3 root URIs.
pub fn roots() -> impl Strategy<Value = Vec<String>> {
    root_specs().prop_map(|specs| specs.iter().map(root_uri).collect())
}

/// Random inputs for `op`, in the `{T}` format: a path fit for the
/// operation below one of `root_dirs` (mostly) or another directory,
/// sometimes with pieces inserted or the last one replaced, a trailing
/// slash, and a spelling (raw path, URI forms, garbage).
///
/// # Panics
///
/// If `root_dirs` is empty.
pub fn input(op: Op, root_dirs: Vec<&'static str>) -> impl Strategy<Value = String> {
    let (paths, slash) = match op {
        Op::Read => (READ_PATHS, 0.08),
        Op::List => (LIST_PATHS, 0.25),
        Op::WriteNew => (WRITE_PATHS, 0.08),
    };
    let inserts = prop_oneof![
        4 => Just(Vec::new()),
        1 => vec((1..6usize, select(INSERTS)), 1..=2),
    ];
    let mutations = (
        inserts,
        prop::option::weighted(0.1, select(ODD_LASTS)),
        prop::bool::weighted(slash),
    );
    let form = prop_oneof![
        16 => select(PREFIXES).prop_map(Ok),
        1 => select(GARBAGE).prop_map(Err),
    ];
    let base = prop_oneof![5 => select(root_dirs), 1 => select(BASES)];
    let [plain, linked, dotdot, odd] = paths;
    let parts = match op {
        Op::Read => PART_PATHS,
        Op::List | Op::WriteNew => PART_DIRS,
    };
    let part = select(parts).prop_map(move |path| match op {
        Op::WriteNew => format!("{path}/new.txt"),
        _ => path.to_owned(),
    });
    let template = prop_oneof![
        4 => select(plain).prop_map(str::to_owned),
        3 => select(linked).prop_map(str::to_owned),
        1 => select(dotdot).prop_map(str::to_owned),
        1 => select(odd).prop_map(str::to_owned),
        2 => part,
    ];
    let path = (base, template).prop_map(|(base, path)| path.replacen('@', base, 1));
    (form, path, mutations, select(QUERIES)).prop_map(
        |(form, path, (inserts, last, slash), query)| match form {
            Ok(prefix) => render(prefix, &path, &inserts, last, slash, query),
            Err(garbage) => garbage.to_owned(),
        },
    )
}

/// Spells an input: names of `path` are percent-encoded in a URI, inserted
/// pieces and a replaced last piece are verbatim.
fn render(
    prefix: &str,
    path: &str,
    inserts: &[(usize, &str)],
    last: Option<&str>,
    slash: bool,
    query: &str,
) -> String {
    let uri = !prefix.is_empty();
    let mut pieces: Vec<String> = path
        .split('/')
        .filter(|name| !name.is_empty())
        .map(|name| if uri { encode(name) } else { name.to_owned() })
        .collect();
    if let (Some(last), Some(slot)) = (last, pieces.last_mut()) {
        *slot = last.to_owned();
    }
    for &(at, piece) in inserts {
        pieces.insert(at.min(pieces.len()), piece.to_owned());
    }
    let mut out = format!("{prefix}{{T}}");
    for piece in pieces {
        out.push('/');
        out.push_str(&piece);
    }
    if slash {
        out.push('/');
    }
    if uri {
        out.push_str(query);
    }
    out
}

/// Percent-encodes a name for a URI path segment (unreserved characters and
/// sub-delimiters stay).
fn encode(name: &str) -> String {
    let mut out = String::new();
    for &b in name.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Random scenarios: a setup, roots, an operation and an input for it
/// (mostly below one of the roots).
pub fn scenario() -> impl Strategy<Value = Scenario> {
    (setup(), root_specs(), select(OPS))
        .prop_flat_map(|(setup, specs, op)| {
            // Inputs start mostly below roots that may exist.
            let mut dirs: Vec<_> = specs.iter().map(|spec| spec.1).collect();
            dirs.retain(|dir| !matches!(*dir, "missing" | "a/x.txt"));
            if dirs.is_empty() {
                dirs.push("a");
            }
            (Just(setup), Just(specs), Just(op), input(op, dirs))
        })
        .prop_map(|(setup, specs, op, input)| Scenario {
            setup,
            roots: specs.iter().map(root_uri).collect(),
            input,
            op,
        })
}

/// One tree and root list probed with several inputs (each with its own
/// operation): cheaper than a fresh tree per input, and later probes see
/// what earlier creates left behind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scene {
    /// Setup operations relative to `{T}`.
    pub setup: Vec<SetupOp>,
    /// Root URIs with `{T}`.
    pub roots: Vec<String>,
    /// Operations and inputs (with `{T}`), applied in order.
    pub probes: Vec<(Op, String)>,
    /// The set's own hide and read-only patterns (relative to each root).
    pub parts: Parts,
    /// Directories served read-only besides `roots` (paths with `{T}`),
    /// mostly inside them; empty in most scenes. A scene with some is
    /// served as an operator's ceiling: `roots` writable, these
    /// read-only, `parts` anchored at each.
    pub read_only_roots: Vec<String>,
}

/// Random scenes with `probes` inputs each, with the files and links the
/// patterns are about and, in most scenes, a few patterns; a third of
/// them serve one or two directories read-only as well (nested served
/// directories: see [`model::nesting`](crate::model::nesting)).
pub fn scene(probes: usize) -> impl Strategy<Value = Scene> {
    let read_only = prop_oneof![
        2 => Just(Vec::new()),
        1 => vec(select(READ_ONLY_ROOT_DIRS), 1..=2),
    ];
    (setup(), root_specs(), parts(), read_only)
        .prop_flat_map(move |(mut setup, specs, parts, read_only)| {
            part_setup(&mut setup);
            let mut dirs: Vec<_> = specs.iter().map(|spec| spec.1).collect();
            dirs.retain(|dir| !matches!(*dir, "missing" | "a/x.txt"));
            dirs.extend(read_only.iter().copied());
            if dirs.is_empty() {
                dirs.push("a");
            }
            let probe = select(OPS).prop_flat_map(move |op| (Just(op), input(op, dirs.clone())));
            let probes = vec(probe, probes);
            (
                Just(setup),
                Just(specs),
                probes,
                Just(parts),
                Just(read_only),
            )
        })
        .prop_map(|(setup, specs, probes, parts, read_only)| Scene {
            setup,
            roots: specs.iter().map(root_uri).collect(),
            probes,
            parts,
            read_only_roots: read_only.iter().map(|d| format!("{{T}}/{d}")).collect(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_keeps_unreserved_and_escapes_the_rest() {
        assert_eq!(encode("a-b_c.~"), "a-b_c.~");
        assert_eq!(encode("100%/ é?#\\"), "100%25%2F%20%C3%A9%3F%23%5C");
    }
}
