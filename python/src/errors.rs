//! The library's errors as Python exceptions: `TooCostly` for refusals that a keyword lifts,
//! `MemoryError`, `OSError`, and `ValueError` for every other mistake in the input.

use nimcount::Error;
use nimcount::grundy::MoreValues;
use pyo3::exceptions::{PyMemoryError, PyOSError, PyValueError};
use pyo3::prelude::*;

pyo3::create_exception!(
    nimcount,
    TooCostly,
    PyValueError,
    "A computation refused before it starts because of its estimated cost.\n\n\
     Attributes: ``estimate`` (steps of about 25 ns for ``max_work``, seconds for ``max_heap`` and\n\
     ``max_seconds``, bits for ``modulus``; for a limit no keyword lifts, the size that passed it:\n\
     positions or moves of a misère search, heap sizes, XOR values; ``None`` when unknown) and\n\
     ``keyword`` (the keyword argument that lifts the limit, or ``None`` when none does)."
);

pyo3::create_exception!(
    nimcount,
    QuotientNotFound,
    PyValueError,
    "No misère quotient of the game was found: its class has none here (nim, Lasker's Nim), or\n\
     the search reached a limit (the quotient may be infinite, or larger than the limits).\n\n\
     Attributes: ``reason`` (why, in words) and ``keyword`` (the keyword argument of\n\
     :func:`misere_quotient` or of :func:`count` that searches further: ``max_heap``,\n\
     ``max_order``, ``max_states`` or ``max_seconds``; ``None`` when none does)."
);

/// A `QuotientNotFound` with its reason and the keyword of `misere_quotient` that searches
/// further (the budget's field that stopped the search).
pub fn quotient_not_found(py: Python<'_>, game: &str, reason: &str, limit: Option<&str>) -> PyErr {
    let message = match limit {
        Some(keyword) => {
            format!("no misère quotient of '{game}' found: {reason} ({keyword}= searches further)")
        }
        None => format!("no misère quotient of '{game}' found: {reason}"),
    };
    let err = QuotientNotFound::new_err(message);
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail.
    let _ = value.setattr("reason", reason);
    let _ = value.setattr("keyword", limit);
    err
}

/// A `TooCostly` with its estimate and the keyword that lifts the limit.
pub fn too_costly(
    py: Python<'_>,
    message: String,
    estimate: Option<Py<PyAny>>,
    keyword: Option<&str>,
) -> PyErr {
    let err = TooCostly::new_err(message);
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail.
    let _ = value.setattr("estimate", estimate);
    let _ = value.setattr("keyword", keyword);
    err
}

/// The Python exception for a library error.
pub fn to_py(py: Python<'_>, err: Error) -> PyErr {
    let message = err.to_string();
    let more = err.more_values();
    match err {
        Error::TooMuchWork { steps, .. } => {
            let estimate = steps.0.filter(|&s| s < u128::MAX).map(|s| int_object(py, s));
            too_costly(py, format!("{message} (max_work= raises the limit)"), estimate, Some("max_work"))
        }
        Error::HalfTooWide { steps, .. } => {
            let estimate = steps.0.filter(|&s| s < u128::MAX).map(|s| int_object(py, s));
            too_costly(py, format!("{message} (max_work= raises the limit)"), estimate, Some("max_work"))
        }
        // Limits no keyword lifts: the estimate is the size that passed them.
        Error::MisereTooLarge { positions, .. } => {
            let estimate = positions.0.filter(|&p| p < u128::MAX).map(|p| int_object(py, p));
            too_costly(py, message, estimate, None)
        }
        Error::MisereTooLong { moves, .. } => {
            too_costly(py, message, moves.filter(|&m| m < u128::MAX).map(|m| int_object(py, m)), None)
        }
        Error::TooManyHeaps { count, .. } => too_costly(py, message, Some(int_object(py, count)), None),
        Error::DistributionTooLarge { log2 } => {
            let values = nimcount::num_bigint::BigUint::from(1u8) << log2;
            let estimate = crate::convert::int(py, &values).ok().map(|v| v.unbind());
            too_costly(py, message, estimate, None)
        }
        Error::MovesTooLarge { .. } => {
            too_costly(py, format!("{message} (all=False gives one)"), None, Some("all"))
        }
        // Whether more values lift it is the library's decision.
        Error::TooCostly { seconds, .. } => {
            let estimate = seconds.into_pyobject(py).ok().map(|s| s.into_any().unbind());
            match more {
                Some(MoreValues::Lift(values)) => too_costly(
                    py,
                    format!("{message}; max_heap={values} computes them anyway"),
                    estimate,
                    Some("max_heap"),
                ),
                _ => too_costly(py, format!("{message}; that does not fit in memory"), estimate, None),
            }
        }
        _ if more == Some(MoreValues::Search) => {
            too_costly(py, format!("{message}; max_heap= computes more values"), None, Some("max_heap"))
        }
        Error::AnswerTooLarge { bits, .. } => {
            let estimate = bits.0.filter(|&b| b < u128::MAX).map(|b| int_object(py, b));
            too_costly(py, message, estimate, Some("modulus"))
        }
        Error::QuotientTooCostly { seconds, .. } => {
            let estimate = seconds.into_pyobject(py).ok().map(|s| s.into_any().unbind());
            too_costly(
                py,
                format!("{message} (max_seconds= raises the limit)"),
                estimate,
                Some("max_seconds"),
            )
        }
        // The quotient of a count or a play, within the default limits: no keyword lifts it there.
        Error::QuotientNotFound { game, reason, .. } => quotient_not_found(py, &game, &reason, None),
        Error::OutOfMemory { .. } => PyMemoryError::new_err(message),
        Error::Io { .. } => PyOSError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

fn int_object(py: Python<'_>, n: u128) -> Py<PyAny> {
    n.into_pyobject(py).expect("an int from a u128").into_any().unbind()
}

/// A `ValueError` with this message.
pub fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}
