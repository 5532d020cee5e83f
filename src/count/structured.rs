//! The spectrum of a structured histogram, without arrays: the distinct transformed values
//! `Ĥ_j` and how many slots `j` have each, for values of any number of bits.
//!
//! # Derivation
//!
//! Write `T_m(j) = Σ_{0 <= v < m} (−1)^{⟨v, j⟩}` (`⟨v, j⟩ = popcount(v & j)`) for the transform of
//! the indicator of `[0, m)` over `F = 2^d` slots, `0 <= m <= F`. Split `[0, m)` into dyadic
//! blocks, one per set bit `i` of `m`: `[P_i, P_i + 2^i)` with `P_i` the bits of `m` above `i`.
//! A block transforms to `2^i · (−1)^{⟨P_i, j⟩}` when the low `i` bits of `j` are zero, and to 0
//! otherwise (its characters cancel in pairs). So `T_m(0) = m`, and for `j ≠ 0` with `t`
//! trailing zeros (only the blocks `i <= t` survive; for `i < t`, `⟨P_i, j⟩ = ⟨m, j⟩` because `j`
//! has no bits below `t`; for `i = t` the parity loses bit `t` of `m`, which `j` has):
//!
//! `T_m(j) = (−1)^{⟨m, j⟩} · ((m mod 2^t) − b_t · 2^t)`, `b_t` = bit `t` of `m`.
//!
//! With `j = 2^t · (2u + 1)`, `⟨m, j⟩ = b_t ⊕ ⟨M, u⟩` for `M = m >> (t + 1)`, hence
//! `T_m(j) = c_t(m) · (−1)^{⟨M, u⟩}` with `c_t(m) = m mod 2^t` when `b_t = 0` and
//! `2^t − (m mod 2^t)` when `b_t = 1`.
//!
//! A histogram of weighted intervals is `h = Σ_k w_k · 1[v < m_k]` (an interval `[a, b]` of
//! weight `c` is `+c` at `m = b + 1` and `−c` at `m = a`), so on level `t` (the `2^(d−t−1)` slots
//! `j` with `t` trailing zeros)
//!
//! `Ĥ_j = Σ_k w_k · c_t(m_k) · (−1)^{p_k}`, with `p_k = ⟨M_k, u⟩`.
//!
//! The parity vector `p = (⟨M_k, u⟩)_k` ranges over the image of a linear map `GF(2)^(d−t−1) →
//! GF(2)^r`: the subspace `V_t` of the patterns orthogonal to every relation `Σ_{k∈S} M_k = 0`,
//! and each pattern of `V_t` is taken by exactly `2^(d−t−1−dim V_t)` slots. A relation holds on
//! level `t` exactly when the XOR of the `m_k` over `S` has no bit above `t`. Reduce the `m_k`
//! to echelon form by their highest bits (pivots `h_i`, each basis vector a known XOR `S_i` of
//! endpoints): every XOR of endpoints has its highest bit at a pivot, so the relations on level
//! `t` are spanned by the dependencies of the `m_k` themselves and the `S_i` with `h_i <= t`, and
//! `dim V_t = #{i : h_i > t}`.
//!
//! Nothing changes from one level to the next unless `t` is a pivot (a relation appears) or bit
//! `t` of some `m_k` differs from bit `t − 1` (`c_t(m)` is constant along a run of equal bits:
//! with both bits 0 it is `m mod 2^t` on both levels, with both 1 it is `2^t − (m mod 2^t)` on
//! both). So the levels fall into runs; on a run `[t_s, t_e)` each pattern of `V` gives one value,
//! taken by `Σ_{t_s <= t < t_e} 2^(d−t−1−dim V)` slots, a contiguous range of powers of two. The
//! work is `O(E · 2^dim · r)` operations on `d`-bit numbers for `E` runs, never `O(F)`.
//!
//! A progression `{ρ + 2^e · q : q ∈ [a, b]}` (`ρ < 2^e`) is a character on the low `e` bits of
//! `j` times an interval on the others: with `j = 2^e · j_high + j_low`,
//! `⟨ρ + 2^e q, j⟩ = ⟨ρ, j_low⟩ + ⟨q, j_high⟩`. So for each of the `2^e` values of `j_low`, the
//! slots `j_high` see the interval histogram over `q` with weights `w · (−1)^{⟨ρ, j_low⟩}`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::Hash;
use std::ops::{AddAssign, Mul, Neg, SubAssign};

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};

use super::MAX_STEPS;
use crate::error::{Error, Estimate, Result};
use crate::histogram::Histogram;

/// The word operations a structured spectrum may take under the default limit of a query (a
/// few seconds on one core; [`MAX_STEPS`] steps of [`Query::max_work`](super::Query::max_work));
/// beyond the query's limit, the array is used when it fits, and the query is refused otherwise.
pub(crate) const MAX_WORK: u128 = 1 << 33;

/// `words` word operations in steps of [`Query::max_work`](super::Query::max_work), rounded
/// up: [`MAX_WORK`] words are [`MAX_STEPS`] steps (saturating).
pub fn steps_of(words: u128) -> u128 {
    words.saturating_mul(MAX_STEPS).div_ceil(MAX_WORK)
}

/// The most endpoints one system may have (patterns are masks of a word).
const MAX_ENDPOINTS: usize = 48;

/// The most bits of the character part `2^shift` handled without arrays.
const MAX_SHIFT: u32 = 16;

/// The distinct transformed values of a structured histogram and their multiplicities.
#[derive(Debug, Clone)]
pub struct StructuredSpectrum {
    /// The distinct values `Ĥ`.
    pub values: Vec<BigInt>,
    /// How many slots have each value (up to `F = 2^d`).
    pub multiplicity: Vec<BigUint>,
    /// The class of slot 0, whose value is the number of heap sizes `N`.
    pub zero_class: usize,
}

impl StructuredSpectrum {
    /// The spectrum of a structured histogram; [`Error::TooMuchWork`] beyond `limit` steps (the
    /// query's [`max_work`](super::Query::max_work)).
    pub fn new(histogram: &Histogram, limit: u128) -> Result<Self> {
        let steps = estimate(histogram).map_or(u128::MAX, steps_of);
        if steps > limit {
            return Err(Error::TooMuchWork { what: WHAT, steps: Estimate(Some(steps)), limit });
        }
        // Every value is a signed sum of the endpoints' c_t(m) <= 2^d times their weights: words
        // when that bound stays below 2^126.
        let (shift, progressions) = histogram.progressions().expect("a structured histogram");
        let d = histogram.log2_len() - shift;
        let weights: BigUint = progressions.iter().map(|p| &p.weight).sum();
        let bound = weights.bits() + u64::from(d) + 2 * (progressions.len() as u64 + 1).ilog2() as u64 + 4;
        let (values, ranges) = if bound <= 126 {
            let (values, ranges) = classes::<i128>(histogram);
            (values.into_iter().map(BigInt::from).collect(), ranges)
        } else {
            classes::<BigInt>(histogram)
        };
        let n = BigInt::from(histogram.total().clone());
        let zero_class = values.iter().position(|v| *v == n).expect("slot 0 has the value N");
        let multiplicity = ranges.iter().map(|r| sum_of_powers(r)).collect();
        Ok(StructuredSpectrum { values, multiplicity, zero_class })
    }

    /// The number of classes.
    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }
}

/// The distinct values of a structured histogram's transform, each with the exponent ranges of
/// its multiplicity, computed in `N`.
fn classes<N: Number>(histogram: &Histogram) -> (Vec<N>, Vec<Vec<(u32, u32)>>) {
    let (shift, progressions) = histogram.progressions().expect("a structured histogram");
    let d = histogram.log2_len() - shift;
    let top = BigUint::one() << d;
    let mut sink = Sink::default();
    for j_low in 0..1u64 << shift {
        // The steps m → w of Σ w · 1[v < m] over q, for the character of j_low.
        let mut steps: BTreeMap<BigUint, N> = BTreeMap::new();
        for p in progressions {
            let weight = N::from_big(&p.weight);
            let w = if (p.residue & j_low).count_ones() % 2 == 1 { -weight } else { weight };
            *steps.entry(&p.hi + 1u8).or_insert_with(N::zero) += &w;
            *steps.entry(p.lo.clone()).or_insert_with(N::zero) -= &w;
        }
        // Slot j_high = 0: Σ w · m; m = 0 and m = 2^d transform to 0 on every other slot.
        let mut zero = N::zero();
        let (mut ends, mut weights) = (Vec::new(), Vec::new());
        for (m, w) in steps {
            if w.is_zero() {
                continue;
            }
            zero += &(N::from_big(&m) * w.clone());
            if !m.is_zero() && m < top {
                ends.push(N::from_big(&m));
                weights.push(w);
            }
        }
        sink.add(zero, (0, 0));
        interval_classes(d, &ends, &weights, &mut sink);
    }
    sink.classes.into_iter().unzip()
}

/// An upper bound on the word operations of [`StructuredSpectrum::new`], `None` when the
/// histogram is not structured or its systems are too wide to enumerate.
pub fn estimate(histogram: &Histogram) -> Option<u128> {
    let (shift, progressions) = histogram.progressions()?;
    if shift > MAX_SHIFT {
        return None;
    }
    let d = histogram.log2_len() - shift;
    // Every system's endpoints are among these (weights may cancel, which only removes some).
    let ends: BTreeSet<BigUint> = progressions.iter().flat_map(|p| [p.lo.clone(), &p.hi + 1u8]).collect();
    let top = BigUint::one() << d;
    let ends: Vec<BigInt> = ends.into_iter().filter(|m| !m.is_zero() && *m < top).map(BigInt::from).collect();
    if ends.len() > MAX_ENDPOINTS {
        return None;
    }
    let weight_bits = progressions.iter().map(|p| p.weight.bits()).max().unwrap_or(0);
    let words = u128::from((u64::from(d) + weight_bits + 8) / 64 + 1);
    let r = ends.len() as u128;
    let system = Echelon::new(&ends);
    let mut work = r * r * words + 4 * r * words;
    for (start, _) in system.runs(&ends, d) {
        let dim = system.dimension(start);
        work = work.saturating_add((r + ((r + 2) << dim)) * words);
    }
    Some(work.saturating_mul(1 << shift))
}

const WHAT: &str = "the structured spectrum";

/// [`Error::TooMuchWork`] for a structured spectrum of `work` word operations (`u128::MAX`:
/// beyond any estimate), against the default limit.
pub(crate) fn too_much(work: u128) -> Error {
    let steps = (work != u128::MAX).then(|| steps_of(work));
    Error::TooMuchWork { what: WHAT, steps: Estimate(steps), limit: MAX_STEPS }
}

/// The integers a spectrum is computed in: `i128` when every value fits, else big integers.
/// Endpoints are non-negative.
pub trait Number:
    Clone
    + Eq
    + Hash
    + Zero
    + Neg<Output = Self>
    + Mul<Output = Self>
    + for<'a> AddAssign<&'a Self>
    + for<'a> SubAssign<&'a Self>
{
    fn from_big(x: &BigUint) -> Self;
    /// Bit `t`.
    fn bit(&self, t: u32) -> bool;
    /// The highest set bit, `None` for 0.
    fn top_bit(&self) -> Option<u32>;
    fn xor(&self, other: &Self) -> Self;
    /// `2^t`.
    fn power_of_two(t: u32) -> Self;
    /// `self mod 2^t`.
    fn low(&self, t: u32) -> Self;
    /// The bits `t` at which bit `t + 1` differs.
    fn changes(&self) -> Vec<u32>;
}

impl Number for i128 {
    fn from_big(x: &BigUint) -> Self {
        i128::try_from(x).expect("checked to fit")
    }
    fn bit(&self, t: u32) -> bool {
        t < 127 && self >> t & 1 == 1
    }
    fn top_bit(&self) -> Option<u32> {
        (*self != 0).then(|| 127 - self.leading_zeros())
    }
    fn xor(&self, other: &Self) -> Self {
        self ^ other
    }
    fn power_of_two(t: u32) -> Self {
        1 << t
    }
    fn low(&self, t: u32) -> Self {
        self & ((1 << t) - 1)
    }
    fn changes(&self) -> Vec<u32> {
        let mut x = self ^ (self >> 1);
        let mut out = Vec::new();
        while x != 0 {
            out.push(x.trailing_zeros());
            x &= x - 1;
        }
        out
    }
}

impl Number for BigInt {
    fn from_big(x: &BigUint) -> Self {
        BigInt::from(x.clone())
    }
    fn bit(&self, t: u32) -> bool {
        BigInt::bit(self, u64::from(t))
    }
    fn top_bit(&self) -> Option<u32> {
        self.bits().checked_sub(1).map(|t| t as u32)
    }
    fn xor(&self, other: &Self) -> Self {
        self ^ other
    }
    fn power_of_two(t: u32) -> Self {
        BigInt::one() << t
    }
    fn low(&self, t: u32) -> Self {
        self & ((BigInt::one() << t) - 1u8)
    }
    fn changes(&self) -> Vec<u32> {
        let changes = self ^ (self >> 1u8);
        let mut out = Vec::new();
        for (w, word) in changes.iter_u64_digits().enumerate() {
            let mut word = word;
            while word != 0 {
                out.push(64 * w as u32 + word.trailing_zeros());
                word &= word - 1;
            }
        }
        out
    }
}

/// The distinct values found so far, each with the ranges `(lo, hi)` of exponents `e` whose
/// `2^e` add up to its multiplicity.
pub struct Sink<N> {
    index: HashMap<N, usize>,
    pub classes: Vec<(N, Vec<(u32, u32)>)>,
}

impl<N> Default for Sink<N> {
    fn default() -> Self {
        Sink { index: HashMap::new(), classes: Vec::new() }
    }
}

impl<N: Number> Sink<N> {
    pub fn add(&mut self, value: N, exponents: (u32, u32)) {
        let next = self.classes.len();
        let i = *self.index.entry(value.clone()).or_insert(next);
        if i == next {
            self.classes.push((value, Vec::new()));
        }
        self.classes[i].1.push(exponents);
    }
}

/// `Σ 2^e` over the ranges `lo <= e <= hi`: `Σ (2^(hi+1) − 2^lo)`.
fn sum_of_powers(ranges: &[(u32, u32)]) -> BigUint {
    let mut plus = BigUint::zero();
    let mut minus = BigUint::zero();
    for &(lo, hi) in ranges {
        plus += BigUint::one() << (hi + 1);
        minus += BigUint::one() << lo;
    }
    plus - minus
}

/// The endpoints `m_k` in echelon form by their highest bits.
struct Echelon {
    /// `(pivot, mask of the endpoints whose XOR has that highest bit)`: distinct pivots.
    basis: Vec<(u32, u64)>,
    /// Masks of endpoints whose XOR is 0.
    kernel: Vec<u64>,
}

impl Echelon {
    fn new<N: Number>(ends: &[N]) -> Echelon {
        let mut vectors: Vec<(u32, N, u64)> = Vec::new(); // (pivot, vector, mask)
        let mut kernel = Vec::new();
        for (k, m) in ends.iter().enumerate() {
            let (mut x, mut mask) = (m.clone(), 1u64 << k);
            while let Some(top) = x.top_bit() {
                match vectors.iter().find(|(pivot, _, _)| *pivot == top) {
                    Some((_, v, s)) => {
                        x = x.xor(v);
                        mask ^= s;
                    }
                    None => break,
                }
            }
            match x.top_bit() {
                Some(top) => vectors.push((top, x, mask)),
                None => kernel.push(mask),
            }
        }
        Echelon { basis: vectors.into_iter().map(|(pivot, _, mask)| (pivot, mask)).collect(), kernel }
    }

    /// `dim V_t`: the pivots above `t`.
    fn dimension(&self, t: u32) -> u32 {
        self.basis.iter().filter(|&&(pivot, _)| pivot > t).count() as u32
    }

    /// The relations among the `M_k = m_k >> (t + 1)`.
    fn relations(&self, t: u32) -> impl Iterator<Item = u64> + '_ {
        let above = self.basis.iter().filter(move |&&(pivot, _)| pivot <= t).map(|&(_, mask)| mask);
        self.kernel.iter().copied().chain(above)
    }

    /// The runs `[start, end)` of levels `0..d` on which nothing changes: they start at 0, at each
    /// pivot, and after each place where two neighbouring bits of an endpoint differ.
    fn runs<N: Number>(&self, ends: &[N], d: u32) -> Vec<(u32, u32)> {
        let mut starts = vec![0u32];
        starts.extend(self.basis.iter().map(|&(pivot, _)| pivot));
        for m in ends {
            // Bits t and t + 1 of m differ: level t + 1 starts a run.
            starts.extend(m.changes().into_iter().map(|t| t + 1));
        }
        starts.retain(|&t| t < d);
        starts.sort_unstable();
        starts.dedup();
        starts.iter().zip(starts.iter().skip(1).copied().chain([d])).map(|(&s, e)| (s, e)).collect()
    }
}

/// A basis of the patterns `p ∈ GF(2)^r` orthogonal to every relation (masks of `r <= 64`
/// bits), into `basis`.
pub fn orthogonal(relations: impl Iterator<Item = u64>, r: usize, basis: &mut Vec<u64>) {
    // Reduced row echelon form of the relations, pivot columns from the lowest bit.
    let mut rows = [(0u32, 0u64); 64];
    let mut len = 0;
    let mut pivots = 0u64;
    for relation in relations {
        let mut x = relation;
        for &(column, row) in &rows[..len] {
            if x >> column & 1 == 1 {
                x ^= row;
            }
        }
        if x == 0 {
            continue;
        }
        let column = x.trailing_zeros();
        for (_, row) in &mut rows[..len] {
            if *row >> column & 1 == 1 {
                *row ^= x;
            }
        }
        rows[len] = (column, x);
        len += 1;
        pivots |= 1 << column;
    }
    // Row i says p[column_i] = Σ_{free f} row_i[f] · p[f]: one basis pattern per free column.
    basis.clear();
    for f in (0..r).filter(|&f| pivots >> f & 1 == 0) {
        let mut p = 1u64 << f;
        for &(column, row) in &rows[..len] {
            if row >> f & 1 == 1 {
                p |= 1 << column;
            }
        }
        basis.push(p);
    }
}

/// Adds to `sink` the classes of the slots `j ≠ 0` of the transform over `2^d` slots of
/// `Σ_k w_k · 1[v < m_k]` (distinct endpoints `0 < m_k < 2^d`, non-zero weights).
pub fn interval_classes<N: Number>(d: u32, ends: &[N], weights: &[N], sink: &mut Sink<N>) {
    let echelon = Echelon::new(ends);
    let (mut c, mut basis) = (Vec::with_capacity(ends.len()), Vec::new());
    for (start, end) in echelon.runs(ends, d) {
        let low = N::power_of_two(start);
        // c_k = w_k · c_t(m_k) on this run: m mod 2^t, or 2^t − (m mod 2^t) when bit t is set.
        c.clear();
        c.extend(ends.iter().zip(weights).map(|(m, w)| {
            let below = m.low(start);
            let magnitude = if m.bit(start) {
                let mut x = low.clone();
                x -= &below;
                x
            } else {
                below
            };
            magnitude * w.clone()
        }));
        orthogonal(echelon.relations(start), ends.len(), &mut basis);
        let dim = basis.len() as u32;
        debug_assert_eq!(dim, echelon.dimension(start), "dim V_t = #{{pivots above t}}");
        // Each level t of the run: 2^(d − t − 1 − dim) slots per pattern.
        let exponents = (d - end - dim, d - start - 1 - dim);
        for choice in 0..1u64 << dim {
            let p = basis.iter().enumerate().filter(|(i, _)| choice >> i & 1 == 1).fold(0, |p, (_, b)| p ^ b);
            let mut value = N::zero();
            for (k, ck) in c.iter().enumerate() {
                if p >> k & 1 == 1 {
                    value -= ck;
                } else {
                    value += ck;
                }
            }
            sink.add(value, exponents);
        }
    }
}
