//! The crate's shape, checked: every module imports only from its own
//! layer or the layers below it, by module path (not through the crate
//! root's re-exports), and only `sys/` names a platform in a `cfg`.
//!
//! The layers, bottom first, are the table [`LAYOUT`]; ARCHITECTURE.md
//! describes the same table. The checker is shared with the glue's own
//! `tests/layers.rs`.

mod layering;

use layering::{Layout, Source, check_crate, check_rows};

const LAYOUT: Layout = Layout {
    layers: &[
        "options", "sys", "error", "parse", "root", "ops", "set", "live", "watch",
    ],
    outside: &["lib", "semantics"],
    platforms: &["sys"],
};

#[test]
fn modules_import_only_downward() {
    check_crate(&LAYOUT, env!("CARGO_MANIFEST_DIR"), 10);
}

#[test]
fn the_checker_sees_a_wrong_way_import() {
    let wrong = [
        Source::new("ops/x.rs", "use crate::set::RootSet;\n"),
        Source::new("root/x.rs", "use crate::{error::Error, live::Roots};\n"),
        Source::new("sys/x.rs", "fn f() -> crate::error::Error { todo!() }\n"),
        Source::new("set/x.rs", "use crate::RootSet;\n"),
        Source::new("ops/x.rs", "#[cfg(target_os = \"linux\")]\nfn f() {}\n"),
        Source::new("live/x.rs", "#[cfg(unix)]\nfn f() {}\n"),
        Source::new("stray.rs", "fn f() {}\n"),
        // A group over several lines, as rustfmt writes a long one.
        Source::new(
            "root/x.rs",
            "use crate::{\n    error::Error,\n    set::RootSet,\n};\n",
        ),
        // A nested group: only the heads are modules.
        Source::new(
            "parse/x.rs",
            "use crate::{error::{Error, ErrorKind}, ops::open};\n",
        ),
        // `super::` climbing to the crate root and over to a higher layer.
        Source::new("ops/open.rs", "use super::super::live::Roots;\n"),
    ];
    let right = [
        Source::new(
            "set/x.rs",
            "use crate::ops::open;\nuse crate::{error::Error, root::Root};\n",
        ),
        Source::new(
            "live/x.rs",
            "// crate::watch in a comment\nuse crate::set::RootSet;\n",
        ),
        Source::new("sys/x.rs", "#[cfg(target_os = \"linux\")]\nmod linux;\n"),
        Source::new("ops/x.rs", "#[cfg(feature = \"watch\")]\nfn f() {}\n"),
        Source::new(
            "set/x.rs",
            "use crate::{\n    error::{Error, ErrorKind},\n    ops::open,\n};\n",
        ),
        // `super::` inside its own top-level module.
        Source::new(
            "ops/open.rs",
            "use super::shared::open_judged;\nuse super::*;\n",
        ),
    ];
    check_rows(&LAYOUT, &wrong, &right);
}
