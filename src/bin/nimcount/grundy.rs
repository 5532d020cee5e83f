//! `nimcount grundy`: Grundy values of a heap game and its certified period.

use std::io::Write;
use std::path::PathBuf;

use nimcount::game::Game;
use nimcount::grundy::{
    self, Certificate, DEFAULT_SECONDS, Estimate, Limit, PeriodSearch, Search, Theorem, Within,
};
use serde_json::{Value, json};

use nimcount::count::Query;
use nimcount::spec::Spec;

use crate::common::{self, Result, TerminalProgress};
use crate::output::Output;

/// Arguments of `nimcount grundy`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Games: nim | subtract:1,3,4 | subtract:1-1000000 | subtract:1-3,7,10-12 | allbut:1,2 |
       octal:0.07 | octal:4.007 | hex:0.F8 | squares | grundy-game | lasker | fraction:1/2 |
       kayles | dawsons-kayles | dawsons-chess | officers | guiles (`nimcount games` lists them)

Without --first, --period is implied. Periods are proven, never guessed: the output names the
theorem. \"No period found\" (null in JSON) is an answer, with exit code 0, with a larger
--max-heap to try and its estimated time. Nim and one-interval subtraction sets (subtract:a-b)
have closed forms: they answer for any move size, whatever the limit.

--sizes LO..=HI --histogram prints how many heap sizes in LO..=HI have each Grundy value, in the
format `count --histogram` reads (`value count`, or `lo..=hi count` for a run of values with one
count; the values found as `count` finds them), so that values computed once are counted many
times: nimcount grundy --game octal:0.77 --sizes 1..=10^5 --histogram | nimcount count --histogram - --heaps 3
The runs are written as they are found; a histogram whose text may pass 256 MiB is refused
before anything is written.

--plot FILE.svg draws G(0) … G(N-1) (N from --first, else the values the period search computed)
with the proven period over them, and prints the period instead of the values.")]
pub struct Args {
    /// The game, e.g. octal:0.16 or subtract:1-1000000.
    #[arg(long, value_name = "SPEC")]
    game: String,

    /// Print G(0) … G(N-1).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    first: Option<String>,

    /// Search for a certified period (preperiod, period, saltus).
    #[arg(long)]
    period: bool,

    /// Compute at most N values in the period search: G(0) … G(N-1) [default: until the
    /// estimated time reaches --max-seconds, the same heap on every machine; 2^16 values for
    /// squares, which is never periodic].
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    max_heap: Option<String>,

    /// The time limit, in seconds of estimated time on one core of a 2-core AMD EPYC (Zen 3):
    /// of the period search without --max-heap (stopped there; by the clock at 1.2 times the
    /// limit of CPU time plus 1 s, or twice the limit of real time plus 10 s, should the
    /// estimate be off), and of --first N (estimated first, refused beyond) [default: 30].
    #[arg(long, value_name = "S", allow_hyphen_values = true)]
    max_seconds: Option<String>,

    /// Use no closed form: compute every value by a mex and prove the period by a window
    /// theorem.
    #[arg(long)]
    no_closed_form: bool,

    /// Threads for the values of subtraction-type games [default: every core].
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    threads: Option<String>,

    /// Draw G(n) against n into FILE.svg: points, or a density view beyond 4096 values; the
    /// preperiod, period boundaries and saltus lines when a period is proven.
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,

    /// With --histogram: the heap sizes, every one in LO..=HI.
    #[arg(long, value_name = "LO..=HI", requires = "histogram", allow_hyphen_values = true)]
    sizes: Option<String>,

    /// Print the histogram of the Grundy values over --sizes, in the format `count --histogram`
    /// reads.
    #[arg(long, requires = "sizes", conflicts_with_all = ["first", "period", "plot", "json", "no_closed_form", "threads"])]
    histogram: bool,

    /// Write the histogram to FILE instead of standard output (whole or not at all).
    #[arg(long, value_name = "FILE", requires = "histogram")]
    output: Option<PathBuf>,

    /// Print one JSON object.
    #[arg(long)]
    json: bool,

    /// When standard error is not a terminal, report progress there every few seconds.
    #[arg(long)]
    verbose: bool,
}

/// Runs `nimcount grundy`.
pub fn run(args: Args) -> Result<()> {
    let threads = args.threads.as_deref().map(nimcount::number::parse_u64).transpose()?;
    match threads {
        Some(threads) if !(1..=1024).contains(&threads) => {
            Err(common::usage(format!("--threads {threads} is out of range (1 to 1024)")))
        }
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads as usize)
            .build()
            .map_err(|e| common::usage(format!("cannot start {threads} threads: {e}")))?
            .install(|| run_with(args)),
        None => run_with(args),
    }
}

fn run_with(args: Args) -> Result<()> {
    if args.histogram {
        return histogram(&args);
    }
    let first = args.first.as_deref().map(nimcount::number::parse_u64).transpose()?;
    let max_heap = args.max_heap.as_deref().map(nimcount::number::parse_u64).transpose()?;
    let max_seconds = match args.max_seconds.as_deref().map(nimcount::number::parse_u64).transpose()? {
        Some(0) => return Err(common::usage("--max-seconds must be at least 1")),
        Some(s) => s as f64,
        None => DEFAULT_SECONDS,
    };
    let game = Spec::parse(&args.game)?.heap_game()?;
    if let Some(path) = &args.plot {
        crate::plot::check_path(path)?;
    }
    let want_period = args.period || first.is_none() || args.plot.is_some();
    if !want_period && (max_heap.is_some() || args.no_closed_form) {
        let flag = if max_heap.is_some() { "--max-heap" } else { "--no-closed-form" };
        return Err(common::usage(format!(
            "{flag} applies to the period search, which --first alone does not run (add --period)"
        )));
    }
    if first.is_none() && max_heap.is_some() && args.max_seconds.is_some() {
        return Err(common::usage(
            "--max-seconds bounds the period search without --max-heap, and --first N; with --max-heap N \
             the search computes N values whatever the time: drop one of them",
        ));
    }
    if args.no_closed_form && game == Game::Nim {
        return Err(common::usage(
            "--no-closed-form with nim: its period is proven by its closed form G(n) = n alone (no window theorem applies)",
        ));
    }
    let progress = TerminalProgress::lines(args.verbose);
    let values = match first {
        Some(count) if args.plot.is_none() => {
            match grundy::values_within_on(&game, count, max_seconds, &progress, common::backend(None)?)? {
                Within::Values(values) => Some(values),
                Within::Beyond(estimate) => return Err(beyond(&game, count, estimate, max_seconds)),
            }
        }
        Some(count) => {
            let estimate = grundy::estimate_values(&game, count)?;
            if estimate.seconds > max_seconds {
                return Err(beyond(&game, count, estimate, max_seconds));
            }
            None
        }
        None => None,
    };
    let search = if want_period {
        let limit = max_heap.map_or(Limit::Seconds(max_seconds), Limit::Heaps);
        let search = Search::new().limit(limit).closed_forms(!args.no_closed_form).progress(&progress);
        Some((search.run(&game)?, max_heap))
    } else {
        None
    };
    if let (Some(path), Some((search, _))) = (&args.plot, &search) {
        let values = crate::plot::grundy::sequence(&game, first, search, &progress)?;
        crate::plot::grundy::draw(path, &values, search, search.checked_upto)?;
    }
    drop(progress);

    let mut out = common::stdout();
    if args.json {
        let mut object = serde_json::Map::new();
        object.insert("game".into(), json!(game.spec()));
        if let Some(values) = &values {
            object.insert("values".into(), json!(values));
        }
        if let Some((search, max_heap)) = &search {
            period_json(&mut object, search, *max_heap, max_seconds);
        }
        serde_json::to_writer(&mut out, &Value::Object(object))
            .map_err(|e| common::stdout_error(e.into()))?;
        writeln!(out).map_err(common::stdout_error)?;
    } else {
        if let Some(values) = &values {
            write_values(&mut out, values).map_err(common::stdout_error)?;
        }
        if let Some((search, max_heap)) = &search {
            write_period(&mut out, search, *max_heap, max_seconds).map_err(common::stdout_error)?;
        }
    }
    out.flush().map_err(common::stdout_error)
}

/// `--sizes LO..=HI --histogram`: the histogram as `count` builds it, written as runs of values.
fn histogram(args: &Args) -> Result<()> {
    let (lo, hi) = common::parse_sizes(args.sizes.as_deref().unwrap_or_default())?;
    let game = Spec::parse(&args.game)?.heap_game()?;
    let max_heap = args.max_heap.as_deref().map(nimcount::number::parse_u64).transpose()?;
    if args.max_seconds.is_some() {
        return Err(common::usage(
            "--max-seconds bounds the period search of --period and --first; --histogram finds the values as \
             `count` does (--max-heap N computes at most N values)",
        ));
    }
    let path = args.output.clone().unwrap_or_else(|| PathBuf::from("-"));
    let output = Output::resolve(&path)?;
    let progress = TerminalProgress::lines(args.verbose);
    let mut query = Query::new(game.clone()).sizes(lo.clone(), hi.clone()).progress(&progress);
    if let Some(max_heap) = max_heap {
        query = query.max_heap(max_heap);
    }
    let histogram = query.histogram().map_err(crate::count::work_failure)?.0.into_owned();
    let text = histogram.runs_text_bytes()?;
    if text > MAX_HISTOGRAM_TEXT {
        return Err(common::usage(format!(
            "the histogram of {} over heap sizes {}..={} takes up to {} of text, more than the {} that \
             --histogram writes; ask for fewer --sizes",
            game.spec(),
            nimcount::message::short(&lo),
            nimcount::message::short(&hi),
            nimcount::error::Bytes(text),
            nimcount::error::Bytes(MAX_HISTOGRAM_TEXT)
        )));
    }
    drop(progress);
    // The runs are written as the histogram gives them, one at a time: no list of them is made.
    output.write(|out| {
        let io = |e| common::Failure::Library(nimcount::Error::io(&path, e));
        writeln!(out, "# {}, heap sizes {lo}..={hi}: Grundy value (or lo..=hi) and count", game.spec())
            .map_err(io)?;
        histogram.for_each_run(|lo, hi, count| {
            if lo == hi { writeln!(out, "{lo} {count}") } else { writeln!(out, "{lo}..={hi} {count}") }
                .map_err(io)
        })
    })
}

/// The most text `--histogram` writes (about 10 s of decimal conversion for numbers of tens of
/// thousands of digits; far above the histograms of values that fit in memory).
const MAX_HISTOGRAM_TEXT: u64 = 1 << 28;

/// The refusal of `--first count` whose estimated time is beyond `max_seconds`, naming the
/// `--max-seconds` that would allow it.
fn beyond(game: &Game, count: u64, estimate: Estimate, max_seconds: f64) -> common::Failure {
    let values = match count {
        1 => "G(0)".to_string(),
        n => format!("G(0) … G({})", n - 1),
    };
    common::usage(format!(
        "--first {count}: {values} of {} would take {estimate} on one core of the reference machine (an \
         estimate) and {}, beyond the limit of {max_seconds:.0} s; add --max-seconds {} to compute them",
        game.spec(),
        nimcount::error::Bytes(estimate.bytes),
        estimate.seconds.ceil().min(u64::MAX as f64) as u64
    ))
}

/// The values separated by spaces, formatted by hand (tens of millions of them).
fn write_values(out: &mut impl Write, values: &[u32]) -> std::io::Result<()> {
    if values.is_empty() {
        return Ok(());
    }
    let mut line = Vec::with_capacity(1 << 16);
    for (i, &v) in values.iter().enumerate() {
        if i > 0 {
            line.push(b' ');
        }
        let mut digits = [0u8; 10];
        let (mut v, mut at) = (v, digits.len());
        loop {
            at -= 1;
            digits[at] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        line.extend_from_slice(&digits[at..]);
        if line.len() >= 1 << 16 {
            out.write_all(&line)?;
            line.clear();
        }
    }
    line.push(b'\n');
    out.write_all(&line)
}

/// The largest value: unbounded when the saltus is positive.
fn largest(search: &PeriodSearch) -> Option<u32> {
    match &search.certificate {
        Some(Certificate { saltus, .. }) if *saltus > 0 => None,
        _ => Some(search.max_value),
    }
}

fn write_period(
    out: &mut impl Write,
    search: &PeriodSearch,
    max_heap: Option<u64>,
    max_seconds: f64,
) -> std::io::Result<()> {
    writeln!(out, "game          {}", search.game)?;
    let computed = match search.checked_upto {
        0 => "no values".to_string(),
        n => format!("G(0) … G({})", n - 1),
    };
    match &search.certificate {
        Some(c) => {
            let exception = if c.preperiod == 0 {
                "(purely periodic)".to_string()
            } else {
                format!("(last exception at n = {})", c.preperiod - 1)
            };
            writeln!(out, "preperiod     {} {exception}", c.preperiod)?;
            writeln!(out, "period        {}", c.period)?;
            let kind = if c.saltus == 0 { "" } else { " (arithmetic periodic: G(n+period) = G(n) + saltus)" };
            writeln!(out, "saltus        {}{kind}", c.saltus)?;
        }
        None if search.never_periodic => {
            if search.game == "squares" {
                writeln!(
                    out,
                    "period        none: subtract-a-square is never periodic (its losing positions are \
                     infinitely many but have density 0)"
                )?;
            } else {
                writeln!(
                    out,
                    "period        none: {} is never periodic (G(2n) = n grows without bound)",
                    search.game
                )?;
            }
        }
        None => {
            let limit = match max_heap {
                Some(_) => String::new(),
                None if search.stopped_by_clock => format!(
                    " (stopped by the clock: the estimate of {max_seconds:.0} s was off for this game or \
                     this machine)"
                ),
                // Games no theorem covers compute a few values to show, not a search's worth.
                None if search.suggestion.is_none()
                    && search.checked_upto == nimcount::grundy::INFORMATIVE_VALUES =>
                {
                    " (no theorem proves a period of this game: values to show only; --max-heap N \
                     computes N values)"
                        .to_string()
                }
                None => format!(" (the limit, an estimate of about {max_seconds:.0} s)"),
            };
            let next = match &search.suggestion {
                Some(s) => format!("; try --max-heap {} ({})", s.max_heap, s.estimate),
                None => String::new(),
            };
            writeln!(out, "period        none found in {computed}{limit}{next}")?;
            if let Some(c) = &search.candidate {
                writeln!(
                    out,
                    "candidate     period {} from n = {}: its theorem needs G(0) … G({})",
                    c.period,
                    c.preperiod,
                    c.needed - 1
                )?;
            }
        }
    }
    match largest(search) {
        // The closed form's largest value, whatever its size.
        Some(_)
            if let Some(Theorem::SubtractionInterval { first: a, last: b }) =
                search.certificate.as_ref().map(|c| &c.theorem) =>
        {
            writeln!(out, "max value     {}", (u128::from(*a) + u128::from(*b) - 1) / u128::from(*a))?
        }
        Some(max) => writeln!(out, "max value     {max}")?,
        None => {
            let c = search.certificate.as_ref().expect("a positive saltus is proven");
            let growth = format!(
                "unbounded: grows by {} every {}",
                c.saltus,
                if c.period == 1 { "heap size".to_string() } else { format!("{} heap sizes", c.period) }
            );
            if search.checked_upto > 1 {
                writeln!(out, "max value     {growth} ({} among the values computed)", search.max_value)?;
            } else {
                writeln!(out, "max value     {growth}")?;
            }
        }
    }
    writeln!(out, "computed      {computed}")?;
    if let Some(c) = &search.certificate {
        writeln!(out, "theorem       {}", c.theorem)?;
    }
    Ok(())
}

fn period_json(
    object: &mut serde_json::Map<String, Value>,
    search: &PeriodSearch,
    max_heap: Option<u64>,
    max_seconds: f64,
) {
    let c = search.certificate.as_ref();
    object.insert("preperiod".into(), json!(c.map(|c| c.preperiod)));
    object.insert("period".into(), json!(c.map(|c| c.period)));
    object.insert("saltus".into(), json!(c.map(|c| c.saltus)));
    object.insert("last_exception".into(), json!(c.and_then(|c| c.preperiod.checked_sub(1))));
    object.insert("theorem".into(), json!(c.map(|c| c.theorem.to_string())));
    object.insert("theorem_id".into(), json!(c.map(|c| c.theorem.id())));
    object.insert("checked_upto".into(), json!(search.checked_upto));
    object.insert("max_heap".into(), json!(max_heap));
    object.insert("max_seconds".into(), json!(max_heap.is_none().then_some(max_seconds)));
    object.insert("stopped_by_clock".into(), json!(search.stopped_by_clock));
    object.insert("max_value".into(), json!(largest(search)));
    object.insert("max_value_computed".into(), json!(search.max_value));
    object.insert("never_periodic".into(), json!(search.never_periodic));
    let candidate =
        search.candidate.map(|c| json!({"preperiod": c.preperiod, "period": c.period, "needed": c.needed}));
    object.insert("candidate".into(), json!(candidate));
    let suggestion =
        search.suggestion.map(|s| json!({"max_heap": s.max_heap, "estimated_seconds": s.estimate.seconds}));
    object.insert("suggestion".into(), json!(suggestion));
}
