//! Exact signed integers, with overflow refused before it can happen.

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::Ring;
use crate::error::{Error, Result};
use crate::fwht::{Backend, Internal};

macro_rules! exact_ring {
    ($(#[$doc:meta])* $name:ident, $elem:ty, $label:expr, $transform:path) => {
        unit_ring!($(#[$doc])* $name, $label);

        impl $name {
            /// The overflow error for `what`.
            fn overflow(&self, what: &'static str, detail: String) -> Error {
                Error::Overflow { what, ring: self.to_string(), detail }
            }
        }

        impl Ring for $name {
            type Elem = $elem;

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
            fn is_valid(&self, _: $elem) -> bool {
                true
            }
            fn can_halve(&self) -> bool {
                true
            }
            /// Exact division: every element must be a multiple of `2^log2`, or nothing changes
            /// and the first offender is reported.
            fn divide_by_power_of_two(&self, data: &mut [$elem], log2: u32) -> Result<()> {
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
                crate::fwht::pointwise::for_each_parallel(data, |x| *x >>= shift);
                Ok(())
            }
            /// Every value of a transform of a chunk is a signed sum of the chunk's elements, so
            /// the sum of absolute values bounds all of them, intermediate ones included.
            fn check_transform(&self, data: &[$elem], log2: u32) -> Result<()> {
                use rayon::prelude::*;
                let sum = |xs: &[$elem]| xs.iter().try_fold(0u128, |acc, x| acc.checked_add(x.unsigned_abs() as u128));
                let len = 1usize << log2;
                for (c, chunk) in data.chunks(len).enumerate() {
                    let total = if chunk.len() >= 2 * crate::fwht::PARALLEL_MIN {
                        chunk
                            .par_chunks(crate::fwht::PARALLEL_MIN)
                            .map(sum)
                            .try_reduce(|| 0, |a, b| a.checked_add(b))
                    } else {
                        sum(chunk)
                    };
                    if total.is_none_or(|t| t > <$elem>::MAX as u128) {
                        return Err(self.overflow(
                            "transform",
                            format!("the absolute values of chunk {c} sum to more than {}", <$elem>::MAX),
                        ));
                    }
                }
                Ok(())
            }
            /// Exact powers: `0`, `1` and `-1` for every `k`; other bases while the result fits.
            fn pow(&self, data: &mut [$elem], k: &BigUint) -> Result<()> {
                let small_k = k.to_u32();
                let mut out = Vec::with_capacity(data.len());
                for &x in data.iter() {
                    let y = match (x, small_k) {
                        (_, Some(0)) => Some(1),
                        (0 | 1, _) => Some(x),
                        (-1, _) => Some(if k.bit(0) { -1 } else { 1 }),
                        (_, Some(e)) => x.checked_pow(e),
                        (_, None) => None,
                    };
                    out.push(y.ok_or_else(|| self.overflow("power", format!("{x}^{k}")))?);
                }
                data.copy_from_slice(&out);
                Ok(())
            }
            fn transform(&self, data: &mut [$elem], log2: u32, backend: Backend, parallel: bool, _: Internal) {
                $transform(data, log2, backend, parallel);
            }
        }
    };
}

exact_ring!(
    /// Exact `i64` arithmetic. A transform whose values could leave `i64` is refused with
    /// [`Error::Overflow`] before anything is written (the bound is the sum of the absolute values
    /// of each chunk). The normalised inverse divides exactly and refuses values that are not
    /// multiples of the length.
    Exact64, i64, "i64", transform_i64
);

exact_ring!(
    /// Exact `i128` arithmetic, with the same bound checks as [`Exact64`]; portable code only.
    Exact128, i128, "i128", transform_i128
);

/// Within the checked bound, wrapping `u64` arithmetic is exact `i64` arithmetic.
fn transform_i64(data: &mut [i64], log2: u32, backend: Backend, parallel: bool) {
    crate::fwht::dispatch::wrap64(bytemuck::cast_slice_mut(data), log2, backend, parallel);
}

fn transform_i128(data: &mut [i128], log2: u32, _: Backend, parallel: bool) {
    crate::fwht::scalar::transform(Exact128, data, log2, parallel);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_division_by_the_largest_powers_of_two() {
        let mut x = vec![i64::MIN, 0];
        Exact64.divide_by_power_of_two(&mut x, 63).unwrap();
        assert_eq!(x, [-1, 0]);
        assert!(Exact64.divide_by_power_of_two(&mut [1i64 << 62], 63).is_err());
        let mut x = vec![0i64, 0];
        Exact64.divide_by_power_of_two(&mut x, 200).unwrap();
        assert_eq!(x, [0, 0]);
        assert!(Exact64.divide_by_power_of_two(&mut [i64::MIN], 64).is_err());
        let mut y = vec![i128::MIN, 0];
        Exact128.divide_by_power_of_two(&mut y, 127).unwrap();
        assert_eq!(y, [-1, 0]);
    }
}
