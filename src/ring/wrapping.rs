//! Arithmetic modulo 2^32 and 2^64 (wrapping machine integers).

use num_bigint::BigUint;

use super::{Internal, POW_CHUNK, Ring, Same, Words, portable_transform};
use crate::arith::{ExponentRule, square_and_multiply};
use crate::error::Result;
use crate::parallel;
use crate::simd::{self, Backend};

macro_rules! wrapping_ring {
    ($(#[$doc:meta])* $name:ident, $elem:ty, $bits:expr, $label:expr, $dispatch:ident, $rows:ident) => {
        unit_ring!($(#[$doc])* $name, $label);

        impl Ring for $name {
            type Elem = $elem;
            const NAMES_ITS_WORDS: bool = true;

            fn words(&self, _: Internal) -> Words<$elem> {
                Words::$name(Same::id())
            }

            fn zero(&self) -> $elem {
                0
            }
            fn one(&self) -> $elem {
                1
            }
            #[inline]
            fn add(&self, a: $elem, b: $elem) -> $elem {
                a.wrapping_add(b)
            }
            #[inline]
            fn sub(&self, a: $elem, b: $elem) -> $elem {
                a.wrapping_sub(b)
            }
            #[inline]
            fn mul(&self, a: $elem, b: $elem) -> $elem {
                a.wrapping_mul(b)
            }
            /// Reduces `k` with `λ(2^bits) = 2^(bits-2)` and threshold `bits`: an even base
            /// vanishes once `k >= bits`, an odd one has order dividing `2^(bits-2)`.
            fn reduce_exponent(&self, k: &BigUint) -> BigUint {
                ExponentRule::for_power_of_two($bits).reduce(k)
            }
            fn pow(&self, x: $elem, k: &BigUint) -> $elem {
                let e = self.reduce_exponent(k);
                square_and_multiply(x, &e, 1, |a, b| a.wrapping_mul(*b))
            }
            fn pow_each(&self, data: &mut [$elem], k: &BigUint, _: Backend, parallel: bool, _: Internal) -> Result<()> {
                let e = u64::try_from(&self.reduce_exponent(k)).expect("below 2^63");
                parallel::for_each(data, parallel, POW_CHUNK, |x| *x = square_and_multiply(*x, &e, 1, |a, b| a.wrapping_mul(*b)));
                Ok(())
            }
            fn transform(&self, data: &mut [$elem], log2: u32, backend: Backend, parallel: bool, _: Internal) {
                if !simd::$dispatch(data, log2, backend.isa(), parallel) {
                    portable_transform(self, data, log2, parallel);
                }
            }
            fn transform_sets(
                &self,
                data: &mut [$elem],
                log2: u32,
                superset: bool,
                inverse: bool,
                backend: Backend,
                parallel: bool,
                _: Internal,
            ) -> bool {
                let kind = simd::sets::kind(superset, inverse);
                let ran = simd::sets::$dispatch(kind, data, log2, backend.isa(), parallel);
                if !ran {
                    super::portable_sets(self, data, log2, superset, inverse, parallel);
                }
                ran
            }
            fn transform_rows(
                &self,
                rows: &mut [&mut [$elem]],
                staggered: bool,
                backend: Backend,
                parallel: bool,
                _: Internal,
            ) -> bool {
                simd::$rows(rows, staggered, backend.isa(), parallel)
            }
        }
    };
}

wrapping_ring!(
    /// Arithmetic modulo `2^32` on `u32` (every value is accepted).
    ///
    /// Two is not invertible: the forward and the unnormalised inverse transforms exist, the
    /// normalised inverse is refused with [`Error::NoInverseOfTwo`](crate::Error::NoInverseOfTwo).
    ///
    /// ```
    /// use nimcount::ring::{Ring, Wrap32};
    /// let mut x = vec![u32::MAX, 1];
    /// nimcount::fwht::forward(Wrap32, &mut x)?;
    /// assert_eq!(x, [0, u32::MAX - 1]); // (-1 + 1, -1 - 1) modulo 2^32
    /// assert!(nimcount::fwht::inverse(Wrap32, &mut x).is_err());
    /// // Huge exponents are reduced with λ(2^32) = 2^30.
    /// use nimcount::num_bigint::BigUint;
    /// let k: BigUint = "100000000000000000000".parse().unwrap();
    /// let direct = BigUint::from(3u8).modpow(&k, &(BigUint::from(1u8) << 32u32));
    /// assert_eq!(BigUint::from(Wrap32.pow(3, &k)), direct);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    Wrap32, u32, 32, "wrap32", wrap32, wrap32_rows
);

wrapping_ring!(
    /// Arithmetic modulo `2^64` on `u64` (every value is accepted).
    ///
    /// Two is not invertible: the forward and the unnormalised inverse transforms exist, the
    /// normalised inverse is refused with [`Error::NoInverseOfTwo`](crate::Error::NoInverseOfTwo).
    Wrap64, u64, 64, "wrap64", wrap64, wrap64_rows
);
