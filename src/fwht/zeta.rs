//! Zeta and Möbius transforms over subsets and supersets: the transforms of the OR and AND
//! convolutions, on the same plans, blocked kernel driver, threads and rings as the
//! Walsh–Hadamard transform, with another butterfly.
//!
//! # Conventions
//! Natural order, indices as bit sets:
//! - subset zeta `ẑ[s] = Σ_{t ⊆ s} x[t]` (butterfly `(a, b) → (a, a + b)`), its inverse the subset
//!   Möbius transform `x[s] = Σ_{t ⊆ s} (−1)^|s∖t| ẑ[t]` (`(a, b) → (a, b − a)`);
//! - superset zeta `ẑ[s] = Σ_{t ⊇ s} x[t]` (`(a, b) → (a + b, b)`), inverse `(a, b) → (a − b, b)`.
//!
//! Every output is a sum of inputs with signs ±1, so the exact rings' overflow bound of the
//! Walsh–Hadamard transform (the sum of the absolute values) holds here too, and no ring needs
//! `1/2`: the wrapping rings have AND and OR convolutions. Elements are checked as
//! [`Plan::forward`] checks them, before anything is written.
//!
//! ```
//! use nimcount::fwht::{Plan, Sets};
//! use nimcount::ring::Exact64;
//!
//! let plan = Plan::new(Exact64, 4)?;
//! let mut x = vec![1, 2, 3, 4];
//! plan.zeta(&mut x, Sets::Subset)?;
//! assert_eq!(x, [1, 3, 4, 10]); // {}, {0}, {1}, {0, 1}
//! plan.mobius(&mut x, Sets::Subset)?;
//! assert_eq!(x, [1, 2, 3, 4]);
//! plan.zeta(&mut x, Sets::Superset)?;
//! assert_eq!(x, [10, 6, 7, 4]);
//! # Ok::<(), nimcount::Error>(())
//! ```
//!
//! # Kernel
//! The butterfly is a parameter of the shared depth-first driver (the kernel of
//! [`Plan::forward`] with its cache blocking, radix-16 column passes and rayon splits): each
//! kind is the ring's `(a + b, a − b)` with one half kept and the arguments in the kind's order.
//! The built-in rings of words and floats run it on the plan's SIMD backend (AVX2 or AVX-512,
//! the register types of the Walsh–Hadamard kernels, with the levels inside a register done by
//! a shuffle and a blend); every backend gives the portable kernel's results exactly.

use super::Plan;
use crate::error::{Error, Result};
use crate::ring::Internal;
use crate::ring::Ring;

/// Which sets a zeta transform sums over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sets {
    /// `ẑ[s] = Σ_{t ⊆ s} x[t]`: the transform of the OR convolution.
    Subset,
    /// `ẑ[s] = Σ_{t ⊇ s} x[t]`: the transform of the AND convolution.
    Superset,
}

impl<R: Ring> Plan<R>
where
    R::Elem: Copy,
{
    /// The zeta transform over subsets or supersets of every chunk of `data`, in place
    /// (see the [module](self) for the conventions). Errors as [`Plan::forward`]'s: lengths,
    /// elements the ring does not accept (`data` left as it was), an exact ring's overflow.
    pub fn zeta(&self, data: &mut [R::Elem], sets: Sets) -> Result<()> {
        self.check_sets(data)?;
        self.run_sets(data, sets, false);
        Ok(())
    }

    /// The Möbius transform, the inverse of [`zeta`](Plan::zeta) over the same sets, in place.
    ///
    /// ```
    /// use nimcount::fwht::{Plan, Sets};
    /// use nimcount::ring::Mod32;
    /// let plan = Plan::new(Mod32::new(7)?, 2)?;
    /// let mut x = vec![5, 1];
    /// plan.mobius(&mut x, Sets::Superset)?;
    /// assert_eq!(x, [4, 1]);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn mobius(&self, data: &mut [R::Elem], sets: Sets) -> Result<()> {
        self.check_sets(data)?;
        self.run_sets(data, sets, true);
        Ok(())
    }

    /// The checks of [`zeta`](Plan::zeta), before anything is written.
    fn check_sets(&self, data: &[R::Elem]) -> Result<()> {
        let len = self.len();
        if data.is_empty() || !data.len().is_multiple_of(len) {
            return Err(if data.is_empty() {
                Error::EmptyBuffer
            } else {
                Error::LengthMismatch { len: data.len(), plan_len: len }
            });
        }
        self.ring().validate(data)?;
        self.ring().check_transform(data, self.log2(), self.parallel())
    }

    /// The zeta (or, `inverse`, Möbius) transform of every chunk, unchecked: the caller checked
    /// the elements and the exact rings' bound.
    pub(crate) fn run_sets(&self, data: &mut [R::Elem], sets: Sets, inverse: bool) {
        let (ring, log2, parallel, backend) = (self.ring(), self.log2(), self.parallel(), self.backend());
        let superset = sets == Sets::Superset;
        let run = |chunk: &mut [R::Elem]| {
            ring.transform_sets(chunk, log2, superset, inverse, backend, parallel, Internal(()));
        };
        data.chunks_exact_mut(self.len()).for_each(run);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fwht::Backend;
    use crate::ring::{Exact64, Float64, Mod32, Wrap32};

    /// Every kind against the definition (sums over subsets or supersets, signed for Möbius),
    /// lengths 1 to 2^11 (the textbook loop, leaves and column passes), two chunks.
    #[test]
    fn zeta_and_mobius_equal_their_definitions() {
        let ring = Mod32::new(998_244_353).unwrap();
        let mut seed = 7u64;
        for log2 in 0..=11u32 {
            let n = 1usize << log2;
            let x: Vec<u32> = (0..2 * n)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((seed >> 33) % 998_244_353) as u32
                })
                .collect();
            let plan = Plan::new(ring, n).unwrap();
            for sets in [Sets::Subset, Sets::Superset] {
                let inside = |t: usize, s: usize| match sets {
                    Sets::Subset => t & s == t,
                    Sets::Superset => t & s == s,
                };
                let mut z = x.clone();
                plan.zeta(&mut z, sets).unwrap();
                let mut m = x.clone();
                plan.mobius(&mut m, sets).unwrap();
                if log2 <= 8 {
                    for c in 0..2 {
                        for s in 0..n {
                            let (mut sum, mut signed) = (0u32, 0u32);
                            for t in (0..n).filter(|&t| inside(t, s)) {
                                let v = x[c * n + t];
                                sum = ring.add(sum, v);
                                let odd = ((t ^ s).count_ones() & 1) == 1;
                                signed = if odd { ring.sub(signed, v) } else { ring.add(signed, v) };
                            }
                            assert_eq!(z[c * n + s], sum, "{sets:?} zeta 2^{log2} at {s}");
                            assert_eq!(m[c * n + s], signed, "{sets:?} Möbius 2^{log2} at {s}");
                        }
                    }
                }
                plan.mobius(&mut z, sets).unwrap();
                assert_eq!(z, x, "{sets:?} Möbius undoes zeta at 2^{log2}");
            }
        }
    }

    /// Every kind on every SIMD backend of every ring with one equals the scalar backend exactly
    /// (floats bit for bit): lengths from below one SIMD leaf through leaves, column passes over
    /// 2 to 16 rows and nodes of several levels to a parallel 2^17, values up to `m − 1` and the
    /// extremes of the wrapping and float types, two chunks.
    fn check_backends<R: Ring>(
        ring: R,
        value: impl Fn(u64) -> R::Elem,
        same: impl Fn(&R::Elem, &R::Elem) -> bool,
    ) where
        R::Elem: Copy,
    {
        let mut rng = crate::testing::Rng(0x5e75);
        for backend in [Backend::Avx2, Backend::Avx512] {
            if !backend.is_available() {
                eprintln!("SKIPPED: zeta and Möbius on {backend} over {ring} (this CPU lacks it)");
                continue;
            }
            for log2 in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 17] {
                let n = 1usize << log2;
                let chunks = if log2 >= 13 { 1 } else { 2 };
                let x: Vec<R::Elem> = (0..n * chunks)
                    .map(|_| {
                        let r = rng.next();
                        value(if r.is_multiple_of(8) { u64::MAX - r % 3 } else { r })
                    })
                    .collect();
                if log2 >= 8 {
                    // The SIMD kernel itself runs (every leaf is at most 2^8 elements).
                    let mut y = x[..n].to_vec();
                    assert!(
                        ring.transform_sets(&mut y, log2, true, false, backend, false, Internal(())),
                        "{ring}"
                    );
                }
                for parallel in [false, true] {
                    let plan = Plan::new(ring.clone(), n).unwrap().with_parallel(parallel);
                    let scalar = plan.clone().with_backend(Backend::Scalar).unwrap();
                    let simd = plan.with_backend(backend).unwrap();
                    for sets in [Sets::Subset, Sets::Superset] {
                        for inverse in [false, true] {
                            let (mut want, mut got) = (x.clone(), x.clone());
                            scalar.run_sets(&mut want, sets, inverse);
                            simd.run_sets(&mut got, sets, inverse);
                            let what = format!(
                                "{ring} {backend} {sets:?} inverse {inverse} 2^{log2} parallel {parallel}"
                            );
                            assert!(want.iter().zip(&got).all(|(w, g)| same(w, g)), "{what}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn zeta_and_mobius_on_every_backend_equal_the_scalar_kernel() {
        use crate::ring::{Exact64, Float32, Mod64, Wrap64};
        for m in [998_244_353u32, Mod32::MAX_MODULUS, 3] {
            check_backends(
                Mod32::new(m).unwrap(),
                |r| if r >= u64::MAX - 2 { m - 1 } else { (r % u64::from(m)) as u32 },
                |a, b| a == b,
            );
        }
        for m in [(1u64 << 62) - 57, Mod64::MAX_MODULUS] {
            check_backends(
                Mod64::new(m).unwrap(),
                |r| if r >= u64::MAX - 2 { m - 1 } else { r % m },
                |a, b| a == b,
            );
        }
        check_backends(Wrap32, |r| r as u32, |a, b| a == b);
        check_backends(Wrap64, |r| r, |a, b| a == b);
        // Exact i64 within the bound: |x| < 2^40 over at most 2^17 elements.
        check_backends(Exact64, |r| (r >> 24) as i64 - (1 << 39), |a, b| a == b);
        check_backends(Float32, |r| (r >> 40) as f32 * 0.37 - 1e6, |a, b| a.to_bits() == b.to_bits());
        check_backends(
            Float64,
            |r| if r >= u64::MAX - 2 { f64::MAX } else { (r >> 11) as f64 * 1e-3 - 4e12 },
            |a, b| a.to_bits() == b.to_bits(),
        );
    }

    #[test]
    fn zeta_refuses_what_forward_refuses() {
        let plan = Plan::new(Mod32::new(7).unwrap(), 4).unwrap();
        let mut x = vec![1, 2, 7, 3];
        assert!(matches!(plan.zeta(&mut x, Sets::Subset), Err(Error::ValueOutOfRange { index: 2, .. })));
        assert_eq!(x, [1, 2, 7, 3]);
        assert!(matches!(plan.zeta(&mut [1, 2, 3], Sets::Subset), Err(Error::LengthMismatch { .. })));
        assert!(matches!(plan.zeta(&mut [], Sets::Subset), Err(Error::EmptyBuffer)));
        let plan = Plan::new(Exact64, 2).unwrap();
        let mut x = vec![i64::MAX, 1];
        assert!(matches!(plan.zeta(&mut x, Sets::Superset), Err(Error::Overflow { .. })));
        // Rings without 1/2 and floats have both.
        let mut w = vec![u32::MAX, 2];
        Plan::new(Wrap32, 2).unwrap().zeta(&mut w, Sets::Subset).unwrap();
        assert_eq!(w, [u32::MAX, 1]);
        let mut f = vec![0.5, 0.25];
        Plan::new(Float64, 2).unwrap().mobius(&mut f, Sets::Superset).unwrap();
        assert_eq!(f, [0.25, 0.25]);
    }
}
