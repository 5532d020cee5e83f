//! The Hadamard transform that machine learning uses: lengths `K·2^k` (`K` in 1 and the orders
//! of a [`HadamardFamily`]), a scale applied in the last pass, and storage in `f16`, `bf16`,
//! `f32` or `f64`.
//!
//! # Conventions
//! - The matrix of length `n = K·2^k` is the Kronecker product `H_K ⊗ W_{2^k}` of a Hadamard
//!   matrix of order `K` (the factor, of a [`HadamardFamily`]) with the Sylvester matrix of order
//!   `2^k` (the natural-order Walsh–Hadamard matrix of [`crate::fwht`]): a row is `K`
//!   consecutive blocks of `2^k` values, each block is transformed by `W`, and then every column
//!   of the `K` blocks is multiplied by `H_K`. Element `(a·2^k + b, c·2^k + d)` of the matrix is
//!   `H_K[a][c] · (-1)^popcount(b & d)`. For `K = 1` this is the transform of [`crate::fwht`].
//!   QuIP#'s and QuaRot's `matmul_hadU` and fast-hadamard-transform's `hadamard_transform_12N`
//!   (and `_20N`, `_28N`, `_40N`) use the same order of the product.
//! - `forward(x, s)` is `s · H x`; `inverse(x, s)` is `s · H⁻¹ x = (s / n) · Hᵀ x` (most
//!   matrices of order 12 to 172 are not symmetric), so `inverse(forward(x, s), 1 / s) == x` up
//!   to rounding.
//! - Arithmetic: `f32` in registers for `f16`, `bf16` and `f32` storage, accumulated across every
//!   level and rounded to the storage type once, at the end (to nearest even); `f64` for `f64`.
//!   The scale is rounded to the arithmetic type first. Every backend gives the same bits.
//! - The order-`K` part and the scale are one dense pass over each row after its blocks are
//!   transformed, while the row is in cache, which also writes the storage type back: no pass
//!   over memory of their own (and no pass at all for `f32` and `f64` rows of a power of two
//!   with the scale 1). The pass is a program made for each matrix and read by one loop (in
//!   `f32` or `f64` registers of every backend; straight-line code for the matrices of order 12):
//!   sums and differences of groups of four columns
//!   computed once and shared by every row, about a third of the additions of the plain product
//!   for order 28 and a quarter for order 172 (see `nimcount_kernels::narrow`). Rows of `f16` and `bf16` are widened into an `f32`
//!   buffer of one row per thread (allocated per call) and written back from it.
//!
//! # Which factor a length gets
//! [`HadamardPlan::new`] (and [`HadamardPlan::with_factor`] without a factor) takes `K` from the
//! odd part of `n`: 3 → 12, 5 → 40 where `8 | n` and else 20, 7 → 28, 9 → 36, 11 → 44, 13 → 52,
//! 15 → 60, 27 → 108, 35 → 140, 39 → 156, 43 → 172 (`K | n` needed), 1 → 1. This is the rule of
//! QuaRot's and SpinQuant's `get_hadK` (the first `K` of 172, 156, 140, 108, 60, 52, 36, 28, 44,
//! 40, 20, 12 that divides `n`). Without a family, the matrix of order `K` is
//! fast-hadamard-transform's where it has one (12, 20, 28, 40) and Sloane's otherwise. A factor
//! given ([`HadamardPlan::with_factor`]) overrides the rule: `K = 20` at `n = 160` is
//! `H_20 ⊗ W_8`, as fast-hadamard-transform's `hadamard_transform_20N` computes, where the rule
//! gives `H_40 ⊗ W_4`: a different orthogonal matrix.
//!
//! # The matrices
//! - [`HadamardFamily::FastHadamardTransform`]: those of Tri Dao's fast-hadamard-transform
//!   (`csrc/code_gen.py` of `Dao-AILab/fast-hadamard-transform`): `had_12_paley` (Paley's
//!   construction II for q = 5), `had_20_will`, `had_28_will` (Williamson type) and
//!   `had_40_tpal` (from N. J. A. Sloane's library of Hadamard matrices).
//! - [`HadamardFamily::Sloane`]: those shipped by QuIP# (`lib/utils/matmul_had.py` of
//!   `Cornell-RelaxML/quip-sharp`), QuaRot (`fake_quant/hadamard_utils.py` of `spcl/QuaRot`) and
//!   SpinQuant as packaged by torchao (`torchao/prototype/spinquant/_hadamard_matrices.py`), which
//!   QuIP# takes from Sloane's library (`had.12`, `had.36.pal2`, `had.52.will`, `had.60.pal`,
//!   `had.108.pal`, `had.140.pal`, `had.156.will`, `had.172.will`). The three packages agree on
//!   every order two of them ship; 40 and 44 come from QuaRot and torchao (QuIP# has neither),
//!   and order 40 is fast-hadamard-transform's `had_40_tpal`. Orders 12, 20 and 28 differ from
//!   fast-hadamard-transform's: weights rotated with one family and activations with the other
//!   do not cancel.
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
use crate::simd::{self, Backend, PARALLEL_MIN, matrices, narrow};

/// A family of Hadamard matrices of small orders `K`, the factor `H_K` of `H_K ⊗ W_{2^k}` (see
/// the [module](self) documentation for their sources).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HadamardFamily {
    /// fast-hadamard-transform's matrices, orders 12, 20, 28 and 40: `hadamard_transform_12N`
    /// and its siblings.
    FastHadamardTransform,
    /// The matrices from Sloane's library that QuIP#, QuaRot and SpinQuant ship, orders 12, 20,
    /// 28, 36, 40, 44, 52, 60, 108, 140, 156 and 172: their `matmul_hadU`.
    Sloane,
}

impl HadamardFamily {
    /// Every family.
    pub const ALL: [HadamardFamily; 2] = [HadamardFamily::FastHadamardTransform, HadamardFamily::Sloane];

    /// The orders of the family's matrices, increasing (1 is not one of them: every length
    /// `2^k` is Sylvester's alone).
    pub fn orders(self) -> &'static [usize] {
        self.kernel().orders()
    }

    /// Its name: `fast-hadamard-transform` or `sloane` (what [`str::parse`] reads).
    pub fn name(self) -> &'static str {
        match self {
            HadamardFamily::FastHadamardTransform => "fast-hadamard-transform",
            HadamardFamily::Sloane => "sloane",
        }
    }

    fn kernel(self) -> matrices::Family {
        match self {
            HadamardFamily::FastHadamardTransform => matrices::Family::FastHadamardTransform,
            HadamardFamily::Sloane => matrices::Family::Sloane,
        }
    }
}

impl std::fmt::Display for HadamardFamily {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for HadamardFamily {
    type Err = Error;

    /// `fast-hadamard-transform` or `sloane` (case as written).
    fn from_str(s: &str) -> Result<Self> {
        HadamardFamily::ALL.into_iter().find(|f| f.name() == s).ok_or_else(|| Error::NotHadamardFactor {
            len: 0,
            why: format!("no family of Hadamard matrices is called {s:?}: fast-hadamard-transform or sloane"),
        })
    }
}

/// The orders of every family, each once, increasing.
fn all_orders() -> Vec<usize> {
    let mut orders: Vec<usize> = HadamardFamily::ALL.iter().flat_map(|f| f.orders()).copied().collect();
    orders.sort_unstable();
    orders.dedup();
    orders
}

/// The factor that the rule of the [module](self) documentation gives a length `len = K·2^k`
/// with `K` of odd part `odd` and `2^j` the largest power of two dividing `len`, or `None`.
fn rule(odd: usize, j: u32) -> Option<usize> {
    let k = match odd {
        1 => return Some(1),
        5 if j >= 3 => 40,
        _ => all_orders().into_iter().find(|&k| k >> k.trailing_zeros() == odd && k != 40)?,
    };
    (j >= k.trailing_zeros()).then_some(k)
}

/// `len = K·2^k` as `(K, k, family)`: the factor given (or the rule's, see the [module](self)
/// documentation) and the family given (or fast-hadamard-transform's where it has order `K`,
/// else Sloane's). Refused: a length of no factor ([`Error::NotHadamardLength`]); a factor that
/// does not divide the length with a power-of-two quotient, or of no matrix in the family
/// ([`Error::NotHadamardFactor`]).
pub(crate) fn choose(
    len: usize,
    factor: Option<usize>,
    family: Option<HadamardFamily>,
) -> Result<(usize, u32, HadamardFamily)> {
    let refuse = |why: String| Error::NotHadamardFactor { len, why };
    if len == 0 {
        return Err(Error::NotHadamardLength { len });
    }
    let j = len.trailing_zeros();
    let k = match factor {
        Some(k) => {
            if k == 0 || !len.is_multiple_of(k) || !(len / k).is_power_of_two() {
                return Err(refuse(format!("length {len} is not {k}·2^k: factor {k} does not fit it")));
            }
            k
        }
        None => rule(len >> j, j).ok_or(Error::NotHadamardLength { len })?,
    };
    let log2 = (len / k).trailing_zeros();
    if k == 1 {
        return Ok((1, log2, family.unwrap_or(HadamardFamily::FastHadamardTransform)));
    }
    let family = match family {
        Some(f) if f.orders().contains(&k) => f,
        Some(f) => {
            let orders = f.orders().iter().map(usize::to_string).collect::<Vec<_>>().join(", ");
            return Err(refuse(format!(
                "{f} has no Hadamard matrix of order {k} (its orders: 1, {orders}) for length {len}"
            )));
        }
        None => HadamardFamily::ALL.into_iter().find(|f| f.orders().contains(&k)).ok_or_else(|| {
            let orders = all_orders().iter().map(usize::to_string).collect::<Vec<_>>().join(", ");
            refuse(format!("factor {k} is not the order of a Hadamard matrix here (1, {orders})"))
        })?,
    };
    Ok((k, log2, family))
}

/// The signs of the order-`m` matrix of `family`, row by row.
pub(crate) fn signs(family: HadamardFamily, m: usize) -> Vec<f32> {
    matrices::text(family.kernel(), m)
        .expect("a matrix of the family")
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| if c == '+' { 1.0 } else { -1.0 })
        .collect()
}

/// The Hadamard matrix of order `n` that [`HadamardPlan::new`] multiplies by, row by row (`n · n`
/// entries `±1`): `H_K ⊗ W_{2^k}` for `n = K·2^k` (see the [module](self) documentation), the
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
    hadamard_matrix_with(n, None, None)
}

/// The Hadamard matrix that [`HadamardPlan::with_factor`] multiplies by: [`hadamard_matrix`]
/// with the factor and the family chosen as there.
///
/// ```
/// use nimcount::fwht::{HadamardFamily, hadamard_matrix_with};
///
/// // Sloane's order-12 matrix (QuIP#, QuaRot), not fast-hadamard-transform's.
/// let h = hadamard_matrix_with(12, None, Some(HadamardFamily::Sloane))?;
/// assert_eq!(h[..12], [1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]);
/// // H_20 ⊗ W_8 rather than the rule's H_40 ⊗ W_4.
/// assert_ne!(hadamard_matrix_with(160, Some(20), None)?, hadamard_matrix_with(160, None, None)?);
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn hadamard_matrix_with(
    n: usize,
    factor: Option<usize>,
    family: Option<HadamardFamily>,
) -> Result<Vec<i8>> {
    let (m, k, family) = choose(n, factor, family)?;
    let what = || format!("a Hadamard matrix of order {n}");
    let bytes = crate::memory::bytes_for::<i8>(what, n as u128 * n as u128)?;
    crate::memory::ensure_fits(what, bytes)?;
    let h = signs(family, m);
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
            plan.blocks(&Float32, row, parallel, |d, k, b| simd::f32_chunks(d, k, b.isa()));
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
            plan.blocks(&Float64, row, parallel, |d, k, b| simd::f64_chunks(d, k, b.isa()));
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
    with_wide_row(plan.len, |wide| {
        for_rows(data, plan.len, |row, next| {
            narrow::widen(row, wide, plan.backend.isa());
            plan.blocks(&Float32, wide, parallel, |d, k, b| simd::f32_chunks(d, k, b.isa()));
            narrow::finish(
                plan.dense(inverse),
                (wide, 1 << plan.log2),
                (row, next),
                scale as f32,
                plan.backend.isa(),
            );
        })
    })
}

/// Rows of `f32` of at most this many values are kept by their thread between calls.
const KEPT_ROW: usize = 1 << 16;

thread_local! {
    /// The `f32` row of [`half_rows`] on this thread, kept for the next call when it is short.
    static WIDE_ROW: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `f` on a row of `len` values of `f32` (of any contents): this thread's kept row where `len`
/// is at most [`KEPT_ROW`], so that transforms of short rows, called again and again, neither
/// allocate nor clear one each time; a row of its own otherwise.
fn with_wide_row<T>(len: usize, f: impl FnOnce(&mut [f32]) -> T) -> T {
    if len > KEPT_ROW {
        return f(&mut vec![0.0f32; len]);
    }
    WIDE_ROW.with(|kept| match kept.try_borrow_mut() {
        Ok(mut row) => {
            if row.len() < len {
                row.resize(len, 0.0);
            }
            f(&mut row[..len])
        }
        // Taken by a call further up this thread's stack (a transform inside a callback).
        Err(_) => f(&mut vec![0.0f32; len]),
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
    family: HadamardFamily,
    log2: u32,
    backend: Backend,
    parallel: bool,
}

impl HadamardPlan {
    /// A plan for rows of `len = K·2^k` values, `K` in 1 and the orders of the families (else
    /// [`Error::NotHadamardLength`]), chosen by the rule of the [module](self) documentation.
    pub fn new(len: usize) -> Result<Self> {
        Self::with_factor(len, None, None)
    }

    /// A plan for rows of `len = K·2^k` values multiplied by `H_K ⊗ W_{2^k}` with `K` the
    /// `factor` given (else the rule's) and `H_K` the matrix of `family` (else
    /// fast-hadamard-transform's where it has order `K`, Sloane's otherwise).
    ///
    /// Refused: a length of no factor ([`Error::NotHadamardLength`]); a factor that does not
    /// divide `len` with a power-of-two quotient, or that the family has no matrix of
    /// ([`Error::NotHadamardFactor`]).
    ///
    /// ```
    /// use nimcount::fwht::{HadamardFamily, HadamardPlan};
    ///
    /// // Llama-2-7B's intermediate size, 11 008 = 172 · 64, as QuIP# and QuaRot rotate it.
    /// let plan = HadamardPlan::with_factor(11_008, None, Some(HadamardFamily::Sloane))?;
    /// assert_eq!((plan.order(), plan.log2()), (172, 6));
    /// // fast-hadamard-transform's hadamard_transform_20N at length 160: H_20 ⊗ W_8.
    /// let plan = HadamardPlan::with_factor(160, Some(20), Some(HadamardFamily::FastHadamardTransform))?;
    /// assert_eq!((plan.order(), plan.log2()), (20, 3));
    /// assert!(HadamardPlan::with_factor(160, Some(36), None).is_err());
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn with_factor(len: usize, factor: Option<usize>, family: Option<HadamardFamily>) -> Result<Self> {
        let (m, log2, family) = choose(len, factor, family)?;
        Ok(HadamardPlan { len, m, family, log2, backend: Backend::best(), parallel: true })
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

    /// The order `K` of the dense part, the factor (1 for powers of two).
    pub fn order(&self) -> usize {
        self.m
    }

    /// The family of the order-`K` matrix (fast-hadamard-transform's for powers of two, where
    /// none is used).
    pub fn family(&self) -> HadamardFamily {
        self.family
    }

    /// The matrix of the dense pass: `H_K`, or its transpose for the inverse.
    fn dense(&self, inverse: bool) -> narrow::Order {
        narrow::Order { family: self.family.kernel(), m: self.m, transposed: inverse }
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

    /// The Walsh–Hadamard transform of each of the `m` blocks of `row`: all at once by `chunks`
    /// (the kernels' loop for blocks shorter than a leaf of the SIMD kernel, which would
    /// otherwise go one by one to the portable kernel), else one by one.
    fn blocks<R: Ring>(
        &self,
        ring: &R,
        row: &mut [R::Elem],
        parallel: bool,
        chunks: fn(&mut [R::Elem], u32, Backend) -> bool,
    ) where
        R::Elem: Copy,
    {
        if chunks(row, self.log2, self.backend) {
            return;
        }
        for block in row.chunks_exact_mut(1 << self.log2) {
            ring.transform(block, self.log2, self.backend, parallel, Internal(()));
        }
    }
}
