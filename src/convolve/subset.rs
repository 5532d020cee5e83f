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
use crate::simd::Backend;
use crate::simd::sets::{Vectorised, run_widest};

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
        let wrapped =
            ranked_widest(&WordRanks(Wrap64), bytemuck::cast_slice(&a64), bytemuck::cast_slice(&b64), n);
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
        let out = ranked_widest(&Mod32Ranks::new(*m), &same::<R::Elem, u32>(a), &same::<R::Elem, u32>(b), n);
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
    type E: Copy + Send + Sync + 'static;
    fn zero(&self) -> Self::E;
    /// `len` zeros, in a plain vector unless the ring has a better place for them.
    fn zeroed(&self, len: usize) -> Ranked<Self::E> {
        Box::new(vec![self.zero(); len])
    }
    fn add(&self, a: Self::E, b: Self::E) -> Self::E;
    fn sub(&self, a: Self::E, b: Self::E) -> Self::E;
    /// The zeta (`inverse`: Möbius) levels across `rows` (2, 4, 8 or 16 of them, each a block of
    /// ranked sets: the transform of length `rows.len()` of every column) on a SIMD kernel;
    /// false, with the rows untouched, where there is none.
    fn rows(&self, rows: &mut [&mut [Self::E]], inverse: bool) -> bool {
        let _ = (rows, inverse);
        false
    }
    /// `out[r] = Σ_{i} fa[i] · fb[r − i]` for `r` in `from..=n`, with `fa`, `fb` zero beyond
    /// rank `k`.
    fn product(&self, fa: &[Self::E], fb: &[Self::E], k: usize, from: usize, out: &mut [Self::E]);
}

/// Storage of ranked sets.
type Ranked<E> = Box<dyn std::ops::DerefMut<Target = [E]>>;

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
    #[inline(always)]
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
    /// `⌊(2^64 − 1) / m⌋`, for [`Mod32Ranks::reduce`].
    barrett: u64,
}

impl Mod32Ranks {
    fn new(ring: Mod32) -> Self {
        let m = ring.modulus();
        let square = u64::from(m) * u64::from(m);
        let mut cap = square.max(1);
        while cap <= (1u64 << 62) {
            cap <<= 1;
        }
        Mod32Ranks { m, cap, barrett: u64::MAX / u64::from(m.max(1)) }
    }

    /// The rank product for `w <= W` ranks, where `fa` and `fb` are zero beyond rank `k` (as
    /// the zeta transform leaves a set of `k` elements): `fb` shifted by `i` ranks is read from
    /// a copy with `W` zeros in front, so that every term `i` is one loop of constant length `W`
    /// (one `u64` product, addition and `min` per lane, vectorised whole), `acc` staying below
    /// `cap`; one Barrett reduction per rank at the end.
    #[inline(always)]
    fn product_padded<const W: usize>(&self, fa: &[u32], fb: &[u32], k: usize, from: usize, out: &mut [u32]) {
        let w = out.len();
        debug_assert!(w <= W && k < w);
        let mut padded = [[0u32; W]; 2];
        padded[1][..w].copy_from_slice(&fb[..w]);
        let padded = padded.as_flattened();
        let mut acc = [0u64; W];
        for i in 0..=k {
            let x = u64::from(fa[i]);
            let shifted: &[u32; W] = padded[W - i..2 * W - i].try_into().expect("W elements");
            for r in 0..W {
                let s = acc[r] + x * u64::from(shifted[r]);
                acc[r] = s.min(s.wrapping_sub(self.cap));
            }
        }
        for r in from..w {
            out[r] = self.reduce(acc[r]);
        }
    }

    /// The rank product term by term of `fa`, over the ranks each term reaches (any number of
    /// ranks).
    #[inline(always)]
    fn product_ranges(&self, fa: &[u32], fb: &[u32], k: usize, from: usize, out: &mut [u32]) {
        let w = out.len();
        let mut acc = vec![0u64; w];
        for i in 0..=k {
            let x = u64::from(fa[i]);
            // Ranks r with r − i in 0..=k.
            let (lo, hi) = (from.max(i), (i + k + 1).min(w));
            if lo >= hi {
                continue;
            }
            for (t, &y) in acc[lo..hi].iter_mut().zip(&fb[lo - i..hi - i]) {
                let s = *t + x * u64::from(y);
                *t = s.min(s.wrapping_sub(self.cap));
            }
        }
        for (o, &t) in out[from..].iter_mut().zip(&acc[from..]) {
            *o = self.reduce(t);
        }
    }

    /// `t mod m` for `t < 2^63`: the quotient estimate `⌊t · ⌊(2^64 − 1)/m⌋ / 2^64⌋` is short
    /// of the true one by at most 2, so at most two subtractions of `m` remain.
    #[inline(always)]
    fn reduce(&self, t: u64) -> u32 {
        let m = u64::from(self.m);
        let q = ((u128::from(t) * u128::from(self.barrett)) >> 64) as u64;
        let mut r = t - q * m;
        r = r.min(r.wrapping_sub(m));
        r.min(r.wrapping_sub(m)) as u32
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
    fn rows(&self, rows: &mut [&mut [u32]], inverse: bool) -> bool {
        let kind = crate::simd::sets::kind(false, inverse);
        crate::simd::sets::mod32_rows(self.m, kind, rows, Backend::best(), false)
    }
    /// One register-friendly loop per term of `fa`: see [`Mod32Ranks::product_padded`], for up to
    /// 32 ranks (sets of up to 2^31 elements); term by term below that otherwise.
    #[inline(always)]
    fn product(&self, fa: &[u32], fb: &[u32], k: usize, from: usize, out: &mut [u32]) {
        match out.len() {
            0..=8 => self.product_padded::<8>(fa, fb, k, from, out),
            9..=16 => self.product_padded::<16>(fa, fb, k, from, out),
            17..=24 => self.product_padded::<24>(fa, fb, k, from, out),
            25..=32 => self.product_padded::<32>(fa, fb, k, from, out),
            _ => self.product_ranges(fa, fb, k, from, out),
        }
    }
}

/// [`ranked`] compiled for the widest instruction set this CPU runs (the additions of the
/// levels and the rank products are loops over words that the compiler vectorises).
fn ranked_widest<A: Ranks>(ar: &A, a: &[A::E], b: &[A::E], n: usize) -> Vec<A::E> {
    struct Ranked<'a, A: Ranks>(&'a A, &'a [A::E], &'a [A::E], usize);
    impl<A: Ranks> Vectorised for Ranked<'_, A> {
        type Out = Vec<A::E>;
        #[inline(always)]
        fn run(self) -> Vec<A::E> {
            ranked(self.0, self.1, self.2, self.3)
        }
    }
    run_widest(Ranked(ar, a, b, n), Backend::best())
}

/// The ranked computation of the module documentation.
#[inline(always)]
fn ranked<A: Ranks>(ar: &A, a: &[A::E], b: &[A::E], n: usize) -> Vec<A::E> {
    let (len, w) = (a.len(), n + 1);
    let rank = |x: &[A::E]| {
        let mut store = ar.zeroed(len * w);
        let f: &mut [A::E] = &mut store;
        for (s, &v) in x.iter().enumerate() {
            f[s * w + s.count_ones() as usize] = v;
        }
        store
    };
    let (mut store_a, mut store_b) = (rank(a), rank(b));
    let (fa, fb): (&mut [A::E], &mut [A::E]) = (&mut store_a, &mut store_b);
    // Sets per block: a power of two whose two ranked blocks fit in BLOCK_BYTES.
    let set_bytes = 2 * w * std::mem::size_of::<A::E>();
    let block_log2 = ((BLOCK_BYTES / set_bytes).max(1).ilog2() as usize).min(n);
    upper_levels(ar, fa, w, block_log2, n, false);
    upper_levels(ar, fb, w, block_log2, n, false);
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
    drop(store_b);
    upper_levels(ar, fa, w, block_log2, n, true);
    (0..len).map(|s| fa[s * w + s.count_ones() as usize]).collect()
}

/// Zeta (`inverse`: Möbius) levels `block_log2..n` over ranked sets (`w` ranks each): on the
/// SIMD kernel where [`Ranks::rows`] has one, up to four levels a pass over memory (the rows
/// being the blocks of `2^block_log2` sets, each level pairing blocks), else by [`levels`].
#[inline(always)]
fn upper_levels<A: Ranks>(ar: &A, f: &mut [A::E], w: usize, block_log2: usize, n: usize, inverse: bool) {
    let total = n - block_log2;
    if total == 0 {
        return;
    }
    let row_len = w << block_log2;
    let mut rows: Vec<&mut [A::E]> = f.chunks_exact_mut(row_len).collect();
    // Passes of at most four levels, as even as they come (10 levels: 4, 3, 3).
    let passes = total.div_ceil(4);
    let mut lo = 0;
    for p in 0..passes {
        let g = (total - lo) / (passes - p);
        let (count, stride) = (1usize << g, 1usize << lo);
        let mut group: [&mut [A::E]; 16] = Default::default();
        for base in (0..rows.len()).filter(|i| (i >> lo) & (count - 1) == 0) {
            for (j, slot) in group.iter_mut().take(count).enumerate() {
                *slot = std::mem::take(&mut rows[base + j * stride]);
            }
            if !ar.rows(&mut group[..count], inverse) {
                // Every group has rows of the same length: only the first can be refused.
                debug_assert!(lo == 0 && base == 0, "a SIMD pass refused after others ran");
                for (j, slot) in group.iter_mut().take(count).enumerate() {
                    rows[base + j * stride] = std::mem::take(slot);
                }
                drop(rows);
                levels(ar, f, w, block_log2 + lo..n, inverse);
                return;
            }
            for (j, slot) in group.iter_mut().take(count).enumerate() {
                rows[base + j * stride] = std::mem::take(slot);
            }
        }
        lo += g;
    }
}

/// Zeta (`inverse`: Möbius) levels `levels` over ranked sets (`w` ranks each): each pair of
/// halves is one long run of additions (or subtractions), which vectorises. The ranks that
/// could be skipped (zero in the low set before the products; never read in the high set
/// after) are added all the same: the run stays whole, and adding them changes no result.
#[inline(always)]
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The padded rank products of every width against the plain sum over pairs of ranks, for
    /// every number of ranks up to 40 (beyond the widest padding), every set size `k` and rank
    /// `from`, with residues up to `m − 1`, for the largest modulus and 998 244 353.
    #[test]
    fn rank_products_equal_the_sum_over_pairs_of_ranks() {
        let mut seed = 0x7a11u64;
        for m in [998_244_353u32, Mod32::MAX_MODULUS] {
            let ranks = Mod32Ranks::new(Mod32::new(m).unwrap());
            for w in 1..=40usize {
                for k in [0, w / 2, w - 1] {
                    let mut random = |r: usize| {
                        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        let v = if seed >> 60 == 0 { m - 1 } else { ((seed >> 20) % u64::from(m)) as u32 };
                        if r <= k { v } else { 0 }
                    };
                    let fa: Vec<u32> = (0..w).map(&mut random).collect();
                    let fb: Vec<u32> = (0..w).map(&mut random).collect();
                    for from in [0, k] {
                        let mut got = vec![7u32; w];
                        ranks.product(&fa, &fb, k, from, &mut got);
                        for r in from..w {
                            let want = (0..=r).fold(0u64, |s, i| {
                                (s + u64::from(fa[i]) * u64::from(fb[r - i])) % u64::from(m)
                            });
                            assert_eq!(
                                u64::from(got[r]),
                                want,
                                "m {m}, {w} ranks, k {k}, from {from}, rank {r}"
                            );
                        }
                        assert!(got[..from].iter().all(|&x| x == 7), "ranks below from are left alone");
                    }
                }
            }
        }
    }
}
