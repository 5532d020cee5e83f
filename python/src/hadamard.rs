//! `hadamard` and `hadamard_matrix`: the Hadamard transforms of lengths `m·2^k` in float16,
//! bfloat16, float32 and float64 with a scale ([`nimcount::fwht::HadamardPlan`]), in place, on
//! NumPy arrays and on any object that exports its memory through DLPack on the CPU.
//!
//! The DLPack consumer: `__dlpack_device__()` must name the CPU; `__dlpack__(max_version=(1,
//! 0))` (or `__dlpack__()` for producers that predate versions) gives a capsule named
//! `dltensor_versioned` or `dltensor` holding a `DLManagedTensorVersioned` or a
//! `DLManagedTensor`. The capsule is consumed (renamed `used_dltensor…`) once its tensor is
//! accepted, and its deleter is called when the transform is over (also on an error); a tensor
//! refused (read-only, not on the CPU, of another dtype, rows that overlap or are not
//! contiguous) is left to the capsule, whose destructor frees it.

use std::ffi::{CStr, c_void};

use nimcount::Error;
use nimcount::fwht::{HadamardFamily, HadamardPlan, Storage};
use nimcount::half::{bf16, f16};
use nimcount::message::short;
use num_traits::ToPrimitive;
use numpy::{PyArray1, PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use rayon::prelude::*;

use crate::convert;
use crate::errors::{to_py, value_error};
use crate::interrupt::{Signals, interruptible};
use crate::inuse::Claim;
use crate::transform::{OVERLAP, Threads, not_contiguous};

/// The element types.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dtype {
    F16,
    BF16,
    F32,
    F64,
}

impl Dtype {
    fn size(self) -> usize {
        match self {
            Dtype::F16 | Dtype::BF16 => 2,
            Dtype::F32 => 4,
            Dtype::F64 => 8,
        }
    }
}

const DTYPES: &str = "float16, bfloat16, float32 or float64";

/// Rows of memory to transform: element type, the start of every row (addresses), row length.
/// Rows do not overlap and each is `n` contiguous elements.
struct Rows {
    dtype: Dtype,
    starts: Vec<usize>,
    n: usize,
    /// Whether the rows lie back to back from `starts[0]`.
    whole: bool,
    /// The bytes spanned, for the claim.
    span: (usize, usize),
}

/// Rows along `axis` of a strided array at `base` (strides in elements), checked to be
/// contiguous along the axis and not to overlap one another.
fn rows_of(
    base: usize,
    dtype: Dtype,
    shape: &[usize],
    strides: &[isize],
    axis: isize,
    choice: Choice,
) -> PyResult<Rows> {
    let ndim = shape.len();
    if ndim == 0 {
        return Err(value_error("a 0-d array has no axis to transform (np.atleast_1d makes a 1-d one)"));
    }
    let resolved = if axis < 0 { axis + ndim as isize } else { axis };
    if resolved < 0 || resolved >= ndim as isize {
        return Err(value_error(format!("axis {axis} is out of bounds for an array of dimension {ndim}")));
    }
    let axis = resolved as usize;
    let n = shape[axis];
    if n == 0 {
        return Err(value_error(format!(
            "the array is empty along axis {axis}: a transform needs at least one element"
        )));
    }
    choice.plan(n).map_err(|e| match e {
        Error::NotHadamardFactor { why, .. } => value_error(format!("{why} (along axis {axis})")),
        _ => length_error(n, axis),
    })?;
    // No rows (NumPy gives an empty array zero strides): nothing to transform, as for float64.
    if shape.contains(&0) {
        return Ok(Rows { dtype, starts: vec![], n, whole: true, span: (base, base) });
    }
    if n > 1 && strides[axis] != 1 {
        return Err(not_contiguous(axis, ndim));
    }
    // The other axes, by growing stride: each must step past everything below it.
    let mut others: Vec<(isize, usize)> =
        (0..ndim).filter(|&d| d != axis && shape[d] > 1).map(|d| (strides[d], shape[d])).collect();
    let count: usize = others.iter().map(|&(_, len)| len).product();
    others.sort_by_key(|&(s, _)| s.unsigned_abs());
    let mut extent = n; // elements spanned by one row and the axes taken so far
    let mut whole = true;
    for &(stride, len) in &others {
        if stride.unsigned_abs() < extent {
            return Err(value_error(OVERLAP));
        }
        whole &= stride == extent as isize;
        extent = extent.saturating_add(stride.unsigned_abs().saturating_mul(len - 1));
    }
    let size = dtype.size() as isize;
    let mut starts = Vec::with_capacity(count);
    let mut lo = base as isize;
    for &(stride, len) in &others {
        if stride < 0 {
            lo += stride * (len as isize - 1) * size;
        }
    }
    // Row starts in C order of the other axes.
    let dims: Vec<(isize, usize)> =
        (0..ndim).filter(|&d| d != axis && shape[d] > 1).map(|d| (strides[d], shape[d])).collect();
    let mut index = vec![0usize; dims.len()];
    for _ in 0..count {
        let offset: isize = index.iter().zip(&dims).map(|(&i, &(s, _))| i as isize * s).sum();
        starts.push((base as isize + offset * size) as usize);
        for d in (0..dims.len()).rev() {
            index[d] += 1;
            if index[d] < dims[d].1 {
                break;
            }
            index[d] = 0;
        }
    }
    let whole = whole && dims.iter().all(|&(s, _)| s > 0) && starts.windows(2).all(|w| w[0] < w[1]);
    let span = (lo as usize, lo as usize + extent * dtype.size());
    Ok(Rows { dtype, starts, n, whole, span })
}

/// The factor and the family of the Hadamard matrix asked for (`None`: the rule's, the default).
#[derive(Clone, Copy, Debug, Default)]
pub struct Choice {
    factor: Option<usize>,
    family: Option<HadamardFamily>,
}

impl Choice {
    /// `factor=` and `family=` of the Python call: a positive int (the Python layer checks its
    /// type) and `"fast-hadamard-transform"` or `"sloane"`.
    fn parse(factor: Option<u64>, family: Option<&str>) -> PyResult<Choice> {
        let factor = match factor {
            None => None,
            Some(0) => {
                return Err(value_error("factor=0: a factor is the order K of H_K ⊗ H_(n/K), at least 1"));
            }
            Some(k) => Some(
                usize::try_from(k)
                    .map_err(|_| value_error(format!("factor={k} is the order of no Hadamard matrix")))?,
            ),
        };
        let family = match family {
            None => None,
            Some(name) => Some(name.parse::<HadamardFamily>().map_err(|_| {
                value_error(format!(
                    "family={name:?}: the families are 'fast-hadamard-transform' and 'sloane'"
                ))
            })?),
        };
        Ok(Choice { factor, family })
    }

    /// The plan of rows of `n` values.
    fn plan(self, n: usize) -> nimcount::Result<HadamardPlan> {
        HadamardPlan::with_factor(n, self.factor, self.family)
    }
}

/// The error for a row length without a Hadamard matrix, with the next length that has one.
fn length_error(n: usize, axis: usize) -> PyErr {
    let next = (n..)
        .take(1 << 20)
        .find(|&l| HadamardPlan::new(l).is_ok())
        .map_or_else(|| format!("{}", n.next_power_of_two()), |l| l.to_string());
    value_error(format!(
        "length {n} along axis {axis} is not a power of two; pad with zeros to {next} (np.pad): float arrays take 2^k, 12·2^k, 20·2^k, 28·2^k, 40·2^k and K·2^k for K in 36, 44, 52, 60, 108, 140, 156, 172"
    ))
}

/// The element type of a NumPy array, `None` for the others. bfloat16 is ml_dtypes' NumPy
/// dtype, known by its name (ml_dtypes need not be installed for the rest).
fn numpy_dtype(array: &Bound<'_, PyUntypedArray>) -> Option<Dtype> {
    let dtype = array.dtype();
    match (dtype.kind(), dtype.itemsize()) {
        (b'f', 2) => Some(Dtype::F16),
        (b'f', 4) => Some(Dtype::F32),
        (b'f', 8) => Some(Dtype::F64),
        (_, 2) if dtype.to_string() == "bfloat16" => Some(Dtype::BF16),
        _ => None,
    }
}

fn numpy_rows(array: &Bound<'_, PyUntypedArray>, axis: isize, choice: Choice) -> PyResult<Rows> {
    let dtype = numpy_dtype(array).ok_or_else(|| {
        value_error(format!(
            "unsupported dtype {}: scale= and lengths m·2^k take {DTYPES} arrays",
            array.dtype()
        ))
    })?;
    if array.ndim() > 32 {
        return Err(value_error(format!(
            "the array has {} dimensions; nimcount takes at most 32 (reshape it first)",
            array.ndim()
        )));
    }
    let interface = array.getattr("__array_interface__")?;
    let (data, read_only): (usize, bool) = interface.get_item("data")?.extract()?;
    if read_only {
        return Err(value_error(
            "the array is read-only (a.flags.writeable is False): fwht works in place; transform a copy, a.copy()",
        ));
    }
    let size = dtype.size() as isize;
    if array.strides().iter().any(|s| s % size != 0) {
        return Err(value_error("the array's strides are not whole elements: transform a copy, a.copy()"));
    }
    let strides: Vec<isize> = array.strides().iter().map(|s| s / size).collect();
    rows_of(data, dtype, array.shape(), &strides, axis, choice)
}

/// DLPack's structures (`dlpack.h`, version 1.0; the unversioned ones of 0.x).
#[repr(C)]
#[derive(Clone, Copy)]
struct DLDevice {
    device_type: i32,
    device_id: i32,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct DLDataType {
    code: u8,
    bits: u8,
    lanes: u16,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct DLTensor {
    data: *mut c_void,
    device: DLDevice,
    ndim: i32,
    dtype: DLDataType,
    shape: *const i64,
    strides: *const i64,
    byte_offset: u64,
}

#[repr(C)]
struct DLManagedTensor {
    dl_tensor: DLTensor,
    manager_ctx: *mut c_void,
    deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

#[repr(C)]
struct DLPackVersion {
    major: u32,
    minor: u32,
}

#[repr(C)]
struct DLManagedTensorVersioned {
    version: DLPackVersion,
    manager_ctx: *mut c_void,
    deleter: Option<unsafe extern "C" fn(*mut DLManagedTensorVersioned)>,
    flags: u64,
    dl_tensor: DLTensor,
}

const DL_CPU: i32 = 1;
const DL_CUDA_HOST: i32 = 3;
const DL_FLOAT: u8 = 2;
const DL_BFLOAT: u8 = 4;
const DL_FLAG_READ_ONLY: u64 = 1;

const VERSIONED: &CStr = c"dltensor_versioned";
const UNVERSIONED: &CStr = c"dltensor";
const USED_VERSIONED: &CStr = c"used_dltensor_versioned";
const USED: &CStr = c"used_dltensor";

/// A consumed capsule's tensor: its deleter is called when this is dropped (with the GIL held).
enum Managed {
    Versioned(*mut DLManagedTensorVersioned),
    Unversioned(*mut DLManagedTensor),
}

impl Drop for Managed {
    fn drop(&mut self) {
        // SAFETY: the pointers come from a capsule consumed by this call: the producer keeps the
        // tensor alive until its deleter runs, which happens here, once.
        unsafe {
            match *self {
                Managed::Versioned(p) => {
                    if let Some(deleter) = (*p).deleter {
                        deleter(p)
                    }
                }
                Managed::Unversioned(p) => {
                    if let Some(deleter) = (*p).deleter {
                        deleter(p)
                    }
                }
            }
        }
    }
}

/// The capsule of `obj.__dlpack__`, asking for a versioned one first.
fn dlpack_capsule<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("max_version", PyTuple::new(py, [1u32, 0])?)?;
    match obj.call_method("__dlpack__", (), Some(&kwargs)) {
        Ok(capsule) => Ok(capsule),
        // A producer that predates versioned capsules does not take `max_version`.
        Err(e) if e.is_instance_of::<PyTypeError>(py) => obj.call_method0("__dlpack__"),
        Err(e) => Err(e),
    }
    .map_err(|e| dlpack_refused(py, e))
}

/// A producer's own refusal (NumPy's BufferError for a read-only array), as a ValueError that
/// says what nimcount needs.
fn dlpack_refused(py: Python<'_>, e: PyErr) -> PyErr {
    if e.is_instance_of::<pyo3::exceptions::PyBufferError>(py) {
        value_error(format!(
            "the object does not export writable memory through DLPack ({}): fwht works in place; pass a writable copy",
            e.value(py)
        ))
    } else {
        e
    }
}

/// The rows of a DLPack producer, and the consumed tensor to release once they are transformed.
fn dlpack_rows(obj: &Bound<'_, PyAny>, axis: isize, choice: Choice) -> PyResult<(Rows, Managed)> {
    let device: (i32, i32) = obj.call_method0("__dlpack_device__")?.extract()?;
    if device.0 != DL_CPU && device.0 != DL_CUDA_HOST {
        return Err(value_error(format!(
            "the object's memory is on DLPack device type {} (not the CPU, 1): nimcount transforms memory the CPU holds; move it first (tensor.cpu())",
            device.0
        )));
    }
    let capsule = dlpack_capsule(obj)?;
    let raw = capsule.as_ptr();
    // SAFETY: `raw` is a live object (held by `capsule`); PyCapsule_IsValid accepts any object.
    let versioned = unsafe { pyo3::ffi::PyCapsule_IsValid(raw, VERSIONED.as_ptr()) } == 1;
    // SAFETY: as above.
    if !versioned && unsafe { pyo3::ffi::PyCapsule_IsValid(raw, UNVERSIONED.as_ptr()) } != 1 {
        return Err(PyTypeError::new_err(
            "__dlpack__ did not return a DLPack capsule (named 'dltensor' or 'dltensor_versioned', not consumed yet)",
        ));
    }
    let name = if versioned { VERSIONED } else { UNVERSIONED };
    // SAFETY: the capsule was checked to be valid with this name.
    let pointer = unsafe { pyo3::ffi::PyCapsule_GetPointer(raw, name.as_ptr()) };
    if pointer.is_null() {
        return Err(PyErr::fetch(obj.py()));
    }
    // SAFETY: a valid capsule of this name holds a tensor of the matching structure, alive while
    // the capsule is not consumed.
    let tensor: DLTensor = unsafe {
        if versioned {
            let m = pointer as *const DLManagedTensorVersioned;
            if (*m).version.major != 1 {
                return Err(value_error(format!(
                    "DLPack version {}.{} is not supported (nimcount reads 1.x)",
                    (*m).version.major,
                    (*m).version.minor
                )));
            }
            if (*m).flags & DL_FLAG_READ_ONLY != 0 {
                return Err(value_error(
                    "the object exports read-only memory through DLPack: fwht works in place; pass a writable copy",
                ));
            }
            (*m).dl_tensor
        } else {
            (*(pointer as *const DLManagedTensor)).dl_tensor
        }
    };
    let dtype = match (tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes) {
        (DL_FLOAT, 16, 1) => Dtype::F16,
        (DL_FLOAT, 32, 1) => Dtype::F32,
        (DL_FLOAT, 64, 1) => Dtype::F64,
        (DL_BFLOAT, 16, 1) => Dtype::BF16,
        (code, bits, lanes) => {
            return Err(value_error(format!(
                "unsupported DLPack dtype (code {code}, {bits} bits, {lanes} lanes): fwht transforms {DTYPES} through DLPack"
            )));
        }
    };
    let ndim =
        usize::try_from(tensor.ndim).map_err(|_| value_error("a DLPack tensor of negative dimension"))?;
    if ndim > 32 {
        return Err(value_error(format!(
            "the tensor has {ndim} dimensions; nimcount takes at most 32 (reshape it first)"
        )));
    }
    // SAFETY: DLPack guarantees `shape` (and `strides`, when not null) hold `ndim` values.
    let (shape, strides) = unsafe {
        let shape: Vec<i64> =
            if ndim == 0 { vec![] } else { std::slice::from_raw_parts(tensor.shape, ndim).to_vec() };
        let strides: Option<Vec<i64>> = (!tensor.strides.is_null() && ndim > 0)
            .then(|| std::slice::from_raw_parts(tensor.strides, ndim).to_vec());
        (shape, strides)
    };
    let shape: Vec<usize> = shape
        .iter()
        .map(|&s| usize::try_from(s).map_err(|_| value_error("a DLPack tensor of negative shape")))
        .collect::<PyResult<_>>()?;
    // Without strides the tensor is C-contiguous.
    let strides: Vec<isize> = match strides {
        Some(s) => s.iter().map(|&v| v as isize).collect(),
        None => {
            let mut s = vec![1isize; ndim];
            for d in (0..ndim.saturating_sub(1)).rev() {
                s[d] = s[d + 1] * shape[d + 1].max(1) as isize;
            }
            s
        }
    };
    let base = (tensor.data as usize).wrapping_add(tensor.byte_offset as usize);
    let rows = rows_of(base, dtype, &shape, &strides, axis, choice)?;
    // Accepted: consume the capsule, so that its destructor leaves the tensor to this call.
    let used = if versioned { USED_VERSIONED } else { USED };
    // SAFETY: a live capsule; the name is a static C string, as the capsule API requires.
    if unsafe { pyo3::ffi::PyCapsule_SetName(raw, used.as_ptr()) } != 0 {
        return Err(PyErr::fetch(obj.py()));
    }
    let managed = if versioned {
        Managed::Versioned(pointer as *mut DLManagedTensorVersioned)
    } else {
        Managed::Unversioned(pointer as *mut DLManagedTensor)
    };
    Ok((rows, managed))
}

/// Values transformed between two looks at Ctrl-C: tens of milliseconds on one core.
const CHUNK: usize = 1 << 22;

/// One transform of rows: the plan, the scale, the direction and whether threads share it.
struct Pass<'a> {
    plan: &'a HadamardPlan,
    scale: f64,
    inverse: bool,
    parallel: bool,
}

impl Pass<'_> {
    /// Transforms every row, in place, [`CHUNK`] values (whole rows) at a time, looking at
    /// `signals` between chunks (Ctrl-C stops the transform there, the rows done so far
    /// transformed).
    fn run(&self, rows: &Rows, signals: &Signals) -> nimcount::Result<()> {
        match rows.dtype {
            Dtype::F16 => self.typed::<f16>(rows, signals),
            Dtype::BF16 => self.typed::<bf16>(rows, signals),
            Dtype::F32 => self.typed::<f32>(rows, signals),
            Dtype::F64 => self.typed::<f64>(rows, signals),
        }
    }

    fn typed<S: Storage>(&self, rows: &Rows, signals: &Signals) -> nimcount::Result<()> {
        let Pass { plan, scale, inverse, parallel } = *self;
        let one =
            |data: &mut [S]| if inverse { plan.inverse(data, scale) } else { plan.forward(data, scale) };
        if rows.starts.is_empty() {
            return Ok(());
        }
        let per_chunk = (CHUNK / rows.n).max(1);
        if rows.whole {
            // SAFETY: the rows lie back to back from the first start (checked by `rows_of`), in
            // memory the caller keeps alive and writable, and claimed for this call.
            let data = unsafe {
                std::slice::from_raw_parts_mut(rows.starts[0] as *mut S, rows.starts.len() * rows.n)
            };
            for chunk in data.chunks_mut(per_chunk * rows.n) {
                signals.check();
                one(chunk)?;
            }
            return Ok(());
        }
        let row = |&start: &usize| {
            // SAFETY: each row is `n` contiguous elements, the rows do not overlap (checked by
            // `rows_of`), in memory kept alive, writable and claimed for this call.
            one(unsafe { std::slice::from_raw_parts_mut(start as *mut S, rows.n) })
        };
        for starts in rows.starts.chunks(per_chunk) {
            signals.check();
            if parallel && starts.len() > 1 && starts.len() * rows.n >= 1 << 16 {
                starts.par_iter().try_for_each(row)?;
            } else {
                starts.iter().try_for_each(row)?;
            }
        }
        Ok(())
    }
}

/// Refuses a float16 or bfloat16 transform whose float32 working rows do not fit in memory: the
/// library widens each row it transforms into a float32 row of its own (one at a time when the
/// rows lie back to back, else one per thread at once).
fn half_room(rows: &Rows, threads: Threads) -> nimcount::Result<()> {
    if !matches!(rows.dtype, Dtype::F16 | Dtype::BF16) || rows.starts.is_empty() {
        return Ok(());
    }
    let spread =
        threads.parallel() && !rows.whole && rows.starts.len() > 1 && rows.starts.len() * rows.n >= 1 << 16;
    let at_once = if spread { rows.starts.len().min(threads.count()) } else { 1 };
    let what = || {
        format!("the float32 working rows of a half-precision transform ({at_once} of {} elements)", rows.n)
    };
    let bytes = nimcount::memory::bytes_for::<f32>(what, rows.n as u128 * at_once as u128)?;
    nimcount::memory::ensure_fits(what, bytes)
}

/// `hadamard(a, scale=None, inverse=False, axis=-1, threads=None, factor=None, family=None)`: in
/// place, returns `a`: a NumPy array of a float dtype (bfloat16 included), or any object with
/// `__dlpack__` on the CPU. `factor` (checked to be a positive int by the Python layer) and
/// `family` choose the matrix ([`HadamardPlan::with_factor`]).
#[pyfunction]
#[pyo3(signature = (a, scale=None, inverse=false, axis=-1, threads=None, factor=None, family=None))]
#[allow(clippy::too_many_arguments)]
pub fn hadamard<'py>(
    py: Python<'py>,
    a: Bound<'py, PyAny>,
    scale: Option<Bound<'py, PyAny>>,
    inverse: bool,
    axis: isize,
    threads: Option<Bound<'py, PyAny>>,
    factor: Option<u64>,
    family: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let threads = Threads::parse(threads.as_ref())?;
    let choice = Choice::parse(factor, family)?;
    let scale = match scale {
        None => 1.0,
        Some(s) => {
            if s.is_instance_of::<pyo3::types::PyBool>() {
                return Err(PyTypeError::new_err("scale must be a number, not a bool"));
            }
            let v: f64 = s.extract().map_err(|_| PyTypeError::new_err("scale must be a real number"))?;
            if !v.is_finite() {
                return Err(value_error(format!("scale={v} is not a finite number")));
            }
            v
        }
    };
    let (rows, managed) = if let Ok(array) = a.cast::<PyUntypedArray>() {
        (numpy_rows(array, axis, choice)?, None)
    } else if a.hasattr("__dlpack__")? && a.hasattr("__dlpack_device__")? {
        let (rows, managed) = dlpack_rows(&a, axis, choice)?;
        (rows, Some(managed))
    } else {
        return Err(PyTypeError::new_err(format!(
            "expected a NumPy array or an object with __dlpack__ (a PyTorch CPU tensor, a JAX array), not {}",
            a.get_type().name().map(|n| n.to_string()).unwrap_or_default()
        )));
    };
    let plan = choice.plan(rows.n).map_err(|e| to_py(py, e))?.with_parallel(threads.parallel());
    half_room(&rows, threads).map_err(|e| to_py(py, e))?;
    let claim = Claim::span(rows.span.0, rows.span.1)?;
    let pool = threads.pool()?;
    let pass = Pass { plan: &plan, scale, inverse, parallel: threads.parallel() };
    let work = |signals: &Signals| match &pool {
        Some(pool) => pool.install(|| pass.run(&rows, signals)),
        None => pass.run(&rows, signals),
    };
    // A transform of more than one chunk on a thread of its own, Ctrl-C looked at between
    // chunks; a smaller one here, without the thread's start (microseconds).
    let outcome = if rows.starts.len().saturating_mul(rows.n) > CHUNK {
        interruptible(py, work)
    } else {
        Ok(py.detach(|| work(&Signals::default())))
    };
    drop(claim);
    drop(managed); // the producer's deleter, with the GIL held
    outcome?.map_err(|e: Error| to_py(py, e))?;
    Ok(a)
}

/// `hadamard_matrix(n, itemsize=1, factor=None, family=None)`: the `n × n` matrix of ±1 that
/// `hadamard` multiplies by, as int8, row by row (flat; the Python layer reshapes it and converts
/// it to a dtype of `itemsize` bytes). The memory of both is checked before either is made.
#[pyfunction]
#[pyo3(signature = (n, itemsize=1, factor=None, family=None))]
pub fn hadamard_matrix<'py>(
    py: Python<'py>,
    n: Bound<'py, PyAny>,
    itemsize: u64,
    factor: Option<u64>,
    family: Option<&str>,
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    let choice = Choice::parse(factor, family)?;
    let (negative, order) = convert::signed(&n, "n")?;
    if negative {
        return Err(value_error(format!(
            "order -{} is not 2^k nor K·2^k for K in 12, 20, 28, 36, 40, 44, 52, 60, 108, 140, 156, 172",
            short(&order)
        )));
    }
    // The int8 matrix, and the converted one beside it when its dtype is wider.
    let per_entry = if itemsize > 1 { 1 + itemsize } else { 1 };
    let bytes = &order * &order * per_entry;
    let available = nimcount::memory::available();
    let fits = order.to_usize().is_some() && bytes.to_u64().is_some_and(|b| available.is_none_or(|a| b <= a));
    if !fits {
        return Err(to_py(
            py,
            Error::OutOfMemory {
                what: format!("a Hadamard matrix of order {}", short(&order)),
                needed: nimcount::error::Bytes(bytes.to_u64().unwrap_or(u64::MAX)),
                available: nimcount::error::Bytes(available.unwrap_or(0)),
            },
        ));
    }
    let n = order.to_usize().expect("checked");
    let h = py
        .detach(|| nimcount::fwht::hadamard_matrix_with(n, choice.factor, choice.family))
        .map_err(|e| to_py(py, e))?;
    Ok(PyArray1::from_vec(py, h))
}
