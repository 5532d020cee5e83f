//! `fwht`, `xor_convolve` and `xor_power` on NumPy arrays.
//!
//! The dtype picks the ring: float32 and float64 (IEEE), uint32 and uint64 modulo an odd
//! `modulus` or wrapping modulo 2^32 and 2^64 without one, int64 exactly (a transform that could
//! overflow is refused before it runs). Every check runs before the array is written: a refused
//! call leaves it as it was. The Python layer widens narrower integer dtypes and makes the new
//! arrays of `xor_convolve` and `xor_power` (NumPy allocates them, so a lack of memory is a
//! `MemoryError`); every function here works in place.
//!
//! Each call claims the bytes of its arrays ([`Claim`]) and runs on a thread of its own
//! ([`interruptible`]): Ctrl-C stops it between rows and between chunks of the pointwise power.

use std::sync::{Arc, Mutex};

use nimcount::Error;
use nimcount::fwht::{Plan, Sets};
use nimcount::message::short;
use nimcount::num_bigint::BigUint;
use nimcount::ring::{Exact64, Float32, Float64, Mod32, Mod64, Ring, Wrap32, Wrap64};
use num_traits::ToPrimitive;
use numpy::ndarray::Axis;
use numpy::{BorrowError, Element, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::convert;
use crate::errors::{to_py, value_error};
use crate::interrupt::{Signals, interruptible};
use crate::inuse::Claim;

/// The dtypes transformed, as NumPy names them.
const DTYPES: &str = "float32, float64, uint32, uint64 and int64";

/// The most dimensions an array may have here (NumPy allows 64; the array views, 32).
const MAX_NDIM: usize = 32;

/// The most threads a call may ask for.
const MAX_THREADS: u64 = 256;

/// The fewest elements `fwht` transforms on a thread of its own, which Ctrl-C cancels (tens of
/// milliseconds of work, against about 0.1 ms to start the thread): smaller transforms take
/// well under a second and run on the calling thread.
const TRANSFORM_INTERRUPTIBLE_MIN: usize = 1 << 22;

/// The same for `xor_convolve` and `xor_power`, whose pointwise step may cost a microsecond an
/// element (a power with an exponent of many bits).
const POWER_INTERRUPTIBLE_MIN: usize = 1 << 16;

/// Elements raised per step of the pointwise power: Ctrl-C acts between steps.
const POW_CHUNK: usize = 1 << 20;

/// Where a transform runs: rayon's global pool, the calling thread alone, or a pool of its own.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Threads {
    Default,
    One,
    Pool(usize),
}

impl Threads {
    pub(crate) fn parse(threads: Option<&Bound<'_, PyAny>>) -> PyResult<Threads> {
        let Some(threads) = threads else { return Ok(Threads::Default) };
        let range = format!("give 1 to {MAX_THREADS}, or threads=None for every core");
        match convert::signed(threads, "threads")? {
            (true, n) => Err(value_error(format!("threads=-{}: {range}", short(&n)))),
            (false, n) => match n.to_u64() {
                Some(0) => Err(value_error(format!("threads=0: {range}"))),
                Some(1) => Ok(Threads::One),
                Some(n) if n <= MAX_THREADS => Ok(Threads::Pool(n as usize)),
                _ => Err(value_error(format!("threads={} is too many: {range}", short(&n)))),
            },
        }
    }

    /// How many threads may work at once.
    pub(crate) fn count(self) -> usize {
        match self {
            Threads::Default => rayon::current_num_threads(),
            Threads::One => 1,
            Threads::Pool(n) => n,
        }
    }

    pub(crate) fn parallel(self) -> bool {
        self != Threads::One
    }

    /// The pool these threads run in (`None`: the calling thread, or rayon's global pool).
    pub(crate) fn pool(self) -> PyResult<Option<Arc<rayon::ThreadPool>>> {
        match self {
            Threads::Default | Threads::One => Ok(None),
            Threads::Pool(n) => pool(n).map(Some),
        }
    }
}

/// A pool of `n` threads. A pool of at most as many threads as there are cores is kept for the
/// next call, one at a time: a call with another such size replaces it, and the old pool's
/// threads end once the calls running on it return. A larger pool is started for its call and
/// ends with it. So the process holds, beside rayon's global pool, at most one pool, of at most
/// the core count.
fn pool(n: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    static KEPT: Mutex<Option<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(None);
    let start = || {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("nimcount-{i}"))
            .build()
            .map(Arc::new)
            .map_err(|e| PyOSError::new_err(format!("threads={n}: cannot start {n} threads ({e})")))
    };
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    if n > cores {
        return start();
    }
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((size, pool)) = kept.as_ref()
        && *size == n
    {
        return Ok(pool.clone());
    }
    // The old pool first: its threads count against the process's limit.
    *kept = None;
    let pool = start()?;
    *kept = Some((n, pool.clone()));
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
            "modulus {} is too large for uint32 residues (odd moduli below 2^31); use a uint64 array (odd moduli below 2^63)",
            short(m)
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
        "modulus {} is even: residues are taken modulo an odd number (the XOR transform's inverse needs 1/2, \
         and every residue ring here is odd); {fix}",
        short(m)
    ))
}

/// The ring for a dtype and modulus, as a macro over the five element types: `$body` runs with
/// `$array` bound to the typed array and `$ring` to the ring.
macro_rules! with_ring {
    ($any:expr, $modulus:expr, |$array:ident, $ring:ident| $body:expr) => {{
        let any: &Bound<'_, PyAny> = $any;
        let modulus: Option<&BigUint> = $modulus;
        check_ndim(any)?;
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

/// Refuses an array of more dimensions than the array views take.
fn check_ndim(any: &Bound<'_, PyAny>) -> PyResult<()> {
    match any.cast::<PyUntypedArray>() {
        Ok(array) if array.ndim() > MAX_NDIM => Err(value_error(format!(
            "the array has {} dimensions; nimcount takes at most {MAX_NDIM} (reshape it first)",
            array.ndim()
        ))),
        _ => Ok(()),
    }
}

/// The error for an object that is not an array of a supported dtype.
fn unsupported(any: &Bound<'_, PyAny>) -> PyErr {
    match any.cast::<PyUntypedArray>() {
        Ok(array) => {
            let dtype = array.dtype().to_string();
            let fix = match dtype.as_str() {
                "int32" | "int16" | "int8" | "uint8" | "uint16" => ": convert with a.astype(np.int64)",
                "float16" | "bfloat16" => ": convert with a.astype(np.float32)",
                _ => "",
            };
            value_error(format!(
                "unsupported dtype {dtype}: nimcount transforms {DTYPES} (fwht also float16 and bfloat16, in place){fix}"
            ))
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

/// The refusal of an array whose rows share memory.
pub(crate) const OVERLAP: &str = "the rows of the array overlap in memory (a broadcast or strided view): fwht works in place; transform a copy, a.copy()";

/// Whether the rows along `axis` of an array (`strides` in bytes, elements of `size` bytes) may
/// share memory: the other axes, by growing stride, must each step past everything below them
/// (a sufficient test, as NumPy's own views pass it).
pub(crate) fn rows_overlap(shape: &[usize], strides: &[isize], axis: usize, size: usize) -> bool {
    // Rows not contiguous along the axis are refused as such; an empty array has no rows.
    if shape.contains(&0) || (shape[axis] > 1 && strides[axis].unsigned_abs() != size) {
        return false;
    }
    let mut others: Vec<(usize, usize)> = (0..shape.len())
        .filter(|&d| d != axis && shape[d] > 1)
        .map(|d| (strides[d].unsigned_abs(), shape[d]))
        .collect();
    others.sort_unstable();
    // Bytes spanned by one row and the axes taken so far.
    let mut extent = strides[axis].unsigned_abs().saturating_mul(shape[axis] - 1).saturating_add(size);
    for (stride, len) in others {
        if stride < extent {
            return true;
        }
        extent = extent.saturating_add(stride.saturating_mul(len - 1));
    }
    false
}

pub(crate) fn not_contiguous(axis: usize, ndim: usize) -> PyErr {
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

/// A copy of `data`, or [`Error::OutOfMemory`] when it cannot be allocated.
fn copy_of<T: Copy>(data: impl Iterator<Item = T>, len: usize) -> nimcount::Result<Vec<T>> {
    let mut copy = Vec::new();
    copy.try_reserve_exact(len).map_err(|_| Error::OutOfMemory {
        what: "a copy of the array (an int64 inverse that fails leaves the array as it was)".into(),
        needed: nimcount::error::Bytes((len as u64).saturating_mul(size_of::<T>() as u64)),
        available: nimcount::error::Bytes(nimcount::memory::available().unwrap_or(0)),
    })?;
    copy.extend(data);
    Ok(copy)
}

/// Runs `work` on `threads` and maps its error: a `long` one on a thread of its own that
/// Ctrl-C cancels, a short one on the calling thread with the GIL released (no thread to start).
fn run_transform<T: Send>(
    py: Python<'_>,
    threads: Threads,
    long: bool,
    name: &str,
    work: impl FnOnce(&Signals) -> nimcount::Result<T> + Send,
) -> PyResult<T> {
    let pool = threads.pool()?;
    let run = |signals: &Signals| match &pool {
        Some(pool) => pool.install(|| work(signals)),
        None => work(signals),
    };
    let outcome = if long { interruptible(py, run)? } else { py.detach(|| run(&Signals::default())) };
    outcome.map_err(|e| transform_error(py, e, name))
}

/// Claims `array`'s bytes (written when `writes`) for the call.
fn claim<T: Element>(array: &Bound<'_, PyArrayDyn<T>>) -> PyResult<Claim> {
    Claim::new(&[(array.as_untyped(), array.data() as usize, true)])
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
    if rows_overlap(array.shape(), array.strides(), axis, size_of::<T>()) {
        return Err(value_error(OVERLAP));
    }
    let _claim = claim(array)?;
    let mut rw = array.try_readwrite().map_err(borrow_error)?;
    let mut view = rw.as_array_mut();
    if view.is_empty() {
        return Ok(());
    }
    let elements = view.len();
    let rows = if axis + 1 == ndim && view.is_standard_layout() {
        Rows::Whole(view.into_slice().expect("standard layout"))
    } else {
        let lanes: Option<Vec<&mut [T]>> =
            view.lanes_mut(Axis(axis)).into_iter().map(|l| l.into_slice()).collect();
        Rows::Each(lanes.ok_or_else(|| not_contiguous(axis, ndim))?)
    };
    let log2 = plan.log2();
    run_transform(
        py,
        threads,
        elements >= TRANSFORM_INTERRUPTIBLE_MIN,
        &name,
        |signals| -> nimcount::Result<()> {
            if n == 1 {
                // Rows of one element: both transforms are the identity, with no sum to bound (an
                // int64 -2^63 is its own transform); residues are still checked.
                return match &rows {
                    Rows::Whole(data) => ring.check_values(data),
                    Rows::Each(rows) => rows.iter().try_for_each(|row| ring.check_values(row)),
                };
            }
            match rows {
                // The checked transforms refuse residues not below the modulus as they first load
                // each block, leaving the array as it was.
                Rows::Whole(data) => {
                    if inverse && ring.inverse_can_fail() {
                        let mut copy = copy_of(data.iter().copied(), data.len())?;
                        signals.check();
                        plan.inverse(&mut copy)?;
                        signals.check();
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
                        signals.check();
                        ring.check_values(row)?;
                        ring.check_transform(row, log2, false)?;
                    }
                    if inverse && ring.inverse_can_fail() {
                        let mut copy = copy_of(rows.iter().flat_map(|r| r.iter().copied()), rows.len() * n)?;
                        for chunk in copy.chunks_exact_mut(n) {
                            signals.check();
                            plan.inverse_unchecked(chunk)?;
                        }
                        for (row, chunk) in rows.iter_mut().zip(copy.chunks_exact(n)) {
                            row.copy_from_slice(chunk);
                        }
                        return Ok(());
                    }
                    let one = |row: &mut &mut [T]| {
                        signals.check();
                        if inverse { plan.inverse_unchecked(row) } else { plan.forward_unchecked(row) }
                    };
                    if threads.parallel() && rows.len() > 1 {
                        rows.par_iter_mut().try_for_each(one)
                    } else {
                        rows.iter_mut().try_for_each(one)
                    }
                }
            }
        },
    )
}

/// A C-contiguous array written in place by `xor_convolve` and `xor_power`, with its row length.
fn contiguous_rows<'a, T: Element>(
    view: numpy::ndarray::ArrayViewMutD<'a, T>,
) -> PyResult<(&'a mut [T], usize)> {
    let ndim = view.ndim();
    let axis = normalise_axis(-1, ndim)?;
    let n = row_length(view.shape()[axis], axis)?;
    let data = view.into_slice().ok_or_else(|| value_error("the array must be C-contiguous"))?;
    Ok((data, n))
}

/// `xor_convolve(a, b, modulus=None)`: `a ← a *ₓ b` row by row along the last axis, in place,
/// with `b` left holding its transform. Both arrays are C-contiguous, of one shape and dtype:
/// the Python layer passes fresh copies.
#[pyfunction]
#[pyo3(signature = (a, b, modulus=None, threads=None))]
pub fn xor_convolve<'py>(
    py: Python<'py>,
    a: Bound<'py, PyAny>,
    b: Bound<'py, PyAny>,
    modulus: Option<Bound<'py, PyAny>>,
    threads: Option<Bound<'py, PyAny>>,
) -> PyResult<()> {
    let threads = Threads::parse(threads.as_ref())?;
    let modulus = modulus.map(|m| convert::biguint(&m, "modulus")).transpose()?;
    check_ndim(&b)?;
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
        convolve(py, left, right, ring, threads)
    })
}

fn convolve<T, R>(
    py: Python<'_>,
    a: &Bound<'_, PyArrayDyn<T>>,
    b: &Bound<'_, PyArrayDyn<T>>,
    ring: R,
    threads: Threads,
) -> PyResult<()>
where
    T: Element + Copy + Send + Sync,
    R: Checked<Elem = T>,
{
    if a.shape() != b.shape() {
        return Err(value_error(format!(
            "a and b must have the same shape: {:?} and {:?}",
            a.shape(),
            b.shape()
        )));
    }
    let _claim =
        Claim::new(&[(a.as_untyped(), a.data() as usize, true), (b.as_untyped(), b.data() as usize, true)])?;
    let mut left = a.try_readwrite().map_err(borrow_error)?;
    let mut right = b.try_readwrite().map_err(borrow_error)?;
    let (left, n) = contiguous_rows(left.as_array_mut())?;
    let (right, _) = contiguous_rows(right.as_array_mut())?;
    let name = ring.to_string();
    if n > 1 && !ring.can_halve() {
        return Err(transform_error(py, Error::NoInverseOfTwo { ring: name.clone() }, &name));
    }
    if left.is_empty() {
        return Ok(());
    }
    let plan = Plan::new(ring.clone(), n).map_err(|e| to_py(py, e))?.with_parallel(threads.parallel());
    run_transform(py, threads, left.len() >= POWER_INTERRUPTIBLE_MIN, &name, |signals| {
        ring.check_values(left)?;
        ring.check_values(right)?;
        signals.check();
        if n == 1 {
            // Rows of one element: the transform is the identity, with no sum to bound (an int64
            // -2^63 times 1 fits), so only the products are checked.
            return multiply(plan.ring(), left, right, threads.parallel());
        }
        // Rows in groups, Ctrl-C checked between groups.
        let group = (POW_CHUNK / n).max(1) * n;
        for (x, y) in left.chunks_mut(group).zip(right.chunks_mut(group)) {
            signals.check();
            if threads.parallel() {
                x.par_chunks_mut(n)
                    .zip(y.par_chunks_mut(n))
                    .try_for_each(|(x, y)| plan.xor_convolve_in_place(x, y))?;
            } else {
                x.chunks_mut(n)
                    .zip(y.chunks_mut(n))
                    .try_for_each(|(x, y)| plan.xor_convolve_in_place(x, y))?;
            }
        }
        Ok(())
    })
}

/// `xor_power(a, k, modulus=None, threads=None)`: `a ← a^k` (XOR powers) row by row along the
/// last axis, in place; `a` is C-contiguous (the Python layer passes a fresh copy).
#[pyfunction]
#[pyo3(signature = (a, k, modulus=None, threads=None))]
pub fn xor_power<'py>(
    py: Python<'py>,
    a: Bound<'py, PyAny>,
    k: Bound<'py, PyAny>,
    modulus: Option<Bound<'py, PyAny>>,
    threads: Option<Bound<'py, PyAny>>,
) -> PyResult<()> {
    let threads = Threads::parse(threads.as_ref())?;
    let k = convert::biguint(&k, "k")?;
    let modulus = modulus.map(|m| convert::biguint(&m, "modulus")).transpose()?;
    with_ring!(&a, modulus.as_ref(), |array, ring| power(py, array, &k, ring, threads))
}

fn power<T, R>(
    py: Python<'_>,
    a: &Bound<'_, PyArrayDyn<T>>,
    k: &BigUint,
    ring: R,
    threads: Threads,
) -> PyResult<()>
where
    T: Element + Copy + Send + Sync,
    R: Checked<Elem = T>,
{
    let _claim = claim(a)?;
    let mut rw = a.try_readwrite().map_err(borrow_error)?;
    let (data, n) = contiguous_rows(rw.as_array_mut())?;
    let name = ring.to_string();
    if n > 1 && !ring.can_halve() {
        return Err(transform_error(py, Error::NoInverseOfTwo { ring: name.clone() }, &name));
    }
    if data.is_empty() {
        return Ok(());
    }
    let plan = Plan::new(ring.clone(), n).map_err(|e| to_py(py, e))?.with_parallel(threads.parallel());
    run_transform(py, threads, data.len() >= POWER_INTERRUPTIBLE_MIN, &name, |signals| {
        ring.check_values(data)?;
        // Whole rows per step, and at least one.
        let group = (POW_CHUNK / n).max(1) * n;
        for rows in data.chunks_mut(group) {
            signals.check();
            plan.forward_unchecked(rows)?;
        }
        for chunk in data.chunks_mut(POW_CHUNK) {
            signals.check();
            plan.pow_each(chunk, k.clone())?;
        }
        for rows in data.chunks_mut(group) {
            signals.check();
            plan.inverse_unchecked(rows)?;
        }
        Ok(())
    })
}

/// `set_convolve(a, b, kind, modulus=None, threads=None)`: `a ← a ∘ b` row by row along the last
/// axis, in place, for `kind` `"and"`, `"or"` or `"subset"`. Both arrays are C-contiguous, of one
/// shape and dtype: the Python layer passes fresh copies, and `b` is left holding its zeta
/// transform (AND and OR) or unchanged (subset). Unsigned arrays without a modulus wrap (the zeta
/// transforms need no `1/2`).
#[pyfunction]
#[pyo3(signature = (a, b, kind, modulus=None, threads=None))]
pub fn set_convolve<'py>(
    py: Python<'py>,
    a: Bound<'py, PyAny>,
    b: Bound<'py, PyAny>,
    kind: &str,
    modulus: Option<Bound<'py, PyAny>>,
    threads: Option<Bound<'py, PyAny>>,
) -> PyResult<()> {
    let kind = match kind {
        "and" => SetKind::And,
        "or" => SetKind::Or,
        "subset" => SetKind::Subset,
        _ => return Err(value_error(format!("kind {kind:?}: expected \"and\", \"or\" or \"subset\""))),
    };
    let threads = Threads::parse(threads.as_ref())?;
    let modulus = modulus.map(|m| convert::biguint(&m, "modulus")).transpose()?;
    check_ndim(&b)?;
    with_ring!(&a, modulus.as_ref(), |left, ring| {
        let right = b
            .cast::<PyArrayDyn<_>>()
            .map_err(|_| value_error(format!("a and b must have the same dtype (a is {})", left.dtype())))?;
        set_rows(py, left, right, ring, kind, threads)
    })
}

/// The convolutions of [`set_convolve`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum SetKind {
    And,
    Or,
    Subset,
}

/// `x[i] ← x[i] · y[i]`, refused where a product leaves the ring (the exact rings only).
fn multiply<R: Ring>(ring: &R, x: &mut [R::Elem], y: &[R::Elem], parallel: bool) -> nimcount::Result<()>
where
    R::Elem: Copy + Send + Sync,
{
    let one = |(x, y): (&mut [R::Elem], &[R::Elem])| -> nimcount::Result<()> {
        for (a, &b) in x.iter_mut().zip(y) {
            *a = ring.checked_mul(*a, b).ok_or_else(|| Error::Overflow {
                what: "pointwise product",
                ring: ring.to_string(),
                detail: format!("{a} * {b}"),
            })?;
        }
        Ok(())
    };
    if parallel && x.len() >= 1 << 16 {
        x.par_chunks_mut(1 << 14).zip(y.par_chunks(1 << 14)).try_for_each(one)
    } else {
        one((x, y))
    }
}

fn set_rows<T, R>(
    py: Python<'_>,
    a: &Bound<'_, PyArrayDyn<T>>,
    b: &Bound<'_, PyArrayDyn<T>>,
    ring: R,
    kind: SetKind,
    threads: Threads,
) -> PyResult<()>
where
    T: Element + Copy + Send + Sync,
    R: Checked<Elem = T>,
{
    if a.shape() != b.shape() {
        return Err(value_error(format!(
            "a and b must have the same shape: {:?} and {:?}",
            a.shape(),
            b.shape()
        )));
    }
    let _claim =
        Claim::new(&[(a.as_untyped(), a.data() as usize, true), (b.as_untyped(), b.data() as usize, true)])?;
    let mut left = a.try_readwrite().map_err(borrow_error)?;
    let mut right = b.try_readwrite().map_err(borrow_error)?;
    let (left, n) = contiguous_rows(left.as_array_mut())?;
    let (right, _) = contiguous_rows(right.as_array_mut())?;
    if left.is_empty() {
        return Ok(());
    }
    let name = ring.to_string();
    let plan = Plan::new(ring.clone(), n).map_err(|e| to_py(py, e))?.with_parallel(threads.parallel());
    // The library's subset convolution spreads its work over rayon's current pool: with
    // `threads=1` that pool is one thread.
    let threads = match (kind, threads) {
        (SetKind::Subset, Threads::One) => Threads::Pool(1),
        _ => threads,
    };
    run_transform(py, threads, left.len() >= POWER_INTERRUPTIBLE_MIN, &name, |signals| {
        ring.check_values(left)?;
        ring.check_values(right)?;
        // Rows in groups, Ctrl-C checked between groups.
        let group = (POW_CHUNK / n).max(1) * n;
        for (x, y) in left.chunks_mut(group).zip(right.chunks_mut(group)) {
            signals.check();
            let sets = match kind {
                SetKind::And => Sets::Superset,
                SetKind::Or => Sets::Subset,
                SetKind::Subset if n == 1 => {
                    multiply(plan.ring(), x, y, threads.parallel())?;
                    continue;
                }
                SetKind::Subset => {
                    // Its ranked transforms are the library's, which checks their memory first.
                    for (x, y) in x.chunks_mut(n).zip(y.chunks(n)) {
                        signals.check();
                        let c = nimcount::convolve::subset_convolve(ring.clone(), x, y)?;
                        x.copy_from_slice(&c);
                    }
                    continue;
                }
            };
            // In place on the two copies: nothing to allocate. A transform of length 1 is the
            // identity, with no sum to bound: only the products are checked.
            if n > 1 {
                plan.zeta(x, sets)?;
                plan.zeta(y, sets)?;
            }
            multiply(plan.ring(), x, y, threads.parallel())?;
            if n > 1 {
                plan.mobius(x, sets)?;
            }
        }
        Ok(())
    })
}

/// `zeta(a, superset, inverse, modulus=None, threads=None)`: the zeta (or, `inverse`, Möbius)
/// transform over subsets (or supersets) of every row along the last axis, in place; `a` is
/// C-contiguous (the Python layer passes a fresh copy). No ring needs `1/2`.
#[pyfunction]
#[pyo3(signature = (a, superset, inverse, modulus=None, threads=None))]
pub fn zeta<'py>(
    py: Python<'py>,
    a: Bound<'py, PyAny>,
    superset: bool,
    inverse: bool,
    modulus: Option<Bound<'py, PyAny>>,
    threads: Option<Bound<'py, PyAny>>,
) -> PyResult<()> {
    let threads = Threads::parse(threads.as_ref())?;
    let modulus = modulus.map(|m| convert::biguint(&m, "modulus")).transpose()?;
    let sets = if superset { Sets::Superset } else { Sets::Subset };
    with_ring!(&a, modulus.as_ref(), |array, ring| zeta_rows(py, array, ring, sets, inverse, threads))
}

fn zeta_rows<T, R>(
    py: Python<'_>,
    a: &Bound<'_, PyArrayDyn<T>>,
    ring: R,
    sets: Sets,
    inverse: bool,
    threads: Threads,
) -> PyResult<()>
where
    T: Element + Copy + Send + Sync,
    R: Checked<Elem = T>,
{
    let _claim = claim(a)?;
    let mut rw = a.try_readwrite().map_err(borrow_error)?;
    let (data, n) = contiguous_rows(rw.as_array_mut())?;
    if data.is_empty() {
        return Ok(());
    }
    let name = ring.to_string();
    let plan = Plan::new(ring.clone(), n).map_err(|e| to_py(py, e))?.with_parallel(threads.parallel());
    run_transform(py, threads, data.len() >= TRANSFORM_INTERRUPTIBLE_MIN, &name, |signals| {
        ring.check_values(data)?;
        signals.check();
        if n == 1 {
            return Ok(()); // the identity, with no sum to bound
        }
        if inverse { plan.mobius(data, sets) } else { plan.zeta(data, sets) }
    })
}
