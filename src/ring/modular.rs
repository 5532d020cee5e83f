//! Residues modulo an odd modulus chosen at run time.

use std::fmt;

use num_bigint::BigUint;

use super::{Internal, POW_CHUNK, Ring, first_invalid_from, portable_transform, portable_transform_checked};
use crate::arith::{ExponentRule, Montgomery32, Montgomery64, Shoup32, Shoup64, inverse_power_of_two};
use crate::error::{Error, Result};
use crate::parallel;
use crate::simd::{self, Backend, PARALLEL_MIN};

/// The inverse of `2^log2` modulo an odd word `m` ([`inverse_power_of_two`]).
fn two_power_inverse_word(m: u64, log2: u32) -> u64 {
    u64::try_from(inverse_power_of_two(log2, &m.into())).expect("below m")
}

/// Residues modulo an odd `m < 2^31`, stored as `u32` in `0..m`.
///
/// Additions stay below `2m - 1 < 2^32`, which is what keeps the transform's branch-free
/// reduction `min(s, s - m)` exact. Multiplication uses Montgomery form internally.
///
/// ```
/// use nimcount::ring::{Mod32, Ring};
/// let ring = Mod32::new(998_244_353)?;
/// assert_eq!(ring.sub(0, 1), 998_244_352);
/// assert!(Mod32::new(1 << 31).is_err());
/// assert!(Mod32::new(10).is_err());
/// # Ok::<(), nimcount::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mod32 {
    mont: Montgomery32,
}

impl Mod32 {
    /// The largest accepted modulus, `2^31 - 1`.
    pub const MAX_MODULUS: u32 = (1 << 31) - 1;

    /// The ring of residues modulo `m`; `m` must be odd and below `2^31`.
    pub fn new(m: u32) -> Result<Self> {
        check_modulus(u64::from(m), u64::from(Self::MAX_MODULUS), "2^31")?;
        Ok(Mod32 { mont: Montgomery32::new(m) })
    }

    /// The modulus.
    pub fn modulus(&self) -> u32 {
        self.mont.modulus()
    }

    /// `x mod m`.
    pub fn reduce(&self, x: u64) -> u32 {
        (x % u64::from(self.modulus())) as u32
    }

    /// The Montgomery constants the SIMD kernels take.
    fn constants(&self) -> simd::pointwise::Montgomery32 {
        let mont = self.mont;
        simd::pointwise::Montgomery32 {
            m: mont.modulus(),
            neg_inv: mont.neg_inv(),
            r2: mont.r2(),
            one: mont.one(),
        }
    }
}

/// Refuses an even modulus or one above `max`.
fn check_modulus(m: u64, max: u64, bound: &'static str) -> Result<()> {
    let invalid = |reason| Error::InvalidModulus { modulus: m.to_string(), reason };
    if m.is_multiple_of(2) {
        return Err(invalid(
            "an odd modulus is needed (Montgomery arithmetic; the XOR transform also needs 1/2); the \
             wrapping rings compute modulo powers of two",
        ));
    }
    if m > max {
        return Err(invalid(if bound == "2^31" {
            "the modulus must be below 2^31 (Mod64 takes moduli below 2^63)"
        } else {
            "the modulus must be below 2^63"
        }));
    }
    Ok(())
}

impl fmt::Display for Mod32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "u32 mod {}", self.modulus())
    }
}

impl Ring for Mod32 {
    fn words(&self, _: Internal) -> super::Words<u32> {
        super::Words::Mod32(*self, super::Same::id())
    }

    type Elem = u32;

    fn zero(&self) -> u32 {
        0
    }
    fn one(&self) -> u32 {
        1 % self.modulus()
    }
    /// `a + b < 2m - 1 < 2^32`; `min(s, s - m)` picks `s - m` exactly when `s >= m`
    /// (otherwise `s - m` wraps above `2^31 > s`).
    #[inline]
    fn add(&self, a: u32, b: u32) -> u32 {
        let s = a.wrapping_add(b);
        s.min(s.wrapping_sub(self.modulus()))
    }
    /// `a - b` wraps above `2^32 - m > m` exactly when `a < b`; then `d + m` is the residue.
    #[inline]
    fn sub(&self, a: u32, b: u32) -> u32 {
        let d = a.wrapping_sub(b);
        d.min(d.wrapping_add(self.modulus()))
    }
    #[inline]
    fn mul(&self, a: u32, b: u32) -> u32 {
        self.mont.mul_plain(a, b)
    }
    fn reduce_exponent(&self, k: &BigUint) -> BigUint {
        ExponentRule::for_modulus(u64::from(self.modulus())).reduce(k)
    }
    fn pow(&self, x: u32, k: &BigUint) -> u32 {
        self.mont.pow(x, exponent_u64(&self.reduce_exponent(k)))
    }
    fn is_valid(&self, x: &u32) -> bool {
        *x < self.modulus()
    }
    fn can_halve(&self) -> bool {
        true
    }
    fn divide_by_power_of_two(&self, data: &mut [u32], log2: u32, parallel: bool) -> Result<()> {
        let m = self.modulus();
        let w = Shoup32::new(two_power_inverse_word(u64::from(m), log2) as u32, m);
        parallel::for_each(data, parallel, PARALLEL_MIN, |x| *x = w.mul(*x));
        Ok(())
    }
    fn pow_each(
        &self,
        data: &mut [u32],
        k: &BigUint,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> Result<()> {
        let e = exponent_u64(&self.reduce_exponent(k));
        let mont = self.mont;
        let constants = self.constants();
        parallel::chunks(data, parallel, 2 * POW_CHUNK, |chunk| {
            let done = simd::pointwise::pow_mod32(constants, chunk, e, backend);
            for x in &mut chunk[done..] {
                *x = mont.pow(*x, e);
            }
        });
        Ok(())
    }
    /// `a · b · 2^-log2` with two Montgomery products and no conversion (vectorised).
    fn mul_each_scaled(
        &self,
        a: &mut [u32],
        b: &[u32],
        log2: u32,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> Result<bool> {
        let mont = self.mont;
        let w = two_power_inverse_word(u64::from(mont.modulus()), log2) as u32;
        // w · R² mod m: a Montgomery product with it multiplies by w · R.
        let w_r2 = mont.mul(mont.enter(w), mont.r2());
        let constants = self.constants();
        let b = &b[..a.len()];
        crate::parallel::zip_chunks(a, b, parallel, PARALLEL_MIN, |a, b| {
            let done = simd::pointwise::mul_scaled_mod32(constants, a, b, w_r2, backend);
            for (x, &y) in a[done..].iter_mut().zip(&b[done..]) {
                *x = mont.mul(mont.mul(*x, y), w_r2);
            }
        });
        Ok(true)
    }
    fn transform(&self, data: &mut [u32], log2: u32, backend: Backend, parallel: bool, _: Internal) {
        if !simd::mod32(self.modulus(), data, log2, backend, parallel) {
            portable_transform(self, data, log2, parallel);
        }
    }
    fn transform_sets(
        &self,
        data: &mut [u32],
        log2: u32,
        superset: bool,
        inverse: bool,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> bool {
        let kind = simd::sets::kind(superset, inverse);
        let ran = simd::sets::mod32(self.modulus(), kind, data, log2, backend, parallel);
        if !ran {
            super::portable_sets(self, data, log2, superset, inverse, parallel);
        }
        ran
    }
    fn transform_rows(
        &self,
        rows: &mut [&mut [u32]],
        staggered: bool,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> bool {
        simd::mod32_rows(self.modulus(), rows, staggered, backend, parallel)
    }
    /// Each block is checked as the kernel first loads it (see
    /// [`crate::simd::kernel::transform_checked`]); no pass over memory of its own.
    fn transform_checked(
        &self,
        data: &mut [u32],
        log2: u32,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> std::result::Result<(), usize> {
        let undo = |block: &mut [u32]| {
            let _ = self.divide_by_power_of_two(block, block.len().trailing_zeros(), false);
        };
        match simd::mod32_checked(self.modulus(), data, log2, backend, parallel, &undo) {
            Some(result) => result.map_err(|start| first_invalid_from(self, data, start)),
            None => portable_transform_checked(self, data, log2, parallel, &undo),
        }
    }
}

/// An exponent reduced by a word modulus' rule: below `λ(m) + threshold`, so a word.
fn exponent_u64(e: &BigUint) -> u64 {
    u64::try_from(e).expect("an exponent reduced modulo a word's λ fits in a word")
}

/// Residues modulo an odd `m < 2^63`, stored as `u64` in `0..m`.
///
/// ```
/// use nimcount::ring::{Mod64, Ring};
/// let ring = Mod64::new((1 << 61) - 1)?;
/// assert_eq!(ring.mul(1 << 60, 4), 2);
/// # Ok::<(), nimcount::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mod64 {
    mont: Montgomery64,
}

impl Mod64 {
    /// The largest accepted modulus, `2^63 - 1`.
    pub const MAX_MODULUS: u64 = (1 << 63) - 1;

    /// The ring of residues modulo `m`; `m` must be odd and below `2^63`.
    pub fn new(m: u64) -> Result<Self> {
        check_modulus(m, Self::MAX_MODULUS, "2^63")?;
        Ok(Mod64 { mont: Montgomery64::new(m) })
    }

    /// The modulus.
    pub fn modulus(&self) -> u64 {
        self.mont.modulus()
    }

    /// `x mod m`.
    pub fn reduce(&self, x: u128) -> u64 {
        (x % u128::from(self.modulus())) as u64
    }
}

impl fmt::Display for Mod64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "u64 mod {}", self.modulus())
    }
}

impl Ring for Mod64 {
    type Elem = u64;

    fn zero(&self) -> u64 {
        0
    }
    fn one(&self) -> u64 {
        1 % self.modulus()
    }
    /// Same bounds as [`Mod32`]: `a + b < 2m - 1 < 2^64`.
    #[inline]
    fn add(&self, a: u64, b: u64) -> u64 {
        let s = a.wrapping_add(b);
        s.min(s.wrapping_sub(self.modulus()))
    }
    #[inline]
    fn sub(&self, a: u64, b: u64) -> u64 {
        let d = a.wrapping_sub(b);
        d.min(d.wrapping_add(self.modulus()))
    }
    #[inline]
    fn mul(&self, a: u64, b: u64) -> u64 {
        self.mont.mul_plain(a, b)
    }
    fn reduce_exponent(&self, k: &BigUint) -> BigUint {
        ExponentRule::for_modulus(self.modulus()).reduce(k)
    }
    fn pow(&self, x: u64, k: &BigUint) -> u64 {
        self.mont.pow(x, &exponent_u64(&self.reduce_exponent(k)))
    }
    fn is_valid(&self, x: &u64) -> bool {
        *x < self.modulus()
    }
    fn can_halve(&self) -> bool {
        true
    }
    fn divide_by_power_of_two(&self, data: &mut [u64], log2: u32, parallel: bool) -> Result<()> {
        let m = self.modulus();
        let w = Shoup64::new(two_power_inverse_word(m, log2), m);
        parallel::for_each(data, parallel, PARALLEL_MIN, |x| *x = w.mul(*x));
        Ok(())
    }
    fn pow_each(&self, data: &mut [u64], k: &BigUint, _: Backend, parallel: bool, _: Internal) -> Result<()> {
        let e = exponent_u64(&self.reduce_exponent(k));
        let mont = self.mont;
        parallel::for_each(data, parallel, POW_CHUNK, |x| *x = mont.pow(*x, &e));
        Ok(())
    }
    /// `a · b · 2^-log2`: `(a·b·R⁻¹) · (w·R²) · R⁻¹`, two Montgomery products.
    fn mul_each_scaled(
        &self,
        a: &mut [u64],
        b: &[u64],
        log2: u32,
        _: Backend,
        parallel: bool,
        _: Internal,
    ) -> Result<bool> {
        let mont = self.mont;
        let w = mont.enter(mont.enter(two_power_inverse_word(mont.modulus(), log2)));
        crate::parallel::zip_chunks(a, &b[..a.len()], parallel, PARALLEL_MIN, |a, b| {
            for (x, &y) in a.iter_mut().zip(b) {
                *x = mont.mul(mont.mul(*x, y), w);
            }
        });
        Ok(true)
    }
    fn transform_sets(
        &self,
        data: &mut [u64],
        log2: u32,
        superset: bool,
        inverse: bool,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> bool {
        let kind = simd::sets::kind(superset, inverse);
        let ran = simd::sets::mod64(self.modulus(), kind, data, log2, backend, parallel);
        if !ran {
            super::portable_sets(self, data, log2, superset, inverse, parallel);
        }
        ran
    }
    fn transform_rows(
        &self,
        rows: &mut [&mut [u64]],
        staggered: bool,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> bool {
        simd::mod64_rows(self.modulus(), rows, staggered, backend, parallel)
    }
    fn transform(&self, data: &mut [u64], log2: u32, backend: Backend, parallel: bool, _: Internal) {
        if !simd::mod64(self.modulus(), data, log2, backend, parallel) {
            portable_transform(self, data, log2, parallel);
        }
    }
    /// As for [`Mod32`].
    fn transform_checked(
        &self,
        data: &mut [u64],
        log2: u32,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> std::result::Result<(), usize> {
        let undo = |block: &mut [u64]| {
            let _ = self.divide_by_power_of_two(block, block.len().trailing_zeros(), false);
        };
        match simd::mod64_checked(self.modulus(), data, log2, backend, parallel, &undo) {
            Some(result) => result.map_err(|start| first_invalid_from(self, data, start)),
            None => portable_transform_checked(self, data, log2, parallel, &undo),
        }
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

    /// Every backend's vectorised power against `pow_mod`, on nasty values and exponents, with
    /// lengths that leave a scalar tail, serial and parallel.
    #[test]
    fn powers_on_every_backend_match_pow_mod() {
        for m in [1u32, 3, 9, 2835, 998_244_353, 1_000_000_007, Mod32::MAX_MODULUS] {
            let ring = Mod32::new(m).unwrap();
            let mut x: Vec<u32> = (0..20_000u32).map(|i| i.wrapping_mul(2_654_435_761) % m).collect();
            x.extend([0, 1 % m, m - 1, m / 2, m.saturating_sub(2)].iter().cycle().take(77));
            for e in [0u64, 1, 2, 3, 31, 32, 1 << 31, u64::from(m - 1), u64::from(m), u64::MAX] {
                let expected: Vec<u32> =
                    x.iter().map(|&v| crate::arith::pow_mod(u64::from(v), e, u64::from(m)) as u32).collect();
                for backend in Backend::ALL {
                    if !backend.is_available() {
                        eprintln!("SKIPPED: powers on {backend} (this CPU lacks it)");
                        continue;
                    }
                    for parallel in [false, true] {
                        let mut y = x.clone();
                        ring.pow_each(&mut y, &e.into(), backend, parallel, Internal(())).unwrap();
                        assert_eq!(y, expected, "m = {m}, e = {e}, {backend}");
                    }
                }
            }
        }
        let ring = Mod64::new((1 << 61) - 1).unwrap();
        let x: Vec<u64> =
            (0..1000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % ((1 << 61) - 1)).collect();
        let mut y = x.clone();
        ring.pow_each(&mut y, &12345u32.into(), Backend::best(), true, Internal(())).unwrap();
        let expected: Vec<u64> = x.iter().map(|&v| crate::arith::pow_mod(v, 12345, (1 << 61) - 1)).collect();
        assert_eq!(y, expected);
    }

    #[test]
    fn halving_is_multiplication_by_the_inverse_of_a_power_of_two() {
        for m in [1u32, 3, 998_244_353, Mod32::MAX_MODULUS] {
            let ring = Mod32::new(m).unwrap();
            for log2 in [0, 1, 5, 31, 40] {
                let mut data: Vec<u32> = [0, 1, m / 2, m - 1].iter().map(|&x| x % m).collect();
                let original = data.clone();
                ring.divide_by_power_of_two(&mut data, log2, false).unwrap();
                let two_pow = crate::arith::pow_mod(2, u64::from(log2), u64::from(m)) as u32;
                let back: Vec<u32> = data.iter().map(|&x| ring.mul(x, two_pow)).collect();
                assert_eq!(back, original, "m = {m}, log2 = {log2}");
            }
        }
        for m in [1u64, 3, Mod64::MAX_MODULUS] {
            let ring = Mod64::new(m).unwrap();
            let mut data = vec![0, 1 % m, m / 2, m - 1];
            let original = data.clone();
            ring.divide_by_power_of_two(&mut data, 63, true).unwrap();
            let two_pow = crate::arith::pow_mod(2, 63, m);
            let back: Vec<u64> = data.iter().map(|&x| ring.mul(x, two_pow)).collect();
            assert_eq!(back, original, "m = {m}");
        }
    }
}
