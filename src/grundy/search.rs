//! The period search: values computed in growing prefixes, a certificate tried at each
//! checkpoint, within a limit of values or of estimated time, with progress reported as it
//! goes.
//!
//! Checkpoints double the prefix while the Z-function can afford to certify it (up to
//! [`Z_LIMIT`] values); beyond, they come every eighth, the candidate shifts of
//! [`super::shifts`] are tracked value by value, and a candidate sets the next checkpoint to
//! exactly where its theorem window ends — so a search stops as soon as the certificate's
//! window is covered, not at the next power of two.

use std::time::{Duration, Instant};

use super::cost::{self, Budget, Estimate, Stop};
use super::engine::Engine;
use super::resolve::{Resolved, resolve};
use super::shifts::{self, Shift};
use super::store::{Store, Value, with_values};
use super::{Certificate, MAX_HEAP, PeriodSearch, Theorem, certify_store, period};
use crate::error::Result;
use crate::game::{Game, HeapGame};
use crate::progress::{Progress, Silent};

/// The default limit of a period search: about 30 s of estimated computation.
pub const DEFAULT_SECONDS: f64 = 30.0;

/// Values a search computes, at most, for a game whose period no theorem can prove (only to
/// report them): 2^16.
pub const INFORMATIVE_VALUES: u64 = 1 << 16;

/// Prefixes certified by the Z-function (four bytes per value beside the values); longer ones
/// by candidate shifts.
const Z_LIMIT: usize = 1 << 23;

/// How far a period search may go.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Limit {
    /// At most this many values: `G(0)` … `G(n − 1)`.
    Heaps(u64),
    /// Until the estimated time of the computation reaches this many seconds on the reference
    /// machine (one core of a 2-core AMD EPYC, Zen 3; see [`Estimate`]), and at most as many
    /// values as fit in an eighth of the memory available. The estimate counts the engines'
    /// inner steps, so the same search stops at the same heap on every machine. Two clocks,
    /// checked about every second, catch an estimate that is off: the CPU time of the thread
    /// stops the search at 1.2 times this long plus a second (a game the model misjudges), the
    /// real time at twice as long plus 10 s (a machine too busy to give the search a core); the
    /// search then says so ([`PeriodSearch::stopped_by_clock`]).
    Seconds(f64),
}

impl Default for Limit {
    /// [`DEFAULT_SECONDS`] of estimated computation.
    fn default() -> Self {
        Limit::Seconds(DEFAULT_SECONDS)
    }
}

/// A period search, set up step by step and run on any [`HeapGame`].
///
/// ```
/// use nimcount::game::Game;
/// use nimcount::grundy::{Limit, Search};
///
/// let kayles = Game::parse("octal:0.77")?;
/// let search = Search::new().limit(Limit::default()).run(&kayles)?;
/// let c = search.certificate.expect("Kayles is periodic");
/// assert_eq!((c.preperiod, c.period), (71, 12));
///
/// // An open game within 3000 heaps: no period, and what to try next.
/// let officers = Game::parse("octal:0.6")?;
/// let search = Search::new().limit(Limit::Heaps(3000)).run(&officers)?;
/// assert!(search.certificate.is_none() && search.suggestion.is_some());
/// # Ok::<(), nimcount::Error>(())
/// ```
pub struct Search<'p> {
    limit: Limit,
    closed_forms: bool,
    progress: &'p dyn Progress,
    z_limit: usize,
    parallel: bool,
}

impl Default for Search<'static> {
    fn default() -> Self {
        Search::new()
    }
}

impl Search<'static> {
    /// The default search: [`Limit::default`], closed forms, no progress reports.
    pub fn new() -> Self {
        Search {
            limit: Limit::default(),
            closed_forms: true,
            progress: &Silent,
            z_limit: Z_LIMIT,
            parallel: true,
        }
    }
}

impl<'p> Search<'p> {
    /// How far the search may go.
    pub fn limit(mut self, limit: Limit) -> Self {
        self.limit = limit;
        self
    }

    /// `false`: no closed form — every value comes from a mex and every certificate from a
    /// window theorem (slower; for cross-checks).
    pub fn closed_forms(mut self, closed_forms: bool) -> Self {
        self.closed_forms = closed_forms;
        self
    }

    /// Reports progress to `progress`: the estimated work as position and total, and a
    /// message with the values computed, values per second, the largest value and the current
    /// candidate period.
    pub fn progress<'q>(self, progress: &'q dyn Progress) -> Search<'q> {
        Search {
            limit: self.limit,
            closed_forms: self.closed_forms,
            progress,
            z_limit: self.z_limit,
            parallel: self.parallel,
        }
    }

    /// `false`: every step on the calling thread, no rayon call (by default the block method's
    /// gathers use rayon's pool).
    pub fn parallel(mut self, parallel: bool) -> Self {
        self.parallel = parallel;
        self
    }

    /// Certifies prefixes longer than `values` by candidate shifts (tests of that path).
    #[doc(hidden)]
    pub fn z_limit(mut self, values: usize) -> Self {
        self.z_limit = values;
        self
    }

    /// Runs the search on `game`.
    ///
    /// Fails when a [`Limit::Heaps`] is beyond [`MAX_HEAP`] or the memory available (checked
    /// before allocating), or when `game` declares a structure its options contradict.
    pub fn run(&self, game: &dyn HeapGame) -> Result<PeriodSearch> {
        let resolved = resolve(game)?;
        let mut run = Run::new(self, game.name(), &resolved)?;
        if let Some(search) = run.closed_form(&resolved) {
            return Ok(search);
        }
        let result =
            if resolved.may_be_periodic() { run.search(&resolved) } else { run.values_only(&resolved) };
        self.progress.finish();
        result
    }
}

/// Bytes per heap a search may hold: the store (at most 4), the values returned (4), the
/// Z-function's arrays on short prefixes (amortised).
pub(crate) const BYTES_PER_HEAP: u64 = 12;

/// One search in progress.
struct Run<'s, 'p> {
    search: &'s Search<'p>,
    name: String,
    /// The most values this search may compute.
    cap: u64,
    /// Estimated work of the certifications so far (ns).
    certify_work: f64,
    started: Instant,
    /// (time, values) at the last rate measurement, and the rate then.
    rate_mark: (Instant, u64),
    rate: f64,
    /// Values computed at the time `timeline[i].0`, for the final estimate.
    timeline: Vec<(Duration, u64)>,
    max_value: u32,
    max_scanned: usize,
    /// The position last reported to the progress.
    reported: u64,
}

impl<'s, 'p> Run<'s, 'p> {
    fn new(search: &'s Search<'p>, name: String, resolved: &Resolved<'_>) -> Result<Self> {
        let cap = match search.limit {
            Limit::Heaps(n) => {
                super::check_heaps(n, bytes_per_heap(resolved), "period search")?;
                n
            }
            Limit::Seconds(_) => {
                let available = crate::memory::available().unwrap_or(1 << 32);
                (available / 8 / bytes_per_heap(resolved)).min(MAX_HEAP)
            }
        };
        let now = Instant::now();
        Ok(Run {
            search,
            name,
            cap,
            certify_work: 0.0,
            started: now,
            rate_mark: (now, 0),
            rate: 0.0,
            timeline: Vec::new(),
            max_value: 0,
            max_scanned: 0,
            reported: 0,
        })
    }

    fn done(&self, store: &Store, certificate: Option<Certificate>, resolved: &Resolved<'_>) -> PeriodSearch {
        let checked = store.len();
        let keep = certificate.as_ref().map_or(checked, |c| ((c.preperiod + c.period) as usize).min(checked));
        let max_value = store.max();
        PeriodSearch {
            game: self.name.clone(),
            values: store.to_u32(keep),
            max_value,
            certificate,
            checked_upto: checked as u64,
            never_periodic: matches!(
                resolved,
                Resolved::Game(Game::Squares | Game::Fraction { numerator: 1, denominator: 2 })
            ),
            candidate: None,
            suggestion: None,
            stopped_by_clock: false,
        }
    }

    /// Nim, Lasker's Nim and one-interval subtraction sets: the certificate whatever the limit, with the
    /// period's values when the limit allows them.
    fn closed_form(&mut self, resolved: &Resolved<'_>) -> Option<PeriodSearch> {
        let (certificate, period_len) = match resolved {
            Resolved::Game(Game::Nim) => {
                (Certificate { preperiod: 0, period: 1, saltus: 1, theorem: Theorem::Nim }, 1)
            }
            // G(0) and one period G(1..=4): five values.
            Resolved::Game(Game::Lasker) => {
                (Certificate { preperiod: 1, period: 4, saltus: 4, theorem: Theorem::Lasker }, 5)
            }
            Resolved::Game(Game::Subtract(moves)) if self.search.closed_forms && moves.runs().len() == 1 => {
                let (a, b) = (moves.smallest(), moves.largest());
                let theorem = Theorem::SubtractionInterval { first: a, last: b };
                (Certificate { preperiod: 0, period: a + b, saltus: 0, theorem }, a + b)
            }
            _ => return None,
        };
        let count = match self.search.limit {
            Limit::Heaps(n) => n.min(period_len),
            // A few values to show; G(n) follows from the form.
            Limit::Seconds(_) => period_len.min(INFORMATIVE_VALUES),
        };
        let mut engine = Engine::new(resolved, true);
        let mut store = engine.store();
        if engine.extend(&mut store, count as usize).is_err() {
            unreachable!("closed forms do not fail");
        }
        let mut search = self.done(&store, Some(certificate.clone()), resolved);
        search.max_value = match &certificate.theorem {
            // floor((n mod (a + b)) / a) is largest at n = a + b − 1.
            Theorem::SubtractionInterval { first: a, last: b } => {
                ((a + b - 1) / a).min(u64::from(u32::MAX)) as u32
            }
            _ => search.max_value,
        };
        Some(search)
    }

    /// Games no theorem covers: values only (a few, by default).
    fn values_only(&mut self, resolved: &Resolved<'_>) -> Result<PeriodSearch> {
        let count = match self.search.limit {
            Limit::Heaps(n) => n,
            Limit::Seconds(_) => INFORMATIVE_VALUES,
        };
        let mut engine = Engine::new(resolved, self.search.closed_forms).parallel(self.search.parallel);
        let mut store = engine.store();
        let budget = self.budget();
        let mut stop = None;
        self.search.progress.start("Grundy values", count);
        while (store.len() as u64) < count && stop.is_none() {
            let at = store.len() as u64;
            let next = (at + chunk(at)).min(count);
            let progress = self.search.progress;
            engine.extend_pulsed(&mut store, next as usize, &mut || {
                progress.set_position(at);
                budget.is_some_and(|b| b.clock_stop())
            })?;
            self.search.progress.set_position(store.len() as u64);
            stop = budget.and_then(|b| b.stop(engine.work(store.len() as u64)));
        }
        let mut search = self.done(&store, None, resolved);
        search.stopped_by_clock = stop == Some(Stop::Clock);
        Ok(search)
    }

    /// The search proper.
    fn search(&mut self, resolved: &Resolved<'_>) -> Result<PeriodSearch> {
        let Resolved::Game(game) = resolved else { unreachable!("only built-in games may be periodic") };
        let theorem = theorem_of(game);
        let mut engine = Engine::new(resolved, self.search.closed_forms).parallel(self.search.parallel);
        let mut store = engine.store();
        let budget = self.budget();
        let progress = self.search.progress;
        progress.start("period search", budget.map_or(0, |b| b.ns as u64));
        let mut next_check = first_checkpoint(game).min(self.cap);
        let mut tracked: Option<Shift> = None;
        let mut last_scan = 0u64;
        let mut stop: Option<Stop> = None;
        // Once values come slowly (a chunk took over half a second), chunks of about a second,
        // so that the budget is checked that often.
        let mut per_second: Option<u64> = None;
        loop {
            while (store.len() as u64) < next_check && stop.is_none() {
                let n = store.len() as u64;
                let step = per_second.map_or(chunk(n), |r| r.clamp(1, chunk(n)));
                let started = Instant::now();
                // Inside a chunk (one value may cost seconds), the clocks and a cancelling
                // progress act at every pulse.
                let at = self.reported;
                engine.extend_pulsed(&mut store, (n + step).min(next_check) as usize, &mut || {
                    progress.set_position(at);
                    budget.is_some_and(|b| b.clock_stop())
                })?;
                let (done, seconds) = (store.len() as u64 - n, started.elapsed().as_secs_f64());
                if per_second.is_some() || seconds > 0.5 {
                    per_second = Some((done as f64 / seconds.max(1e-3)) as u64);
                }
                let work = engine.work(store.len() as u64) + self.certify_work;
                stop = budget.and_then(|b| b.stop(work));
                self.report(&store, work, &engine, budget.map(|b| b.ns), tracked.as_ref(), theorem.as_ref());
            }
            let n = store.len() as u64;
            // Certify the prefix.
            let beyond_z = theorem.as_ref().filter(|_| store.len() > self.search.z_limit);
            let certificate = if let Some(theorem) = beyond_z {
                if let Some(shift) = &mut tracked {
                    with_values!(&store, v => shift.update(v));
                }
                let stale = tracked.is_none_or(|s| needed(theorem, &s) > n + n / 2);
                if stale && n >= last_scan + last_scan / 8 {
                    let (found, work) = with_values!(&store, v => shifts::shifts(v));
                    self.certify_work += work as f64;
                    last_scan = n;
                    if let Some(best) = found.into_iter().min_by_key(|s| needed(theorem, s))
                        && tracked.is_none_or(|t| needed(theorem, &best) < needed(theorem, &t))
                    {
                        tracked = Some(best);
                    }
                }
                tracked.filter(|s| needed(theorem, s) <= n).map(|s| {
                    let (preperiod, period) = with_values!(&store, v => minimise_store(v, s.tail, s.period));
                    Certificate { preperiod, period, saltus: 0, theorem: theorem.clone() }
                })
            } else {
                self.certify_work += cost::CERTIFY_NS * n as f64;
                certify_store(game, &store)
            };
            if let Some(certificate) = certificate {
                return Ok(self.done(&store, Some(certificate), resolved));
            }
            if n >= self.cap || stop.is_some() {
                let mut search = self.done(&store, None, resolved);
                search.stopped_by_clock = stop == Some(Stop::Clock);
                search.candidate = tracked.zip(theorem.as_ref()).map(|(s, t)| super::Candidate {
                    preperiod: s.tail,
                    period: s.period,
                    needed: needed(t, &s),
                });
                search.suggestion = (n < MAX_HEAP).then(|| self.suggestion(n, &search));
                return Ok(search);
            }
            next_check = if store.len() < self.search.z_limit {
                n.saturating_mul(2)
            } else {
                // Straight to where a candidate's window ends (in steps of at most half the
                // prefix, to look for nearer candidates on the way), else an eighth further.
                match needed_of(&tracked, &theorem) {
                    Some(need) if need > n => {
                        // Room for exactly the values the window needs, not the next doubling.
                        store.reserve_exact(need.min(self.cap) as usize - store.len());
                        need.min(n + n / 2)
                    }
                    _ => n + n / 8,
                }
            }
            .min(self.cap);
        }
    }

    /// The stops of a limit by estimated time, from now.
    fn budget(&self) -> Option<Budget> {
        match self.search.limit {
            Limit::Seconds(s) => Some(Budget::seconds(s)),
            Limit::Heaps(_) => None,
        }
    }

    /// A larger limit to try, with its estimated cost from the rate of the last values.
    fn suggestion(&self, n: u64, search: &PeriodSearch) -> super::Suggestion {
        let wanted = match &search.candidate {
            Some(c) => c.needed,
            None => round_up(n.saturating_mul(4)),
        }
        .max(n + 1)
        .min(MAX_HEAP);
        // Seconds per value over the last half of the values, applied to all of them: values
        // cost more as they go, so the early ones are overestimated and the late ones under.
        let elapsed = self.started.elapsed();
        let half = self.timeline.iter().find(|&&(_, v)| v >= n / 2).copied().unwrap_or((Duration::ZERO, 0));
        let per_value = if n > half.1 {
            (elapsed - half.0).as_secs_f64() / (n - half.1) as f64
        } else {
            elapsed.as_secs_f64() / n.max(1) as f64
        };
        super::Suggestion {
            max_heap: wanted,
            estimate: Estimate { seconds: per_value * wanted as f64, bytes: wanted.saturating_mul(5) },
        }
    }

    /// Progress: estimated work against the estimated total, and a line of figures.
    fn report(
        &mut self,
        store: &Store,
        work: f64,
        engine: &Engine<'_>,
        budget: Option<f64>,
        tracked: Option<&Shift>,
        theorem: Option<&Theorem>,
    ) {
        let n = store.len() as u64;
        let now = Instant::now();
        self.timeline.push((now - self.started, n));
        let (mark, values) = self.rate_mark;
        let dt = now.duration_since(mark).as_secs_f64();
        if dt >= 0.5 || self.rate == 0.0 {
            self.rate = (n - values) as f64 / dt.max(1e-9);
            self.rate_mark = (now, n);
        }
        let new_max: u32 =
            with_values!(store, v => v[self.max_scanned..].iter().copied().max().map_or(0, Into::into));
        self.max_value = self.max_value.max(new_max);
        self.max_scanned = store.len();
        // The total: the budget, or the values still to compute at the current cost per value.
        let per_value = work / n.max(1) as f64;
        let target = match (tracked, theorem) {
            (Some(s), Some(t)) => needed(t, s).min(self.cap),
            _ => self.cap,
        };
        let remaining = per_value * target.saturating_sub(n) as f64;
        let total = match budget {
            Some(b) => b.min(work + remaining),
            None => work + remaining,
        };
        let progress = self.search.progress;
        progress.set_total(total as u64);
        progress.set_position(work as u64);
        self.reported = work as u64;
        let period = match (tracked, theorem) {
            (Some(s), Some(t)) => {
                format!("candidate period {} from {} (proof at {})", s.period, s.tail, needed(t, s))
            }
            _ => "no candidate period".to_string(),
        };
        let _ = engine;
        progress.message(&format!(
            "{n} values, {} values/s, max value {}, {period}",
            human(self.rate),
            self.max_value
        ));
    }
}

/// The plain window theorem of a game (saltus 0), or `None` for all-but games (whose
/// certificates always come from the Z-function).
fn theorem_of(game: &Game) -> Option<Theorem> {
    match game {
        Game::Subtract(moves) => Some(Theorem::SubtractionWindow { largest_move: moves.largest() }),
        Game::Octal(code) if code.splits() => Some(Theorem::OctalSplitting { last_digit: code.last_digit() }),
        Game::Octal(code) => Some(Theorem::OctalNoSplitting { last_digit: code.last_digit() }),
        Game::Hex(code) => Some(Theorem::Hexadecimal { last_digit: code.last_digit() }),
        _ => None,
    }
}

/// Values needed to prove a shift: its theorem window from its tail, plus one period.
fn needed(theorem: &Theorem, s: &Shift) -> u64 {
    theorem.window(s.tail, s.period).map_or(u64::MAX, |w| w.saturating_add(s.period))
}

fn needed_of(tracked: &Option<Shift>, theorem: &Option<Theorem>) -> Option<u64> {
    match (tracked, theorem) {
        (Some(s), Some(t)) => Some(needed(t, s)),
        _ => None,
    }
}

/// [`period::minimise`] on stored values, extended by the proven shift beyond them.
fn minimise_store<T: Value>(values: &[T], q: u64, p: u64) -> (u64, u64) {
    let n = values.len() as u64;
    let seq = |x: u64| if x < n { values[x as usize] } else { values[(q + (x - q) % p) as usize] };
    period::minimise(seq, q, p)
}

/// The first checkpoint: enough values for a window certificate of a short period.
fn first_checkpoint(game: &Game) -> u64 {
    match game {
        Game::Subtract(moves) => moves.largest().saturating_mul(2).saturating_add(64),
        Game::AllBut(excluded) => excluded.largest().saturating_mul(4).saturating_add(64),
        Game::Octal(code) => 4096 + 4 * code.last_digit(),
        // Three-heap moves cost O(n · values) per heap: start small.
        Game::Hex(code) => 512 + 4 * code.last_digit(),
        _ => 4096,
    }
}

/// Values computed between two progress reports and budget checks.
fn chunk(n: u64) -> u64 {
    (n / 32).clamp(1 << 12, 1 << 20)
}

fn bytes_per_heap(resolved: &Resolved<'_>) -> u64 {
    match resolved {
        Resolved::Game(Game::AllBut(_)) => 32,
        _ => BYTES_PER_HEAP,
    }
}

/// `x` rounded up to one of 1, 2 or 5 times a power of ten.
pub fn round_up(x: u64) -> u64 {
    let mut scale = 1u64;
    loop {
        for step in [1, 2, 5] {
            if let Some(v) = scale.checked_mul(step)
                && v >= x
            {
                return v;
            }
        }
        match scale.checked_mul(10) {
            Some(s) => scale = s,
            None => return u64::MAX,
        }
    }
}

/// `1.23 M`, `456 k`, `12`.
pub fn human(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.2} G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e4 {
        format!("{:.0} k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

/// Refuses a count of values beyond [`MAX_HEAP`] or memory, for direct values.
pub fn check_values(count: u64) -> Result<()> {
    super::check_heaps(count, BYTES_PER_HEAP, "Grundy values")
}
