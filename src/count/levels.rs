//! The spectrum of an interval histogram with many endpoints, level by level: the distinct
//! transformed values `Ĥ_j` and their multiplicities as distributions of signed subset sums,
//! for word-sized values (take at most half over `1..=10^12` has one interval per bit of the
//! largest heap, too many endpoints for the pattern enumeration of the structured spectrum).
//!
//! # Derivation
//!
//! Write the histogram as `h = Σ_k w_k · 1[y < m_k]` over `F = 2^d` slots (an interval `[a, b]`
//! of weight `c` is `+c` at `m = b + 1` and `−c` at `m = a`). The transform of the prefix
//! indicator `1[y < m]` at slot `s ≠ 0` with `v` trailing zeros is (see the structured spectrum)
//!
//! `T_m(s) = χ_s(m) · ((m mod 2^v) − b_v(m) · 2^v)`, `χ_s(m) = (−1)^{popcount(m & s)}`,
//!
//! `b_v(m)` bit `v` of `m`, and `T_m(0) = m`. With `s = 2^v · (2u + 1)`, `χ_s(m) = (−1)^{b_v(m)} ·
//! χ_u(M)` for `M = m >> (v + 1)`, so `T_m(s) = g_v(m) · χ_u(M)` with the level weight
//! `g_v(m) = m mod 2^v` when `b_v(m) = 0` and `2^v − (m mod 2^v)` when `b_v(m) = 1`
//! ([`level_weight`]; `0 <= g_v(m) <= min(m, 2^v)`). On level `v` (the `2^n` slots with `v`
//! trailing zeros, `n = d − v − 1`, `u` over all `n`-bit words)
//!
//! `Ĥ = C + Σ_i a_i · χ_u(M_i)`,
//!
//! gathering the endpoints by their distinct `M_i ≠ 0` (`a_i = Σ_{M_k = M_i} w_k g_v(m_k)`) and
//! the constant `C` of the endpoints with `M_k = 0`. The map `u ↦ (⟨M_i, u⟩)_i` is linear over
//! GF(2), of rank `D`: its image is uniform, each pattern taken by `2^(n − D)` words `u`. Choose
//! a basis among the `M_i` (Gaussian elimination, largest first): the signs of the basis vectors
//! are independent uniform signs `σ_b`, and every other `M_i` is the XOR of a set `S_i` of basis
//! vectors, with sign `Π_{b ∈ S_i} σ_b`. The basis vectors in no `S_i` (free) add independent
//! `±a_b`: their distribution of sums is found by merging sorted lists, one weight at a time,
//! in at most `min(2^f, 2 Σ |a_b| + 1)` entries. The others (entangled) are enumerated, `2^e`
//! sign patterns, and each shifts the free distribution.
//!
//! # Reach
//!
//! The number of distinct sums is what it costs, and it grows: for take at most half over
//! `1..=H` the endpoints are `c_t = (H + 2^t) >> (t + 1)` (the number of heaps below `H` with
//! `t` trailing ones), independent on every level up to equal neighbours, so level `v` sums
//! about `log2(H) − v` signed weights below `2^v`: about `2^(b/2) · b` distinct values for `b`
//! bits of `H`. Counting them modulo a prime for huge `k` would count subset sums of arbitrary
//! weights modulo that prime, so no method polynomial in `b` is expected; the work is estimated
//! before anything is computed ([`estimate`]) and refused beyond the query's limit. Ranges
//! `lo..=hi` with an unrelated `lo` add the endpoints of `lo`, which are combinations of those
//! of `hi` (entangled): they reach less far.

use num_bigint::{BigInt, BigUint};
use num_traits::ToPrimitive;

use crate::error::{Error, Estimate, Result};
use crate::histogram::Histogram;
use crate::memory;

/// Word operations per entry of a sorted list merged or enumerated.
const WORK_PER_ENTRY: u128 = 4;

/// Values, weights and sums stay below `2^MAX_BITS` (words, with room for signs and carries).
const MAX_BITS: u32 = 62;

/// The most entangled basis vectors enumerated on one level.
const MAX_ENTANGLED: u32 = 40;

const WHAT: &str = "the structured spectrum (signed subset sums, level by level)";

/// The distinct transformed values of an interval histogram and their multiplicities.
#[derive(Debug, Clone)]
pub struct LevelSpectrum {
    /// The distinct values `Ĥ`, increasing.
    pub values: Vec<i64>,
    /// How many slots have each value.
    pub multiplicity: Vec<u64>,
    /// The class of slot 0, whose value is the number of heap sizes `N`.
    pub zero_class: usize,
}

/// The level weight `g_v(m)`: `T_m(s) = g_v(m) · χ_u(m >> (v + 1))` for `s = 2^v · (2u + 1)`.
pub fn level_weight(m: u64, v: u32) -> u64 {
    let low = m & ((1u64 << v) - 1);
    if m >> v & 1 == 1 { (1u64 << v) - low } else { low }
}

/// The endpoints `(m_k, w_k)` of `h = Σ_k w_k · 1[y < m_k]`, `0 < m_k < 2^d`, `w_k ≠ 0`, and
/// `N = Σ_k w_k m_k`; `None` unless the histogram is made of intervals (shift 0) whose every
/// partial sum `Σ |w_k| · m_k` stays below `2^MAX_BITS`, over at most `2^MAX_BITS` slots.
fn endpoints(histogram: &Histogram) -> Option<(Vec<(u64, i64)>, i64)> {
    let (shift, progressions) = histogram.progressions()?;
    let d = histogram.log2_len();
    if shift != 0 || d > MAX_BITS {
        return None;
    }
    let mut steps: Vec<(u64, i128)> = Vec::with_capacity(2 * progressions.len());
    for p in progressions {
        let w = i128::from(p.weight.to_u64().filter(|&w| w < 1 << MAX_BITS)?);
        steps.push(((&p.hi + 1u8).to_u64()?, w));
        steps.push((p.lo.to_u64()?, -w));
    }
    steps.sort_unstable();
    let (mut ends, mut bound, mut n) = (Vec::new(), 0i128, 0i128);
    for (i, &(m, _)) in steps.iter().enumerate() {
        if i > 0 && steps[i - 1].0 == m {
            continue;
        }
        let w: i128 = steps[i..].iter().take_while(|s| s.0 == m).map(|s| s.1).sum();
        // |w| < 2 · 2^62 · #progressions and m <= 2^62: every product fits in i128.
        bound += w.abs() * i128::from(m);
        n += w * i128::from(m);
        if bound >= 1 << MAX_BITS {
            return None;
        }
        if w != 0 && m != 0 && m < 1 << d {
            ends.push((m, w as i64));
        }
    }
    Some((ends, n as i64))
}

/// One level `v`: `Ĥ = constant + Σ_b ±free_b + (entangled part)` on `2^n` slots.
#[derive(Debug)]
pub struct Level {
    /// Bits of `u`: the level has `2^n` slots.
    n: u32,
    /// The rank `D` of the `M_i`.
    rank: u32,
    constant: i64,
    /// `|a_b|` of the free basis vectors, increasing.
    free: Vec<i64>,
    /// `a_b` of the entangled basis vectors.
    pub entangled: Vec<i64>,
    /// `(S_i as a mask over the entangled vectors, a_i)` of the other `M_i`.
    dependent: Vec<(u64, i64)>,
}

impl Level {
    fn new(ends: &[(u64, i64)], d: u32, v: u32) -> Level {
        // a_i by M_i, largest first (the constant at M = 0 last).
        let mut terms: Vec<(u64, i64)> =
            ends.iter().map(|&(m, w)| (m >> (v + 1), w * level_weight(m, v) as i64)).collect();
        terms.sort_unstable_by_key(|&(m, _)| std::cmp::Reverse(m));
        terms.dedup_by(|later, first| {
            let same = later.0 == first.0;
            if same {
                first.1 += later.1;
            }
            same
        });
        let mut constant = 0;
        // Echelon form by highest bits: pivot[bit] = (vector, mask over basis indices).
        let mut pivot: [(u64, u64); 64] = [(0, 0); 64];
        let mut basis: Vec<i64> = Vec::new();
        let mut dependent: Vec<(u64, i64)> = Vec::new();
        for (m, a) in terms {
            if m == 0 {
                constant += a;
                continue;
            }
            if a == 0 {
                continue;
            }
            let (mut x, mut mask) = (m, 0u64);
            while x != 0 {
                let top = 63 - x.leading_zeros();
                let (vector, combination) = pivot[top as usize];
                if vector == 0 {
                    break;
                }
                x ^= vector;
                mask ^= combination;
            }
            if x == 0 {
                // M = XOR of the basis vectors of `mask`.
                dependent.push((mask, a));
            } else {
                // x = M ⊕ (XOR of `mask`): in basis terms, `mask` plus M itself.
                pivot[(63 - x.leading_zeros()) as usize] = (x, mask ^ 1 << basis.len());
                basis.push(a);
            }
        }
        let tangled = dependent.iter().fold(0u64, |t, &(mask, _)| t | mask);
        let (mut free, mut entangled, mut position) = (Vec::new(), Vec::new(), [0u32; 64]);
        for (b, &a) in basis.iter().enumerate() {
            if tangled >> b & 1 == 1 {
                position[b] = entangled.len() as u32;
                entangled.push(a);
            } else {
                free.push(a.abs());
            }
        }
        free.sort_unstable();
        for (mask, _) in &mut dependent {
            let mut spread = 0u64;
            let mut rest = *mask;
            while rest != 0 {
                spread |= 1 << position[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
            *mask = spread;
        }
        Level { n: d - v - 1, rank: basis.len() as u32, constant, free, entangled, dependent }
    }

    /// `2 Σ |a| + 1`: the width of the range of the level's values.
    fn width(&self) -> u128 {
        let all = self.free.iter().chain(&self.entangled).chain(self.dependent.iter().map(|(_, a)| a));
        2 * all.map(|a| a.unsigned_abs() as u128).sum::<u128>() + 1
    }

    /// Upper bounds on the entries of the free distribution and of the level's values, and on
    /// the entries handled to compute them; `None` beyond [`MAX_ENTANGLED`].
    fn cost(&self) -> Option<(u128, u128, u128)> {
        let e = self.entangled.len() as u32;
        if e > MAX_ENTANGLED {
            return None;
        }
        let (mut size, mut reach, mut work) = (1u128, 0u128, 0u128);
        for (i, &a) in self.free.iter().enumerate() {
            reach += a as u128;
            size = (2 * reach + 1).min(1u128 << (i + 1).min(127));
            work += 2 * size;
        }
        let patterns = 1u128 << e;
        let runs = patterns * size;
        let values = runs.min(self.width());
        // Enumeration, sorting the offsets, and merging the shifted runs pairwise.
        work += patterns * (u128::from(e) + self.dependent.len() as u128 + 2);
        work += runs * (u128::from(e) + 1);
        Some((size, values, work))
    }

    /// The level's distinct values, increasing, each with the number of its slots.
    fn values(&self) -> Vec<(i64, u64)> {
        // The free signed sums: merge the list shifted down and up by each weight.
        let mut sums: Vec<(i64, u64)> = vec![(0, 1)];
        let mut next = Vec::new();
        for &a in &self.free {
            merge_shifted(&sums, -a, &sums, a, &mut next);
            std::mem::swap(&mut sums, &mut next);
        }
        // Every sign pattern of the entangled vectors: its offset, and how many patterns give it.
        let e = self.entangled.len();
        let mut offsets: Vec<i64> = (0..1u64 << e)
            .map(|pattern| {
                let sign = |negative: bool, a: i64| if negative { -a } else { a };
                let own: i64 =
                    self.entangled.iter().enumerate().map(|(i, &a)| sign(pattern >> i & 1 == 1, a)).sum();
                let others: i64 = self
                    .dependent
                    .iter()
                    .map(|&(mask, a)| sign((mask & pattern).count_ones() % 2 == 1, a))
                    .sum();
                own + others
            })
            .collect();
        offsets.sort_unstable();
        // Each pattern of the D basis signs is taken by 2^(n − D) slots.
        let per_pattern = 1u64 << (self.n - self.rank);
        let mut runs: Vec<Vec<(i64, u64)>> = Vec::new();
        for group in offsets.chunk_by(|a, b| a == b) {
            let (offset, count) = (self.constant + group[0], group.len() as u64 * per_pattern);
            runs.push(sums.iter().map(|&(s, c)| (s + offset, c * count)).collect());
        }
        merge_all(runs)
    }
}

/// The merge of the sorted lists `a` shifted by `x` and `b` shifted by `y` into `out`, counts of
/// equal values added.
fn merge_shifted(a: &[(i64, u64)], x: i64, b: &[(i64, u64)], y: i64, out: &mut Vec<(i64, u64)>) {
    out.clear();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let left = a.get(i).map(|&(s, c)| (s + x, c));
        let right = b.get(j).map(|&(s, c)| (s + y, c));
        let entry = match (left, right) {
            (Some(l), Some(r)) if l.0 == r.0 => {
                i += 1;
                j += 1;
                (l.0, l.1 + r.1)
            }
            (Some(l), Some(r)) if l.0 < r.0 => {
                i += 1;
                l
            }
            (Some(l), None) => {
                i += 1;
                l
            }
            (_, Some(r)) => {
                j += 1;
                r
            }
            (None, None) => unreachable!("one list has an entry left"),
        };
        out.push(entry);
    }
}

/// The merge of sorted lists, pairwise (each entry is merged `log2(lists)` times).
fn merge_all(mut lists: Vec<Vec<(i64, u64)>>) -> Vec<(i64, u64)> {
    while lists.len() > 1 {
        let mut merged = Vec::with_capacity(lists.len().div_ceil(2));
        let mut rest = lists.into_iter();
        while let Some(a) = rest.next() {
            match rest.next() {
                Some(b) => {
                    let mut out = Vec::with_capacity(a.len() + b.len());
                    merge_shifted(&a, 0, &b, 0, &mut out);
                    merged.push(out);
                }
                None => merged.push(a),
            }
        }
        lists = merged;
    }
    lists.pop().unwrap_or_default()
}

/// The levels `0..d` of an interval histogram, `N`, and the word operations and entries (at
/// most, at once) of computing its spectrum; `None` when [`endpoints`] refuses it or a level
/// has too many entangled vectors.
pub fn plan(histogram: &Histogram) -> Option<(Vec<Level>, i64, u128, u128)> {
    let (ends, n) = endpoints(histogram)?;
    let d = histogram.log2_len();
    let levels: Vec<Level> = (0..d).map(|v| Level::new(&ends, d, v)).collect();
    // Gaussian elimination: (endpoints)² words per level.
    let mut work = (ends.len() as u128 + 1).pow(2) * u128::from(d);
    let (mut values, mut peak) = (1u128, 0u128);
    for level in &levels {
        let (size, level_values, level_work) = level.cost()?;
        work = work.saturating_add(level_work);
        values = values.saturating_add(level_values);
        // The free sums twice, their shifted runs twice, and the levels kept so far.
        let runs = (1u128 << level.entangled.len()) * size;
        peak = peak.max(values.saturating_add(2 * size).saturating_add(2 * runs));
    }
    // The levels merged pairwise at the end, each entry log2(d + 1) + 1 times.
    work = work.saturating_add(values.saturating_mul(u128::from((d + 1).ilog2() + 1)));
    peak = peak.max(values.saturating_mul(2));
    Some((levels, n, work.saturating_mul(WORK_PER_ENTRY), peak))
}

/// An upper bound on the word operations of [`LevelSpectrum::new`], `None` when the histogram
/// is not made of word-sized intervals or some level has too many entangled vectors.
pub fn estimate(histogram: &Histogram) -> Option<u128> {
    plan(histogram).map(|(_, _, work, _)| work)
}

impl LevelSpectrum {
    /// The spectrum of an interval histogram; [`Error::TooMuchWork`] beyond `limit` steps (the
    /// query's [`max_work`](super::Query::max_work)), [`Error::OutOfMemory`] when its lists
    /// cannot fit.
    pub fn new(histogram: &Histogram, limit: u128) -> Result<Self> {
        let Some((levels, n, work, peak)) = plan(histogram) else {
            return Err(Error::TooMuchWork { what: WHAT, steps: Estimate(None), limit });
        };
        let steps = super::structured::steps_of(work);
        if steps > limit {
            return Err(Error::TooMuchWork { what: WHAT, steps: Estimate(Some(steps)), limit });
        }
        let bytes = memory::bytes_for::<(i64, u64)>(|| WHAT.into(), peak)?;
        memory::ensure_fits(|| WHAT.into(), bytes)?;
        let mut lists: Vec<Vec<(i64, u64)>> = vec![vec![(n, 1)]];
        lists.extend(levels.iter().map(Level::values));
        let (values, multiplicity): (Vec<i64>, Vec<u64>) = merge_all(lists).into_iter().unzip();
        let zero_class = values.binary_search(&n).expect("slot 0 has the value N");
        Ok(LevelSpectrum { values, multiplicity, zero_class })
    }

    /// The number of classes.
    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    /// The exact value of class `c`.
    pub(crate) fn value(&self, c: usize) -> BigInt {
        BigInt::from(self.values[c])
    }

    /// How many slots class `c` has.
    pub(crate) fn multiplicity(&self, c: usize) -> BigUint {
        BigUint::from(self.multiplicity[c])
    }
}
