//! XOR convolution and XOR powers through the transform; AND and OR convolutions through the
//! zeta transforms ([`and_convolve`], [`or_convolve`]); the subset convolution by ranked zeta
//! transforms ([`subset_convolve`]).
//!
//! `W(a *ₓ b) = Wa · Wb` pointwise and `W W = n·I`, so `a *ₓ b = W(Wa · Wb) / n` and the k-th
//! XOR power is `W((Wa)^k) / n`: two forward transforms (one for a power), a pointwise pass, and
//! the normalised inverse (odd moduli and floats multiply by `1/n`; exact integer rings divide
//! exactly and refuse a remainder).

pub(crate) mod bitwise;
pub(crate) mod subset;

pub use bitwise::{and_convolve, or_convolve};
pub use subset::{subset_convolve, subset_convolve_with_backend};

use num_bigint::BigUint;

use crate::error::{Error, Result};
use crate::fwht::Plan;
use crate::ring::Ring;

/// `c[k] = Σ_{i ^ j = k} a[i] · b[j]`; `a` and `b` must have the same power-of-two length.
///
/// ```
/// use nimcount::{convolve::xor_convolve, ring::Exact64};
/// // Two heaps of Grundy value 0 or 1 (one way each): XOR 0 in 2 ways, XOR 1 in 2 ways.
/// assert_eq!(xor_convolve(Exact64, &[1, 1], &[1, 1])?, [2, 2]);
/// # Ok::<(), nimcount::Error>(())
/// ```
///
/// Errors: lengths that differ, are 0, or are not powers of two; a ring without `1/2` (the wrapping
/// rings); an exact ring whose products or sums could overflow.
///
/// For repeated convolutions without allocation, see [`Plan::xor_convolve_in_place`].
pub fn xor_convolve<R: Ring>(ring: R, a: &[R::Elem], b: &[R::Elem]) -> Result<Vec<R::Elem>>
where
    R::Elem: Copy,
{
    if a.len() != b.len() {
        return Err(Error::LengthsDiffer { left: a.len(), right: b.len() });
    }
    let plan = Plan::new(ring, crate::fwht::checked_len(a.len())?)?;
    let (mut fa, mut fb) = crate::memory::copies_of(|| "the transforms of the two operands".into(), a, b)?;
    plan.xor_convolve_in_place(&mut fa, &mut fb)?;
    Ok(fa)
}

/// The k-th XOR power `a *ₓ a *ₓ … *ₓ a` (`k` factors; `k = 0` gives the identity `[1, 0, …]`).
///
/// ```
/// use nimcount::{convolve::xor_power, ring::Mod32};
/// let ring = Mod32::new(1_000_000_007)?;
/// // Heaps of Nim with 0..=3 stones; 3 heaps: 16 of the 64 triples have XOR 0.
/// let triples = xor_power(ring, &[1, 1, 1, 1], 3u32)?;
/// assert_eq!(triples, [16, 16, 16, 16]);
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn xor_power<R: Ring>(ring: R, a: &[R::Elem], k: impl Into<BigUint>) -> Result<Vec<R::Elem>>
where
    R::Elem: Copy,
{
    let plan = Plan::new(ring, crate::fwht::checked_len(a.len())?)?;
    if plan.log2() > 0 && !plan.ring().can_halve() {
        return Err(Error::NoInverseOfTwo { ring: plan.ring().to_string() });
    }
    let mut fa = crate::memory::copy_of(|| "the transform of the operand".into(), a)?;
    plan.forward(&mut fa)?;
    plan.pow_each(&mut fa, k)?;
    plan.inverse(&mut fa)?;
    Ok(fa)
}

/// `x ← x^k` for every element of `data` (any length but 0; `x^0 = 1`, also for `x = 0`), on the
/// widest backend of this CPU and rayon's thread pool: the pointwise step of an XOR power. The
/// built-in modular rings reduce `k` with a rule that holds for every element (bases sharing
/// factors with the modulus included); the exact rings report an overflow.
///
/// ```
/// use nimcount::{convolve::pow_each, ring::Mod32};
/// let mut x = vec![2, 3, 0, 1];
/// pow_each(&Mod32::new(7)?, &mut x, "1000000000000000000000".parse::<nimcount::num_bigint::BigUint>().unwrap())?;
/// assert_eq!(x, [2, 4, 0, 1]); // λ(7) = 6 and 10^21 = 4 mod 6
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn pow_each<R: Ring>(ring: &R, data: &mut [R::Elem], k: impl Into<BigUint>) -> Result<()> {
    crate::fwht::checked_len(data.len())?;
    ring.pow_each(data, &k.into(), crate::simd::Backend::best(), true, crate::ring::Internal(()))
}
