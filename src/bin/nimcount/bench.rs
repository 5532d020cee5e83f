//! `nimcount bench`: times the forward transform (or, with `--kind`, the zeta transform or the
//! subset convolution) of 2^N random elements and, in the same run, the textbook loop.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use nimcount::fwht::{Backend, Plan, Sets};
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
restored with the inverse transform (not timed), so every run sees the same kind of values.

--kind and and --kind or time the zeta transforms over supersets and subsets (the transforms of the AND and OR convolutions; restored with the Möbius transform, not timed) against the textbook loop of the same zeta transform; --kind subset times the subset convolution of two random vectors of 2^N elements against the textbook ranked zeta transform (one array per rank), on --backend too.

--sweep LO..=HI times every size from 2^LO to 2^HI for every --ring (repeat it, or list rings with commas; \
--modulus goes to the u32 and u64 rings) and prints a table, a JSON list with --json, and a picture with --plot. \
With f16 or bf16 among the rings, or with --len-factor M, it times the Hadamard transform of machine learning \
(rings f16, bf16, f32, f64) at the lengths M·2^k for k from LO to HI (M = 1, 12, 20, 28, 36, 40, 44, 52, 60, 108, \
140, 156 or 172; 1 by default), e.g. --ring f16,bf16 --sweep 4..=12 --len-factor 28 for 28·2^4 to 28·2^12; \
--family sloane takes the order-M matrices of QuIP# and QuaRot instead of fast-hadamard-transform's."
)]
pub struct Args {
    /// The ring: u32 and u64 (with --modulus, odd), wrap32, wrap64, i64, i128, f32, f64; with
    /// --sweep, several (repeated or comma-separated). f16 and bf16 (and --len): the Hadamard
    /// transform of machine learning, f32 arithmetic, scaled by 1/√L.
    #[arg(long, required = true, value_delimiter = ',')]
    pub(crate) ring: Vec<String>,
    /// What to time: xor (the Walsh–Hadamard transform, the default), and (the superset zeta
    /// transform), or (the subset zeta transform), subset (the subset convolution).
    #[arg(long, value_enum, default_value_t = Kind::Xor)]
    pub(crate) kind: Kind,
    /// The odd modulus of the u32 (below 2^31) or u64 (below 2^63) ring, e.g. 998244353 or 10^9+7.
    #[arg(long, value_name = "M", allow_hyphen_values = true)]
    pub(crate) modulus: Option<String>,
    /// Transform 2^N elements.
    #[arg(long, value_name = "N", required_unless_present_any = ["sweep", "len"], allow_hyphen_values = true)]
    pub(crate) log2: Option<String>,
    /// The rings f16, bf16, f32, f64: the Hadamard transform of one row of L = K·2^k values
    /// (K = 1, 12, 20, 28, 36, 40, 44, 52, 60, 108, 140, 156, 172), scaled by 1/√L, e.g. 28*2^10.
    #[arg(long, value_name = "L", conflicts_with_all = ["log2", "sweep"], allow_hyphen_values = true)]
    pub(crate) len: Option<String>,
    /// Time every size from 2^LO to 2^HI elements, e.g. 10..=24.
    #[arg(long, value_name = "LO..=HI", conflicts_with = "log2", allow_hyphen_values = true)]
    pub(crate) sweep: Option<String>,
    /// With --sweep and the rings f16, bf16, f32, f64: the Hadamard transform of the lengths
    /// M·2^k for k from LO to HI, M = 1, 12, 20, 28, 36, 40, 44, 52, 60, 108, 140, 156 or 172;
    /// with --len: the factor M of the length (H_M ⊗ H_(L/M)) in place of the rule's.
    #[arg(long, value_name = "M", allow_hyphen_values = true)]
    pub(crate) len_factor: Option<String>,
    /// With the rings f16, bf16, f32, f64: whose order-M matrices, fast-hadamard-transform or
    /// sloane (QuIP#, QuaRot); by default fast-hadamard-transform's where it has the order.
    #[arg(long, value_name = "NAME")]
    pub(crate) family: Option<String>,
    /// With --sweep: draw ns per element per level against the size into FILE.svg.
    #[arg(long, value_name = "FILE")]
    pub(crate) plot: Option<PathBuf>,
    /// Worker threads (default: one per CPU).
    #[arg(long, value_name = "T", allow_hyphen_values = true)]
    threads: Option<String>,
    /// The kernel backend: scalar, avx2 or avx512 (default: the widest this CPU runs).
    #[arg(long)]
    backend: Option<Backend>,
    /// Timed runs of each method, the textbook loop included (default: adaptive, at least 5 and
    /// about half a second).
    #[arg(long, value_name = "R", allow_hyphen_values = true)]
    pub(crate) runs: Option<String>,
    /// Skip the textbook baseline (for sizes where it would take minutes).
    #[arg(long)]
    no_textbook: bool,
    /// Print one JSON object instead of text (with --sweep: a list of them).
    #[arg(long)]
    pub(crate) json: bool,
    /// Spread the transform over the processes of `mpirun -n P` (a power of two): prints the total
    /// time, its local-transform and communication parts, and GB/s (needs the mpi feature).
    #[arg(long)]
    pub(crate) distributed: bool,
    /// With --distributed: how the levels above the blocks cross processes. `shared` (the
    /// default): the processes of one node share their blocks in memory and the node's levels
    /// run there in place; only the levels between nodes go through the exchange. `all-to-all`:
    /// every process is a node of its own (the between-node path on one machine). `pairwise`:
    /// the same, by exchanges of whole blocks with a partner per level.
    #[arg(long, value_enum, default_value_t = Exchange::Shared, requires = "distributed")]
    pub(crate) exchange: Exchange,
    /// With --distributed: also time one process alone on the whole vector, with one thread and
    /// with as many threads as all processes together, in the same run (rank 0 computes, the
    /// others sleep; run under `mpirun --bind-to none`, or rank 0's threads share one core).
    #[arg(long, requires = "distributed")]
    pub(crate) compare: bool,
}

impl Args {
    /// Whether these arguments time the Hadamard transform of machine learning: a storage
    /// type only it has (`f16`, `bf16`), `--len`, `--len-factor` or `--family`.
    pub(crate) fn hadamard(&self) -> bool {
        self.len.is_some()
            || self.len_factor.is_some()
            || self.family.is_some()
            || self.ring.iter().any(|r| r == "f16" || r == "bf16")
    }
}

/// What `bench --kind` times (the names of `transform --kind` and `convolve --kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// The Walsh–Hadamard transform.
    Xor,
    /// The superset zeta transform.
    And,
    /// The subset zeta transform.
    Or,
    /// The subset convolution.
    Subset,
}

/// How a distributed transform crosses processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Exchange {
    /// The processes of one node share memory; one transpose between nodes.
    Shared,
    /// Every process a node of its own: one transpose into a transposed layout, one back.
    AllToAll,
    /// Every process a node of its own: one exchange of whole blocks with a partner per level.
    Pairwise,
}

impl Exchange {
    /// How the distributed plan groups processes.
    #[cfg(feature = "mpi")]
    pub(crate) fn sharing(self) -> nimcount::distributed::Sharing {
        match self {
            Exchange::Shared => nimcount::distributed::Sharing::Node,
            Exchange::AllToAll | Exchange::Pairwise => nimcount::distributed::Sharing::Exchange,
        }
    }
}

/// Timing summary of one method.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Timing {
    pub(crate) runs: usize,
    pub(crate) median: Duration,
    pub(crate) min: Duration,
    pub(crate) max: Duration,
}

/// How every size is timed: the same for one size and for a sweep.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Setup {
    pub(crate) kind: Kind,
    pub(crate) threads: usize,
    pub(crate) backend: Backend,
    pub(crate) runs: Option<usize>,
    pub(crate) textbook: bool,
}

/// One ring at one size: the transform and, unless skipped, the textbook loop.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Measurement {
    pub(crate) kind: Kind,
    pub(crate) ring: AnyRing,
    /// The storage type of the Hadamard transform of machine learning (`f16`, `bf16`, `f32`,
    /// `f64`; `ring` is then the arithmetic, `textbook` the separate passes); `None` for the
    /// transform of `ring`.
    pub(crate) storage: Option<&'static str>,
    /// `m` of the length `m·2^log2` (1 for the transforms of a ring).
    pub(crate) order: u64,
    pub(crate) log2: u32,
    /// Bytes of the buffer transformed.
    pub(crate) bytes: u64,
    pub(crate) threads: usize,
    pub(crate) backend: Backend,
    pub(crate) fast: Timing,
    pub(crate) textbook: Option<Timing>,
}

/// The largest size `--log2` and `--sweep` accept (beyond any memory).
pub(crate) const MAX_LOG2: u32 = 40;

/// Runs `nimcount bench` at one size (`main` sends `--sweep` and `--distributed` elsewhere).
pub fn run(args: Args) -> Result<()> {
    if args.plot.is_some() {
        return Err(usage("--plot draws a sweep: it needs --sweep LO..=HI"));
    }
    let [name] = args.ring.as_slice() else {
        return Err(usage(format!("--ring is given {} times: several rings need --sweep", args.ring.len())));
    };
    let log2 = parse_log2("--log2", args.log2.as_deref().unwrap_or("0"))?;
    let ring = rings::parse(name, args.modulus.as_deref())?;
    let (setup, pool) = setup(&args)?;
    let progress = TerminalProgress::new();
    let measurement = pool
        .install(|| with_ring!(ring, |r| measure(r, ring, log2, setup, &|stage| progress.start(stage, 0))))?;
    progress.finish();
    report(&args, &measurement)
}

/// A log2 size, `0..=MAX_LOG2`, in the number syntax of every flag.
pub(crate) fn parse_log2(flag: &str, text: &str) -> Result<u32> {
    let log2 = nimcount::number::parse_u64(text)?;
    if log2 > u64::from(MAX_LOG2) {
        return Err(usage(format!("{flag} {log2} is beyond any memory (at most {MAX_LOG2})")));
    }
    Ok(log2 as u32)
}

/// The rings named by `--ring`, with `--modulus` going to the rings that take one.
pub(crate) fn rings(args: &Args) -> Result<Vec<AnyRing>> {
    let modular = |name: &str| matches!(name, "u32" | "u64");
    if args.modulus.is_some() && !args.ring.iter().any(|name| modular(name)) {
        let name = args.ring.first().map_or("", String::as_str);
        return rings::parse(name, args.modulus.as_deref()).map(|r| vec![r]);
    }
    let mut rings = Vec::new();
    for (i, name) in args.ring.iter().enumerate() {
        if args.ring[..i].contains(name) {
            return Err(usage(format!("ring {name} is given twice")));
        }
        let modulus = if modular(name) { args.modulus.as_deref() } else { None };
        rings.push(rings::parse(name, modulus)?);
    }
    Ok(rings)
}

/// Checks `--threads` and `--backend` and starts the thread pool every size runs in.
pub(crate) fn setup(args: &Args) -> Result<(Setup, rayon::ThreadPool)> {
    if args.kind != Kind::Xor {
        let kind = kind_name(args.kind);
        if args.distributed {
            return Err(usage(format!("--distributed times the xor transform, not --kind {kind}")));
        }
        if args.hadamard() {
            return Err(usage(format!(
                "--kind {kind} is not for the Hadamard transform of machine learning (--len, --len-factor, f16, bf16)"
            )));
        }
    }
    let threads = match args.threads.as_deref() {
        Some(text) => nimcount::number::parse_u64(text)?,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()) as u64,
    };
    if threads == 0 || threads > 1024 {
        return Err(usage(format!("--threads {threads} is out of range (1 to 1024)")));
    }
    let threads = threads as usize;
    let runs = match args.runs.as_deref().map(nimcount::number::parse_u64).transpose()? {
        Some(0) => return Err(usage("--runs 0: at least one timed run")),
        Some(r) if r > 1_000_000 => return Err(usage(format!("--runs {r} is out of range (1 to 10^6)"))),
        r => r.map(|r| r as usize),
    };
    let backend = common::backend(args.backend)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| usage(format!("cannot start {threads} threads: {e}")))?;
    Ok((Setup { kind: args.kind, threads, backend, runs, textbook: !args.no_textbook }, pool))
}

/// Times the forward transform of 2^`log2` seeded random elements of `ring` and, unless
/// `setup` skips it, the textbook loop on the same data; `stage` hears each stage's name.
pub(crate) fn measure<R: CliRing>(
    ring: R,
    any: AnyRing,
    log2: u32,
    setup: Setup,
    stage: &dyn Fn(&str),
) -> Result<Measurement> {
    let n = 1usize << log2;
    let bytes = memory::bytes_for::<R::Elem>(|| format!("a transform of 2^{log2}"), n as u128)?;
    check_memory::<R::Elem>(setup.kind, any, log2)?;
    let plan = Plan::new(ring.clone(), n)?.with_backend(setup.backend)?.with_parallel(setup.threads > 1);

    stage("filling");
    let mut data =
        memory::LargeBuffer::zeroed(|| format!("a transform of 2^{log2} {} elements", any.name()), n)?;
    fill_random(&ring, &mut data);
    if let Some(sets) = sets_of(setup.kind) {
        return measure_sets(ring, any, log2, setup, stage, plan, data, sets, bytes);
    }
    if setup.kind == Kind::Subset {
        return measure_subset(ring, any, log2, setup, stage, data, bytes);
    }
    stage("nimcount");
    let fast = time_runs(setup.runs, &mut data, |d| Ok(plan.forward(d)?), |d| restore(&plan, d))?;
    let textbook = if setup.textbook {
        stage("textbook");
        Some(time_runs(
            setup.runs,
            &mut data,
            |d| {
                ring.textbook(d);
                Ok(())
            },
            |d| restore(&plan, d),
        )?)
    } else {
        None
    };
    Ok(Measurement {
        kind: setup.kind,
        ring: any,
        storage: None,
        order: 1,
        log2,
        bytes,
        threads: setup.threads,
        backend: setup.backend,
        fast,
        textbook,
    })
}

/// The sets of the zeta transform of `and` and `or`; `None` for the other kinds.
fn sets_of(kind: Kind) -> Option<Sets> {
    match kind {
        Kind::And => Some(Sets::Superset),
        Kind::Or => Some(Sets::Subset),
        Kind::Xor | Kind::Subset => None,
    }
}

/// The name of `--kind`.
pub(crate) fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Xor => "xor",
        Kind::And => "and",
        Kind::Or => "or",
        Kind::Subset => "subset",
    }
}

/// [`measure`] of the zeta transform over `sets`, restored by the Möbius transform (not timed),
/// against the textbook loop of the same zeta transform.
#[allow(clippy::too_many_arguments)]
fn measure_sets<R: CliRing>(
    ring: R,
    any: AnyRing,
    log2: u32,
    setup: Setup,
    stage: &dyn Fn(&str),
    plan: Plan<R>,
    mut data: memory::LargeBuffer<R::Elem>,
    sets: Sets,
    bytes: u64,
) -> Result<Measurement> {
    let restore = |d: &mut [R::Elem]| Ok(plan.mobius(d, sets)?);
    stage("nimcount");
    let fast = time_runs(setup.runs, &mut data, |d| Ok(plan.zeta(d, sets)?), restore)?;
    let textbook = if setup.textbook {
        stage("textbook");
        Some(time_runs(
            setup.runs,
            &mut data,
            |d| {
                textbook_zeta(&ring, d, sets);
                Ok(())
            },
            restore,
        )?)
    } else {
        None
    };
    Ok(Measurement {
        kind: setup.kind,
        ring: any,
        storage: None,
        order: 1,
        log2,
        bytes,
        threads: setup.threads,
        backend: setup.backend,
        fast,
        textbook,
    })
}

/// The textbook zeta transform: for each bit, every set with the bit set (subsets) or clear
/// (supersets) adds its partner.
fn textbook_zeta<R: Ring<Elem: Copy>>(ring: &R, x: &mut [R::Elem], sets: Sets) {
    let mut h = 1;
    while h < x.len() {
        for s in 0..x.len() {
            if s & h != 0 {
                match sets {
                    Sets::Subset => x[s] = ring.add(x[s], x[s ^ h]),
                    Sets::Superset => x[s ^ h] = ring.add(x[s ^ h], x[s]),
                }
            }
        }
        h *= 2;
    }
}

/// Refuses, before anything is allocated, a benchmark of 2^`log2` elements of type `T` whose
/// buffers cannot fit in memory: the transform's buffer; for the subset convolution also the
/// second operand, the result and the `2 (log2 + 1)` rows of ranked transforms (those of nimcount
/// or of the textbook, which run one after the other).
pub(crate) fn check_memory<T>(kind: Kind, ring: AnyRing, log2: u32) -> Result<()> {
    let len = 1u128 << log2;
    let (elements, what) = match kind {
        Kind::Subset => (
            (3 + 2 * (u128::from(log2) + 1)) * len,
            format!("the subset convolution of 2^{log2} {} elements and its ranked transforms", ring.name()),
        ),
        _ => (len, format!("a transform of 2^{log2} {} elements", ring.name())),
    };
    let bytes = memory::bytes_for::<T>(|| what.clone(), elements)?;
    Ok(memory::ensure_fits(|| what.clone(), bytes)?)
}

/// [`measure`] of the subset convolution of `data` and a second random vector (its result
/// dropped: nothing to restore), against [`textbook_subset`].
fn measure_subset<R: CliRing>(
    ring: R,
    any: AnyRing,
    log2: u32,
    setup: Setup,
    stage: &dyn Fn(&str),
    mut data: memory::LargeBuffer<R::Elem>,
    bytes: u64,
) -> Result<Measurement> {
    let n = data.len();
    let b: Vec<R::Elem> = (0..n).map(|i| ring.bench_value(random_bits((n + i) as u64))).collect();
    stage("nimcount");
    let keep = |d: &mut [R::Elem]| -> Result<()> {
        let _ = d;
        Ok(())
    };
    let fast = time_runs(
        setup.runs,
        &mut data,
        |d| {
            std::hint::black_box(nimcount::convolve::subset_convolve_with_backend(
                ring.clone(),
                d,
                &b,
                setup.backend,
            )?);
            Ok(())
        },
        keep,
    )?;
    let textbook = if setup.textbook {
        stage("textbook");
        Some(time_runs(
            setup.runs,
            &mut data,
            |d| {
                std::hint::black_box(textbook_subset(&ring, d, &b));
                Ok(())
            },
            keep,
        )?)
    } else {
        None
    };
    Ok(Measurement {
        kind: setup.kind,
        ring: any,
        storage: None,
        order: 1,
        log2,
        bytes,
        threads: setup.threads,
        backend: setup.backend,
        fast,
        textbook,
    })
}

/// The textbook subset convolution: `n + 1` arrays by rank, the subset zeta transform of each,
/// the rank products set by set, the Möbius transform of each, read at each set's rank.
fn textbook_subset<R: Ring<Elem: Copy>>(ring: &R, a: &[R::Elem], b: &[R::Elem]) -> Vec<R::Elem> {
    let len = a.len();
    let n = len.trailing_zeros() as usize;
    let ranked = |x: &[R::Elem]| {
        let mut f = vec![vec![ring.zero(); len]; n + 1];
        for (s, &v) in x.iter().enumerate() {
            f[s.count_ones() as usize][s] = v;
        }
        for row in &mut f {
            textbook_zeta(ring, row, Sets::Subset);
        }
        f
    };
    let (fa, fb) = (ranked(a), ranked(b));
    let mut h = vec![vec![ring.zero(); len]; n + 1];
    for r in 0..=n {
        for i in 0..=r {
            for s in 0..len {
                h[r][s] = ring.add(h[r][s], ring.mul(fa[i][s], fb[r - i][s]));
            }
        }
    }
    for row in &mut h {
        let mut bit = 1;
        while bit < len {
            for s in 0..len {
                if s & bit != 0 {
                    row[s] = ring.sub(row[s], row[s ^ bit]);
                }
            }
            bit *= 2;
        }
    }
    (0..len).map(|s| h[s.count_ones() as usize][s]).collect()
}

/// Seeded random values (SplitMix64), so runs are comparable.
fn fill_random<R: CliRing>(ring: &R, data: &mut [R::Elem]) {
    for (i, x) in data.iter_mut().enumerate() {
        *x = ring.bench_value(random_bits(i as u64));
    }
}

/// The random bits of element `index` of [`fill_random`] (SplitMix64 is a counter: any
/// process can start at its own block).
pub(crate) fn random_bits(index: u64) -> u64 {
    let mut z = 0x6E69_6D63_6F75_6E74u64.wrapping_add((index + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
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
            Some(r) => times.len() >= r,
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
    Ok(summarize(times))
}

/// The median, minimum and maximum of at least one run.
pub(crate) fn summarize(mut times: Vec<Duration>) -> Timing {
    times.sort();
    Timing { runs: times.len(), median: times[times.len() / 2], min: times[0], max: times[times.len() - 1] }
}

impl Measurement {
    /// Elements transformed: `m·2^N`.
    pub(crate) fn elements(&self) -> u64 {
        self.order << self.log2
    }

    /// `log2` of the number of elements (`N` for `2^N`, fractional for `m·2^N`).
    pub(crate) fn levels(&self) -> f64 {
        (self.elements() as f64).log2()
    }

    /// The median of `t` divided by `L · log2 L` for `L` elements (by `L` below 2 levels):
    /// `2^N · N` for the powers of two.
    pub(crate) fn ns_per_element_level(&self, t: Timing) -> f64 {
        t.median.as_nanos() as f64 / (self.elements() as f64 * self.levels().max(1.0))
    }

    /// The storage type of the Hadamard transform, else the ring's name.
    pub(crate) fn name(&self) -> &'static str {
        self.storage.unwrap_or(self.ring.name())
    }

    /// `u32 mod 998244353`, `f64`, `bf16`, `f16 28·2^k`: one series of a sweep.
    pub(crate) fn label(&self) -> String {
        match (self.storage, self.ring.modulus()) {
            (Some(s), _) if self.order > 1 => format!("{s} {}·2^k", self.order),
            (Some(s), _) => s.to_string(),
            (None, Some(m)) => format!("{} mod {m}", self.ring.name()),
            (None, None) => self.ring.name().to_string(),
        }
    }

    /// Bytes of the buffer transformed per nanosecond of the median of `t`.
    pub(crate) fn gbps(&self, t: Timing) -> f64 {
        self.bytes as f64 / t.median.as_nanos().max(1) as f64
    }

    /// How many times faster than the textbook loop.
    pub(crate) fn ratio(&self) -> Option<f64> {
        self.textbook.map(|t| t.median.as_secs_f64() / self.fast.median.as_secs_f64().max(1e-12))
    }

    /// The JSON object of `nimcount bench --json`.
    pub(crate) fn json(&self) -> serde_json::Value {
        let (fast, textbook) = (self.fast, self.textbook);
        serde_json::json!({
            "kind": kind_name(self.kind),
            "ring": self.name(),
            "storage": self.name(),
            "modulus": self.ring.modulus().map(|m| m.to_string()),
            "backend": self.backend.name(),
            "log2": self.log2,
            "elements": self.elements(),
            "len": self.elements(),
            "order": self.order,
            "threads": self.threads,
            "runs": fast.runs,
            "median_ns": fast.median.as_nanos() as u64,
            "min_ns": fast.min.as_nanos() as u64,
            "max_ns": fast.max.as_nanos() as u64,
            "ns_per_element_level": self.ns_per_element_level(fast),
            "gbps": self.gbps(fast),
            "textbook_runs": textbook.map(|t| t.runs),
            "textbook_median_ns": textbook.map(|t| t.median.as_nanos() as u64),
            "textbook_ns_per_element_level": textbook.map(|t| self.ns_per_element_level(t)),
            "textbook_gbps": textbook.map(|t| self.gbps(t)),
            "ratio": self.ratio(),
        })
    }
}

fn report(args: &Args, m: &Measurement) -> Result<()> {
    let mut out = common::stdout();
    if args.json {
        writeln!(out, "{}", m.json()).map_err(common::stdout_error)?;
    } else {
        let modulus = m.ring.modulus().map(|m| format!(" mod {m}")).unwrap_or_default();
        let line = |name: &str, t: Timing| {
            format!(
                "{name:<9} median {:>10}  (min {}, max {}, {})  {:.4} ns/element/level  {:.2} GB/s",
                show(t.median),
                show(t.min),
                show(t.max),
                common::plural(t.runs, "run", "runs"),
                m.ns_per_element_level(t),
                m.gbps(t)
            )
        };
        let threads = m.threads;
        let what = match m.kind {
            Kind::Xor => "forward transform",
            Kind::And => "superset zeta transform (and)",
            Kind::Or => "subset zeta transform (or)",
            Kind::Subset => "subset convolution",
        };
        let mut text = format!(
            "{what} of 2^{} {}{modulus} elements ({}), backend {}, {threads} thread{}\n",
            m.log2,
            m.ring.name(),
            nimcount::error::Bytes(m.bytes),
            m.backend,
            if threads == 1 { "" } else { "s" }
        );
        text += &line("nimcount", m.fast);
        text.push('\n');
        if let (Some(t), Some(r)) = (m.textbook, m.ratio()) {
            text += &line("textbook", t);
            text += &format!("\nspeed-up  {r:.1}x over the textbook loop\n");
        }
        out.write_all(text.as_bytes()).map_err(common::stdout_error)?;
    }
    out.flush().map_err(common::stdout_error)
}

/// How one method compares with another, from `speedup` (the other's time over this one's):
/// `1.68x faster`, or `1.07x slower` below 1, never "0.94x faster".
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) fn faster_or_slower(speedup: f64) -> String {
    if speedup >= 1.0 { format!("{speedup:.2}x faster") } else { format!("{:.2}x slower", 1.0 / speedup) }
}

/// A duration with a readable unit.
pub(crate) fn show(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    match ns {
        _ if ns < 1e3 => format!("{ns:.0} ns"),
        _ if ns < 1e6 => format!("{:.2} µs", ns / 1e3),
        _ if ns < 1e9 => format!("{:.3} ms", ns / 1e6),
        _ => format!("{:.3} s", ns / 1e9),
    }
}

#[cfg(test)]
mod tests {
    use super::faster_or_slower;

    #[test]
    fn a_slower_method_is_called_slower() {
        assert_eq!(faster_or_slower(1.68), "1.68x faster");
        assert_eq!(faster_or_slower(1.0), "1.00x faster");
        // 212.196 ms alone against 226.707 ms distributed.
        assert_eq!(faster_or_slower(212.196 / 226.707), "1.07x slower");
    }
}
