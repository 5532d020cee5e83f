//! `nimcount count`: how many k-heap positions are lost (or won) for the player to move.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use nimcount::count::{Component, Kind, Query, Report, Source, SpectrumPath};
use nimcount::histogram::Histogram;
use nimcount::num_bigint::BigUint;
use nimcount::number;
use nimcount::progress::Progress;
use nimcount::spec::Spec;
use num_traits::ToPrimitive;
use serde_json::{Map, Value, json};

use crate::common::{self, Result, TerminalProgress, parse_sizes, plural, stdout, stdout_error, usage};

/// Arguments of `nimcount count`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Numbers accept `_` separators and expressions such as 10^12, 2^64, 10^9+7.\n\
Examples:\n  \
nimcount count --game subtract:1-1000000 --sizes 1..=12983567378251 --heaps 98670634123 --modulus 10^9+7\n  \
nimcount count --histogram values.txt --heaps 3 --probability\n  \
nimcount count --game moore:8 --sizes 1..=10^18 --heaps 200 --modulus 10^9+7\n  \
nimcount count --game subtract:1-2 --staircase --sizes 0..=100 --heaps 7\n  \
nimcount count --part octal:0.77 1..=1000 3 --part nim 1..=50 2 --modulus 10^9+7\n\n\
--part GAME LO..=HI K (repeatable) counts sums of different games: K heaps of GAME with sizes\n\
in LO..=HI for each part (ordered within each part; --unordered and --distinct apply within\n\
each part), lost when the XOR of all the heaps' Grundy values is 0. The transforms of the\n\
parts multiply slot by slot; moduli, --distribution and --probability work as for one game.\n\n\
moore:K (take from up to K heaps) counts ordered heaps digit by digit over the bits of HI,\n\
about k^3 (K+2) / 6 operations per bit for k heaps. A count estimated above 4*10^9 word\n\
operations is refused before computing (exact counts and moduli above 2^64 cost more per\n\
operation): 200 heaps with K = 8 and HI = 10^18 take about a second modulo 10^9+7; exact counts\n\
reach about 60 heaps there.\n\
--staircase counts K steps of LO..=HI coins (nim, subtract, allbut, squares; ordered, normal play).\n\n\
Every count estimates its work before the expensive stage (powers modulo huge moduli, exact\n\
answers of millions of digits, the recurrences of --unordered and --distinct, O(k) per distinct\n\
transformed value) and refuses above --max-work, by default 4*10^8 steps of about 25 ns (about\n\
10 s). --histogram - reads standard input, up to --max-input bytes (default 2^29).\n\n\
nim, one-interval subtraction games (subtract:A-B), games whose values grow by a power of two\n\
(allbut:2) and histogram files of value ranges (lines `A..=B COUNT`) are counted from the\n\
structured spectrum, without one slot per Grundy value: sizes like 1..=2^10000000-1 work\n\
wherever the answer is modular. --unordered and --distinct take K steps per distinct\n\
transformed value, within --max-work (Project Euler 409, --sizes 1..=2^n-1 --heaps n\n\
--distinct, has two values: n up to 10^8 within the default 4*10^8 steps). Take at most half\n\
(fraction:1/2) has one value interval per bit of the sizes: counted the same way up to about\n\
1..=10^14 (its distinct values grow like 2^(b/2) for sizes of b bits), refused beyond.")]
pub struct Args {
    /// The game: nim, subtract:1-3,7, allbut:1,2, octal:0.07, moore:K, …
    #[arg(
        long,
        value_name = "SPEC",
        required_unless_present_any = ["histogram", "part"],
        conflicts_with_all = ["histogram", "part"]
    )]
    game: Option<String>,
    /// A histogram of Grundy values instead of a game: lines `value count` (`#` comments; - for
    /// standard input).
    #[arg(long, value_name = "FILE", conflicts_with = "part")]
    histogram: Option<PathBuf>,
    /// One part of a sum of different games: K heaps of GAME, sizes in LO..=HI (repeatable).
    #[arg(
        long,
        num_args = 3,
        value_names = ["GAME", "LO..=HI", "K"],
        action = clap::ArgAction::Append,
        allow_hyphen_values = true,
        conflicts_with_all = ["staircase", "distributed", "sizes", "heaps", "max_input"]
    )]
    part: Vec<String>,
    /// The heap sizes, every one in LO..=HI (with --game).
    #[arg(
        long,
        value_name = "LO..=HI",
        required_unless_present_any = ["histogram", "part"],
        allow_hyphen_values = true
    )]
    sizes: Option<String>,
    /// The number of heaps, or LO..=HI: the counts summed over every number of heaps from LO to
    /// HI (any size, in one pass: per transformed value a geometric series, or for --unordered
    /// and --distinct a cumulative coefficient). With --misere: ordered heaps of any game (the
    /// geometric series in its misère quotient's algebra) and every kind for nim; multisets and
    /// sets of other games are counted in the quotient's algebra one number of heaps at a time,
    /// so they take one K.
    #[arg(long, value_name = "K|LO..=HI", required_unless_present = "part", allow_hyphen_values = true)]
    heaps: Option<String>,
    /// Count modulo M (exact counts when absent).
    #[arg(long, value_name = "M", conflicts_with = "probability", allow_hyphen_values = true)]
    modulus: Option<String>,
    /// Unordered heaps: count multisets of heap sizes.
    #[arg(long, conflicts_with = "distinct")]
    unordered: bool,
    /// Distinct heap sizes: count sets.
    #[arg(long)]
    distinct: bool,
    /// Misère play, counted for nim (its rule: lost when some heap has two stones or more
    /// and the XOR is 0, or when every heap has at most one stone and an odd number have one)
    /// and for octal and finite subtraction games whose misère quotient is found
    /// (`nimcount misere` prints it), else for any game through the quotient of its heaps
    /// 0..=HI (sizes up to --max-heap, 1000 by default): whoever takes the last stone loses.
    /// `play --misere` judges one position of any game.
    #[arg(long)]
    misere: bool,
    /// Also print the count for every XOR value of the Grundy values.
    #[arg(long)]
    distribution: bool,
    /// Read the counts as weights: print the probabilities of losing and winning.
    #[arg(long)]
    probability: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Print the time of each stage; when standard error is not a terminal, report progress
    /// there every few seconds.
    #[arg(long)]
    verbose: bool,
    /// Compute at most N Grundy values, G(0) … G(N-1), in the period search and directly
    /// [default: a period search of about 30 s of estimated time; then, without a proven
    /// period, the values of the range when their estimated time is at most about a minute on
    /// one core of a 2-core AMD EPYC (Zen 3) and they fit in memory, else a refusal before
    /// computing them].
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    max_heap: Option<String>,
    /// The most work a count may take, in steps of about 25 ns [default: 4*10^8, about 10 s].
    #[arg(long, value_name = "STEPS", allow_hyphen_values = true)]
    max_work: Option<String>,
    /// With --misere, the search for the game's misère quotient: stop when a proof passes N
    /// states, the whole construction at 5 N, as `nimcount misere --max-states` [default: 200000].
    #[arg(long, value_name = "N", allow_hyphen_values = true, requires = "misere")]
    max_states: Option<String>,
    /// With --misere: stop the quotient's search when a quotient along the way passes order N,
    /// as `nimcount misere --max-order` [default: 2000].
    #[arg(long, value_name = "N", allow_hyphen_values = true, requires = "misere")]
    max_order: Option<String>,
    /// With --misere: the most estimated time of the search for the game's misère quotient, in
    /// seconds of its model (one core of a 2-core Xeon): limits estimated beyond it are refused
    /// at once, and a search that passes it stops, as `nimcount misere --max-seconds`
    /// [default: 60].
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, requires = "misere")]
    max_seconds: Option<String>,
    /// The most bytes read from a histogram stream (--histogram -, a pipe) [default: 2^29].
    #[arg(long, value_name = "BYTES", allow_hyphen_values = true)]
    max_input: Option<String>,
    /// Staircase positions of K steps, each with LO..=HI coins (only the odd steps count).
    #[arg(long)]
    staircase: bool,
    /// The spectrum: structured (closed form of value intervals, no array), array (one slot per
    /// Grundy value), or auto (structured whenever it applies and is cheaper).
    #[arg(long, value_name = "KIND", default_value = "auto", value_parser = ["auto", "array", "structured"])]
    spectrum: String,
    /// Spread the transform over the processes of `mpirun -n P` (a power of two; ordered heaps,
    /// normal play; needs the mpi feature).
    #[arg(long, conflicts_with_all = ["staircase", "distribution", "probability"])]
    distributed: bool,
    /// With --distributed: `shared` (the default) shares memory among the processes of one
    /// node; `all-to-all` makes every process a node of its own (the between-node exchange on one
    /// machine). The answer is the same.
    #[arg(long, value_enum, default_value_t = crate::bench::Exchange::Shared, requires = "distributed")]
    exchange: crate::bench::Exchange,
}

/// Runs `nimcount count`.
pub fn run(args: Args) -> Result<()> {
    let start = Instant::now();
    let progress = TerminalProgress::lines(args.verbose);
    // Every check that needs no computation first.
    if !args.part.is_empty() {
        return sum(&args, &progress, start);
    }
    let (heaps, heaps_to) = parse_heaps(args.heaps.as_deref().unwrap_or_default())?;
    let modulus = args.modulus.as_deref().map(number::parse).transpose()?;
    if modulus.as_ref().is_some_and(|m| m.bits() == 0) {
        return Err(usage("--modulus 0: the modulus must be at least 1"));
    }
    args.max_heap.as_deref().map(number::parse_u64).transpose()?;
    args.max_work.as_deref().map(parse_max_work).transpose()?;
    if args.histogram.is_none() && args.max_input.is_some() {
        return Err(usage("--max-input limits a histogram read from a stream; it needs --histogram"));
    }
    if args.histogram.is_some() && args.max_heap.is_some() {
        return Err(usage(
            "--max-heap bounds the Grundy values of --game; a histogram has no Grundy values to compute",
        ));
    }
    let kind = kind_of(&args)?;
    let (query, input) = match (&args.game, &args.histogram) {
        (Some(text), _) => {
            let (lo, hi) = parse_sizes(args.sizes.as_deref().unwrap_or_default())?;
            let spec = if args.staircase { Spec::staircase(text)? } else { Spec::parse(text)? };
            if args.distributed && matches!(spec, Spec::Moore(_)) {
                return Err(usage(
                    "--distributed counts through the transform: moore:K counts digit by digit, on one process",
                ));
            }
            let query = spec.query()?.sizes(lo.clone(), hi.clone());
            (query, Input::Game { spec, lo, hi })
        }
        (None, Some(path)) => {
            if args.sizes.is_some() {
                return Err(usage("--sizes applies to --game, not to --histogram"));
            }
            let read = Instant::now();
            let mut file = common::open_input(path, args.max_input.as_deref())?;
            let histogram = Histogram::read_input(&mut file).map_err(|e| common::input_failure(e, false))?;
            let input = Input::Histogram { path: file.name().to_string(), read: read.elapsed() };
            (Query::from_histogram(histogram).staircase(args.staircase), input)
        }
        (None, None) => {
            return Err(usage(
                "give --game SPEC --sizes LO..=HI, --histogram FILE, or --part GAME LO..=HI K",
            ));
        }
    };
    let query = match &heaps_to {
        Some(hi) => query.heaps_range(heaps.clone(), hi.clone()),
        None => query.heaps(heaps.clone()),
    };
    let query = configure(query, &args, &progress)?;
    let mut summary = Summary {
        input,
        heaps,
        heaps_to,
        kind,
        misere: args.misere,
        modulus,
        probability: args.probability,
        processes: None,
    };
    if args.distributed {
        if args.exchange == crate::bench::Exchange::Pairwise {
            return Err(usage(
                "count --distributed exchanges by transposing: --exchange shared or all-to-all",
            ));
        }
        return crate::distributed::count(&query, args.exchange, |c, processes| {
            progress.finish();
            summary.processes = Some(processes);
            summary.print_count(c, args.json, args.verbose, start.elapsed())
        });
    }
    answer(&query, &summary, &args, &progress, start)
}

/// Every option of `args` that applies to any query: kind, spectrum, misère play, modulus,
/// the largest heap, the work limit, the backend, progress.
fn configure<'p>(query: Query<'static>, args: &Args, progress: &'p TerminalProgress) -> Result<Query<'p>> {
    let spectrum = match args.spectrum.as_str() {
        "array" => SpectrumPath::Array,
        "structured" => SpectrumPath::Structured,
        _ => SpectrumPath::Auto,
    };
    let mut query = query
        .kind(kind_of(args)?)
        .spectrum(spectrum)
        .misere(args.misere)
        .backend(common::backend(None)?)?
        .progress(progress);
    if let Some(m) = args.modulus.as_deref().map(number::parse).transpose()? {
        query = query.modulus(m);
    }
    if let Some(max_heap) = args.max_heap.as_deref().map(number::parse_u64).transpose()? {
        query = query.max_heap(max_heap);
    }
    if let Some(steps) = args.max_work.as_deref().map(parse_max_work).transpose()? {
        query = query.max_work(steps);
    }
    let mut budget = nimcount::misere::Budget::default();
    if args.misere
        && let Some(n) = args.max_heap.as_deref().map(number::parse_u64).transpose()?
    {
        // The largest heap joined to the misère quotient, as for the Grundy values.
        budget.max_heap = n.min(nimcount::misere::MAX_HEAP);
    }
    if let Some(n) = crate::misere::limit(&args.max_states, "--max-states", nimcount::misere::MAX_STATES)? {
        budget.max_states = n;
    }
    if let Some(n) = crate::misere::limit(&args.max_order, "--max-order", nimcount::misere::MAX_ORDER as u64)?
    {
        budget.max_order = n as usize;
    }
    if let Some(n) = crate::misere::limit(&args.max_seconds, "--max-seconds", nimcount::misere::MAX_SECONDS)?
    {
        budget.max_seconds = n;
    }
    Ok(query.misere_budget(budget))
}

/// `--heaps K` or `--heaps LO..=HI`: the number of heaps, and the top of a range.
fn parse_heaps(text: &str) -> Result<(BigUint, Option<BigUint>)> {
    if !text.contains("..") {
        return Ok((number::parse(text)?, None));
    }
    if !text.contains("..=") {
        return Err(usage(format!(
            "--heaps '{}' must be K or LO..=HI, for example 1..=10^18",
            nimcount::error::quote(text)
        )));
    }
    let (lo, hi) = number::parse_range(text)?;
    if lo > hi {
        return Err(usage(format!(
            "--heaps {}: empty range, {} is above {}",
            nimcount::error::quote(text),
            number::short(&lo),
            number::short(&hi)
        )));
    }
    Ok((lo, Some(hi)))
}

fn kind_of(args: &Args) -> Result<Kind> {
    Ok(Kind::of(args.unordered, args.distinct)?)
}

/// `--part GAME LO..=HI K …`: a sum of different games.
fn sum(args: &Args, progress: &TerminalProgress, start: Instant) -> Result<()> {
    let modulus = args.modulus.as_deref().map(number::parse).transpose()?;
    if modulus.as_ref().is_some_and(|m| m.bits() == 0) {
        return Err(usage("--modulus 0: the modulus must be at least 1"));
    }
    let mut parts = Vec::new();
    let mut components = Vec::new();
    for part in args.part.chunks(3) {
        let [spec, sizes, heaps] = part else { return Err(usage("--part takes GAME LO..=HI K")) };
        let game = Spec::part(spec)?;
        let (lo, hi) = parse_sizes(sizes).map_err(|e| match e {
            common::Failure::Usage(reason) => usage(format!(
                "--part {} {}",
                nimcount::error::quote(spec),
                reason.trim_start_matches("--sizes ")
            )),
            other => other,
        })?;
        let k = number::parse(heaps)?;
        parts.push(Part { spec: game.spec(), lo: lo.clone(), hi: hi.clone(), heaps: k.clone() });
        components.push(Component::new(game, lo, hi, k));
    }
    let query = configure(Query::sum(components), args, progress)?;
    let summary = Summary {
        heaps: parts.iter().map(|p| &p.heaps).sum(),
        heaps_to: None,
        input: Input::Sum { parts },
        kind: kind_of(args)?,
        misere: args.misere,
        modulus,
        probability: args.probability,
        processes: None,
    };
    answer(&query, &summary, args, progress, start)
}

/// Runs the query and prints its answer: the probabilities, the distribution, or the counts.
fn answer(
    query: &Query<'_>,
    summary: &Summary,
    args: &Args,
    progress: &TerminalProgress,
    start: Instant,
) -> Result<()> {
    if args.probability {
        let p = query.probability(args.distribution).map_err(work_failure)?;
        progress.finish();
        summary.print_probability(&p, args.json, args.verbose, start.elapsed())
    } else if args.distribution {
        let d = query.distribution().map_err(work_failure)?;
        progress.finish();
        summary.print_counts(
            [&d.losing, &d.winning, &d.total],
            Some(&d.counts),
            &d.report,
            args.json,
            args.verbose,
            start.elapsed(),
        )
    } else {
        let c = query.count().map_err(work_failure)?;
        progress.finish();
        summary.print_count(&c, args.json, args.verbose, start.elapsed())
    }
}

/// `--max-work STEPS`: at least one step.
pub fn parse_max_work(text: &str) -> Result<u128> {
    match number::parse(text)?.to_u128() {
        Some(0) => Err(usage("--max-work 0: a count needs at least one step")),
        Some(steps) => Ok(steps),
        None => Err(usage(format!("--max-work {}: at most 2^128 - 1 steps", nimcount::error::quote(text)))),
    }
}

/// A refusal for too much work or too many Grundy values, with the flag that lifts it.
pub fn work_failure(err: nimcount::Error) -> common::Failure {
    match err {
        nimcount::Error::TooMuchWork { .. } | nimcount::Error::HalfTooWide { .. } => {
            usage(format!("{err} (--max-work raises the limit)"))
        }
        nimcount::Error::QuotientNotFound { limit, .. } => match limit {
            Some("max_heap") => usage(format!("{err} (--max-heap joins more heaps)")),
            limit => match crate::misere::searches_further(limit) {
                Some(flag) => usage(format!("{err} ({flag} searches further)")),
                None => err.into(),
            },
        },
        err @ nimcount::Error::QuotientTooCostly { .. } => crate::misere::too_costly(err),
        other => common::values_failure(other),
    }
}

/// The most bits of a number shown in decimal (about 20 000 digits): converting millions of
/// bits to decimal takes seconds.
const DECIMAL_BITS: u64 = 1 << 16;

/// A number in decimal, `None` (JSON null) beyond [`DECIMAL_BITS`].
fn decimal(x: &BigUint) -> Option<String> {
    (x.bits() <= DECIMAL_BITS).then(|| x.to_string())
}

/// A number in decimal up to [`DECIMAL_BITS`], else as a power of two (`about 2^10000000.000`).
fn shown(x: &BigUint) -> String {
    if x.bits() <= DECIMAL_BITS {
        return x.to_string();
    }
    // log2 x from the top 64 bits: bits − 64 + log2(top).
    let shift = x.bits() - 64;
    let top = (x >> shift).to_u64().unwrap_or(u64::MAX) as f64;
    format!("about 2^{:.3}", shift as f64 + top.log2())
}

/// A probability as text: 15 decimals, or 15 significant digits in scientific notation below
/// 10^-4 (so 1e-30 does not print as 0).
pub fn probability_text(p: f64) -> String {
    if p == 0.0 || p >= 1e-4 { format!("{p:.15}") } else { format!("{p:.14e}") }
}

/// What the query counts over.
enum Input {
    /// A game, Moore's Nim-K or a staircase of a game, over heap sizes `lo..=hi`.
    Game {
        spec: Spec,
        lo: BigUint,
        hi: BigUint,
    },
    Histogram {
        path: String,
        read: Duration,
    },
    Sum {
        parts: Vec<Part>,
    },
}

/// One part of a sum of games, as given.
struct Part {
    spec: String,
    lo: BigUint,
    hi: BigUint,
    heaps: BigUint,
}

/// The query as given, for printing.
struct Summary {
    input: Input,
    heaps: BigUint,
    /// The top of a range of heap counts (`--heaps LO..=HI`, `heaps` being LO).
    heaps_to: Option<BigUint>,
    kind: Kind,
    misere: bool,
    modulus: Option<BigUint>,
    probability: bool,
    /// The number of processes of a distributed count.
    processes: Option<usize>,
}

impl Summary {
    /// The stages: reading the histogram file, then the query's own, each name once (in the
    /// order of its first time) with the total of its times and how many there were: a sum of
    /// thousands of parts has a stage of each name per part, and the line stays short.
    fn stages(&self, report: &Report) -> Vec<(String, Duration, usize)> {
        let read = match &self.input {
            Input::Histogram { read, .. } => Some(("read histogram".to_string(), *read)),
            Input::Game { .. } | Input::Sum { .. } => None,
        };
        let mut stages: Vec<(String, Duration, usize)> = Vec::new();
        for (name, time) in read.into_iter().chain(report.stages.iter().cloned()) {
            match stages.iter_mut().find(|(n, _, _)| *n == name) {
                Some((_, total, times)) => (*total, *times) = (*total + time, *times + 1),
                None => stages.push((name, time, 1)),
            }
        }
        stages
    }

    /// `K`, or `LO..=HI` for a range of heap counts.
    fn heaps_text(&self) -> String {
        match &self.heaps_to {
            Some(hi) => format!("{}..={}", self.heaps, hi),
            None => self.heaps.to_string(),
        }
    }

    fn play(&self) -> &'static str {
        if self.misere { "misère" } else { "normal" }
    }

    /// The fields every JSON object shares.
    fn json_fields(&self, report: &Report, verbose: bool, elapsed: Duration) -> Map<String, Value> {
        let mut fields = Map::new();
        match &self.input {
            Input::Game { spec, lo, hi } => {
                fields.insert("game".into(), json!(spec.spec()));
                fields.insert("sizes".into(), json!({ "lo": decimal(lo), "hi": decimal(hi) }));
            }
            Input::Histogram { path, .. } => {
                fields.insert("histogram".into(), json!(path));
            }
            Input::Sum { parts } => {
                let sources = match &report.source {
                    Source::Sum { components } => components.iter().map(source_json).collect(),
                    _ => vec![Value::Null; parts.len()],
                };
                let parts: Vec<Value> = parts
                    .iter()
                    .zip(sources)
                    .map(|(p, period)| {
                        json!({
                            "game": p.spec,
                            "sizes": { "lo": decimal(&p.lo), "hi": decimal(&p.hi) },
                            "heaps": p.heaps.to_string(),
                            "period": period,
                        })
                    })
                    .collect();
                fields.insert("parts".into(), Value::Array(parts));
            }
        }
        fields.insert("heaps".into(), json!(self.heaps_text()));
        if let Some(hi) = &self.heaps_to {
            fields.insert("heaps_range".into(), json!({ "lo": decimal(&self.heaps), "hi": decimal(hi) }));
        }
        fields.insert("kind".into(), json!(self.kind.to_string()));
        fields.insert("play".into(), json!(self.play()));
        fields.insert("number_of_sizes".into(), json!(decimal(&report.sizes)));
        fields.insert("number_of_sizes_bits".into(), json!(report.sizes.bits()));
        // A number up to 2^63, null beyond (see transform_log2).
        let size = 1u64.checked_shl(report.log2_len).filter(|_| report.log2_len < 64);
        fields.insert("transform_size".into(), json!(size));
        fields.insert("transform_log2".into(), json!(report.log2_len));
        fields.insert("spectrum".into(), json!(report.spectrum.to_string()));
        fields.insert("distinct_values".into(), json!(report.distinct_values));
        fields.insert("period".into(), source_json(&report.source));
        if let Some(p) = self.processes {
            fields.insert("processes".into(), json!(p));
        }
        if verbose {
            let stages: Map<String, Value> = self
                .stages(report)
                .iter()
                .map(|(name, time, _)| (name.clone(), json!(millis(*time))))
                .collect();
            fields.insert("stages_ms".into(), Value::Object(stages));
            fields.insert("elapsed_ms".into(), json!(millis(elapsed)));
        }
        fields
    }

    /// The summary of a count (no distribution).
    fn print_count(
        &self,
        c: &nimcount::count::Counts,
        json: bool,
        verbose: bool,
        elapsed: Duration,
    ) -> Result<()> {
        if let Input::Game { spec: spec @ (Spec::Moore(_) | Spec::Staircase(_)), lo, hi } = &self.input {
            return self.print_columns_or_steps(spec, (lo, hi), c, json, verbose, elapsed);
        }
        self.print_counts([&c.losing, &c.winning, &c.total], None, &c.report, json, verbose, elapsed)
    }

    /// The count of Moore's Nim-K (digit by digit over the binary columns) or of a staircase
    /// (heaps on the odd steps, the even steps free): their own lines and fields.
    fn print_columns_or_steps(
        &self,
        spec: &Spec,
        (lo, hi): (&BigUint, &BigUint),
        c: &nimcount::count::Counts,
        json: bool,
        verbose: bool,
        elapsed: Duration,
    ) -> Result<()> {
        let heaps = &self.heaps;
        let mut fields = Map::new();
        let mut lines: Vec<(&str, String)> = Vec::new();
        match spec {
            Spec::Moore(moore) => {
                let columns = hi.bits();
                fields.insert("game".into(), json!(moore.spec()));
                fields.insert("heaps".into(), json!(heaps.to_string()));
                fields.insert("columns".into(), json!(columns));
                lines.push((
                    "game",
                    format!("{} (take from up to {})", moore.spec(), plural(moore.k(), "heap", "heaps")),
                ));
                lines.push(("sizes", format!("{lo}..={hi} ({})", plural(&c.report.sizes, "size", "sizes"))));
                lines.push(("heaps", format!("{heaps}, ordered, normal play")));
                lines.push((
                    "method",
                    format!(
                        "digit by digit over {columns} binary columns: 1s per column modulo {}, heaps still \
                         equal to a bound's prefix as state",
                        BigUint::from(moore.k()) + 1u32
                    ),
                ));
            }
            Spec::Staircase(game) => {
                let odd: BigUint = (heaps + 1u32) >> 1;
                fields.insert("game".into(), json!(game.spec()));
                fields.insert("steps".into(), json!(heaps.to_string()));
                fields.insert("odd_steps".into(), json!(odd.to_string()));
                lines.push((
                    "game",
                    format!("{game} staircase (coins move one step down; only odd steps count)"),
                ));
                lines.push((
                    "sizes",
                    format!("{lo}..={hi} coins per step ({})", plural(&c.report.sizes, "size", "sizes")),
                ));
                lines.push((
                    "steps",
                    format!(
                        "{heaps}, ordered, normal play: {} counted, {} free",
                        plural(&odd, "odd step", "odd steps"),
                        plural(heaps - &odd, "even step", "even steps")
                    ),
                ));
                if let Some((grundy, theorem)) = source_text(&c.report.source) {
                    lines.push(("grundy", grundy));
                    if let Some(theorem) = theorem {
                        lines.push(("theorem", theorem));
                    }
                }
                fields.insert("period".into(), source_json(&c.report.source));
            }
            _ => {
                return self.print_counts(
                    [&c.losing, &c.winning, &c.total],
                    None,
                    &c.report,
                    json,
                    verbose,
                    elapsed,
                );
            }
        }
        let modulus_text = self.modulus.as_ref().map_or("none (exact)".to_string(), BigUint::to_string);
        lines.insert(3, ("modulus", modulus_text));
        let elapsed = millis(elapsed);
        let mut out = stdout();
        if json {
            fields.insert("staircase".into(), json!(matches!(spec, Spec::Staircase(_))));
            fields.insert("sizes".into(), json!({ "lo": lo.to_string(), "hi": hi.to_string() }));
            fields.insert("kind".into(), json!("ordered"));
            fields.insert("play".into(), json!("normal"));
            fields.insert("number_of_sizes".into(), json!(c.report.sizes.to_string()));
            fields.insert("losing".into(), json!(c.losing.to_string()));
            fields.insert("winning".into(), json!(c.winning.to_string()));
            fields.insert("total".into(), json!(c.total.to_string()));
            fields.insert(
                "modulus".into(),
                self.modulus.as_ref().map_or(Value::Null, |m| json!(m.to_string())),
            );
            if verbose {
                fields.insert("elapsed_ms".into(), json!(elapsed));
            }
            writeln!(out, "{}", Value::Object(fields)).map_err(stdout_error)?;
        } else {
            lines.push(("losing", c.losing.to_string()));
            lines.push(("winning", c.winning.to_string()));
            lines.push(("total", c.total.to_string()));
            if verbose {
                lines.push(("time", format!("{elapsed:.3} ms in all")));
            }
            for (label, value) in lines {
                writeln!(out, "{label:<10} {value}").map_err(stdout_error)?;
            }
        }
        out.flush().map_err(stdout_error)
    }

    fn print_counts(
        &self,
        [losing, winning, total]: [&BigUint; 3],
        distribution: Option<&[BigUint]>,
        report: &Report,
        json: bool,
        verbose: bool,
        elapsed: Duration,
    ) -> Result<()> {
        let mut out = stdout();
        if json {
            let mut fields = self.json_fields(report, verbose, elapsed);
            fields.insert("losing".into(), json!(losing.to_string()));
            fields.insert("winning".into(), json!(winning.to_string()));
            fields.insert("total".into(), json!(total.to_string()));
            fields.insert(
                "modulus".into(),
                self.modulus.as_ref().map_or(Value::Null, |m| json!(m.to_string())),
            );
            if let Some(d) = distribution {
                fields.insert("distribution".into(), d.iter().map(|c| json!(c.to_string())).collect());
            }
            writeln!(out, "{}", Value::Object(fields)).map_err(stdout_error)?;
        } else {
            self.print_header(&mut out, report, None, verbose, elapsed)?;
            let w = |out: &mut dyn Write, label: &str, value: &BigUint| {
                writeln!(out, "{label:<10} {value}").map_err(stdout_error)
            };
            w(&mut out, "losing", losing)?;
            w(&mut out, "winning", winning)?;
            w(&mut out, "total", total)?;
            if let Some(d) = distribution {
                writeln!(out, "distribution (XOR value, count):").map_err(stdout_error)?;
                for (x, c) in d.iter().enumerate() {
                    writeln!(out, "{x} {c}").map_err(stdout_error)?;
                }
            }
        }
        out.flush().map_err(stdout_error)
    }

    fn print_probability(
        &self,
        p: &nimcount::count::Probability,
        json: bool,
        verbose: bool,
        elapsed: Duration,
    ) -> Result<()> {
        let mut out = stdout();
        if json {
            let mut fields = self.json_fields(&p.report, verbose, elapsed);
            fields.insert("losing".into(), json!(p.losing));
            fields.insert("winning".into(), json!(p.winning));
            fields.insert("total".into(), json!(1.0));
            fields.insert("modulus".into(), Value::Null);
            fields.insert("probability_exact".into(), json!(p.exact));
            if let Some(d) = &p.distribution {
                fields.insert("distribution".into(), json!(d));
            }
            writeln!(out, "{}", Value::Object(fields)).map_err(stdout_error)?;
        } else {
            self.print_header(&mut out, &p.report, Some(p.exact), verbose, elapsed)?;
            writeln!(out, "{:<10} {}", "P(lose)", probability_text(p.losing)).map_err(stdout_error)?;
            writeln!(out, "{:<10} {}", "P(win)", probability_text(p.winning)).map_err(stdout_error)?;
            if let Some(d) = &p.distribution {
                writeln!(out, "distribution (XOR value, probability):").map_err(stdout_error)?;
                for (x, q) in d.iter().enumerate() {
                    writeln!(out, "{x} {}", probability_text(*q)).map_err(stdout_error)?;
                }
            }
        }
        out.flush().map_err(stdout_error)
    }

    /// The query, what was used, and (verbose) the stage times.
    fn print_header(
        &self,
        out: &mut dyn Write,
        report: &Report,
        exact: Option<bool>,
        verbose: bool,
        elapsed: Duration,
    ) -> Result<()> {
        let mut lines = Vec::new();
        match &self.input {
            Input::Game { spec, lo, hi } => {
                lines.push(("game", spec.spec()));
                let sizes = plural(shown(&report.sizes), "size", "sizes");
                lines.push(("sizes", format!("{}..={} ({sizes})", shown(lo), shown(hi))));
            }
            Input::Histogram { path, .. } => lines
                .push(("histogram", format!("{path} ({})", plural(shown(&report.sizes), "size", "sizes")))),
            Input::Sum { parts } => {
                let sources = match &report.source {
                    Source::Sum { components } => components.iter().map(source_text).collect(),
                    _ => vec![None; parts.len()],
                };
                for (p, source) in parts.iter().zip(sources) {
                    let n = &p.hi - &p.lo + 1u32;
                    let mut text = format!(
                        "{}, sizes {}..={} ({}), {}",
                        p.spec,
                        shown(&p.lo),
                        shown(&p.hi),
                        plural(shown(&n), "size", "sizes"),
                        plural(&p.heaps, "heap", "heaps")
                    );
                    if let Some((grundy, _)) = source {
                        text += &format!("; grundy {grundy}");
                    }
                    lines.push(("part", text));
                }
            }
        }
        let within = if matches!(self.input, Input::Sum { .. }) { " within each part" } else { "" };
        lines.push(("heaps", format!("{}, {}{within}, {} play", self.heaps_text(), self.kind, self.play())));
        let modulus = match &self.modulus {
            Some(m) => m.to_string(),
            None if exact == Some(true) => {
                "none (probabilities: exact ratios of counts, rounded)".to_string()
            }
            None if self.probability => "none (probabilities in floating point)".to_string(),
            None => "none (exact)".to_string(),
        };
        lines.push(("modulus", modulus));
        if let Some((grundy, theorem)) = source_text(&report.source) {
            lines.push(("grundy", grundy));
            if let Some(theorem) = theorem {
                lines.push(("theorem", theorem));
            }
        }
        let distinct = report.distinct_values.map_or(String::new(), |n| {
            format!(": {}", plural(n, "distinct transformed value", "distinct transformed values"))
        });
        if let Source::Quotient { order, preperiod, period } = report.source {
            // Counted in the quotient's monoid algebra: no transform.
            lines.push((
                "quotient",
                format!(
                    "misère quotient of order {order}, heaps periodic from {preperiod} with period {period}"
                ),
            ));
        } else if let Source::PartialQuotient { order, largest_heap } = report.source {
            lines.push(("quotient", format!("misère quotient of heaps 0..={largest_heap}, order {order}")));
        } else {
            lines.push((
                "transform",
                format!("2^{} slots, {} spectrum{distinct}", report.log2_len, report.spectrum),
            ));
        }
        if let Some(p) = self.processes {
            let each = report.log2_len.saturating_sub(p.trailing_zeros());
            lines.push(("processes", format!("{p}, 2^{each} slots each")));
        }
        if verbose {
            let stages: Vec<String> = self
                .stages(report)
                .iter()
                .map(|(name, time, times)| match times {
                    1 => format!("{name} {:.3} ms", millis(*time)),
                    n => format!("{name} {:.3} ms ({n} times)", millis(*time)),
                })
                .collect();
            lines.push(("stages", stages.join(", ")));
            lines.push(("time", format!("{:.3} ms in all", millis(elapsed))));
        }
        for (label, value) in lines {
            writeln!(out, "{label:<10} {value}").map_err(stdout_error)?;
        }
        Ok(())
    }
}

/// Where the Grundy values came from, as JSON: the period, or null.
fn source_json(source: &Source) -> Value {
    match source {
        Source::Period { certificate, .. } => json!({
            "preperiod": certificate.preperiod,
            "period": certificate.period,
            "saltus": certificate.saltus,
            "theorem": certificate.theorem.to_string(),
        }),
        _ => Value::Null,
    }
}

/// Where the Grundy values came from, as text, and the theorem of a period.
fn source_text(source: &Source) -> Option<(String, Option<String>)> {
    match source {
        Source::Period { certificate: c, values_computed } => Some((
            format!(
                "preperiod {}, period {}, saltus {}; values computed: {values_computed}",
                c.preperiod, c.period, c.saltus
            ),
            Some(c.theorem.to_string()),
        )),
        Source::Values { values_computed } => {
            Some((format!("computed directly (no period needed; values computed: {values_computed})"), None))
        }
        Source::ClosedForm { form } => Some((format!("closed form ({form}); no value computed"), None)),
        _ => None,
    }
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
