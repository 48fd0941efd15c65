//! The glue's shape, checked by the library's layering checker: every
//! module imports only from its own layer or the layers below it, by module
//! path (not through the crate root's re-exports), and no module names a
//! platform in a `cfg`.
//!
//! The layers, bottom first, are the table [`LAYOUT`]; ARCHITECTURE.md
//! describes the same table.

#[path = "../../tests/layering/mod.rs"]
mod layering;

use layering::{Layout, Source, check_crate, check_rows};

const LAYOUT: Layout = Layout {
    layers: &[
        "values", "call", "rounds", "elicit", "session", "serve", "http",
    ],
    outside: &["lib"],
    platforms: &[],
};

#[test]
fn modules_import_only_downward() {
    check_crate(&LAYOUT, env!("CARGO_MANIFEST_DIR"), 20);
}

#[test]
fn the_checker_sees_a_wrong_way_import() {
    let wrong = [
        // The circle this layering broke: a call naming URL mode's module.
        Source::new(
            "call/revision.rs",
            "use crate::elicit::url::URL_MODE_SINCE;\n",
        ),
        Source::new(
            "values/stop.rs",
            "use crate::elicit::elicitor::ElicitError;\n",
        ),
        Source::new(
            "rounds/state.rs",
            "use crate::session::roots::SessionRoots;\n",
        ),
        Source::new(
            "session/roots.rs",
            "use crate::{\n    call::tool_call::ToolCall,\n    serve::ask::Ask,\n};\n",
        ),
        Source::new("serve/tool.rs", "use crate::SessionRoots;\n"),
        Source::new("elicit/url.rs", "use super::super::serve::ask::Ask;\n"),
        Source::new("values/legacy.rs", "#[cfg(unix)]\nfn f() {}\n"),
        Source::new("stray.rs", "fn f() {}\n"),
    ];
    let right = [
        Source::new(
            "serve/ask.rs",
            "use crate::call::{revision::Revision, tool_call::ToolCall};\n\
             use crate::rounds::{Progress, Rounds};\n",
        ),
        Source::new(
            "rounds/state.rs",
            "use super::Rounds;\nuse crate::call::tool_call::ToolCall;\n",
        ),
        Source::new("rounds/store/redis.rs", "use super::super::hex;\n"),
        Source::new("http.rs", "#[cfg(feature = \"http\")]\nfn f() {}\n"),
    ];
    check_rows(&LAYOUT, &wrong, &right);
}
