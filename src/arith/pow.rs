//! Square-and-multiply, once for every kind of element and exponent.

use num_bigint::BigUint;

/// An exponent: its bits, most significant first.
pub trait Exponent {
    /// The number of significant bits (0 for the exponent 0).
    fn bits(&self) -> u64;
    /// Bit `i` (0 = least significant).
    fn bit(&self, i: u64) -> bool;
}

impl Exponent for u64 {
    fn bits(&self) -> u64 {
        u64::from(u64::BITS - self.leading_zeros())
    }
    fn bit(&self, i: u64) -> bool {
        i < 64 && (self >> i) & 1 == 1
    }
}

impl Exponent for BigUint {
    fn bits(&self) -> u64 {
        BigUint::bits(self)
    }
    fn bit(&self, i: u64) -> bool {
        BigUint::bit(self, i)
    }
}

/// `x^e` by square-and-multiply over the bits of `e`, most significant first, starting from
/// `one` (so `x^0 = one`, also for `x = 0`). `mul` is the multiplication of the ring; `x` is not
/// reduced, so the exponent must already be as the caller wants it (see
/// [`ExponentRule`](super::ExponentRule) for reducing huge ones).
///
/// ```
/// use nimcount::arith::square_and_multiply;
/// let m = 1_000_000_007u64;
/// let p = square_and_multiply(3u64, &(m - 1), 1, |a, b| a * b % m);
/// assert_eq!(p, 1); // Fermat
/// ```
#[inline]
pub fn square_and_multiply<T: Clone>(x: T, e: &impl Exponent, one: T, mul: impl Fn(&T, &T) -> T) -> T {
    let mut acc = one;
    for i in (0..e.bits()).rev() {
        acc = mul(&acc, &acc);
        if e.bit(i) {
            acc = mul(&acc, &x);
        }
    }
    acc
}
