//! A histogram's counts reduced modulo the engine's working moduli, one slot per Grundy value.

use std::ops::Range;

use num_traits::ToPrimitive;

use super::{Counts, Histogram};
use crate::arith::{Barrett64, Shoup32};

impl Histogram {
    /// Every count modulo `m >= 1`, as a vector of transform length.
    pub fn residues(&self, m: u64) -> Vec<u64> {
        let mut out = vec![0u64; self.transform_len()];
        self.residues_into(m, &mut out);
        out
    }

    /// [`residues`](Self::residues) into `out`, which must hold transform-length zeros.
    pub fn residues_into(&self, m: u64, out: &mut [u64]) {
        assert_eq!(out.len(), self.transform_len());
        let reducer = Barrett64::new(m);
        if let Some(structured) = &self.structured {
            let weights: Vec<u64> =
                structured.progressions.iter().map(|p| (&p.weight % m).to_u64().expect("below m")).collect();
            // Two residues below m < 2^64 sum below 2^65 < 2^128.
            structured.for_each_value(|i, g| {
                out[g] = reducer.reduce_wide(u128::from(out[g]) + u128::from(weights[i]))
            });
        }
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
        if let Some(structured) = &self.structured {
            let low = |w: &num_bigint::BigUint| w.iter_u64_digits().next().unwrap_or(0);
            let weights: Vec<u64> = structured.progressions.iter().map(|p| low(&p.weight)).collect();
            structured.for_each_value(|i, g| out[g] = out[g].wrapping_add(weights[i]));
        }
        for term in &self.terms {
            let w = term.weight.iter_u64_digits().next().unwrap_or(0);
            term.for_each(|g, c| out[g] = out[g].wrapping_add(w.wrapping_mul(u64::from(c))));
        }
    }

    /// Every count modulo an `m < 2^32` (`m >= 1`), as 32-bit residues.
    pub fn residues_u32(&self, m: u32) -> Vec<u32> {
        let mut out = vec![0u32; self.transform_len()];
        self.residues_u32_into(m, &mut out, false);
        out
    }

    /// [`residues_u32`](Self::residues_u32) into `out`, which must hold transform-length zeros;
    /// `parallel` allows rayon's thread pool.
    pub fn residues_u32_into(&self, m: u32, out: &mut [u32], parallel: bool) {
        assert_eq!(out.len(), self.transform_len());
        if m >= 1 << 31 || self.structured.is_some() {
            // Sums of two residues may pass 2^32, or values come from progressions: go through
            // words.
            for (slot, r) in out.iter_mut().zip(self.residues(u64::from(m))) {
                *slot = r as u32;
            }
            return;
        }
        for (index, term) in self.terms.iter().enumerate() {
            let w = (&term.weight % m).to_u32().expect("below m");
            let shoup = Shoup32::new(w, m);
            // Residues below m < 2^31 add below 2^32; `min(s, s − m)` reduces (see Shoup32::mul).
            let add = |a: u32, b: u32| {
                let s = a + b;
                s.min(s.wrapping_sub(m))
            };
            match (&term.counts, index) {
                // The first dense term fills every slot: branch-free and in parallel.
                (Counts::Dense(counts), 0) => fill(out, counts, parallel, |_, c| shoup.mul(c)),
                (Counts::Dense(counts), _) => fill(out, counts, parallel, |x, c| add(x, shoup.mul(c))),
                // Stretches of values: each adds w to its slot.
                (Counts::Values { .. }, _) => term.for_each(|g, _| out[g] = add(out[g], w)),
            }
        }
    }
}

impl Histogram {
    /// The counts of the slots `slots` (values below the transform length) modulo `m >= 1`:
    /// `out[i] = h[slots.start + i] mod m`. `out` holds zeros, one per slot of the range, in any
    /// word that holds residues below `m` (`u32` for `m <= 2^32`, `u64`). A process of a
    /// distributed count fills its own block of the transform this way.
    ///
    /// ```
    /// use nimcount::histogram::Histogram;
    /// let h = Histogram::from_values(&[0, 1, 1, 3, 3, 3], 0, 5)?; // counts 1, 2, 0, 3
    /// let mut out = [0u32; 2];
    /// h.residues_of_slots_into(2, 2..4, &mut out);
    /// assert_eq!(out, [0, 1]);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    ///
    /// # Panics
    /// When `slots` reaches past the transform length, `out` is not as long as `slots`, `m` is
    /// 0, or a residue does not fit in `T`.
    pub fn residues_of_slots_into<T>(&self, m: u64, slots: Range<usize>, out: &mut [T])
    where
        T: Copy + Into<u64> + TryFrom<u64>,
    {
        let reducer = Barrett64::new(m);
        self.fill_slots(
            slots,
            out,
            |w| (w % m).to_u64().expect("below m"),
            |x, w, c| {
                // w, x < m < 2^64 and c < 2^32: w · (c mod m) + x < m^2 + m < 2^128.
                let product = u128::from(w) * u128::from(reducer.reduce(u64::from(c)));
                reducer.reduce_wide(product + u128::from(x))
            },
        );
    }

    /// The counts of the slots `slots` modulo `2^bits` (`bits <= 128`), as
    /// [`residues_of_slots_into`](Self::residues_of_slots_into) does modulo odd numbers: the
    /// 2-adic part of a distributed count modulo an even number.
    ///
    /// ```
    /// use nimcount::histogram::Histogram;
    /// use nimcount::num_bigint::BigUint;
    /// let h = Histogram::from_counts([(0, BigUint::from(7u8) << 100), (1, 5u32.into())])?;
    /// let mut out = [0u128; 2];
    /// h.residues_wrapping_of_slots_into(102, 0..2, &mut out);
    /// assert_eq!(out, [3 << 100, 5]);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    ///
    /// # Panics
    /// As [`residues_of_slots_into`](Self::residues_of_slots_into), and for `bits > 128`.
    pub fn residues_wrapping_of_slots_into<T>(&self, bits: u32, slots: Range<usize>, out: &mut [T])
    where
        T: Copy + Into<u128> + TryFrom<u128>,
    {
        assert!(bits <= 128, "at most 128 bits, not {bits}");
        let mask = if bits == 128 { u128::MAX } else { (1u128 << bits) - 1 };
        let low = |w: &num_bigint::BigUint| {
            w.iter_u64_digits().take(2).rev().fold(0u128, |a, d| (a << 64) | u128::from(d))
        };
        self.fill_slots(
            slots,
            out,
            |w| low(w) & mask,
            |x, w, c| x.wrapping_add(w.wrapping_mul(u128::from(c))) & mask,
        );
    }

    /// `out[g − slots.start] = add(out[…], weight(term), count)` for every non-zero count of
    /// every term in the slots `slots`, with the words converted through `W`.
    fn fill_slots<T, W>(
        &self,
        slots: Range<usize>,
        out: &mut [T],
        weight: impl Fn(&num_bigint::BigUint) -> W,
        add: impl Fn(W, W, u32) -> W,
    ) where
        T: Copy + Into<W> + TryFrom<W>,
        W: Copy,
    {
        assert!(slots.start <= slots.end && slots.end <= self.transform_len(), "slots {slots:?}");
        assert_eq!(out.len(), slots.len());
        let put = |x: W| T::try_from(x).ok().expect("the residue fits the word");
        if let Some(structured) = &self.structured {
            // Progression by progression, only the values that fall in `slots`: no array of all
            // the slots (a distributed count fills each process's block this way).
            let step = 1usize << structured.shift;
            for p in &structured.progressions {
                let (Some(lo), Some(hi)) = (p.lo.to_usize(), p.hi.to_usize()) else { continue };
                let w = weight(&p.weight);
                // Values residue + step · q, q in lo..=hi, inside slots.
                let residue = p.residue as usize;
                let first_q = lo.max(slots.start.saturating_sub(residue).div_ceil(step));
                let last_q = match slots.end.checked_sub(residue + 1) {
                    Some(top) => hi.min(top / step),
                    None => continue,
                };
                for q in first_q..=last_q {
                    let x = &mut out[residue + step * q - slots.start];
                    *x = put(add((*x).into(), w, 1));
                }
            }
        }
        for term in &self.terms {
            let w = weight(&term.weight);
            match &term.counts {
                Counts::Dense(counts) => {
                    let end = slots.end.min(counts.len());
                    for g in slots.start..end.max(slots.start) {
                        if counts[g] != 0 {
                            let x = &mut out[g - slots.start];
                            *x = put(add((*x).into(), w, counts[g]));
                        }
                    }
                }
                Counts::Values { .. } => term.for_each(|g, c| {
                    if slots.contains(&g) {
                        let x = &mut out[g - slots.start];
                        *x = put(add((*x).into(), w, c));
                    }
                }),
            }
        }
    }
}

/// `out[g] = f(out[g], counts[g])` for every slot, on the thread pool for long vectors when
/// `parallel`.
fn fill(out: &mut [u32], counts: &[u32], parallel: bool, f: impl Fn(u32, u32) -> u32 + Sync + Send) {
    crate::parallel::zip_chunks(out, counts, parallel, 1 << 16, |out, counts| {
        for (x, &c) in out.iter_mut().zip(counts) {
            *x = f(*x, c);
        }
    });
}
