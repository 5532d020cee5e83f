//! The subset convolution `c[s] = Σ_{t ⊆ s} a[t] · b[s ∖ t]` by ranked zeta transforms.
//!
//! Each input is split by rank (popcount) into `n + 1` arrays `a_r[t] = a[t]·[|t| = r]`; their
//! subset zeta transforms multiply as polynomials in the rank, `ĉ_r = Σ_i â_i · b̂_(r−i)`, and the
//! Möbius transform of `ĉ_r` read at the sets of rank `r` is `c` (the union of two disjoint sets is
//! the only way for the ranks to add up). O(n² 2^n) operations.
//!
//! # Layout and blocking
//! The sets are cut into blocks of `2^β` (the low `β` bits of a set; the high bits name its
//! block), and a block stores its `n + 1` ranks one after the other, each a row of `2^β`
//! elements: set `s = B·2^β + j` at rank `r` is `f[(B·(n+1) + r)·2^β + j]`. Zeta and Möbius
//! levels commute, so the levels above the blocks run first, as column passes of the SIMD kernel
//! across blocks (up to nine levels a pass over memory, in tiles that stay in cache); then each
//! block takes its own levels (the zeta transform of each rank row, on the SIMD kernel), its rank
//! products and its inverse levels while it stays in cache; the inverse levels above the blocks
//! come last.
//!
//! Rows known to be zero, or never read, are skipped. After the zeta levels a set `p` holds ranks
//! `<= |p|` only, and the Möbius result at `s` is read at rank `|s|` (the Möbius levels only
//! subtract the values of subsets, of no larger rank), so a set `p` needs the products of ranks
//! `>= |p|` only: summed over `i, r − i <= |p| <= r`, about a third of the `(n + 1)²` rank
//! products per set of the textbook. A block whose high bits have `c` ones holds ranks `<= c + β`
//! only (the zeta levels above the blocks run over those rows, and the ones a column pass's other
//! blocks can reach), and needs its products and Möbius levels at ranks `>= c` only. The products
//! run across 16 neighbouring sets at once (their ranks within 4 of each other), each rank row's
//! `u32` lanes multiplied into `u64` sums, with the bounds of those 16 sets: about twice the
//! products per set of the exact count, at the full width of the registers, and no widening of
//! the rows (the even and the odd sets' residues are the low and the high halves of `u64` words).

use crate::error::{Error, Result};
use crate::ring::{Exact128, Float32, Float64, Internal, Mod32, Mod64, Ring, Words, Wrap32, Wrap64};
use crate::simd::Backend;
use crate::simd::sets::{Vectorised, run_widest};

/// Bytes of one block of sets whose ranks are convolved in cache (both inputs' rows).
const BLOCK_BYTES: usize = 1 << 20;

/// The most levels one column pass above the blocks takes: three (8 rows). Rows that far apart
/// in memory share a set of the L1 cache, and 16 of them evict each other: at 2^20 on AVX2, the
/// zeta levels above the blocks took 1.6 times as long in passes of four.
const PASS_LEVELS: usize = 3;

/// The most levels above the blocks that one pass over memory takes, in tiles of [`TILE_BYTES`]:
/// as many as leave tiles of 256 columns (a row of the SIMD kernel's column pass) or more, and
/// one at least.
fn sweep_levels<E>() -> usize {
    (TILE_BYTES / (256 * std::mem::size_of::<E>())).max(2).ilog2() as usize
}

/// Bytes of one tile of the levels above the blocks: the same columns of `2^h` blocks, kept in
/// cache across the passes of a sweep.
const TILE_BYTES: usize = 512 << 10;

/// Sets whose rank products run together (lanes of one pass over the rank rows).
pub const LANES: usize = 16;

/// `c[s] = Σ_{t ⊆ s} a[t] · b[s ∖ t]`; `a` and `b` must have the same power-of-two length.
///
/// ```
/// use nimcount::{convolve::subset_convolve, ring::Exact64};
/// // c[{0,1}] = a[{}]·b[{0,1}] + a[{0}]·b[{1}] + a[{1}]·b[{0}] + a[{0,1}]·b[{}].
/// assert_eq!(subset_convolve(Exact64, &[1, 2, 3, 4], &[5, 6, 7, 8])?, [5, 16, 22, 60]);
/// # Ok::<(), nimcount::Error>(())
/// ```
///
/// Works in every ring (no `1/2` is needed). Exact `i64` is computed modulo `2^64` and is refused
/// unless `Σ|a| · Σ|b| <= i64::MAX`, which bounds every result; exact `i128` refuses when an
/// intermediate sum could leave `i128` (`2^n (n + 1) Σ|a| Σ|b|`). Memory: `2 (n + 1) 2^n`
/// elements, refused up front when they cannot fit. Errors otherwise as
/// [`and_convolve`](super::and_convolve)'s. Runs on the widest backend of this CPU, one thread:
/// see [`subset_convolve_with_backend`] to choose it.
pub fn subset_convolve<R: Ring>(ring: R, a: &[R::Elem], b: &[R::Elem]) -> Result<Vec<R::Elem>>
where
    R::Elem: Copy,
{
    subset_convolve_with_backend(ring, a, b, Backend::best())
}

/// [`subset_convolve`] on `backend` (the SIMD kernels of its levels and the instruction set its
/// rank products are compiled for); [`Error::BackendUnavailable`] where this CPU lacks it.
///
/// ```
/// use nimcount::{convolve::subset_convolve_with_backend, fwht::Backend, ring::Mod32};
/// let p = Mod32::new(998_244_353)?;
/// assert_eq!(subset_convolve_with_backend(p, &[1, 2, 3, 4], &[5, 6, 7, 8], Backend::Scalar)?, [5, 16, 22, 60]);
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn subset_convolve_with_backend<R: Ring>(
    ring: R,
    a: &[R::Elem],
    b: &[R::Elem],
    backend: Backend,
) -> Result<Vec<R::Elem>>
where
    R::Elem: Copy,
{
    let backend = backend.available()?;
    if a.len() != b.len() {
        return Err(Error::LengthsDiffer { left: a.len(), right: b.len() });
    }
    let len = crate::fwht::checked_len(a.len())?;
    if !len.is_power_of_two() {
        return Err(Error::NotPowerOfTwo { len });
    }
    ring.validate(a)?;
    ring.validate(b)?;
    let n = len.trailing_zeros() as usize;
    let words = 2 * (n as u128 + 1) * len as u128;
    let bytes = crate::memory::bytes_for::<R::Elem>(|| "the ranked transforms".into(), words)?;
    crate::memory::ensure_fits(|| format!("the ranked transforms of 2^{n} sets"), bytes)?;
    let sum = |x: &mut dyn Iterator<Item = u128>| x.fold(0u128, u128::saturating_add);
    // Each built-in ring runs on a function of its own, compiled once here; the element-by-element
    // path below is compiled only for the rings that do not name their words.
    match ring.words(Internal(())) {
        Words::Exact64(same) => {
            let (a64, b64) = (same.to(a), same.to(b));
            let sa = sum(&mut a64.iter().map(|x| u128::from(x.unsigned_abs())));
            let sb = sum(&mut b64.iter().map(|x| u128::from(x.unsigned_abs())));
            if sa.checked_mul(sb).is_none_or(|p| p > i64::MAX as u128) {
                return Err(overflow("i64", sa, sb));
            }
            return Ok(same.from(exact64(a64, b64, n, backend)));
        }
        Words::Exact128(same) => {
            let (a128, b128) = (same.to(a), same.to(b));
            let sa = sum(&mut a128.iter().map(|x| x.unsigned_abs()));
            let sb = sum(&mut b128.iter().map(|x| x.unsigned_abs()));
            // Every intermediate value is at most 2^n (n + 1) Σ|a| Σ|b| in absolute value.
            let factor = (1u128 << n).saturating_mul(n as u128 + 1);
            if sa.checked_mul(sb).and_then(|p| p.checked_mul(factor)).is_none_or(|p| p > i128::MAX as u128) {
                return Err(overflow("i128", sa, sb));
            }
            return Ok(same.from(exact128(a128, b128, n, backend)));
        }
        Words::Mod32(m, same) => return Ok(same.from(mod32(m, same.to(a), same.to(b), n, backend))),
        Words::Mod64(m, same) => return Ok(same.from(mod64(m, same.to(a), same.to(b), n, backend))),
        Words::Wrap32(same) => return Ok(same.from(wrap32(same.to(a), same.to(b), n, backend))),
        Words::Wrap64(same) => return Ok(same.from(wrap64(same.to(a), same.to(b), n, backend))),
        Words::Float32(same) => return Ok(same.from(float32(same.to(a), same.to(b), n, backend))),
        Words::Float64(same) => return Ok(same.from(float64(same.to(a), same.to(b), n, backend))),
        Words::Other => {}
    }
    if !R::NAMES_ITS_WORDS {
        return Ok(ranked_widest(&WordRanks(ring), a, b, |x| x, n, backend));
    }
    unreachable!("{ring} names its words")
}

/// The rank products of exact `i64` inputs whose results all lie below `2^63` in absolute value:
/// modulo `2^64`, which is then exact.
fn exact64(a: &[i64], b: &[i64], n: usize, backend: Backend) -> Vec<i64> {
    let wrapped = ranked_widest(&WordRanks(Wrap64), a, b, |x: i64| x as u64, n, backend);
    bytemuck::cast_slice::<u64, i64>(&wrapped).to_vec()
}

/// The rank products of residues modulo an odd `m < 2^31`: no copies in or out.
fn mod32(m: Mod32, a: &[u32], b: &[u32], n: usize, backend: Backend) -> Vec<u32> {
    ranked_widest(&Mod32Ranks::new(m), a, b, |x| x, n, backend)
}

/// The rank products of residues modulo an odd `m < 2^63`, in the ring's own arithmetic.
fn mod64(m: Mod64, a: &[u64], b: &[u64], n: usize, backend: Backend) -> Vec<u64> {
    ranked_widest(&WordRanks(m), a, b, |x| x, n, backend)
}

/// The rank products of the built-in rings without a modulus, in each ring's own arithmetic.
/// Like the functions above, they are not generic: each is compiled here once, not in every
/// crate that calls [`subset_convolve`].
macro_rules! in_own_arithmetic {
    ($($name:ident: $ring:ident, $elem:ty;)*) => {$(
        #[doc = concat!("The rank products in the arithmetic of [`", stringify!($ring), "`].")]
        fn $name(a: &[$elem], b: &[$elem], n: usize, backend: Backend) -> Vec<$elem> {
            ranked_widest(&WordRanks($ring), a, b, |x| x, n, backend)
        }
    )*};
}

in_own_arithmetic! {
    exact128: Exact128, i128;
    wrap32: Wrap32, u32;
    wrap64: Wrap64, u64;
    float32: Float32, f32;
    float64: Float64, f64;
}

fn overflow(ring: &str, sa: u128, sb: u128) -> Error {
    Error::Overflow {
        what: "subset convolution",
        ring: ring.into(),
        detail: format!("the absolute values sum to {sa} and {sb}, whose product could leave the ring"),
    }
}

/// The arithmetic of the ranked transforms: additions of rows, the transforms of rows and of
/// columns on the SIMD kernels, and the rank products.
pub trait Ranks: Sync {
    type E: Copy + Send + Sync + 'static;
    fn zero(&self) -> Self::E;
    /// `len` zeros, in a plain vector unless the ring has a better place for them.
    fn zeroed(&self, len: usize) -> Ranked<Self::E> {
        Box::new(vec![self.zero(); len])
    }
    fn add(&self, a: Self::E, b: Self::E) -> Self::E;
    fn sub(&self, a: Self::E, b: Self::E) -> Self::E;
    /// `b`'s value as it enters the ranked transforms (the products of [`Mod32Ranks`] divide by
    /// `2^32`, so its `b` is multiplied by `2^32`).
    fn enter_b(&self, x: Self::E) -> Self::E {
        x
    }
    /// The zeta (`inverse`: Möbius) levels across `rows` (2, 4, 8 or 16 of them, one length:
    /// the transform of length `rows.len()` of every column) on `backend`'s SIMD kernel; false,
    /// with the rows untouched, where there is none.
    fn columns(&self, rows: &mut [&mut [Self::E]], inverse: bool, backend: Backend) -> bool {
        let _ = (rows, inverse, backend);
        false
    }
    /// The subset zeta (`inverse`: Möbius) transform of `row` (`2^log2` elements) on
    /// `backend`'s SIMD kernel; false, with the row untouched, where there is none.
    fn row(&self, row: &mut [Self::E], log2: usize, inverse: bool, backend: Backend) -> bool {
        let _ = (row, log2, inverse, backend);
        false
    }
    /// The rank products of the `J` sets at `at..at + J` in each row (`row_len` elements a row,
    /// `fa` and `fb` the rows of one block): row `r` of `fa` becomes `Σ_i fa_i · fb_(r−i)` for
    /// `r` in `from..=n`, where `fa` and `fb` are zero beyond rank `top` (rows above `top` are
    /// not read, and rows above `2 top`, whose products are zero, may be left as they are).
    fn products<const J: usize>(&self, f: Products<'_, Self::E>);
}

/// The arguments of [`Ranks::products`].
pub struct Products<'a, E> {
    pub fa: &'a mut [E],
    pub fb: &'a [E],
    pub row_len: usize,
    pub at: usize,
    pub top: usize,
    pub from: usize,
    pub n: usize,
    /// Room for `2 (n + 1)` rows of the group's sets as words (used by [`Mod32Ranks`]).
    pub scratch: &'a mut [[u64; LANES]],
}

impl<E> Products<'_, E> {
    /// [`terms`] of rank `r` for this group.
    #[inline(always)]
    fn terms(&self, r: usize) -> std::ops::Range<usize> {
        terms(r, self.top)
    }
}

/// The terms `i` of rank `r` where both inputs are zero beyond rank `top`: `i <= top` and
/// `r − i <= top`.
#[inline(always)]
fn terms(r: usize, top: usize) -> std::ops::Range<usize> {
    r.saturating_sub(top)..r.min(top) + 1
}

/// Storage of ranked sets.
type Ranked<E> = Box<dyn std::ops::DerefMut<Target = [E]>>;

/// Any ring's own arithmetic.
pub struct WordRanks<R>(pub R);

impl<R: Ring> Ranks for WordRanks<R>
where
    R::Elem: Copy,
{
    type E = R::Elem;
    fn zero(&self) -> R::Elem {
        self.0.zero()
    }
    #[inline(always)]
    fn add(&self, a: R::Elem, b: R::Elem) -> R::Elem {
        self.0.add(a, b)
    }
    #[inline(always)]
    fn sub(&self, a: R::Elem, b: R::Elem) -> R::Elem {
        self.0.sub(a, b)
    }
    #[inline(always)]
    fn products<const J: usize>(&self, f: Products<'_, R::Elem>) {
        for r in (f.from..=f.n).rev() {
            let mut acc = [self.0.zero(); J];
            for i in f.terms(r) {
                let x = &f.fa[i * f.row_len + f.at..][..J];
                let y = &f.fb[(r - i) * f.row_len + f.at..][..J];
                for ((t, &x), &y) in acc.iter_mut().zip(x).zip(y) {
                    *t = self.0.add(*t, self.0.mul(x, y));
                }
            }
            f.fa[r * f.row_len + f.at..][..J].copy_from_slice(&acc);
        }
    }
}

/// Residues below an odd `m < 2^31`: products summed in `u64` lanes, folded back below
/// `m · 2^32` every `terms` products (`t ↦ ⌊t / 2^32⌋ · (2^32 mod m) + (t mod 2^32)`, which keeps
/// `t mod m`), and one Montgomery reduction per rank, which divides by `2^32` (so `b` enters
/// multiplied by `2^32`).
pub struct Mod32Ranks {
    m: u32,
    /// `2^32 mod m`.
    two32: u32,
    /// Products a folded sum takes before it is folded again: a fold leaves at most
    /// `(2^32 − 1)(2^32 mod m + 1)`, and that plus `terms · (m − 1)²` stays below `2^64`.
    terms: usize,
    /// `−m⁻¹ mod 2^32`.
    minus_inverse: u32,
    /// `2^64 mod m`: `montgomery(x · 2^64 mod m) = x · 2^32 mod m`.
    r2: u64,
}

impl Mod32Ranks {
    pub fn new(ring: Mod32) -> Self {
        let m = ring.modulus();
        let two32 = ((1u64 << 32) % u64::from(m)) as u32;
        let folded = 0xffff_ffff * (u64::from(two32) + 1);
        let square = u64::from(m - 1) * u64::from(m - 1);
        let terms = (u64::MAX - folded).checked_div(square).map_or(64, |t| t.min(64)) as usize;
        // Newton's iteration doubles the correct low bits of the inverse of an odd m (3 to 96).
        let mut inverse = m;
        for _ in 0..5 {
            inverse = inverse.wrapping_mul(2u32.wrapping_sub(m.wrapping_mul(inverse)));
        }
        let r2 = (u128::from(u64::MAX) % u128::from(m) + 1) as u64 % u64::from(m);
        Mod32Ranks { m, two32, terms, minus_inverse: inverse.wrapping_neg(), r2 }
    }

    /// A number `< m · 2^32` congruent to `t` modulo `m`: at most `(2^32 − 1)(2^32 mod m + 1)`.
    #[inline(always)]
    pub fn fold(&self, t: u64) -> u64 {
        (t >> 32) * u64::from(self.two32) + (t & 0xffff_ffff)
    }

    /// `t · 2^−32 mod m` for `t < m · 2^32` (Montgomery's reduction, on `u64` lanes only: the
    /// products are of 32-bit halves).
    #[inline(always)]
    fn montgomery(&self, t: u64) -> u32 {
        let m = u64::from(self.m);
        let q = ((t & 0xffff_ffff) * u64::from(self.minus_inverse)) & 0xffff_ffff;
        // t + q·m < 2 m 2^32 <= 2^64, and a multiple of 2^32.
        let r = (t + q * m) >> 32;
        // r < 2m < 2^32: r − m is negative as an i64 exactly when r < m (a select on the sign,
        // which AVX2 has, unlike an unsigned 64-bit minimum).
        let d = r.wrapping_sub(m);
        (if (d as i64) < 0 { r } else { d }) as u32
    }

    /// [`Ranks::products`] of 16 sets, their residues read as 8 `u64` words of two: each rank
    /// row of the group is copied once into the scratch as its words (the even sets' residues in
    /// the low halves) and the words shifted right by 32 (the odd sets'), so that each term is
    /// 16 products of low halves (`vpmuludq`, no widening or shifting of the rows) and 16 sums.
    #[inline(always)]
    fn products_in_pairs(&self, f: Products<'_, u32>) {
        const HALF: usize = LANES / 2;
        const LOW: u64 = 0xffff_ffff;
        let Products { fa, fb, row_len, at, top, from, n, scratch } = f;
        let (xs, ys) = scratch.split_at_mut(n + 1);
        for (row, to) in [(&*fa, &mut xs[..=top]), (fb, &mut ys[..=top])] {
            for (i, to) in to.iter_mut().enumerate() {
                let words: [u64; HALF] = bytemuck::pod_read_unaligned(bytemuck::cast_slice::<u32, u8>(
                    &row[i * row_len + at..][..LANES],
                ));
                for l in 0..HALF {
                    to[l] = words[l];
                    to[HALF + l] = words[l] >> 32;
                }
            }
        }
        for r in from..=n.min(2 * top) {
            // Word l's even product sums at l, its odd one at HALF + l.
            let mut acc = [0u64; LANES];
            let mut left = self.terms;
            for i in terms(r, top) {
                let (x, y) = (&xs[i], &ys[r - i]);
                for l in 0..LANES {
                    acc[l] += (x[l] & LOW) * (y[l] & LOW);
                }
                left -= 1;
                if left == 0 {
                    left = self.terms;
                    for t in &mut acc {
                        *t = self.fold(*t);
                    }
                }
            }
            let mut out = [0u64; HALF];
            for l in 0..HALF {
                let (e, o) = (self.montgomery(self.fold(acc[l])), self.montgomery(self.fold(acc[HALF + l])));
                out[l] = u64::from(e) | u64::from(o) << 32;
            }
            fa[r * row_len + at..][..LANES].copy_from_slice(bytemuck::cast_slice(&out));
        }
    }
}

impl Ranks for Mod32Ranks {
    type E = u32;
    fn zero(&self) -> u32 {
        0
    }
    /// Fresh pages, on huge pages where the system gives them: no pass of zeros, and a few page
    /// faults instead of one per 4 KiB (the caller checked that the memory fits).
    fn zeroed(&self, len: usize) -> Ranked<u32> {
        match crate::memory::LargeBuffer::zeroed(|| "the ranked transforms".into(), len) {
            Ok(buffer) => Box::new(buffer),
            Err(_) => Box::new(vec![0; len]),
        }
    }
    #[inline(always)]
    fn add(&self, a: u32, b: u32) -> u32 {
        let s = a + b;
        s.min(s.wrapping_sub(self.m))
    }
    #[inline(always)]
    fn sub(&self, a: u32, b: u32) -> u32 {
        let d = a.wrapping_sub(b);
        d.min(d.wrapping_add(self.m))
    }
    #[inline(always)]
    fn enter_b(&self, x: u32) -> u32 {
        // x · (2^64 mod m) < m² < m · 2^32.
        self.montgomery(u64::from(x) * self.r2)
    }
    fn columns(&self, rows: &mut [&mut [u32]], inverse: bool, backend: Backend) -> bool {
        let kind = crate::simd::sets::kind(false, inverse);
        crate::simd::sets::mod32_rows(self.m, kind, rows, backend.isa(), false)
    }
    fn row(&self, row: &mut [u32], log2: usize, inverse: bool, backend: Backend) -> bool {
        let kind = crate::simd::sets::kind(false, inverse);
        crate::simd::sets::mod32(self.m, kind, row, log2 as u32, backend.isa(), false)
    }
    /// `J` lanes of `u64` sums, 16 sets in pairs ([`Mod32Ranks::products_in_pairs`]), one set
    /// alone.
    #[inline(always)]
    fn products<const J: usize>(&self, f: Products<'_, u32>) {
        if J == LANES {
            return self.products_in_pairs(f);
        }
        for r in (f.from..=f.n).rev() {
            let mut acc = [0u64; J];
            let mut left = self.terms;
            for i in f.terms(r) {
                let x = &f.fa[i * f.row_len + f.at..][..J];
                let y = &f.fb[(r - i) * f.row_len + f.at..][..J];
                for l in 0..J {
                    acc[l] += u64::from(x[l]) * u64::from(y[l]);
                }
                left -= 1;
                if left == 0 {
                    left = self.terms;
                    for t in &mut acc {
                        *t = self.fold(*t);
                    }
                }
            }
            for (out, &t) in f.fa[r * f.row_len + f.at..][..J].iter_mut().zip(&acc) {
                *out = self.montgomery(self.fold(t));
            }
        }
    }
}

/// [`ranked`] compiled for the widest instruction set of `backend` (the additions of the levels
/// and the rank products are loops over words that the compiler vectorises), with blocks of
/// [`BLOCK_BYTES`].
fn ranked_widest<A: Ranks, X: Copy + Sync>(
    ar: &A,
    a: &[X],
    b: &[X],
    value: impl Fn(X) -> A::E,
    n: usize,
    backend: Backend,
) -> Vec<A::E> {
    // Sets per block: a power of two whose two ranked blocks fit in BLOCK_BYTES.
    let set_bytes = 2 * (n + 1) * std::mem::size_of::<A::E>();
    let block_log2 = ((BLOCK_BYTES / set_bytes).max(1).ilog2() as usize).min(n);
    ranked_blocks(ar, a, b, value, n, block_log2, backend)
}

/// [`ranked_widest`] with blocks of `2^block_log2` sets.
pub fn ranked_blocks<A: Ranks, X: Copy + Sync, V: Fn(X) -> A::E>(
    ar: &A,
    a: &[X],
    b: &[X],
    value: V,
    n: usize,
    block_log2: usize,
    backend: Backend,
) -> Vec<A::E> {
    struct Ranked<'a, A: Ranks, X, V>(&'a A, &'a [X], &'a [X], V, usize, usize, Backend);
    impl<A: Ranks, X: Copy, V: Fn(X) -> A::E> Vectorised for Ranked<'_, A, X, V> {
        type Out = Vec<A::E>;
        #[inline(always)]
        fn run(self) -> Vec<A::E> {
            ranked(self.0, self.1, self.2, self.3, self.4, self.5, self.6)
        }
    }
    run_widest(Ranked(ar, a, b, value, n, block_log2, backend), backend.isa())
}

/// The ranked computation of the module documentation, with blocks of `2^block_log2 <= 2^n`
/// sets.
#[inline(always)]
fn ranked<A: Ranks, X: Copy>(
    ar: &A,
    a: &[X],
    b: &[X],
    value: impl Fn(X) -> A::E,
    n: usize,
    block_log2: usize,
    backend: Backend,
) -> Vec<A::E> {
    let (len, w, row_len) = (a.len(), n + 1, 1usize << block_log2);
    let block = w * row_len;
    let index = |s: usize| ((s >> block_log2) * w + s.count_ones() as usize) * row_len + (s & (row_len - 1));
    let mut store_a = ar.zeroed(len * w);
    let mut store_b = ar.zeroed(len * w);
    let (fa, fb): (&mut [A::E], &mut [A::E]) = (&mut store_a, &mut store_b);
    for (s, (&x, &y)) in a.iter().zip(b).enumerate() {
        fa[index(s)] = value(x);
        fb[index(s)] = ar.enter_b(value(y));
    }
    upper_levels(ar, fa, n, block_log2, false, backend);
    upper_levels(ar, fb, n, block_log2, false, backend);
    let mut scratch = vec![[0u64; LANES]; 2 * w];
    for (high, (ba, bb)) in fa.chunks_exact_mut(block).zip(fb.chunks_exact_mut(block)).enumerate() {
        let c = high.count_ones() as usize;
        let top = (c + block_log2).min(n);
        for row in ba[..(top + 1) * row_len].chunks_exact_mut(row_len) {
            row_levels(ar, row, block_log2, false, backend);
        }
        for row in bb[..(top + 1) * row_len].chunks_exact_mut(row_len) {
            row_levels(ar, row, block_log2, false, backend);
        }
        if row_len >= LANES {
            // The 16 sets at `at` have ranks c + |at| … c + |at| + 4.
            for at in (0..row_len).step_by(LANES) {
                let from = c + at.count_ones() as usize;
                let top = (from + LANES.ilog2() as usize).min(n);
                ar.products::<LANES>(Products {
                    fa: ba,
                    fb: bb,
                    row_len,
                    at,
                    top,
                    from,
                    n,
                    scratch: &mut scratch,
                });
            }
        } else {
            for at in 0..row_len {
                let from = c + at.count_ones() as usize;
                let f = Products { fa: ba, fb: bb, row_len, at, top: from, from, n, scratch: &mut scratch };
                ar.products::<1>(f);
            }
        }
        for row in ba[c * row_len..].chunks_exact_mut(row_len) {
            row_levels(ar, row, block_log2, true, backend);
        }
    }
    drop(store_b);
    upper_levels(ar, fa, n, block_log2, true, backend);
    (0..len).map(|s| fa[index(s)]).collect()
}

/// The zeta (`inverse`: Möbius) transform of one rank row (`2^log2` sets of a block): on the SIMD
/// kernel where [`Ranks::row`] has one, else by [`levels`].
#[inline(always)]
fn row_levels<A: Ranks>(ar: &A, row: &mut [A::E], log2: usize, inverse: bool, backend: Backend) {
    if !ar.row(row, log2, inverse, backend) {
        levels(ar, row, 0..log2, inverse);
    }
}

/// Zeta (`inverse`: Möbius) levels `block_log2..n` over the blocks of ranked sets (`n + 1` rows
/// of `2^block_log2` sets each), as column passes across blocks (see [`column_passes`]).
///
/// The levels are cut into sweeps of at most [`sweep_levels`], each one pass over memory: a
/// sweep's `2^h` blocks that differ in its bits only (a family) take all its passes one tile at a
/// time, the same rank row and columns of every block of the family, [`TILE_BYTES`] in all, so
/// that the tile stays in cache from one pass to the next. Over the rows that matter only
/// (module documentation): a pass's group of blocks whose first block has `c` high ones and
/// whose `g` levels reach `c + g` ones runs over ranks `..=c + g + β` (zeta) or `c..` (Möbius).
#[inline(always)]
fn upper_levels<A: Ranks>(
    ar: &A,
    f: &mut [A::E],
    n: usize,
    block_log2: usize,
    inverse: bool,
    backend: Backend,
) {
    let total = n - block_log2;
    if total == 0 {
        return;
    }
    let (w, row_len) = (n + 1, 1usize << block_log2);
    let mut lo = 0;
    for h in even(total, sweep_levels::<A::E>()) {
        let fit = (TILE_BYTES / (std::mem::size_of::<A::E>() << h)).max(1);
        let width = (1usize << fit.ilog2()).max(256).min(row_len);
        // Every tile of every block, in order: block, rank, columns.
        let mut tiles: Vec<&mut [A::E]> = f.chunks_exact_mut(width).collect();
        let per_row = row_len / width;
        let blocks = tiles.len() / (w * per_row);
        for family in (0..blocks).filter(|b| b & (((1 << h) - 1) << lo) == 0) {
            let c = family.count_ones() as usize;
            let ranks = if inverse { c..w } else { 0..(c + h + block_log2).min(n) + 1 };
            for r in ranks {
                for column in 0..per_row {
                    let slot = |k: usize| ((family | k << lo) * w + r) * per_row + column;
                    let skip = |k: usize, g: usize| {
                        let c = (family | k << lo).count_ones() as usize;
                        if inverse { r < c } else { r > c + g + block_log2 }
                    };
                    column_passes(ar, &mut tiles, h, slot, skip, inverse, backend);
                }
            }
        }
        lo += h;
    }
}

/// `levels` cut into parts of at most `most` levels, as even as they come (8 by 3: 2, 3 and 3).
fn even(levels: usize, most: usize) -> impl Iterator<Item = usize> {
    let parts = levels.div_ceil(most);
    (0..parts).map(move |p| levels * (p + 1) / parts - levels * p / parts)
}

/// The zeta (`inverse`: Möbius) transform of length `2^h` of every column of the rows
/// `rows[slot(k)]`, `k < 2^h` (one length), as column passes of at most [`PASS_LEVELS`] levels:
/// the `2^g` rows that differ in one pass's bits of `k` only, on the SIMD kernel where
/// [`Ranks::columns`] has one, else by [`column_levels`]. A group whose first `k` is `k0` is left
/// out where `skip(k0, g)` (the caller knows its rows to be zero, or never read).
#[inline(always)]
fn column_passes<A: Ranks>(
    ar: &A,
    rows: &mut [&mut [A::E]],
    h: usize,
    slot: impl Fn(usize) -> usize,
    skip: impl Fn(usize, usize) -> bool,
    inverse: bool,
    backend: Backend,
) {
    let mut group: Vec<&mut [A::E]> = Vec::with_capacity(1 << PASS_LEVELS);
    let mut at = 0;
    for g in even(h, PASS_LEVELS) {
        let (count, stride) = (1usize << g, 1usize << at);
        for k0 in (0..1usize << h).filter(|k| (k >> at) & (count - 1) == 0) {
            if skip(k0, g) {
                continue;
            }
            group.extend((0..count).map(|j| std::mem::take(&mut rows[slot(k0 + j * stride)])));
            if !ar.columns(&mut group, inverse, backend) {
                column_levels(ar, &mut group, inverse);
            }
            for (j, x) in group.drain(..).enumerate() {
                rows[slot(k0 + j * stride)] = x;
            }
        }
        at += g;
    }
}

/// The zeta (`inverse`: Möbius) transform of length `rows.len()` (a power of two) of every column
/// of `rows`, by plain loops.
#[inline(always)]
fn column_levels<A: Ranks>(ar: &A, rows: &mut [&mut [A::E]], inverse: bool) {
    let mut h = 1;
    while h < rows.len() {
        for i in (0..rows.len()).filter(|i| i & h == 0) {
            let (low, high) = rows.split_at_mut(i + h);
            let (lo, hi) = (&*low[i], &mut *high[0]);
            if inverse {
                for (x, &y) in hi.iter_mut().zip(lo) {
                    *x = ar.sub(*x, y);
                }
            } else {
                for (x, &y) in hi.iter_mut().zip(lo) {
                    *x = ar.add(*x, y);
                }
            }
        }
        h *= 2;
    }
}

/// Zeta (`inverse`: Möbius) levels `levels` of a row of sets: each pair of halves is one long run
/// of additions (or subtractions), which vectorises.
#[inline(always)]
fn levels<A: Ranks>(ar: &A, f: &mut [A::E], levels: std::ops::Range<usize>, inverse: bool) {
    for h in levels {
        let half = 1usize << h;
        for pair in f.chunks_exact_mut(2 * half) {
            let (lo, hi) = pair.split_at_mut(half);
            if inverse {
                for (x, &y) in hi.iter_mut().zip(lo.iter()) {
                    *x = ar.sub(*x, y);
                }
            } else {
                for (x, &y) in hi.iter_mut().zip(lo.iter()) {
                    *x = ar.add(*x, y);
                }
            }
        }
    }
}
