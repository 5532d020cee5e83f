//! Grundy values for a range of heap sizes `lo..=hi`, as a counting query needs them: from a
//! proven period when there is one, else computed directly — without any flag when the
//! estimated cost is at most [`DIRECT_SECONDS`] — and otherwise refused before computing.
//!
//! The rule, in order:
//!
//! 1. Closed forms (nim, one-interval subtraction sets) answer for any range.
//! 2. A game a theorem covers whose range is cheap to compute directly gets its period
//!    searched within the range's own values, which then serve directly if no period shows.
//! 3. Otherwise such a game gets a period search within the limit (by default about
//!    [`DEFAULT_SECONDS`](super::DEFAULT_SECONDS) of estimated work).
//! 4. Without a proven period — subtract-a-square, games of the user's that declare nothing
//!    or an infinite set of moves, searches that found nothing — the values `G(0..=hi)` are
//!    computed directly when a limit of values allows them (`max_heap`), or, without one, when
//!    their estimated time is at most [`DIRECT_SECONDS`] on the reference machine and they fit
//!    in memory. Beyond that the query is an [`Error::TooCostly`], raised after a probe of a
//!    fraction of a second (and, for a game a theorem covers, the period search of step 3).

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::engine::Engine;
use super::resolve::{Resolved, resolve};
use super::search::{Limit, Search, check_values};
use super::store::Store;
use super::{PeriodSearch, compute};
use crate::error::{Error, Result};
use crate::game::{Game, HeapGame};
use crate::progress::Progress;
use crate::simd::Backend;

/// Direct values are computed without a limit of values when their estimated time is at most
/// this many seconds (one core of the reference machine).
pub const DIRECT_SECONDS: f64 = 60.0;

/// The modeled work (ns) a probe of the cost of direct values may take.
const PROBE_NS: f64 = 0.15e9;

/// Where a range's values come from.
#[derive(Debug, Clone)]
pub enum RangeValues {
    /// A proven period: `search.certificate` is set and `search.values` holds at least the
    /// preperiod and one period.
    Period(PeriodSearch),
    /// `G(0)` … `G(hi)`, computed directly.
    Direct(Vec<u32>),
}

/// The Grundy values a count over heap sizes up to `hi` needs (see the module docs for the
/// rule). `max_heap`: the most values that may be computed, in the period search and directly
/// (`None`: the default limits by estimated time).
///
/// ```
/// use nimcount::game::Game;
/// use nimcount::grundy::{RangeValues, range_values};
/// use nimcount::progress::Silent;
///
/// // Subtract-a-square has no period: 100 001 values directly, well within a second.
/// let RangeValues::Direct(values) = range_values(&Game::Squares, &100_000u32.into(), None, true, &Silent)? else {
///     unreachable!()
/// };
/// assert_eq!(values.len(), 100_001);
/// // Up to 10^12 would take years: refused at once.
/// let err = range_values(&Game::Squares, &10u64.pow(12).into(), None, true, &Silent).unwrap_err();
/// assert!(err.to_string().contains("years"));
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn range_values(
    game: &dyn HeapGame,
    hi: &BigUint,
    max_heap: Option<u64>,
    parallel: bool,
    progress: &dyn Progress,
) -> Result<RangeValues> {
    let resolved = resolve(game)?;
    // G(0) … G(hi): hi + 1 values, when that fits in 64 bits.
    let needed = hi.to_u64().and_then(|h| h.checked_add(1));
    if let Some(period) = closed_form_period(&resolved) {
        let search =
            Search::new().limit(Limit::Heaps(period)).parallel(parallel).progress(progress).run(game)?;
        return Ok(RangeValues::Period(search));
    }
    let allowed = |count: u64| max_heap.is_some_and(|limit| count <= limit);
    if resolved.may_be_periodic() {
        // The range's own values, when they are affordable, serve both the search and the count.
        // Beyond MAX_HEAP values no direct computation is allowed: no probe (a fraction of a
        // second) is spent on it.
        if let Some(n) = needed
            && (allowed(n)
                || (max_heap.is_none()
                    && n <= super::MAX_HEAP
                    && probe(&resolved, n)?.0 <= DIRECT_SECONDS * 1e9))
        {
            check_values(n)?;
            let search =
                Search::new().limit(Limit::Heaps(n)).parallel(parallel).progress(progress).run(game)?;
            return Ok(match search.certificate {
                Some(_) => RangeValues::Period(search),
                None => RangeValues::Direct(search.values),
            });
        }
        let limit = max_heap.map_or(Limit::default(), Limit::Heaps);
        let search = Search::new().limit(limit).parallel(parallel).progress(progress).run(game)?;
        if search.certificate.is_some() {
            return Ok(RangeValues::Period(search));
        }
        // The search went past the range after all (the estimate was pessimistic).
        if let Some(n) = needed
            && search.checked_upto >= n
        {
            let mut values = search.values;
            values.truncate(n as usize);
            return Ok(RangeValues::Direct(values));
        }
        let reason = format!("has no proven period in G(0) … G({})", search.checked_upto.saturating_sub(1));
        let (ns, bytes) = match needed {
            Some(n) => probe(&resolved, n)?,
            None => (f64::INFINITY, u64::MAX),
        };
        return Err(too_costly(game, reason, hi, needed, ns, bytes));
    }
    let reason = match &resolved {
        Resolved::Game(Game::Squares) => "is never periodic".to_string(),
        Resolved::Game(Game::GrundyGame) => "has no known period".to_string(),
        Resolved::Game(Game::Fraction { numerator: 1, denominator: 2 }) => {
            "is never periodic (G(2n) = n grows without bound)".to_string()
        }
        Resolved::Game(Game::Fraction { .. }) => "has no known period".to_string(),
        Resolved::Subtraction(_) => {
            "declares an infinite set of moves (no theorem proves a period)".to_string()
        }
        _ => "declares no structure a periodicity theorem needs".to_string(),
    };
    let Some(n) = needed else {
        return Err(too_costly(game, reason, hi, None, f64::INFINITY, u64::MAX));
    };
    if !allowed(n) {
        let (ns, bytes) = probe(&resolved, n)?;
        if max_heap.is_some() || ns > DIRECT_SECONDS * 1e9 || check_values(n).is_err() {
            return Err(too_costly(game, reason, hi, needed, ns, bytes));
        }
    }
    check_values(n)?;
    let store = compute(&resolved, n, true, parallel, progress)?;
    Ok(RangeValues::Direct(store.to_u32(store.len())))
}

/// The estimated time of `G(0)` … `G(count − 1)` of `game` on one core of the reference
/// machine, and their memory, from a probe of the first values (a fraction of a second): what
/// [`values`](super::values) would take.
///
/// ```
/// use nimcount::game::Game;
/// use nimcount::grundy::estimate_values;
/// // Officers (0.6) splits heaps: its values cost O(n) each, 10^8 of them hours.
/// let estimate = estimate_values(&Game::parse("octal:0.6")?, 100_000_000)?;
/// assert!(estimate.seconds > 3600.0, "{estimate}");
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn estimate_values(game: &dyn HeapGame, count: u64) -> Result<super::Estimate> {
    check_values(count)?;
    let resolved = resolve(game)?;
    let (ns, bytes) = match closed_form_period(&resolved) {
        // No probe: it would compute values by the hundred million.
        Some(_) => (super::cost::CLOSED_FORM_NS * count as f64, count.saturating_mul(4)),
        None => probe(&resolved, count)?,
    };
    Ok(super::Estimate { seconds: ns / 1e9, bytes })
}

/// What [`values_within`] gives: the values, or the estimate that is beyond the limit.
#[derive(Debug, Clone, PartialEq)]
pub enum Within {
    /// `G(0)` … `G(count − 1)`.
    Values(Vec<u32>),
    /// Their estimated cost, beyond the limit: nothing more was computed.
    Beyond(super::Estimate),
}

/// `G(0)` … `G(count − 1)` of `game` when [`estimate_values`] puts them at most `seconds` on one
/// core of the reference machine; the values of the probe are kept, so the estimate costs
/// nothing more when the values are computed.
///
/// ```
/// use nimcount::game::Game;
/// use nimcount::grundy::{Within, values_within};
/// use nimcount::progress::Silent;
/// let officers = Game::parse("octal:0.6")?;
/// assert_eq!(values_within(&officers, 5, 1.0, &Silent)?, Within::Values(vec![0, 0, 1, 2, 0]));
/// assert!(matches!(values_within(&officers, 100_000_000, 30.0, &Silent)?, Within::Beyond(e) if e.seconds > 3600.0));
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn values_within(
    game: &dyn HeapGame,
    count: u64,
    seconds: f64,
    progress: &dyn Progress,
) -> Result<Within> {
    values_within_on(game, count, seconds, progress, Backend::best())
}

/// [`values_within`] with the SIMD kernels of `backend` (the values are the same on every
/// backend; one this CPU lacks is refused).
pub fn values_within_on(
    game: &dyn HeapGame,
    count: u64,
    seconds: f64,
    progress: &dyn Progress,
    backend: Backend,
) -> Result<Within> {
    let backend = backend.available()?;
    check_values(count)?;
    let resolved = resolve(game)?;
    let (estimate, engine, store) = match closed_form_period(&resolved) {
        Some(_) => {
            let ns = super::cost::CLOSED_FORM_NS * count as f64;
            let engine = Engine::new(&resolved, true);
            let store = engine.store();
            ((ns, count.saturating_mul(4)), engine, store)
        }
        None => {
            let (ns, bytes, engine, store) = probe_engine(&resolved, count, backend)?;
            ((ns, bytes), engine.parallel(true), store)
        }
    };
    if estimate.0 > seconds * 1e9 {
        return Ok(Within::Beyond(super::Estimate { seconds: estimate.0 / 1e9, bytes: estimate.1 }));
    }
    let store = super::compute_from(engine, store, count, progress)?;
    Ok(Within::Values(store.to_u32(count as usize)))
}

/// The period of a closed form, whose values the histogram needs.
fn closed_form_period(resolved: &Resolved<'_>) -> Option<u64> {
    match resolved {
        Resolved::Game(Game::Nim) => Some(1),
        // G(0) and one period G(1..=4).
        Resolved::Game(Game::Lasker) => Some(5),
        Resolved::Game(Game::Subtract(moves)) if moves.runs().len() == 1 => {
            Some(moves.smallest() + moves.largest())
        }
        _ => None,
    }
}

/// Whether computing more Grundy values (a larger `max_heap`, the flag or keyword that bounds
/// them) would lift an error: the one decision every caller names the limit by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoreValues {
    /// `G(0)` … `G(n − 1)` computed directly lift it, and they fit in the memory available.
    Lift(u64),
    /// A period search over more values may find the period it stopped short of.
    Search,
    /// The values needed do not fit in the memory available (or their number in 64 bits):
    /// no limit of values lifts it.
    BeyondMemory,
}

impl Error {
    /// Whether more computed Grundy values would lift this error, and how many; `None` for
    /// every error that no limit of values concerns.
    ///
    /// ```
    /// use nimcount::count::Query;
    /// use nimcount::game::Game;
    /// use nimcount::grundy::MoreValues;
    /// // Subtract a square has no period: 10^9 values directly are beyond the default limit.
    /// let err = Query::new(Game::Squares).sizes(1u32, 10u32.pow(9)).heaps(2u32).count().unwrap_err();
    /// assert!(matches!(err.more_values(), Some(MoreValues::Lift(_) | MoreValues::BeyondMemory)));
    /// assert_eq!(nimcount::Error::MissingHeaps.more_values(), None);
    /// ```
    pub fn more_values(&self) -> Option<MoreValues> {
        match self {
            Error::TooCostly { values: Some(values), bytes, .. }
                if crate::memory::available().is_none_or(|available| *bytes <= available) =>
            {
                Some(MoreValues::Lift(*values))
            }
            Error::TooCostly { .. } => Some(MoreValues::BeyondMemory),
            Error::NoPeriod { .. } => Some(MoreValues::Search),
            _ => None,
        }
    }
}

fn too_costly(
    game: &dyn HeapGame,
    reason: String,
    hi: &BigUint,
    values: Option<u64>,
    ns: f64,
    bytes: u64,
) -> Error {
    Error::TooCostly { game: game.name(), reason, last: hi.to_string(), values, seconds: ns / 1e9, bytes }
}

/// Estimated time (ns) and memory of `G(0..n)`: computes the first values, as many as about
/// [`PROBE_NS`] of work (modeled, or measured when that is more) allows, and extrapolates from the growth of the work between the first
/// quarter of them and all of them (`work ∝ count^β`, `1 <= β <= 3`).
fn probe(resolved: &Resolved<'_>, n: u64) -> Result<(f64, u64)> {
    probe_engine(resolved, n, Backend::best()).map(|(ns, bytes, _, _)| (ns, bytes))
}

/// [`probe`], with the engine and the values it computed.
fn probe_engine<'g>(
    resolved: &Resolved<'g>,
    n: u64,
    backend: Backend,
) -> Result<(f64, u64, Engine<'g>, Store)> {
    // On the calling thread: the probe is short, and may run where no thread is allowed.
    let mut engine = Engine::new(resolved, true).parallel(false).backend(backend);
    let mut store: Store = engine.store();
    let mut marks: Vec<(u64, f64)> = Vec::new();
    let mut k = 0u64;
    // CPU time of this thread where it can be read (load does not inflate it), else real time.
    let started = std::time::Instant::now();
    let cpu_started = super::cost::thread_cpu_time();
    let elapsed = || match (cpu_started, super::cost::thread_cpu_time()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => started.elapsed(),
    };
    let mut clock = 0.0f64;
    while k < n {
        let next = (k * 2).max(16).min(n);
        // From 16 values on, so that a probe ended after a few doublings still has a quarter
        // mark (hexadecimal games of 256 digits: extrapolated linearly from 256 and 512 values,
        // 2 s for 3000 values that take 46 s).
        // One value may cost seconds (hexadecimal games of many digits): the clock is read
        // inside the values too, and the probe ends with the values it has.
        let mut over = || elapsed().as_secs_f64() * 1e9 >= 4.0 * PROBE_NS;
        engine.extend_pulsed(&mut store, next as usize, &mut over)?;
        k = store.len() as u64;
        // The model decides, the same on every machine; the clock only where the model is off
        // by far (splitting games whose values outgrow the sparse space): four times its budget.
        let work = engine.work(k);
        clock = elapsed().as_secs_f64() * 1e9;
        marks.push((k, work));
        if work >= PROBE_NS || clock >= 4.0 * PROBE_NS || k < next {
            break;
        }
    }
    let (k, model) = *marks.last().expect("at least one step");
    let work = if clock > 4.0 * model { clock } else { model };
    let bytes = n.saturating_mul(store.width() + 4);
    if k >= n {
        return Ok((work, bytes, engine, store));
    }
    let quarter = marks.iter().rev().find(|&&(c, _)| c <= k / 4).copied();
    let beta = match quarter {
        Some((c, w)) if w > 0.0 && c > 0 => ((model / w).ln() / (k as f64 / c as f64).ln()).clamp(1.0, 3.0),
        _ => 1.0,
    };
    Ok((work * (n as f64 / k as f64).powf(beta), bytes, engine, store))
}
