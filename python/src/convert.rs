//! Python integers of any size to and from `BigUint`.

use nimcount::num_bigint::BigUint;
use num_traits::ToPrimitive;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt};

/// A non-negative Python int (or anything with `__index__`, such as NumPy integers) as a
/// `BigUint`; `what` names the argument in the error.
pub fn biguint(value: &Bound<'_, PyAny>, what: &str) -> PyResult<BigUint> {
    if let Ok(small) = value.extract::<u64>() {
        return Ok(small.into());
    }
    let int = match value.cast::<PyInt>() {
        Ok(int) if !value.is_instance_of::<pyo3::types::PyBool>() => int.clone(),
        _ => match value.call_method0("__index__") {
            Ok(index) if !value.is_instance_of::<pyo3::types::PyBool>() => index.cast_into::<PyInt>()?,
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "{what} must be an int, not {}",
                    value.get_type().name()?
                )));
            }
        },
    };
    if int.lt(0)? {
        return Err(PyValueError::new_err(format!("{what} must be at least 0, not {}", short(&int))));
    }
    let bits: u64 = int.call_method0("bit_length")?.extract()?;
    let bytes = int.call_method1("to_bytes", (bits.div_ceil(8), "little"))?;
    Ok(BigUint::from_bytes_le(bytes.cast::<PyBytes>()?.as_bytes()))
}

/// A non-negative Python int that fits in `u64`, else a `ValueError` naming `what` and `bound`.
pub fn u64_arg(value: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    biguint(value, what)?.to_u64().ok_or_else(|| PyValueError::new_err(format!("{what} must be below 2^64")))
}

/// A Python int equal to `n`.
pub fn int<'py>(py: Python<'py>, n: &BigUint) -> PyResult<Bound<'py, PyAny>> {
    if let Some(small) = n.to_u64() {
        return Ok(small.into_pyobject(py)?.into_any());
    }
    let bytes = PyBytes::new(py, &n.to_bytes_le());
    py.get_type::<PyInt>().call_method1("from_bytes", (bytes, "little"))
}

/// An int as it may appear in a one-line message: its digits up to 40 of them, else its size.
fn short(int: &Bound<'_, PyInt>) -> String {
    let bits: u64 = int.call_method0("bit_length").and_then(|b| b.extract()).unwrap_or(0);
    if bits <= 128 { int.to_string() } else { format!("a negative number of {bits} bits") }
}
