//! What a checked tool call costs: `minimal-server` (the library, as the
//! README shows it) against `bare-server` (the same tool with `std::fs` and
//! no checks), both release binaries spoken to over stdio by rmcp's client,
//! in one run.
//!
//! ```text
//! cargo build --release -p minimal-server -p bench-toolcall
//! target/release/bench-toolcall [--calls N] [--rounds R]
//! target/release/bench-toolcall --callgrind [--calls N]
//! target/release/bench-toolcall [--callgrind] --pad BYTES
//! ```
//!
//! `--pad BYTES` adds a string argument of that many bytes to every call
//! (`pad`, which both tools ignore): what a server does with arguments it
//! takes (copies, deserialisation) grows with them, rmcp's parse of the
//! request on both sides too.
//!
//! Per revision (2025-11-25, 2026-07-28) it starts both servers, warms them
//! up, then runs `R` rounds; each round runs one batch of `N` `read_file`
//! calls of a 2 KiB file against each server, the order alternating round
//! by round. Around each batch it reads the server process's CPU time (the
//! sum of `/proc/PID/task/*/schedstat`, in nanoseconds); around each call,
//! the latency the client sees. The table gives, per variant, server CPU
//! per call and p50/p99 latency, and the median over rounds of the
//! per-round CPU ratio against the bare server. On 2026-07-28 the checked
//! call takes two rounds by the protocol's design (the roots are asked
//! for, then the retry does the work): each round is timed on its own.
//!
//! `--callgrind` counts instructions instead of time, which a shared
//! machine does not disturb: each server runs under
//! `valgrind --tool=callgrind`; after the warm-up its counters are zeroed
//! (`callgrind_control -z`), `N` calls are made, and the counters are
//! dumped (`callgrind_control -d`). The figure is the server's instructions
//! per call, all threads.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use bench_toolcall::flag;
use mcp_script::{Client, ScriptedClient};
use rmcp::ClientLifecycleMode;
use rmcp::model::{CallToolRequestParams, CallToolResponse, InputResponses, ProtocolVersion};
use rmcp::service::ClientServiceExt;
use serde_json::{Value, json};
use tokio::process::Child;

/// One server under test.
struct Server {
    name: &'static str,
    child: Child,
    client: Client,
}

impl Server {
    async fn start(
        name: &'static str,
        program: &Path,
        version: &ProtocolVersion,
        root: &str,
        callgrind: Option<&Path>,
    ) -> Result<Self, Box<dyn std::error::Error>> {
        let mut command = match callgrind {
            None => tokio::process::Command::new(program),
            Some(dir) => {
                let mut c = tokio::process::Command::new("valgrind");
                c.arg("--tool=callgrind")
                    .arg(format!(
                        "--callgrind-out-file={}/{name}.%p.out",
                        dir.display()
                    ))
                    .arg(program);
                c
            }
        };
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
        let io = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
        let script = ScriptedClient::new(true, false).speaking(version.clone());
        script.set_root_uris(&[root]);
        let lifecycle = if version.has_initialize() {
            ClientLifecycleMode::Initialize
        } else {
            mcp_script::modern_lifecycle()
        };
        let client = script.clone().serve_with_lifecycle(io, lifecycle).await?;
        if version.has_initialize() && name != "bare" {
            // The session's roots are in before the first call is timed.
            script.roots_answered(1, Duration::from_secs(10)).await;
        }
        Ok(Self {
            name,
            child,
            client,
        })
    }

    /// The server process's CPU time so far, in nanoseconds.
    fn cpu_ns(&self) -> u64 {
        let pid = self.child.id().expect("running");
        let mut total = 0;
        if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
            for task in tasks.flatten() {
                let stat =
                    std::fs::read_to_string(task.path().join("schedstat")).unwrap_or_default();
                total += stat
                    .split_whitespace()
                    .next()
                    .and_then(|n| n.parse::<u64>().ok())
                    .unwrap_or(0);
            }
        }
        total
    }
}

/// What one call took, from the client: the whole call, and on 2026-07-28
/// the round that asks for the roots and the round that does the work.
#[derive(Clone, Copy, Default)]
struct Timing {
    whole: Duration,
    first: Option<Duration>,
}

/// The `--pad` argument of every call (empty: none).
static PAD: std::sync::OnceLock<String> = std::sync::OnceLock::new();

fn params(path: &str) -> CallToolRequestParams {
    let Value::Object(mut args) = json!({ "path": path }) else {
        unreachable!()
    };
    if let Some(pad) = PAD.get().filter(|pad| !pad.is_empty()) {
        args.insert("pad".to_owned(), Value::String(pad.clone()));
    }
    CallToolRequestParams::new("read_file").with_arguments(args)
}

/// One `read_file` call; on a checked 2026-07-28 call, its two rounds
/// driven by hand so that each is timed.
async fn call(server: &Server, path: &str, roots: &Value, rounds: bool) -> Timing {
    let start = Instant::now();
    if !rounds {
        let done = server
            .client
            .call_tool_once(params(path))
            .await
            .expect("call");
        assert!(
            matches!(done, CallToolResponse::Complete(ref r) if r.is_error != Some(true)),
            "{}: {done:?}",
            server.name
        );
        return Timing {
            whole: start.elapsed(),
            first: None,
        };
    }
    let asked = server
        .client
        .call_tool_once(params(path))
        .await
        .expect("round 1");
    let first = start.elapsed();
    let CallToolResponse::InputRequired(asked) = asked else {
        panic!(
            "{}: the first round should ask for the roots: {asked:?}",
            server.name
        );
    };
    let mut inputs = InputResponses::new();
    for key in asked.input_requests.unwrap_or_default().keys() {
        inputs.insert(key.clone(), roots.clone());
    }
    let mut retry = params(path).with_input_responses(inputs);
    if let Some(state) = asked.request_state {
        retry = retry.with_request_state(state);
    }
    let done = server.client.call_tool_once(retry).await.expect("round 2");
    assert!(
        matches!(done, CallToolResponse::Complete(ref r) if r.is_error != Some(true)),
        "{}: {done:?}",
        server.name
    );
    Timing {
        whole: start.elapsed(),
        first: Some(first),
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let at = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[at]
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn quartiles(mut values: Vec<f64>) -> (f64, f64) {
    values.sort_by(f64::total_cmp);
    (values[values.len() / 4], values[values.len() * 3 / 4])
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

struct Measured {
    cpu_per_call_us: Vec<f64>,
    whole: Vec<Duration>,
    first: Vec<Duration>,
    work: Vec<Duration>,
}

async fn compare(
    version: ProtocolVersion,
    bins: &Path,
    file: &str,
    root: &str,
    calls: usize,
    rounds: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let modern = !version.has_initialize();
    let checked = Server::start(
        "minimal-server",
        &bins.join("minimal-server"),
        &version,
        root,
        None,
    )
    .await?;
    let bare = Server::start("bare", &bins.join("bare-server"), &version, root, None).await?;
    let roots = json!({ "roots": [{ "uri": root }] });
    let servers = [&checked, &bare];
    let mut measured: Vec<Measured> = (0..2)
        .map(|_| Measured {
            cpu_per_call_us: Vec::new(),
            whole: Vec::new(),
            first: Vec::new(),
            work: Vec::new(),
        })
        .collect();
    for (i, server) in servers.iter().enumerate() {
        for _ in 0..calls.min(500) {
            call(server, file, &roots, modern && i == 0).await;
        }
    }
    let mut ratios = Vec::new();
    for round in 0..rounds {
        let order: [usize; 2] = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        let mut cpu = [0.0f64; 2];
        for &i in &order {
            let server = servers[i];
            let before = server.cpu_ns();
            for _ in 0..calls {
                let t = call(server, file, &roots, modern && i == 0).await;
                measured[i].whole.push(t.whole);
                if let Some(first) = t.first {
                    measured[i].first.push(first);
                    measured[i].work.push(t.whole - first);
                }
            }
            let spent = server.cpu_ns().saturating_sub(before) as f64 / 1e3 / calls as f64;
            measured[i].cpu_per_call_us.push(spent);
            cpu[i] = spent;
        }
        ratios.push(cpu[0] / cpu[1]);
    }
    let (q1, q3) = quartiles(ratios.clone());
    let cpu_ratio = median(ratios);
    let mut rows = Vec::new();
    for (i, m) in measured.iter_mut().enumerate() {
        m.whole.sort();
        m.first.sort();
        m.work.sort();
        rows.push((
            servers[i].name,
            median(m.cpu_per_call_us.clone()),
            percentile(&m.whole, 0.5),
            percentile(&m.whole, 0.99),
        ));
    }
    let p50_ratio = us(rows[0].2) / us(rows[1].2);
    println!("\n### {version} ({rounds} rounds of {calls} calls per server)\n");
    println!("| server | CPU per call | p50 | p99 |");
    println!("|---|---|---|---|");
    for (name, cpu, p50, p99) in &rows {
        println!(
            "| {name} | {cpu:.1} µs | {:.1} µs | {:.1} µs |",
            us(*p50),
            us(*p99)
        );
    }
    println!();
    println!(
        "checked / bare: CPU {cpu_ratio:.2}× (quartiles {q1:.2}–{q3:.2}), p50 {p50_ratio:.2}×"
    );
    if modern {
        let first = percentile(&measured[0].first, 0.5);
        let work_p50 = percentile(&measured[0].work, 0.5);
        println!(
            "2026-07-28 rounds, p50 against one bare call: first round (roots asked) {:.2}×, work round {:.2}×, whole call {:.2}×",
            us(first) / us(rows[1].2),
            us(work_p50) / us(rows[1].2),
            us(rows[0].2) / us(rows[1].2),
        );
    }
    drop(checked);
    drop(bare);
    Ok(())
}

/// The instructions of every callgrind dump of `name` in `dir` (the dumps
/// after zeroing, in order: `NAME.PID.out.1`, `.2`, …).
fn dumps(dir: &Path, name: &str) -> Result<Vec<u64>, Box<dyn std::error::Error>> {
    let mut parts = Vec::new();
    for entry in std::fs::read_dir(dir)?.flatten() {
        let path = entry.path();
        let file_name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(part) = file_name
            .strip_prefix(name)
            .and_then(|rest| rest.rsplit_once(".out."))
            .and_then(|(_, part)| part.parse::<u32>().ok())
        else {
            continue;
        };
        let text = std::fs::read_to_string(&path)?;
        let ir = text
            .lines()
            .find_map(|line| {
                line.strip_prefix("summary: ")
                    .or_else(|| line.strip_prefix("totals: "))
            })
            .and_then(|total| total.split_whitespace().next())
            .ok_or("a callgrind dump without totals")?
            .parse::<u64>()?;
        parts.push((part, ir));
    }
    parts.sort();
    Ok(parts.into_iter().map(|(_, ir)| ir).collect())
}

/// Zeroes the counters of callgrind process `pid`, runs `work`, dumps them.
async fn counted<F: std::future::Future<Output = ()>>(
    pid: &str,
    work: F,
) -> Result<(), Box<dyn std::error::Error>> {
    let zeroed = std::process::Command::new("callgrind_control")
        .args(["-z", pid])
        .output()?;
    if !zeroed.status.success() {
        return Err("callgrind_control -z failed".into());
    }
    work.await;
    let dumped = std::process::Command::new("callgrind_control")
        .args(["-d", pid])
        .output()?;
    if !dumped.status.success() {
        return Err("callgrind_control -d failed".into());
    }
    Ok(())
}

/// One 2026-07-28 round of a checked call, alone: the first (no inputs,
/// answered by the question for the roots) or the work round (the roots
/// given under `key`, as the retry of the first carries them).
async fn round(server: &Server, path: &str, roots: &Value, key: Option<&str>) {
    let mut params = params(path);
    if let Some(key) = key {
        let mut inputs = InputResponses::new();
        inputs.insert(key.to_owned(), roots.clone());
        params = params.with_input_responses(inputs);
    }
    let done = server.client.call_tool_once(params).await.expect("round");
    match (key, done) {
        (None, CallToolResponse::InputRequired(_)) => {}
        (Some(_), CallToolResponse::Complete(r)) if r.is_error != Some(true) => {}
        (_, other) => panic!("{}: unexpected answer {other:?}", server.name),
    }
}

/// The key under which the first round asks for the roots.
async fn roots_key(server: &Server, path: &str) -> Result<String, Box<dyn std::error::Error>> {
    match server.client.call_tool_once(params(path)).await? {
        CallToolResponse::InputRequired(asked) => Ok(asked
            .input_requests
            .unwrap_or_default()
            .keys()
            .next()
            .ok_or("the first round asked nothing")?
            .clone()),
        other => Err(format!("the first round should ask for the roots: {other:?}").into()),
    }
}

/// Instructions per call of each server, counted by callgrind; on
/// 2026-07-28 also each round of the checked call on its own.
async fn count(
    version: ProtocolVersion,
    bins: &Path,
    file: &str,
    root: &str,
    calls: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let modern = !version.has_initialize();
    let mut out = tempfile::tempdir()?;
    if std::env::var_os("BENCH_KEEP").is_some() {
        out.disable_cleanup(true);
        eprintln!("callgrind dumps kept in {}", out.path().display());
    }
    let roots = json!({ "roots": [{ "uri": root }] });
    let mut per_call = Vec::new();
    let mut rounds = None;
    for (name, bin) in [
        ("minimal-server", "minimal-server"),
        ("bare", "bare-server"),
    ] {
        let server = Server::start(name, &bins.join(bin), &version, root, Some(out.path())).await?;
        let checked = name != "bare";
        for _ in 0..50 {
            call(&server, file, &roots, modern && checked).await;
        }
        let pid = server.child.id().expect("running").to_string();
        counted(&pid, async {
            for _ in 0..calls {
                call(&server, file, &roots, modern && checked).await;
            }
        })
        .await?;
        if modern && checked {
            let key = roots_key(&server, file).await?;
            counted(&pid, async {
                for _ in 0..calls {
                    round(&server, file, &roots, None).await;
                }
            })
            .await?;
            counted(&pid, async {
                for _ in 0..calls {
                    round(&server, file, &roots, Some(&key)).await;
                }
            })
            .await?;
        }
        let parts = dumps(out.path(), name)?;
        let per = |i: usize| parts.get(i).map(|ir| *ir as f64 / calls as f64);
        per_call.push((name, per(0).ok_or("no callgrind dump found")?));
        if modern && checked {
            rounds = per(1).zip(per(2));
        }
    }
    println!("\n### {version}: instructions per call (callgrind, {calls} calls)\n");
    println!("| server | instructions per call |");
    println!("|---|---|");
    for (name, ir) in &per_call {
        println!("| {name} | {ir:.0} |");
    }
    let bare = per_call[1].1;
    println!("\nchecked / bare: {:.3}×", per_call[0].1 / bare);
    if let Some((first, work)) = rounds {
        println!(
            "rounds of the checked call against one bare call: first (roots asked) {first:.0} = {:.3}×, work {work:.0} = {:.3}×",
            first / bare,
            work / bare
        );
    }
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let calls = flag(&args, "--calls", 300);
    let rounds = flag(&args, "--rounds", 21);
    let pad = flag(&args, "--pad", 0);
    PAD.set("p".repeat(pad)).expect("set once");
    let bins: PathBuf = std::env::current_exe()?.parent().unwrap().to_path_buf();
    for needed in ["minimal-server", "bare-server"] {
        if !bins.join(needed).exists() {
            return Err(format!(
                "{} is missing: cargo build --release -p minimal-server -p bench-toolcall",
                bins.join(needed).display()
            )
            .into());
        }
    }
    let dir = tempfile::tempdir()?;
    let root_dir = dir.path().join("root");
    std::fs::create_dir(&root_dir)?;
    let file = root_dir.join("note.md");
    std::fs::write(&file, "x".repeat(2048))?;
    let root = format!("file://{}", root_dir.display());
    let file = file.to_str().ok_or("a UTF-8 temporary path")?.to_owned();
    println!("Tool call `read_file` of a 2 KiB file over stdio, release builds, one run.");
    if pad > 0 {
        println!("Each call also carries a {pad}-byte string argument the tools ignore.");
    }
    for version in [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28] {
        if args.iter().any(|a| a == "--callgrind") {
            count(version, &bins, &file, &root, calls.min(1000)).await?;
        } else {
            compare(version, &bins, &file, &root, calls, rounds).await?;
        }
    }
    Ok(())
}
