//! Histograms over huge ranges of a game with a proven (arithmetic) periodicity.

use std::ops::Range;
use std::sync::Arc;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

use super::{Counts, Histogram, MAX_LOG2_LEN, Term, log2_len_for, reserve, split_counts};
use crate::error::{Error, Result};
use crate::grundy::Certificate;
use crate::memory;

impl Histogram {
    /// The histogram over the heap sizes `lo..=hi` of a game whose values follow a proven
    /// periodicity: `G(n + period) = G(n) + saltus` for `n >= preperiod`.
    ///
    /// `values` (`G(0)`, `G(1)`, …) must hold at least `preperiod + period` values. Without saltus
    /// the counts are `q · P + R` whatever the size of the range, and the histogram keeps the
    /// values instead of counting them. With a saltus the values grow along the range: a
    /// power-of-two saltus `2^e` gives a [structured](Histogram::is_structured) histogram (each
    /// residue class of the period is a progression of step `2^e`) over a range of any size;
    /// another saltus gives counts per value, and the transform must reach past the largest one
    /// (an [`Error::OutOfMemory`] when it cannot).
    ///
    /// ```
    /// use nimcount::grundy::{Certificate, Theorem};
    /// use nimcount::histogram::Histogram;
    /// // Nim: G(n) = n, period 1 with saltus 1.
    /// let nim = Certificate { preperiod: 0, period: 1, saltus: 1, theorem: Theorem::Nim };
    /// let h = Histogram::from_period(vec![0], &nim, 3u32, 6u32)?;
    /// assert_eq!(h.transform_len(), 8);
    /// assert_eq!(h.count(2), 0u32.into());
    /// assert_eq!(h.count(5), 1u32.into());
    /// // Any range: the values 1..=10^30 are one interval.
    /// let huge = Histogram::from_period(vec![0], &nim, 1u32, 10u128.pow(30))?;
    /// assert!(huge.is_structured());
    /// assert_eq!(huge.log2_len(), 100);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn from_period(
        values: Vec<u32>,
        certificate: &Certificate,
        lo: impl Into<BigUint>,
        hi: impl Into<BigUint>,
    ) -> Result<Self> {
        let (lo, hi) = (&lo.into(), &hi.into());
        let (n0, p, s) = (certificate.preperiod, certificate.period, certificate.saltus);
        if p == 0 || u128::from(n0) + u128::from(p) > values.len() as u128 {
            return Err(Error::ValuesTooShort {
                have: values.len() as u64,
                need: u128::from(n0) + u128::from(p),
            });
        }
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
        let base = &values[n0 as usize..(n0 + p) as usize];
        if s == 0 {
            periodic_histogram(values, n0 as usize..(n0 + p) as usize, pre, periodic)
        } else if s.is_power_of_two() {
            let pre_values = pre.map_or(&[][..], |r| &values[r]);
            let classes = saltus_classes(base, periodic);
            super::structured::saltus_progressions(s.trailing_zeros(), pre_values, classes)
        } else {
            saltus_histogram(&values, base, s, pre, periodic)
        }
    }
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

/// The residue classes of an arithmetic periodicity `G(n0 + j·p + r) = base[r] + j·s` over the
/// positions `start..end` (counted from the preperiod): for each offset `r` that the range
/// reaches, `(base[r], jl, jh)` with the blocks `j` in `jl..=jh`.
fn saltus_classes(base: &[u32], periodic: Option<(BigUint, BigUint)>) -> Vec<(u32, BigUint, BigUint)> {
    let Some((start, end)) = periodic else { return Vec::new() };
    let p = BigUint::from(base.len());
    // Positions start..end = blocks: x = start, y = end - 1.
    let y = &end - 1u32;
    let (qx, rx) = start.div_rem(&p);
    let (qy, ry) = y.div_rem(&p);
    let (rx, ry) = (rx.to_u64().expect("below p"), ry.to_u64().expect("below p"));
    let mut classes = Vec::with_capacity(base.len());
    for (r, &v) in base.iter().enumerate() {
        let r = r as u64;
        // jl = ceil((x - r)/p) clamped at 0, jh = floor((y - r)/p) (none when y < r).
        let jl = &qx + u32::from(r < rx);
        let jh = if r <= ry {
            qy.clone()
        } else if qy.is_zero() {
            continue;
        } else {
            &qy - 1u32
        };
        if jl <= jh {
            classes.push((v, jl, jh));
        }
    }
    classes
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
    // The largest value: over the offsets, base[r] + jh(r)·s.
    let mut max_value = pre_values.iter().copied().max().map(u64::from);
    let mut ranges: Vec<(u64, u64)> = Vec::new(); // (first value, last value) per offset
    let too_large = |top: BigUint| {
        let log2 = top.bits();
        Error::OutOfMemory {
            what: format!(
                "a transform over Grundy values up to {top} (2^{log2} slots; the values grow by {s} every {p} \
                 heap sizes, and only a power-of-two saltus is counted without one slot per value)"
            ),
            needed: crate::error::Bytes(1u64.checked_shl(log2 as u32 + 2).unwrap_or(u64::MAX)),
            available: crate::error::Bytes(memory::available().unwrap_or(0)),
        }
    };
    for (v, jl, jh) in saltus_classes(base, periodic) {
        let last = BigUint::from(v) + &jh * s;
        let last =
            last.to_u64().filter(|&l| l >> MAX_LOG2_LEN == 0).ok_or_else(|| too_large(last.clone()))?;
        let first = u64::from(v) + (jl.to_u64().expect("jl <= jh")) * s;
        max_value = max_value.max(Some(last));
        ranges.push((first, last));
    }
    let log2_len = log2_len_for(max_value)?;
    let len = 1usize << log2_len;
    reserve(2 * len as u128, || format!("a histogram of 2^{log2_len} counts"))?;
    // diff[g] - diff[g - s] accumulates the progressions; an entry past the end is dropped.
    let mut diff = vec![0i64; len];
    for &(first, last) in &ranges {
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
