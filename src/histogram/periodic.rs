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
    /// values instead of counting them; with a saltus the values grow along the range and the
    /// transform must reach past the largest one (an [`Error::OutOfMemory`] when it cannot).
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
        if s == 0 {
            periodic_histogram(values, n0 as usize..(n0 + p) as usize, pre, periodic)
        } else {
            let base = &values[n0 as usize..(n0 + p) as usize];
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
                    let h = Histogram::from_period(values.to_vec(), &c, lo, hi).unwrap();
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
        let h = Histogram::from_period(values.to_vec(), &c, 1u8, hi.clone()).unwrap();
        assert_eq!(h.terms().len(), 2);
        assert_eq!(*h.total(), hi.clone());
        // 1..=10^30: value 1 at 1, 4, …: (10^30 + 2) / 3 of them.
        assert_eq!(h.count(1), (&hi + 2u32) / 3u32);
        assert_eq!(h.count(0), &hi / 3u32);
    }

    #[test]
    fn saltus_growing_past_the_limit_is_refused() {
        let c = certificate(0, 1, 1);
        let err = Histogram::from_period(vec![0], &c, 0u32, BigUint::from(10u8).pow(15)).unwrap_err();
        assert!(matches!(err, Error::OutOfMemory { .. }), "{err}");
        assert!(err.to_string().contains("Grundy values up to"), "{err}");
    }
}
