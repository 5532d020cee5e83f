//! `survey`: every game of some families, as a list of dicts with the fields of
//! `nimcount survey --json`.

use nimcount::grundy::PeriodSearch;
use nimcount::misere;
use nimcount::survey::{Limits, MAX_PUSH, Row, Survey};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::{to_py, value_error};
use crate::interrupt::interruptible;
use crate::misere::budget_limit;

/// `survey(patterns, seconds_per_game, max_heap, max_states, push)`: the rows, in the order of
/// the patterns' codes.
#[pyfunction]
#[pyo3(signature = (patterns, seconds_per_game, max_heap=None, max_states=None, push=None))]
pub fn survey<'py>(
    py: Python<'py>,
    patterns: Vec<String>,
    seconds_per_game: f64,
    max_heap: Option<Bound<'py, PyAny>>,
    max_states: Option<Bound<'py, PyAny>>,
    push: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let mut limits = Limits { seconds_per_game, ..Limits::default() };
    if !(seconds_per_game.is_finite()
        && seconds_per_game > 0.0
        && seconds_per_game <= misere::MAX_SECONDS as f64)
    {
        return Err(value_error(format!(
            "max_seconds_per_game={seconds_per_game}: give a positive number of seconds, at most {}",
            misere::MAX_SECONDS
        )));
    }
    if let Some(n) = budget_limit(max_heap, "max_heap", misere::MAX_HEAP)? {
        limits.misere.max_heap = n;
    }
    if let Some(n) = budget_limit(max_states, "max_states", misere::MAX_STATES)? {
        limits.misere.max_states = n;
    }
    limits.push = budget_limit(push, "push", MAX_PUSH)?;
    let patterns: Vec<&str> = patterns.iter().map(String::as_str).collect();
    let rows = interruptible(py, |signals| Survey::new(&patterns)?.limits(limits)?.progress(signals).run())?
        .map_err(|e| to_py(py, e))?;
    let list = PyList::empty(py);
    for row in &rows {
        list.append(row_dict(py, row)?)?;
    }
    Ok(list)
}

/// A candidate period, as a dict.
fn candidate<'py>(py: Python<'py>, search: &PeriodSearch) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Some(c) = search.candidate else { return Ok(None) };
    let d = PyDict::new(py);
    d.set_item("preperiod", c.preperiod)?;
    d.set_item("period", c.period)?;
    d.set_item("needed", c.needed)?;
    Ok(Some(d))
}

/// One row, with the keys of `nimcount survey --json`.
fn row_dict<'py>(py: Python<'py>, row: &Row) -> PyResult<Bound<'py, PyDict>> {
    let search = &row.normal.search;
    let c = search.certificate.as_ref();
    let normal = PyDict::new(py);
    normal.set_item("status", row.normal.status.name())?;
    normal.set_item("preperiod", c.map(|c| c.preperiod))?;
    normal.set_item("period", c.map(|c| c.period))?;
    normal.set_item("saltus", c.map(|c| c.saltus))?;
    normal.set_item("largest_value", c.is_none_or(|c| c.saltus == 0).then_some(search.max_value))?;
    normal.set_item("values", search.checked_upto)?;
    normal.set_item("theorem", c.map(|c| c.theorem.to_string()))?;
    normal.set_item("theorem_id", c.map(|c| c.theorem.id()))?;
    normal.set_item("never_periodic", search.never_periodic)?;
    normal.set_item("candidate", candidate(py, search)?)?;
    let pushed = match &row.normal.pushed {
        Some(p) => {
            let d = PyDict::new(py);
            let pc = p.certificate.as_ref();
            d.set_item("values", p.checked_upto)?;
            d.set_item("largest_value", p.max_value)?;
            d.set_item("preperiod", pc.map(|c| c.preperiod))?;
            d.set_item("period", pc.map(|c| c.period))?;
            d.set_item("candidate", candidate(py, p)?)?;
            Some(d)
        }
        None => None,
    };
    normal.set_item("pushed", pushed)?;
    let q = row.misere.quotient.as_ref();
    let m = PyDict::new(py);
    m.set_item("status", row.misere.status.name())?;
    m.set_item("order", q.map(|q| q.order()))?;
    m.set_item("preperiod", q.map(|q| q.preperiod()))?;
    m.set_item("period", q.map(|q| q.period()))?;
    m.set_item("theorem", q.map(|q| q.theorem().to_string()))?;
    m.set_item("states_checked", q.map(|q| q.states_checked()))?;
    m.set_item("reached", row.misere.reason.as_deref())?;
    let d = PyDict::new(py);
    d.set_item("game", &row.game)?;
    d.set_item("equal_to", row.equal_to.iter().map(|e| e.game.as_str()).collect::<Vec<_>>())?;
    d.set_item("equal_shifts", row.equal_to.iter().map(|e| e.shift).collect::<Vec<_>>())?;
    d.set_item("equal_preperiods", row.equal_to.iter().map(|e| e.preperiod).collect::<Vec<_>>())?;
    d.set_item("normal", normal)?;
    d.set_item("misere", m)?;
    d.set_item("seconds", (row.seconds * 1000.0).round() / 1000.0)?;
    Ok(d)
}
