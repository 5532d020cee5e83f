//! IEEE floating point.

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::{Internal, Ring, Same, Words, portable_transform};
use crate::error::Result;
use crate::parallel;
use crate::simd::{self, Backend, PARALLEL_MIN};

macro_rules! float_ring {
    ($(#[$doc:meta])* $name:ident, $elem:ty, $bits:ty, $label:expr, $dispatch:ident, $rows:ident) => {
        unit_ring!($(#[$doc])* $name, $label);

        impl Ring for $name {
            type Elem = $elem;
            const NAMES_ITS_WORDS: bool = true;

            fn words(&self, _: Internal) -> Words<$elem> {
                Words::$name(Same::id())
            }

            fn zero(&self) -> $elem {
                0.0
            }
            fn one(&self) -> $elem {
                1.0
            }
            #[inline]
            fn add(&self, a: $elem, b: $elem) -> $elem {
                a + b
            }
            #[inline]
            fn sub(&self, a: $elem, b: $elem) -> $elem {
                a - b
            }
            #[inline]
            fn mul(&self, a: $elem, b: $elem) -> $elem {
                a * b
            }
            fn can_halve(&self) -> bool {
                true
            }
            /// Multiplies by `2^-log2`. Up to `log2 = MAX_EXP - 2` one normal factor does it, with
            /// a single rounding (exact unless the result is subnormal); beyond, several normal
            /// factors are applied in turn, and once no finite value can survive the result is
            /// a signed zero (infinities and NaN stay as they are).
            fn divide_by_power_of_two(&self, data: &mut [$elem], log2: u32, parallel: bool) -> Result<()> {
                const STEP: u32 = (<$elem>::MAX_EXP - 2) as u32;
                // 2^-k for 0 <= k <= STEP is a normal number, built from its exponent bits.
                let factor = |k: u32| <$elem>::from_bits(((<$elem>::MAX_EXP - 1 - k as i32) as $bits) << (<$elem>::MANTISSA_DIGITS - 1));
                let limit = (<$elem>::MAX_EXP - <$elem>::MIN_EXP) as u32 + <$elem>::MANTISSA_DIGITS + 2;
                let mut left = log2.min(limit);
                while left > 0 {
                    let k = left.min(STEP);
                    let f = factor(k);
                    parallel::for_each(data, parallel, PARALLEL_MIN, |x| *x *= f);
                    left -= k;
                }
                Ok(())
            }
            /// `powi` while `k` fits in an `i32`; beyond that the magnitude comes from `powf`
            /// and the sign from the parity of `k`.
            fn pow(&self, x: $elem, k: &BigUint) -> $elem {
                match k.to_i32() {
                    Some(k) => x.powi(k),
                    None => {
                        let magnitude = x.abs().powf(k.to_f64().unwrap_or(f64::INFINITY) as $elem);
                        if k.bit(0) && x.is_sign_negative() { -magnitude } else { magnitude }
                    }
                }
            }
            fn checked_pow(&self, x: $elem, k: &BigUint) -> Option<$elem> {
                Some(self.pow(x, k))
            }
            fn pow_each(&self, data: &mut [$elem], k: &BigUint, _: Backend, parallel: bool, _: Internal) -> Result<()> {
                parallel::for_each(data, parallel, PARALLEL_MIN, |x| *x = self.pow(*x, k));
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

float_ring!(
    /// IEEE single precision. Every backend performs the same operations in the same order
    /// (ascending levels, `a + b` and `a - b` with the same operands), so results are
    /// bit-identical across backends and to the textbook loop — except for the sign and payload
    /// of NaN results, which Rust leaves unspecified.
    Float32, f32, u32, "f32", f32, f32_rows
);

float_ring!(
    /// IEEE double precision, with the same bit-exactness across backends as [`Float32`] (NaN
    /// signs and payloads aside).
    Float64, f64, u64, "f64", f64, f64_rows
);
