//! `nimcount play`: who wins one position, and the winning moves.

use std::io::Write;

use nimcount::game::Game;
use nimcount::num_bigint::BigUint;
use nimcount::number;
use nimcount::play::{
    MISERE_MAX_POSITIONS, MiserePosition, MisereRule, Moore, Move, Position, Rules, Staircase, Verdict,
};
use nimcount::spec::Spec;
use serde_json::{Map, Value, json};

use crate::common::{self, Result, TerminalProgress, stdout, stdout_error, usage};

/// The most moves `--all` lists; more is refused before anything is printed.
const MAX_LISTED: usize = 100_000;

/// The most bits of a number written in full without `--full` (about 19 700 digits); larger
/// ones are written by their size.
const SHOWN_BITS: u64 = 1 << 16;

/// Arguments of `nimcount play`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Heaps are numbers of any size (10^30, 2^100+1) for nim, moore:K and nim staircases, for the
closed forms (subtract:a-b, lasker, fraction:1/2), and for every game once its period is proven,
splitting games included (--game kayles 10^18 7); the values are found as `count` finds them: a period search of about 30 s of estimated work, else the values up to the
largest heap computed directly when that takes at most about a minute (refused beforehand with
the estimate otherwise; --max-heap N computes up to N values instead).
A heap has at most 1048576 bits (about 315000 digits): larger ones are refused. Numbers of more
than 65536 bits (about 19700 digits) are written by their size, in the text and in JSON; --full
writes every digit.
Heaps are numbered from 1 in the text, from 0 in JSON.
A heap written GAME:HEAP belongs to GAME, the others to --game: a sum of different games,
judged by the XOR of each heap's value in its own game (octal:0.77:5 is a heap of 5 of
octal:0.77; the heap follows the last colon).
--misere judges any games: nim by its rule; positions whose heaps (and every smaller heap of
their games) have Grundy values 0 and 1 by the closed form (lost when the XOR is 1); others by a
search of every position reachable, refused beforehand when that may pass 1000000 positions,
20000000 moves or the memory available. --all states the exact number of winning moves (splits
counted by the values their parts reach) and lists the first 100000, within 256 MiB.
Examples:
  nimcount play 3 4 5
  nimcount play octal:0.77:5 nim:3 subtract:1,2:7
  nimcount play --game octal:0.07 --misere 5 4 3
  nimcount play --game moore:2 1 2 3 3
  nimcount play --misere 1 1 1
  nimcount play --game subtract:1-2 --staircase 4 1 3 --all")]
pub struct Args {
    /// The game: nim, subtract:1,3,4, allbut:1,2, octal:0.07, squares, moore:K (take from up to K
    /// heaps) [default: nim]. Refused when every heap names its own game (GAME:HEAP).
    #[arg(long, value_name = "SPEC")]
    game: Option<String>,
    /// The heaps (with --staircase: the coins on steps 1, 2, …); GAME:HEAP for a heap of
    /// another game than --game.
    #[arg(value_name = "HEAP", required = true, allow_negative_numbers = true)]
    heaps: Vec<String>,
    /// Misère play, any games: whoever makes the last move loses.
    #[arg(long)]
    misere: bool,
    /// Staircase: the heaps are steps 1, 2, …; a move takes coins one step down (step 0 collects
    /// them), as many as the game lets a move take from a heap.
    #[arg(long)]
    staircase: bool,
    /// List every winning move (the first 100000, under their exact number), not only one.
    #[arg(long)]
    all: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Write every digit of numbers of more than 65536 bits (otherwise written by their size).
    #[arg(long)]
    full: bool,
    /// The most Grundy values computed, G(0) … G(N-1) [default: as for `count`: by estimated time].
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    max_heap: Option<String>,
    /// With --misere: the misère quotients tried before the search stop when a proof passes N
    /// states (the construction at 5 N) and, given this, at order 2000 instead of 500, as `count
    /// --misere --max-states` (`--max-states 10^6` reaches Dawson's Kayles' heaps 0..=30)
    /// [default: 50000].
    #[arg(long, value_name = "N", allow_hyphen_values = true, requires = "misere")]
    max_states: Option<String>,
}

/// What is printed about a position.
struct Report {
    /// The game's specification, and how the text output describes it.
    spec: String,
    game: String,
    /// The game of each heap, when they differ.
    games: Option<Vec<String>>,
    all: bool,
    play: &'static str,
    staircase: bool,
    heaps: Vec<BigUint>,
    grundy: Option<Vec<BigUint>>,
    xor: Option<BigUint>,
    /// Extra lines of the text output, after the XOR.
    notes: Vec<(&'static str, String)>,
    /// Moore's Nim: the 1s per binary column, from the top.
    columns: Option<Vec<u64>>,
    verdict: Verdict,
    moves: Vec<Move>,
    /// How many winning moves there are (with --all).
    total: Total,
}

/// Runs `nimcount play`.
pub fn run(args: Args) -> Result<()> {
    let tagged = args.heaps.iter().map(|h| heap_of(h)).collect::<Result<Vec<(Option<&str>, BigUint)>>>()?;
    if tagged.iter().any(|(game, _)| game.is_some()) {
        let report = mixed(&args, tagged)?;
        return if args.json { print_json(&report, args.full) } else { print_text(&report, args.full) };
    }
    let heaps: Vec<BigUint> = tagged.into_iter().map(|(_, h)| h).collect();
    if args.staircase && args.misere {
        return Err(usage(
            "--staircase with --misere: misère staircases have no theory here; drop one of them",
        ));
    }
    let text = args.game.as_deref().unwrap_or(DEFAULT_GAME);
    let spec = if args.staircase { Spec::staircase(text)? } else { Spec::parse(text)? };
    let game = match spec {
        Spec::Moore(m) => {
            let report = moore(&args, m, heaps)?;
            return if args.json { print_json(&report, args.full) } else { print_text(&report, args.full) };
        }
        Spec::Staircase(game) => game,
        other => other.heap_game()?,
    };
    no_values_needed(&args, std::slice::from_ref(&game))?;
    let max_heap = args.max_heap.as_deref().map(number::parse_u64).transpose()?;
    // The values needed: every heap, and on a staircase every odd step plus the step above.
    let mut largest = heaps.iter().max().cloned().unwrap_or_default();
    if args.staircase {
        for pair in heaps.chunks(2).filter(|p| p.len() == 2) {
            largest = largest.max(&pair[0] + &pair[1]);
        }
    }
    let progress = TerminalProgress::new();
    let rules = Rules::for_game(&game, &largest, max_heap, &progress).map_err(|e| match e {
        nimcount::Error::HeapBeyondValues { limit, why, .. } if args.staircase => usage(format!(
            "this staircase of {game} needs Grundy values up to {} (an odd step together with the coins \
             the step above can send down), beyond those known (heaps below {limit}){why}",
            nimcount::error::quote(&largest.to_string())
        )),
        other => common::values_failure(other),
    })?;
    drop(progress);
    let report = if args.staircase {
        staircase(&args, &game, &rules, heaps)?
    } else {
        heap_game(&args, &game, &rules, heaps)?
    };
    if args.json { print_json(&report, args.full) } else { print_text(&report, args.full) }
}

/// How many winning moves a position has, as far as the library knows.
#[derive(Debug, Clone)]
enum Total {
    /// The moves listed are every one (up to [`MAX_LISTED`]).
    Listed,
    /// Exactly this many, counted without listing them.
    Exact(BigUint),
    /// Not every option is looked at (the splits of large heaps of Lasker's Nim).
    Partial,
}

impl Total {
    /// From a count the library made, `None` when it could not.
    fn counted(count: Option<BigUint>) -> Total {
        count.map_or(Total::Partial, Total::Exact)
    }
}

/// The first winning move, or all of them: with an exact count the first [`MAX_LISTED`],
/// otherwise refused beyond [`MAX_LISTED`]; refused beyond the bytes a list may take.
fn collect(moves: impl Iterator<Item = Move>, all: bool, total: &Total) -> Result<Vec<Move>> {
    if !all {
        return Ok(moves.take(1).collect());
    }
    let listed = nimcount::play::list_moves(moves, MAX_LISTED + 1).map_err(|err| match err {
        nimcount::Error::MovesTooLarge { .. } => usage(format!("{err}; drop --all for one")),
        other => other.into(),
    })?;
    if listed.len() > MAX_LISTED {
        if let Total::Exact(_) = total {
            return Ok(listed.into_iter().take(MAX_LISTED).collect());
        }
        return Err(usage(format!(
            "more than {MAX_LISTED} winning moves: too many to list; drop --all for one"
        )));
    }
    Ok(listed)
}

/// The game of the heaps that name none.
const DEFAULT_GAME: &str = "nim";

/// Refuses `--max-heap` when no game of the position needs Grundy values computed (nim's are
/// G(n) = n).
fn no_values_needed(args: &Args, games: &[Game]) -> Result<()> {
    if args.max_heap.is_some() && games.iter().all(|g| *g == Game::Nim) {
        return Err(usage("nim needs no Grundy values computed (G(n) = n): --max-heap does not apply"));
    }
    Ok(())
}

fn moore(args: &Args, moore: Moore, heaps: Vec<BigUint>) -> Result<Report> {
    if args.misere {
        return Err(usage(format!(
            "misère play is known exactly for nim only; refusing to guess for {}",
            moore.spec()
        )));
    }
    if args.max_heap.is_some() {
        return Err(usage(format!("{} needs no Grundy values: --max-heap does not apply", moore.spec())));
    }
    let verdict = moore.verdict(&heaps);
    let moves = if args.all {
        collect(moore.winning_moves(&heaps), true, &Total::Listed)?
    } else {
        moore.winning_move(&heaps).into_iter().collect()
    };
    let columns = Moore::column_ones(&heaps);
    let q = BigUint::from(moore.k()) + 1u32;
    let note = if columns.is_empty() {
        "none: every heap is empty".to_string()
    } else {
        let counts: Vec<String> = columns.iter().map(u64::to_string).collect();
        format!(
            "{} (1s per binary column, from bit {} down; lost when every count is a multiple of {q})",
            counts.join(" "),
            columns.len() - 1
        )
    };
    Ok(Report {
        spec: moore.spec(),
        game: format!(
            "{} (take from up to {} heap{})",
            moore.spec(),
            moore.k(),
            if moore.k() == 1 { "" } else { "s" }
        ),
        all: args.all,
        games: None,
        play: "normal",
        staircase: false,
        heaps,
        grundy: None,
        xor: None,
        notes: vec![("columns", note)],
        columns: Some(columns),
        verdict,
        moves,
        total: Total::Listed,
    })
}

/// A heap as given: `HEAP` (of --game) or `GAME:HEAP`, the heap after the last colon; refused
/// beyond [`nimcount::play::MAX_HEAP_BITS`].
fn heap_of(text: &str) -> Result<(Option<&str>, BigUint)> {
    let checked = |heap: BigUint| nimcount::play::check_heap(&heap).map(|()| heap);
    match number::parse(text) {
        Ok(heap) => Ok((None, checked(heap)?)),
        Err(err) => match text.rsplit_once(':') {
            Some((game, heap)) if !game.is_empty() => match number::parse(heap) {
                Ok(heap) => Ok((Some(game), checked(heap)?)),
                Err(_) => Err(usage(format!(
                    "heap '{}': a number of stones, or GAME:HEAP such as octal:0.77:5 (the heap after the last colon)",
                    nimcount::error::quote(text)
                ))),
            },
            _ => Err(err.into()),
        },
    }
}

/// Heaps of different games (`GAME:HEAP`, the others of --game): one position, normal or misère.
fn mixed(args: &Args, tagged: Vec<(Option<&str>, BigUint)>) -> Result<Report> {
    if args.staircase {
        return Err(usage("--staircase needs one game; GAME:HEAP heaps mix games"));
    }
    // --game is a specification whether or not a heap is of it.
    if let Some(game) = args.game.as_deref() {
        Spec::parse(game)?;
    }
    if let Some(game) = args.game.as_deref().filter(|_| tagged.iter().all(|(spec, _)| spec.is_some())) {
        return Err(usage(format!(
            "--game {}: no heap is of it, since every heap names its own game (GAME:HEAP); drop --game",
            nimcount::error::quote(game)
        )));
    }
    let mut specs: Vec<String> = Vec::new();
    let mut games: Vec<Game> = Vec::new();
    let mut largest: Vec<BigUint> = Vec::new();
    let mut of_heap: Vec<usize> = Vec::with_capacity(tagged.len());
    for (spec, heap) in &tagged {
        let game = Spec::part(spec.or(args.game.as_deref()).unwrap_or(DEFAULT_GAME))?;
        let index = games.iter().position(|g| *g == game).unwrap_or_else(|| {
            specs.push(game.spec());
            games.push(game);
            largest.push(BigUint::default());
            games.len() - 1
        });
        largest[index] = largest[index].clone().max(heap.clone());
        of_heap.push(index);
    }
    no_values_needed(args, &games)?;
    let max_heap = args.max_heap.as_deref().map(number::parse_u64).transpose()?;
    let progress = TerminalProgress::new();
    let rules = games
        .iter()
        .zip(&largest)
        .map(|(game, largest)| Rules::for_game(game, largest, max_heap, &progress))
        .collect::<nimcount::Result<Vec<Rules>>>()
        .map_err(common::values_failure)?;
    drop(progress);
    let pairs = || of_heap.iter().zip(&tagged).map(|(&g, (_, h))| (&rules[g], h.clone()));
    let heap_specs: Vec<String> = of_heap.iter().map(|&g| specs[g].clone()).collect();
    let mut report = if args.misere {
        misere(args, specs.join(" + "), pairs())?
    } else {
        let position = Position::mixed(&rules[of_heap[0]], pairs())?;
        let mut total = if args.all { Total::counted(position.winning_move_count()) } else { Total::Listed };
        let moves = collect(position.winning_moves(), args.all, &total)?;
        if position.verdict() == Verdict::Won && moves.is_empty() {
            total = Total::counted(position.winning_move_count());
        }
        Report {
            spec: specs.join(" + "),
            all: args.all,
            game: format!("a sum of games: {} (normal play)", specs.join(", ")),
            games: None,
            play: "normal",
            staircase: false,
            grundy: Some(position.grundy().to_vec()),
            xor: Some(position.xor().clone()),
            moves,
            total,
            heaps: position.heaps().to_vec(),
            notes: Vec::new(),
            columns: None,
            verdict: position.verdict(),
        }
    };
    report.games = Some(heap_specs);
    Ok(report)
}

/// A misère position of any games (not all Nim heaps: those keep their report of misère Nim).
fn misere<'r>(
    args: &Args,
    spec: String,
    heaps: impl Iterator<Item = (&'r Rules<'r>, BigUint)>,
) -> Result<Report> {
    let mut budget = nimcount::play::PLAY_BUDGET;
    if let Some(n) = crate::misere::limit(&args.max_states, "--max-states", nimcount::misere::MAX_STATES)? {
        budget.max_states = n;
        budget.max_order = nimcount::misere::Budget::default().max_order;
    }
    let position = MiserePosition::within(heaps, MISERE_MAX_POSITIONS, &budget)?;
    let rule = match position.rule() {
        MisereRule::Nim => "misère nim: lost when some heap has two stones or more and the XOR is 0, or when \
                           every heap has at most one stone and their number is odd"
            .to_string(),
        MisereRule::Binary => "every heap, and every smaller heap of its game, has Grundy value 0 or 1: lost when \
                               the XOR is 1 (an odd number of value-1 heaps); every move of a won position wins"
            .to_string(),
        MisereRule::Quotient { order, preperiod, period } => format!(
            "the game's misère quotient (order {order}; heaps periodic from {preperiod} with period \
             {period}; `nimcount misere` prints it): lost when the product of the heaps' elements lies \
             in its P-portion"
        ),
        MisereRule::PartialQuotient { order, largest_heap } => format!(
            "the misère quotient of the game's heaps 0..={largest_heap} (order {order}): lost when the \
             product of the heaps' elements lies in its P-portion"
        ),
        MisereRule::Search { positions } => format!(
            "no closed form applies: a search of the {positions} positions reachable (sorted multisets of heaps)"
        ),
    };
    let xor = position.grundy().map(|g| g.iter().fold(BigUint::default(), |x, v| x ^ v));
    let total = Total::counted(position.winning_move_count().cloned());
    Ok(Report {
        game: format!("{} (misère play: whoever makes the last move loses)", spec.replace(" + ", ", ")),
        spec,
        all: args.all,
        games: None,
        play: "misère",
        staircase: false,
        grundy: position.grundy().map(<[BigUint]>::to_vec),
        xor,
        heaps: position.heaps().to_vec(),
        notes: vec![("rule", rule)],
        columns: None,
        verdict: position.verdict(),
        moves: collect(position.winning_moves().iter().cloned(), args.all, &total)?,
        total,
    })
}

fn heap_game(args: &Args, game: &Game, rules: &Rules, heaps: Vec<BigUint>) -> Result<Report> {
    if args.misere && *game != Game::Nim {
        return misere(args, game.spec(), heaps.into_iter().map(|h| (rules, h)));
    }
    let position = if args.misere { Position::misere_nim(heaps) } else { Position::new(rules, heaps)? };
    let mut notes = Vec::new();
    if args.misere {
        let large = position.heaps().iter().any(|h| h.bits() >= 2);
        notes.push((
            "rule",
            if large {
                "a heap has two stones or more: lost when the XOR is 0; play as in normal play, but a \
                 move that leaves only 0- and 1-heaps must leave an odd number of 1-heaps"
                    .to_string()
            } else {
                "no heap has two stones: lost when the number of 1-heaps is odd".to_string()
            },
        ));
    }
    let won = position.verdict() == Verdict::Won;
    let mut total = if args.all { Total::counted(position.winning_move_count()) } else { Total::Listed };
    let moves = collect(position.winning_moves(), args.all, &total)?;
    if won && moves.is_empty() {
        total = Total::counted(position.winning_move_count());
    }
    Ok(Report {
        spec: game.spec(),
        all: args.all,
        games: None,
        game: format!(
            "{game} ({})",
            if args.misere { "misère play: whoever takes the last stone loses" } else { "normal play" }
        ),
        play: if args.misere { "misère" } else { "normal" },
        staircase: false,
        grundy: Some(position.grundy().to_vec()),
        xor: Some(position.xor().clone()),
        heaps: position.heaps().to_vec(),
        notes,
        columns: None,
        verdict: position.verdict(),
        moves,
        total,
    })
}

fn staircase(args: &Args, game: &Game, rules: &Rules, steps: Vec<BigUint>) -> Result<Report> {
    let stairs = Staircase::new(rules, steps)?;
    let moves = collect(stairs.winning_moves(), args.all, &Total::Listed)?;
    let n = stairs.steps().len();
    Ok(Report {
        spec: game.spec(),
        all: args.all,
        games: None,
        game: format!(
            "{game} staircase (steps 1 … {n}; coins move one step down, step 0 collects them; only odd steps count)"
        ),
        play: "normal",
        staircase: true,
        grundy: Some(stairs.grundy().to_vec()),
        xor: Some(stairs.xor().clone()),
        heaps: stairs.steps().to_vec(),
        notes: Vec::new(),
        columns: None,
        verdict: stairs.verdict(),
        moves,
        total: Total::Listed,
    })
}

/// A number as `play` writes it: every digit up to [`SHOWN_BITS`] bits or with `--full`, else by
/// its size.
fn shown(x: &BigUint, full: bool) -> String {
    if full || x.bits() <= SHOWN_BITS { x.to_string() } else { nimcount::message::short(x) }
}

fn joined(numbers: &[BigUint], full: bool) -> String {
    numbers.iter().map(|x| shown(x, full)).collect::<Vec<_>>().join(" ")
}

fn print_text(r: &Report, full: bool) -> Result<()> {
    let shown = |x: &BigUint| shown(x, full);
    let mut out = stdout();
    let mut line = |label: &str, value: &str| writeln!(out, "{label:<10} {value}").map_err(stdout_error);
    line("game", &r.game)?;
    line(if r.staircase { "steps" } else { "heaps" }, &joined(&r.heaps, full))?;
    if let Some(games) = &r.games {
        line("games", &games.join(" "))?;
    }
    if let Some(g) = &r.grundy {
        line("grundy", &joined(g, full))?;
    }
    if let Some(x) = &r.xor {
        line("xor", &if r.staircase { format!("{} (over the odd steps)", shown(x)) } else { shown(x) })?;
    }
    for (label, note) in &r.notes {
        line(label, note)?;
    }
    line("verdict", &format!("{} for the player to move", r.verdict))?;
    let describe =
        |m: &Move| if r.staircase { Staircase::describe_with(m, &shown) } else { m.describe(&shown) };
    match (r.verdict, r.moves.as_slice()) {
        (Verdict::Lost, _) => line("move", "none: every move leaves a position won for the opponent")?,
        (Verdict::Won, []) if matches!(r.total, Total::Partial) => {
            line("move", "none found: not every split of a large heap is looked at")?
        }
        (Verdict::Won, []) => line("move", "none needed: the opponent took the last stone")?,
        (Verdict::Won, [only]) if !r.all => line("move", &describe(only))?,
        (Verdict::Won, moves) => {
            let plural = |n: &BigUint| if *n == BigUint::from(1u8) { "" } else { "s" };
            let listed = BigUint::from(moves.len());
            let count = match &r.total {
                Total::Exact(total) if *total != listed => {
                    format!(
                        "{} winning move{} (the first {} listed)",
                        shown(total),
                        plural(total),
                        moves.len()
                    )
                }
                Total::Partial => format!(
                    "{listed} winning move{} found (not every split of a large heap is looked at)",
                    plural(&listed)
                ),
                _ => format!("{listed} winning move{}", plural(&listed)),
            };
            line("moves", &count)?;
            for m in moves {
                line("", &describe(m))?;
            }
        }
    }
    out.flush().map_err(stdout_error)
}

fn print_json(r: &Report, full: bool) -> Result<()> {
    let strings = |v: &[BigUint]| Value::Array(v.iter().map(|x| json!(shown(x, full))).collect());
    let moves: Vec<Value> = r
        .moves
        .iter()
        .map(|m| {
            Value::Array(
                m.changes
                    .iter()
                    .map(|c| json!({ "heap": c.heap, "from": shown(&c.from, full), "to": strings(&c.to) }))
                    .collect(),
            )
        })
        .collect();
    let mut fields = Map::new();
    fields.insert("game".into(), json!(r.spec));
    if let Some(games) = &r.games {
        fields.insert("games".into(), json!(games));
    }
    fields.insert("play".into(), json!(r.play));
    fields.insert("staircase".into(), json!(r.staircase));
    fields.insert("heaps".into(), strings(&r.heaps));
    fields.insert("grundy".into(), r.grundy.as_deref().map_or(Value::Null, strings));
    fields.insert("xor".into(), r.xor.as_ref().map_or(Value::Null, |x| json!(shown(x, full))));
    if let Some(columns) = &r.columns {
        fields.insert("columns".into(), json!(columns));
    }
    fields.insert("verdict".into(), json!(r.verdict.as_str()));
    fields.insert("moves".into(), Value::Array(moves));
    if r.all {
        let count = match &r.total {
            Total::Listed => json!(r.moves.len().to_string()),
            Total::Exact(total) => json!(shown(total, full)),
            Total::Partial => Value::Null,
        };
        fields.insert("move_count".into(), count);
    }
    let mut out = stdout();
    writeln!(out, "{}", Value::Object(fields)).map_err(stdout_error)?;
    out.flush().map_err(stdout_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The help states the limits the library and this file apply.
    #[test]
    fn the_help_names_the_limits() {
        let command = <Args as clap::Args>::augment_args(clap::Command::new("play"));
        let help = command.get_after_help().expect("an after-help").to_string();
        for limit in [
            nimcount::play::MAX_HEAP_BITS.to_string(),
            SHOWN_BITS.to_string(),
            MISERE_MAX_POSITIONS.to_string(),
            nimcount::play::MISERE_MAX_MOVES.to_string(),
            MAX_LISTED.to_string(),
            nimcount::error::Bytes(nimcount::play::MAX_LIST_BYTES).to_string().replace(".00", ""),
        ] {
            assert!(help.contains(&limit), "{limit} in {help}");
        }
    }
}
