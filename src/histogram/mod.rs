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

pub(crate) mod file;
pub(crate) mod periodic;
pub(crate) mod residues;
pub(crate) mod structured;

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use num_bigint::BigUint;
use num_traits::{One, Zero};

use crate::error::{Error, Result};
use crate::memory;
pub use structured::Progression;
use structured::Structured;
pub(crate) use structured::{fraction_half, subtraction_interval};

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

/// How many heap sizes have each Grundy value, as `h[g] = Σ_i weight_i · counts_i[g]`, or as
/// weighted progressions of values of any size ([`from_intervals`](Histogram::from_intervals),
/// [`from_progressions`](Histogram::from_progressions)).
///
/// The transform length is the smallest power of two above every value with a non-zero count
/// (at least 1): XOR sums of such values stay below it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Histogram {
    terms: Vec<Term>,
    log2_len: u32,
    total: BigUint,
    /// The progressions of a structured histogram (`terms` is then empty).
    structured: Option<Structured>,
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
        if summed.len() < limbs {
            // Counts longer than there are values: one term per value, its count as the weight.
            reserve(summed.len() as u128 * len as u128, || {
                format!("a histogram of {} × 2^{log2_len} counts", summed.len())
            })?;
            let terms = summed
                .into_iter()
                .map(|(value, count)| {
                    let mut counts = vec![0u32; len];
                    counts[value as usize] = 1;
                    Term::new(count, counts)
                })
                .collect();
            return Ok(Histogram::assemble(terms, log2_len));
        }
        // Per limb a 32-bit count a slot and a weight of `limb` words.
        let weights = (limbs as u128).pow(2) / 2;
        reserve(limbs as u128 * len as u128 + weights, || {
            format!("a histogram of {limbs} × 2^{log2_len} counts")
        })?;
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
        let range = values
            .get(lo as usize..=hi as usize)
            .ok_or_else(|| Error::ValuesTooShort { have: values.len() as u64, need: u128::from(hi) + 1 })?;
        let max_value = range.iter().copied().max().map(u64::from);
        let log2_len = log2_len_for(max_value)?;
        let terms = count_values(log2_len, range.len() as u64, [range])?;
        Ok(Histogram::assemble(terms, log2_len))
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

    /// The same counts over a transform of `2^log2_len` slots, when that is more than its own:
    /// histograms of the components of a sum of games share one transform length. Arrays only
    /// (a structured histogram is first made one with [`to_array`](Self::to_array)).
    pub(crate) fn widened(mut self, log2_len: u32) -> Self {
        debug_assert!(self.structured.is_none(), "arrays only");
        if log2_len > self.log2_len {
            self.log2_len = log2_len;
            for term in &mut self.terms {
                if let Counts::Dense(counts) = &mut term.counts {
                    counts.resize(1 << log2_len, 0);
                }
            }
        }
        self
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
        Histogram { terms: kept, log2_len, total, structured: None }
    }

    /// The terms `weight · counts` whose sum is the histogram (none for a
    /// [structured](Self::is_structured) histogram: see [`to_array`](Self::to_array)).
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// The transform length `F`: the smallest power of two above every value with a non-zero
    /// count (1 when there is none).
    ///
    /// # Panics
    /// When `F` does not fit in `usize` (structured histograms only: see
    /// [`log2_len`](Self::log2_len)).
    pub fn transform_len(&self) -> usize {
        assert!(self.log2_len < usize::BITS, "a transform of 2^{} slots has no usize length", self.log2_len);
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
        if let Some(structured) = &self.structured {
            return structured.count(value);
        }
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
    pub fn max_value(&self) -> Option<BigUint> {
        if let Some(structured) = &self.structured {
            return structured.max_value();
        }
        self.terms.iter().filter_map(Term::max_value).max().map(|v| BigUint::from(v as u64))
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
pub(crate) fn split_counts(weight: BigUint, counts: Vec<u64>) -> Vec<Term> {
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
pub(crate) fn reserve(words: u128, what: impl Fn() -> String) -> Result<()> {
    let bytes = memory::bytes_for::<u64>(&what, words)?;
    memory::ensure_fits(what, bytes)
}
