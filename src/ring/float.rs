//! IEEE floating point.

use std::fmt;

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::Ring;
use crate::error::Result;
use crate::fwht::Backend;

macro_rules! float_ring {
    ($(#[$doc:meta])* $name:ident, $elem:ty, $label:expr, $dispatch:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str($label)
            }
        }

        impl Ring for $name {
            type Elem = $elem;

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
            fn is_valid(&self, _: $elem) -> bool {
                true
            }
            fn can_halve(&self) -> bool {
                true
            }
            /// Multiplies by `2^-log2`, exactly (barring underflow).
            fn divide_by_power_of_two(&self, data: &mut [$elem], log2: u32) -> Result<()> {
                let scale = (-(log2 as i32)).clamp(-2000, 0);
                let factor = (2.0 as $elem).powi(scale);
                data.iter_mut().for_each(|x| *x *= factor);
                Ok(())
            }
            /// `powi` while `k` fits in an `i32`; beyond that the magnitude comes from `powf`
            /// and the sign from the parity of `k`.
            fn pow(&self, data: &mut [$elem], k: &BigUint) -> Result<()> {
                match k.to_i32() {
                    Some(k) => data.iter_mut().for_each(|x| *x = x.powi(k)),
                    None => {
                        let odd = k.bit(0);
                        let kf = k.to_f64().unwrap_or(f64::INFINITY) as $elem;
                        for x in data.iter_mut() {
                            let magnitude = x.abs().powf(kf);
                            *x = if odd && x.is_sign_negative() { -magnitude } else { magnitude };
                        }
                    }
                }
                Ok(())
            }
            fn transform(&self, data: &mut [$elem], log2: u32, backend: Backend, parallel: bool) {
                crate::fwht::dispatch::$dispatch(data, log2, backend, parallel);
            }
        }
    };
}

float_ring!(
    /// IEEE single precision. Every backend performs the same operations in the same order
    /// (ascending levels, `a + b` and `a - b`), so results are bit-identical across backends
    /// and to the textbook loop.
    Float32, f32, "f32", f32
);

float_ring!(
    /// IEEE double precision, with the same bit-exactness across backends as [`Float32`].
    Float64, f64, "f64", f64
);
