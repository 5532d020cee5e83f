//! `count`, `grundy`, `period` and `play`: every call into the library's games, counting
//! queries and positions is in this file, each in one plain-Rust function
//! ([`count_positions`], [`first_values`], [`search_period`], [`play_position`]); the
//! `#[pyfunction]`s only convert arguments and answers.

use nimcount::Error;
use nimcount::count::{Component, Kind, Query, Source};
use nimcount::game::Game;
use nimcount::grundy::{Certificate, Limit, PeriodSearch, Search};
use nimcount::histogram::Histogram;
use nimcount::num_bigint::BigUint;
use nimcount::play::{MISERE_MAX_POSITIONS, MiserePosition, Moore, Move, Position, Rules, Verdict};
use nimcount::progress::Progress;
use num_traits::ToPrimitive;
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::convert::{biguint, int, u64_arg};
use crate::errors::{to_py, value_error};
use crate::interrupt::interruptible;

/// The most winning moves `play` lists.
const MAX_MOVES: usize = 10_000;

/// A refusal of the binding itself (a combination of arguments), or of the library.
enum Refusal {
    Usage(String),
    Library(Error),
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
    Histogram(Vec<(u64, BigUint)>),
    /// A sum of different games: `(game, lo, hi, heaps)` per part.
    Sum(Vec<(String, BigUint, BigUint, BigUint)>),
}

/// A counting question, as the Python function takes it.
struct CountRequest {
    input: Input,
    heaps: BigUint,
    modulus: Option<BigUint>,
    unordered: bool,
    distinct: bool,
    misere: bool,
    probability: bool,
    max_work: Option<u128>,
    max_heap: Option<u64>,
}

/// Counts or probabilities.
enum Numbers {
    Counts { losing: BigUint, winning: BigUint, total: BigUint },
    Probabilities { losing: f64, winning: f64, exact: bool },
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
fn count_positions(r: &CountRequest, progress: &dyn Progress) -> Result<CountAnswer, Refusal> {
    let kind = match (r.unordered, r.distinct) {
        (true, true) => return Err(Refusal::Usage("unordered=True and distinct=True: choose one".into())),
        (true, false) => Kind::Multiset,
        (false, true) => Kind::Set,
        (false, false) => Kind::Ordered,
    };
    if r.probability && r.modulus.is_some() {
        return Err(Refusal::Usage("probability=True is a float: drop modulus=".into()));
    }
    let query = match &r.input {
        Input::Game { spec, lo, hi } if Moore::names(spec) => {
            Query::moore(Moore::parse(spec)?.k()).sizes(lo.clone(), hi.clone())
        }
        Input::Game { spec, lo, hi } => Query::new(Game::parse(spec)?).sizes(lo.clone(), hi.clone()),
        Input::Histogram(pairs) => {
            if r.max_heap.is_some() {
                return Err(Refusal::Usage(
                    "max_heap= bounds the Grundy values of a game; a histogram has none to compute".into(),
                ));
            }
            Query::from_histogram(Histogram::from_counts(pairs.iter().cloned())?)
        }
        Input::Sum(parts) => {
            let mut components = Vec::with_capacity(parts.len());
            for (spec, lo, hi, heaps) in parts {
                if Moore::names(spec) {
                    return Err(Refusal::Usage(format!(
                        "{spec} moves on several heaps at once: not a part of a sum"
                    )));
                }
                components.push(Component::new(Game::parse(spec)?, lo.clone(), hi.clone(), heaps.clone()));
            }
            Query::sum(components)
        }
    };
    let query = match r.input {
        Input::Sum(_) => query,
        _ => query.heaps(r.heaps.clone()),
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
    let (numbers, report) = if r.probability {
        let p = query.probability(false)?;
        (Numbers::Probabilities { losing: p.losing, winning: p.winning, exact: p.exact }, p.report)
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

/// The one place where Grundy values are computed: `G(0)` … `G(first − 1)`.
fn first_values(spec: &str, first: u64, progress: &dyn Progress) -> Result<Vec<u32>, Refusal> {
    if Moore::names(spec) {
        return Err(Refusal::Usage(format!(
            "{}: Moore's Nim has no Grundy values of single heaps (it moves on several at once)",
            spec.trim()
        )));
    }
    Ok(nimcount::grundy::values(&Game::parse(spec)?, first, progress)?)
}

/// The one place where periods are searched.
fn search_period(
    spec: &str,
    max_heap: Option<u64>,
    progress: &dyn Progress,
) -> Result<PeriodSearch, Refusal> {
    if Moore::names(spec) {
        return Err(Refusal::Usage(format!(
            "{}: Moore's Nim has no Grundy values to be periodic",
            spec.trim()
        )));
    }
    let game = Game::parse(spec)?;
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
    progress: &dyn Progress,
) -> Result<Played, Refusal> {
    heaps.iter().try_for_each(nimcount::play::check_heap)?;
    // One more than listed tells that there are more; the library refuses lists beyond its
    // bytes.
    let listed = |moves: &mut dyn Iterator<Item = Move>| {
        let moves = nimcount::play::list_moves(moves, MAX_MOVES + 1)?;
        if moves.len() > MAX_MOVES {
            Err(Refusal::Usage(format!("more than {MAX_MOVES} winning moves: too many to list")))
        } else {
            Ok(moves)
        }
    };
    if Moore::names(spec) {
        let moore = Moore::parse(spec)?;
        if misere || max_heap.is_some() {
            let option = if misere { "misere=True" } else { "max_heap=" };
            return Err(Refusal::Usage(format!(
                "{option} with {}: normal play only, no Grundy values",
                moore.spec()
            )));
        }
        let moves = listed(&mut moore.winning_moves(&heaps))?;
        return Ok(Played { verdict: moore.verdict(&heaps), grundy: None, moves });
    }
    let game = Game::parse(spec)?;
    let largest = heaps.iter().max().cloned().unwrap_or_default();
    let rules =
        if game == Game::Nim { Rules::nim() } else { Rules::for_game(&game, &largest, max_heap, progress)? };
    if misere && game != Game::Nim {
        let position = MiserePosition::new(heaps.into_iter().map(|h| (&rules, h)), MISERE_MAX_POSITIONS)?;
        let moves = listed(&mut position.winning_moves().iter().cloned())?;
        return Ok(Played {
            verdict: position.verdict(),
            grundy: position.grundy().map(<[_]>::to_vec),
            moves,
        });
    }
    let position = if misere { Position::misere_nim(heaps) } else { Position::new(&rules, heaps)? };
    let moves = listed(&mut position.winning_moves())?;
    Ok(Played { verdict: position.verdict(), grundy: Some(position.grundy().to_vec()), moves })
}

/// A histogram from a dict `{value: count}` or a 1-D array of counts indexed by value.
fn histogram_pairs(h: &Bound<'_, PyAny>) -> PyResult<Vec<(u64, BigUint)>> {
    if let Ok(dict) = h.cast::<PyDict>() {
        return dict
            .iter()
            .map(|(v, c)| Ok((u64_arg(&v, "a histogram value")?, biguint(&c, "a histogram count")?)))
            .collect();
    }
    let from_counts = |counts: Vec<u64>| {
        counts.into_iter().enumerate().filter(|(_, c)| *c > 0).map(|(v, c)| (v as u64, c.into())).collect()
    };
    if let Ok(array) = h.cast::<PyArray1<u64>>() {
        return Ok(from_counts(array.to_vec().unwrap_or_else(|_| array.to_owned_array().to_vec())));
    }
    if let Ok(array) = h.cast::<PyArray1<i64>>() {
        let counts = array.to_owned_array().to_vec();
        if let Some((v, c)) = counts.iter().enumerate().find(|(_, c)| **c < 0) {
            return Err(value_error(format!("histogram count {c} for value {v} is negative")));
        }
        return Ok(from_counts(counts.into_iter().map(|c| c as u64).collect()));
    }
    if let Ok(array) = h.cast::<numpy::PyUntypedArray>() {
        return Err(value_error(format!(
            "a histogram array must be 1-d with dtype uint64 or int64 (counts indexed by value), not {}-d {}",
            array.ndim(),
            array.dtype()
        )));
    }
    Err(value_error("histogram= takes a dict {value: count} or a 1-d NumPy array of counts"))
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
/// max_work, max_heap)` as a dict of the answer.
#[pyfunction]
#[pyo3(signature = (game, lo, hi, heaps, histogram, modulus, unordered, distinct, misere, probability, max_work, max_heap, parts=None))]
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
        (None, Some(h), _, _) => Input::Histogram(histogram_pairs(&h)?),
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
    let request = CountRequest {
        input,
        heaps,
        modulus: modulus.map(|m| biguint(&m, "modulus")).transpose()?,
        unordered,
        distinct,
        misere,
        probability,
        max_work,
        max_heap: max_heap.map(|h| u64_arg(&h, "max_heap")).transpose()?,
    };
    if request.modulus.as_ref().is_some_and(|m| m.bits() == 0) {
        return Err(value_error("modulus=0: the modulus must be at least 1"));
    }
    let answer =
        interruptible(py, |signals| count_positions(&request, signals))?.map_err(|r| r.into_py(py))?;
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
    }
    d.set_item("modulus", request.modulus.as_ref().map(|m| int(py, m)).transpose()?)?;
    d.set_item("heaps", int(py, &request.heaps)?)?;
    d.set_item("sizes", int(py, &answer.sizes)?)?;
    d.set_item("kind", answer.kind)?;
    d.set_item("play", if request.misere { "misere" } else { "normal" })?;
    d.set_item("source", answer.source)?;
    d.set_item("values_computed", answer.values_computed)?;
    let certificate = answer.certificate.as_ref().map(|c| certificate_dict(py, c)).transpose()?;
    d.set_item("certificate", certificate)?;
    Ok(d)
}

/// `grundy(game, first)`: `G(0)` … `G(first − 1)` as a uint64 array.
#[pyfunction]
pub fn grundy<'py>(
    py: Python<'py>,
    game: String,
    first: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let first = u64_arg(&first, "first")?;
    let values =
        interruptible(py, |signals| first_values(&game, first, signals))?.map_err(|r| r.into_py(py))?;
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

/// `play(game, heaps, misere, max_heap)`: the verdict, the heaps' Grundy values and the winning
/// moves as a dict.
#[pyfunction]
#[pyo3(signature = (game, heaps, misere=false, max_heap=None))]
pub fn play<'py>(
    py: Python<'py>,
    game: String,
    heaps: Bound<'py, PyAny>,
    misere: bool,
    max_heap: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let heaps: Vec<BigUint> = heaps.try_iter()?.map(|h| biguint(&h?, "a heap")).collect::<PyResult<_>>()?;
    let max_heap = max_heap.map(|h| u64_arg(&h, "max_heap")).transpose()?;
    let played = interruptible(py, |signals| play_position(&game, heaps, misere, max_heap, signals))?
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
