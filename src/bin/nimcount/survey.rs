//! `nimcount survey`: every game of a family, normal and misère play.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use nimcount::misere;
use nimcount::progress::Progress;
use nimcount::survey::{self, Limits, Row, Summary, Survey};
use serde_json::{Value, json};

use crate::common::{self, Failure, Result, usage};
use crate::misere::limit;
use crate::output::Journal;

/// Arguments of `nimcount survey`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Patterns: octal:0.?? (each ? any octal digit; 0.???, 4.??, 0.?7? and the like), hex:0.?? (any
hexadecimal digit), subtract:{1..8} (every subtraction set within 1..8) and subtract:{1..8}:3
(those of three moves). Codes that are the same game (heap by heap the same game trees, up to a
shift of heap sizes: Winning Ways' first cousins, digits never usable) are reported once, with
the others listed as equal to it.

For each game: normal play (periodic, arithmetic-periodic or open, with preperiod, period,
saltus, largest value, values computed and the theorem that proves the period) and misère play
(the quotient's order, preperiod and period, \"tame\" when misère Nim's rule on the Grundy values
decides every position, or \"not found\" with what was reached). Games run in parallel.

--resume FILE keeps each finished game in FILE, one line each, appended whole: an interrupted
survey run again with the same FILE goes on where it stopped, and a finished one prints at
once.")]
pub struct Args {
    /// Families of games, e.g. octal:0.?? or subtract:{1..8}.
    #[arg(value_name = "PATTERN", required = true)]
    pub patterns: Vec<String>,

    /// Estimated seconds of each game's period search, and of its misère search [default: 10].
    #[arg(long, value_name = "S", allow_hyphen_values = true)]
    pub max_seconds_per_game: Option<String>,

    /// Join heaps up to N to each misère quotient [default: 1000].
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub max_heap: Option<String>,

    /// Stop a misère proof past N states [default: 200000].
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub max_states: Option<String>,

    /// Continue the period search of every open game to N values, and report how far it got.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub push: Option<String>,

    /// Keep each finished game in FILE; run again with it to continue.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,

    /// Print a JSON list, one object per game.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,

    /// Print CSV, one line per game.
    #[arg(long)]
    pub csv: bool,

    /// Draw the table into FILE.svg: where each game becomes periodic, and how far the open
    /// ones were computed.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,

    /// Spread the games over the processes of an MPI run (`mpirun -n P nimcount survey
    /// --distributed …`): each process surveys every P-th game, rank 0 prints the same output.
    #[arg(long)]
    pub distributed: bool,
}

/// Runs `nimcount survey` in one process.
pub fn run(args: Args) -> Result<()> {
    let survey = prepare(&args)?;
    let progress = common::TerminalProgress::new();
    let survey = survey.progress(&progress);
    let journal = open_journal(&args, &survey)?;
    let objects = share(&survey, journal.as_ref(), (0, 1))?;
    progress.finish();
    print(&args, &survey, objects, journal.map(|(_, kept)| kept).unwrap_or_default())
}

/// The survey the options ask for, its limits checked (and the picture's path), before any work.
pub fn prepare(args: &Args) -> Result<Survey<'static>> {
    let limits = limits_of(args)?;
    if let Some(path) = &args.plot {
        crate::plot::check_path(path)?;
    }
    let patterns: Vec<&str> = args.patterns.iter().map(String::as_str).collect();
    Survey::new(&patterns)?.limits(limits).map_err(|e| match e {
        e @ nimcount::Error::QuotientTooCostly { .. } => usage(format!(
            "{e} (--max-seconds-per-game raises the time of each game; a smaller --max-states lowers the estimate)"
        )),
        e => e.into(),
    })
}

/// The limits of each game, from the options.
fn limits_of(args: &Args) -> Result<Limits> {
    let mut limits = Limits::default();
    if let Some(text) = &args.max_seconds_per_game {
        let seconds: f64 = text.trim().parse().map_err(|_| {
            usage(format!(
                "--max-seconds-per-game: '{}' is not a number of seconds",
                nimcount::message::quote(text)
            ))
        })?;
        if !(seconds.is_finite() && seconds > 0.0 && seconds <= misere::MAX_SECONDS as f64) {
            return Err(usage(format!(
                "--max-seconds-per-game {seconds} is out of range (above 0, at most {})",
                misere::MAX_SECONDS
            )));
        }
        limits.seconds_per_game = seconds;
    }
    if let Some(n) = limit(&args.max_heap, "--max-heap", misere::MAX_HEAP)? {
        limits.misere.max_heap = n;
    }
    if let Some(n) = limit(&args.max_states, "--max-states", misere::MAX_STATES)? {
        limits.misere.max_states = n;
    }
    limits.push = limit(&args.push, "--push", survey::MAX_PUSH)?;
    Ok(limits)
}

/// The games a resume file keeps, by game.
pub type Kept = HashMap<String, Value>;

/// `--resume FILE`: the file, opened or created for this survey, and the games it keeps.
pub fn open_journal(args: &Args, survey: &Survey<'_>) -> Result<Option<(Journal, Kept)>> {
    let Some(path) = &args.resume else { return Ok(None) };
    let header =
        json!({"survey": args.patterns, "limits": limits_json(&survey.limits_of_each())}).to_string();
    let (journal, lines) = Journal::open(path, &header)?;
    let mut kept = Kept::new();
    for (i, line) in lines.iter().enumerate() {
        let object: Value =
            serde_json::from_str(line).map_err(|_| malformed(path, i + 2, "not a JSON line"))?;
        let game = object.get("game").and_then(Value::as_str).map(str::to_string);
        match game {
            Some(game) if survey.entries().iter().any(|e| e.game.spec() == game) => {
                kept.insert(game, object);
            }
            _ => return Err(malformed(path, i + 2, "a game this survey does not have")),
        }
    }
    Ok(Some((journal, kept)))
}

/// Surveys the games of process `rank` of `processes` (every `processes`-th game from the
/// `rank`-th) that the resume file does not keep, appending each to it as it finishes; the
/// objects of those games.
pub fn share(
    survey: &Survey<'_>,
    journal: Option<&(Journal, Kept)>,
    (rank, processes): (usize, usize),
) -> Result<Kept> {
    let index: HashMap<String, usize> =
        survey.entries().iter().enumerate().map(|(i, e)| (e.game.spec(), i)).collect();
    let fresh = Mutex::new(Kept::new());
    let failed = Mutex::new(None);
    let skip = |entry: &nimcount::survey::Entry| {
        let spec = entry.game.spec();
        index[&spec] % processes != rank || journal.is_some_and(|(_, kept)| kept.contains_key(&spec))
    };
    survey.run_each(&skip, &|row: Row| {
        let object = row_json(&row);
        if let Some((journal, _)) = journal
            && let Err(e) = journal.append(&object.to_string())
        {
            failed.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
        }
        fresh.lock().unwrap_or_else(|e| e.into_inner()).insert(row.game, object);
    })?;
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    Ok(fresh.into_inner().unwrap_or_else(|e| e.into_inner()))
}

/// Prints the survey (and draws its picture) from the objects of every game.
pub fn print(args: &Args, survey: &Survey<'_>, mut fresh: Kept, mut kept: Kept) -> Result<()> {
    let objects: Vec<Value> = survey
        .entries()
        .iter()
        .map(|e| {
            let spec = e.game.spec();
            fresh.remove(&spec).or_else(|| kept.remove(&spec)).expect("every game surveyed")
        })
        .collect();
    if let Some(path) = &args.plot {
        crate::plot::survey::draw(path, &objects, &args.patterns)?;
    }
    let mut out = common::stdout();
    let text = if args.json {
        serde_json::to_string_pretty(&objects).expect("JSON")
    } else if args.csv {
        csv(&objects)
    } else {
        markdown(&objects)
    };
    writeln!(out, "{text}").map_err(common::stdout_error)?;
    out.flush().map_err(common::stdout_error)
}

fn malformed(path: &std::path::Path, line: usize, reason: &str) -> Failure {
    Failure::Library(nimcount::Error::Malformed {
        path: path.display().to_string(),
        line,
        reason: format!("{reason} (not a file of this survey's --resume)"),
    })
}

/// The limits, as the header of a resume file records them.
fn limits_json(limits: &Limits) -> Value {
    let m = &limits.misere;
    json!({
        "seconds_per_game": limits.seconds_per_game,
        "max_heap": m.max_heap,
        "max_order": m.max_order,
        "max_states": m.max_states,
        "push": limits.push,
    })
}

/// One game as a JSON object.
pub fn row_json(row: &Row) -> Value {
    let search = &row.normal.search;
    let c = search.certificate.as_ref();
    let candidate = |s: &nimcount::grundy::PeriodSearch| {
        s.candidate.map(|c| json!({"preperiod": c.preperiod, "period": c.period, "needed": c.needed}))
    };
    let pushed = row.normal.pushed.as_ref().map(|p| {
        let c = p.certificate.as_ref();
        json!({
            "values": p.checked_upto,
            "largest_value": p.max_value,
            "preperiod": c.map(|c| c.preperiod),
            "period": c.map(|c| c.period),
            "candidate": candidate(p),
        })
    });
    let normal = json!({
        "status": row.normal.status.name(),
        "preperiod": c.map(|c| c.preperiod),
        "period": c.map(|c| c.period),
        "saltus": c.map(|c| c.saltus),
        "largest_value": (c.is_none_or(|c| c.saltus == 0)).then_some(search.max_value),
        "values": search.checked_upto,
        "theorem": c.map(|c| c.theorem.to_string()),
        "theorem_id": c.map(|c| c.theorem.id()),
        "never_periodic": search.never_periodic,
        "candidate": candidate(search),
        "pushed": pushed,
    });
    let q = row.misere.quotient.as_ref();
    let misere = json!({
        "status": row.misere.status.name(),
        "order": q.map(|q| q.order()),
        "preperiod": q.map(|q| q.preperiod()),
        "period": q.map(|q| q.period()),
        "theorem": q.map(|q| q.theorem().to_string()),
        "states_checked": q.map(|q| q.states_checked()),
        "reached": row.misere.reason,
    });
    json!({
        "game": row.game,
        "equal_to": row.equal_to.iter().map(|e| e.game.clone()).collect::<Vec<_>>(),
        "equal_shifts": row.equal_to.iter().map(|e| e.shift).collect::<Vec<_>>(),
        "equal_preperiods": row.equal_to.iter().map(|e| e.preperiod).collect::<Vec<_>>(),
        "normal": normal,
        "misere": misere,
        "seconds": (row.seconds * 1000.0).round() / 1000.0,
    })
}

/// A field of a game object as table text (`-` for null).
fn field(object: &Value, path: &[&str]) -> String {
    let mut v = object;
    for key in path {
        v = &v[*key];
    }
    match v {
        Value::Null => "-".into(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The codes equal to a game, with their shifts.
fn equal_text(object: &Value) -> String {
    let games = object["equal_to"].as_array().cloned().unwrap_or_default();
    let shifts = object["equal_shifts"].as_array().cloned().unwrap_or_default();
    let parts: Vec<String> = games
        .iter()
        .zip(shifts.iter().chain(std::iter::repeat(&Value::Null)))
        .map(|(g, s)| {
            let g = g.as_str().unwrap_or("?").split_once(':').map_or("?", |(_, c)| c).to_string();
            match s.as_i64() {
                Some(0) | None => g,
                Some(s) => format!("{g} ({s:+})"),
            }
        })
        .collect();
    if parts.is_empty() { "-".into() } else { parts.join(" ") }
}

const COLUMNS: [&str; 13] = [
    "game",
    "equal to",
    "normal",
    "preperiod",
    "period",
    "saltus",
    "largest",
    "values",
    "misère",
    "order",
    "m. preperiod",
    "m. period",
    "seconds",
];

fn cells(o: &Value) -> [String; 13] {
    [
        field(o, &["game"]),
        equal_text(o),
        field(o, &["normal", "status"]),
        field(o, &["normal", "preperiod"]),
        field(o, &["normal", "period"]),
        field(o, &["normal", "saltus"]),
        field(o, &["normal", "largest_value"]),
        field(o, &["normal", "values"]),
        field(o, &["misere", "status"]),
        field(o, &["misere", "order"]),
        field(o, &["misere", "preperiod"]),
        field(o, &["misere", "period"]),
        field(o, &["seconds"]),
    ]
}

/// The Markdown table, with the summary below it.
fn markdown(objects: &[Value]) -> String {
    let mut lines = vec![format!("| {} |", COLUMNS.join(" | "))];
    lines.push(format!("|{}", ":---|".repeat(COLUMNS.len())));
    for o in objects {
        lines.push(format!("| {} |", cells(o).join(" | ")));
    }
    lines.push(String::new());
    lines.push(summary_line(objects));
    lines.join("\n")
}

/// The counts of the survey in one line.
fn summary_line(objects: &[Value]) -> String {
    let count = |path: &[&str], value: &str| objects.iter().filter(|o| field(o, path) == value).count();
    let codes: usize = objects.iter().map(|o| 1 + o["equal_to"].as_array().map_or(0, Vec::len)).sum();
    let s = Summary {
        games: objects.len(),
        codes,
        periodic: count(&["normal", "status"], "periodic"),
        arithmetic: count(&["normal", "status"], "arithmetic"),
        open: count(&["normal", "status"], "open"),
        quotients: count(&["misere", "status"], "found") + count(&["misere", "status"], "tame"),
        tame: count(&["misere", "status"], "tame"),
    };
    format!(
        "{} games ({} codes): {} periodic, {} arithmetic-periodic, {} open; misère quotients found for {} ({} tame)",
        s.games, s.codes, s.periodic, s.arithmetic, s.open, s.quotients, s.tame
    )
}

/// The table as CSV (no field needs quoting but the list of equal codes, which has no comma).
fn csv(objects: &[Value]) -> String {
    let header: Vec<String> =
        COLUMNS.iter().map(|c| c.replace(' ', "_").replace('è', "e").replace('.', "")).collect();
    let mut lines = vec![header.join(",")];
    for o in objects {
        lines.push(cells(o).join(","));
    }
    lines.join("\n")
}
