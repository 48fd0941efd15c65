//! The README's integration section is this server's code: the whole of
//! `src/main.rs` after its module docs, and its line count.

#[test]
fn the_readme_shows_this_server_as_it_is() {
    let main = include_str!("../src/main.rs");
    let readme = include_str!("../../README.md");
    let code = &main[main
        .find("use mcp_roots::Roots;")
        .expect("the first import")..];
    assert!(
        readme.contains(code),
        "README.md's integration section differs from minimal-server/src/main.rs"
    );
    let count = format!(
        "`minimal-server/src/main.rs` whole ({} lines",
        main.lines().count()
    );
    assert!(readme.contains(&count), "README.md should say {count:?}");
}
