//! XOR convolution and XOR powers through the transform.
//!
//! `W(a *ₓ b) = Wa · Wb` pointwise and `W W = n·I`, so `a *ₓ b = W(Wa · Wb) / n` and the k-th
//! XOR power is `W((Wa)^k) / n`: two forward transforms (one for a power), a pointwise pass, and
//! the normalised inverse (odd moduli and floats multiply by `1/n`; exact integer rings divide
//! exactly and refuse a remainder).

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
/// Errors: lengths that differ or are not powers of two; a ring without `1/2` (the wrapping
/// rings); an exact ring whose products or sums could overflow.
pub fn xor_convolve<R: Ring>(ring: R, a: &[R::Elem], b: &[R::Elem]) -> Result<Vec<R::Elem>> {
    if a.len() != b.len() {
        return Err(Error::InvalidQuery(format!(
            "XOR convolution needs operands of the same length, not {} and {}",
            a.len(),
            b.len()
        )));
    }
    let plan = Plan::new(ring, a.len())?;
    check_halving(&plan)?;
    let (mut fa, mut fb) = (a.to_vec(), b.to_vec());
    plan.forward(&mut fa)?;
    plan.forward(&mut fb)?;
    for (x, &y) in fa.iter_mut().zip(&fb) {
        *x = checked_mul(&ring, *x, y)?;
    }
    finish(&plan, fa)
}

/// The k-th XOR power `a *ₓ a *ₓ … *ₓ a` (`k` factors; `k = 0` gives the identity `[1, 0, …]`).
///
/// ```
/// use nimcount::{convolve::xor_power, ring::Mod32};
/// let ring = Mod32::new(1_000_000_007)?;
/// // Heaps of Nim with 0..=3 stones; 3 heaps: 16 of the 64 triples have XOR 0.
/// let triples = xor_power(ring, &[1, 1, 1, 1], &3u32.into())?;
/// assert_eq!(triples, [16, 16, 16, 16]);
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn xor_power<R: Ring>(ring: R, a: &[R::Elem], k: &BigUint) -> Result<Vec<R::Elem>> {
    let plan = Plan::new(ring, a.len())?;
    check_halving(&plan)?;
    let mut fa = a.to_vec();
    plan.forward(&mut fa)?;
    ring.pow(&mut fa, k)?;
    finish(&plan, fa)
}

fn check_halving<R: Ring>(plan: &Plan<R>) -> Result<()> {
    if plan.log2() > 0 && !plan.ring().can_halve() {
        return Err(Error::NoInverseOfTwo { ring: plan.ring().to_string() });
    }
    Ok(())
}

/// The product, or an overflow error where the ring has none (exact integers).
fn checked_mul<R: Ring>(ring: &R, x: R::Elem, y: R::Elem) -> Result<R::Elem> {
    ring.checked_mul(x, y).ok_or_else(|| Error::Overflow {
        what: "pointwise product",
        ring: ring.to_string(),
        detail: format!("{x} * {y}"),
    })
}

/// The inverse transform of the pointwise result.
fn finish<R: Ring>(plan: &Plan<R>, mut c: Vec<R::Elem>) -> Result<Vec<R::Elem>> {
    plan.inverse(&mut c)?;
    Ok(c)
}
