//! Fuzz target `parse`: `mcp_roots::parse_input` on arbitrary text against
//! the model's parser and the `url` crate (`testkit::check::parse`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // `parse_input` takes `&str`: bytes that are not UTF-8 cannot reach it.
    if let Ok(untrusted) = std::str::from_utf8(data)
        && let Err(disagreement) = testkit::check::parse(untrusted)
    {
        panic!("{disagreement}");
    }
});
