//! `nimcount misere`: the misère quotient of a heap game.

use std::io::Write;

use nimcount::Error;
use nimcount::misere::{self, Budget, Quotient};
use nimcount::progress::Progress;
use nimcount::spec::Spec;
use serde_json::{Value, json};

use crate::common::{self, Result};

/// Arguments of `nimcount misere`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Prints the misère quotient Q of the game (whoever makes the last move loses): its order, a
presentation (generators named a, b, c, … after the first heap whose element they are, and
relations), the P-portion (the elements of positions lost for the player to move), and the
element of every heap up to the preperiod plus one period, with the theorem that proves the
period for every heap size. A position is lost exactly when the product of its heaps' elements
lies in the P-portion.

Quotients are computed for octal games and finite subtraction games. \"No misère quotient
found\" (order null in JSON) is an answer, with exit code 0 and the limit that stopped the
search: the quotient may be infinite, or larger than the limits.")]
pub struct Args {
    /// The game, e.g. octal:0.75 or subtract:1,2.
    #[arg(long, value_name = "SPEC")]
    game: String,

    /// Join heaps up to N to the quotient [default: 1000]; given, and no quotient of every heap
    /// size found, the quotient of the heaps 0..=N is printed instead (it judges every position
    /// of those heaps, and says nothing of larger ones).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    max_heap: Option<String>,

    /// Stop when a quotient along the way passes order N [default: 2000].
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    max_order: Option<String>,

    /// Stop when the proof of a candidate passes N states [default: 200000].
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    max_states: Option<String>,

    /// Stop when the search passes SECONDS of estimated time (its model: one core of a 2-core
    /// Xeon, the same heap on every machine); limits whose search is estimated beyond it are
    /// refused at once [default: 60].
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true)]
    max_seconds: Option<String>,

    /// Print the multiplication table too.
    #[arg(long)]
    table: bool,

    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `nimcount misere`.
pub fn run(args: Args) -> Result<()> {
    let number = limit;
    let mut budget = Budget::default();
    if let Some(n) = number(&args.max_heap, "--max-heap", misere::MAX_HEAP)? {
        budget.max_heap = n;
    }
    if let Some(n) = number(&args.max_order, "--max-order", misere::MAX_ORDER as u64)? {
        budget.max_order = n as usize;
    }
    if let Some(n) = number(&args.max_states, "--max-states", misere::MAX_STATES)? {
        budget.max_states = n;
    }
    if let Some(n) = number(&args.max_seconds, "--max-seconds", misere::MAX_SECONDS)? {
        budget.max_seconds = n;
    }
    let game = Spec::parse(&args.game)?.heap_game()?;
    let progress = common::TerminalProgress::new();
    let not_found = |reason: String, limit: Option<&str>| match searches_further(limit) {
        Some(flag) => format!("{reason} ({flag} searches further)"),
        None => reason,
    };
    // The quotient of every heap size; with --max-heap N, else the quotient of the heaps 0..=N.
    let search = misere::Search::new(&game).budget(budget).progress(&progress);
    let found = match search.run() {
        Ok(q) => Ok((q, None)),
        Err(Error::QuotientNotFound { reason, limit, .. }) if args.max_heap.is_some() => {
            let every = not_found(reason, limit);
            match search.heaps(budget.max_heap).run() {
                Ok(q) => Ok((q, Some(every))),
                Err(Error::QuotientNotFound { reason, limit, .. }) => Err(format!(
                    "{every}; the quotient of the heaps 0..={}: {}",
                    budget.max_heap,
                    not_found(reason, limit)
                )),
                Err(e @ Error::QuotientTooCostly { .. }) => return Err(too_costly(e)),
                Err(e) => return Err(e.into()),
            }
        }
        Err(Error::QuotientNotFound { reason, limit, .. }) => Err(not_found(reason, limit)),
        Err(e @ Error::QuotientTooCostly { .. }) => return Err(too_costly(e)),
        Err(e) => return Err(e.into()),
    };
    progress.finish();
    let mut out = common::stdout();
    let text = match &found {
        Ok((q, every)) if args.json => json_of(q, args.table, every.as_deref()).to_string(),
        Ok((q, every)) => describe(q, args.table, every.as_deref()),
        Err(reason) if args.json => json!({"game": game.spec(), "order": null, "reason": reason}).to_string(),
        Err(reason) => format!("game: {}\nno misère quotient found: {reason}", game.spec()),
    };
    writeln!(out, "{text}").map_err(common::stdout_error)?;
    out.flush().map_err(common::stdout_error)
}

/// A limit of the quotient's search, `--NAME N` with `1 <= N <= most`.
pub fn limit(flag: &Option<String>, name: &str, most: u64) -> Result<Option<u64>> {
    let Some(text) = flag else { return Ok(None) };
    let n = nimcount::number::parse_u64(text).map_err(|e| common::usage(format!("{name}: {e}")))?;
    if n == 0 || n > most {
        return Err(common::usage(format!("{name} {n} is out of range (1 to {most})")));
    }
    Ok(Some(n))
}

/// The option of `nimcount misere` that raises the limit a search stopped at.
pub fn searches_further(limit: Option<&str>) -> Option<&'static str> {
    match limit? {
        "max_heap" => Some("--max-heap"),
        "max_order" => Some("--max-order"),
        "max_states" => Some("--max-states"),
        "max_seconds" => Some("--max-seconds"),
        _ => None,
    }
}

/// The refusal of a search estimated beyond its time, with the options that change it.
pub fn too_costly(err: Error) -> common::Failure {
    common::usage(format!(
        "{err} (--max-seconds raises the limit; a smaller --max-states lowers the estimate)"
    ))
}

/// The quotient in words; `every`: why no quotient of every heap size was found, for the
/// quotient of the heaps `0..=n`.
fn describe(q: &Quotient, table: bool, every: Option<&str>) -> String {
    let p = q.presentation();
    let mut lines = vec![format!("game: {}", q.game())];
    if let (Some(n), Some(reason)) = (q.largest_heap(), every) {
        lines.push(format!("no misère quotient of every heap size found: {reason}"));
        lines.push(format!("the quotient of the heaps 0..={n}:"));
    }
    lines.push(format!("order: {}", q.order()));
    let gens: Vec<String> = p.generators.iter().map(|(name, heap)| format!("{name} (heap {heap})")).collect();
    lines.push(format!("generators: {}", gens.join(", ")));
    let relations: Vec<String> =
        p.relations.iter().map(|(l, r)| format!("{} = {}", p.word(l), p.word(r))).collect();
    lines.push(format!("relations: {}", relations.join(", ")));
    let elements: Vec<String> = (0..q.order()).map(|a| p.element(a)).collect();
    lines.push(format!("elements: {}", elements.join(", ")));
    let lost: Vec<String> = q.p_portion().into_iter().map(|a| p.element(a)).collect();
    lines.push(format!("P-portion: {}", lost.join(", ")));
    let heaps: Vec<String> =
        q.images().iter().enumerate().map(|(n, &a)| format!("{n}:{}", p.element(a as usize))).collect();
    lines.push(format!("heaps: {}", heaps.join(" ")));
    match q.largest_heap() {
        Some(n) => lines.push(format!("period: none (the heaps 0..={n} only; no heap above {n} is known)")),
        None => lines.push(format!(
            "preperiod: {}, period: {} (heap n >= {} has the element of heap n - {})",
            q.preperiod(),
            q.period(),
            q.preperiod() + q.period(),
            q.period()
        )),
    }
    lines.push(format!("theorem: {}", q.theorem()));
    lines.push(format!("proof: {} states checked", q.states_checked()));
    if table {
        lines.push("table:".into());
        for a in 0..q.order() {
            let row: Vec<String> = (0..q.order()).map(|b| p.element(q.mul(a, b))).collect();
            lines.push(format!("  {} · [{}]", p.element(a), row.join(", ")));
        }
    }
    lines.join("\n")
}

/// The quotient as one JSON object: elements by their normal forms, and by number in the table.
/// The quotient of the heaps `0..=n` has `largest_heap` n and `reason`, why no quotient of every
/// heap size was found (`every`).
fn json_of(q: &Quotient, table: bool, every: Option<&str>) -> Value {
    let p = q.presentation();
    let mut object = serde_json::Map::new();
    object.insert("game".into(), json!(q.game()));
    object.insert("order".into(), json!(q.order()));
    object.insert("largest_heap".into(), json!(q.largest_heap()));
    if let Some(reason) = every {
        object.insert("reason".into(), json!(reason));
    }
    let gens: Vec<Value> =
        p.generators.iter().map(|(name, heap)| json!({"name": name, "heap": heap})).collect();
    object.insert("generators".into(), json!(gens));
    let relations: Vec<Value> = p.relations.iter().map(|(l, r)| json!([p.word(l), p.word(r)])).collect();
    object.insert("relations".into(), json!(relations));
    let elements: Vec<String> = (0..q.order()).map(|a| p.element(a)).collect();
    object.insert("elements".into(), json!(elements));
    object.insert("p_portion".into(), json!(q.p_portion()));
    object.insert("heaps".into(), json!(q.images()));
    object.insert("preperiod".into(), json!(q.preperiod()));
    object.insert("period".into(), json!(q.period()));
    object.insert("theorem".into(), json!(q.theorem().to_string()));
    object.insert("theorem_id".into(), json!(q.theorem().name()));
    object.insert("states_checked".into(), json!(q.states_checked()));
    if table {
        let rows: Vec<Vec<usize>> =
            (0..q.order()).map(|a| (0..q.order()).map(|b| q.mul(a, b)).collect()).collect();
        object.insert("table".into(), json!(rows));
    }
    Value::Object(object)
}
