//! Histograms of Grundy values: how many heap sizes in a range have each Grundy value.
//!
//! Counts over ranges such as `1..=10^13` are huge but structured: a periodic game's histogram
//! is `q · P + R`, with `q` the (big) number of whole periods, `P` the counts of one period and
//! `R` what is left over. A [`Histogram`] keeps that shape, as a sum of terms `weight · counts`
//! with a big-integer weight and a vector of machine-word counts:
//!
//! `h[g] = Σ_i weight_i · counts_i[g]`.
//!
//! The transform is linear, so `ĥ = Σ_i weight_i · transform(counts_i)`: every transform runs on
//! machine words and the big weights only meet the few distinct transformed values.
//!
//! The counts of a periodic histogram are not even stored: its terms refer to stretches of the
//! game's Grundy values (one period for `P`; the preperiod part and the partial period for `R`),
//! and every consumer adds them up where it needs them, so building the histogram of a range of
//! any size takes no memory beyond the values themselves.
//!
//! ```
//! use nimcount::histogram::Histogram;
//! // Nim heaps of 0..=5 stones: Grundy value n for size n.
//! let h = Histogram::from_values(&[0, 1, 2, 3, 4, 5], 0, 5)?;
//! assert_eq!(h.transform_len(), 8);
//! assert_eq!(h.total().to_string(), "6");
//! assert_eq!(h.count(3).to_string(), "1");
//! # Ok::<(), nimcount::Error>(())
//! ```

use std::borrow::Cow;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

use crate::error::{Error, Result};
use crate::grundy::Certificate;
use crate::memory;

/// The largest transform the engine accepts, `2^40` slots, before even asking how much memory
/// there is (at 4 bytes a slot that is already 4 TiB).
pub const MAX_LOG2_LEN: u32 = 40;

/// One term `weight · counts` of a histogram.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    weight: BigUint,
    counts: Counts,
}

/// The counts of a term.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Counts {
    /// `counts[g]` for every value `g` below the histogram's transform length.
    Dense(Vec<u32>),
    /// Every entry of `values[range]`, for each range, counts once (values may repeat).
    Values { values: Arc<Vec<u32>>, ranges: Vec<Range<usize>> },
}

impl Term {
    /// The term `weight · counts`, with `counts[g]` the count of Grundy value `g`.
    pub fn new(weight: BigUint, counts: Vec<u32>) -> Self {
        Term { weight, counts: Counts::Dense(counts) }
    }

    /// The multiplier of the whole vector.
    pub fn weight(&self) -> &BigUint {
        &self.weight
    }

    /// `counts[g]` for every value `g` up to the largest with a non-zero count (counts beyond
    /// the vector are 0).
    pub fn counts(&self) -> Cow<'_, [u32]> {
        match &self.counts {
            Counts::Dense(counts) => Cow::Borrowed(counts),
            Counts::Values { .. } => {
                let mut counts = vec![0u32; self.max_value().map_or(0, |v| v + 1)];
                self.for_each(|g, c| counts[g] += c);
                Cow::Owned(counts)
            }
        }
    }

    /// Calls `f(value, count)` for the non-zero counts (a value may come more than once: the
    /// counts then add up).
    pub(crate) fn for_each(&self, mut f: impl FnMut(usize, u32)) {
        match &self.counts {
            Counts::Dense(counts) => {
                for (g, &c) in counts.iter().enumerate() {
                    if c != 0 {
                        f(g, c);
                    }
                }
            }
            Counts::Values { values, ranges } => {
                for range in ranges {
                    for &g in &values[range.clone()] {
                        f(g as usize, 1);
                    }
                }
            }
        }
    }

    /// `Σ_g counts[g]`.
    pub(crate) fn sum(&self) -> u128 {
        match &self.counts {
            Counts::Dense(counts) => sum_counts(counts),
            Counts::Values { ranges, .. } => ranges.iter().map(|r| r.len() as u128).sum(),
        }
    }

    /// The largest value with a non-zero count.
    fn max_value(&self) -> Option<usize> {
        match &self.counts {
            Counts::Dense(counts) => counts.iter().rposition(|&c| c != 0),
            Counts::Values { values, ranges } => {
                ranges.iter().filter_map(|r| values[r.clone()].iter().max()).max().map(|&v| v as usize)
            }
        }
    }
}

/// How many heap sizes have each Grundy value, as `h[g] = Σ_i weight_i · counts_i[g]`.
///
/// The transform length is the smallest power of two above every value with a non-zero count
/// (at least 1): XOR sums of such values stay below it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Histogram {
    terms: Vec<Term>,
    log2_len: u32,
    total: BigUint,
}

impl Histogram {
    /// A histogram from `(value, count)` pairs; counts of repeated values add up, zero counts
    /// are allowed. The error is [`Error::OutOfMemory`] when the transform over the largest value
    /// could not fit.
    ///
    /// ```
    /// use nimcount::histogram::Histogram;
    /// use num_bigint::BigUint;
    /// let big: BigUint = "100000000000000000000000000".parse().unwrap();
    /// let h = Histogram::from_counts([(0, big.clone()), (5, 3u32.into())])?;
    /// assert_eq!(h.transform_len(), 8);
    /// assert_eq!(h.count(0), big);
    /// assert_eq!(*h.total(), big + 3u32);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn from_counts<I: IntoIterator<Item = (u64, BigUint)>>(pairs: I) -> Result<Self> {
        // Repeated values add up.
        let mut summed: std::collections::BTreeMap<u64, BigUint> = std::collections::BTreeMap::new();
        for (value, count) in pairs {
            if !count.is_zero() {
                *summed.entry(value).or_default() += count;
            }
        }
        let max_value = summed.keys().next_back().copied();
        let log2_len = log2_len_for(max_value)?;
        let limbs = summed.values().map(|c| c.iter_u32_digits().len()).max().unwrap_or(0);
        let len = 1usize << log2_len;
        reserve(limbs as u128 * len as u128, || format!("a histogram of {limbs} × 2^{log2_len} counts"))?;
        // A count of any size is Σ_i 2^(32 i) · limb_i: term i gathers the i-th limbs.
        let mut limb_counts = vec![vec![0u32; len]; limbs];
        for (value, count) in &summed {
            for (counts, limb) in limb_counts.iter_mut().zip(count.iter_u32_digits()) {
                counts[*value as usize] = limb;
            }
        }
        let terms = limb_counts
            .into_iter()
            .enumerate()
            .map(|(i, counts)| Term::new(BigUint::one() << (32 * i), counts))
            .collect();
        Ok(Histogram::assemble(terms, log2_len))
    }

    /// The histogram of `values[n]` over the heap sizes `lo..=hi` (an empty histogram when
    /// `lo > hi`); `values` must cover `hi`.
    ///
    /// ```
    /// use nimcount::histogram::Histogram;
    /// let h = Histogram::from_values(&[0, 1, 0, 1, 2], 1, 4)?;
    /// assert_eq!((h.count(0), h.count(1), h.count(2)), (1u32.into(), 2u32.into(), 1u32.into()));
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn from_values(values: &[u32], lo: u64, hi: u64) -> Result<Self> {
        if lo > hi {
            return Histogram::from_counts([]);
        }
        let range = values.get(lo as usize..=hi as usize).ok_or_else(|| {
            Error::InvalidQuery(format!(
                "the Grundy values given cover heap sizes 0..{} but the range ends at {hi}",
                values.len()
            ))
        })?;
        let max_value = range.iter().copied().max().map(u64::from);
        let log2_len = log2_len_for(max_value)?;
        let terms = count_values(log2_len, range.len() as u64, [range])?;
        Ok(Histogram::assemble(terms, log2_len))
    }

    /// The histogram over the heap sizes `lo..=hi` of a game whose values follow a proven
    /// periodicity: `G(n + period) = G(n) + saltus` for `n >= preperiod`.
    ///
    /// `values` (`G(0)`, `G(1)`, …) must hold at least `preperiod + period` values. Without saltus
    /// the counts are `q · P + R` whatever the size of the range, and the histogram keeps the
    /// values instead of counting them; with a saltus the values grow along the range and the
    /// transform must reach past the largest one (an [`Error::OutOfMemory`] when it cannot).
    ///
    /// ```
    /// use nimcount::grundy::{Certificate, Theorem};
    /// use nimcount::histogram::Histogram;
    /// // Nim: G(n) = n, period 1 with saltus 1.
    /// let nim = Certificate { preperiod: 0, period: 1, saltus: 1, theorem: Theorem::Nim };
    /// let h = Histogram::from_period(vec![0], &nim, &3u32.into(), &6u32.into())?;
    /// assert_eq!(h.transform_len(), 8);
    /// assert_eq!(h.count(2), 0u32.into());
    /// assert_eq!(h.count(5), 1u32.into());
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn from_period(
        values: Vec<u32>,
        certificate: &Certificate,
        lo: &BigUint,
        hi: &BigUint,
    ) -> Result<Self> {
        let (n0, p, s) = (certificate.preperiod, certificate.period, certificate.saltus);
        let needed = n0.checked_add(p).filter(|&n| p >= 1 && n <= values.len() as u64).ok_or_else(|| {
            Error::InvalidQuery(format!(
                "a period certificate (preperiod {n0}, period {p}) needs {} values, {} given",
                u128::from(n0) + u128::from(p),
                values.len()
            ))
        })?;
        let _ = needed;
        if lo > hi {
            return Histogram::from_counts([]);
        }
        let end = hi + 1u32; // the range is lo..end
        let n0_big = BigUint::from(n0);
        // The preperiod part lo..min(end, n0), counted directly.
        let pre_end = end.clone().min(n0_big.clone()).to_u64().expect("below n0");
        let pre_lo = lo.to_u64().filter(|&l| l < pre_end);
        // The periodic part max(lo, n0)..end.
        let periodic_lo = lo.max(&n0_big).clone();
        let periodic = (periodic_lo < end).then(|| (&periodic_lo - &n0_big, &end - &n0_big));
        let pre = pre_lo.map(|l| l as usize..pre_end as usize);
        if s == 0 {
            periodic_histogram(values, n0 as usize..(n0 + p) as usize, pre, periodic)
        } else {
            let base = &values[n0 as usize..(n0 + p) as usize];
            saltus_histogram(&values, base, s, pre, periodic)
        }
    }

    /// Reads a histogram file: one `value count` pair a line, `#` starts a comment, blank lines
    /// are ignored. Values are Grundy values (non-negative integers); counts may have any size
    /// and use the notations of [`crate::number::parse`] (`10^12`, `2^64`, `1_000`).
    ///
    /// A line that does not parse, or a value given twice, is an [`Error::Malformed`] naming the
    /// line.
    pub fn read(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        Histogram::parse(&text, &path.display().to_string())
    }

    /// Parses the text of a histogram file (see [`read`](Self::read)); `path` names it in
    /// errors.
    ///
    /// ```
    /// use nimcount::histogram::Histogram;
    /// let h = Histogram::parse("# value count\n0 10^20\n3 7 # three\n\n", "example.txt")?;
    /// assert_eq!(h.count(3).to_string(), "7");
    /// let err = Histogram::parse("0 1\n0 2\n", "dup.txt").unwrap_err();
    /// assert_eq!(err.to_string(), "dup.txt, line 2: value 0 is already given on line 1");
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn parse(text: &str, path: &str) -> Result<Self> {
        let malformed =
            |line: usize, reason: String| Error::Malformed { path: path.to_string(), line, reason };
        let mut first_line = std::collections::HashMap::new();
        let mut pairs = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let fields: Vec<&str> = content.split_whitespace().collect();
            if fields.len() != 2 {
                return Err(malformed(
                    line,
                    format!("expected 'value count', found {} field(s): '{content}'", fields.len()),
                ));
            }
            let value = crate::number::parse_u64(fields[0])
                .map_err(|e| malformed(line, format!("bad Grundy value: {e}")))?;
            let count =
                crate::number::parse(fields[1]).map_err(|e| malformed(line, format!("bad count: {e}")))?;
            if let Some(previous) = first_line.insert(value, line) {
                return Err(malformed(line, format!("value {value} is already given on line {previous}")));
            }
            pairs.push((value, count));
        }
        Histogram::from_counts(pairs)
    }

    /// The histogram given by its terms `weight · counts` (vectors of any lengths; the transform
    /// length follows from the largest value with a non-zero count).
    pub fn from_terms(terms: Vec<Term>) -> Result<Self> {
        // The smallest power of two above the largest value with a non-zero count.
        let top =
            terms.iter().filter(|t| !t.weight.is_zero()).filter_map(Term::max_value).max().map(|v| v as u64);
        let log2_len = log2_len_for(top)?;
        let len = 1usize << log2_len;
        let terms = terms
            .into_iter()
            .map(|mut t| {
                if let Counts::Dense(counts) = &mut t.counts {
                    counts.resize(len, 0);
                }
                t
            })
            .collect();
        Ok(Histogram::assemble(terms, log2_len))
    }

    /// Drops empty terms and computes the total.
    fn assemble(terms: Vec<Term>, log2_len: u32) -> Self {
        let mut total = BigUint::zero();
        let mut kept = Vec::with_capacity(terms.len());
        for term in terms {
            let sum = term.sum();
            if sum != 0 && !term.weight.is_zero() {
                total += &term.weight * sum;
                kept.push(term);
            }
        }
        Histogram { terms: kept, log2_len, total }
    }

    /// The terms `weight · counts` whose sum is the histogram.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// The transform length `F`: the smallest power of two above every value with a non-zero
    /// count (1 when there is none).
    pub fn transform_len(&self) -> usize {
        1 << self.log2_len
    }

    /// `log2` of [`transform_len`](Self::transform_len).
    pub fn log2_len(&self) -> u32 {
        self.log2_len
    }

    /// The number of heap sizes counted, `N = Σ_g h[g]`.
    pub fn total(&self) -> &BigUint {
        &self.total
    }

    /// The count of Grundy value `value`.
    pub fn count(&self, value: u64) -> BigUint {
        let Some(index) = usize::try_from(value).ok().filter(|&v| v < self.transform_len()) else {
            return BigUint::zero();
        };
        let mut total = BigUint::zero();
        for term in &self.terms {
            let mut count = 0u64;
            term.for_each(|g, c| {
                if g == index {
                    count += u64::from(c);
                }
            });
            total += &term.weight * count;
        }
        total
    }

    /// The largest value with a non-zero count.
    pub fn max_value(&self) -> Option<u64> {
        self.terms.iter().filter_map(Term::max_value).max().map(|v| v as u64)
    }

    /// Every count modulo `m >= 1`, as a vector of transform length.
    pub fn residues(&self, m: u64) -> Vec<u64> {
        let mut out = vec![0u64; self.transform_len()];
        self.residues_into(m, &mut out);
        out
    }

    /// [`residues`](Self::residues) into `out`, which must hold transform-length zeros.
    pub fn residues_into(&self, m: u64, out: &mut [u64]) {
        assert_eq!(out.len(), self.transform_len());
        let reducer = Reducer::new(m);
        for term in &self.terms {
            let w = (&term.weight % m).to_u64().expect("below m");
            // w and the slot are below m < 2^64, c below 2^32: w · (c mod m) + slot is below
            // m^2 + m < 2^128.
            term.for_each(|g, c| {
                let product = u128::from(w) * u128::from(reducer.reduce(u64::from(c)));
                out[g] = reducer.reduce_wide(product + u128::from(out[g]));
            });
        }
    }

    /// Every count modulo `2^64` (wrapping arithmetic), as a vector of transform length.
    pub fn residues_wrapping(&self) -> Vec<u64> {
        let mut out = vec![0u64; self.transform_len()];
        self.residues_wrapping_into(&mut out);
        out
    }

    /// [`residues_wrapping`](Self::residues_wrapping) into `out`, which must hold
    /// transform-length zeros.
    pub fn residues_wrapping_into(&self, out: &mut [u64]) {
        assert_eq!(out.len(), self.transform_len());
        for term in &self.terms {
            let w = term.weight.iter_u64_digits().next().unwrap_or(0);
            term.for_each(|g, c| out[g] = out[g].wrapping_add(w.wrapping_mul(u64::from(c))));
        }
    }

    /// Every count modulo an `m < 2^32` (`m >= 1`), as 32-bit residues.
    pub fn residues_u32(&self, m: u32) -> Vec<u32> {
        let mut out = vec![0u32; self.transform_len()];
        self.residues_u32_into(m, &mut out);
        out
    }

    /// [`residues_u32`](Self::residues_u32) into `out`, which must hold transform-length zeros.
    pub fn residues_u32_into(&self, m: u32, out: &mut [u32]) {
        assert_eq!(out.len(), self.transform_len());
        if m >= 1 << 31 {
            // Sums of two residues may pass 2^32: go through words.
            for (slot, r) in out.iter_mut().zip(self.residues(u64::from(m))) {
                *slot = r as u32;
            }
            return;
        }
        for (index, term) in self.terms.iter().enumerate() {
            let w = (&term.weight % m).to_u32().expect("below m");
            let shoup = Shoup::new(w, m);
            // Residues below m < 2^31 add below 2^32; `min(s, s − m)` reduces (see Shoup::mul).
            let add = |a: u32, b: u32| {
                let s = a + b;
                s.min(s.wrapping_sub(m))
            };
            match (&term.counts, index) {
                // The first dense term fills every slot: branch-free and in parallel.
                (Counts::Dense(counts), 0) => fill(out, counts, |_, c| shoup.mul(c, m)),
                (Counts::Dense(counts), _) => fill(out, counts, |x, c| add(x, shoup.mul(c, m))),
                // Stretches of values: each adds w to its slot.
                (Counts::Values { .. }, _) => term.for_each(|g, _| out[g] = add(out[g], w)),
            }
        }
    }
}

/// `out[g] = f(out[g], counts[g])` for every slot, on the thread pool for long vectors.
fn fill(out: &mut [u32], counts: &[u32], f: impl Fn(u32, u32) -> u32 + Sync) {
    use rayon::prelude::*;
    let block = 1 << 16;
    let run = |(out, counts): (&mut [u32], &[u32])| {
        for (x, &c) in out.iter_mut().zip(counts) {
            *x = f(*x, c);
        }
    };
    if out.len() > block {
        out.par_chunks_mut(block).zip(counts.par_chunks(block)).for_each(run);
    } else {
        run((out, counts));
    }
}

/// Multiplication by a fixed `w < m` modulo `m < 2^31` with Shoup's quotient `⌊w · 2^32 / m⌋`.
#[derive(Clone, Copy, Debug)]
struct Shoup {
    w: u32,
    quotient: u32,
}

impl Shoup {
    fn new(w: u32, m: u32) -> Self {
        Shoup { w, quotient: ((u64::from(w) << 32) / u64::from(m)) as u32 }
    }

    /// `x · w mod m` for any `x < 2^32`: the estimated quotient is at most one short, so
    /// `x·w − q·m` lies in `0..2m` (below 2^32, exact in wrapping arithmetic) and one
    /// conditional subtraction — `min(r, r − m)`, as `r − m` wraps above `r` when `r < m` —
    /// finishes.
    #[inline]
    fn mul(&self, x: u32, m: u32) -> u32 {
        let q = ((u64::from(x) * u64::from(self.quotient)) >> 32) as u32;
        let r = x.wrapping_mul(self.w).wrapping_sub(q.wrapping_mul(m));
        r.min(r.wrapping_sub(m))
    }
}

/// Barrett reduction modulo a fixed `m >= 1`.
///
/// With `mu = ⌊2^64 / m⌋` (or `2^64 - 1` for `m = 1`), `q = ⌊x · mu / 2^64⌋` is at most one short
/// of `⌊x / m⌋` for `x < 2^64`, so `x - q·m` lies in `0..2m` and one subtraction finishes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reducer {
    m: u64,
    mu: u64,
}

impl Reducer {
    pub(crate) fn new(m: u64) -> Self {
        assert!(m >= 1, "modulus 0");
        let mu = if m == 1 { u64::MAX } else { ((1u128 << 64) / u128::from(m)) as u64 };
        Reducer { m, mu }
    }

    /// `x mod m`.
    #[inline]
    pub(crate) fn reduce(&self, x: u64) -> u64 {
        let q = ((u128::from(x) * u128::from(self.mu)) >> 64) as u64;
        if self.m <= 1 << 63 {
            // x - q·m < 2m <= 2^64: exact in wrapping word arithmetic.
            let r = x.wrapping_sub(q.wrapping_mul(self.m));
            if r >= self.m { r - self.m } else { r }
        } else {
            // x - q·m < 2m may exceed 2^64 - 1: compare in u128.
            let r = u128::from(x) - u128::from(q) * u128::from(self.m);
            (if r >= u128::from(self.m) { r - u128::from(self.m) } else { r }) as u64
        }
    }

    /// `x mod m` for any `x < 2^128`.
    #[inline]
    pub(crate) fn reduce_wide(&self, x: u128) -> u64 {
        if x >> 64 == 0 { self.reduce(x as u64) } else { (x % u128::from(self.m)) as u64 }
    }
}

/// `Σ counts` exactly: blocks of 2^24 counts below 2^32 sum to less than 2^56 in a word.
pub(crate) fn sum_counts(counts: &[u32]) -> u128 {
    counts.chunks(1 << 24).map(|block| u128::from(block.iter().map(|&c| u64::from(c)).sum::<u64>())).sum()
}

/// The counts of the values in `groups` (each below `2^log2_len`) as 32-bit terms of weight 1;
/// `bound` bounds every count (counted in words and split in halves when it exceeds 32 bits).
fn count_values<'a>(
    log2_len: u32,
    bound: u64,
    groups: impl IntoIterator<Item = &'a [u32]>,
) -> Result<Vec<Term>> {
    let len = 1usize << log2_len;
    if bound <= u64::from(u32::MAX) {
        reserve(len as u128 / 2, || format!("a histogram of 2^{log2_len} counts"))?;
        let mut counts = vec![0u32; len];
        for group in groups {
            for &g in group {
                counts[g as usize] += 1;
            }
        }
        return Ok(vec![Term::new(BigUint::one(), counts)]);
    }
    reserve(2 * len as u128, || format!("a histogram of 2^{log2_len} counts"))?;
    let mut counts = vec![0u64; len];
    for group in groups {
        for &g in group {
            counts[g as usize] += 1;
        }
    }
    Ok(split_counts(BigUint::one(), counts))
}

/// `weight · counts` as terms of 32-bit counts: the low halves, and the high halves with weight
/// `2^32 · weight` when some count needs them.
fn split_counts(weight: BigUint, counts: Vec<u64>) -> Vec<Term> {
    let low = counts.iter().map(|&c| c as u32).collect();
    let mut terms = vec![Term::new(weight.clone(), low)];
    if counts.iter().any(|&c| c >> 32 != 0) {
        terms.push(Term::new(weight << 32, counts.iter().map(|&c| (c >> 32) as u32).collect()));
    }
    terms
}

/// `log2` of the transform length for the largest value `max_value` (none: length 1).
pub(crate) fn log2_len_for(max_value: Option<u64>) -> Result<u32> {
    let Some(v) = max_value else { return Ok(0) };
    let log2 = u64::BITS - v.leading_zeros();
    if log2 > MAX_LOG2_LEN {
        let needed = (1u128 << log2).saturating_mul(4);
        return Err(Error::OutOfMemory {
            what: format!("a transform over Grundy values up to {v} (2^{log2} slots)"),
            needed: crate::error::Bytes(u64::try_from(needed).unwrap_or(u64::MAX)),
            available: crate::error::Bytes(memory::available().unwrap_or(0)),
        });
    }
    Ok(log2)
}

/// Refuses `words` 64-bit words for `what` when they cannot fit.
fn reserve(words: u128, what: impl Fn() -> String) -> Result<()> {
    let bytes = memory::bytes_for::<u64>(&what, words)?;
    memory::ensure_fits(what, bytes)
}

/// Splits the periodic part `start..end` (positions counted from the preperiod) into whole
/// periods and the rest: `(q, r, rem)` with `q` whole periods, then `rem` positions from the
/// offset `r` within the period (wrapping around).
fn whole_periods(start: &BigUint, end: &BigUint, p: u64) -> (BigUint, u64, u64) {
    let length = end - start;
    let (q, rem) = length.div_rem(&BigUint::from(p));
    let r = (start % p).to_u64().expect("below p");
    (q, r, rem.to_u64().expect("below p"))
}

/// `q · P + R` for an ordinary period (saltus 0), as stretches of `values`: `P` is one period,
/// `R` the preperiod part `pre` and the partial period (`rem` values from offset `r`, wrapping).
fn periodic_histogram(
    values: Vec<u32>,
    base: Range<usize>,
    pre: Option<Range<usize>>,
    periodic: Option<(BigUint, BigUint)>,
) -> Result<Histogram> {
    let p = base.len() as u64;
    let (q, r, rem) = match &periodic {
        Some((start, end)) => whole_periods(start, end, p),
        None => (BigUint::zero(), 0, 0),
    };
    let (r, rem) = (r as usize, rem as usize);
    let first = base.start + r..base.start + (r + rem).min(base.len());
    let wrapped = base.start..base.start + (r + rem).saturating_sub(base.len());
    let rest: Vec<Range<usize>> = pre.into_iter().chain([first, wrapped]).filter(|r| !r.is_empty()).collect();
    let period: Vec<Range<usize>> = if q.is_zero() { Vec::new() } else { vec![base] };
    let values = Arc::new(values);
    let max_value = rest.iter().chain(&period).filter_map(|r| values[r.clone()].iter().max()).max();
    let log2_len = log2_len_for(max_value.map(|&v| u64::from(v)))?;
    let terms = vec![
        Term { weight: BigUint::one(), counts: Counts::Values { values: values.clone(), ranges: rest } },
        Term { weight: q, counts: Counts::Values { values, ranges: period } },
    ];
    Ok(Histogram::assemble(terms, log2_len))
}

/// Counts for an arithmetic periodicity `G(n0 + j·p + r) = base[r] + j·s` (`s >= 1`).
///
/// For offset `r`, the blocks `j` whose position lies in the range form an interval
/// `jl(r)..=jh(r)`, so offset `r` adds one to each value `base[r] + j·s` of an arithmetic
/// progression: a difference array with stride `s` takes each progression in O(1), and one
/// strided prefix sum finishes (O(p + F) in all).
fn saltus_histogram(
    values: &[u32],
    base: &[u32],
    s: u64,
    pre: Option<Range<usize>>,
    periodic: Option<(BigUint, BigUint)>,
) -> Result<Histogram> {
    let p = base.len() as u64;
    let pre_values = pre.map_or(&[][..], |r| &values[r]);
    // Positions start..end (from the preperiod) = blocks: x = start, y = end - 1.
    let blocks = periodic.map(|(start, end)| {
        let y = &end - 1u32;
        let (qx, rx) = start.div_rem(&BigUint::from(p));
        let (qy, ry) = y.div_rem(&BigUint::from(p));
        (qx, rx.to_u64().expect("below p"), qy, ry.to_u64().expect("below p"))
    });
    // The largest value: over the offsets, base[r] + jh(r)·s; jh(r) is qy or qy - 1.
    let mut max_value = pre_values.iter().copied().max().map(u64::from);
    let mut ranges: Vec<(u64, u64, u64)> = Vec::new(); // (first value, last value, offset) per offset
    if let Some((qx, rx, qy, ry)) = &blocks {
        let too_large = |top: BigUint| {
            let log2 = top.bits();
            Error::OutOfMemory {
                what: format!(
                    "a transform over Grundy values up to {top} (2^{log2} slots; the values grow by {s} every {p} \
                     heap sizes)"
                ),
                needed: crate::error::Bytes(1u64.checked_shl(log2 as u32 + 2).unwrap_or(u64::MAX)),
                available: crate::error::Bytes(memory::available().unwrap_or(0)),
            }
        };
        for (r, &v) in base.iter().enumerate() {
            let r = r as u64;
            // jl = ceil((x - r)/p) clamped at 0, jh = floor((y - r)/p) (none when y < r).
            let jl = qx + u32::from(r < *rx);
            let jh = if r <= *ry {
                qy.clone()
            } else if qy.is_zero() {
                continue;
            } else {
                qy - 1u32
            };
            if jl > jh {
                continue;
            }
            let last = BigUint::from(v) + &jh * s;
            let last =
                last.to_u64().filter(|&l| l >> MAX_LOG2_LEN == 0).ok_or_else(|| too_large(last.clone()))?;
            let first = u64::from(v) + (jl.to_u64().expect("jl <= jh")) * s;
            max_value = max_value.max(Some(last));
            ranges.push((first, last, r));
        }
    }
    let log2_len = log2_len_for(max_value)?;
    let len = 1usize << log2_len;
    reserve(2 * len as u128, || format!("a histogram of 2^{log2_len} counts"))?;
    // diff[g] - diff[g - s] accumulates the progressions; an entry past the end is dropped.
    let mut diff = vec![0i64; len];
    for &(first, last, _) in &ranges {
        diff[first as usize] += 1;
        if let Some(slot) = diff.get_mut((last + s) as usize) {
            *slot -= 1;
        }
    }
    let s = s as usize;
    for g in s..len {
        diff[g] += diff[g - s];
    }
    // Each value is reached at most once per offset, so every count lies in 0..=p.
    let mut counts: Vec<u64> = diff.into_iter().map(|c| c as u64).collect();
    for &g in pre_values {
        counts[g as usize] += 1;
    }
    Ok(Histogram::assemble(split_counts(BigUint::one(), counts), log2_len))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grundy::Theorem;

    fn certificate(preperiod: u64, period: u64, saltus: u64) -> Certificate {
        Certificate { preperiod, period, saltus, theorem: Theorem::Nim }
    }

    /// The value at position n of a periodic sequence, computed directly.
    fn value_at(values: &[u32], c: &Certificate, n: u64) -> u64 {
        if n < c.preperiod {
            return u64::from(values[n as usize]);
        }
        let (j, r) = ((n - c.preperiod) / c.period, (n - c.preperiod) % c.period);
        u64::from(values[(c.preperiod + r) as usize]) + j * c.saltus
    }

    #[test]
    fn periodic_histograms_match_direct_counts() {
        let values = [3u32, 0, 1, 2, 2, 0, 5, 1, 1, 4];
        for (n0, p, s) in
            [(0, 1, 0), (0, 3, 0), (2, 3, 0), (3, 7, 0), (0, 1, 1), (2, 3, 2), (1, 4, 1), (4, 5, 7)]
        {
            let c = certificate(n0, p, s);
            for lo in 0..25u64 {
                for hi in lo.saturating_sub(1)..30 {
                    let h = Histogram::from_period(values.to_vec(), &c, &lo.into(), &hi.into()).unwrap();
                    let mut expected = std::collections::BTreeMap::new();
                    for n in lo..=hi {
                        *expected.entry(value_at(&values, &c, n)).or_insert(0u64) += 1;
                    }
                    for g in 0..(h.transform_len() as u64 + 3) {
                        let want = expected.get(&g).copied().unwrap_or(0);
                        assert_eq!(h.count(g), want.into(), "{c:?} {lo}..={hi} value {g}");
                    }
                    let top = expected.keys().max().copied();
                    assert_eq!(h.max_value(), top, "{c:?} {lo}..={hi}");
                    assert_eq!(h.transform_len(), 1 << log2_len_for(top).unwrap());
                    assert_eq!(*h.total(), BigUint::from(hi + 1 - lo.min(hi + 1)));
                }
            }
        }
    }

    #[test]
    fn huge_ranges_have_two_terms() {
        let values = [0u32, 1, 2];
        let c = certificate(0, 3, 0);
        let hi = BigUint::from(10u8).pow(30u32);
        let h = Histogram::from_period(values.to_vec(), &c, &BigUint::from(1u8), &hi).unwrap();
        assert_eq!(h.terms().len(), 2);
        assert_eq!(*h.total(), hi.clone());
        // 1..=10^30: value 1 at 1, 4, …: (10^30 + 2) / 3 of them.
        assert_eq!(h.count(1), (&hi + 2u32) / 3u32);
        assert_eq!(h.count(0), &hi / 3u32);
    }

    #[test]
    fn saltus_growing_past_the_limit_is_refused() {
        let c = certificate(0, 1, 1);
        let err =
            Histogram::from_period(vec![0], &c, &0u32.into(), &BigUint::from(10u8).pow(15)).unwrap_err();
        assert!(matches!(err, Error::OutOfMemory { .. }), "{err}");
        assert!(err.to_string().contains("Grundy values up to"), "{err}");
    }

    #[test]
    fn residues_agree_with_big_counts() {
        let big = BigUint::from(u64::MAX) * 3u32 + 5u32;
        let h = Histogram::from_counts([(0, big.clone()), (3, 7u32.into()), (3, BigUint::from(u64::MAX))])
            .unwrap();
        assert_eq!(h.count(3), BigUint::from(u64::MAX) + 7u32);
        // Also the shapes `P` and `q · P + R`, with nasty counts and weights.
        let two = Histogram::from_terms(vec![
            Term::new(BigUint::from(10u8).pow(30), vec![u32::MAX, 0, 1, u32::MAX - 1]),
            Term::new(BigUint::one(), vec![u32::MAX, 7, 0, 1]),
        ])
        .unwrap();
        let one =
            Histogram::from_terms(vec![Term::new(BigUint::from(u64::MAX), vec![u32::MAX, 0, 1, 5])]).unwrap();
        for h in [&h, &two, &one] {
            let exact: Vec<BigUint> = (0..4).map(|g| h.count(g)).collect();
            for m in [1u64, 2, 7, 1_000_000_007, (1 << 63) + 5, u64::MAX] {
                let want: Vec<BigUint> = exact.iter().map(|c| c % m).collect();
                assert_eq!(h.residues(m).into_iter().map(BigUint::from).collect::<Vec<_>>(), want, "m = {m}");
            }
            for m in [1u32, 2, 3, 998_244_353, (1 << 31) - 1, 1 << 31, u32::MAX] {
                let want: Vec<BigUint> = exact.iter().map(|c| c % m).collect();
                assert_eq!(
                    h.residues_u32(m).into_iter().map(BigUint::from).collect::<Vec<_>>(),
                    want,
                    "m = {m}"
                );
            }
            let want: Vec<BigUint> = exact.iter().map(|c| c % (BigUint::one() << 64)).collect();
            assert_eq!(h.residues_wrapping().into_iter().map(BigUint::from).collect::<Vec<_>>(), want);
        }
    }

    #[test]
    fn barrett_reduction_is_exact_on_nasty_values() {
        for m in [1u64, 2, 3, 1_000_000_007, (1 << 32) - 1, 1 << 32, (1 << 63) - 1, 1 << 63, u64::MAX] {
            let r = Reducer::new(m);
            for x in
                [0, 1, m - 1, m, m.wrapping_add(1), u64::MAX, u64::MAX - 1, u64::MAX / 2, m.wrapping_mul(3)]
            {
                assert_eq!(r.reduce(x), x % m, "{x} mod {m}");
            }
            assert_eq!(r.reduce_wide(u128::MAX), (u128::MAX % u128::from(m)) as u64);
        }
    }

    #[test]
    fn malformed_files_name_the_line() {
        for (text, line, reason) in [
            ("0 1\nx 2\n", 2, "bad Grundy value"),
            ("0 1 2\n", 1, "expected 'value count'"),
            ("# c\n\n5\n", 3, "expected 'value count'"),
            ("1 -3\n", 1, "bad count"),
            ("1 2\n1 3\n", 2, "already given on line 1"),
        ] {
            match Histogram::parse(text, "h.txt").unwrap_err() {
                Error::Malformed { path, line: l, reason: r } => {
                    assert_eq!((path.as_str(), l), ("h.txt", line), "{text:?}");
                    assert!(r.contains(reason), "{text:?}: {r}");
                }
                other => panic!("{text:?}: {other}"),
            }
        }
        let h = Histogram::parse("", "empty").unwrap();
        assert_eq!((h.transform_len(), h.total().is_zero()), (1, true));
    }
}
