//! Structured histograms: sums of weighted arithmetic progressions of Grundy values, with
//! bounds of any size, never stored value by value.
//!
//! A [`Progression`] gives `weight` heap sizes to every value `residue + 2^shift · q` with `q` in
//! `lo..=hi`; with `shift = 0` that is the interval `lo..=hi` (shifted by `residue`). Nim over
//! `lo..=hi` is one interval, a one-interval subtraction game a few, and a game whose values grow
//! by a power-of-two saltus `2^e` every period one progression per residue class of the period.
//! Their transforms have closed forms (see the `count` module's structured spectrum), so such
//! histograms are counted over values of thousands or millions of bits.

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use super::{Histogram, MAX_LOG2_LEN, reserve, split_counts};
use crate::error::{Bytes, Error, Result};
use crate::memory;
use crate::message::short;

/// `weight` heap sizes for every Grundy value `residue + 2^shift · q`, `q` in `lo..=hi` (the
/// histogram's `shift` is common to all its progressions).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Progression {
    /// The first value's offset below `2^shift`.
    pub residue: u64,
    /// The smallest `q`.
    pub lo: BigUint,
    /// The largest `q`.
    pub hi: BigUint,
    /// How many heap sizes have each of the values.
    pub weight: BigUint,
}

/// The progressions of a structured histogram.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Structured {
    /// Values step by `2^shift` along a progression.
    pub shift: u32,
    /// Non-empty progressions of non-zero weight, sorted, with distinct `(residue, lo, hi)`.
    pub progressions: Vec<Progression>,
}

impl Histogram {
    /// The histogram that gives `weight` heap sizes to every value of each interval
    /// `(lo, hi, weight)`, `lo..=hi` (overlapping intervals add up; empty ones count nothing).
    /// Values and weights have any size: the histogram is kept as its intervals.
    ///
    /// ```
    /// use nimcount::histogram::Histogram;
    /// use num_bigint::BigUint;
    /// // Nim over the heap sizes 1..=2^100: one interval of values.
    /// let top: BigUint = BigUint::from(1u8) << 100;
    /// let h = Histogram::from_intervals([(1u8.into(), top.clone(), 1u8.into())])?;
    /// assert_eq!(h.log2_len(), 101);
    /// assert_eq!(*h.total(), top);
    /// assert_eq!(h.count(12345).to_string(), "1");
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn from_intervals<I: IntoIterator<Item = (BigUint, BigUint, BigUint)>>(intervals: I) -> Result<Self> {
        let progressions = intervals
            .into_iter()
            .map(|(lo, hi, weight)| Progression { residue: 0, lo, hi, weight })
            .collect();
        Histogram::from_progressions(0, progressions)
    }

    /// The histogram of weighted progressions `residue + 2^shift · q` (`shift <= 63`; a residue
    /// of `2^shift` or more is folded into `q`). Identical progressions add their weights; empty
    /// ones and zero weights are dropped.
    ///
    /// ```
    /// use nimcount::histogram::{Histogram, Progression};
    /// // The odd values 1, 3, …, 2^70 - 1, each twice.
    /// let odd = Progression { residue: 1, lo: 0u8.into(), hi: (num_bigint::BigUint::from(1u8) << 69) - 1u8, weight: 2u8.into() };
    /// let h = Histogram::from_progressions(1, vec![odd])?;
    /// assert_eq!((h.count(7), h.count(8)), (2u8.into(), 0u8.into()));
    /// assert_eq!(h.log2_len(), 70);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn from_progressions(shift: u32, progressions: Vec<Progression>) -> Result<Self> {
        assert!(shift < u64::BITS, "a shift of {shift} bits: residues are words");
        let mut kept: Vec<Progression> = Vec::with_capacity(progressions.len());
        for mut p in progressions {
            if p.weight.is_zero() || p.lo > p.hi {
                continue;
            }
            let carry = p.residue >> shift;
            if carry != 0 {
                p.residue &= (1u64 << shift) - 1;
                p.lo += carry;
                p.hi += carry;
            }
            kept.push(p);
        }
        kept.sort();
        let mut merged: Vec<Progression> = Vec::with_capacity(kept.len());
        for p in kept {
            match merged.last_mut() {
                Some(last) if (last.residue, &last.lo, &last.hi) == (p.residue, &p.lo, &p.hi) => {
                    last.weight += p.weight
                }
                _ => merged.push(p),
            }
        }
        let top = merged.iter().map(|p| (&p.hi << shift) + p.residue).max();
        let log2_len = match &top {
            None => 0,
            Some(top) => u32::try_from(top.bits()).map_err(|_| Error::OutOfMemory {
                what: "values of more than 2^32 bits".into(),
                needed: Bytes(u64::MAX),
                available: Bytes(memory::available().unwrap_or(0)),
            })?,
        };
        // Beyond the largest value every q is 0: the shift can stop at the transform's bits.
        let shift = shift.min(log2_len);
        let mut total = BigUint::zero();
        for p in &merged {
            total += &p.weight * (&p.hi - &p.lo + 1u8);
        }
        Ok(Histogram {
            terms: Vec::new(),
            log2_len,
            total,
            structured: Some(Structured { shift, progressions: merged }),
        })
    }

    /// Whether the histogram is kept as progressions ([`from_intervals`](Self::from_intervals),
    /// [`from_progressions`](Self::from_progressions), games whose values grow by a power of two)
    /// rather than as [`terms`](Self::terms).
    pub fn is_structured(&self) -> bool {
        self.structured.is_some()
    }

    /// The common shift and the progressions of a structured histogram.
    pub fn progressions(&self) -> Option<(u32, &[Progression])> {
        self.structured.as_ref().map(|s| (s.shift, &s.progressions[..]))
    }

    /// The same histogram as [`terms`](Self::terms) of machine-word counts, one slot per value:
    /// an [`Error::OutOfMemory`] when the transform over its largest value cannot fit. A
    /// histogram of terms is returned as it is.
    ///
    /// ```
    /// use nimcount::histogram::Histogram;
    /// let intervals = Histogram::from_intervals([(2u8.into(), 5u8.into(), 3u8.into())])?;
    /// let array = intervals.to_array()?;
    /// assert!(!array.is_structured());
    /// assert_eq!(array.terms()[0].counts()[..6], [0, 0, 3, 3, 3, 3]);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn to_array(&self) -> Result<Histogram> {
        let Some(structured) = &self.structured else { return Ok(self.clone()) };
        let log2_len = self.log2_len;
        if log2_len > MAX_LOG2_LEN {
            return Err(Error::OutOfMemory {
                what: format!("an array of 2^{log2_len} histogram slots"),
                needed: Bytes(1u64.checked_shl(log2_len + 2).unwrap_or(u64::MAX)),
                available: Bytes(memory::available().unwrap_or(0)),
            });
        }
        let len = 1usize << log2_len;
        let step = 1usize << structured.shift;
        let progressions = &structured.progressions;
        let limbs = progressions.iter().map(|p| p.weight.iter_u32_digits().len()).max().unwrap_or(0);
        // The difference array of progression `p`'s slots with stride 2^shift, `c` added on
        // each (wrapping differences, exact once summed).
        let spread = |counts: &mut [u64], p: &Progression, c: u64| {
            let first = p.residue as usize + step * p.lo.to_usize().expect("below the length");
            counts[first] = counts[first].wrapping_add(c);
            if let Some(end) = (&p.hi + 1u8).to_usize().and_then(|q| q.checked_mul(step))
                && let Some(slot) = counts.get_mut(p.residue as usize + end)
            {
                *slot = slot.wrapping_sub(c);
            }
        };
        let sum_up = |counts: &mut [u64]| {
            for g in step..len {
                counts[g] = counts[g].wrapping_add(counts[g - step]);
            }
        };
        let mut terms = Vec::new();
        if progressions.len() < limbs {
            // Weights longer than there are progressions: one term per progression, its weight
            // as it is (two 32-bit halves a slot kept, one 64-bit sum a slot while it is built).
            reserve((progressions.len() as u128 + 1) * len as u128, || {
                format!("a histogram of {} × 2^{log2_len} counts", progressions.len())
            })?;
            for p in progressions {
                let mut counts = vec![0u64; len];
                spread(&mut counts, p, 1);
                sum_up(&mut counts);
                terms.extend(split_counts(p.weight.clone(), counts));
            }
        } else {
            // Limb `limb` of every weight, of weight 2^(32·limb): each sum stays below (number
            // of progressions) · 2^32 < 2^64. Per limb two 32-bit halves a slot kept and one
            // 64-bit sum a slot while it is built, and a weight of `limb` words.
            let weights = (limbs as u128).pow(2) / 2;
            reserve((limbs as u128 + 1) * len as u128 + weights, || {
                format!("a histogram of {limbs} × 2^{log2_len} counts (one per 32-bit limb of its counts)")
            })?;
            for limb in 0..limbs {
                let mut counts = vec![0u64; len];
                for p in progressions {
                    spread(&mut counts, p, u64::from(p.weight.iter_u32_digits().nth(limb).unwrap_or(0)));
                }
                sum_up(&mut counts);
                terms.extend(split_counts(BigUint::one() << (32 * limb), counts));
            }
        }
        Ok(Histogram::assemble(terms, log2_len))
    }
}

impl Structured {
    /// The count of `value`.
    pub(crate) fn count(&self, value: u64) -> BigUint {
        let residue = value & ((1u64 << self.shift) - 1);
        let q = BigUint::from(value >> self.shift);
        self.progressions
            .iter()
            .filter(|p| p.residue == residue && p.lo <= q && q <= p.hi)
            .map(|p| p.weight.clone())
            .sum()
    }

    /// Calls `f(i, g)` for every value `g` of every progression `i` (values below `2^64` only:
    /// for histograms whose slots are enumerated).
    pub(crate) fn for_each_value(&self, mut f: impl FnMut(usize, usize)) {
        let step = 1usize << self.shift;
        for (i, p) in self.progressions.iter().enumerate() {
            let (lo, hi) = (p.lo.to_usize().expect("a slot"), p.hi.to_usize().expect("a slot"));
            for q in lo..=hi {
                f(i, p.residue as usize + step * q);
            }
        }
    }

    /// The largest value.
    pub(crate) fn max_value(&self) -> Option<BigUint> {
        self.progressions.iter().map(|p| (&p.hi << self.shift) + p.residue).max()
    }
}

/// The histogram of the subtraction game `{a, a+1, …, b}` over the heap sizes `lo..=hi`
/// (`1 <= a <= b`, `lo <= hi`), from `G(n) = ⌊(n mod p) / a⌋` with `p = a + b`: no value is
/// computed.
///
/// The sizes are `q = ⌊N/p⌋` whole periods, in which every residue occurs once, and a window of
/// `N mod p` consecutive residues from `lo mod p` (wrapping past `p − 1` at most once). The
/// residues `x..=y` of one stretch give the values `⌊x/a⌋..=⌊y/a⌋`, each `a` times except the
/// two ends, which are cut: at most three intervals a stretch.
pub fn subtraction_interval(a: u64, b: u64, lo: &BigUint, hi: &BigUint) -> Result<Histogram> {
    let (a, p) = (u128::from(a), u128::from(a) + u128::from(b));
    let n = hi - lo + 1u8;
    let (q, rest) = (&n / p, (&n % p).to_u128().expect("below p"));
    let start = (lo % p).to_u128().expect("below p");
    let mut intervals: Vec<(BigUint, BigUint, BigUint)> = Vec::new();
    let mut stretch = |x: u128, y: u128, weight: &BigUint| {
        let (vx, vy) = (x / a, y / a);
        let mut push = |v: u128, w: u128, count: u128| {
            intervals.push((v.into(), w.into(), weight * count));
        };
        if vx == vy {
            push(vx, vx, y - x + 1);
        } else {
            push(vx, vx, a * (vx + 1) - x);
            if vx + 1 < vy {
                push(vx + 1, vy - 1, a);
            }
            push(vy, vy, y - a * vy + 1);
        }
    };
    if !q.is_zero() {
        stretch(0, p - 1, &q);
    }
    let one = BigUint::one();
    if rest > 0 {
        let end = start + rest; // the window is start..end, wrapping at p
        stretch(start, end.min(p) - 1, &one);
        if end > p {
            stretch(0, end - p - 1, &one);
        }
    }
    Histogram::from_intervals(intervals)
}

/// The histogram of take at most half (`fraction:1/2`) over the heap sizes `lo..=hi`
/// (`lo <= hi`), from `G(2m) = m`, `G(2m + 1) = G(m)`: no value is computed.
///
/// A heap `n` with `t` trailing one bits is `n = 2^(t+1)·y + 2^t − 1` and has the value `y`
/// (strip the `t` ones, then halve the even rest). For each `t`, the heaps of the class in
/// `lo..=hi` are those with `y` in an interval, so their values are that interval, once each:
/// one interval per class, `⌊log2(hi + 1)⌋ + 1` classes.
pub fn fraction_half(lo: &BigUint, hi: &BigUint) -> Result<Histogram> {
    // Class t holds two numbers of at most b − t bits (b the bits of hi), 8 bytes a word and 40
    // for each number's struct and allocation, and about 400 bytes of vectors of intervals and
    // progressions: b(b + 1)/16 + 8b bytes of words for each bound, quadratic in b.
    let b = u128::from(hi.bits());
    let bytes = b * (b + 1) / 8 + 16 * b + 480 * (b + 1);
    memory::ensure_fits(
        || format!("the histogram of take at most half over heap sizes up to {}", short(hi)),
        u64::try_from(bytes).unwrap_or(u64::MAX),
    )?;
    let mut intervals: Vec<(BigUint, BigUint, BigUint)> = Vec::new();
    let mut t = 0u64;
    loop {
        let offset = (BigUint::one() << t) - 1u8; // 2^t − 1
        if offset > *hi {
            break;
        }
        // y from ⌈(lo − offset)/2^(t+1)⌉ = (lo + offset + 1) >> (t + 1) (0 when lo <= offset) to
        // ⌊(hi − offset)/2^(t+1)⌋: shifts, not divisions (dividing by a number of t bits costs t
        // times more, cubic in all).
        let y_lo = if *lo > offset { (lo + &offset + 1u8) >> (t + 1) } else { BigUint::zero() };
        let y_hi = (hi - &offset) >> (t + 1);
        if y_lo <= y_hi {
            intervals.push((y_lo, y_hi, BigUint::one()));
        }
        t += 1;
    }
    Histogram::from_intervals(intervals)
}

/// The preperiod values and the residue classes `base[r] + j · 2^e`, `j` in `jl..=jh`, of an
/// arithmetic-periodic game as progressions with shift `e`, one heap size each.
pub(crate) fn saltus_progressions(
    e: u32,
    pre: &[u32],
    classes: impl IntoIterator<Item = (u32, BigUint, BigUint)>,
) -> Result<Histogram> {
    let mask = (1u64 << e) - 1;
    let point = |v: u64| Progression {
        residue: v & mask,
        lo: (v >> e).into(),
        hi: (v >> e).into(),
        weight: BigUint::one(),
    };
    let mut progressions: Vec<Progression> = pre.iter().map(|&v| point(u64::from(v))).collect();
    for (base, jl, jh) in classes {
        // base + j·2^e = (base mod 2^e) + 2^e · ((base >> e) + j).
        let offset = u64::from(base) >> e;
        progressions.push(Progression {
            residue: u64::from(base) & mask,
            lo: jl + offset,
            hi: jh + offset,
            weight: BigUint::one(),
        });
    }
    Histogram::from_progressions(e, progressions)
}
