//! Fuzz target `plan`: a plan of disk changes, `replace`, tracked `open`,
//! `close` and `rescan` on a live `Roots` session (decoded by
//! `testkit::plan::Plan::from_bytes`, three bytes a step), compared with
//! the session model after every step (`testkit::check::plan`).

#![no_main]

use libfuzzer_sys::fuzz_target;
use testkit::plan::Plan;

fuzz_target!(|data: &[u8]| {
    if let Err(disagreement) = testkit::check::plan(&Plan::from_bytes(data)) {
        panic!("{disagreement}");
    }
});
