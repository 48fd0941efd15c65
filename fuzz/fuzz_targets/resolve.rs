//! Fuzz target `resolve`: one operation, its roots, its input and a small
//! list of hide and read-only patterns from a fixed alphabet (the text
//! format of `testkit::check::ResolveCase`; a root line `ro:` serves that
//! directory read-only, nested in the others as an operator's ceiling) in
//! a fixed tree built once per process, checked against the reference model
//! (`testkit::check::resolution`). The tree is rebuilt when an operation
//! changed it.

#![no_main]

use std::sync::Mutex;

use libfuzzer_sys::fuzz_target;
use testkit::Fixture;
use testkit::check::{ResolveCase, fixed_tree};

static TREE: Mutex<Option<Fixture>> = Mutex::new(None);

fuzz_target!(|data: &[u8]| {
    let Some(case) = ResolveCase::from_bytes(data) else {
        return;
    };
    let mut tree = TREE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let fx =
        tree.get_or_insert_with(|| Fixture::with_setup(&fixed_tree()).expect("the fixed tree"));
    match case.check(fx) {
        Ok(outcome) if outcome.dirty => *tree = None,
        Ok(_) => {}
        Err(disagreement) => panic!("{disagreement}"),
    }
});
