//! The portable backend: the shared kernel over single elements, for any butterfly, and the
//! textbook loop.

use super::kernel::{self, Butterflies};
use super::lanes::{self, Lanes};

/// The butterfly `(a, b) → (a + b, a − b)` of some ring, on single elements.
pub trait Butterfly: Copy + Send + Sync {
    /// The element type.
    type E: Copy + Send + Sync;
    /// `(a + b, a − b)`.
    fn butterfly(self, a: Self::E, b: Self::E) -> (Self::E, Self::E);
    /// Whether `x` is a valid input (below the modulus for residues); always by default.
    fn valid(self, x: Self::E) -> bool {
        let _ = x;
        true
    }
}

/// A butterfly seen as a one-lane register.
#[derive(Clone, Copy, Debug)]
struct Scalar<B>(B);

impl<B: Butterfly> Lanes for Scalar<B> {
    type E = B::E;
    type V = B::E;
    const WIDTH: usize = 1;

    #[inline(always)]
    unsafe fn load(self, ptr: *const B::E) -> B::E {
        // SAFETY: the caller guarantees the element is readable.
        unsafe { ptr.read() }
    }
    #[inline(always)]
    unsafe fn store(self, ptr: *mut B::E, v: B::E) {
        // SAFETY: the caller guarantees the element is writable.
        unsafe { ptr.write(v) }
    }
    #[inline(always)]
    fn butterfly(self, a: B::E, b: B::E) -> (B::E, B::E) {
        self.0.butterfly(a, b)
    }
    #[inline(always)]
    fn within(self, v: B::E) -> B::E {
        v
    }
    #[inline(always)]
    fn all_valid<const R: usize>(self, v: &[B::E; R]) -> bool {
        let mut all = true;
        for &x in v {
            all &= self.0.valid(x);
        }
        all
    }
}

impl<B: Butterfly> Butterflies for Scalar<B> {
    type Elem = B::E;
    const LEAF_LOG2: u32 = 4;

    fn leaves(self, data: &mut [B::E]) {
        assert_eq!(data.len() % 16, 0);
        // SAFETY: the length was checked; scalar code needs no instruction set.
        unsafe { lanes::leaves(self, data) }
    }

    fn columns(self, rows: &mut [&mut [B::E]]) {
        lanes::assert_rows(rows, 1);
        // SAFETY: the shape was checked; scalar code needs no instruction set.
        unsafe { lanes::columns(self, rows) }
    }

    /// The plain order: a pass of single elements is bound by its arithmetic, not by memory, and
    /// the stagger's prefetches only cost it time. Measured on the 2-core AMD EPYC development
    /// machine, transforms of 2^28 elements (rows 64 MiB and more apart) take 0.8× the time of
    /// the staggered order for `u32` residues and 0.55–0.7× for `f64`, the zeta transforms 0.6–0.8×
    /// and 0.5×. Nor is the staggered pass compiled for every ring and kind.
    fn staggered(self, rows: &mut [&mut [B::E]]) {
        self.columns(rows);
    }

    fn valid(self, data: &[B::E]) -> bool {
        assert_eq!(data.len() % 16, 0);
        // SAFETY: the length was checked; scalar code needs no instruction set.
        unsafe { lanes::valid(self, data) }
    }
}

/// The portable transform of `data` (`2^log2` elements): the cache-blocked kernel from 16
/// elements up, the textbook loop below.
pub fn transform<B: Butterfly>(b: B, data: &mut [B::E], log2: u32, parallel: bool) {
    debug_assert_eq!(data.len(), 1usize << log2);
    if log2 < Scalar::<B>::LEAF_LOG2 {
        textbook(data, |x, y| b.butterfly(*x, *y));
    } else {
        kernel::transform(Scalar(b), data, log2, parallel);
    }
}

/// [`transform`] on valid inputs only ([`Butterfly::valid`]), leaving `data` as it was on
/// failure: see [`kernel::transform_checked`] for `undo` and the error.
pub fn transform_checked<B: Butterfly>(
    b: B,
    data: &mut [B::E],
    log2: u32,
    parallel: bool,
    undo: kernel::Undo<'_, B::E>,
) -> Result<(), usize> {
    debug_assert_eq!(data.len(), 1usize << log2);
    if log2 < Scalar::<B>::LEAF_LOG2 {
        if !data.iter().all(|&x| b.valid(x)) {
            return Err(0);
        }
        textbook(data, |x, y| b.butterfly(*x, *y));
        Ok(())
    } else {
        kernel::transform_checked(Scalar(b), data, log2, parallel, undo)
    }
}

/// [`transform`] with passes over rows at least `stagger_min_row_bytes` apart in the staggered
/// order, which for single elements is the plain one (see `Scalar::staggered`): the reference of
/// the SIMD backends' staggered passes in the tests.
#[cfg(test)]
pub fn transform_staggering<B: Butterfly>(b: B, data: &mut [B::E], log2: u32, stagger_min_row_bytes: usize) {
    kernel::transform_staggering(Scalar(b), data, log2, false, stagger_min_row_bytes);
}

/// The textbook iterative transform over any values: for `h = 1, 2, 4, …`, the butterfly on
/// `(x[j], x[j + h])`. `x.len()` must be a power of two (or 0).
///
/// It is the reference every kernel is tested against, and the transform for values that no
/// kernel handles (big integers).
///
/// ```
/// use nimcount_kernels::portable::textbook_with;
/// let mut x = vec![1i64, 2, 3, 4];
/// textbook_with(&mut x, |a, b| (a + b, a - b));
/// assert_eq!(x, [10, -2, -4, 0]);
/// ```
pub fn textbook_with<T>(x: &mut [T], mut butterfly: impl FnMut(&T, &T) -> (T, T)) {
    let n = x.len();
    debug_assert!(n == 0 || n.is_power_of_two());
    let mut h = 1;
    while h < n {
        for block in x.chunks_exact_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                (*a, *b) = butterfly(a, b);
            }
        }
        h *= 2;
    }
}

pub use textbook_with as textbook;
