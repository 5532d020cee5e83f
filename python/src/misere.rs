//! `misere_quotient`: a game's misère quotient, the fields `nimcount misere --json` prints, as a
//! dict (the package's Python layer builds the `MisereQuotient` from it).

use nimcount::Error;
use nimcount::misere::{self, Budget, Quotient};
use nimcount::progress::Progress;
use nimcount::spec::Spec;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::convert::u64_arg;
use crate::errors::{quotient_not_found, to_py, value_error};
use crate::interrupt::interruptible;

/// `misere_quotient(game, max_heap, max_order, max_states, table, max_seconds)`: the quotient
/// as a dict (with `max_heap`, that of the heaps `0..=max_heap` when no quotient of every heap
/// size is found); `QuotientNotFound` (with `reason` and `keyword`) when it is not found within the
/// limits, `TooCostly` when the limits are estimated beyond `max_seconds`.
#[pyfunction]
#[pyo3(signature = (game, max_heap=None, max_order=None, max_states=None, table=false, max_seconds=None))]
pub fn misere_quotient<'py>(
    py: Python<'py>,
    game: String,
    max_heap: Option<Bound<'py, PyAny>>,
    max_order: Option<Bound<'py, PyAny>>,
    max_states: Option<Bound<'py, PyAny>>,
    table: bool,
    max_seconds: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let limit = budget_limit;
    let mut budget = Budget::default();
    let max_heap = limit(max_heap, "max_heap", misere::MAX_HEAP)?;
    if let Some(n) = max_heap {
        budget.max_heap = n;
    }
    if let Some(n) = limit(max_order, "max_order", misere::MAX_ORDER as u64)? {
        budget.max_order = n as usize;
    }
    if let Some(n) = limit(max_states, "max_states", misere::MAX_STATES)? {
        budget.max_states = n;
    }
    if let Some(n) = limit(max_seconds, "max_seconds", misere::MAX_SECONDS)? {
        budget.max_seconds = n;
    }
    let partial = max_heap.is_some();
    let found = interruptible(py, |signals| find(&game, &budget, partial, signals))?;
    let (q, reason) = match found {
        Ok(found) => found,
        Err(Error::QuotientNotFound { game, reason, limit }) => {
            return Err(quotient_not_found(py, &game, &reason, limit));
        }
        Err(e) => return Err(to_py(py, e)),
    };
    let p = q.presentation();
    let d = PyDict::new(py);
    d.set_item("game", q.game())?;
    d.set_item("order", q.order())?;
    let generators = PyList::empty(py);
    for (name, heap) in &p.generators {
        generators.append((name, *heap))?;
    }
    d.set_item("generators", generators)?;
    let relations = PyList::empty(py);
    for (lhs, rhs) in &p.relations {
        relations.append((p.word(lhs), p.word(rhs)))?;
    }
    d.set_item("relations", relations)?;
    d.set_item("elements", (0..q.order()).map(|a| p.element(a)).collect::<Vec<_>>())?;
    d.set_item("p_portion", q.p_portion())?;
    d.set_item("heaps", q.images().to_vec())?;
    d.set_item("preperiod", q.preperiod())?;
    d.set_item("period", q.period())?;
    d.set_item("theorem", q.theorem().to_string())?;
    d.set_item("theorem_id", q.theorem().name())?;
    d.set_item("states_checked", q.states_checked())?;
    d.set_item("largest_heap", q.largest_heap())?;
    d.set_item("reason", reason)?;
    if table {
        let rows = PyList::empty(py);
        for a in 0..q.order() {
            rows.append(PyTuple::new(py, (0..q.order()).map(|b| q.mul(a, b)))?)?;
        }
        d.set_item("table", rows)?;
    } else {
        d.set_item("table", py.None())?;
    }
    Ok(d)
}

/// A limit of the search for a misère quotient (`max_heap`, `max_order`, ...), 1 to `most`.
pub(crate) fn budget_limit(value: Option<Bound<'_, PyAny>>, name: &str, most: u64) -> PyResult<Option<u64>> {
    let Some(value) = value else { return Ok(None) };
    let n = u64_arg(&value, name)?;
    if n == 0 || n > most {
        return Err(value_error(format!("{name}={n} is out of range (1 to {most})")));
    }
    Ok(Some(n))
}

/// The quotient of a game spec within `budget`, reporting to `progress`; with `partial` (a
/// `max_heap` given), when no quotient of every heap size is found, the quotient of the heaps
/// `0..=max_heap` and why the other was not found.
fn find(
    spec: &str,
    budget: &Budget,
    partial: bool,
    progress: &dyn Progress,
) -> nimcount::Result<(std::sync::Arc<Quotient>, Option<String>)> {
    let game = Spec::parse(spec)?.heap_game()?;
    let search = misere::Search::new(&game).budget(*budget).progress(progress);
    match search.run() {
        Ok(q) => Ok((q, None)),
        Err(Error::QuotientNotFound { reason, .. }) if partial => {
            let q = search.heaps(budget.max_heap).run()?;
            Ok((q, Some(reason)))
        }
        Err(e) => Err(e),
    }
}
