//! The Hadamard transform that machine learning uses: lengths `m·2^k` (`m` in 1, 12, 20, 28,
//! 40), a scale applied in the last pass, and storage in `f16`, `bf16`, `f32` or `f64`.
//!
//! # Conventions
//! - The matrix of length `n = m·2^k` is the Kronecker product `H_m ⊗ W_{2^k}` of a fixed
//!   Hadamard matrix of order `m` ([`hadamard_matrix`]) with the Sylvester matrix of order `2^k`
//!   (the natural-order Walsh–Hadamard matrix of [`crate::fwht`]): a row is `m` consecutive
//!   blocks of `2^k` values, each block is transformed by `W`, and then every column of the `m`
//!   blocks is multiplied by `H_m`. Element `(a·2^k + b, c·2^k + d)` of the matrix is
//!   `H_m[a][c] · (-1)^popcount(b & d)`. For `m = 1` this is the transform of [`crate::fwht`].
//! - `forward(x, s)` is `s · H x`; `inverse(x, s)` is `s · H⁻¹ x = (s / n) · Hᵀ x` (the
//!   matrices of order 20 to 40 are not symmetric; that of order 12 is), so
//!   `inverse(forward(x, s), 1 / s) == x` up to rounding.
//! - Arithmetic: `f32` in registers for `f16`, `bf16` and `f32` storage, accumulated across every
//!   level and rounded to the storage type once, at the end (to nearest even); `f64` for `f64`.
//!   The scale is rounded to the arithmetic type first. Every backend gives the same bits.
//! - The order-`m` part and the scale are one dense pass over each row after its blocks are
//!   transformed, while the row is in cache, which also writes the storage type back: no pass
//!   over memory of their own (and no pass at all for `f32` and `f64` rows of a power of two
//!   with the scale 1). The pass is a program built for each matrix at compile time and read by
//!   one loop (in `f32` or `f64` registers of every backend): about a third of the additions of
//!   the plain product for order 28 (see `nimcount_kernels::narrow`). Rows of `f16` and `bf16` are widened into an `f32`
//!   buffer of one row per thread (allocated per call) and written back from it.
//!
//! # The matrices of order 12, 20, 28 and 40
//! Those of Tri Dao's fast-hadamard-transform (`csrc/code_gen.py` of
//! `Dao-AILab/fast-hadamard-transform`, the CUDA package of QuaRot and related work), so that
//! results agree with it: `had_12_paley` (Paley's construction II for q = 5), `had_20_will`,
//! `had_28_will` (Williamson type) and `had_40_tpal` (from N. J. A. Sloane's library of Hadamard
//! matrices). SpinQuant and ExecuTorch use Sloane's `had_12` instead of `had_12_paley`.
//!
//! ```
//! use nimcount::fwht::HadamardPlan;
//! use nimcount::half::bf16;
//!
//! // Two rows of 12 · 2^1 values, scaled by 1/√24.
//! let plan = HadamardPlan::new(24)?;
//! let mut x: Vec<bf16> = (0..48).map(|i| bf16::from_f32(i as f32 / 8.0)).collect();
//! let original = x.clone();
//! plan.forward(&mut x, 1.0 / 24f64.sqrt())?;
//! plan.inverse(&mut x, 24f64.sqrt())?;
//! for (a, b) in x.iter().zip(&original) {
//!     assert!((a.to_f32() - b.to_f32()).abs() <= 0.05);
//! }
//! # Ok::<(), nimcount::Error>(())
//! ```

use half::{bf16, f16};

use crate::error::{Error, Result};
use crate::ring::{Float32, Float64, Internal, Ring};
use crate::simd::{Backend, PARALLEL_MIN, matrices, narrow};

/// `len = m·2^k` split into `(m, k)`, or `None` for the lengths without a matrix. A length
/// `5·2^j` with `j >= 3` is `40·2^(j-3)`, not `20·2^(j-2)` (the rule of QuaRot's `get_hadK`).
pub(crate) fn split(len: usize) -> Option<(usize, u32)> {
    if len == 0 {
        return None;
    }
    let j = len.trailing_zeros();
    let m = match (len >> j, j) {
        (1, _) => 1,
        (3, 2..) => 12,
        (5, 2) => 20,
        (5, 3..) => 40,
        (7, 2..) => 28,
        _ => return None,
    };
    Some((m, j - (m / (len >> j)).trailing_zeros()))
}

/// The signs of the order-`m` matrix, row by row.
pub(crate) fn signs(m: usize) -> Vec<f32> {
    matrices::text(m)
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| if c == '+' { 1.0 } else { -1.0 })
        .collect()
}

/// The Hadamard matrix of order `n` that [`HadamardPlan`] multiplies by, row by row (`n · n`
/// entries `±1`): `H_m ⊗ W_{2^k}` for `n = m·2^k` (see the [module](self) documentation), the
/// Sylvester matrix for powers of two. `H · Hᵀ = n · I`.
///
/// Refused: lengths without a matrix ([`Error::NotHadamardLength`]), and matrices whose `n²`
/// bytes do not fit in memory ([`Error::OutOfMemory`]).
///
/// ```
/// let h = nimcount::fwht::hadamard_matrix(2)?;
/// assert_eq!(h, [1, 1, 1, -1]);
/// let h = nimcount::fwht::hadamard_matrix(12)?;
/// assert_eq!(h[..12], [1, -1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]); // had_12_paley's first row
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn hadamard_matrix(n: usize) -> Result<Vec<i8>> {
    let (m, k) = split(n).ok_or(Error::NotHadamardLength { len: n })?;
    let what = || format!("a Hadamard matrix of order {n}");
    let bytes = crate::memory::bytes_for::<i8>(what, n as u128 * n as u128)?;
    crate::memory::ensure_fits(what, bytes)?;
    let h = signs(m);
    let block = 1usize << k;
    let mut out = Vec::new();
    out.try_reserve_exact(n * n).map_err(|_| Error::OutOfMemory {
        what: what(),
        needed: crate::error::Bytes(bytes),
        available: crate::error::Bytes(crate::memory::available().unwrap_or(0)),
    })?;
    for i in 0..n {
        let (a, b) = (i / block, i % block);
        for j in 0..n {
            let (c, d) = (j / block, j % block);
            let sign = h[a * m + c] < 0.0;
            let odd = (b & d).count_ones() % 2 == 1;
            out.push(if sign != odd { -1 } else { 1 });
        }
    }
    Ok(out)
}

/// A storage type of [`HadamardPlan`]: `f16` and `bf16` (the `half` crate's, re-exported as
/// [`crate::half`]), `f32`, `f64`.
pub trait Storage: Copy + Send + Sync + private::Sealed {
    /// `f16`, `bf16`, `f32` or `f64`.
    const NAME: &'static str;
}

mod private {
    pub trait Sealed {
        /// Transforms every row of `data` (a whole number of rows of `plan.len()`), by `H_m`
        /// across the blocks, or by its transpose when `inverse`.
        fn rows(plan: &super::HadamardPlan, data: &mut [Self], inverse: bool, scale: f64, parallel: bool)
        where
            Self: Sized;
    }
}

impl Storage for f32 {
    const NAME: &'static str = "f32";
}
impl Storage for f64 {
    const NAME: &'static str = "f64";
}
impl Storage for f16 {
    const NAME: &'static str = "f16";
}
impl Storage for bf16 {
    const NAME: &'static str = "bf16";
}

/// Blocks shorter than this many values (`2^k < SHORT_BLOCK`, `m > 1`) leave the dense pass too
/// few columns for whole registers: such rows go through [`short_rows`], a batch at a time.
const SHORT_BLOCK: usize = 32;

/// Columns of the wide row of [`short_rows`]: `m` blocks of at least this many values.
pub(crate) const SHORT_COLUMNS: usize = 512;

/// Whether rows of `plan` go through [`short_rows`].
fn is_short(plan: &HadamardPlan, values: usize) -> bool {
    plan.m > 1 && (1usize << plan.log2) < SHORT_BLOCK && values >= 2 * plan.len
}

/// Rows whose blocks are short ([`is_short`]), `B` at a time: gathered (`to_wide`) into one wide
/// row of `m` blocks of `B·2^k` values, block `c` of row `b` at `c·B·2^k + b·2^k`; the
/// Walsh–Hadamard transform of every piece of `2^k` values by a plain butterfly; the dense pass
/// (`finish`, which also scales) over the whole wide row, in registers as wide as the backend's;
/// and scattered back (`from_wide`). The same sums as row by row, in the same order.
fn short_rows<S: Copy, W: Copy + Default + std::ops::Add<Output = W> + std::ops::Sub<Output = W>>(
    plan: &HadamardPlan,
    data: &mut [S],
    to_wide: impl Fn(&[S], &mut [W]),
    finish: impl Fn(&mut [W], &mut [S]),
) {
    let (m, block, len) = (plan.m, 1usize << plan.log2, plan.len);
    let batch = SHORT_COLUMNS.div_ceil(block);
    let mut flat = vec![W::default(); batch * len];
    let mut wide = vec![W::default(); batch * len];
    let mut out: Vec<S> = data[..batch.min(data.len() / len) * len].to_vec();
    for rows in data.chunks_mut(batch * len) {
        to_wide(rows, &mut flat[..rows.len()]);
        regroup(&flat[..rows.len()], &mut wide[..rows.len()], m, block, true);
        let wide = &mut wide[..rows.len()];
        let mut h = 1;
        while h < block {
            for piece in wide.chunks_exact_mut(2 * h) {
                let (x, y) = piece.split_at_mut(h);
                for (u, v) in x.iter_mut().zip(y) {
                    (*u, *v) = (*u + *v, *u - *v);
                }
            }
            h *= 2;
        }
        let out = &mut out[..rows.len()];
        finish(wide, out);
        regroup(out, rows, m, block, false);
    }
}

/// Between `b` rows of `m` blocks of `block` values and one wide row of `m` blocks of `b·block`
/// values: block `c` of row `r` lies at `(r·m + c)·block` in the rows and at `(c·b + r)·block`
/// in the wide row; `into_wide` copies from the rows (`src`) to the wide row (`dst`), else back.
fn regroup<T: Copy>(src: &[T], dst: &mut [T], m: usize, block: usize, into_wide: bool) {
    let b = src.len() / (m * block);
    if block == 1 {
        // A transpose of `b × m` values, one way or the other.
        let (outer, inner) = if into_wide { (b, m) } else { (m, b) };
        for (i, line) in dst.chunks_exact_mut(outer).enumerate() {
            for (j, x) in line.iter_mut().enumerate() {
                *x = src[j * inner + i];
            }
        }
        return;
    }
    for r in 0..b {
        for c in 0..m {
            let (in_rows, in_wide) = ((r * m + c) * block, (c * b + r) * block);
            let (from, to) = if into_wide { (in_rows, in_wide) } else { (in_wide, in_rows) };
            dst[to..to + block].copy_from_slice(&src[from..from + block]);
        }
    }
}

impl private::Sealed for f32 {
    fn rows(plan: &HadamardPlan, data: &mut [f32], inverse: bool, scale: f64, parallel: bool) {
        if is_short(plan, data.len()) {
            return short_narrow_rows(plan, data, inverse, scale);
        }
        let scale = scale as f32;
        for_rows(data, plan.len, |row, next| {
            plan.blocks(&Float32, row, parallel);
            // The product by 1 of the Sylvester transform alone changes nothing.
            if plan.m > 1 || scale != 1.0 {
                narrow::finish_in_place(plan.dense(inverse), row, next, scale, plan.backend.isa());
            }
        })
    }
}

impl private::Sealed for f64 {
    fn rows(plan: &HadamardPlan, data: &mut [f64], inverse: bool, scale: f64, parallel: bool) {
        let order = plan.dense(inverse);
        if is_short(plan, data.len()) {
            return short_rows(
                plan,
                data,
                |rows, flat| flat.copy_from_slice(rows),
                |wide, out| {
                    narrow::finish_f64(order, wide, None, scale, plan.backend.isa());
                    out.copy_from_slice(wide);
                },
            );
        }
        for_rows(data, plan.len, |row, next| {
            plan.blocks(&Float64, row, parallel);
            if plan.m > 1 || scale != 1.0 {
                narrow::finish_f64(order, row, next, scale, plan.backend.isa());
            }
        })
    }
}

/// `f(row, next)` for every row of `len` values of `data`, `next` the one after it (whose lines
/// the last pass asks for in L2 while it computes, so that the next row's transform finds them
/// there).
fn for_rows<S>(data: &mut [S], len: usize, mut f: impl FnMut(&mut [S], Option<&[S]>)) {
    let rows = data.len() / len;
    for r in 0..rows {
        let (row, rest) = data[r * len..].split_at_mut(len);
        f(row, rest.get(..len))
    }
}

/// [`short_rows`] of `f32`, `f16` or `bf16`, in `f32` arithmetic.
fn short_narrow_rows<S: narrow::Narrow>(plan: &HadamardPlan, data: &mut [S], inverse: bool, scale: f64) {
    short_rows(
        plan,
        data,
        |rows, flat| narrow::widen(rows, flat, plan.backend.isa()),
        |wide, out| {
            let stride = wide.len() / plan.m;
            narrow::finish(plan.dense(inverse), (wide, stride), (out, None), scale as f32, plan.backend.isa())
        },
    )
}

/// Rows of a half-precision type through one row of `f32`.
fn half_rows<S: narrow::Narrow>(
    plan: &HadamardPlan,
    data: &mut [S],
    inverse: bool,
    scale: f64,
    parallel: bool,
) {
    if is_short(plan, data.len()) {
        return short_narrow_rows(plan, data, inverse, scale);
    }
    let mut wide = vec![0.0f32; plan.len];
    for_rows(data, plan.len, |row, next| {
        narrow::widen(row, &mut wide, plan.backend.isa());
        plan.blocks(&Float32, &mut wide, parallel);
        narrow::finish(
            plan.dense(inverse),
            (&wide, 1 << plan.log2),
            (row, next),
            scale as f32,
            plan.backend.isa(),
        );
    })
}

impl private::Sealed for f16 {
    fn rows(plan: &HadamardPlan, data: &mut [f16], inverse: bool, scale: f64, parallel: bool) {
        half_rows(plan, data, inverse, scale, parallel)
    }
}

impl private::Sealed for bf16 {
    fn rows(plan: &HadamardPlan, data: &mut [bf16], inverse: bool, scale: f64, parallel: bool) {
        half_rows(plan, data, inverse, scale, parallel)
    }
}

/// The Hadamard transform of one length `m·2^k` (see the [module](self) documentation), for
/// every [`Storage`] type: `Clone + Send + Sync`, every method `&self`. A buffer may hold any
/// number of rows of the plan's length; each is transformed on its own.
///
/// Options as for [`crate::fwht::Plan`]: the backend ([`Backend::best`] by default) and whether
/// rayon's thread pool may be used (rows are spread over threads from [`PARALLEL_MIN`]
/// elements in all, one long row's blocks split inside).
#[derive(Clone, Debug)]
pub struct HadamardPlan {
    len: usize,
    m: usize,
    log2: u32,
    backend: Backend,
    parallel: bool,
}

impl HadamardPlan {
    /// A plan for rows of `len = m·2^k` values, `m` in 1, 12, 20, 28, 40 (else
    /// [`Error::NotHadamardLength`]).
    pub fn new(len: usize) -> Result<Self> {
        let (m, log2) = split(len).ok_or(Error::NotHadamardLength { len })?;
        Ok(HadamardPlan { len, m, log2, backend: Backend::best(), parallel: true })
    }

    /// The same plan on another backend; an error when this CPU lacks it.
    pub fn with_backend(mut self, backend: Backend) -> Result<Self> {
        self.backend = backend.available()?;
        Ok(self)
    }

    /// The same plan, allowed (`true`, the default) or not to use rayon's thread pool.
    pub fn with_parallel(mut self, parallel: bool) -> Self {
        self.parallel = parallel;
        self
    }

    /// The row length `m·2^k`.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: a plan's length is at least 1.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The order `m` of the dense part (1 for powers of two).
    pub fn order(&self) -> usize {
        self.m
    }

    /// The matrix of the dense pass: `H_m`, or its transpose for the inverse.
    fn dense(&self, inverse: bool) -> narrow::Order {
        narrow::Order { m: self.m, transposed: inverse }
    }

    /// `k`: the blocks are `2^k` long.
    pub fn log2(&self) -> u32 {
        self.log2
    }

    /// The backend the kernels run on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// `x ← scale · H x` for every row of `data`, in place. An empty buffer and one whose length
    /// is not a multiple of the plan's are refused before anything is written.
    pub fn forward<S: Storage>(&self, data: &mut [S], scale: f64) -> Result<()> {
        self.check_length(data.len())?;
        self.run(data, false, scale);
        Ok(())
    }

    /// `x ← scale · H⁻¹ x = (scale / n) · Hᵀ x` for every row of `data`, in place.
    pub fn inverse<S: Storage>(&self, data: &mut [S], scale: f64) -> Result<()> {
        self.check_length(data.len())?;
        self.run(data, true, scale / self.len as f64);
        Ok(())
    }

    fn check_length(&self, len: usize) -> Result<()> {
        if len == 0 {
            Err(Error::EmptyBuffer)
        } else if !len.is_multiple_of(self.len) {
            Err(Error::LengthMismatch { len, plan_len: self.len })
        } else {
            Ok(())
        }
    }

    /// Rows spread over threads as [`crate::fwht::Plan`] spreads its chunks.
    fn run<S: Storage>(&self, data: &mut [S], inverse: bool, scale: f64) {
        let len = self.len;
        if self.parallel && len < 2 * PARALLEL_MIN && data.len() >= 2 * PARALLEL_MIN {
            let batch = (PARALLEL_MIN / len).max(1) * len;
            crate::parallel::chunks(data, true, batch, |rows| S::rows(self, rows, inverse, scale, false));
        } else {
            S::rows(self, data, inverse, scale, self.parallel);
        }
    }

    /// The Walsh–Hadamard transform of each of the `m` blocks of `row`.
    fn blocks<R: Ring>(&self, ring: &R, row: &mut [R::Elem], parallel: bool)
    where
        R::Elem: Copy,
    {
        for block in row.chunks_exact_mut(1 << self.log2) {
            ring.transform(block, self.log2, self.backend, parallel, Internal(()));
        }
    }
}
