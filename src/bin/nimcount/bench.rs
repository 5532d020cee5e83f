//! `nimcount bench`: times the forward transform of 2^N random elements and, in the same run,
//! the textbook loop.

use std::io::Write;
use std::time::{Duration, Instant};

use nimcount::fwht::{Backend, Plan};
use nimcount::memory;
use nimcount::progress::Progress;
use nimcount::ring::{AnyRing, Ring};

use crate::common::{self, Result, TerminalProgress, usage};
use crate::rings::{self, CliRing, with_ring};

/// Arguments of `nimcount bench`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Figures: the median over the timed runs; ns per element per level = median / (2^N · N); \
GB/s = bytes of the buffer transformed per second (2^N · element size / median). Between timed runs the data is \
restored with the inverse transform (not timed), so every run sees the same kind of values."
)]
pub struct Args {
    /// The ring: u32 and u64 (with --modulus, odd), wrap32, wrap64, i64, i128, f32, f64.
    #[arg(long)]
    ring: String,
    /// The odd modulus of the u32 (below 2^31) or u64 (below 2^63) ring, e.g. 998244353 or 10^9+7.
    #[arg(long)]
    modulus: Option<String>,
    /// Transform 2^N elements.
    #[arg(long, value_name = "N")]
    log2: u32,
    /// Worker threads (default: one per CPU).
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// The kernel backend: scalar, avx2 or avx512 (default: the widest this CPU runs).
    #[arg(long)]
    backend: Option<Backend>,
    /// Timed runs of each method (default: adaptive, at least 5 and about half a second).
    #[arg(long, value_name = "R")]
    runs: Option<usize>,
    /// Skip the textbook baseline (for sizes where it would take minutes).
    #[arg(long)]
    no_textbook: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Timing summary of one method.
#[derive(Debug, Clone, Copy)]
struct Timing {
    runs: usize,
    median: Duration,
    min: Duration,
    max: Duration,
}

/// Runs `nimcount bench`.
pub fn run(args: Args) -> Result<()> {
    let ring = rings::parse(&args.ring, args.modulus.as_deref())?;
    if args.log2 > 40 {
        return Err(usage(format!("--log2 {} is beyond any memory (at most 40)", args.log2)));
    }
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 || threads > 1024 {
        return Err(usage(format!("--threads {threads} is out of range (1 to 1024)")));
    }
    let backend = common::backend(args.backend)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| usage(format!("cannot start {threads} threads: {e}")))?;
    pool.install(|| with_ring!(ring, |r| measure(r, &ring, &args, threads, backend)))
}

fn measure<R: CliRing>(ring: R, any: &AnyRing, args: &Args, threads: usize, backend: Backend) -> Result<()> {
    let n = 1usize << args.log2;
    let bytes = memory::bytes_for::<R::Elem>(|| format!("a transform of 2^{}", args.log2), n as u128)?;
    let plan = Plan::new(ring.clone(), n)?.with_backend(backend)?.with_parallel(threads > 1);

    let progress = TerminalProgress::new();
    progress.start("filling", 0);
    let mut data =
        memory::LargeBuffer::zeroed(|| format!("a transform of 2^{} {} elements", args.log2, any.name()), n)?;
    fill_random(&ring, &mut data);
    progress.start("nimcount", 0);
    let fast = time_runs(args.runs, &mut data, |d| Ok(plan.forward(d)?), |d| restore(&plan, d))?;
    let textbook = if args.no_textbook {
        None
    } else {
        progress.start("textbook", 0);
        let runs = args.runs.map(|r| r.min(3));
        Some(time_runs(
            runs,
            &mut data,
            |d| {
                ring.textbook(d);
                Ok(())
            },
            |d| restore(&plan, d),
        )?)
    };
    progress.finish();
    report(args, any, threads, backend, bytes, fast, textbook)
}

/// Seeded random values (SplitMix64), so runs are comparable.
fn fill_random<R: CliRing>(ring: &R, data: &mut [R::Elem]) {
    let mut state = 0x6E69_6D63_6F75_6E74u64;
    for x in data.iter_mut() {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        *x = ring.bench_value(z ^ (z >> 31));
    }
}

/// Brings transformed data back to the kind of values the benchmark started from.
fn restore<R: Ring<Elem: Copy>>(plan: &Plan<R>, data: &mut [R::Elem]) -> Result<()> {
    if plan.ring().can_halve() { Ok(plan.inverse(data)?) } else { Ok(()) }
}

/// One warm-up, then timed runs of `method`, each followed by an untimed `restore`: `runs`
/// of them if given, else until at least 5 runs and half a second (at most 200 runs, and
/// at least one run when a single run takes more than 5 seconds).
fn time_runs<T>(
    runs: Option<usize>,
    data: &mut [T],
    mut method: impl FnMut(&mut [T]) -> Result<()>,
    mut restore: impl FnMut(&mut [T]) -> Result<()>,
) -> Result<Timing> {
    method(data)?;
    restore(data)?;
    let mut times = Vec::new();
    let mut total = Duration::ZERO;
    loop {
        let done = match runs {
            Some(r) => times.len() >= r.max(1),
            None => {
                (times.len() >= 5 && total >= Duration::from_millis(500))
                    || times.len() >= 200
                    || (!times.is_empty() && total >= Duration::from_secs(5))
            }
        };
        if done {
            break;
        }
        let start = Instant::now();
        method(data)?;
        let elapsed = start.elapsed();
        restore(data)?;
        total += elapsed;
        times.push(elapsed);
    }
    times.sort();
    Ok(Timing {
        runs: times.len(),
        median: times[times.len() / 2],
        min: times[0],
        max: times[times.len() - 1],
    })
}

fn report(
    args: &Args,
    ring: &AnyRing,
    threads: usize,
    backend: Backend,
    bytes: u64,
    fast: Timing,
    textbook: Option<Timing>,
) -> Result<()> {
    let n = 1u64 << args.log2;
    let levels = u64::from(args.log2.max(1));
    let per_element_level = |t: Timing| t.median.as_nanos() as f64 / (n * levels) as f64;
    let gbps = |t: Timing| bytes as f64 / t.median.as_nanos().max(1) as f64;
    let ratio = textbook.map(|t| t.median.as_secs_f64() / fast.median.as_secs_f64().max(1e-12));
    let mut out = common::stdout();
    if args.json {
        let value = serde_json::json!({
            "ring": ring.name(),
            "modulus": ring.modulus().map(|m| m.to_string()),
            "backend": backend.name(),
            "log2": args.log2,
            "elements": n,
            "threads": threads,
            "runs": fast.runs,
            "median_ns": fast.median.as_nanos() as u64,
            "min_ns": fast.min.as_nanos() as u64,
            "max_ns": fast.max.as_nanos() as u64,
            "ns_per_element_level": per_element_level(fast),
            "gbps": gbps(fast),
            "textbook_runs": textbook.map(|t| t.runs),
            "textbook_median_ns": textbook.map(|t| t.median.as_nanos() as u64),
            "textbook_ns_per_element_level": textbook.map(per_element_level),
            "textbook_gbps": textbook.map(gbps),
            "ratio": ratio,
        });
        writeln!(out, "{value}").map_err(common::stdout_error)?;
    } else {
        let modulus = ring.modulus().map(|m| format!(" mod {m}")).unwrap_or_default();
        let line = |name: &str, t: Timing| {
            format!(
                "{name:<9} median {:>10}  (min {}, max {}, {} runs)  {:.4} ns/element/level  {:.2} GB/s",
                show(t.median),
                show(t.min),
                show(t.max),
                t.runs,
                per_element_level(t),
                gbps(t)
            )
        };
        let mut text = format!(
            "forward transform of 2^{} {}{modulus} elements ({}), backend {backend}, {threads} thread{}\n",
            args.log2,
            ring.name(),
            nimcount::error::Bytes(bytes),
            if threads == 1 { "" } else { "s" }
        );
        text += &line("nimcount", fast);
        text.push('\n');
        if let (Some(t), Some(r)) = (textbook, ratio) {
            text += &line("textbook", t);
            text += &format!("\nspeed-up  {r:.1}x over the textbook loop\n");
        }
        out.write_all(text.as_bytes()).map_err(common::stdout_error)?;
    }
    out.flush().map_err(common::stdout_error)
}

/// A duration with a readable unit.
fn show(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    match ns {
        _ if ns < 1e3 => format!("{ns:.0} ns"),
        _ if ns < 1e6 => format!("{:.2} µs", ns / 1e3),
        _ if ns < 1e9 => format!("{:.3} ms", ns / 1e6),
        _ => format!("{:.3} s", ns / 1e9),
    }
}
