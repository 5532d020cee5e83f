//! The rings the transform works over.
//!
//! A ring is a small `Copy` value that holds what the arithmetic needs (a modulus and its
//! precomputed constants, or nothing at all); its elements are plain primitives, so a buffer is
//! just a `&mut [u32]`, `&mut [f64]`, … — and a file's bytes can be viewed as one in place with
//! `bytemuck`.
//!
//! | ring | element | accepted values | `1/2`? | SIMD |
//! |---|---|---|---|---|
//! | [`Mod32`] | `u32` | residues `0..m` modulo an odd `m < 2^31` | yes | AVX2, AVX-512 |
//! | [`Mod64`] | `u64` | residues `0..m` modulo an odd `m < 2^63` | yes | AVX2, AVX-512 |
//! | [`Wrap32`] | `u32` | every value; arithmetic modulo `2^32` | no | AVX2, AVX-512 |
//! | [`Wrap64`] | `u64` | every value; arithmetic modulo `2^64` | no | AVX2, AVX-512 |
//! | [`Exact64`] | `i64` | every value; a transform that could overflow is refused | exact division | AVX2, AVX-512 |
//! | [`Exact128`] | `i128` | every value; a transform that could overflow is refused | exact division | scalar |
//! | [`Float32`] | `f32` | every value (IEEE arithmetic) | yes | AVX2, AVX-512 |
//! | [`Float64`] | `f64` | every value (IEEE arithmetic) | yes | AVX2, AVX-512 |
//!
//! Values outside a ring's accepted set (a residue `>= m`) are a logic error: the transform stays
//! memory-safe but its output is unspecified. [`Ring::validate`] checks untrusted data.

/// A ring without parameters: a unit struct that prints as its command-line name.
macro_rules! unit_ring {
    ($(#[$doc:meta])* $name:ident, $label:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($label)
            }
        }
    };
}

mod exact;
mod float;
mod modular;
mod wrapping;

use std::fmt;

use num_bigint::BigUint;

pub use exact::{Exact64, Exact128};
pub use float::{Float32, Float64};
pub use modular::{Mod32, Mod64};
pub use wrapping::{Wrap32, Wrap64};

use crate::error::{Error, Result};
use crate::fwht::{Backend, Internal};

/// A commutative ring with the operations the Walsh–Hadamard transform and XOR powers need.
///
/// The built-in rings override the hidden `transform` hook with SIMD kernels; a user-defined ring
/// gets a portable, cache-blocked kernel built from [`add`](Ring::add) and [`sub`](Ring::sub).
///
/// ```
/// use nimcount::ring::{Ring, Mod32};
/// let ring = Mod32::new(7).unwrap();
/// assert_eq!(ring.add(5, 4), 2);
/// assert_eq!(ring.sub(2, 5), 4);
/// assert_eq!(ring.mul(3, 5), 1);
/// ```
pub trait Ring: Copy + Send + Sync + fmt::Debug + fmt::Display + 'static {
    /// The element type stored in buffers.
    type Elem: bytemuck::Pod + PartialEq + fmt::Debug + fmt::Display + Send + Sync;

    /// The additive identity.
    fn zero(&self) -> Self::Elem;
    /// The multiplicative identity (`0` in the ring modulo 1).
    fn one(&self) -> Self::Elem;
    /// `a + b`.
    fn add(&self, a: Self::Elem, b: Self::Elem) -> Self::Elem;
    /// `a - b`.
    fn sub(&self, a: Self::Elem, b: Self::Elem) -> Self::Elem;
    /// `a · b`.
    fn mul(&self, a: Self::Elem, b: Self::Elem) -> Self::Elem;

    /// `a · b`, or `None` where the product leaves the ring's range (only the exact integer
    /// rings have such products).
    fn checked_mul(&self, a: Self::Elem, b: Self::Elem) -> Option<Self::Elem> {
        Some(self.mul(a, b))
    }

    /// Whether `x` is one of the values this ring accepts (a canonical residue, for example).
    fn is_valid(&self, x: Self::Elem) -> bool;

    /// Checks that every element of `data` is accepted, naming the first one that is not.
    fn validate(&self, data: &[Self::Elem]) -> Result<()> {
        match data.iter().position(|&x| !self.is_valid(x)) {
            None => Ok(()),
            Some(index) => {
                Err(Error::ValueOutOfRange { value: data[index].to_string(), index, ring: self.to_string() })
            }
        }
    }

    /// Whether [`divide_by_power_of_two`](Ring::divide_by_power_of_two) can succeed at all
    /// (false for the wrapping rings, where 2 is not invertible).
    fn can_halve(&self) -> bool;

    /// Divides every element by `2^log2`: multiplication by the inverse of `2^log2`, or exact
    /// division for the integer rings (an error when some element is not divisible).
    fn divide_by_power_of_two(&self, data: &mut [Self::Elem], log2: u32) -> Result<()>;

    /// Checks, before anything is written, that transforming chunks of `2^log2` elements of
    /// `data` stays inside the ring's range. Only the exact integer rings can fail.
    fn check_transform(&self, data: &[Self::Elem], log2: u32) -> Result<()> {
        let _ = (data, log2);
        Ok(())
    }

    /// Raises every element to the power `k` (`x^0 = 1`, also for `x = 0`).
    ///
    /// The default multiplies by squaring with the full exponent; the built-in rings first reduce
    /// `k` with a rule that holds for every element (see [`crate::arith::ExponentRule`]).
    fn pow(&self, data: &mut [Self::Elem], k: &BigUint) -> Result<()> {
        for x in data.iter_mut() {
            *x = pow_by_squaring(self, *x, k);
        }
        Ok(())
    }

    /// The transform kernel for this ring; built-in rings dispatch to SIMD code here. Only
    /// nimcount can call it (it needs an [`Internal`] token): use [`crate::fwht::Plan`].
    #[doc(hidden)]
    fn transform(&self, data: &mut [Self::Elem], log2: u32, backend: Backend, parallel: bool, _: Internal) {
        let _ = backend;
        crate::fwht::scalar::transform(*self, data, log2, parallel);
    }
}

/// `x^k` by square-and-multiply over the bits of `k`, most significant first.
pub(crate) fn pow_by_squaring<R: Ring>(ring: &R, x: R::Elem, k: &BigUint) -> R::Elem {
    let mut result = ring.one();
    for i in (0..k.bits()).rev() {
        result = ring.mul(result, result);
        if k.bit(i) {
            result = ring.mul(result, x);
        }
    }
    result
}

/// The names the command-line tool uses for the rings.
pub const RING_NAMES: [&str; 8] = ["u32", "u64", "wrap32", "wrap64", "i64", "i128", "f32", "f64"];
