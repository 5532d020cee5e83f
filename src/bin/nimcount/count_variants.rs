//! `nimcount count` for Moore's Nim-K (`--game moore:K`) and staircases (`--staircase`): the
//! options go into a [`Query`], which decides what it answers; this prints the answer.

use std::io::Write;
use std::time::Instant;

use nimcount::count::{Kind, Query, Source};
use nimcount::game::Game;
use nimcount::num_bigint::BigUint;
use nimcount::number;
use nimcount::play::Moore;
use serde_json::{Map, Value, json};

use crate::common::{Result, TerminalProgress, parse_sizes, plural, stdout, stdout_error, usage};

/// The options of `nimcount count` as given.
pub struct Request<'a> {
    pub game: Option<&'a str>,
    pub histogram: bool,
    pub sizes: Option<&'a str>,
    pub heaps: &'a str,
    pub modulus: Option<&'a str>,
    pub unordered: bool,
    pub distinct: bool,
    pub misere: bool,
    pub distribution: bool,
    pub probability: bool,
    pub json: bool,
    pub verbose: bool,
    pub max_heap: Option<&'a str>,
    pub max_work: bool,
    pub max_input: bool,
    pub staircase: bool,
}

/// Runs a count of Moore's Nim or of a staircase.
pub fn run(r: &Request) -> Result<()> {
    let start = Instant::now();
    let what =
        if r.staircase { "--staircase".to_string() } else { r.game.unwrap_or_default().trim().to_string() };
    let refuse = |option: &str, why: &str| Err(usage(format!("{option} with {what}: {why}")));
    if r.histogram {
        return refuse("--histogram", "give --game SPEC and --sizes LO..=HI");
    }
    if r.max_input {
        return refuse("--max-input", "it limits a histogram read from a stream");
    }
    if r.max_work {
        return refuse("--max-work", "these counts have limits of their own (see --help)");
    }
    let spec = r.game.ok_or_else(|| usage("--staircase needs --game SPEC"))?;
    let (lo, hi) = parse_sizes(r.sizes.unwrap_or_default())?;
    let heaps = number::parse(r.heaps)?;
    let modulus = r.modulus.map(number::parse).transpose()?;
    let max_heap = r.max_heap.map(number::parse_u64).transpose()?;
    let progress = TerminalProgress::new();
    // What the query may ask is the library's to decide: only the options go in.
    let moore = if Moore::names(spec) { Some(Moore::parse(spec)?) } else { None };
    let mut query = match &moore {
        Some(moore) => Query::moore(moore.k()),
        None => Query::new(Game::parse(spec)?),
    }
    .sizes(lo.clone(), hi.clone())
    .heaps(heaps.clone())
    .staircase(r.staircase)
    .kind(match (r.unordered, r.distinct) {
        (true, _) => Kind::Multiset,
        (_, true) => Kind::Set,
        _ => Kind::Ordered,
    })
    .misere(r.misere)
    .progress(&progress);
    if let Some(m) = &modulus {
        query = query.modulus(m.clone());
    }
    if let Some(max_heap) = max_heap {
        query = query.max_heap(max_heap);
    }
    if r.distribution {
        query.distribution()?;
    } else if r.probability {
        query.probability(false)?;
    }
    let c = query.count()?;
    let mut fields = Map::new();
    let mut lines: Vec<(&str, String)> = Vec::new();
    if let Some(moore) = moore {
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
                "digit by digit over {columns} binary columns: 1s per column modulo {}, heaps still equal to a bound's prefix as state",
                BigUint::from(moore.k()) + 1u32
            ),
        ));
    } else {
        let game = Game::parse(spec)?;
        let odd: BigUint = (&heaps + 1u32) >> 1;
        fields.insert("game".into(), json!(game.spec()));
        fields.insert("steps".into(), json!(heaps.to_string()));
        fields.insert("odd_steps".into(), json!(odd.to_string()));
        lines.push(("game", format!("{game} staircase (coins move one step down; only odd steps count)")));
        lines.push((
            "sizes",
            format!("{lo}..={hi} coins per step ({})", plural(&c.report.sizes, "size", "sizes")),
        ));
        lines.push((
            "steps",
            format!(
                "{heaps}, ordered, normal play: {} counted, {} free",
                plural(&odd, "odd step", "odd steps"),
                plural(&heaps - &odd, "even step", "even steps")
            ),
        ));
        let period = match &c.report.source {
            Source::Period { certificate, values_computed } => {
                lines.push((
                    "grundy",
                    format!(
                        "preperiod {}, period {}, saltus {}; values computed: {values_computed}",
                        certificate.preperiod, certificate.period, certificate.saltus
                    ),
                ));
                lines.push(("theorem", certificate.theorem.to_string()));
                json!({
                    "preperiod": certificate.preperiod,
                    "period": certificate.period,
                    "saltus": certificate.saltus,
                    "theorem": certificate.theorem.to_string(),
                })
            }
            Source::Values { values_computed } => {
                lines.push(("grundy", format!("computed directly (values computed: {values_computed})")));
                Value::Null
            }
            Source::ClosedForm { form } => {
                lines.push(("grundy", format!("closed form ({form}); no value computed")));
                Value::Null
            }
            _ => Value::Null,
        };
        fields.insert("period".into(), period);
    }
    let (losing, winning, total, sizes) = (c.losing, c.winning, c.total, c.report.sizes);
    drop(progress);
    let modulus_text = modulus.as_ref().map_or("none (exact)".to_string(), BigUint::to_string);
    lines.insert(3, ("modulus", modulus_text));
    let elapsed = start.elapsed().as_secs_f64() * 1e3;
    let mut out = stdout();
    if r.json {
        fields.insert("staircase".into(), json!(r.staircase));
        fields.insert("sizes".into(), json!({ "lo": lo.to_string(), "hi": hi.to_string() }));
        fields.insert("kind".into(), json!("ordered"));
        fields.insert("play".into(), json!("normal"));
        fields.insert("number_of_sizes".into(), json!(sizes.to_string()));
        fields.insert("losing".into(), json!(losing.to_string()));
        fields.insert("winning".into(), json!(winning.to_string()));
        fields.insert("total".into(), json!(total.to_string()));
        fields.insert("modulus".into(), modulus.map_or(Value::Null, |m| json!(m.to_string())));
        if r.verbose {
            fields.insert("elapsed_ms".into(), json!(elapsed));
        }
        writeln!(out, "{}", Value::Object(fields)).map_err(stdout_error)?;
    } else {
        lines.push(("losing", losing.to_string()));
        lines.push(("winning", winning.to_string()));
        lines.push(("total", total.to_string()));
        if r.verbose {
            lines.push(("time", format!("{elapsed:.3} ms in all")));
        }
        for (label, value) in lines {
            writeln!(out, "{label:<10} {value}").map_err(stdout_error)?;
        }
    }
    out.flush().map_err(stdout_error)
}
