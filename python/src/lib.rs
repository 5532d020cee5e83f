//! `nimcount._native`: the extension module behind the Python package `nimcount`.
//!
//! The package's Python layer (`nimcount/__init__.py`) documents every function and builds the
//! result objects; this module converts arrays and integers, releases the GIL around every
//! transform and count, and maps the library's errors to Python exceptions.

mod convert;
mod errors;
mod games;
mod hadamard;
mod interrupt;
mod inuse;
mod misere;
mod survey;
mod transform;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("TooCostly", m.py().get_type::<errors::TooCostly>())?;
    m.add("QuotientNotFound", m.py().get_type::<errors::QuotientNotFound>())?;
    m.add_class::<inuse::Held>()?;
    m.add_function(wrap_pyfunction!(transform::fwht, m)?)?;
    m.add_function(wrap_pyfunction!(transform::xor_convolve, m)?)?;
    m.add_function(wrap_pyfunction!(transform::xor_power, m)?)?;
    m.add_function(wrap_pyfunction!(transform::zeta, m)?)?;
    m.add_function(wrap_pyfunction!(hadamard::hadamard, m)?)?;
    m.add_function(wrap_pyfunction!(hadamard::hadamard_matrix, m)?)?;
    m.add_function(wrap_pyfunction!(transform::set_convolve, m)?)?;
    m.add_function(wrap_pyfunction!(games::count, m)?)?;
    m.add_function(wrap_pyfunction!(games::grundy, m)?)?;
    m.add_function(wrap_pyfunction!(games::period, m)?)?;
    m.add_function(wrap_pyfunction!(games::play, m)?)?;
    m.add_function(wrap_pyfunction!(misere::misere_quotient, m)?)?;
    m.add_function(wrap_pyfunction!(survey::survey, m)?)?;
    Ok(())
}
