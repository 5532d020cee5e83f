//! Surveys: every game of a family, normal and misère play, each line proven or marked open.
//!
//! A survey expands its patterns ([`games_of`]: `octal:0.??`, `hex:0.?`, `subtract:{1..8}`),
//! reports games that are the same game once ([`same`]: heap by heap the same game trees, up
//! to a shift of heap sizes, with the others listed as equal to it), and for each game runs
//!
//! - the **period search** of [`crate::grundy::Search`] within an estimated time per game:
//!   a period proven by a theorem (preperiod, period, saltus, the theorem), or "open" with how
//!   many values were computed;
//! - the **misère quotient** of [`crate::misere::Search`] within a budget: its order,
//!   preperiod and period with the theorem that proves them, "tame" when misère Nim's rule on
//!   the Grundy values decides every position ([`tame`]), or "not found" with what was reached;
//! - optionally ([`Limits::push`]) the period search of each open game continued to a given
//!   number of values.
//!
//! Games run in parallel on rayon's pool, each on one thread.
//!
//! ```
//! use nimcount::survey::{Limits, NormalStatus, Survey};
//!
//! let limits = Limits { seconds_per_game: 0.5, ..Limits::default() };
//! let rows = Survey::new(&["octal:0.?"])?.limits(limits)?.run()?;
//! // 0.0 (no move) … 0.7: eight codes, seven games: 0.2 is 0.3 with every heap one larger.
//! assert_eq!(rows.len(), 7);
//! let three = rows.iter().find(|r| r.game == "octal:0.3").unwrap();
//! assert_eq!(three.normal.status, NormalStatus::Periodic);
//! assert_eq!((three.equal_to[0].game.as_str(), three.equal_to[0].shift), ("octal:0.2", 1));
//! // Officers has no known period.
//! let officers = rows.iter().find(|r| r.game == "octal:0.6").unwrap();
//! assert_eq!(officers.normal.status, NormalStatus::Open);
//! # Ok::<(), nimcount::Error>(())
//! ```

mod pattern;
pub mod same;
pub mod tame;

use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::game::Game;
use crate::grundy::{self, Limit, PeriodSearch};
use crate::misere;
use crate::progress::{Progress, Silent};

pub use pattern::{MAX_GAMES, games_of};

/// The default estimated time of each game's period search, and of its misère search.
pub const DEFAULT_SECONDS_PER_GAME: f64 = 10.0;

/// The largest `push`: values of a continued period search.
pub const MAX_PUSH: u64 = grundy::MAX_HEAP;

/// How far each game is searched.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Estimated seconds of the period search ([`Limit::Seconds`]) and of the misère search
    /// ([`misere::Budget::max_seconds`], rounded up).
    pub seconds_per_game: f64,
    /// The misère search's other limits (see [`Limits::misere_budget`]).
    pub misere: misere::Budget,
    /// For the games left open: continue the period search to this many values.
    pub push: Option<u64>,
}

impl Default for Limits {
    /// [`DEFAULT_SECONDS_PER_GAME`], the default misère budget, no push.
    fn default() -> Self {
        Limits { seconds_per_game: DEFAULT_SECONDS_PER_GAME, misere: misere::Budget::default(), push: None }
    }
}

impl Limits {
    /// The misère budget of each game: `misere` with `max_seconds` the time per game (rounded
    /// up), and `max_states` halved until the search's estimate fits that time (a short time per
    /// game checks fewer states).
    pub fn misere_budget(&self) -> misere::Budget {
        let seconds = self.seconds_per_game.ceil().clamp(1.0, misere::MAX_SECONDS as f64) as u64;
        let mut budget = misere::Budget { max_seconds: seconds, ..self.misere };
        while misere::estimate(&budget).seconds > seconds as f64 && budget.max_states > 1000 {
            budget.max_states /= 2;
        }
        budget
    }
}

/// A game of the survey and the games equal to it.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The game reported.
    pub game: Game,
    /// The same game under another code.
    pub equal_to: Vec<Equal>,
}

/// A game that is the same game as a reported one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Equal {
    /// Its specification.
    pub game: String,
    /// Its heap `n + shift` is the reported game's heap `n`, for `n >= 1` (`shift >= 0`: the
    /// reported game has the fewest heaps without a move).
    pub shift: i64,
    /// Its heaps `1..=dead` have no move (value 0).
    pub dead: u64,
    /// Its own preperiod, from the reported game's values (filled in by the survey when the
    /// reported game is periodic).
    pub preperiod: Option<u64>,
}

/// What the period search proved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NormalStatus {
    /// `G(n + p) = G(n)` from the preperiod on.
    Periodic,
    /// `G(n + p) = G(n) + s`, `s > 0`, from the preperiod on.
    Arithmetic,
    /// No period proven within the limit.
    Open,
}

impl NormalStatus {
    /// `"periodic"`, `"arithmetic"` or `"open"`.
    pub fn name(self) -> &'static str {
        match self {
            NormalStatus::Periodic => "periodic",
            NormalStatus::Arithmetic => "arithmetic",
            NormalStatus::Open => "open",
        }
    }
}

/// Normal play of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Normal {
    /// Periodic, arithmetic-periodic or open.
    pub status: NormalStatus,
    /// The search: values, certificate, candidate.
    pub search: PeriodSearch,
    /// The continued search of an open game ([`Limits::push`]).
    pub pushed: Option<PeriodSearch>,
}

/// What the misère search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MisereStatus {
    /// A finite quotient, proven, that is not tame.
    Found,
    /// A tame quotient: misère Nim's rule on the Grundy values decides every position.
    Tame,
    /// No quotient within the budget (or none computed for this kind of game).
    NotFound,
}

impl MisereStatus {
    /// `"found"`, `"tame"` or `"not found"`.
    pub fn name(self) -> &'static str {
        match self {
            MisereStatus::Found => "found",
            MisereStatus::Tame => "tame",
            MisereStatus::NotFound => "not found",
        }
    }
}

/// Misère play of one game.
#[derive(Debug, Clone)]
pub struct Misere {
    /// Found, tame or not found.
    pub status: MisereStatus,
    /// The quotient, when found.
    pub quotient: Option<std::sync::Arc<misere::Quotient>>,
    /// Why none was found: what the search reached and the limit that stopped it.
    pub reason: Option<String>,
}

/// One line of a survey.
#[derive(Debug, Clone)]
pub struct Row {
    /// The game's specification.
    pub game: String,
    /// The same game under other codes.
    pub equal_to: Vec<Equal>,
    /// Normal play.
    pub normal: Normal,
    /// Misère play.
    pub misere: Misere,
    /// Seconds spent on the game (real time).
    pub seconds: f64,
}

/// How many games of a survey ended each way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games reported (equal games once).
    pub games: usize,
    /// Codes covered, equal ones included.
    pub codes: usize,
    /// Proven periodic.
    pub periodic: usize,
    /// Proven arithmetic-periodic.
    pub arithmetic: usize,
    /// Open.
    pub open: usize,
    /// Misère quotients found (tame ones included).
    pub quotients: usize,
    /// Of them, tame.
    pub tame: usize,
}

impl Summary {
    /// The counts of `rows`.
    pub fn of(rows: &[Row]) -> Summary {
        let mut s = Summary { games: rows.len(), ..Summary::default() };
        for row in rows {
            s.codes += 1 + row.equal_to.len();
            match row.normal.status {
                NormalStatus::Periodic => s.periodic += 1,
                NormalStatus::Arithmetic => s.arithmetic += 1,
                NormalStatus::Open => s.open += 1,
            }
            match row.misere.status {
                MisereStatus::Found => s.quotients += 1,
                MisereStatus::Tame => {
                    s.quotients += 1;
                    s.tame += 1;
                }
                MisereStatus::NotFound => {}
            }
        }
        s
    }
}

/// A survey of the games of some patterns.
pub struct Survey<'p> {
    entries: Vec<Entry>,
    limits: Limits,
    progress: &'p dyn Progress,
}

impl Survey<'static> {
    /// The games of `patterns` ([`games_of`]), each game once, equal games grouped.
    ///
    /// Fails on a pattern that names no family, or when the patterns name more than
    /// [`MAX_GAMES`] games together.
    pub fn new(patterns: &[&str]) -> Result<Survey<'static>> {
        if patterns.is_empty() {
            return Err(Error::InvalidPattern {
                pattern: String::new(),
                reason: "no pattern given, e.g. octal:0.??".into(),
            });
        }
        let mut games: Vec<Game> = Vec::new();
        let mut specs = std::collections::HashSet::new();
        for pattern in patterns {
            for game in games_of(pattern)? {
                if specs.insert(game.spec()) {
                    games.push(game);
                }
            }
            if games.len() > MAX_GAMES {
                return Err(Error::InvalidPattern {
                    pattern: crate::message::quote(pattern),
                    reason: format!("the patterns name more than {MAX_GAMES} games"),
                });
            }
        }
        Ok(Survey { entries: group(games), limits: Limits::default(), progress: &Silent })
    }
}

impl<'p> Survey<'p> {
    /// Within `limits`: refused when the misère budget's search is estimated beyond the time
    /// per game, when `seconds_per_game` or `push` is out of range, or when pushing a game on
    /// every thread at once needs more memory than is available.
    pub fn limits(mut self, limits: Limits) -> Result<Self> {
        let seconds = limits.seconds_per_game;
        if !(seconds.is_finite() && seconds > 0.0 && seconds <= misere::MAX_SECONDS as f64) {
            return Err(Error::InvalidNumber {
                input: seconds.to_string(),
                reason: format!("seconds per game must be above 0 and at most {}", misere::MAX_SECONDS),
            });
        }
        if let Some(n) = limits.push
            && !(1..=MAX_PUSH).contains(&n)
        {
            return Err(Error::InvalidNumber {
                input: n.to_string(),
                reason: format!("values to push to must be 1 to {MAX_PUSH}"),
            });
        }
        if let Some(n) = limits.push {
            // Each thread may push one game at a time.
            let threads = rayon::current_num_threads() as u64;
            let bytes = n.saturating_mul(grundy::search::BYTES_PER_HEAP).saturating_mul(threads);
            crate::memory::ensure_fits(
                || format!("pushing {threads} open games to {n} values at once"),
                bytes,
            )?;
        }
        if let Some(entry) = self.entries.first() {
            misere::admit(&entry.game, &limits.misere_budget())?;
        }
        self.limits = limits;
        Ok(self)
    }

    /// Reporting to `progress`: games done of all, open so far, the slowest game running.
    pub fn progress<'q>(self, progress: &'q dyn Progress) -> Survey<'q> {
        Survey { entries: self.entries, limits: self.limits, progress }
    }

    /// The games to survey, in the order of the patterns' codes.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The limits of each game.
    pub fn limits_of_each(&self) -> Limits {
        self.limits
    }

    /// Surveys every game, in parallel; the rows in the order of [`Survey::entries`].
    pub fn run(&self) -> Result<Vec<Row>> {
        let rows = Mutex::new(Vec::new());
        self.run_each(&|_| false, &|row| rows.lock().unwrap_or_else(|e| e.into_inner()).push(row))?;
        let mut rows = rows.into_inner().unwrap_or_else(|e| e.into_inner());
        let order: std::collections::HashMap<String, usize> =
            self.entries.iter().enumerate().map(|(i, e)| (e.game.spec(), i)).collect();
        rows.sort_by_key(|row| order[&row.game]);
        Ok(rows)
    }

    /// Surveys the games `skip` does not skip, in parallel, calling `done` with each row as
    /// its game finishes (in any order).
    pub fn run_each(
        &self,
        skip: &(dyn Fn(&Entry) -> bool + Sync),
        done: &(dyn Fn(Row) + Sync),
    ) -> Result<()> {
        let todo: Vec<&Entry> = self.entries.iter().filter(|e| !skip(e)).collect();
        let total = todo.len() as u64;
        self.progress.start("survey", total);
        let state = Mutex::new(Running::default());
        // A lock a stopping progress unwound through is still whole: only counts change in it.
        let lock = || state.lock().unwrap_or_else(|e| e.into_inner());
        let result = todo.par_iter().try_for_each(|entry| -> Result<()> {
            let pulse = Pulse { outer: self.progress, total };
            // A progress that stops the work stops here, before a game starts.
            pulse.set_position(0);
            let spec = entry.game.spec();
            lock().running.push((spec.clone(), Instant::now()));
            let row = game_with(entry, &self.limits, &pulse)?;
            let open = row.normal.status == NormalStatus::Open;
            done(row);
            let (position, message) = {
                let mut s = lock();
                s.running.retain(|(g, _)| *g != spec);
                s.done += 1;
                s.open += usize::from(open);
                let mut message = format!("{} open", s.open);
                if let Some((game, started)) = s.running.iter().min_by_key(|(_, t)| *t) {
                    message +=
                        &format!("; slowest running: {game} ({:.0} s)", started.elapsed().as_secs_f64());
                }
                (s.done, message)
            };
            self.progress.set_position(position);
            self.progress.message(&message);
            Ok(())
        });
        self.progress.finish();
        result
    }
}

/// Games done, open so far, and the games running with their start.
#[derive(Default)]
struct Running {
    done: u64,
    open: usize,
    running: Vec<(String, Instant)>,
}

/// The games grouped: one entry per game up to relabelling, the one with the fewest dead heaps
/// first (then the earliest code), with the others as equal to it.
fn group(games: Vec<Game>) -> Vec<Entry> {
    let mut interner = same::Interner::default();
    let shapes: Vec<same::Shape> = games.iter().map(|g| interner.shape(g)).collect();
    let mut groups: std::collections::HashMap<&[u32], Vec<usize>> = std::collections::HashMap::new();
    let mut order: Vec<&[u32]> = Vec::new();
    for (i, shape) in shapes.iter().enumerate() {
        let members = groups.entry(&shape.key).or_insert_with(|| {
            order.push(&shape.key);
            Vec::new()
        });
        members.push(i);
    }
    let mut entries: Vec<(usize, Entry)> = order
        .into_iter()
        .map(|key| {
            let members = &groups[key];
            let head = *members.iter().min_by_key(|&&i| (shapes[i].shift, i)).expect("a member");
            let equal_to = members
                .iter()
                .filter(|&&i| i != head)
                .map(|&i| Equal {
                    game: games[i].spec(),
                    shift: shapes[i].shift as i64 - shapes[head].shift as i64,
                    dead: shapes[i].shift,
                    preperiod: None,
                })
                .collect();
            (head, Entry { game: games[head].clone(), equal_to })
        })
        .collect();
    entries.sort_by_key(|(head, _)| *head);
    entries.into_iter().map(|(_, e)| e).collect()
}

/// What a game's searches report to the survey's progress: no positions of their own (the
/// survey's bar counts games), only that they are alive, so that a progress that stops the
/// work (a Ctrl-C in Python) is heard within a game; and its cancellation.
struct Pulse<'p> {
    outer: &'p dyn Progress,
    /// The survey's total, set again at each pulse (no change a user sees).
    total: u64,
}

impl Progress for Pulse<'_> {
    fn set_position(&self, _done: u64) {
        self.outer.set_total(self.total);
    }

    fn cancellation(&self) -> Option<std::sync::Arc<std::sync::atomic::AtomicBool>> {
        self.outer.cancellation()
    }
}

/// One game of a survey, alone.
pub fn survey_game(entry: &Entry, limits: &Limits) -> Result<Row> {
    game_with(entry, limits, &Silent)
}

/// One game of a survey, its searches reporting to `pulse`.
fn game_with(entry: &Entry, limits: &Limits, pulse: &dyn Progress) -> Result<Row> {
    let started = Instant::now();
    let game = &entry.game;
    let search = grundy::Search::new()
        .limit(Limit::Seconds(limits.seconds_per_game))
        .parallel(false)
        .progress(pulse)
        .run(game)?;
    let status = match &search.certificate {
        Some(c) if c.saltus == 0 => NormalStatus::Periodic,
        Some(_) => NormalStatus::Arithmetic,
        None => NormalStatus::Open,
    };
    let pushed = match limits.push {
        Some(n) if status == NormalStatus::Open && !search.never_periodic && n > search.checked_upto => {
            Some(grundy::Search::new().limit(Limit::Heaps(n)).parallel(false).progress(pulse).run(game)?)
        }
        _ => None,
    };
    let misere = misere_of(game, &search, limits, pulse)?;
    let mut equal_to = entry.equal_to.clone();
    for equal in &mut equal_to {
        equal.preperiod = preperiod_of(&search, equal);
    }
    Ok(Row {
        game: game.spec(),
        equal_to,
        normal: Normal { status, search, pushed },
        misere,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The preperiod of a game equal to a periodic one: its heaps `1..=dead` are 0, its heap
/// `n + shift` is the periodic game's heap `n`. From the first heap where both rules hold, the
/// preperiod is walked down while the values one period apart agree.
fn preperiod_of(search: &PeriodSearch, equal: &Equal) -> Option<u64> {
    let c = search.certificate.as_ref().filter(|c| c.saltus == 0)?;
    let shift = u64::try_from(equal.shift).ok()?;
    let value = |n: u64| -> Option<u128> {
        if n <= equal.dead { Some(0) } else { search.value(u128::from(n - shift)) }
    };
    let mut n0 = (c.preperiod + shift).max(equal.dead + 1);
    while n0 > 0 && value(n0 - 1)? == value(n0 - 1 + c.period)? {
        n0 -= 1;
    }
    Some(n0)
}

/// The misère search of one game.
fn misere_of(game: &Game, normal: &PeriodSearch, limits: &Limits, pulse: &dyn Progress) -> Result<Misere> {
    match misere::Search::new(game).budget(limits.misere_budget()).progress(pulse).run() {
        Ok(q) => {
            let status = match tame::is_tame(&q, normal) {
                Some(true) => MisereStatus::Tame,
                _ => MisereStatus::Found,
            };
            Ok(Misere { status, quotient: Some(q), reason: None })
        }
        Err(Error::QuotientNotFound { reason, .. }) => {
            Ok(Misere { status: MisereStatus::NotFound, quotient: None, reason: Some(reason) })
        }
        Err(e @ Error::QuotientTooCostly { .. }) => {
            Ok(Misere { status: MisereStatus::NotFound, quotient: None, reason: Some(e.to_string()) })
        }
        Err(e) => Err(e),
    }
}
