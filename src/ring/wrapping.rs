//! Arithmetic modulo 2^32 and 2^64 (wrapping machine integers).

use num_bigint::BigUint;

use super::Ring;
use crate::arith::ExponentRule;
use crate::error::{Error, Result};
use crate::fwht::{Backend, Internal};

macro_rules! wrapping_ring {
    ($(#[$doc:meta])* $name:ident, $elem:ty, $bits:expr, $label:expr, $dispatch:ident) => {
        unit_ring!($(#[$doc])* $name, $label);

        impl Ring for $name {
            type Elem = $elem;

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
            fn is_valid(&self, _: $elem) -> bool {
                true
            }
            fn can_halve(&self) -> bool {
                false
            }
            /// Only `2^0 = 1` is invertible modulo `2^bits`.
            fn divide_by_power_of_two(&self, _: &mut [$elem], log2: u32) -> Result<()> {
                if log2 == 0 { Ok(()) } else { Err(Error::NoInverseOfTwo { ring: self.to_string() }) }
            }
            /// Reduces `k` with `λ(2^bits) = 2^(bits-2)` and threshold `bits`: an even base
            /// vanishes once `k >= bits`, an odd one has order dividing `2^(bits-2)`.
            fn pow(&self, data: &mut [$elem], k: &BigUint) -> Result<()> {
                let e = ExponentRule::for_power_of_two($bits).reduce_u64(k).expect("exponent below 2^63");
                for x in data.iter_mut() {
                    *x = pow_wrapping(*x, e);
                }
                Ok(())
            }
            fn transform(&self, data: &mut [$elem], log2: u32, backend: Backend, parallel: bool, _: Internal) {
                crate::fwht::dispatch::$dispatch(data, log2, backend, parallel);
            }
        }
    };
}

/// `x^e` with wrapping multiplication, for any unsigned machine integer.
fn pow_wrapping<T>(x: T, mut e: u64) -> T
where
    T: Copy + num_traits::WrappingMul + num_traits::One,
{
    let (mut base, mut acc) = (x, T::one());
    while e > 0 {
        if e & 1 == 1 {
            acc = acc.wrapping_mul(&base);
        }
        base = base.wrapping_mul(&base);
        e >>= 1;
    }
    acc
}

wrapping_ring!(
    /// Arithmetic modulo `2^32` on `u32` (every value is accepted).
    ///
    /// Two is not invertible: the forward and the unnormalised inverse transforms exist, the
    /// normalised inverse is refused with [`Error::NoInverseOfTwo`].
    Wrap32, u32, 32, "wrap32", wrap32
);

wrapping_ring!(
    /// Arithmetic modulo `2^64` on `u64` (every value is accepted).
    ///
    /// Two is not invertible: the forward and the unnormalised inverse transforms exist, the
    /// normalised inverse is refused with [`Error::NoInverseOfTwo`].
    Wrap64, u64, 64, "wrap64", wrap64
);
