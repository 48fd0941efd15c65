//! Empty root lists: under `EmptyRoots::Ceiling` a session's client that
//! shares no folder, and has never shared one, is served the ceiling (no
//! capability, or only empty answers so far); once it has listed a root
//! (even one that was rejected), an empty answer shares nothing. A request
//! has no memory: there an empty list shares nothing, and only a client
//! without the capability is served the ceiling.

#![cfg(unix)]

use mcp_roots::{EmptyRoots, ErrorKind, RootSet, Roots, RootsBuilder};

struct Tree {
    _tmp: tempfile::TempDir,
    top: String,
}

impl Tree {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path().to_str().unwrap().to_owned();
        for d in ["ceil/a", "ceil/b", "out"] {
            std::fs::create_dir_all(format!("{top}/{d}")).unwrap();
            std::fs::write(format!("{top}/{d}/f.txt"), d).unwrap();
        }
        Self { _tmp: tmp, top }
    }

    fn p(&self, rel: &str) -> String {
        format!("{}/{rel}", self.top)
    }

    fn policy(&self, empty: EmptyRoots) -> RootsBuilder {
        Roots::builder()
            .ceiling([self.p("ceil")])
            .empty_roots(empty)
    }
}

/// What `roots` serves now: each of a/f.txt, b/f.txt (inside the ceiling)
/// and out/f.txt, as "ok" or the refusal's reason.
fn served(tree: &Tree, set: &RootSet) -> [&'static str; 3] {
    ["ceil/a/f.txt", "ceil/b/f.txt", "out/f.txt"].map(|rel| match set.open(&tree.p(rel)) {
        Ok(_) => "ok",
        Err(err) => err.reason(),
    })
}

const CEILING: [&str; 3] = ["ok", "ok", "outside_roots"];
const NOTHING: [&str; 3] = ["no_roots", "no_roots", "no_roots"];
const ONLY_A: [&str; 3] = ["ok", "outside_roots", "outside_roots"];

/// The ways an answer can be given to a session's `Roots`.
#[derive(Clone, Copy, Debug)]
enum Via {
    List,
    Uris,
    Set,
}

impl Via {
    const ALL: [Via; 3] = [Via::List, Via::Uris, Via::Set];

    fn answer(self, roots: &Roots, uris: &[String]) {
        match self {
            Via::List => {
                let list = uris.iter().fold(RootSet::builder(), |b, u| b.root(u));
                roots.replace_list(list);
            }
            Via::Uris => {
                roots.replace_uris(uris.to_vec());
            }
            Via::Set => {
                roots.replace(RootSet::from_uris(uris.to_vec()));
            }
        }
    }
}

/// One step of a session: an answer, or "no capability".
#[derive(Clone, Copy, Debug)]
enum Step<'a> {
    Listed(&'a [&'a str]),
    Undeclared,
}

fn play(tree: &Tree, roots: &Roots, via: Via, steps: &[Step<'_>]) {
    for step in steps {
        match step {
            Step::Listed(rels) => {
                let uris: Vec<String> = rels.iter().map(|r| tree.p(r)).collect();
                via.answer(roots, &uris);
            }
            Step::Undeclared => {
                roots.replace_undeclared();
            }
        }
    }
}

#[test]
fn a_session_is_served_the_ceiling_only_until_the_client_shares() {
    use Step::{Listed, Undeclared};
    let rows: &[(&str, &[Step<'_>], [&str; 3], bool)] = &[
        ("no capability", &[Undeclared], CEILING, false),
        ("never shared, []", &[Listed(&[])], CEILING, false),
        (
            "never shared, [] twice",
            &[Listed(&[]), Listed(&[])],
            CEILING,
            false,
        ),
        ("shared", &[Listed(&["ceil/a"])], ONLY_A, true),
        (
            "shared, then []",
            &[Listed(&["ceil/a"]), Listed(&[])],
            NOTHING,
            true,
        ),
        (
            "[], shared, then [] again",
            &[Listed(&[]), Listed(&["ceil/a"]), Listed(&[])],
            NOTHING,
            true,
        ),
        (
            "shared but all rejected (outside the ceiling), then []",
            &[Listed(&["out"]), Listed(&[])],
            NOTHING,
            true,
        ),
        (
            "shared but all rejected (missing), then []",
            &[Listed(&["ceil/missing"]), Listed(&[])],
            NOTHING,
            true,
        ),
        (
            "shared but all rejected, nothing else",
            &[Listed(&["ceil/missing"])],
            NOTHING,
            true,
        ),
        (
            "shared, then no capability",
            &[Listed(&["ceil/a"]), Undeclared],
            NOTHING,
            true,
        ),
        (
            "shared, [], then shared again",
            &[Listed(&["ceil/a"]), Listed(&[]), Listed(&["ceil/a"])],
            ONLY_A,
            true,
        ),
    ];
    for via in Via::ALL {
        for (what, steps, expected, shared) in rows {
            let tree = Tree::new();
            let roots = tree.policy(EmptyRoots::Ceiling).build();
            assert!(!roots.has_shared());
            play(&tree, &roots, via, steps);
            let snap = roots.load();
            assert_eq!(served(&tree, snap.set()), *expected, "{via:?}: {what}");
            assert_eq!(roots.has_shared(), *shared, "{via:?}: {what}");
            // Under deny-all nothing is ever served but what was listed.
            let deny = tree.policy(EmptyRoots::DenyAll).build();
            play(&tree, &deny, via, steps);
            let expected = if *expected == ONLY_A { ONLY_A } else { NOTHING };
            assert_eq!(
                served(&tree, deny.load().set()),
                expected,
                "{via:?}: {what} (deny-all)"
            );
        }
    }
}

#[test]
fn a_file_opened_under_the_ceiling_is_revoked_when_the_client_shares() {
    // The ceiling served to a client with no folder is its boundary until
    // it shares one; what it opened elsewhere is then revoked.
    let tree = Tree::new();
    let roots = tree.policy(EmptyRoots::Ceiling).build();
    roots.replace_list(RootSet::builder());
    let held = roots.load().open(&tree.p("ceil/b/f.txt")).unwrap();
    let report = roots.replace_uris([tree.p("ceil/a")]);
    assert_eq!(report.revoked().len(), 1);
    let err = std::io::read_to_string(held).unwrap_err();
    assert_eq!(
        mcp_roots::Error::from_io(&err).map(|e| e.kind()),
        Some(ErrorKind::ScopeLost)
    );
}

#[test]
fn a_request_has_no_memory_an_empty_list_shares_nothing() {
    let tree = Tree::new();
    for empty in [EmptyRoots::Ceiling, EmptyRoots::DenyAll] {
        let session = tree.policy(empty).build();
        // A client that declares roots and lists none, on a request.
        let request = session.for_request(Some(RootSet::builder()));
        assert_eq!(served(&tree, request.load().set()), NOTHING, "{empty:?}");
        assert_eq!(
            served(&tree, &session.scoped_list(RootSet::builder())),
            NOTHING,
            "{empty:?}"
        );
        // A client without the capability: the policy.
        let expected = match empty {
            EmptyRoots::Ceiling => CEILING,
            _ => NOTHING,
        };
        let request = session.for_request(None);
        assert_eq!(served(&tree, request.load().set()), expected, "{empty:?}");
        assert_eq!(
            served(&tree, &session.scoped_undeclared()),
            expected,
            "{empty:?}"
        );
        // Requests neither read nor write the session's memory.
        assert!(!session.has_shared());
        let listed = RootSet::builder().root(tree.p("ceil/a"));
        let request = session.for_request(Some(listed));
        assert_eq!(served(&tree, request.load().set()), ONLY_A);
        assert!(!session.has_shared());
        let request = session.for_request(Some(RootSet::builder()));
        assert_eq!(served(&tree, request.load().set()), NOTHING, "{empty:?}");
    }
}

#[test]
fn an_empty_answer_racing_a_shared_one_never_lands_the_ceiling_after_it() {
    // However the two interleave, once both have returned the client's
    // shared list (or nothing) is installed, never the ceiling.
    let tree = Tree::new();
    for _ in 0..200 {
        let roots = tree.policy(EmptyRoots::Ceiling).build();
        let (a, b) = (roots.clone(), roots.clone());
        let uri = tree.p("ceil/a");
        std::thread::scope(|s| {
            s.spawn(move || a.replace_uris([uri]));
            s.spawn(move || b.replace_list(RootSet::builder()));
        });
        let now = served(&tree, roots.load().set());
        assert!(now == ONLY_A || now == NOTHING, "{now:?}");
    }
}
