//! Fuzz target `plan`: a plan of disk changes, `replace`, tracked `open`,
//! `close` and `rescan` on a live `Roots` session (decoded by
//! `testkit::plan::Plan::from_bytes`, three bytes a step), with the
//! policy's hide and read-only patterns named by an optional first line
//! `parts:` and letters (`testkit::check::plan_case`; the alphabets of the
//! `resolve` target), compared with the session model after every step
//! (`testkit::check::plan_with`): no open is served a hidden file, and a
//! check revokes every handle whose file is hidden where it lies now.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (plan, parts) = testkit::check::plan_case(data);
    if let Err(disagreement) = testkit::check::plan_with(&plan, &parts) {
        panic!("{disagreement}");
    }
});
