//! Shows the decision for each input against a set of roots.
//!
//! ```text
//! cargo run --example check_path -- <root-uri>... -- <input>...
//! ```
//!
//! For each input: `allow`, the root and the physical path below it (and the
//! `file://` URI a tool result would carry), or `deny` and the reason.

use std::process::ExitCode;

use mcp_roots::RootSet;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(split) = args.iter().position(|a| a == "--") else {
        eprintln!("usage: check_path <root-uri>... -- <input>...");
        return ExitCode::from(2);
    };
    let (roots, inputs) = (&args[..split], &args[split + 1..]);
    let set = RootSet::from_uris(roots.iter().cloned());
    for root in set.roots() {
        println!(
            "root    {}  ->  {}",
            root.uri(),
            root.resolved_path().display()
        );
    }
    for rejected in set.rejected() {
        println!(
            "reject  {}  reason={}  ({})",
            rejected.uri(),
            rejected.reason(),
            rejected.error()
        );
    }
    for input in inputs {
        match set.resolve(input.as_str()) {
            Ok(scoped) => {
                let root = set.roots().iter().find(|r| r.id() == scoped.root());
                let root = root.map_or("?", |r| r.uri());
                let state = if set.metadata(&scoped).is_ok() {
                    "exists"
                } else {
                    "missing"
                };
                println!(
                    "allow   {input:?}  root={root}  path={scoped} ({state})  uri={}",
                    scoped.to_uri()
                );
            }
            Err(err) => match std::error::Error::source(&err) {
                Some(source) => println!(
                    "deny    {input:?}  reason={}  ({err}: {source})",
                    err.reason()
                ),
                None => println!("deny    {input:?}  reason={}  ({err})", err.reason()),
            },
        }
    }
    ExitCode::SUCCESS
}
