//! `fwht`, `xor_convolve` and `xor_power` on NumPy arrays.
//!
//! The dtype picks the ring: float32 and float64 (IEEE), uint32 and uint64 modulo an odd
//! `modulus` or wrapping modulo 2^32 and 2^64 without one, int64 exactly (a transform that could
//! overflow is refused before it runs). Every check runs before the array is written: a refused
//! call leaves it as it was.

use std::sync::{Arc, Mutex};

use nimcount::Error;
use nimcount::fwht::Plan;
use nimcount::num_bigint::BigUint;
use nimcount::ring::{Exact64, Float32, Float64, Mod32, Mod64, Ring, Wrap32, Wrap64};
use num_traits::ToPrimitive;
use numpy::ndarray::Axis;
use numpy::{
    BorrowError, Element, PyArray, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::convert;
use crate::errors::{to_py, value_error};

/// The dtypes transformed, as NumPy names them.
const DTYPES: &str = "float32, float64, uint32, uint64 or int64";

/// Where a transform runs: rayon's global pool, the calling thread alone, or a pool of its own.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Threads {
    Default,
    One,
    Pool(usize),
}

impl Threads {
    fn parse(threads: Option<&Bound<'_, PyAny>>) -> PyResult<Threads> {
        let Some(threads) = threads else { return Ok(Threads::Default) };
        match convert::u64_arg(threads, "threads")? {
            0 => Err(value_error("threads=0: give at least 1 (threads=None uses every core)")),
            1 => Ok(Threads::One),
            n if n > 1024 => Err(value_error(format!("threads={n} is out of range (1 to 1024)"))),
            n => Ok(Threads::Pool(n as usize)),
        }
    }

    fn parallel(self) -> bool {
        self != Threads::One
    }

    /// Runs `work` on these threads.
    fn run<T: Send>(self, work: impl FnOnce() -> T + Send) -> Result<T, Error> {
        match self {
            Threads::Default | Threads::One => Ok(work()),
            Threads::Pool(n) => Ok(pool(n)?.install(work)),
        }
    }
}

/// A pool of `n` threads, started once and kept for later calls.
fn pool(n: usize) -> Result<Arc<rayon::ThreadPool>, Error> {
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, pool)) = pools.iter().find(|(size, _)| *size == n) {
        return Ok(pool.clone());
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(n).build().map_err(|e| Error::InvalidNumber {
        input: n.to_string(),
        reason: format!("cannot start {n} threads: {e}"),
    })?;
    let pool = Arc::new(pool);
    pools.push((n, pool.clone()));
    Ok(pool)
}

/// What the binding checks on top of the library, before any element is written (one contiguous
/// buffer is checked by the library instead, as the transform first loads each block).
trait Checked: Ring<Elem: Element + Copy + Send + Sync> {
    /// Every element accepted by the ring (residues below the modulus).
    fn check_values(&self, data: &[Self::Elem]) -> nimcount::Result<()> {
        let _ = data;
        Ok(())
    }

    /// Whether the normalised inverse can fail after writing (exact division): then it runs
    /// on a copy.
    fn inverse_can_fail(&self) -> bool {
        false
    }
}

impl Checked for Mod32 {
    fn check_values(&self, data: &[u32]) -> nimcount::Result<()> {
        // With l = m − 1 < 2^31: x <= l exactly when neither x nor l − x (wrapping) has its top
        // bit set (x >= 2^31 sets it in x; l < x < 2^31 makes l − x negative). Subtractions and
        // ORs only, which baseline x86-64 vectorises (unlike unsigned comparisons or maxima): one
        // branch-free pass. The library names the first offender when it fails.
        let last = self.modulus() - 1;
        let high = data.iter().fold(0, |acc, &x| acc | x | last.wrapping_sub(x));
        if high >> 31 == 0 { Ok(()) } else { self.validate(data) }
    }
}

impl Checked for Mod64 {
    fn check_values(&self, data: &[u64]) -> nimcount::Result<()> {
        // As for Mod32, with l = m − 1 < 2^63 and the top bit 63.
        let last = self.modulus() - 1;
        let high = data.iter().fold(0, |acc, &x| acc | x | last.wrapping_sub(x));
        if high >> 63 == 0 { Ok(()) } else { self.validate(data) }
    }
}

impl Checked for Exact64 {
    fn inverse_can_fail(&self) -> bool {
        true
    }
}

impl Checked for Wrap32 {}
impl Checked for Wrap64 {}
impl Checked for Float32 {}
impl Checked for Float64 {}

/// A modulus for uint32 elements: odd and below 2^31.
fn mod32(m: &BigUint) -> PyResult<Mod32> {
    match m.to_u32().filter(|&m| m <= Mod32::MAX_MODULUS) {
        Some(m) if m % 2 == 1 => Mod32::new(m).map_err(|e| value_error(e.to_string())),
        Some(_) => Err(even(m)),
        None => Err(value_error(format!(
            "modulus {m} is too large for uint32 residues (odd moduli below 2^31); use a uint64 array (odd moduli below 2^63)"
        ))),
    }
}

/// A modulus for uint64 elements: odd and below 2^63.
fn mod64(m: &BigUint) -> PyResult<Mod64> {
    match m.to_u64().filter(|&m| m <= Mod64::MAX_MODULUS) {
        Some(m) if m % 2 == 1 => Mod64::new(m).map_err(|e| value_error(e.to_string())),
        Some(_) => Err(even(m)),
        None => Err(value_error(format!(
            "modulus {} is too large: uint64 residues take odd moduli below 2^63 (nimcount.count counts modulo any number)",
            short(m)
        ))),
    }
}

fn even(m: &BigUint) -> PyErr {
    let fix = if m.bits() == 0 {
        "give an odd modulus of at least 1".to_string()
    } else {
        "give an odd one, or modulus=None for arithmetic modulo 2^32 or 2^64 (nimcount.count counts modulo any number)".to_string()
    };
    value_error(format!(
        "modulus {} is even: the transform needs an odd modulus (2 must be invertible); {fix}",
        short(m)
    ))
}

fn short(m: &BigUint) -> String {
    if m.bits() <= 128 { m.to_string() } else { format!("of {} bits", m.bits()) }
}

/// The ring for a dtype and modulus, as a macro over the five element types: `$body` runs with
/// `$array` bound to the typed array and `$ring` to the ring.
macro_rules! with_ring {
    ($any:expr, $modulus:expr, |$array:ident, $ring:ident| $body:expr) => {{
        let any: &Bound<'_, PyAny> = $any;
        let modulus: Option<&BigUint> = $modulus;
        let no_modulus = |dtype: &str| -> PyResult<()> {
            match modulus {
                None => Ok(()),
                Some(_) => Err(value_error(format!(
                    "modulus= applies to uint32 and uint64 arrays, not to {dtype} (convert with a.astype(np.uint64))"
                ))),
            }
        };
        if let Ok($array) = any.cast::<PyArrayDyn<f32>>() {
            no_modulus("float32")?;
            let $ring = Float32;
            $body
        } else if let Ok($array) = any.cast::<PyArrayDyn<f64>>() {
            no_modulus("float64")?;
            let $ring = Float64;
            $body
        } else if let Ok($array) = any.cast::<PyArrayDyn<u32>>() {
            match modulus {
                Some(m) => {
                    let $ring = mod32(m)?;
                    $body
                }
                None => {
                    let $ring = Wrap32;
                    $body
                }
            }
        } else if let Ok($array) = any.cast::<PyArrayDyn<u64>>() {
            match modulus {
                Some(m) => {
                    let $ring = mod64(m)?;
                    $body
                }
                None => {
                    let $ring = Wrap64;
                    $body
                }
            }
        } else if let Ok($array) = any.cast::<PyArrayDyn<i64>>() {
            no_modulus("int64")?;
            let $ring = Exact64;
            $body
        } else {
            Err(unsupported(any))
        }
    }};
}

/// The error for an object that is not an array of a supported dtype.
fn unsupported(any: &Bound<'_, PyAny>) -> PyErr {
    match any.cast::<PyUntypedArray>() {
        Ok(array) => {
            let dtype = array.dtype().to_string();
            let fix = match dtype.as_str() {
                "int32" | "int16" | "int8" | "uint8" | "uint16" => " (convert with a.astype(np.int64))",
                "float16" => " (convert with a.astype(np.float32))",
                _ => "",
            };
            value_error(format!("unsupported dtype {dtype}: nimcount transforms {DTYPES}{fix}"))
        }
        Err(_) => PyTypeError::new_err(format!(
            "expected a NumPy array, not {} (np.asarray makes one; fwht works in place)",
            any.get_type().name().map(|n| n.to_string()).unwrap_or_default()
        )),
    }
}

/// `axis` counted from 0, or the error for an axis the array lacks.
fn normalise_axis(axis: isize, ndim: usize) -> PyResult<usize> {
    if ndim == 0 {
        return Err(value_error("a 0-d array has no axis to transform (np.atleast_1d makes a 1-d one)"));
    }
    let resolved = if axis < 0 { axis + ndim as isize } else { axis };
    if resolved < 0 || resolved >= ndim as isize {
        return Err(value_error(format!("axis {axis} is out of bounds for an array of dimension {ndim}")));
    }
    Ok(resolved as usize)
}

/// The transform length along an axis: a power of two.
fn row_length(len: usize, axis: usize) -> PyResult<usize> {
    if len == 0 {
        return Err(value_error(format!(
            "the array is empty along axis {axis}: a transform needs at least one element"
        )));
    }
    if !len.is_power_of_two() {
        return Err(value_error(format!(
            "length {len} along axis {axis} is not a power of two; pad with zeros to {} (np.pad)",
            len.next_power_of_two()
        )));
    }
    Ok(len)
}

fn borrow_error(e: BorrowError) -> PyErr {
    match e {
        BorrowError::NotWriteable => value_error(
            "the array is read-only (a.flags.writeable is False): fwht works in place; transform a copy, a.copy()",
        ),
        _ => value_error("the array is already in use by another call (its memory is borrowed)"),
    }
}

fn not_contiguous(axis: usize, ndim: usize) -> PyErr {
    let fix = if axis + 1 == ndim {
        "np.ascontiguousarray(a)".to_string()
    } else {
        format!("np.ascontiguousarray(np.moveaxis(a, {axis}, -1)) with axis=-1")
    };
    value_error(format!(
        "the array is not contiguous along axis {axis}: transform a contiguous copy, {fix}, and use the array returned"
    ))
}

/// A library error with the fix in Python terms.
fn transform_error(py: Python<'_>, e: Error, ring: &str) -> PyErr {
    match e {
        Error::ValueOutOfRange { .. } => value_error(format!(
            "{e}: elements must be residues below the modulus; reduce them first (a %= modulus)"
        )),
        Error::NoInverseOfTwo { .. } => value_error(format!(
            "{e}; the inverse and convolutions of {ring} need modulus= (odd), or an int64 or float64 array"
        )),
        Error::Overflow { .. } => value_error(format!("{e}; use a float64 array, or uint64 with modulus=")),
        Error::NotDivisible { .. } => {
            value_error(format!("{e}: the array is not a transform of integers (left unchanged)"))
        }
        other => to_py(py, other),
    }
}

/// The rows of an array along one axis, each a contiguous slice: the whole buffer when the rows
/// lie back to back, else one slice per row.
enum Rows<'a, T> {
    Whole(&'a mut [T]),
    Each(Vec<&'a mut [T]>),
}

/// `fwht(a, modulus=None, inverse=False, axis=-1, threads=None)`: in place, returns `a`.
#[pyfunction]
#[pyo3(signature = (a, modulus=None, inverse=false, axis=-1, threads=None))]
pub fn fwht<'py>(
    py: Python<'py>,
    a: Bound<'py, PyAny>,
    modulus: Option<Bound<'py, PyAny>>,
    inverse: bool,
    axis: isize,
    threads: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let threads = Threads::parse(threads.as_ref())?;
    let modulus = modulus.map(|m| convert::biguint(&m, "modulus")).transpose()?;
    with_ring!(&a, modulus.as_ref(), |array, ring| transform_in_place(
        py, array, ring, inverse, axis, threads
    ))?;
    Ok(a)
}

fn transform_in_place<T, R>(
    py: Python<'_>,
    array: &Bound<'_, PyArrayDyn<T>>,
    ring: R,
    inverse: bool,
    axis: isize,
    threads: Threads,
) -> PyResult<()>
where
    T: Element + Copy + Send + Sync,
    R: Checked<Elem = T>,
{
    let ndim = array.ndim();
    let axis = normalise_axis(axis, ndim)?;
    let n = row_length(array.shape()[axis], axis)?;
    let name = ring.to_string();
    let plan = Plan::new(ring.clone(), n).map_err(|e| to_py(py, e))?.with_parallel(threads.parallel());
    if inverse && n > 1 && !ring.can_halve() {
        return Err(transform_error(py, Error::NoInverseOfTwo { ring: name.clone() }, &name));
    }
    let mut rw = array.try_readwrite().map_err(borrow_error)?;
    let mut view = rw.as_array_mut();
    if view.is_empty() {
        return Ok(());
    }
    let rows = if axis + 1 == ndim && view.is_standard_layout() {
        Rows::Whole(view.into_slice().expect("standard layout"))
    } else {
        let lanes: Option<Vec<&mut [T]>> =
            view.lanes_mut(Axis(axis)).into_iter().map(|l| l.into_slice()).collect();
        Rows::Each(lanes.ok_or_else(|| not_contiguous(axis, ndim))?)
    };
    let log2 = plan.log2();
    let run = || -> nimcount::Result<()> {
        match rows {
            // The checked transforms refuse residues not below the modulus as they first load
            // each block, leaving the array as it was.
            Rows::Whole(data) => {
                if inverse && ring.inverse_can_fail() {
                    let mut copy = data.to_vec();
                    plan.inverse(&mut copy)?;
                    data.copy_from_slice(&copy);
                    Ok(())
                } else if inverse {
                    plan.inverse(data)
                } else {
                    plan.forward(data)
                }
            }
            Rows::Each(mut rows) => {
                for row in &rows {
                    ring.check_values(row)?;
                    ring.check_transform(row, log2, false)?;
                }
                if inverse && ring.inverse_can_fail() {
                    let mut copy: Vec<T> = rows.iter().flat_map(|r| r.iter().copied()).collect();
                    plan.inverse_unchecked(&mut copy)?;
                    for (row, chunk) in rows.iter_mut().zip(copy.chunks_exact(n)) {
                        row.copy_from_slice(chunk);
                    }
                    return Ok(());
                }
                let one = |row: &mut &mut [T]| {
                    if inverse { plan.inverse_unchecked(row) } else { plan.forward_unchecked(row) }
                };
                if threads.parallel() && rows.len() > 1 {
                    rows.par_iter_mut().try_for_each(one)
                } else {
                    rows.iter_mut().try_for_each(one)
                }
            }
        }
    };
    py.detach(|| threads.run(run).and_then(|r| r)).map_err(|e| transform_error(py, e, &name))
}

/// The elements of an array in C order, and its shape.
fn elements<T: Element + Copy>(array: &Bound<'_, PyArrayDyn<T>>) -> PyResult<(Vec<T>, Vec<usize>)> {
    let read = array.try_readonly().map_err(borrow_error)?;
    let view = read.as_array();
    let data = match view.as_slice() {
        Some(slice) => slice.to_vec(),
        None => view.iter().copied().collect(),
    };
    Ok((data, view.shape().to_vec()))
}

/// A new array of `shape` holding `data`.
fn new_array<'py, T: Element>(py: Python<'py>, data: Vec<T>, shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyArray::from_vec(py, data).reshape(shape.to_vec())?.into_any())
}

/// The transform length of the last axis of a shape.
fn last_axis(shape: &[usize]) -> PyResult<usize> {
    let axis = normalise_axis(-1, shape.len())?;
    row_length(shape[axis], axis)
}

/// `xor_convolve(a, b, modulus=None)`: a new array, row by row along the last axis.
#[pyfunction]
#[pyo3(signature = (a, b, modulus=None))]
pub fn xor_convolve<'py>(
    py: Python<'py>,
    a: Bound<'py, PyAny>,
    b: Bound<'py, PyAny>,
    modulus: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let modulus = modulus.map(|m| convert::biguint(&m, "modulus")).transpose()?;
    with_ring!(&a, modulus.as_ref(), |left, ring| {
        let right = b.cast::<PyArrayDyn<_>>().map_err(|_| {
            let other = b
                .cast::<PyUntypedArray>()
                .map(|x| x.dtype().to_string())
                .unwrap_or_else(|_| "not an array".into());
            value_error(format!(
                "a and b must have the same dtype: a is {}, b is {other} (convert with b.astype(a.dtype))",
                left.dtype()
            ))
        })?;
        convolve(py, left, right, ring)
    })
}

fn convolve<'py, T, R>(
    py: Python<'py>,
    a: &Bound<'py, PyArrayDyn<T>>,
    b: &Bound<'py, PyArrayDyn<T>>,
    ring: R,
) -> PyResult<Bound<'py, PyAny>>
where
    T: Element + Copy + Send + Sync,
    R: Checked<Elem = T>,
{
    let (mut left, shape) = elements(a)?;
    let (mut right, other) = elements(b)?;
    if shape != other {
        return Err(value_error(format!("a and b must have the same shape: {shape:?} and {other:?}")));
    }
    let n = last_axis(&shape)?;
    let name = ring.to_string();
    if n > 1 && !ring.can_halve() {
        return Err(transform_error(py, Error::NoInverseOfTwo { ring: name.clone() }, &name));
    }
    if !left.is_empty() {
        let plan = Plan::new(ring.clone(), n).map_err(|e| to_py(py, e))?;
        py.detach(|| -> nimcount::Result<()> {
            ring.check_values(&left)?;
            ring.check_values(&right)?;
            left.par_chunks_mut(n)
                .zip(right.par_chunks_mut(n))
                .try_for_each(|(x, y)| plan.xor_convolve_in_place(x, y))
        })
        .map_err(|e| transform_error(py, e, &name))?;
    }
    new_array(py, left, &shape)
}

/// `xor_power(a, k, modulus=None)`: a new array, row by row along the last axis.
#[pyfunction]
#[pyo3(signature = (a, k, modulus=None))]
pub fn xor_power<'py>(
    py: Python<'py>,
    a: Bound<'py, PyAny>,
    k: Bound<'py, PyAny>,
    modulus: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let k = convert::biguint(&k, "k")?;
    let modulus = modulus.map(|m| convert::biguint(&m, "modulus")).transpose()?;
    with_ring!(&a, modulus.as_ref(), |array, ring| power(py, array, &k, ring))
}

fn power<'py, T, R>(
    py: Python<'py>,
    a: &Bound<'py, PyArrayDyn<T>>,
    k: &BigUint,
    ring: R,
) -> PyResult<Bound<'py, PyAny>>
where
    T: Element + Copy + Send + Sync,
    R: Checked<Elem = T>,
{
    let (mut data, shape) = elements(a)?;
    let n = last_axis(&shape)?;
    let name = ring.to_string();
    if n > 1 && !ring.can_halve() {
        return Err(transform_error(py, Error::NoInverseOfTwo { ring: name.clone() }, &name));
    }
    if !data.is_empty() {
        let plan = Plan::new(ring.clone(), n).map_err(|e| to_py(py, e))?;
        py.detach(|| -> nimcount::Result<()> {
            ring.check_values(&data)?;
            plan.forward_unchecked(&mut data)?;
            plan.pow_each(&mut data, k.clone())?;
            plan.inverse_unchecked(&mut data)
        })
        .map_err(|e| transform_error(py, e, &name))?;
    }
    new_array(py, data, &shape)
}
