//! Exact signed integers, with overflow refused before it can happen.

use super::{Internal, Ring, Same, Words, portable_transform};
use crate::error::{Error, Result};
use crate::parallel;
use crate::simd::{self, Backend, PARALLEL_MIN};

macro_rules! exact_ring {
    ($(#[$doc:meta])* $name:ident, $elem:ty, $label:expr, $transform:path, $sets:path, $words:ident) => {
        unit_ring!($(#[$doc])* $name, $label);

        impl $name {
            /// The overflow error for `what`.
            fn overflow(&self, what: &'static str, detail: String) -> Error {
                Error::Overflow { what, ring: self.to_string(), detail }
            }
        }

        impl Ring for $name {
            type Elem = $elem;
            const NAMES_ITS_WORDS: bool = true;

            fn zero(&self) -> $elem {
                0
            }
            fn one(&self) -> $elem {
                1
            }
            /// Exact; the transform's bound check guarantees no overflow inside transforms.
            #[inline]
            fn add(&self, a: $elem, b: $elem) -> $elem {
                a.wrapping_add(b)
            }
            #[inline]
            fn sub(&self, a: $elem, b: $elem) -> $elem {
                a.wrapping_sub(b)
            }
            /// Exact product.
            ///
            /// # Panics
            /// On overflow; [`Ring::checked_mul`] reports it instead, and [`crate::convolve`]
            /// turns it into [`Error::Overflow`].
            #[inline]
            fn mul(&self, a: $elem, b: $elem) -> $elem {
                a.checked_mul(b).unwrap_or_else(|| panic!("{a} * {b} overflows {}", $label))
            }
            fn checked_mul(&self, a: $elem, b: $elem) -> Option<$elem> {
                a.checked_mul(b)
            }
            fn can_halve(&self) -> bool {
                true
            }
            /// Exact division: every element must be a multiple of `2^log2`, or nothing changes
            /// and the first offender is reported.
            fn divide_by_power_of_two(&self, data: &mut [$elem], log2: u32, parallel: bool) -> Result<()> {
                if log2 == 0 {
                    return Ok(());
                }
                let mask: $elem = if log2 >= <$elem>::BITS { -1 } else { ((1 as $elem) << log2).wrapping_sub(1) };
                if let Some(index) = data.iter().position(|&x| x & mask != 0) {
                    return Err(Error::NotDivisible {
                        what: "normalised inverse transform",
                        value: data[index].to_string(),
                        index,
                        divisor: format!("2^{log2}"),
                    });
                }
                let shift = log2.min(<$elem>::BITS - 1);
                parallel::for_each(data, parallel, PARALLEL_MIN, |x| *x >>= shift);
                Ok(())
            }
            /// Every value of a transform of a chunk is a signed sum of the chunk's elements, so
            /// the sum of absolute values bounds all of them, intermediate ones included.
            fn check_transform(&self, data: &[$elem], log2: u32, parallel: bool) -> Result<()> {
                let len = 1usize << log2;
                for (c, chunk) in data.chunks(len).enumerate() {
                    // |x| <= 2^127 for every element: a sum of at most 2^64 of them saturates
                    // at u128::MAX only when it is beyond every range anyway.
                    let total = parallel::reduce(chunk, parallel, PARALLEL_MIN, 0u128,
                        |x| x.unsigned_abs() as u128, u128::saturating_add);
                    if total > <$elem>::MAX as u128 {
                        return Err(self.overflow(
                            "transform",
                            format!("the absolute values of chunk {c} sum to more than {}", <$elem>::MAX),
                        ));
                    }
                }
                Ok(())
            }
            fn transform(&self, data: &mut [$elem], log2: u32, backend: Backend, parallel: bool, _: Internal) {
                $transform(self, data, log2, backend, parallel);
            }
            fn words(&self, _: Internal) -> Words<$elem> {
                Words::$words(Same::id())
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
                let ran = $sets(data, log2, simd::sets::kind(superset, inverse), backend, parallel);
                if !ran {
                    super::portable_sets(self, data, log2, superset, inverse, parallel);
                }
                ran
            }
        }
    };
}

exact_ring!(
    /// Exact `i64` arithmetic. A transform whose values could leave `i64` is refused with
    /// [`Error::Overflow`] before anything is written (the bound is the sum of the absolute values
    /// of each chunk). The normalised inverse divides exactly and refuses values that are not
    /// multiples of the length.
    Exact64, i64, "i64", transform_i64, sets_i64, Exact64
);

exact_ring!(
    /// Exact `i128` arithmetic, with the same bound checks as [`Exact64`]; portable code only.
    Exact128, i128, "i128", transform_i128, sets_i128, Exact128
);

/// Within the checked bound, wrapping `u64` arithmetic is exact `i64` arithmetic.
fn transform_i64(ring: &Exact64, data: &mut [i64], log2: u32, backend: Backend, parallel: bool) {
    if !simd::wrap64(bytemuck::cast_slice_mut(data), log2, backend.isa(), parallel) {
        portable_transform(ring, data, log2, parallel);
    }
}

/// The zeta and Möbius transforms of `i64` as wrapping `u64` (exact within the checked bound).
fn sets_i64(data: &mut [i64], log2: u32, kind: u8, backend: Backend, parallel: bool) -> bool {
    simd::sets::wrap64(kind, bytemuck::cast_slice_mut(data), log2, backend.isa(), parallel)
}

/// No SIMD kernel for `i128`.
fn sets_i128(_: &mut [i128], _: u32, _: u8, _: Backend, _: bool) -> bool {
    false
}

fn transform_i128(ring: &Exact128, data: &mut [i128], log2: u32, _: Backend, parallel: bool) {
    portable_transform(ring, data, log2, parallel);
}
