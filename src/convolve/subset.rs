//! The subset convolution `c[s] = Σ_{t ⊆ s} a[t] · b[s ∖ t]` by ranked zeta transforms.
//!
//! Each input is split by rank (popcount) into `n + 1` arrays `a_r[t] = a[t]·[|t| = r]`; their
//! subset zeta transforms multiply as polynomials in the rank, `ĉ_r = Σ_i â_i · b̂_(r−i)`, and the
//! Möbius transform of `ĉ_r` read at the sets of rank `r` is `c` (the union of two disjoint sets is
//! the only way for the ranks to add up). O(n² 2^n) operations.
//!
//! # Layout and blocking
//! The `n + 1` ranks of one set lie side by side (`f[s · (n+1) + r]`), so a butterfly moves
//! whole rank vectors and the rank product of a set reads one short contiguous run. Zeta and
//! Möbius levels commute, so the levels above a block of sets that fits in L2 run first, as
//! passes over memory; then each block takes its own levels, its rank products and its inverse
//! levels while it stays in cache; the inverse levels above the blocks come last. After the zeta
//! levels a set `p` holds ranks `<= |p|` only, and the Möbius result at `s` is read at rank `|s|`,
//! so a set `p` needs the products of ranks `>= |p|` only: about a third of the `(n + 1)²` rank
//! products per set of the textbook.

use std::any::Any;

use crate::error::{Error, Result};
use crate::ring::{Exact64, Exact128, Mod32, Ring, Wrap64};

/// Bytes of one block of sets whose ranks are convolved in cache.
const BLOCK_BYTES: usize = 256 << 10;

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
/// [`and_convolve`](super::and_convolve)'s.
pub fn subset_convolve<R: Ring>(ring: R, a: &[R::Elem], b: &[R::Elem]) -> Result<Vec<R::Elem>>
where
    R::Elem: Copy,
{
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
    let any = &ring as &dyn Any;
    let sum = |x: &mut dyn Iterator<Item = u128>| x.fold(0u128, u128::saturating_add);
    if any.is::<Exact64>() {
        let (a64, b64): (Vec<i64>, Vec<i64>) = (same(a), same(b));
        let sa = sum(&mut a64.iter().map(|x| u128::from(x.unsigned_abs())));
        let sb = sum(&mut b64.iter().map(|x| u128::from(x.unsigned_abs())));
        if sa.checked_mul(sb).is_none_or(|p| p > i64::MAX as u128) {
            return Err(overflow("i64", sa, sb));
        }
        // Every result is below 2^63 in absolute value: modulo 2^64 it is exact.
        let wrapped = ranked(&WordRanks(Wrap64), bytemuck::cast_slice(&a64), bytemuck::cast_slice(&b64), n);
        return Ok(same(bytemuck::cast_slice::<u64, i64>(&wrapped)));
    }
    if any.is::<Exact128>() {
        let (a128, b128): (Vec<i128>, Vec<i128>) = (same(a), same(b));
        let sa = sum(&mut a128.iter().map(|x| x.unsigned_abs()));
        let sb = sum(&mut b128.iter().map(|x| x.unsigned_abs()));
        // Every intermediate value is at most 2^n (n + 1) Σ|a| Σ|b| in absolute value.
        let factor = (1u128 << n).saturating_mul(n as u128 + 1);
        if sa.checked_mul(sb).and_then(|p| p.checked_mul(factor)).is_none_or(|p| p > i128::MAX as u128) {
            return Err(overflow("i128", sa, sb));
        }
    }
    if let Some(m) = any.downcast_ref::<Mod32>() {
        let out = ranked(&Mod32Ranks::new(*m), &same::<R::Elem, u32>(a), &same::<R::Elem, u32>(b), n);
        return Ok(same(&out));
    }
    Ok(ranked(&WordRanks(ring), a, b, n))
}

fn overflow(ring: &str, sa: u128, sb: u128) -> Error {
    Error::Overflow {
        what: "subset convolution",
        ring: ring.into(),
        detail: format!("the absolute values sum to {sa} and {sb}, whose product could leave the ring"),
    }
}

/// A copy of `x` as a vector of `T`, where `E` is `T` (the caller checked the ring's type).
fn same<E: Clone + 'static, T: 'static>(x: &[E]) -> Vec<T> {
    *(Box::new(x.to_vec()) as Box<dyn Any>).downcast::<Vec<T>>().expect("the element type of the ring")
}

/// The arithmetic of the ranked transforms: additions of rank vectors, and the rank product.
trait Ranks: Sync {
    type E: Copy + Send + Sync;
    fn zero(&self) -> Self::E;
    fn add(&self, a: Self::E, b: Self::E) -> Self::E;
    fn sub(&self, a: Self::E, b: Self::E) -> Self::E;
    /// `out[r] = Σ_{i} fa[i] · fb[r − i]` for `r` in `from..=n`, with `fa`, `fb` zero beyond
    /// rank `k`.
    fn product(&self, fa: &[Self::E], fb: &[Self::E], k: usize, from: usize, out: &mut [Self::E]);
}

/// Any ring's own arithmetic.
struct WordRanks<R>(R);

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
    fn product(&self, fa: &[R::Elem], fb: &[R::Elem], k: usize, from: usize, out: &mut [R::Elem]) {
        for r in from..out.len() {
            let mut sum = self.0.zero();
            for i in r.saturating_sub(k)..=r.min(k) {
                sum = self.0.add(sum, self.0.mul(fa[i], fb[r - i]));
            }
            out[r] = sum;
        }
    }
}

/// Residues below an odd `m < 2^31`: products summed in a `u64` kept below a multiple of `m²`,
/// one reduction per rank.
struct Mod32Ranks {
    m: u32,
    /// The largest `m² · 2^j` at most `2^63`: `acc + x·y < 2^63 + 2^62` never wraps, and
    /// `min(acc, acc − cap)` brings it back below `cap`.
    cap: u64,
}

impl Mod32Ranks {
    fn new(ring: Mod32) -> Self {
        let m = ring.modulus();
        let square = u64::from(m) * u64::from(m);
        let mut cap = square.max(1);
        while cap <= (1u64 << 62) {
            cap <<= 1;
        }
        Mod32Ranks { m, cap }
    }
}

impl Ranks for Mod32Ranks {
    type E = u32;
    fn zero(&self) -> u32 {
        0
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
    fn product(&self, fa: &[u32], fb: &[u32], k: usize, from: usize, out: &mut [u32]) {
        for r in from..out.len() {
            let mut acc = 0u64;
            for i in r.saturating_sub(k)..=r.min(k) {
                acc += u64::from(fa[i]) * u64::from(fb[r - i]);
                acc = acc.min(acc.wrapping_sub(self.cap));
            }
            out[r] = (acc % u64::from(self.m)) as u32;
        }
    }
}

/// The ranked computation of the module documentation.
fn ranked<A: Ranks>(ar: &A, a: &[A::E], b: &[A::E], n: usize) -> Vec<A::E> {
    let (len, w) = (a.len(), n + 1);
    let rank = |x: &[A::E]| {
        let mut f = vec![ar.zero(); len * w];
        for (s, &v) in x.iter().enumerate() {
            f[s * w + s.count_ones() as usize] = v;
        }
        f
    };
    let (mut fa, mut fb) = (rank(a), rank(b));
    // Sets per block: a power of two whose two ranked blocks fit in BLOCK_BYTES.
    let set_bytes = 2 * w * std::mem::size_of::<A::E>();
    let block_log2 = ((BLOCK_BYTES / set_bytes).max(1).ilog2() as usize).min(n);
    levels(ar, &mut fa, w, block_log2..n, false);
    levels(ar, &mut fb, w, block_log2..n, false);
    let block = (1usize << block_log2) * w;
    let mut product = vec![ar.zero(); w];
    for (index, (ba, bb)) in fa.chunks_exact_mut(block).zip(fb.chunks_exact_mut(block)).enumerate() {
        let first = index << block_log2;
        levels(ar, ba, w, 0..block_log2, false);
        levels(ar, bb, w, 0..block_log2, false);
        for (j, (sa, sb)) in ba.chunks_exact_mut(w).zip(bb.chunks_exact(w)).enumerate() {
            let k = (first + j).count_ones() as usize;
            ar.product(sa, sb, k, k, &mut product);
            sa[k..].copy_from_slice(&product[k..]);
        }
        levels(ar, ba, w, 0..block_log2, true);
    }
    drop(fb);
    levels(ar, &mut fa, w, block_log2..n, true);
    (0..len).map(|s| fa[s * w + s.count_ones() as usize]).collect()
}

/// Zeta (`inverse`: Möbius) levels `levels` over ranked sets (`w` ranks each): each pair of
/// halves is one long run of additions (or subtractions), which vectorises. The ranks that
/// could be skipped (zero in the low set before the products; never read in the high set
/// after) are added all the same: the run stays whole, and adding them changes no result.
fn levels<A: Ranks>(ar: &A, f: &mut [A::E], w: usize, levels: std::ops::Range<usize>, inverse: bool) {
    for h in levels {
        let half = (1usize << h) * w;
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
