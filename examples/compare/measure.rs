//! Clocks, descriptor limits, alternating batches and the line protocol
//! between the parent and its children.

use std::time::Instant;

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
use rustix::time::{ClockId, clock_gettime};

/// CPU time of the whole process (every thread), in nanoseconds.
pub(crate) fn process_cpu_ns() -> u64 {
    ns(clock_gettime(ClockId::ProcessCPUTime))
}

/// CPU time of the calling thread, in nanoseconds.
pub(crate) fn thread_cpu_ns() -> u64 {
    ns(clock_gettime(ClockId::ThreadCPUTime))
}

fn ns(t: rustix::time::Timespec) -> u64 {
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// Raises the soft descriptor limit to the hard one; returns (soft, hard).
pub(crate) fn raise_nofile() -> (Option<u64>, Option<u64>) {
    let limit = getrlimit(Resource::Nofile);
    let raised = Rlimit {
        current: limit.maximum,
        maximum: limit.maximum,
    };
    setrlimit(Resource::Nofile, raised).expect("raise RLIMIT_NOFILE to the hard limit");
    let now = getrlimit(Resource::Nofile);
    (now.current, now.maximum)
}

/// Sets the soft descriptor limit (for the over-the-limit demonstration).
pub(crate) fn set_soft_nofile(soft: u64) {
    let limit = getrlimit(Resource::Nofile);
    setrlimit(
        Resource::Nofile,
        Rlimit {
            current: Some(soft),
            maximum: limit.maximum,
        },
    )
    .expect("set RLIMIT_NOFILE");
}

/// Asks for the highest normal scheduling priority for this process and
/// the threads it starts, so that two threads of a scenario run at once on
/// a machine shared with other work: a session of its own (with autogroup
/// scheduling, `nice` only counts within a session) at nice -20. Returns
/// what happened, for the notes.
pub(crate) fn prefer_cpu() -> String {
    let _ = rustix::process::setsid();
    let group = std::fs::write("/proc/self/autogroup", "-20");
    let thread = rustix::process::setpriority_process(None, -20);
    match (group, thread) {
        (Ok(()), Ok(())) => "own session at autogroup nice -20 and nice -20".to_owned(),
        (Err(e), Ok(())) => format!("nice -20 (autogroup not set: {e})"),
        (_, Err(e)) => format!("priority not raised ({e}): the wall clock may mislead"),
    }
}

/// The cost of one batch, per operation.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Sample {
    /// Process CPU nanoseconds per operation (or thread CPU, where a
    /// scenario says so).
    pub(crate) cpu: f64,
    /// Wall-clock nanoseconds per operation.
    pub(crate) wall: f64,
}

/// Runs `op` `n` times; process CPU and wall time per operation.
pub(crate) fn timed(n: usize, mut op: impl FnMut()) -> Sample {
    let (c0, w0) = (process_cpu_ns(), Instant::now());
    for _ in 0..n {
        op();
    }
    per_op(n, process_cpu_ns() - c0, w0.elapsed().as_nanos() as u64)
}

/// Like [`timed`], with the calling thread's CPU time.
pub(crate) fn timed_thread(n: usize, mut op: impl FnMut()) -> Sample {
    let (c0, w0) = (thread_cpu_ns(), Instant::now());
    for _ in 0..n {
        op();
    }
    per_op(n, thread_cpu_ns() - c0, w0.elapsed().as_nanos() as u64)
}

pub(crate) fn per_op(n: usize, cpu_ns: u64, wall_ns: u64) -> Sample {
    Sample {
        cpu: cpu_ns as f64 / n as f64,
        wall: wall_ns as f64 / n as f64,
    }
}

/// A variant runs a whole batch of `n` operations and measures it.
pub(crate) type Variant<'a> = Box<dyn FnMut(usize) -> Sample + 'a>;

/// Alternating batches: after a calibration that sizes each variant's batch
/// to about `batch_ms`, `rounds` rounds each run every variant once, in an
/// order rotated by one each round. Returns, per variant, one sample per
/// round.
pub(crate) fn alternate(
    rounds: usize,
    batch_ms: f64,
    variants: &mut [Variant<'_>],
) -> Vec<Vec<Sample>> {
    let sizes: Vec<usize> = variants
        .iter_mut()
        .map(|run| batch_size(batch_ms, run))
        .collect();
    alternate_sized(rounds, &sizes, variants)
}

/// How many operations of `run` take about `batch_ms`: probes grow until
/// one takes an eighth of that; each size is probed twice and the faster
/// probe counts (a probe that was descheduled says nothing about the cost).
pub(crate) fn batch_size(batch_ms: f64, run: &mut Variant<'_>) -> usize {
    let mut n = 1;
    loop {
        let spent_ms = (0..2)
            .map(|_| {
                let sample = run(n);
                sample.wall.max(sample.cpu) * n as f64 / 1e6
            })
            .fold(f64::INFINITY, f64::min);
        if spent_ms >= batch_ms / 8.0 || n >= 1 << 20 {
            let per_op_ms = spent_ms / n as f64;
            return ((batch_ms / per_op_ms) as usize).max(1);
        }
        n *= 4;
    }
}

/// [`alternate`] with given batch sizes.
pub(crate) fn alternate_sized(
    rounds: usize,
    sizes: &[usize],
    variants: &mut [Variant<'_>],
) -> Vec<Vec<Sample>> {
    let debug = std::env::var_os("COMPARE_DEBUG").is_some();
    if debug {
        eprintln!("batch sizes: {sizes:?}");
    }
    let count = variants.len();
    let mut samples = vec![Vec::with_capacity(rounds); count];
    for round in 0..rounds {
        for k in 0..count {
            let i = (round + k) % count;
            let sample = variants[i](sizes[i]);
            if debug {
                eprintln!("round {round} variant {i}: {sample:?}");
            }
            samples[i].push(sample);
        }
    }
    samples
}

/// Per-round CPU ratios `a / b`.
pub(crate) fn cpu_ratios(a: &[Sample], b: &[Sample]) -> Vec<f64> {
    a.iter().zip(b).map(|(a, b)| a.cpu / b.cpu).collect()
}

/// Per-round CPU values.
pub(crate) fn cpu(samples: &[Sample]) -> Vec<f64> {
    samples.iter().map(|s| s.cpu).collect()
}

/// Prints per-round values of a figure for the parent: `X key v1 v2 …`.
pub(crate) fn emit(key: &str, values: &[f64]) {
    let values: Vec<String> = values.iter().map(|v| format!("{v:.6}")).collect();
    println!("X {key} {}", values.join(" "));
}

/// Prints a note for the parent: `N key text`.
pub(crate) fn note(key: &str, text: &str) {
    println!("N {key} {}", text.replace('\n', " "));
}

/// Median and quartiles of per-round values.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stat {
    pub(crate) median: f64,
    pub(crate) q1: f64,
    pub(crate) q3: f64,
    pub(crate) n: usize,
}

impl Stat {
    pub(crate) fn of(values: &[f64]) -> Option<Self> {
        let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        Some(Self {
            median: quantile(&v, 0.5),
            q1: quantile(&v, 0.25),
            q3: quantile(&v, 0.75),
            n: v.len(),
        })
    }
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}
