//! `nimcount grundy`: Grundy values of a heap game and its certified period.

use std::io::Write;
use std::path::PathBuf;

use nimcount::game::Game;
use nimcount::grundy::{self, Certificate, PeriodSearch};
use serde_json::{Value, json};

use crate::common::{self, Result, TerminalProgress};

/// Arguments of `nimcount grundy`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Games: nim | subtract:1,3,4 | subtract:1-1000000 | subtract:1-3,7,10-12 | allbut:1,2 |
       octal:0.07 | octal:4.007 | squares

Without --first, --period is implied. Periods are proven, never guessed: the output names the
theorem. \"No period found\" (null in JSON) is an answer, with exit code 0.

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

    /// Compute at most N values in the period search [default: 2^20 for octal games, 4 times
    /// the largest move (2^21 … 2^24) for subtraction games, 2^21 for all-but games, 2^16 for
    /// squares].
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    max_heap: Option<String>,

    /// Use no closed form: compute every value by a mex and prove the period by a window
    /// theorem.
    #[arg(long)]
    no_closed_form: bool,

    /// Draw G(n) against n into FILE.svg: points, or a density view beyond 4096 values; the
    /// preperiod, period boundaries and saltus lines when a period is proven.
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,

    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `nimcount grundy`.
pub fn run(args: Args) -> Result<()> {
    let first = args.first.as_deref().map(nimcount::number::parse_u64).transpose()?;
    let max_heap = args.max_heap.as_deref().map(nimcount::number::parse_u64).transpose()?;
    let game = Game::parse(&args.game)?;
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
    if args.no_closed_form && game == Game::Nim {
        return Err(common::usage(
            "--no-closed-form with nim: its period is proven by its closed form G(n) = n alone (no window theorem applies)",
        ));
    }
    let progress = TerminalProgress::new();
    let values = match first {
        Some(count) if args.plot.is_none() => Some(grundy::values(&game, count, &progress)?),
        _ => None,
    };
    let search = if want_period {
        let max_heap = max_heap.unwrap_or_else(|| grundy::default_max_heap(&game));
        let search = if args.no_closed_form {
            grundy::find_period_general(&game, max_heap, &progress)?
        } else {
            grundy::find_period(&game, max_heap, &progress)?
        };
        Some((search, max_heap))
    } else {
        None
    };
    if let (Some(path), Some((search, max_heap))) = (&args.plot, &search) {
        let values = crate::plot::grundy::sequence(&game, first, search, &progress)?;
        crate::plot::grundy::draw(path, &values, search, *max_heap)?;
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
            period_json(&mut object, search, *max_heap);
        }
        serde_json::to_writer(&mut out, &Value::Object(object))
            .map_err(|e| common::stdout_error(e.into()))?;
        writeln!(out).map_err(common::stdout_error)?;
    } else {
        if let Some(values) = &values {
            write_values(&mut out, values).map_err(common::stdout_error)?;
        }
        if let Some((search, max_heap)) = &search {
            write_period(&mut out, search, *max_heap).map_err(common::stdout_error)?;
        }
    }
    out.flush().map_err(common::stdout_error)
}

fn write_values(out: &mut impl Write, values: &[u32]) -> std::io::Result<()> {
    if values.is_empty() {
        return Ok(());
    }
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.write_all(b" ")?;
        }
        write!(out, "{v}")?;
    }
    writeln!(out)
}

/// The largest value: unbounded when the saltus is positive.
fn largest(search: &PeriodSearch) -> Option<u32> {
    match &search.certificate {
        Some(Certificate { saltus, .. }) if *saltus > 0 => None,
        _ => Some(search.max_value),
    }
}

fn write_period(out: &mut impl Write, search: &PeriodSearch, max_heap: u64) -> std::io::Result<()> {
    writeln!(out, "game          {}", search.game)?;
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
            writeln!(
                out,
                "period        none: subtract-a-square is never periodic (its losing positions are infinitely \
                 many but have density 0)"
            )?;
        }
        None => writeln!(
            out,
            "period        none found within {} (try a larger --max-heap)",
            crate::count::plural(max_heap, "heap size", "heap sizes")
        )?,
    }
    match (largest(search), &search.certificate) {
        (Some(max), _) => writeln!(out, "max value     {max}")?,
        (None, Some(c)) => {
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
        (None, None) => writeln!(out, "max value     unbounded")?,
    }
    match search.checked_upto {
        0 => writeln!(out, "computed      no values")?,
        n => writeln!(out, "computed      G(0) … G({})", n - 1)?,
    }
    if let Some(c) = &search.certificate {
        writeln!(out, "theorem       {}", c.theorem)?;
    }
    Ok(())
}

fn period_json(object: &mut serde_json::Map<String, Value>, search: &PeriodSearch, max_heap: u64) {
    let c = search.certificate.as_ref();
    object.insert("preperiod".into(), json!(c.map(|c| c.preperiod)));
    object.insert("period".into(), json!(c.map(|c| c.period)));
    object.insert("saltus".into(), json!(c.map(|c| c.saltus)));
    object.insert("last_exception".into(), json!(c.and_then(|c| c.preperiod.checked_sub(1))));
    object.insert("theorem".into(), json!(c.map(|c| c.theorem.to_string())));
    object.insert("theorem_id".into(), json!(c.map(|c| c.theorem.id())));
    object.insert("checked_upto".into(), json!(search.checked_upto));
    object.insert("max_heap".into(), json!(max_heap));
    object.insert("max_value".into(), json!(largest(search)));
    object.insert("max_value_computed".into(), json!(search.max_value));
    object.insert("never_periodic".into(), json!(search.never_periodic));
}
