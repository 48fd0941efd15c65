//! The filesystem server's shape, checked by the library's layering
//! checker: every module imports only from its own layer or the layers
//! below it, by module path, so the server's rooms have no import circle;
//! only `sys` (what the tools need of the platform) and `stdio` (the
//! transport, with its Linux writer) name a platform in a `cfg`.
//!
//! The layers, bottom first, are the table [`LAYOUT`]; ARCHITECTURE.md
//! describes the same table.

#[path = "../../tests/layering/mod.rs"]
mod layering;

use layering::{Layout, Source, check_crate, check_rows};

const LAYOUT: Layout = Layout {
    layers: &[
        "sys",
        "threads",
        "original",
        "context",
        "walk",
        "tools",
        "resources",
        "cli",
        "config",
        "server",
        "stdio",
        "confine",
    ],
    outside: &["main"],
    platforms: &["sys", "stdio"],
};

#[test]
fn modules_import_only_downward() {
    check_crate(&LAYOUT, env!("CARGO_MANIFEST_DIR"), 30);
}

#[test]
fn the_checker_sees_a_wrong_way_import() {
    let wrong = [
        // The circle this layering broke: a tool naming the server.
        Source::new("tools/list_directory.rs", "use crate::server::FsServer;\n"),
        Source::new("config.rs", "use crate::server::FsServer;\n"),
        Source::new("context.rs", "use crate::walk::walk;\n"),
        Source::new("original/reply.rs", "use crate::tools::failed;\n"),
        Source::new("walk.rs", "use super::tools::physical;\n"),
        Source::new(
            "tools/edit_file/apply.rs",
            "use super::super::super::config::Config;\n",
        ),
        Source::new("cli.rs", "use crate::server::FsServer;\n"),
        Source::new("tools/mod.rs", "#[cfg(target_os = \"linux\")]\nfn f() {}\n"),
        Source::new("stray.rs", "fn f() {}\n"),
    ];
    let right = [
        Source::new(
            "tools/search_files.rs",
            "use crate::context::{Bounds, Context};\n\
             use crate::original::glob::{Exclusions, Pattern};\n\
             use crate::walk::walk;\n",
        ),
        Source::new("tools/edit_file/apply.rs", "use super::lines;\n"),
        Source::new("server.rs", "use crate::tools::{self, args};\n"),
        Source::new("stdio/mod.rs", "#[cfg(target_os = \"linux\")]\nmod x;\n"),
        Source::new("main.rs", "mod cli;\nuse crate::server::FsServer;\n"),
    ];
    check_rows(&LAYOUT, &wrong, &right);
}
