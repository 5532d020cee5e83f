//! Residues modulo an odd modulus chosen at run time.

use std::fmt;

use num_bigint::BigUint;

use super::Ring;
use crate::arith::ExponentRule;
use crate::error::{Error, Result};
use crate::fwht::{Backend, Internal};

/// Residues modulo an odd `m < 2^31`, stored as `u32` in `0..m`.
///
/// Additions stay below `2m - 1 < 2^32`, which is what keeps the transform's branch-free
/// reduction `min(s, s - m)` exact. Multiplication uses Montgomery form internally.
///
/// ```
/// use nimcount::ring::{Mod32, Ring};
/// let ring = Mod32::new(998_244_353).unwrap();
/// assert_eq!(ring.sub(0, 1), 998_244_352);
/// assert!(Mod32::new(1 << 31).is_err());
/// assert!(Mod32::new(10).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mod32 {
    m: u32,
    /// `-m⁻¹ mod 2^32`.
    m_neg_inv: u32,
    /// `2^64 mod m`: multiplying by it in Montgomery form enters Montgomery form.
    r2: u32,
}

impl Mod32 {
    /// The largest accepted modulus, `2^31 - 1`.
    pub const MAX_MODULUS: u32 = (1 << 31) - 1;

    /// The ring of residues modulo `m`; `m` must be odd and below `2^31`.
    pub fn new(m: u32) -> Result<Self> {
        let invalid = |reason| Error::InvalidModulus { modulus: m.to_string(), reason };
        if m.is_multiple_of(2) {
            return Err(invalid("the u32 ring needs an odd modulus (use wrap32 for arithmetic modulo 2^32)"));
        }
        if m > Self::MAX_MODULUS {
            return Err(invalid("the u32 ring needs a modulus below 2^31 (use the u64 ring)"));
        }
        let r = (1u64 << 32) % u64::from(m);
        Ok(Mod32 { m, m_neg_inv: newton_inverse_u32(m).wrapping_neg(), r2: ((r * r) % u64::from(m)) as u32 })
    }

    /// The modulus.
    pub fn modulus(&self) -> u32 {
        self.m
    }

    /// `x mod m`.
    pub fn reduce(&self, x: u64) -> u32 {
        (x % u64::from(self.m)) as u32
    }

    /// `-m⁻¹ mod 2^32`, the Montgomery constant.
    pub(crate) fn m_neg_inv(&self) -> u32 {
        self.m_neg_inv
    }

    /// Montgomery reduction: `t · 2^-32 mod m` for `t < m · 2^32`.
    ///
    /// With `q = t · (-m⁻¹) mod 2^32`, `t + q·m` is divisible by `2^32` and below `2m · 2^32`,
    /// so one conditional subtraction lands in `0..m`.
    #[inline]
    pub(crate) fn redc(&self, t: u64) -> u32 {
        let q = (t as u32).wrapping_mul(self.m_neg_inv);
        let r = ((t + u64::from(q) * u64::from(self.m)) >> 32) as u32;
        if r >= self.m { r - self.m } else { r }
    }

    /// `a · b · 2^-32 mod m`.
    #[inline]
    pub(crate) fn mont_mul(&self, a: u32, b: u32) -> u32 {
        self.redc(u64::from(a) * u64::from(b))
    }

    /// Enters Montgomery form: `x · 2^32 mod m`.
    #[inline]
    pub(crate) fn enter_mont(self, x: u32) -> u32 {
        self.mont_mul(x, self.r2)
    }

    /// Leaves Montgomery form.
    #[inline]
    pub(crate) fn leave_mont(&self, x: u32) -> u32 {
        self.redc(u64::from(x))
    }

    /// `2^-log2 mod m`.
    fn inverse_power_of_two(&self, log2: u32) -> u32 {
        let half = u64::from(self.m / 2 + 1); // (m + 1) / 2 = 2⁻¹
        crate::arith::pow_mod(half, u64::from(log2), u64::from(self.m)) as u32
    }

    /// The exponent that replaces `k` for every base (see [`ExponentRule`]).
    pub fn reduce_exponent(&self, k: &BigUint) -> u64 {
        ExponentRule::for_modulus(u64::from(self.m)).reduce_u64(k).expect("λ(m) < 2^31")
    }
}

/// `m⁻¹ mod 2^32` for odd `m`: each Newton step doubles the number of correct low bits
/// (`m · m ≡ 1 mod 8` gives 3, then 6, 12, 24, 48).
fn newton_inverse_u32(m: u32) -> u32 {
    let mut inv = m;
    for _ in 0..4 {
        inv = inv.wrapping_mul(2u32.wrapping_sub(m.wrapping_mul(inv)));
    }
    debug_assert_eq!(m.wrapping_mul(inv), 1);
    inv
}

/// `m⁻¹ mod 2^64` for odd `m`.
fn newton_inverse_u64(m: u64) -> u64 {
    let mut inv = m;
    for _ in 0..5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(inv)));
    }
    debug_assert_eq!(m.wrapping_mul(inv), 1);
    inv
}

impl fmt::Display for Mod32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "u32 mod {}", self.m)
    }
}

impl Ring for Mod32 {
    type Elem = u32;

    fn zero(&self) -> u32 {
        0
    }
    fn one(&self) -> u32 {
        1 % self.m
    }
    /// `a + b < 2m - 1 < 2^32`; `min(s, s - m)` picks `s - m` exactly when `s >= m`
    /// (otherwise `s - m` wraps above `2^31 > s`).
    #[inline]
    fn add(&self, a: u32, b: u32) -> u32 {
        let s = a.wrapping_add(b);
        s.min(s.wrapping_sub(self.m))
    }
    /// `a - b` wraps above `2^32 - m > m` exactly when `a < b`; then `d + m` is the residue.
    #[inline]
    fn sub(&self, a: u32, b: u32) -> u32 {
        let d = a.wrapping_sub(b);
        d.min(d.wrapping_add(self.m))
    }
    #[inline]
    fn mul(&self, a: u32, b: u32) -> u32 {
        ((u64::from(a) * u64::from(b)) % u64::from(self.m)) as u32
    }
    fn is_valid(&self, x: u32) -> bool {
        x < self.m
    }
    fn can_halve(&self) -> bool {
        true
    }
    fn divide_by_power_of_two(&self, data: &mut [u32], log2: u32) -> Result<()> {
        let (w, m) = (ShoupFactor32::new(self.inverse_power_of_two(log2), self.m), self.m);
        crate::fwht::pointwise::for_each_parallel(data, |x| *x = w.mul(*x, m));
        Ok(())
    }
    fn pow(&self, data: &mut [u32], k: &BigUint) -> Result<()> {
        crate::fwht::pointwise::pow_mod32(self, data, self.reduce_exponent(k))
    }
    fn transform(&self, data: &mut [u32], log2: u32, backend: Backend, parallel: bool, _: Internal) {
        crate::fwht::dispatch::mod32(self, data, log2, backend, parallel);
    }
}

/// Multiplication by a fixed `w < m` with Shoup's precomputed quotient `⌊w · 2^32 / m⌋`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ShoupFactor32 {
    w: u32,
    w_quotient: u32,
}

impl ShoupFactor32 {
    pub(crate) fn new(w: u32, m: u32) -> Self {
        ShoupFactor32 { w, w_quotient: ((u64::from(w) << 32) / u64::from(m)) as u32 }
    }

    /// `x · w mod m` for `x < m`: the estimated quotient is short by at most one, so
    /// `x·w - q·m` lies in `0..2m` and one conditional subtraction finishes.
    #[inline]
    pub(crate) fn mul(&self, x: u32, m: u32) -> u32 {
        let q = ((u64::from(x) * u64::from(self.w_quotient)) >> 32) as u32;
        let r = x.wrapping_mul(self.w).wrapping_sub(q.wrapping_mul(m));
        if r >= m { r - m } else { r }
    }
}

/// Residues modulo an odd `m < 2^63`, stored as `u64` in `0..m`.
///
/// ```
/// use nimcount::ring::{Mod64, Ring};
/// let ring = Mod64::new((1 << 61) - 1).unwrap();
/// assert_eq!(ring.mul(1 << 60, 4), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mod64 {
    m: u64,
    /// `-m⁻¹ mod 2^64`.
    m_neg_inv: u64,
    /// `2^128 mod m`.
    r2: u64,
}

impl Mod64 {
    /// The largest accepted modulus, `2^63 - 1`.
    pub const MAX_MODULUS: u64 = (1 << 63) - 1;

    /// The ring of residues modulo `m`; `m` must be odd and below `2^63`.
    pub fn new(m: u64) -> Result<Self> {
        let invalid = |reason| Error::InvalidModulus { modulus: m.to_string(), reason };
        if m.is_multiple_of(2) {
            return Err(invalid("the u64 ring needs an odd modulus (use wrap64 for arithmetic modulo 2^64)"));
        }
        if m > Self::MAX_MODULUS {
            return Err(invalid("the u64 ring needs a modulus below 2^63"));
        }
        let r = (1u128 << 64) % u128::from(m);
        Ok(Mod64 { m, m_neg_inv: newton_inverse_u64(m).wrapping_neg(), r2: ((r * r) % u128::from(m)) as u64 })
    }

    /// The modulus.
    pub fn modulus(&self) -> u64 {
        self.m
    }

    /// `x mod m`.
    pub fn reduce(&self, x: u128) -> u64 {
        (x % u128::from(self.m)) as u64
    }

    /// Montgomery reduction `t · 2^-64 mod m` for `t < m · 2^64` (same argument as [`Mod32`]).
    #[inline]
    pub(crate) fn redc(&self, t: u128) -> u64 {
        let q = (t as u64).wrapping_mul(self.m_neg_inv);
        let r = ((t + u128::from(q) * u128::from(self.m)) >> 64) as u64;
        if r >= self.m { r - self.m } else { r }
    }

    #[inline]
    pub(crate) fn mont_mul(&self, a: u64, b: u64) -> u64 {
        self.redc(u128::from(a) * u128::from(b))
    }

    /// The exponent that replaces `k` for every base (see [`ExponentRule`]).
    pub fn reduce_exponent(&self, k: &BigUint) -> u64 {
        ExponentRule::for_modulus(self.m).reduce_u64(k).expect("λ(m) < 2^63")
    }
}

impl fmt::Display for Mod64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "u64 mod {}", self.m)
    }
}

impl Ring for Mod64 {
    type Elem = u64;

    fn zero(&self) -> u64 {
        0
    }
    fn one(&self) -> u64 {
        1 % self.m
    }
    /// Same bounds as [`Mod32`]: `a + b < 2m - 1 < 2^64`.
    #[inline]
    fn add(&self, a: u64, b: u64) -> u64 {
        let s = a.wrapping_add(b);
        s.min(s.wrapping_sub(self.m))
    }
    #[inline]
    fn sub(&self, a: u64, b: u64) -> u64 {
        let d = a.wrapping_sub(b);
        d.min(d.wrapping_add(self.m))
    }
    /// Two Montgomery reductions: `(a·b·2^-64) · 2^128 · 2^-64 = a·b`.
    #[inline]
    fn mul(&self, a: u64, b: u64) -> u64 {
        self.mont_mul(self.mont_mul(a, b), self.r2)
    }
    fn is_valid(&self, x: u64) -> bool {
        x < self.m
    }
    fn can_halve(&self) -> bool {
        true
    }
    fn divide_by_power_of_two(&self, data: &mut [u64], log2: u32) -> Result<()> {
        let half = self.m / 2 + 1;
        let w = crate::arith::pow_mod(half, u64::from(log2), self.m);
        let w_quotient = ((u128::from(w) << 64) / u128::from(self.m)) as u64;
        let m = self.m;
        crate::fwht::pointwise::for_each_parallel(data, |x| {
            // Shoup: as in ShoupFactor32, the remainder lies in 0..2m.
            let q = ((u128::from(*x) * u128::from(w_quotient)) >> 64) as u64;
            let r = x.wrapping_mul(w).wrapping_sub(q.wrapping_mul(m));
            *x = if r >= m { r - m } else { r };
        });
        Ok(())
    }
    fn pow(&self, data: &mut [u64], k: &BigUint) -> Result<()> {
        let e = self.reduce_exponent(k);
        let one = self.mont_mul(1 % self.m, self.r2); // 2^64 mod m
        crate::fwht::pointwise::for_each_parallel(data, |x| {
            let base = self.mont_mul(*x, self.r2);
            let mut acc = one;
            for i in (0..u64::BITS - e.leading_zeros()).rev() {
                acc = self.mont_mul(acc, acc);
                if (e >> i) & 1 == 1 {
                    acc = self.mont_mul(acc, base);
                }
            }
            *x = self.redc(u128::from(acc));
        });
        Ok(())
    }
    fn transform(&self, data: &mut [u64], log2: u32, backend: Backend, parallel: bool, _: Internal) {
        crate::fwht::dispatch::mod64(self, data, log2, backend, parallel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRIMES32: [u32; 4] = [3, 65_537, 998_244_353, 2_147_483_647];

    #[test]
    fn moduli_outside_the_range_are_refused() {
        for m in [0, 2, 1 << 31, u32::MAX - 1] {
            assert!(Mod32::new(m).is_err(), "{m}");
        }
        assert!(Mod32::new(u32::MAX).is_err());
        for m in [0, 2, 1 << 63, u64::MAX] {
            assert!(Mod64::new(m).is_err(), "{m}");
        }
        assert!(Mod32::new(1).is_ok() && Mod64::new(1).is_ok());
    }

    #[test]
    fn mod32_arithmetic_matches_u64_reference_on_nasty_values() {
        for m in PRIMES32.into_iter().chain([1, 9, 15, 999_999_999, Mod32::MAX_MODULUS - 2]) {
            let ring = Mod32::new(m).unwrap();
            let nasty = [0, 1, 2, m / 2, m / 2 + 1, m.saturating_sub(2), m - 1];
            for &a in nasty.iter().filter(|&&a| a < m) {
                for &b in nasty.iter().filter(|&&b| b < m) {
                    let (a64, b64, m64) = (u64::from(a), u64::from(b), u64::from(m));
                    assert_eq!(u64::from(ring.add(a, b)), (a64 + b64) % m64);
                    assert_eq!(u64::from(ring.sub(a, b)), (a64 + m64 - b64) % m64);
                    assert_eq!(u64::from(ring.mul(a, b)), a64 * b64 % m64);
                    assert_eq!(
                        ring.leave_mont(ring.mont_mul(ring.enter_mont(a), ring.enter_mont(b))),
                        ring.mul(a, b)
                    );
                }
            }
        }
    }

    #[test]
    fn mod64_arithmetic_matches_u128_reference_on_nasty_values() {
        for m in [1u64, 3, 1_000_000_007, (1 << 61) - 1, Mod64::MAX_MODULUS, Mod64::MAX_MODULUS - 2] {
            let ring = Mod64::new(m).unwrap();
            let nasty = [0, 1, 2, m / 2, m / 2 + 1, m.saturating_sub(2), m - 1];
            for &a in nasty.iter().filter(|&&a| a < m) {
                for &b in nasty.iter().filter(|&&b| b < m) {
                    let (a1, b1, m1) = (u128::from(a), u128::from(b), u128::from(m));
                    assert_eq!(u128::from(ring.add(a, b)), (a1 + b1) % m1);
                    assert_eq!(u128::from(ring.sub(a, b)), (a1 + m1 - b1) % m1);
                    assert_eq!(u128::from(ring.mul(a, b)), a1 * b1 % m1);
                }
            }
        }
    }

    #[test]
    fn halving_is_multiplication_by_the_inverse_of_a_power_of_two() {
        for m in [1u32, 3, 998_244_353, Mod32::MAX_MODULUS] {
            let ring = Mod32::new(m).unwrap();
            for log2 in [0, 1, 5, 31, 40] {
                let mut data: Vec<u32> = [0, 1, m / 2, m - 1].iter().map(|&x| x % m).collect();
                let original = data.clone();
                ring.divide_by_power_of_two(&mut data, log2).unwrap();
                let two_pow = crate::arith::pow_mod(2, u64::from(log2), u64::from(m)) as u32;
                let back: Vec<u32> = data.iter().map(|&x| ring.mul(x, two_pow)).collect();
                assert_eq!(back, original, "m = {m}, log2 = {log2}");
            }
        }
        for m in [1u64, 3, Mod64::MAX_MODULUS] {
            let ring = Mod64::new(m).unwrap();
            let mut data = vec![0, 1 % m, m / 2, m - 1];
            let original = data.clone();
            ring.divide_by_power_of_two(&mut data, 63).unwrap();
            let two_pow = crate::arith::pow_mod(2, 63, m);
            let back: Vec<u64> = data.iter().map(|&x| ring.mul(x, two_pow)).collect();
            assert_eq!(back, original, "m = {m}");
        }
    }
}
