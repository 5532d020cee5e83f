//! Residues modulo an odd modulus chosen at run time: [`Modular`], written once over the
//! machine word, with [`Mod32`] and [`Mod64`] its two instances.

use std::fmt;

use num_bigint::BigUint;

use super::{
    Internal, POW_CHUNK, Ring, Same, Words, first_invalid_from, portable_sets, portable_transform,
    portable_transform_checked,
};
use crate::arith::{ExponentRule, Montgomery, Shoup32, Shoup64, Word, inverse_power_of_two};
use crate::error::{Error, Result};
use crate::parallel;
use crate::simd::{self, Backend, PARALLEL_MIN};

/// The inverse of `2^log2` modulo an odd word `m` ([`inverse_power_of_two`]).
fn two_power_inverse_word(m: u64, log2: u32) -> u64 {
    u64::try_from(inverse_power_of_two(log2, &m.into())).expect("below m")
}

/// Residues modulo an odd `m` below half the word (`m < 2^31` for `u32`, `m < 2^63` for `u64`),
/// stored as words in `0..m`.
///
/// Additions stay below `2m - 1`, under the word's top, which is what keeps the transform's
/// branch-free reduction `min(s, s - m)` exact. Multiplication uses Montgomery form internally
/// ([`Montgomery`]); the transforms run on the SIMD kernels of the word ([`ModularWord`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modular<W: ModularWord> {
    mont: Montgomery<W>,
}

/// Residues modulo an odd `m < 2^31`, stored as `u32` in `0..m` ([`Modular`]).
///
/// ```
/// use nimcount::ring::{Mod32, Ring};
/// let ring = Mod32::new(998_244_353)?;
/// assert_eq!(ring.sub(0, 1), 998_244_352);
/// assert!(Mod32::new(1 << 31).is_err());
/// assert!(Mod32::new(10).is_err());
/// # Ok::<(), nimcount::Error>(())
/// ```
pub type Mod32 = Modular<u32>;

/// Residues modulo an odd `m < 2^63`, stored as `u64` in `0..m` ([`Modular`]).
///
/// ```
/// use nimcount::ring::{Mod64, Ring};
/// let ring = Mod64::new((1 << 61) - 1)?;
/// assert_eq!(ring.mul(1 << 60, 4), 2);
/// # Ok::<(), nimcount::Error>(())
/// ```
pub type Mod64 = Modular<u64>;

/// A word of [`Modular`] residues: its bounds, and the SIMD kernels and pointwise products that
/// the built-in backends have for it (each returns false, or `None`, where the caller must run
/// the portable code). Sealed: `u32` and `u64`.
pub trait ModularWord: Word + fmt::Display + Into<u64> + 'static {
    /// `u32` or `u64`, as the ring's name shows it.
    #[doc(hidden)]
    const NAME: &'static str;
    /// The largest accepted modulus, `2^(B−1) − 1`.
    #[doc(hidden)]
    const MAX_MODULUS: Self;
    /// The word below `m` (`v < m`).
    #[doc(hidden)]
    fn from_u64(v: u64) -> Self;
    /// The transform: on the SIMD kernel of `backend`, else the portable code. This and the
    /// entries below are the ring's work, compiled here once per word rather than in each crate
    /// that calls [`Ring`]'s methods on [`Mod32`] or [`Mod64`].
    #[doc(hidden)]
    fn transform(ring: Modular<Self>, data: &mut [Self], log2: u32, backend: Backend, parallel: bool);
    /// The zeta or Möbius transform ([`Ring::transform_sets`]): whether a SIMD kernel ran it.
    #[doc(hidden)]
    fn sets(
        ring: Modular<Self>,
        data: &mut [Self],
        log2: u32,
        superset: bool,
        inverse: bool,
        backend: Backend,
        parallel: bool,
    ) -> bool;
    /// One column pass across `rows`.
    #[doc(hidden)]
    fn rows(m: Self, rows: &mut [&mut [Self]], staggered: bool, backend: Backend, parallel: bool) -> bool;
    /// The transform that checks each block as it loads it ([`Ring::transform_checked`]).
    #[doc(hidden)]
    fn checked(
        ring: Modular<Self>,
        data: &mut [Self],
        log2: u32,
        backend: Backend,
        parallel: bool,
    ) -> std::result::Result<(), usize>;
    /// `x^e` for every `x` of `data`.
    #[doc(hidden)]
    fn pow_each(ring: Modular<Self>, data: &mut [Self], e: u64, backend: Backend, parallel: bool);
    /// `a · b · 2^-log2` elementwise ([`Ring::mul_each_scaled`]).
    #[doc(hidden)]
    fn mul_each_scaled(
        ring: Modular<Self>,
        a: &mut [Self],
        b: &[Self],
        log2: u32,
        backend: Backend,
        parallel: bool,
    );
    /// `x^e` for every `x` of `data`, on the SIMD kernel from the start: how many it did.
    #[doc(hidden)]
    fn pow_simd(mont: Montgomery<Self>, data: &mut [Self], e: u64, backend: Backend) -> usize;
    /// `a · b` in Montgomery form times `w_r2` for the leading elements: how many it did.
    #[doc(hidden)]
    fn mul_scaled_simd(
        mont: Montgomery<Self>,
        a: &mut [Self],
        b: &[Self],
        w_r2: Self,
        backend: Backend,
    ) -> usize;
    /// `x · w mod m` for every `x`, `w` fixed (Shoup's products).
    #[doc(hidden)]
    fn mul_each_by(data: &mut [Self], w: Self, m: Self, parallel: bool);
    /// The ring's words for the subset convolution ([`Ring::words`]).
    #[doc(hidden)]
    fn words(ring: Modular<Self>) -> Words<Self>;
}

/// The Montgomery constants the SIMD kernels of `u32` take.
fn constants(mont: Montgomery<u32>) -> simd::pointwise::Montgomery32 {
    simd::pointwise::Montgomery32 {
        m: mont.modulus(),
        neg_inv: mont.neg_inv(),
        r2: mont.r2(),
        one: mont.one(),
    }
}

/// The ring's entries of a [`ModularWord`]: the word's transform, zeta and Möbius transforms,
/// column pass and checked transform on its kernels, with the portable code where no kernel
/// runs, and its pointwise powers and products.
macro_rules! kernels {
    ($w:ty, $transform:path, $sets:path, $rows:path, $checked:path) => {
        fn transform(ring: Modular<$w>, data: &mut [$w], log2: u32, backend: Backend, parallel: bool) {
            if !$transform(ring.modulus(), data, log2, backend.isa(), parallel) {
                portable_transform(&ring, data, log2, parallel);
            }
        }
        fn sets(
            ring: Modular<$w>,
            data: &mut [$w],
            log2: u32,
            superset: bool,
            inverse: bool,
            backend: Backend,
            parallel: bool,
        ) -> bool {
            let kind = simd::sets::kind(superset, inverse);
            let ran = $sets(ring.modulus(), kind, data, log2, backend.isa(), parallel);
            if !ran {
                portable_sets(&ring, data, log2, superset, inverse, parallel);
            }
            ran
        }
        fn rows(m: $w, rows: &mut [&mut [$w]], staggered: bool, backend: Backend, parallel: bool) -> bool {
            $rows(m, rows, staggered, backend.isa(), parallel)
        }
        /// Each block is checked as the kernel first loads it (see
        /// [`crate::simd::kernel::transform_checked`]); no pass over memory of its own.
        fn checked(
            ring: Modular<$w>,
            data: &mut [$w],
            log2: u32,
            backend: Backend,
            parallel: bool,
        ) -> std::result::Result<(), usize> {
            let undo = |block: &mut [$w]| {
                let _ = ring.divide_by_power_of_two(block, block.len().trailing_zeros(), false);
            };
            match $checked(ring.modulus(), data, log2, backend.isa(), parallel, &undo) {
                Some(result) => result.map_err(|start| first_invalid_from(&ring, data, start)),
                None => portable_transform_checked(&ring, data, log2, parallel, &undo),
            }
        }
        fn pow_each(ring: Modular<$w>, data: &mut [$w], e: u64, backend: Backend, parallel: bool) {
            ring.pow_each_word(data, e, backend, parallel);
        }
        fn mul_each_scaled(
            ring: Modular<$w>,
            a: &mut [$w],
            b: &[$w],
            log2: u32,
            backend: Backend,
            parallel: bool,
        ) {
            ring.mul_each_scaled_word(a, b, log2, backend, parallel);
        }
    };
}

impl ModularWord for u32 {
    const NAME: &'static str = "u32";
    const MAX_MODULUS: u32 = (1 << 31) - 1;
    fn from_u64(v: u64) -> u32 {
        v as u32
    }
    kernels!(u32, simd::mod32, simd::sets::mod32, simd::mod32_rows, simd::mod32_checked);
    fn pow_simd(mont: Montgomery<u32>, data: &mut [u32], e: u64, backend: Backend) -> usize {
        simd::pointwise::pow_mod32(constants(mont), data, e, backend.isa())
    }
    fn mul_scaled_simd(
        mont: Montgomery<u32>,
        a: &mut [u32],
        b: &[u32],
        w_r2: u32,
        backend: Backend,
    ) -> usize {
        simd::pointwise::mul_scaled_mod32(constants(mont), a, b, w_r2, backend.isa())
    }
    fn mul_each_by(data: &mut [u32], w: u32, m: u32, parallel: bool) {
        let w = Shoup32::new(w, m);
        parallel::for_each(data, parallel, PARALLEL_MIN, |x| *x = w.mul(*x));
    }
    fn words(ring: Mod32) -> Words<u32> {
        Words::Mod32(ring, Same::id())
    }
}

impl ModularWord for u64 {
    const NAME: &'static str = "u64";
    const MAX_MODULUS: u64 = (1 << 63) - 1;
    fn from_u64(v: u64) -> u64 {
        v
    }
    kernels!(u64, simd::mod64, simd::sets::mod64, simd::mod64_rows, simd::mod64_checked);
    /// No vectorised power of 64-bit residues: the scalar loop does them all.
    fn pow_simd(_: Montgomery<u64>, _: &mut [u64], _: u64, _: Backend) -> usize {
        0
    }
    fn mul_scaled_simd(_: Montgomery<u64>, _: &mut [u64], _: &[u64], _: u64, _: Backend) -> usize {
        0
    }
    fn mul_each_by(data: &mut [u64], w: u64, m: u64, parallel: bool) {
        let w = Shoup64::new(w, m);
        parallel::for_each(data, parallel, PARALLEL_MIN, |x| *x = w.mul(*x));
    }
    fn words(ring: Mod64) -> Words<u64> {
        Words::Mod64(ring, Same::id())
    }
}

impl<W: ModularWord> Modular<W> {
    /// The largest accepted modulus: `2^31 − 1` for [`Mod32`], `2^63 − 1` for [`Mod64`].
    pub const MAX_MODULUS: W = W::MAX_MODULUS;

    /// The ring of residues modulo `m`; `m` must be odd and at most [`Modular::MAX_MODULUS`].
    pub fn new(m: W) -> Result<Self> {
        let invalid = |reason| Error::InvalidModulus { modulus: m.to_string(), reason };
        if !m.is_odd() {
            return Err(invalid(
                "an odd modulus is needed (Montgomery arithmetic; the XOR transform also needs 1/2); \
                 the wrapping rings compute modulo powers of two",
            ));
        }
        if m > W::MAX_MODULUS {
            return Err(invalid(if W::BITS == 32 {
                "the modulus must be below 2^31 (Mod64 takes moduli below 2^63)"
            } else {
                "the modulus must be below 2^63"
            }));
        }
        Ok(Modular { mont: Montgomery::new(m) })
    }

    /// The modulus.
    pub fn modulus(&self) -> W {
        self.mont.modulus()
    }

    /// The inverse of `2^log2` modulo `m`.
    fn two_power_inverse(&self, log2: u32) -> W {
        W::from_u64(two_power_inverse_word(self.modulus().into(), log2))
    }
}

impl Mod32 {
    /// `x mod m`.
    pub fn reduce(&self, x: u64) -> u32 {
        (x % u64::from(self.modulus())) as u32
    }
}

impl Mod64 {
    /// `x mod m`.
    pub fn reduce(&self, x: u128) -> u64 {
        (x % u128::from(self.modulus())) as u64
    }
}

impl<W: ModularWord> fmt::Display for Modular<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} mod {}", W::NAME, self.modulus())
    }
}

impl<W: ModularWord + bytemuck::Pod> Ring for Modular<W> {
    type Elem = W;
    const NAMES_ITS_WORDS: bool = true;

    fn zero(&self) -> W {
        W::from_u64(0)
    }
    fn one(&self) -> W {
        W::from_u64(1 % self.modulus().into())
    }
    /// `a + b < 2m - 1 < 2^B`; `min(s, s - m)` picks `s - m` exactly when `s >= m`
    /// (otherwise `s - m` wraps above `2^(B−1) > s`).
    #[inline]
    fn add(&self, a: W, b: W) -> W {
        let s = a.wrapping_add(b);
        s.min(s.wrapping_sub(self.modulus()))
    }
    /// `a - b` wraps above `2^B - m > m` exactly when `a < b`; then `d + m` is the residue.
    #[inline]
    fn sub(&self, a: W, b: W) -> W {
        let d = a.wrapping_sub(b);
        d.min(d.wrapping_add(self.modulus()))
    }
    #[inline]
    fn mul(&self, a: W, b: W) -> W {
        self.mont.mul_plain(a, b)
    }
    fn reduce_exponent(&self, k: &BigUint) -> BigUint {
        ExponentRule::for_modulus(self.modulus().into()).reduce(k)
    }
    fn pow(&self, x: W, k: &BigUint) -> W {
        self.mont.pow_of(x, &exponent_u64(&self.reduce_exponent(k)))
    }
    fn is_valid(&self, x: &W) -> bool {
        *x < self.modulus()
    }
    fn can_halve(&self) -> bool {
        true
    }
    fn divide_by_power_of_two(&self, data: &mut [W], log2: u32, parallel: bool) -> Result<()> {
        W::mul_each_by(data, self.two_power_inverse(log2), self.modulus(), parallel);
        Ok(())
    }
    fn pow_each(
        &self,
        data: &mut [W],
        k: &BigUint,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> Result<()> {
        W::pow_each(*self, data, exponent_u64(&self.reduce_exponent(k)), backend, parallel);
        Ok(())
    }
    /// `a · b · 2^-log2`: `(a·b·R⁻¹) · (w·R²) · R⁻¹`, two Montgomery products and no
    /// conversion (vectorised for `u32`).
    fn mul_each_scaled(
        &self,
        a: &mut [W],
        b: &[W],
        log2: u32,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> Result<bool> {
        W::mul_each_scaled(*self, a, b, log2, backend, parallel);
        Ok(true)
    }
    fn words(&self, _: Internal) -> Words<W> {
        W::words(*self)
    }
    fn transform(&self, data: &mut [W], log2: u32, backend: Backend, parallel: bool, _: Internal) {
        W::transform(*self, data, log2, backend, parallel);
    }
    fn transform_sets(
        &self,
        data: &mut [W],
        log2: u32,
        superset: bool,
        inverse: bool,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> bool {
        W::sets(*self, data, log2, superset, inverse, backend, parallel)
    }
    fn transform_rows(
        &self,
        rows: &mut [&mut [W]],
        staggered: bool,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> bool {
        W::rows(self.modulus(), rows, staggered, backend, parallel)
    }
    fn transform_checked(
        &self,
        data: &mut [W],
        log2: u32,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> std::result::Result<(), usize> {
        W::checked(*self, data, log2, backend, parallel)
    }
}

impl<W: ModularWord> Modular<W> {
    /// [`Ring::pow_each`] with the exponent reduced to a word.
    fn pow_each_word(self, data: &mut [W], e: u64, backend: Backend, parallel: bool) {
        let mont = self.mont;
        parallel::chunks(data, parallel, 2 * POW_CHUNK, |chunk| {
            let done = W::pow_simd(mont, chunk, e, backend);
            for x in &mut chunk[done..] {
                *x = mont.pow_of(*x, &e);
            }
        });
    }

    /// [`Ring::mul_each_scaled`].
    fn mul_each_scaled_word(self, a: &mut [W], b: &[W], log2: u32, backend: Backend, parallel: bool) {
        let mont = self.mont;
        // w · R² mod m: a Montgomery product with it multiplies by w · R.
        let w_r2 = mont.mul(mont.enter(self.two_power_inverse(log2)), mont.r2());
        let b = &b[..a.len()];
        crate::parallel::zip_chunks(a, b, parallel, PARALLEL_MIN, |a, b| {
            let done = W::mul_scaled_simd(mont, a, b, w_r2, backend);
            for (x, &y) in a[done..].iter_mut().zip(&b[done..]) {
                *x = mont.mul(mont.mul(*x, y), w_r2);
            }
        });
    }
}

/// An exponent reduced by a word modulus' rule: below `λ(m) + threshold`, so a word.
fn exponent_u64(e: &BigUint) -> u64 {
    u64::try_from(e).expect("an exponent reduced modulo a word's λ fits in a word")
}
