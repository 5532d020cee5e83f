//! `nimcount bench --ring f16|bf16|f32|f64 --len m*2^k`: times the Hadamard transform of one
//! row of `m·2^k` values ([`nimcount::fwht::HadamardPlan`], scaled by `1/√n`) against the same
//! work in separate passes: widening to `f64`, the textbook loop on each block, the dense order-`m`
//! product, the scale, narrowing back.

use std::io::Write;
use std::ops::RangeInclusive;
use std::time::Instant;

use nimcount::fwht::{HadamardFamily, HadamardPlan, Storage, hadamard_matrix_with};
use nimcount::half::{bf16, f16};
use nimcount::memory;
use nimcount::progress::Progress;
use nimcount::ring::{AnyRing, Float32, Float64};

use crate::bench::{Args, Measurement, Setup, Timing, show, summarize};
use crate::common::{self, Result, TerminalProgress, usage};

/// The storage types of `--ring` that this bench takes.
pub(crate) const RINGS: [&str; 4] = ["f16", "bf16", "f32", "f64"];

/// A storage type with `f64` conversions for the baseline.
trait Value: Storage + Default {
    fn from_f64(x: f64) -> Self;
    fn to_f64(self) -> f64;
}

impl Value for f16 {
    fn from_f64(x: f64) -> Self {
        f16::from_f64(x)
    }
    fn to_f64(self) -> f64 {
        f16::to_f64(self)
    }
}
impl Value for bf16 {
    fn from_f64(x: f64) -> Self {
        bf16::from_f64(x)
    }
    fn to_f64(self) -> f64 {
        bf16::to_f64(self)
    }
}
impl Value for f32 {
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}
impl Value for f64 {
    fn from_f64(x: f64) -> Self {
        x
    }
    fn to_f64(self) -> f64 {
        self
    }
}

/// Whether `bench` (one length) or `bench --sweep` goes here: [`Args::hadamard`].
pub(crate) fn wanted(args: &Args) -> bool {
    args.hadamard()
}

/// Runs the bench at one length (`main` sends `--sweep` to the sweep module).
pub(crate) fn run(args: &Args) -> Result<()> {
    if args.plot.is_some() {
        return Err(usage("--plot draws a sweep: it needs --sweep LO..=HI"));
    }
    if args.len_factor.is_some() && args.len.is_none() {
        return Err(usage(
            "--len-factor M gives the lengths M·2^k of a sweep (it needs --sweep LO..=HI) or the factor of one --len",
        ));
    }
    let [name] = args.ring.as_slice() else {
        return Err(usage(format!("--ring is given {} times: --len times one ring", args.ring.len())));
    };
    if !RINGS.contains(&name.as_str()) {
        return Err(usage(format!("--len takes the rings f16, bf16, f32 and f64, not {name}")));
    }
    if args.modulus.is_some() {
        return Err(usage("--modulus goes to the u32 and u64 rings, not to f16, bf16, f32 or f64"));
    }
    let n = match (&args.len, &args.log2) {
        (Some(_), Some(_)) => return Err(usage("give --len or --log2, not both")),
        (Some(text), None) => nimcount::number::parse_u64(text)?,
        (None, Some(text)) => 1u64 << crate::bench::parse_log2("--log2", text)?,
        (None, None) => return Err(usage("--len or --log2 is needed")),
    };
    let n = usize::try_from(n).map_err(|_| usage(format!("--len {n} is beyond any memory")))?;
    let plan = HadamardPlan::with_factor(n, factor(args)?, family(args)?)?;
    let (setup, pool) = crate::bench::setup(args)?;
    let (fast, baseline, bytes) = pool.install(|| match name.as_str() {
        "f16" => measure::<f16>(&plan, setup),
        "bf16" => measure::<bf16>(&plan, setup),
        "f32" => measure::<f32>(&plan, setup),
        _ => measure::<f64>(&plan, setup),
    })?;
    report(args, name, &plan, setup, bytes, fast, baseline)
}

/// `M` of `--len-factor`, one of the orders of the families or 1.
fn factor(args: &Args) -> Result<Option<usize>> {
    let Some(text) = &args.len_factor else { return Ok(None) };
    let m = nimcount::number::parse_u64(text)?;
    let orders = |f: HadamardFamily| f.orders().iter().map(|&o| o as u64).collect::<Vec<_>>();
    let known = m == 1 || HadamardFamily::ALL.into_iter().any(|f| orders(f).contains(&m));
    if !known {
        return Err(usage(format!(
            "--len-factor {m} is not 1, 12, 20, 28, 36, 40, 44, 52, 60, 108, 140, 156 or 172 (the lengths M·2^k of the Hadamard transform)"
        )));
    }
    Ok(Some(m as usize))
}

/// The family of `--family`, if given.
fn family(args: &Args) -> Result<Option<HadamardFamily>> {
    args.family
        .as_deref()
        .map(|name| {
            name.parse().map_err(|_| {
                usage(format!("--family {name}: the families are fast-hadamard-transform and sloane"))
            })
        })
        .transpose()
}

/// The storage types of `--ring` for a sweep, each once.
fn storages(args: &Args) -> Result<Vec<&'static str>> {
    if args.modulus.is_some() {
        return Err(usage("--modulus goes to the u32 and u64 rings, not to f16, bf16, f32 or f64"));
    }
    let mut storages = Vec::new();
    for name in &args.ring {
        let Some(&storage) = RINGS.iter().find(|r| *r == name) else {
            return Err(usage(format!(
                "--ring {name}: the Hadamard transform (f16, bf16, --len-factor) takes the rings f16, bf16, f32 and f64"
            )));
        };
        if storages.contains(&storage) {
            return Err(usage(format!("ring {name} is given twice")));
        }
        storages.push(storage);
    }
    Ok(storages)
}

/// Calls `$body` with the turbofish type of the storage named `$name` (one of [`RINGS`]).
macro_rules! with_storage {
    ($name:expr, $f:ident ( $($arg:expr),* )) => {
        match $name {
            "f16" => $f::<f16>($($arg),*),
            "bf16" => $f::<bf16>($($arg),*),
            "f32" => $f::<f32>($($arg),*),
            _ => $f::<f64>($($arg),*),
        }
    };
}

/// The measurements of `bench --sweep` for the Hadamard transform: every storage type of
/// `--ring` at every length `m·2^k`, `k` in `sizes`; the longest is refused, when it cannot fit,
/// before anything runs.
/// The measurements of every storage at every size, and the failure that stopped the sweep
/// early, if one did (the sizes timed before it are kept).
pub(crate) fn sweep(
    args: &Args,
    sizes: &RangeInclusive<u32>,
) -> Result<(Vec<Measurement>, Setup, u64, Result<()>)> {
    let m = factor(args)?.unwrap_or(1);
    let family = family(args)?;
    let storages = storages(args)?;
    let len = |k: u32| {
        m.checked_shl(k)
            .filter(|l| l >> k == m)
            .ok_or_else(|| usage(format!("the length {m}·2^{k} is beyond any memory")))
    };
    let plan = |k: u32| -> Result<HadamardPlan> { Ok(HadamardPlan::with_factor(len(k)?, Some(m), family)?) };
    let longest = len(*sizes.end())?;
    plan(*sizes.end())?;
    for &storage in &storages {
        with_storage!(storage, needed(longest))?;
    }
    let (setup, pool) = crate::bench::setup(args)?;
    let progress = TerminalProgress::new();
    progress.start("sweep", sizes.clone().count() as u64 * storages.len() as u64);
    let mut measurements = Vec::new();
    let outcome = pool.install(|| -> Result<()> {
        for k in sizes.clone() {
            let plan = plan(k)?;
            for &storage in &storages {
                progress.set_message(format!("{m}·2^{k} {storage}"));
                let (fast, textbook, bytes) = with_storage!(storage, measure(&plan, setup))?;
                let ring =
                    if storage == "f64" { AnyRing::Float64(Float64) } else { AnyRing::Float32(Float32) };
                measurements.push(Measurement {
                    kind: setup.kind,
                    ring,
                    storage: Some(storage),
                    order: m as u64,
                    log2: k,
                    bytes,
                    threads: setup.threads,
                    backend: setup.backend,
                    fast,
                    textbook,
                });
                progress.set_position(measurements.len() as u64);
            }
        }
        Ok(())
    });
    progress.finish();
    Ok((measurements, setup, m as u64, outcome))
}

/// Bytes of `n` values of `S`, refused when they, their original and the baseline's `f64` copy
/// cannot fit in memory.
fn needed<S: Value>(n: usize) -> Result<u64> {
    let bytes = memory::bytes_for::<S>(|| format!("a transform of {n}"), n as u128)?;
    // The data, its original and the baseline's f64 copy.
    let needed = bytes.saturating_mul(2).saturating_add((n as u64).saturating_mul(8));
    memory::ensure_fits(|| format!("a transform of {n} values and its copies"), needed)?;
    Ok(bytes)
}

/// Times the plan (scaled by `1/√n`) and, unless skipped, the baseline in separate passes.
fn measure<S: Value>(plan: &HadamardPlan, setup: Setup) -> Result<(Timing, Option<Timing>, u64)> {
    let n = plan.len();
    let bytes = needed::<S>(n)?;
    let needed = bytes.saturating_mul(2).saturating_add((n as u64).saturating_mul(8));
    let refused = || nimcount::Error::OutOfMemory {
        what: format!("a transform of {n} values"),
        needed: nimcount::error::Bytes(needed),
        available: nimcount::error::Bytes(memory::available().unwrap_or(0)),
    };
    let mut original: Vec<S> = Vec::new();
    original.try_reserve_exact(n).map_err(|_| refused())?;
    original.extend(
        (0..n).map(|i| S::from_f64(crate::bench::random_bits(i as u64) as f64 / u64::MAX as f64 * 2.0 - 1.0)),
    );
    let mut data = original.clone();
    let plan = plan.clone().with_backend(setup.backend)?.with_parallel(setup.threads > 1);
    let scale = 1.0 / (n as f64).sqrt();
    let fast = time(setup.runs, &mut data, &original, |d| Ok(plan.forward(d, scale)?))?;
    let baseline = if setup.textbook {
        let (m, block) = (plan.order(), 1usize << plan.log2());
        let h: Vec<f64> =
            hadamard_matrix_with(m, Some(m), Some(plan.family()))?.into_iter().map(f64::from).collect();
        let mut wide = vec![0.0f64; n];
        let mut column = vec![0.0f64; m];
        Some(time(setup.runs, &mut data, &original, |d| {
            d.iter().zip(wide.iter_mut()).for_each(|(v, w)| *w = v.to_f64());
            for b in wide.chunks_exact_mut(block) {
                nimcount::fwht::reference::textbook(&nimcount::ring::Float64, b);
            }
            for j in 0..block {
                (0..m).for_each(|c| column[c] = wide[c * block + j]);
                for a in 0..m {
                    wide[a * block + j] = (0..m).map(|c| h[a * m + c] * column[c]).sum();
                }
            }
            wide.iter_mut().for_each(|w| *w *= scale);
            d.iter_mut().zip(&wide).for_each(|(v, w)| *v = S::from_f64(*w));
            Ok(())
        })?)
    } else {
        None
    };
    Ok((fast, baseline, bytes))
}

/// One warm-up, then `runs` timed runs (default: at least 5 and half a second, at most 200),
/// the data restored (untimed) after each.
fn time<S: Copy>(
    runs: Option<usize>,
    data: &mut [S],
    original: &[S],
    mut method: impl FnMut(&mut [S]) -> Result<()>,
) -> Result<Timing> {
    method(data)?;
    data.copy_from_slice(original);
    let (mut times, mut total) = (Vec::new(), std::time::Duration::ZERO);
    while match runs {
        Some(r) => times.len() < r,
        None => times.len() < 5 || (total.as_millis() < 500 && times.len() < 200),
    } {
        let start = Instant::now();
        method(data)?;
        let elapsed = start.elapsed();
        data.copy_from_slice(original);
        total += elapsed;
        times.push(elapsed);
    }
    Ok(summarize(times))
}

fn report(
    args: &Args,
    name: &str,
    plan: &HadamardPlan,
    setup: Setup,
    bytes: u64,
    fast: Timing,
    baseline: Option<Timing>,
) -> Result<()> {
    let n = plan.len();
    let ratio = baseline.map(|b| b.median.as_secs_f64() / fast.median.as_secs_f64().max(1e-12));
    let ns = |t: Timing| t.median.as_nanos() as f64 / n as f64;
    let mut out = common::stdout();
    let text = if args.json {
        serde_json::json!({
            "ring": name,
            "len": n,
            "order": plan.order(),
            "family": (plan.order() > 1).then(|| plan.family().name()),
            "log2": plan.log2(),
            "backend": setup.backend.name(),
            "threads": setup.threads,
            "runs": fast.runs,
            "median_ns": fast.median.as_nanos() as u64,
            "ns_per_element": ns(fast),
            "gbps": bytes as f64 / fast.median.as_nanos().max(1) as f64,
            "baseline_median_ns": baseline.map(|t| t.median.as_nanos() as u64),
            "ratio": ratio,
        })
        .to_string()
            + "\n"
    } else {
        let matrix = match plan.order() {
            1 => "Sylvester's matrix".to_string(),
            k => format!("H_{k} of {}", plan.family()),
        };
        let mut text = format!(
            "Hadamard transform of {n} = {}·2^{} {name} values scaled by 1/√{n} ({}; {matrix}), backend {}, {}\n",
            plan.order(),
            plan.log2(),
            nimcount::error::Bytes(bytes),
            setup.backend,
            common::plural(setup.threads, "thread", "threads"),
        );
        text += &format!(
            "nimcount  median {:>10}  (min {}, max {}, {})  {:.3} ns/element\n",
            show(fast.median),
            show(fast.min),
            show(fast.max),
            common::plural(fast.runs, "run", "runs"),
            ns(fast)
        );
        if let (Some(b), Some(r)) = (baseline, ratio) {
            text += &format!(
                "passes    median {:>10}  (widen, textbook blocks, dense order-{}, scale, narrow; {:.3} ns/element)\nspeed-up  {r:.1}x over separate passes\n",
                show(b.median),
                plan.order(),
                ns(b)
            );
        }
        text
    };
    out.write_all(text.as_bytes()).map_err(common::stdout_error)?;
    out.flush().map_err(common::stdout_error)
}
