//! The judgement of paths by compiled patterns, row by row and against a
//! reference that matches every pattern with `globset` on every prefix.

use super::*;

fn parts(hide: &[&str], read_only: &[&str], folding: Folding, prefix: &str) -> Parts {
    let rules = Rules::new(
        &Patterns::parse(hide).unwrap(),
        &Patterns::parse(read_only).unwrap(),
    )
    .unwrap();
    Parts {
        layers: vec![Layer::new(&rules, Source::Policy, folding, prefix).unwrap()],
        folding,
        nested: Vec::new(),
        only: None,
    }
}

const HIDE: &[&str] = &[
    "**/.git/",
    ".env",
    ".env.*",
    "*.pem",
    "/secrets/",
    "!keep.pem",
];

#[test]
fn hidden_rows() {
    let p = parts(HIDE, &[], Folding::Exact, "");
    let hidden = [
        (".env", ".env"),
        ("a/b/.env", ".env"),
        (".env.local", ".env.*"),
        ("x/.env.prod/inner", ".env.*"),
        (".git", "**/.git/"),
        (".git/config", "**/.git/"),
        ("sub/.git/objects/ab/cd", "**/.git/"),
        ("key.pem", "*.pem"),
        ("deep/er/key.pem", "*.pem"),
        ("secrets", "/secrets/"),
        ("secrets/keep.pem", "/secrets/"),
        ("secrets/a/b", "/secrets/"),
        ("./secrets/x", "/secrets/"),
        ("secrets/../a", "/secrets/"),
        ("a/../.env", ".env"),
        ("a//.env", ".env"),
        ("a/./.git/HEAD", "**/.git/"),
    ];
    for (rel, pattern) in hidden {
        assert_eq!(p.judge(rel), Verdict::Hidden(pattern), "{rel}");
    }
    let shared = [
        ".",
        "",
        "a",
        "keep.pem",
        "a/keep.pem",
        "sub/secrets/x",
        ".environment",
        "env",
        "a.pem.txt",
        ".gitignore",
        "x.git",
        "src/main.rs",
    ];
    for rel in shared {
        assert_eq!(p.judge(rel), Verdict::Shared, "{rel}");
    }
}

#[test]
fn hidden_wins_and_read_only_covers_what_is_beneath() {
    let p = parts(
        &["*.key"],
        &["/vendor/", "*.lock", "!Cargo.lock", "docs"],
        Folding::Exact,
        "",
    );
    let rows = [
        ("vendor", Verdict::ReadOnly("/vendor/")),
        ("vendor/a/b.rs", Verdict::ReadOnly("/vendor/")),
        ("vendor/Cargo.lock", Verdict::ReadOnly("/vendor/")),
        ("vendor/x.key", Verdict::Hidden("*.key")),
        ("x/yarn.lock", Verdict::ReadOnly("*.lock")),
        ("Cargo.lock", Verdict::Shared),
        ("a/docs/x", Verdict::ReadOnly("docs")),
        ("a/docs", Verdict::ReadOnly("docs")),
        ("src/lib.rs", Verdict::Shared),
        ("docs.md", Verdict::Shared),
    ];
    for (rel, verdict) in rows {
        assert_eq!(p.judge(rel), verdict, "{rel}");
    }
}

#[test]
fn a_negation_never_reaches_beneath_a_hidden_directory() {
    let p = parts(
        &["/build/", "!build/keep", "*.log", "!important.log"],
        &[],
        Folding::Exact,
        "",
    );
    assert_eq!(p.judge("build/keep"), Verdict::Hidden("/build/"));
    assert_eq!(p.judge("build/keep/x"), Verdict::Hidden("/build/"));
    assert_eq!(p.judge("important.log"), Verdict::Shared);
    assert_eq!(p.judge("a/important.log"), Verdict::Shared);
    assert_eq!(p.judge("a/other.log"), Verdict::Hidden("*.log"));
    // A negation re-includes a name; a later pattern hides it again.
    let again = parts(&["*.log", "!a.log", "a.*"], &[], Folding::Exact, "");
    assert_eq!(again.judge("a.log"), Verdict::Hidden("a.*"));
}

#[test]
fn a_trailing_slash_or_none_covers_the_same() {
    for pattern in ["secrets", "secrets/", "/secrets", "/secrets/"] {
        let p = parts(&[pattern], &[], Folding::Exact, "");
        for rel in ["secrets", "secrets/a", "secrets/a/b.txt"] {
            assert_eq!(p.judge(rel), Verdict::Hidden(pattern), "{pattern} {rel}");
        }
        let anchored = pattern.starts_with('/');
        assert_eq!(
            p.judge("x/secrets/a") == Verdict::Shared,
            anchored,
            "{pattern}"
        );
    }
}

#[test]
fn anchored_patterns_are_relative_to_the_prefix() {
    // The root is `proj` below the directory the patterns name.
    let p = parts(
        &["/proj/secrets/", "/other/"],
        &["/proj/ro/"],
        Folding::Exact,
        "proj",
    );
    assert_eq!(p.judge("secrets/x"), Verdict::Hidden("/proj/secrets/"));
    assert_eq!(p.judge("ro/x"), Verdict::ReadOnly("/proj/ro/"));
    assert_eq!(p.judge("other"), Verdict::Shared);
    assert_eq!(p.judge("proj/secrets"), Verdict::Shared);
    // A root inside a read-only part is read-only everywhere beneath.
    let inside = parts(&[".env"], &["/vendor/"], Folding::Exact, "vendor/lib");
    assert_eq!(inside.judge("a.rs"), Verdict::ReadOnly("/vendor/"));
    assert_eq!(inside.judge("."), Verdict::ReadOnly("/vendor/"));
    assert_eq!(inside.judge("x/.env"), Verdict::Hidden(".env"));
    // A root inside a hidden part is refused whole.
    let rules = Rules::new(&Patterns::parse(["/secrets/"]).unwrap(), &Patterns::new()).unwrap();
    let err = Layer::new(&rules, Source::Policy, Folding::Exact, "secrets/inner").unwrap_err();
    assert_eq!(&*err, "/secrets/");
    assert!(Layer::new(&rules, Source::Policy, Folding::Exact, "not/secrets").is_ok());
}

#[test]
fn deep_path_patterns_see_the_path_through_dot_dot() {
    // Path patterns one, two and three components deep (plain and
    // globs): the path is built only as deep as they reach, and a
    // `..` takes it back.
    let p = parts(
        &["/a/b/c/", "/d/*/f", "/g/"],
        &["/x/y/"],
        Folding::Exact,
        "",
    );
    let rows = [
        ("a/b/c", Verdict::Hidden("/a/b/c/")),
        ("a/b/c/d/e", Verdict::Hidden("/a/b/c/")),
        ("a/b/../b/c", Verdict::Hidden("/a/b/c/")),
        ("a/q/../b/c/k", Verdict::Hidden("/a/b/c/")),
        ("a/b/c/../../../z", Verdict::Hidden("/a/b/c/")),
        ("a/b/x/../c", Verdict::Hidden("/a/b/c/")),
        ("a/b/x/../y/../c/d", Verdict::Hidden("/a/b/c/")),
        ("./a//b/./c", Verdict::Hidden("/a/b/c/")),
        ("a/b", Verdict::Shared),
        ("q/a/b/c", Verdict::Shared),
        ("a/b/q/../../c", Verdict::Shared),
        ("d/e/f", Verdict::Hidden("/d/*/f")),
        ("d/e/../z/f/x", Verdict::Hidden("/d/*/f")),
        ("d/f", Verdict::Shared),
        ("g", Verdict::Hidden("/g/")),
        ("k/../g/x", Verdict::Hidden("/g/")),
        ("k/g", Verdict::Shared),
        ("x/y", Verdict::ReadOnly("/x/y/")),
        ("x/../x/y/z", Verdict::ReadOnly("/x/y/")),
        ("../x/y", Verdict::ReadOnly("/x/y/")),
        ("x/q/../../x/y/k", Verdict::ReadOnly("/x/y/")),
        ("x/q/y", Verdict::Shared),
    ];
    for (rel, verdict) in rows {
        assert_eq!(p.judge(rel), verdict, "{rel}");
    }
    // Below a prefix, and with a `**` (no depth bound).
    let p = parts(&["/p/a/", "/p/b/c/", "/p/**/z"], &[], Folding::Exact, "p");
    let rows = [
        ("a", Verdict::Hidden("/p/a/")),
        ("b/c", Verdict::Hidden("/p/b/c/")),
        ("b/../a/x", Verdict::Hidden("/p/a/")),
        ("../a", Verdict::Hidden("/p/a/")),
        ("b", Verdict::Shared),
        ("q/b/c", Verdict::Shared),
        ("q/r/s/z", Verdict::Hidden("/p/**/z")),
        ("q/r/../z", Verdict::Hidden("/p/**/z")),
        ("q/r/s", Verdict::Shared),
    ];
    for (rel, verdict) in rows {
        assert_eq!(p.judge(rel), verdict, "prefix p: {rel}");
    }
    // Entries of a listing, at each depth.
    let p = parts(&["/a/b/c/", "/g/", "*.pem"], &[], Folding::Exact, "");
    assert!(p.hides_entry("a/b", "c"));
    assert!(!p.hides_entry("a", "c"));
    assert!(p.hides_entry("", "g"));
    assert!(!p.hides_entry("a/b/c", "g"));
    assert!(p.hides_entry("a/b/c/d", "k.pem"));
}

#[test]
fn names_fold_as_the_volume_folds_them() {
    let exact = parts(&[".env", "Café/", "*.PEM"], &[], Folding::Exact, "");
    let case = parts(&[".env", "Café/", "*.PEM"], &[], Folding::Case, "");
    let mac = parts(
        &[".env", "Café/", "*.PEM"],
        &[],
        Folding::CaseAndNormalization,
        "",
    );
    let nfd = "Cafe\u{301}/x";
    let rows: [(&str, [bool; 3]); 9] = [
        (".env", [true, true, true]),
        (".ENV", [false, true, true]),
        (".Env", [false, true, true]),
        ("a/.eNv", [false, true, true]),
        ("key.pem", [false, true, true]),
        ("key.PEM", [true, true, true]),
        ("Café/x", [true, true, true]),
        ("CAFÉ/x", [false, true, true]),
        (nfd, [false, false, true]),
    ];
    for (rel, [e, c, m]) in rows {
        assert_eq!(
            matches!(exact.judge(rel), Verdict::Hidden(_)),
            e,
            "exact {rel}"
        );
        assert_eq!(
            matches!(case.judge(rel), Verdict::Hidden(_)),
            c,
            "case {rel}"
        );
        assert_eq!(matches!(mac.judge(rel), Verdict::Hidden(_)), m, "mac {rel}");
    }
    // Folded prefixes too.
    let rules = Rules::new(&Patterns::parse(["/Secrets/"]).unwrap(), &Patterns::new()).unwrap();
    assert!(Layer::new(&rules, Source::Policy, Folding::Case, "SECRETS/x").is_err());
    assert!(Layer::new(&rules, Source::Policy, Folding::Exact, "SECRETS/x").is_ok());
}

#[test]
fn entries_are_judged_in_their_directory() {
    let p = parts(HIDE, &["docs"], Folding::Exact, "");
    assert!(p.hides_entry("", ".env"));
    assert!(p.hides_entry("a/b", ".env"));
    assert!(p.hides_entry("", "secrets"));
    assert!(!p.hides_entry("a", "secrets"));
    // The directory is taken as judged already: only the name counts.
    assert!(!p.hides_entry("secrets", "keep.pem"));
    assert!(p.hides_entry("a/b/c", "x.pem"));
    assert!(!p.hides_entry("a", "keep.pem"));
    assert!(!p.hides_entry("", "docs"));
}

#[test]
fn layers_combine_and_compare_by_text() {
    let a = parts(&[".env"], &[], Folding::Exact, "");
    let b = parts(&[".env"], &[], Folding::Exact, "");
    assert!(a.same_as(&b));
    assert!(!a.same_as(&parts(&[".env"], &[], Folding::Exact, "x")));
    assert!(!a.same_as(&parts(&["*.pem"], &[], Folding::Exact, "")));
    let mut both = a.clone();
    both.layers
        .extend(parts(&[], &["*.md"], Folding::Exact, "").layers);
    assert_eq!(both.judge("x/.env"), Verdict::Hidden(".env"));
    assert_eq!(both.judge("x/a.md"), Verdict::ReadOnly("*.md"));
    assert_eq!(both.judge("x/a.rs"), Verdict::Shared);
}

#[test]
fn one_pass_is_cheap() {
    // Twenty patterns, a ten-deep path: one pass of cheap compares.
    let hide: Vec<String> = (0..10).map(|i| format!("*.secret{i}")).collect();
    let ro: Vec<String> = (0..10).map(|i| format!("/vendor{i}/")).collect();
    let hide: Vec<&str> = hide.iter().map(String::as_str).collect();
    let ro: Vec<&str> = ro.iter().map(String::as_str).collect();
    let p = parts(&hide, &ro, Folding::Exact, "");
    let rel = "a/b/c/d/e/f/g/h/i/file.txt";
    assert_eq!(p.judge(rel), Verdict::Shared);
    let start = std::time::Instant::now();
    for _ in 0..1000 {
        std::hint::black_box(p.judge(std::hint::black_box(rel)));
    }
    // Generous for a debug build on a loaded machine; the release
    // figure is in docs/PERFORMANCE.md.
    assert!(start.elapsed() < std::time::Duration::from_secs(2));
}

#[test]
fn names_of_a_plain_shape_match_as_their_glob_does() {
    // Each one-component glob, matched by its shape, against the same
    // glob in a `GlobSet`, on names that hit and miss each shape.
    let globs = [
        ".env",
        ".git",
        "*.pem",
        "*.min.js",
        "*",
        ".env.*",
        "id_rsa*",
        "LICENSE*",
        "a*b",
        "?.txt",
        "[ab].pem",
        "{x,y}.lock",
        "\\*lit",
        "*.",
        ".*",
    ];
    let names = [
        ".env",
        ".env.local",
        ".envx",
        "x.env",
        ".git",
        "key.pem",
        ".pem",
        "pem",
        "a.min.js",
        "min.js",
        "id_rsa",
        "id_rsa.pub",
        "xid_rsa",
        "LICENSE",
        "LICENSE-MIT",
        "ab",
        "axb",
        "a.txt",
        "ab.txt",
        "a.pem",
        "c.pem",
        "x.lock",
        "*lit",
        "lit",
        "x.",
        ".hidden",
        "",
    ];
    for glob in globs {
        let mut names_of = Names::default();
        let mut builder = GlobSetBuilder::new();
        let compiled = glob_builder(glob).build().unwrap();
        names_of.add(glob, 7, &mut builder, compiled.clone());
        names_of.finish(builder);
        let reference = compiled.compile_matcher();
        for name in names {
            let mut hits = Vec::new();
            names_of.each_match(name, |i| hits.push(i));
            let want = reference.is_match(name);
            assert_eq!(!hits.is_empty(), want, "{glob:?} on {name:?}");
            assert!(hits.iter().all(|&i| i == 7));
        }
    }
}

#[test]
fn many_plain_names_are_looked_up_in_a_map() {
    let hide: Vec<String> = (0..40).map(|i| format!("name{i}")).collect();
    let mut hide: Vec<&str> = hide.iter().map(String::as_str).collect();
    hide.push("!name7");
    let p = parts(&hide, &["name3"], Folding::Exact, "");
    assert_eq!(p.judge("a/name39/b"), Verdict::Hidden("name39"));
    assert_eq!(p.judge("name7/x"), Verdict::Shared);
    assert_eq!(p.judge("name3"), Verdict::Hidden("name3"));
    assert_eq!(p.judge("name40"), Verdict::Shared);
}

mod against_globset {
    //! The compiled form (shapes, byte sets, the path built only as deep
    //! as a pattern reaches) against the plainest reading: every pattern's
    //! glob matched by `globset` on the whole path of every prefix.

    use proptest::prelude::*;

    use super::*;

    /// Patterns of every shape the compiled form treats apart.
    const POOL: &[&str] = &[
        ".env",
        ".env.*",
        "**/.git/",
        "*.pem",
        "!keep.pem",
        "id_rsa*",
        "*.min.js",
        "LICENSE*",
        "/secrets/",
        "/a/b/",
        "/a/b/c",
        "/a/*/c/",
        "/d/**/e",
        "a/b",
        "?.txt",
        "[ab].key",
        "{x,y}.lock",
        "*x*",
        "!a",
        "!/a/b/",
        "b",
        "*",
    ];

    /// Names that hit and miss those patterns, and the lexical pieces.
    const NAMES: &[&str] = &[
        "a", "b", "c", "d", "e", ".env", ".env.x", "k.pem", "keep.pem", "id_rsa", "q.min.js",
        "LICENSE", "secrets", ".git", "t.txt", "a.key", "x.lock", "xyz", "..", ".", "",
    ];

    /// Patterns of a path more than one component deep.
    const PATH_POOL: &[&str] = &[
        "/a/b/", "/a/b/c", "/a/*/c/", "/d/**/e", "a/b", "!/a/b/", "/a/",
    ];

    /// The names those are made of, and steps down and back, for paths
    /// that go back and down again below them.
    const PATH_NAMES: &[&str] = &["a", "b", "c", "e", "x/..", ".."];

    /// What the reference says: for each prefix of the path (the root's
    /// `prefix`, then `rel`: `..` going back, never above the root), the
    /// last matching
    /// pattern of each kind, unless it is a negation; hidden from the
    /// first prefix a hide pattern decides, read-only from the first a
    /// read-only one does.
    fn reference(
        hide: &[&str],
        read_only: &[&str],
        prefix: &[&str],
        rel: &str,
    ) -> Verdict<'static> {
        let compile = |patterns: &[&str]| -> Vec<(bool, String, globset::GlobMatcher)> {
            Patterns::parse(patterns.iter().copied())
                .unwrap()
                .rules()
                .map(|rule| {
                    let matcher = glob_builder(&rule.glob).build().unwrap().compile_matcher();
                    (rule.negated, rule.text.to_owned(), matcher)
                })
                .collect()
        };
        let decide = |rules: &[(bool, String, globset::GlobMatcher)], path: &str| {
            let last = rules.iter().rev().find(|(_, _, m)| m.is_match(path))?;
            (!last.0).then(|| last.1.clone())
        };
        let (hide, read_only) = (compile(hide), compile(read_only));
        let mut stack: Vec<&str> = Vec::new();
        let mut found_ro = None;
        // The prefix's own components first: a root inside a part.
        for component in prefix.iter().copied().chain(rel.split('/')) {
            match component {
                "" | "." => continue,
                ".." => {
                    if stack.len() > prefix.len() {
                        stack.pop();
                    }
                    continue;
                }
                name => stack.push(name),
            }
            let path = stack.join("/");
            if let Some(text) = decide(&hide, &path) {
                return Verdict::Hidden(Box::leak(text.into_boxed_str()));
            }
            found_ro = found_ro.or_else(|| decide(&read_only, &path));
        }
        found_ro.map_or(Verdict::Shared, |t| {
            Verdict::ReadOnly(Box::leak(t.into_boxed_str()))
        })
    }

    fn pick(pool: &'static [&'static str], max: usize) -> impl Strategy<Value = Vec<&'static str>> {
        prop::collection::vec(prop::sample::select(pool), 0..max)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn the_compiled_form_judges_as_globset_does(
            hide in pick(POOL, 6),
            read_only in pick(POOL, 4),
            prefix in pick(&["a", "b", "d", "p"], 3),
            rel in pick(NAMES, 7),
        ) {
            judged_alike(&hide, &read_only, &prefix, &rel.join("/"))?;
        }

        #[test]
        fn deep_path_patterns_judge_as_globset_does(
            hide in pick(PATH_POOL, 3),
            read_only in pick(PATH_POOL, 2),
            prefix in pick(&["a", "d"], 2),
            rel in pick(PATH_NAMES, 7),
        ) {
            judged_alike(&hide, &read_only, &prefix, &rel.join("/"))?;
        }
    }

    /// The compiled judgement of `rel` below `prefix` is the reference's,
    /// and so is that of its last name as a listing's entry.
    fn judged_alike(
        hide: &[&str],
        read_only: &[&str],
        prefix: &[&str],
        rel: &str,
    ) -> Result<(), TestCaseError> {
        let rules = Rules::new(
            &Patterns::parse(hide.iter().copied()).unwrap(),
            &Patterns::parse(read_only.iter().copied()).unwrap(),
        );
        let Some(rules) = rules else { return Ok(()) };
        let Ok(layer) = Layer::new(&rules, Source::Policy, Folding::Exact, &prefix.join("/"))
        else {
            // The root itself is hidden: the reference agrees.
            let root = reference(hide, read_only, &[], &prefix.join("/"));
            prop_assert!(matches!(root, Verdict::Hidden(_)), "{prefix:?}: {root:?}");
            return Ok(());
        };
        let parts = Parts {
            layers: vec![layer],
            folding: Folding::Exact,
            nested: Vec::new(),
            only: None,
        };
        let want = reference(hide, read_only, prefix, rel);
        prop_assert_eq!(
            parts.judge(rel),
            want,
            "{:?} {:?} below {:?}: {}",
            hide,
            read_only,
            prefix,
            rel
        );
        // A listing's entry: its directory taken as shared, only the
        // entry's own path tested.
        if let Some((dir, name)) = rel.rsplit_once('/')
            && !dir.split('/').any(|c| c == "..")
            && !matches!(name, "" | "." | "..")
        {
            let want = hidden_entry(hide, prefix, dir, name);
            prop_assert_eq!(parts.hides_entry(dir, name), want, "entry {}/{}", dir, name);
        }
        Ok(())
    }

    /// Whether a hide pattern decides the path of `name` in `dir` (below
    /// `prefix`), testing that one path only.
    fn hidden_entry(hide: &[&str], prefix: &[&str], dir: &str, name: &str) -> bool {
        let mut stack: Vec<&str> = prefix.to_vec();
        stack.extend(dir.split('/').filter(|c| !matches!(*c, "" | ".")));
        stack.push(name);
        let path = stack.join("/");
        let rules = Patterns::parse(hide.iter().copied()).unwrap();
        let last = rules
            .rules()
            .filter(|rule| {
                glob_builder(&rule.glob)
                    .build()
                    .unwrap()
                    .compile_matcher()
                    .is_match(&path)
            })
            .last();
        last.is_some_and(|rule| !rule.negated)
    }
}

#[test]
fn a_nested_directory_judges_beneath_its_place_whatever_the_spelling() {
    let inner = parts(&["/secrets/"], &[], Folding::Exact, "");
    let nested = Nested::new(
        std::path::Path::new("/t/d/inner"),
        "inner",
        Folding::Exact,
        false,
        inner.layers.clone(),
        Folding::Exact,
    )
    .unwrap();
    let read_only = Nested::new(
        std::path::Path::new("/t/d/ro2"),
        "ro2",
        Folding::Exact,
        true,
        Vec::new(),
        Folding::Exact,
    )
    .unwrap();
    let outer = Parts {
        layers: Vec::new(),
        folding: Folding::Exact,
        nested: vec![nested, read_only],
        only: None,
    };
    for hidden in [
        "inner/secrets",
        "inner/secrets/k.txt",
        "inner/./secrets/k",
        "sub/../inner/secrets/k",
        "inner/x/../secrets/k",
        "inner/secrets/../o.txt",
    ] {
        assert_eq!(
            outer.judge(hidden),
            Verdict::Hidden("/secrets/"),
            "{hidden}"
        );
    }
    for ro in ["ro2", "ro2/f.txt", "sub/../ro2/f", "ro2/../a.txt"] {
        assert_eq!(outer.judge(ro), Verdict::ReadOnlyDir, "{ro}");
    }
    for shared in [
        "secrets/k",
        "sub/secrets/k",
        "inner/o.txt",
        "inner/../secrets",
        "innerx/secrets",
        "ro2x/f",
    ] {
        assert_eq!(outer.judge(shared), Verdict::Shared, "{shared}");
    }
    // A move of a directory that holds an inner one is refused: it would
    // carry the hidden part (hidden wins), or the read-only directory.
    assert_eq!(outer.beneath("box"), Verdict::Shared);
    assert_eq!(outer.beneath(""), Verdict::Hidden("/secrets/"));
    assert_eq!(outer.beneath("inner"), Verdict::Hidden("/secrets/"));
    let ro_only = Parts {
        nested: outer.nested[1..].to_vec(),
        ..outer.clone()
    };
    assert_eq!(ro_only.beneath(""), Verdict::ReadOnlyDir);
    assert_eq!(ro_only.beneath("inner"), Verdict::Shared);
    assert!(outer.hides_entry("inner", "secrets"));
    assert!(!outer.hides_entry("", "secrets"));
    assert!(!outer.hides_entry("inner/sub", "secrets"));
}
