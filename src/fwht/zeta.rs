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
