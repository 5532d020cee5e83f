//! Which memory the calls running now read and write: a call claims the byte range of every
//! array it touches, and a claim that overlaps another's, where either writes, is refused. Two
//! arrays over one buffer (views, slices, `np.frombuffer` of one `bytearray`) conflict exactly
//! when their byte ranges overlap, whatever objects they are.

use std::sync::Mutex;

use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::errors::value_error;

/// The claims held now: `(first byte, end byte, writes)` with a claim number.
static CLAIMS: Mutex<Vec<(usize, usize, bool, u64)>> = Mutex::new(Vec::new());

/// Byte ranges held while a call runs; released when dropped.
pub struct Claim {
    ids: Vec<u64>,
}

/// The bytes an array spans, from its data pointer, shape, strides and item size (empty when the
/// array has no element).
fn span(array: &Bound<'_, PyUntypedArray>, data: usize) -> (usize, usize) {
    if array.shape().contains(&0) {
        return (data, data);
    }
    let (mut lo, mut hi) = (data as isize, data as isize);
    for (&len, &stride) in array.shape().iter().zip(array.strides()) {
        let reach = stride * (len as isize - 1);
        if reach < 0 { lo += reach } else { hi += reach }
    }
    (lo as usize, hi as usize + array.dtype().itemsize())
}

impl Claim {
    /// Claims the bytes of each `(array, data pointer, writes)`, or refuses when one overlaps the
    /// bytes of a call running now and either writes.
    pub fn new(arrays: &[(&Bound<'_, PyUntypedArray>, usize, bool)]) -> PyResult<Claim> {
        let wanted: Vec<(usize, usize, bool)> = arrays
            .iter()
            .map(|&(array, data, writes)| {
                let (lo, hi) = span(array, data);
                (lo, hi, writes)
            })
            .collect();
        Claim::spans(wanted)
    }

    /// Claims the bytes `lo..hi`, written (memory that is not a NumPy array's: a DLPack
    /// tensor's).
    pub fn span(lo: usize, hi: usize) -> PyResult<Claim> {
        Claim::spans(vec![(lo, hi, true)])
    }

    fn spans(wanted: Vec<(usize, usize, bool)>) -> PyResult<Claim> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let mut claims = CLAIMS.lock().unwrap_or_else(|e| e.into_inner());
        for &(lo, hi, writes) in &wanted {
            let busy = claims.iter().any(|&(l, h, w, _)| lo < h && l < hi && (writes || w));
            if busy {
                return Err(value_error(
                    "the array's memory is in use by another call running now (the same buffer, a view \
                     or an overlapping slice): wait for it, or pass a copy",
                ));
            }
        }
        let mut ids = Vec::with_capacity(wanted.len());
        for (lo, hi, writes) in wanted {
            let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            claims.push((lo, hi, writes, id));
            ids.push(id);
        }
        Ok(Claim { ids })
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        let mut claims = CLAIMS.lock().unwrap_or_else(|e| e.into_inner());
        claims.retain(|c| !self.ids.contains(&c.3));
    }
}

/// The address of an array's first element, as NumPy reports it.
fn data_address(array: &Bound<'_, PyUntypedArray>) -> PyResult<usize> {
    array.getattr("__array_interface__")?.get_item("data")?.get_item(0)?.extract()
}

/// A claim held by the Python layer while it copies an array, transforms the copy and writes
/// it back (the narrow integer dtypes): `with _native.Held(a): ...`.
#[pyclass(module = "nimcount._native")]
pub struct Held {
    claim: Option<Claim>,
}

#[pymethods]
impl Held {
    /// Claims the bytes of `a` for writing.
    #[new]
    fn new(a: &Bound<'_, PyAny>) -> PyResult<Held> {
        let array = a.cast::<PyUntypedArray>().map_err(|_| value_error("expected a NumPy array"))?;
        let data = data_address(array)?;
        Ok(Held { claim: Some(Claim::new(&[(array, data, true)])?) })
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// Releases the claim.
    #[pyo3(signature = (*_args))]
    fn __exit__(&mut self, _args: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.claim = None;
        false
    }
}
