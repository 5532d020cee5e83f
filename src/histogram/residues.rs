//! A histogram's counts reduced modulo the engine's working moduli, one slot per Grundy value.

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
        self.residues_u32_into(m, &mut out, false);
        out
    }

    /// [`residues_u32`](Self::residues_u32) into `out`, which must hold transform-length zeros;
    /// `parallel` allows rayon's thread pool.
    pub fn residues_u32_into(&self, m: u32, out: &mut [u32], parallel: bool) {
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

/// `out[g] = f(out[g], counts[g])` for every slot, on the thread pool for long vectors when
/// `parallel`.
fn fill(out: &mut [u32], counts: &[u32], parallel: bool, f: impl Fn(u32, u32) -> u32 + Sync + Send) {
    crate::parallel::zip_chunks(out, counts, parallel, 1 << 16, |out, counts| {
        for (x, &c) in out.iter_mut().zip(counts) {
            *x = f(*x, c);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::histogram::Term;
    use num_bigint::BigUint;
    use num_traits::One;

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
}
