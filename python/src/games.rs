//! `count`, `grundy`, `period` and `play`: every call into the library's games, counting
//! queries and positions is in this file, each in one plain-Rust function
//! ([`count_positions`], [`first_values`], [`search_period`], [`play_position`]); the
//! `#[pyfunction]`s only convert arguments and answers.

use nimcount::Error;
use nimcount::count::{Component, Kind, Query, Source};
use nimcount::game::Game;
use nimcount::grundy::{Certificate, DEFAULT_SECONDS, Limit, PeriodSearch, Search, Within};
use nimcount::histogram::{Histogram, Term};
use nimcount::misere::{self, Budget};
use nimcount::num_bigint::BigUint;
use nimcount::play::{MISERE_MAX_POSITIONS, MiserePosition, Move, Position, Rules, Verdict};
use nimcount::progress::Progress;
use nimcount::spec::Spec;
use num_traits::ToPrimitive;
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};

use crate::convert::{biguint, int, u64_arg};
use crate::errors::{quotient_not_found, to_py, too_costly, value_error};
use crate::interrupt::interruptible;
use crate::inuse::Claim;
use crate::misere::budget_limit;

/// The most winning moves `play` lists.
const MAX_MOVES: usize = 10_000;

/// A refusal of the binding itself (a combination of arguments, or a cost with the keyword that
/// lifts it and the estimate), or of the library.
enum Refusal {
    Usage(String),
    Costly { message: String, keyword: Option<&'static str>, estimate: Option<Amount> },
    Library(Error),
}

/// An estimate: seconds, or a count (of bits, positions, ...).
enum Amount {
    Seconds(f64),
    Count(u128),
}

impl From<Error> for Refusal {
    fn from(e: Error) -> Self {
        Refusal::Library(e)
    }
}

impl Refusal {
    fn into_py(self, py: Python<'_>) -> PyErr {
        match self {
            Refusal::Usage(message) => value_error(message),
            Refusal::Costly { message, keyword, estimate } => {
                let estimate = estimate.and_then(|e| match e {
                    Amount::Seconds(s) => s.into_pyobject(py).ok().map(|s| s.into_any().unbind()),
                    Amount::Count(n) => n.into_pyobject(py).ok().map(|n| n.into_any().unbind()),
                });
                too_costly(py, message, estimate, keyword)
            }
            Refusal::Library(e) => to_py(py, e),
        }
    }
}

/// What is counted: a game over a range of heap sizes, or a histogram of Grundy values.
enum Input {
    Game {
        spec: String,
        lo: BigUint,
        hi: BigUint,
    },
    Histogram(Histogram),
    /// A sum of different games: `(game, lo, hi, heaps)` per part.
    Sum(Vec<(String, BigUint, BigUint, BigUint)>),
}

/// A counting question, as the Python function takes it.
struct CountRequest {
    input: Input,
    heaps: BigUint,
    /// The largest number of heaps of a range (`heaps=range(lo, hi + 1)`), `heaps` being `lo`.
    heaps_to: Option<BigUint>,
    modulus: Option<BigUint>,
    unordered: bool,
    distinct: bool,
    misere: bool,
    probability: bool,
    max_work: Option<u128>,
    max_heap: Option<u64>,
    /// The search for a misère quotient, when a keyword changes its default.
    misere_budget: Option<Budget>,
}

/// Counts or probabilities.
enum Numbers {
    Counts {
        losing: BigUint,
        winning: BigUint,
        total: BigUint,
    },
    Probabilities {
        losing: f64,
        winning: f64,
        exact: bool,
    },
    /// Probabilities as the ratios of exact counts (the Python layer divides, correctly rounded).
    Ratios {
        losing: BigUint,
        winning: BigUint,
        total: BigUint,
    },
}

/// The answer to a [`CountRequest`].
struct CountAnswer {
    numbers: Numbers,
    sizes: BigUint,
    kind: &'static str,
    source: &'static str,
    certificate: Option<Certificate>,
    values_computed: Option<usize>,
}

/// The one place where positions are counted.
fn count_positions(r: CountRequest, progress: &dyn Progress) -> Result<CountAnswer, Refusal> {
    let kind = Kind::of(r.unordered, r.distinct)?;
    if r.probability && r.modulus.is_some() {
        return Err(Refusal::Usage("probability=True is a float: drop modulus=".into()));
    }
    let sum = matches!(r.input, Input::Sum(_));
    let game_input = matches!(r.input, Input::Game { .. });
    let query = match r.input {
        Input::Game { spec, lo, hi } => Spec::parse(&spec)?.query()?.sizes(lo, hi),
        Input::Histogram(histogram) => {
            if r.max_heap.is_some() {
                return Err(Refusal::Usage(
                    "max_heap= bounds the Grundy values of a game; a histogram has none to compute".into(),
                ));
            }
            Query::from_histogram(histogram)
        }
        Input::Sum(parts) => {
            let mut components = Vec::with_capacity(parts.len());
            for (spec, lo, hi, heaps) in parts {
                components.push(Component::new(Spec::part(&spec)?, lo, hi, heaps));
            }
            Query::sum(components)
        }
    };
    let query = match (sum, r.heaps_to) {
        (true, _) => query,
        (false, Some(hi)) => query.heaps_range(r.heaps.clone(), hi),
        (false, None) => query.heaps(r.heaps.clone()),
    };
    let mut query = query.kind(kind).misere(r.misere).progress(progress);
    if let Some(m) = &r.modulus {
        query = query.modulus(m.clone());
    }
    if let Some(max_heap) = r.max_heap {
        query = query.max_heap(max_heap);
    }
    if let Some(steps) = r.max_work {
        query = query.max_work(steps);
    }
    if let Some(budget) = r.misere_budget {
        query = query.misere_budget(budget);
    }
    let (numbers, report) = if r.probability {
        match query.probability(false) {
            Ok(p) => {
                (Numbers::Probabilities { losing: p.losing, winning: p.winning, exact: p.exact }, p.report)
            }
            // Misère play of a game other than nim depends on more than the Grundy values, so the
            // weights of a histogram do not decide it; a game's sizes are equally likely, and
            // its probabilities are the ratios of its exact counts in the misère quotient.
            Err(Error::MisereUnsupported { .. }) if game_input => {
                let c = query.count().map_err(|e| match e {
                    Error::AnswerTooLarge { bits, .. } => Refusal::Costly {
                        message: format!(
                            "misère probabilities of this game are ratios of exact counts, and the counts here \
                             would have {bits} bits, too many to hold; count(..., misere=True, modulus=M) \
                             counts them modulo M"
                        ),
                        keyword: None,
                        estimate: bits.0.filter(|&b| b < u128::MAX).map(Amount::Count),
                    },
                    other => Refusal::Library(other),
                })?;
                (Numbers::Ratios { losing: c.losing, winning: c.winning, total: c.total }, c.report)
            }
            Err(e) => return Err(e.into()),
        }
    } else {
        let c = query.count()?;
        (Numbers::Counts { losing: c.losing, winning: c.winning, total: c.total }, c.report)
    };
    let (source, certificate, values_computed) = match report.source {
        Source::Period { certificate, values_computed } => {
            ("period", Some(certificate), Some(values_computed))
        }
        Source::Values { values_computed } => ("values", None, Some(values_computed)),
        Source::ClosedForm { .. } => ("closed form", None, None),
        Source::Columns { .. } => ("digits", None, None),
        Source::Trivial => ("trivial", None, None),
        Source::Sum { .. } => ("sum", None, None),
        Source::Quotient { .. } => ("quotient", None, None),
        Source::PartialQuotient { .. } => ("partial quotient", None, None),
        _ => ("histogram", None, None),
    };
    Ok(CountAnswer {
        numbers,
        sizes: report.sizes,
        kind: kind_name(kind),
        source,
        certificate,
        values_computed,
    })
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Multiset => "unordered",
        Kind::Set => "distinct",
        _ => "ordered",
    }
}

/// The one place where Grundy values are computed: `G(0)` … `G(first − 1)`, refused when
/// their estimated time is beyond `max_seconds`.
fn first_values(
    spec: &str,
    first: u64,
    max_seconds: f64,
    progress: &dyn Progress,
) -> Result<Vec<u32>, Refusal> {
    let game = Spec::parse(spec)?.heap_game()?;
    match nimcount::grundy::values_within(&game, first, max_seconds, progress)? {
        Within::Values(values) => Ok(values),
        Within::Beyond(estimate) => {
            let values = match first {
                1 => "G(0)".to_string(),
                n => format!("G(0) … G({})", n - 1),
            };
            Err(Refusal::Costly {
                message: format!(
                    "first={first}: {values} of {} would take {estimate} on one core of the reference machine \
                     (an estimate) and {}, beyond the limit of {max_seconds} s; max_seconds={} computes them",
                    game.spec(),
                    nimcount::error::Bytes(estimate.bytes),
                    estimate.seconds.ceil().min(u64::MAX as f64) as u64
                ),
                keyword: Some("max_seconds"),
                estimate: Some(Amount::Seconds(estimate.seconds)),
            })
        }
    }
}

/// The one place where periods are searched.
fn search_period(
    spec: &str,
    max_heap: Option<u64>,
    progress: &dyn Progress,
) -> Result<PeriodSearch, Refusal> {
    let game = Spec::parse(spec)?.heap_game()?;
    let limit = max_heap.map_or(Limit::default(), Limit::Heaps);
    Ok(Search::new().limit(limit).progress(progress).run(&game)?)
}

/// A position's verdict, the Grundy value of each heap (when the game has them), and its
/// winning moves.
struct Played {
    verdict: Verdict,
    grundy: Option<Vec<BigUint>>,
    moves: Vec<Move>,
}

/// The one place where positions are played.
fn play_position(
    spec: &str,
    heaps: Vec<BigUint>,
    misere: bool,
    max_heap: Option<u64>,
    max_states: Option<u64>,
    all: bool,
    progress: &dyn Progress,
) -> Result<Played, Refusal> {
    heaps.iter().try_for_each(nimcount::play::check_heap)?;
    // Every winning move up to the most listed (one more, to tell), or the first one; the
    // library refuses lists beyond their bytes.
    let wanted = if all { MAX_MOVES + 1 } else { 1 };
    // The refusal states the exact number of moves when the library counts them.
    let listed = |moves: &mut dyn Iterator<Item = Move>, count: &dyn Fn() -> Option<BigUint>| {
        let moves = nimcount::play::list_moves(moves, wanted)?;
        if moves.len() > MAX_MOVES {
            let many = count().map_or_else(|| format!("more than {MAX_MOVES}"), |c| c.to_string());
            Err(Refusal::Costly {
                message: format!(
                    "{many} winning moves: too many to list (at most {MAX_MOVES}); all=False gives the verdict and one winning move"
                ),
                keyword: Some("all"),
                estimate: None,
            })
        } else {
            Ok(moves)
        }
    };
    let game = match Spec::parse(spec)? {
        Spec::Moore(moore) => {
            if misere || max_heap.is_some() {
                let option = if misere { "misere=True" } else { "max_heap=" };
                return Err(Refusal::Usage(format!(
                    "{option} with {}: normal play only, no Grundy values",
                    moore.spec()
                )));
            }
            let moves = listed(&mut moore.winning_moves(&heaps), &|| None)?;
            return Ok(Played { verdict: moore.verdict(&heaps), grundy: None, moves });
        }
        other => other.heap_game()?,
    };
    let largest = heaps.iter().max().cloned().unwrap_or_default();
    let rules =
        if game == Game::Nim { Rules::nim() } else { Rules::for_game(&game, &largest, max_heap, progress)? };
    if misere && game != Game::Nim {
        // The quotients tried before the search, within play's budget or `max_states` (and then
        // orders up to the default of a search), as `play --misere --max-states`.
        let mut budget = nimcount::play::PLAY_BUDGET;
        if let Some(n) = max_states {
            budget.max_states = n;
            budget.max_order = nimcount::misere::Budget::default().max_order;
        }
        let position =
            MiserePosition::within(heaps.into_iter().map(|h| (&rules, h)), MISERE_MAX_POSITIONS, &budget)?;
        let count = || position.winning_move_count().cloned();
        let moves = listed(&mut position.winning_moves().iter().cloned(), &count)?;
        return Ok(Played {
            verdict: position.verdict(),
            grundy: position.grundy().map(<[_]>::to_vec),
            moves,
        });
    }
    let position = if misere { Position::misere_nim(heaps) } else { Position::new(&rules, heaps)? };
    let moves = listed(&mut position.winning_moves(), &|| position.winning_move_count())?;
    Ok(Played { verdict: position.verdict(), grundy: Some(position.grundy().to_vec()), moves })
}

/// A histogram from a dict `{value: count}` (values and counts of any size: values beyond an
/// array are one-point ranges) or a 1-d uint64 or int64 array of counts indexed by value (the
/// Python layer converts the other integer dtypes). An empty one is refused: it has no heap
/// sizes to count.
fn histogram_of(py: Python<'_>, h: &Bound<'_, PyAny>) -> PyResult<Histogram> {
    if let Ok(dict) = h.cast::<PyDict>() {
        if dict.is_empty() {
            return Err(value_error("histogram={} is empty: give at least one {value: count}"));
        }
        let points = dict
            .iter()
            .map(|(v, c)| Ok((biguint(&v, "a histogram value")?, biguint(&c, "a histogram count")?)))
            .collect::<PyResult<Vec<_>>>()?;
        return Histogram::from_points(points).map_err(|e| to_py(py, e));
    }
    if let Ok(array) = h.cast::<PyArray1<u64>>() {
        let _claim = Claim::new(&[(array.as_untyped(), array.data() as usize, false)])?;
        let read =
            array.try_readonly().map_err(|_| value_error("the histogram array is in use by another call"))?;
        return dense_histogram(read.as_array().iter().map(|&c| Ok(c)));
    }
    if let Ok(array) = h.cast::<PyArray1<i64>>() {
        let _claim = Claim::new(&[(array.as_untyped(), array.data() as usize, false)])?;
        let read =
            array.try_readonly().map_err(|_| value_error("the histogram array is in use by another call"))?;
        let view = read.as_array();
        let counts = view.iter().enumerate().map(|(v, &c)| {
            u64::try_from(c)
                .map_err(|_| value_error(format!("histogram count {c} for value {v} is negative")))
        });
        return dense_histogram(counts);
    }
    if let Ok(array) = h.cast::<numpy::PyUntypedArray>() {
        return Err(value_error(format!(
            "a histogram array must be 1-d with an integer dtype (counts indexed by value), not {}-d {}",
            array.ndim(),
            array.dtype()
        )));
    }
    Err(PyTypeError::new_err(format!(
        "histogram= takes a dict {{value: count}} or a 1-d NumPy array of counts, not {}",
        h.get_type().name()?
    )))
}

/// The histogram of an array of counts indexed by value, as the library's terms of 32-bit
/// counts (one term, or two for counts of 2^32 or more), each allocated without aborting.
fn dense_histogram(counts: impl Iterator<Item = PyResult<u64>> + Clone) -> PyResult<Histogram> {
    let (mut len, mut largest, mut top) = (0usize, 0u64, None);
    for (v, c) in counts.clone().enumerate() {
        let c = c?;
        len += 1;
        largest = largest.max(c);
        if c > 0 {
            top = Some(v);
        }
    }
    if len == 0 {
        return Err(value_error("the histogram array is empty: give at least one count"));
    }
    let slots = top.map_or(1, |t| (t + 1).next_power_of_two());
    let limbs = if largest >> 32 == 0 { 1 } else { 2 };
    let mut terms = Vec::with_capacity(limbs);
    for limb in 0..limbs {
        let mut counts_of_limb: Vec<u32> = Vec::new();
        counts_of_limb.try_reserve_exact(slots).map_err(|_| {
            PyMemoryError::new_err(format!(
                "a histogram of 2^{} slots needs {} of memory",
                slots.trailing_zeros(),
                nimcount::error::Bytes((slots as u64).saturating_mul(4 * limbs as u64))
            ))
        })?;
        counts_of_limb.extend(counts.clone().take(slots).map(|c| (c.unwrap_or(0) >> (32 * limb)) as u32));
        counts_of_limb.resize(slots, 0);
        terms.push(Term::new(BigUint::from(1u8) << (32 * limb), counts_of_limb));
    }
    Histogram::from_terms(terms).map_err(|e| value_error(e.to_string()))
}

fn certificate_dict<'py>(py: Python<'py>, c: &Certificate) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("preperiod", c.preperiod)?;
    d.set_item("period", c.period)?;
    d.set_item("saltus", c.saltus)?;
    d.set_item("theorem", c.theorem.to_string())?;
    d.set_item("theorem_id", c.theorem.id())?;
    Ok(d)
}

/// One part of a sum of games as the Python wrapper passes it: game, lo, hi, heaps.
type PartArg<'py> = (String, Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>);

/// `count(game, lo, hi, heaps, histogram, modulus, unordered, distinct, misere, probability,
/// max_work, max_heap, parts, heaps_to, max_states, max_order, max_seconds)` as a dict of the
/// answer; `heaps_to` makes the counts the sums over every number of heaps from `heaps` to it;
/// the last three (and `max_heap` with `misere`) bound the search for a misère quotient, as
/// `nimcount count --misere --max-states`.
#[pyfunction]
#[pyo3(signature = (game, lo, hi, heaps, histogram, modulus, unordered, distinct, misere, probability, max_work, max_heap, parts=None, heaps_to=None, max_states=None, max_order=None, max_seconds=None))]
#[allow(clippy::too_many_arguments)]
pub fn count<'py>(
    py: Python<'py>,
    game: Option<String>,
    lo: Option<Bound<'py, PyAny>>,
    hi: Option<Bound<'py, PyAny>>,
    heaps: Option<Bound<'py, PyAny>>,
    histogram: Option<Bound<'py, PyAny>>,
    modulus: Option<Bound<'py, PyAny>>,
    unordered: bool,
    distinct: bool,
    misere: bool,
    probability: bool,
    max_work: Option<Bound<'py, PyAny>>,
    max_heap: Option<Bound<'py, PyAny>>,
    parts: Option<Vec<PartArg<'py>>>,
    heaps_to: Option<Bound<'py, PyAny>>,
    max_states: Option<Bound<'py, PyAny>>,
    max_order: Option<Bound<'py, PyAny>>,
    max_seconds: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let input = match (game, histogram, lo, hi) {
        (None, None, None, None) if parts.is_some() => {
            let mut sum = Vec::new();
            for (spec, lo, hi, k) in parts.unwrap_or_default() {
                let lo = biguint(&lo, "the smallest heap size")?;
                let hi = biguint(&hi, "the largest heap size")?;
                sum.push((spec, lo, hi, biguint(&k, "heaps")?));
            }
            Input::Sum(sum)
        }
        _ if parts.is_some() => {
            return Err(value_error(
                "parts= gives the games, sizes and heaps: drop game, sizes and histogram=",
            ));
        }
        (Some(_), Some(_), _, _) => return Err(value_error("give a game or histogram=, not both")),
        (Some(spec), None, Some(lo), Some(hi)) => Input::Game {
            spec,
            lo: biguint(&lo, "the smallest heap size")?,
            hi: biguint(&hi, "the largest heap size")?,
        },
        (Some(spec), None, _, _) => {
            return Err(value_error(format!(
                "count({spec:?}, ...) needs sizes, e.g. (1, 10**12) or range(1, 101)"
            )));
        }
        (None, Some(_), Some(_), _) => return Err(value_error("sizes apply to a game, not to a histogram")),
        (None, Some(h), _, _) => Input::Histogram(histogram_of(py, &h)?),
        (None, None, _, _) => {
            return Err(value_error(
                "give a game and its sizes, count(game, sizes, heaps), or histogram=, heaps=",
            ));
        }
    };
    let max_work = match max_work {
        Some(w) => match biguint(&w, "max_work")?.to_u128() {
            Some(0) => return Err(value_error("max_work=0: a count needs at least one step")),
            Some(steps) => Some(steps),
            None => return Err(value_error("max_work= is at most 2^128 - 1 steps")),
        },
        None => None,
    };
    let heaps = match (&input, heaps) {
        (Input::Sum(parts), None) => parts.iter().map(|p| &p.3).sum(),
        (Input::Sum(_), Some(_)) => {
            return Err(value_error("parts= gives the heaps of each part: drop heaps="));
        }
        (_, Some(heaps)) => biguint(&heaps, "heaps")?,
        (_, None) => return Err(value_error("heaps= is required: the number of heaps")),
    };
    let heaps_to = heaps_to.map(|h| biguint(&h, "heaps")).transpose()?;
    let max_heap = max_heap.map(|h| u64_arg(&h, "max_heap")).transpose()?;
    let misere_budget = if misere {
        let mut budget = Budget::default();
        if let Some(n) = max_heap {
            // The largest heap joined to the misère quotient, as for the Grundy values.
            budget.max_heap = n.clamp(1, misere::MAX_HEAP);
        }
        if let Some(n) = budget_limit(max_states, "max_states", misere::MAX_STATES)? {
            budget.max_states = n;
        }
        if let Some(n) = budget_limit(max_order, "max_order", misere::MAX_ORDER as u64)? {
            budget.max_order = n as usize;
        }
        if let Some(n) = budget_limit(max_seconds, "max_seconds", misere::MAX_SECONDS)? {
            budget.max_seconds = n;
        }
        Some(budget)
    } else {
        if let Some(name) =
            [("max_states", &max_states), ("max_order", &max_order), ("max_seconds", &max_seconds)]
                .into_iter()
                .find_map(|(name, v)| v.as_ref().map(|_| name))
        {
            return Err(value_error(format!(
                "{name}= bounds the search for a misère quotient: it applies with misere=True"
            )));
        }
        None
    };
    let request = CountRequest {
        input,
        heaps,
        heaps_to,
        modulus: modulus.map(|m| biguint(&m, "modulus")).transpose()?,
        unordered,
        distinct,
        misere,
        probability,
        max_work,
        max_heap,
        misere_budget,
    };
    if request.modulus.as_ref().is_some_and(|m| m.bits() == 0) {
        return Err(value_error("modulus=0: the modulus must be at least 1"));
    }
    let (modulus, heaps, misere) = (request.modulus.clone(), request.heaps.clone(), request.misere);
    let answer = interruptible(py, |signals| count_positions(request, signals))?.map_err(|r| match r {
        // count takes every keyword of the search (max_heap, max_order, max_states,
        // max_seconds), so the one that stopped it is named.
        Refusal::Library(Error::QuotientNotFound { game, reason, limit }) => {
            quotient_not_found(py, &game, &reason, limit)
        }
        other => other.into_py(py),
    })?;
    let d = PyDict::new(py);
    match &answer.numbers {
        Numbers::Counts { losing, winning, total } => {
            d.set_item("losing", int(py, losing)?)?;
            d.set_item("winning", int(py, winning)?)?;
            d.set_item("total", int(py, total)?)?;
        }
        Numbers::Probabilities { losing, winning, exact } => {
            d.set_item("losing", losing)?;
            d.set_item("winning", winning)?;
            d.set_item("total", 1.0)?;
            d.set_item("exact", exact)?;
        }
        Numbers::Ratios { losing, winning, total } => {
            d.set_item("losing", int(py, losing)?)?;
            d.set_item("winning", int(py, winning)?)?;
            d.set_item("total", int(py, total)?)?;
            d.set_item("ratios", true)?;
        }
    }
    d.set_item("modulus", modulus.as_ref().map(|m| int(py, m)).transpose()?)?;
    d.set_item("heaps", int(py, &heaps)?)?;
    d.set_item("sizes", int(py, &answer.sizes)?)?;
    d.set_item("kind", answer.kind)?;
    d.set_item("play", if misere { "misere" } else { "normal" })?;
    d.set_item("source", answer.source)?;
    d.set_item("values_computed", answer.values_computed)?;
    let certificate = answer.certificate.as_ref().map(|c| certificate_dict(py, c)).transpose()?;
    d.set_item("certificate", certificate)?;
    Ok(d)
}

/// A positive number of seconds (int or float), `what` naming the keyword.
fn seconds_arg(value: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    if value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!("{what} must be a number of seconds, not a bool")));
    }
    let seconds: f64 =
        value.extract().map_err(|_| PyTypeError::new_err(format!("{what} must be a number of seconds")))?;
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(value_error(format!("{what}={seconds}: give a positive number of seconds")));
    }
    Ok(seconds)
}

/// `grundy(game, first, max_seconds)`: `G(0)` … `G(first − 1)` as a uint64 array.
#[pyfunction]
#[pyo3(signature = (game, first, max_seconds=None))]
pub fn grundy<'py>(
    py: Python<'py>,
    game: String,
    first: Bound<'py, PyAny>,
    max_seconds: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let first = u64_arg(&first, "first")?;
    let max_seconds =
        max_seconds.map(|s| seconds_arg(&s, "max_seconds")).transpose()?.unwrap_or(DEFAULT_SECONDS);
    let values = interruptible(py, |signals| first_values(&game, first, max_seconds, signals))?
        .map_err(|r| r.into_py(py))?;
    Ok(PyArray1::from_vec(py, values.into_iter().map(u64::from).collect()))
}

/// `period(game, max_heap)`: the outcome of the period search as a dict.
#[pyfunction]
#[pyo3(signature = (game, max_heap=None))]
pub fn period<'py>(
    py: Python<'py>,
    game: String,
    max_heap: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let max_heap = max_heap.map(|h| u64_arg(&h, "max_heap")).transpose()?;
    let search =
        interruptible(py, |signals| search_period(&game, max_heap, signals))?.map_err(|r| r.into_py(py))?;
    let d = PyDict::new(py);
    d.set_item("game", &search.game)?;
    d.set_item("certificate", search.certificate.as_ref().map(|c| certificate_dict(py, c)).transpose()?)?;
    d.set_item("checked_upto", search.checked_upto)?;
    let bounded = search.certificate.as_ref().is_none_or(|c| c.saltus == 0);
    d.set_item("max_value", bounded.then_some(search.max_value))?;
    d.set_item("never_periodic", search.never_periodic)?;
    d.set_item("suggested_max_heap", search.suggestion.map(|s| s.max_heap))?;
    d.set_item("suggested_seconds", search.suggestion.map(|s| s.estimate.seconds))?;
    Ok(d)
}

/// `play(game, heaps, misere, max_heap, all, max_states)`: the verdict, the heaps' Grundy values
/// and the winning moves (every one, or the first with `all=false`) as a dict.
#[pyfunction]
#[pyo3(signature = (game, heaps, misere=false, max_heap=None, all=true, max_states=None))]
pub fn play<'py>(
    py: Python<'py>,
    game: String,
    heaps: Bound<'py, PyAny>,
    misere: bool,
    max_heap: Option<Bound<'py, PyAny>>,
    all: bool,
    max_states: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let heaps: Vec<BigUint> = heaps.try_iter()?.map(|h| biguint(&h?, "a heap")).collect::<PyResult<_>>()?;
    let max_heap = max_heap.map(|h| u64_arg(&h, "max_heap")).transpose()?;
    if max_states.is_some() && !misere {
        return Err(crate::errors::value_error("max_states= applies to misere=True".to_string()));
    }
    let max_states = crate::misere::budget_limit(max_states, "max_states", nimcount::misere::MAX_STATES)?;
    let played =
        interruptible(py, |signals| play_position(&game, heaps, misere, max_heap, max_states, all, signals))?
            .map_err(|r| r.into_py(py))?;
    let d = PyDict::new(py);
    d.set_item("verdict", played.verdict.as_str())?;
    let grundy = match &played.grundy {
        Some(values) => Some(values.iter().map(|g| int(py, g)).collect::<PyResult<Vec<_>>>()?),
        None => None,
    };
    d.set_item("grundy", grundy)?;
    let moves = PyList::empty(py);
    for m in &played.moves {
        let changes = PyList::empty(py);
        for c in &m.changes {
            let to = c.to.iter().map(|h| int(py, h)).collect::<PyResult<Vec<_>>>()?;
            changes.append((c.heap, int(py, &c.from)?, to))?;
        }
        moves.append((m.to_string(), changes))?;
    }
    d.set_item("moves", moves)?;
    Ok(d)
}
