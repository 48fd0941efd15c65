//! Side-by-side costs of mcp-roots and the alternatives, as ratios from one
//! run (docs/PERFORMANCE.md shows and explains a run).
//!
//! ```text
//! cargo run --release --example compare [-- --only open,lookup] [-- --no-node]
//! ```
//!
//! The parent builds one fixed tree (10,000 sibling roots; the target file
//! ten directories deep under the last one), then runs each scenario in its
//! own child process (this program re-executed with `--child NAME TOP`), so
//! that descriptor counts and allocator state cannot leak from one scenario
//! into another. Children raise the soft `RLIMIT_NOFILE` to the hard limit
//! where they need many descriptors, measure process CPU time
//! (`CLOCK_PROCESS_CPUTIME_ID`) over alternating batches of the compared
//! variants, and print one value per round; the parent prints the median
//! and quartiles of those per-round ratios and checks them against the
//! targets.

#[cfg(target_os = "linux")]
mod confine;
#[cfg(target_os = "linux")]
mod grant;
#[cfg(target_os = "linux")]
mod live;
#[cfg(target_os = "linux")]
mod measure;
#[cfg(target_os = "linux")]
mod node;
#[cfg(target_os = "linux")]
mod open;
#[cfg(target_os = "linux")]
mod ops;
#[cfg(target_os = "linux")]
mod parts;
#[cfg(target_os = "linux")]
mod report;
#[cfg(target_os = "linux")]
mod rescan;
#[cfg(target_os = "linux")]
mod tree;

/// Rounds of alternating batches per comparison.
pub(crate) const ROUNDS: usize = 21;
/// Wall time per batch, in milliseconds.
pub(crate) const BATCH_MS: f64 = 12.0;

/// A scenario: its name and the function its child process runs.
#[cfg(target_os = "linux")]
type Scenario = (&'static str, fn(&tree::Tree));

/// The scenarios, each run in its own child process.
#[cfg(target_os = "linux")]
const SCENARIOS: &[Scenario] = &[
    ("open", open::open),
    ("lookup", open::lookup),
    ("ops", ops::ops),
    ("parts", parts::parts),
    ("grant", grant::grant),
    ("threads", live::threads),
    ("storm", live::storm),
    ("watch", live::watch),
    ("rescan", rescan::rescan),
    ("memory", rescan::memory),
    ("confine", confine::confine),
];

#[cfg(target_os = "linux")]
fn main() {
    use std::path::Path;
    use std::process::{Command, Stdio};
    use std::time::Instant;

    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--child") {
        let name = &args[2];
        let tree = tree::Tree::open(Path::new(&args[3]));
        let (_, run) = SCENARIOS
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("unknown scenario {name}"));
        run(&tree);
        return;
    }
    if args.get(1).map(String::as_str) == Some("--profile") {
        let variant = args.get(2).expect("--profile VARIANT [N]");
        let n = args.get(3).map_or(1_000_000, |n| n.parse().expect("N"));
        let tmp = tempfile::tempdir().expect("temporary directory");
        let top = std::fs::canonicalize(tmp.path()).unwrap();
        open::profile(&tree::Tree::create_target(&top), variant, n);
        return;
    }
    let mut only: Option<Vec<String>> = None;
    let mut with_node = true;
    let mut rest = args.iter().skip(1);
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--only" => {
                let list = rest.next().expect("--only takes a comma-separated list");
                only = Some(list.split(',').map(str::to_owned).collect());
            }
            "--no-node" => with_node = false,
            other => panic!("unknown argument {other} (try --only open,lookup or --no-node)"),
        }
    }
    let wanted = |name: &str| only.as_ref().is_none_or(|o| o.iter().any(|n| n == name));

    let started = Instant::now();
    let tmp = tempfile::tempdir().expect("temporary directory");
    let top = std::fs::canonicalize(tmp.path()).unwrap();
    eprintln!("compare: building the tree under {}", top.display());
    tree::Tree::create(&top);
    let exe = std::env::current_exe().unwrap();
    let mut results = report::Results::default();
    for (name, _) in SCENARIOS.iter().filter(|(n, _)| wanted(n)) {
        eprintln!("compare: {name} …");
        let t0 = Instant::now();
        let out = Command::new(&exe)
            .args(["--child", name])
            .arg(&top)
            .stderr(Stdio::inherit())
            .output()
            .expect("run child");
        if !out.status.success() {
            results.note("failed", &format!("child {name} failed: {}", out.status));
        }
        results.parse(&String::from_utf8_lossy(&out.stdout));
        eprintln!("compare: {name} took {:.1} s", t0.elapsed().as_secs_f64());
    }
    if with_node && wanted("node") {
        eprintln!("compare: node …");
        match node::run(&top, ROUNDS, BATCH_MS) {
            Ok((out, version)) => {
                results.parse(&out);
                results.note("node.version", &format!("node {version}"));
            }
            Err(why) => results.note("node.skipped", &why),
        }
    }
    report::print(&results, started.elapsed());
}

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("compare: Linux only (CPU clocks, /proc, openat2)");
}
