//! Python integers of any size to and from `BigUint`.

use nimcount::message::short;
use nimcount::num_bigint::BigUint;
use num_traits::ToPrimitive;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt};

/// A Python int (or anything with `__index__`, such as NumPy integers) as its sign and
/// magnitude; `what` names the argument in the error. Bools are refused: `True` is not a count.
pub fn signed(value: &Bound<'_, PyAny>, what: &str) -> PyResult<(bool, BigUint)> {
    if value.is_instance_of::<PyBool>() || value.get_type().name().is_ok_and(|n| n == "bool" || n == "bool_")
    {
        return Err(PyTypeError::new_err(format!("{what} must be an int, not a bool ({value})")));
    }
    if let Ok(small) = value.extract::<u64>() {
        return Ok((false, small.into()));
    }
    let int = match value.cast::<PyInt>() {
        Ok(int) => int.clone(),
        Err(_) => match value.call_method0("__index__") {
            Ok(index) => index.cast_into::<PyInt>()?,
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "{what} must be an int, not {}",
                    value.get_type().name()?
                )));
            }
        },
    };
    let negative = int.lt(0)?;
    let magnitude = if negative { int.neg()?.cast_into::<PyInt>()? } else { int };
    let bits: u64 = magnitude.call_method0("bit_length")?.extract()?;
    let bytes = magnitude.call_method1("to_bytes", (bits.div_ceil(8), "little"))?;
    Ok((negative, BigUint::from_bytes_le(bytes.cast::<PyBytes>()?.as_bytes())))
}

/// A non-negative Python int as a `BigUint`; `what` names the argument in the error.
pub fn biguint(value: &Bound<'_, PyAny>, what: &str) -> PyResult<BigUint> {
    match signed(value, what)? {
        (false, n) => Ok(n),
        (true, n) => Err(PyValueError::new_err(format!("{what} must be at least 0, not -{}", short(&n)))),
    }
}

/// A non-negative Python int that fits in `u64`, else a `ValueError` naming `what`.
pub fn u64_arg(value: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    let n = biguint(value, what)?;
    n.to_u64().ok_or_else(|| PyValueError::new_err(format!("{what} must be below 2^64, not {}", short(&n))))
}

/// A Python int equal to `n`.
pub fn int<'py>(py: Python<'py>, n: &BigUint) -> PyResult<Bound<'py, PyAny>> {
    if let Some(small) = n.to_u64() {
        return Ok(small.into_pyobject(py)?.into_any());
    }
    let bytes = PyBytes::new(py, &n.to_bytes_le());
    py.get_type::<PyInt>().call_method1("from_bytes", (bytes, "little"))
}
