//! Child `grant`: a file reached through a grant against the same file
//! through a client root (tracked `Snapshot::open` both): a file grant (its
//! folder pinned, one name reachable) and a directory grant of the root,
//! each in a `Roots` whose area is the tree's top directory.

use std::hint::black_box;

use mcp_roots::{GrantAccess, RootSet, Roots};

use crate::measure::{Variant, alternate, cpu_ratios, emit, timed};
use crate::tree::{Tree, path_str, uri};
use crate::{BATCH_MS, ROUNDS};

pub(crate) fn grant(tree: &Tree) {
    let root = tree.target_root();
    let file = tree.target();
    let file_uri = uri(&file);
    let client = Roots::default();
    client.replace(RootSet::from_uris([uri(&root)]));
    let granted = |target: &str| {
        let roots = Roots::builder().ask_within([path_str(&tree.top)]).build();
        let about = roots.load().may_ask(target, GrantAccess::Read).unwrap();
        roots.grant(&about).unwrap();
        roots
    };
    let by_file = granted(&file_uri);
    let by_dir = granted(path_str(&root));
    let mut variants: Vec<Variant> = [&client, &by_file, &by_dir]
        .into_iter()
        .map(|roots| -> Variant {
            let file_uri = file_uri.clone();
            Box::new(move |n| {
                timed(n, || {
                    drop(roots.load().open(black_box(file_uri.as_str())).unwrap())
                })
            })
        })
        .collect();
    let s = alternate(ROUNDS, BATCH_MS, &mut variants);
    let [client, by_file, by_dir] = &s[..] else {
        unreachable!()
    };
    emit("grant.file_vs_root", &cpu_ratios(by_file, client));
    emit("grant.dir_vs_root", &cpu_ratios(by_dir, client));
}
